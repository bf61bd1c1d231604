package sas

import (
	"bytes"
	"testing"
)

func TestWagerCategoryRoundTrip(t *testing.T) {
	poll, err := WagerCategoryPollData(0, 1)
	if err != nil || !bytes.Equal(poll, []byte{0x00, 0x00, 0x00, 0x01}) {
		t.Fatalf("poll data % X %v", poll, err)
	}
	if g, c, err := ParseWagerCategoryPoll(poll); err != nil || g != 0 || c != 1 {
		t.Fatalf("parsed %d %d %v", g, c, err)
	}
	for _, w := range []WagerCategory{
		{Game: 0, Category: 1, Payback: "9250", Size: 5, CoinIn: 12_345_678_90},
		{Game: 12, Category: 9999, Payback: "0000"}, // a category the machine does not have
	} {
		b, err := WagerCategoryData(w)
		if err != nil {
			t.Fatalf("%+v: %v", w, err)
		}
		if int(b[0]) != len(b)-1 {
			t.Fatalf("%+v: length byte %d, %d bytes follow", w, b[0], len(b)-1)
		}
		got, err := DecodeWagerCategory(b)
		if err != nil || got != w {
			t.Fatalf("%+v: decoded %+v %v", w, got, err)
		}
	}
	want := []byte{0x0E, 0x00, 0x00, 0x00, 0x01, '9', '2', '5', '0', 0x05, 0x12, 0x34, 0x56, 0x78, 0x90}
	if b, _ := WagerCategoryData(WagerCategory{Category: 1, Payback: "9250", Size: 5, CoinIn: 1234567890}); !bytes.Equal(b, want) {
		t.Fatalf("reply % X, want % X", b, want)
	}
}

func TestWagerCategoryRefusals(t *testing.T) {
	for _, w := range []WagerCategory{
		{Payback: "92.5", Size: 5},
		{Payback: "9250", Size: 10},
		{Payback: "9250", Size: 1, CoinIn: 100},
		{Payback: "9250", Size: 0},
		{Game: 10000, Payback: "0000"},
	} {
		if _, err := WagerCategoryData(w); err == nil {
			t.Errorf("%+v encoded", w)
		}
	}
	for _, b := range [][]byte{
		{},
		{0x09, 0, 0, 0, 1, '9', '2', '5', '0'}, // short
		{0x0A, 0, 0, 0, 1, '9', '2', '5', '0', 0x01, 0x9A},    // bad BCD
		{0x0A, 0, 0, 0, 1, '9', '2', 'x', '0', 0x01, 0x99},    // bad payback
		{0x0B, 0, 0, 0, 1, '9', '2', '5', '0', 0x01, 0x99, 0}, // size disagrees
	} {
		if w, err := DecodeWagerCategory(b); err == nil {
			t.Errorf("% X decoded as %+v", b, w)
		}
	}
	if _, _, err := ParseWagerCategoryPoll([]byte{0, 0, 0x0A, 0}); err == nil {
		t.Error("bad BCD category parsed")
	}
}
