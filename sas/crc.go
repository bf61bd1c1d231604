package sas

// The SAS CRC is CRC-16/KERMIT: polynomial x^16+x^12+x^5+1 (0x1021)
// processed least significant bit first (so the reflected constant 0x8408
// is used), initial value 0, no final XOR. It covers every byte of a message
// from the address to the last data byte and is sent low byte first.
// Check value: CRC("123456789") = 0x2189.

const crcPoly = 0x8408

var crcTable = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ crcPoly
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
}()

// CRC returns the SAS CRC of data.
func CRC(data []byte) uint16 { return CRCSeeded(0, data) }

// CRCSeeded returns the SAS CRC of data starting from seed instead of 0.
// The ROM signature long poll (0x21) asks for the CRC of the program seeded
// with a value chosen by the host; CRCSeeded(seed, a+b) equals
// CRCSeeded(CRCSeeded(seed, a), b), so a large image can be done in pieces.
func CRCSeeded(seed uint16, data []byte) uint16 {
	c := seed
	for _, b := range data {
		c = c>>8 ^ crcTable[byte(c)^b]
	}
	return c
}

// AppendCRC appends the CRC of msg to msg, low byte first, and returns the
// extended slice.
func AppendCRC(msg []byte) []byte {
	c := CRC(msg)
	return append(msg, byte(c), byte(c>>8))
}

// CheckCRC reports whether the last two bytes of frame are the CRC (low
// byte first) of the bytes before them. Frames shorter than 3 bytes fail.
func CheckCRC(frame []byte) bool {
	n := len(frame)
	if n < 3 {
		return false
	}
	c := CRC(frame[:n-2])
	return frame[n-2] == byte(c) && frame[n-1] == byte(c>>8)
}
