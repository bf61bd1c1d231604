package sas

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestEncodeBCD(t *testing.T) {
	for _, c := range []struct {
		v    uint64
		n    int
		want []byte
	}{
		{0, 4, []byte{0, 0, 0, 0}},
		{99999999, 4, []byte{0x99, 0x99, 0x99, 0x99}},         // max of 8 digits
		{100000000, 4, []byte{0, 0, 0, 0}},                    // rolls over at the width
		{123456789, 4, []byte{0x23, 0x45, 0x67, 0x89}},        // keeps the low 8 digits
		{1234567890, 5, []byte{0x12, 0x34, 0x56, 0x78, 0x90}}, // cents: 10 digits
		{9999999999, 5, []byte{0x99, 0x99, 0x99, 0x99, 0x99}}, // max of 10 digits
		{10000000001, 5, []byte{0, 0, 0, 0, 0x01}},            // rollover
		{12345, 2, []byte{0x23, 0x45}},                        // 0x18: 4 digits
		{7, 1, []byte{0x07}},
		{1234567890, 8, []byte{0, 0, 0, 0x12, 0x34, 0x56, 0x78, 0x90}}, // padding
		{math.MaxUint64, 10, []byte{0x18, 0x44, 0x67, 0x44, 0x07, 0x37, 0x09, 0x55, 0x16, 0x15}},
		{5, 0, nil},
	} {
		if got := EncodeBCD(c.v, c.n); !bytes.Equal(got, c.want) {
			t.Errorf("EncodeBCD(%d, %d) = % X, want % X", c.v, c.n, got, c.want)
		}
	}
	if got := AppendBCD([]byte{0xAA}, 42, 2); !bytes.Equal(got, []byte{0xAA, 0x00, 0x42}) {
		t.Errorf("AppendBCD = % X", got)
	}
}

func TestDecodeBCD(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		want uint64
	}{
		{nil, 0},
		{[]byte{0, 0, 0, 0}, 0},
		{[]byte{0x99, 0x99, 0x99, 0x99}, 99999999},
		{[]byte{0x12, 0x34, 0x56, 0x78, 0x90}, 1234567890},
		{[]byte{0x18, 0x44, 0x67, 0x44, 0x07, 0x37, 0x09, 0x55, 0x16, 0x15}, math.MaxUint64},
	} {
		got, err := DecodeBCD(c.b)
		if err != nil || got != c.want {
			t.Errorf("DecodeBCD(% X) = %d, %v; want %d", c.b, got, err, c.want)
		}
	}
	for _, bad := range [][]byte{{0x1A}, {0xA1}, {0x12, 0x3F}, {0xFF, 0xFF}} {
		if _, err := DecodeBCD(bad); !errors.Is(err, ErrBCD) {
			t.Errorf("DecodeBCD(% X) error = %v, want ErrBCD", bad, err)
		}
	}
	for _, big := range [][]byte{
		{0x18, 0x44, 0x67, 0x44, 0x07, 0x37, 0x09, 0x55, 0x16, 0x16}, // MaxUint64 + 1
		bytes.Repeat([]byte{0x99}, 10),
		append([]byte{0x01}, make([]byte, 10)...), // 10^20
	} {
		if _, err := DecodeBCD(big); !errors.Is(err, ErrBCDRange) {
			t.Errorf("DecodeBCD(% X) error = %v, want ErrBCDRange", big, err)
		}
	}
}

func TestBCDRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		v := r.Uint64() >> r.IntN(64)
		n := 1 + r.IntN(10)
		got, err := DecodeBCD(EncodeBCD(v, n))
		want := v
		if 2*n < 20 {
			want = v % pow10(2*n)
		}
		if err != nil || got != want {
			t.Fatalf("DecodeBCD(EncodeBCD(%d, %d)) = %d, %v; want %d", v, n, got, err, want)
		}
	}
}

func TestEncodeTime(t *testing.T) {
	got := EncodeTime(time.Date(2026, 11, 30, 3, 59, 7, 0, time.UTC))
	want := []byte{0x11, 0x30, 0x20, 0x26, 0x03, 0x59, 0x07}
	if !bytes.Equal(got, want) {
		t.Fatalf("% X, want % X", got, want)
	}
}
