package sas

import (
	"reflect"
	"testing"

	"github.com/openegm/cabinet/aft"
)

func TestAFTReceiptDataPoll(t *testing.T) {
	set := aft.ReceiptTextSet{Fields: []aft.TextField{{Code: aft.TextLocation, Text: "CASINO"}, {Code: aft.TextInHouse1}}}
	data, err := EncodeAFTReceiptData(set)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{10, 0x00, 6, 'C', 'A', 'S', 'I', 'N', 'O', 0x10, 0}
	if !reflect.DeepEqual(data, want) {
		t.Fatalf("encoded % X, want % X", data, want)
	}
	back, err := DecodeAFTReceiptData(data)
	if err != nil || !reflect.DeepEqual(back, set) {
		t.Fatalf("decoded %+v %v", back, err)
	}
	// The framer knows the poll: address, 75, length, data, CRC.
	frame := AppendCRC(append([]byte{1, CmdAFTReceiptData}, data...))
	f, err := ParseFrame(frame)
	if err != nil || f.Cmd != CmdAFTReceiptData || !reflect.DeepEqual(f.Data, data) {
		t.Fatalf("frame %+v %v", f, err)
	}
	for name, bad := range map[string][]byte{
		"a length that lies": {5, 0x00, 1, 'A'},
		"an unknown code":    {3, 0x05, 1, 'A'},
		"no field":           {0},
		"23 characters":      append([]byte{25, 0x00, 23}, []byte("ABCDEFGHIJKLMNOPQRSTUVW")...),
	} {
		if _, err := DecodeAFTReceiptData(bad); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}
