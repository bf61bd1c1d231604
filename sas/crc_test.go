package sas

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestCRCCheckValue(t *testing.T) {
	if got := CRC([]byte("123456789")); got != 0x2189 {
		t.Fatalf("CRC(123456789) = %04X, want 2189", got)
	}
	if got := CRC(nil); got != 0 {
		t.Fatalf("CRC(empty) = %04X, want 0 (initial value 0, no final XOR)", got)
	}
}

// Frames taken from a public SAS host that drives real machines
// (github.com/soicasino/spark-sas2: simple_lock_unlock.py,
// test_aft_capability.py: "01015108" lock, "0102CA3A" unlock,
// "017201800BB4" AFT cancel), CRC low byte first.
func TestCRCKnownFrames(t *testing.T) {
	for _, frame := range [][]byte{
		{0x01, 0x01, 0x51, 0x08},
		{0x01, 0x02, 0xCA, 0x3A},
		{0x01, 0x72, 0x01, 0x80, 0x0B, 0xB4},
	} {
		if !CheckCRC(frame) {
			t.Errorf("CheckCRC(% X) = false", frame)
		}
		if got := AppendCRC(bytes.Clone(frame[:len(frame)-2])); !bytes.Equal(got, frame) {
			t.Errorf("AppendCRC = % X, want % X", got, frame)
		}
	}
}

// crcBitwise is the textbook bit-at-a-time CRC-16/KERMIT, an independent
// reference for the table-driven one.
func crcBitwise(seed uint16, data []byte) uint16 {
	c := seed
	for _, b := range data {
		c ^= uint16(b)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0x8408
			} else {
				c >>= 1
			}
		}
	}
	return c
}

func TestCRCMatchesBitwise(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		data := make([]byte, r.IntN(64))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		seed := uint16(r.Uint32())
		if got, want := CRCSeeded(seed, data), crcBitwise(seed, data); got != want {
			t.Fatalf("CRCSeeded(%04X, % X) = %04X, want %04X", seed, data, got, want)
		}
	}
}

func TestCRCSeeded(t *testing.T) {
	data := []byte("program image")
	if CRCSeeded(0, data) != CRC(data) {
		t.Fatal("CRCSeeded(0, x) != CRC(x)")
	}
	if CRCSeeded(0x1234, nil) != 0x1234 {
		t.Fatal("CRCSeeded(seed, empty) != seed")
	}
	if CRCSeeded(0x1234, data) == CRC(data) {
		t.Fatal("the seed does not change the signature")
	}
	a, b := data[:5], data[5:]
	if CRCSeeded(CRCSeeded(0xBEEF, a), b) != CRCSeeded(0xBEEF, data) {
		t.Fatal("CRCSeeded does not chain over pieces")
	}
}

func TestCheckCRCDetects(t *testing.T) {
	frame := AppendCRC([]byte{0x01, 0x21, 0xAB, 0xCD})
	if !bytes.Equal(frame, []byte{0x01, 0x21, 0xAB, 0xCD, 0xE2, 0x13}) {
		t.Fatalf("AppendCRC = % X", frame) // computed by hand, low byte first
	}
	for i := range frame {
		for bit := range 8 {
			bad := bytes.Clone(frame)
			bad[i] ^= 1 << bit
			if CheckCRC(bad) {
				t.Fatalf("single-bit error at byte %d bit %d not detected", i, bit)
			}
		}
	}
	for _, short := range [][]byte{nil, {0}, {0, 0}} {
		if CheckCRC(short) {
			t.Fatalf("CheckCRC(% X) = true", short)
		}
	}
}

func BenchmarkCRC(b *testing.B) {
	data := make([]byte, 4096)
	for i := range data {
		data[i] = byte(i * 7)
	}
	b.SetBytes(int64(len(data)))
	var sink uint16
	for b.Loop() {
		sink ^= CRC(data)
	}
	_ = sink
}
