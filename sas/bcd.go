package sas

import (
	"errors"
	"fmt"
	"time"
)

// Packed BCD: two decimal digits per byte, the most significant byte first,
// the high nibble of each byte the more significant digit. A field of n
// bytes holds 2n digits; SAS meters are 4 bytes (8 digits) unless stated
// and amounts in cents are 5 bytes (10 digits).
//
// Rollover: encoding keeps the value modulo 10^(2n), so a meter that has
// passed the width of its field is reported as its low 2n digits, which is
// how a SAS meter rolls over. Decoding is strict: a nibble above 9 is an
// error, never a guess.

// ErrBCD is returned (wrapped) for a byte that is not packed BCD.
var ErrBCD = errors.New("sas: invalid BCD")

// ErrBCDRange is returned (wrapped) for a BCD number too large for uint64.
var ErrBCDRange = errors.New("sas: BCD value exceeds uint64")

// EncodeBCD returns v as n bytes of packed BCD, modulo 10^(2n). n <= 0
// gives an empty slice.
func EncodeBCD(v uint64, n int) []byte {
	return AppendBCD(nil, v, n)
}

// AppendBCD appends v as n bytes of packed BCD (v modulo 10^(2n)) to dst.
func AppendBCD(dst []byte, v uint64, n int) []byte {
	if n <= 0 {
		return dst
	}
	start := len(dst)
	for range n {
		dst = append(dst, 0)
	}
	for i := start + n - 1; i >= start; i-- {
		lo := byte(v % 10)
		v /= 10
		hi := byte(v % 10)
		v /= 10
		dst[i] = hi<<4 | lo
	}
	return dst
}

// DecodeBCD returns the value of packed BCD bytes. Every nibble must be
// 0–9 (ErrBCD otherwise, naming the byte); a value above the range of
// uint64 is ErrBCDRange. An empty slice is 0.
func DecodeBCD(b []byte) (uint64, error) {
	var v uint64
	for i, x := range b {
		hi, lo := x>>4, x&0x0f
		if hi > 9 || lo > 9 {
			return 0, fmt.Errorf("%w: byte %d is 0x%02X", ErrBCD, i, x)
		}
		for _, d := range [2]byte{hi, lo} {
			if v > (^uint64(0)-uint64(d))/10 {
				return 0, fmt.Errorf("%w: % X", ErrBCDRange, b)
			}
			v = v*10 + uint64(d)
		}
	}
	return v, nil
}

// pow10 returns 10^n for n <= 19.
func pow10(n int) uint64 {
	p := uint64(1)
	for range n {
		p *= 10
	}
	return p
}

// EncodeTime is the SAS date and time: MMDDYYYY and HHMMSS in BCD, the reply
// to 0x7E and the data of 0x7F.
func EncodeTime(t time.Time) []byte {
	b := AppendBCD(nil, uint64(t.Month()), 1)
	b = AppendBCD(b, uint64(t.Day()), 1)
	b = AppendBCD(b, uint64(t.Year()), 2)
	b = AppendBCD(b, uint64(t.Hour()), 1)
	b = AppendBCD(b, uint64(t.Minute()), 1)
	return AppendBCD(b, uint64(t.Second()), 1)
}
