package sas

import (
	"bytes"
	"testing"
)

// FuzzProgressiveBroadcast: no input makes the broadcast parser panic, and
// whatever it accepts is canonical: group not 0, levels 1–32 and distinct,
// and building it again gives the same bytes (no byte is ignored).
func FuzzProgressiveBroadcast(f *testing.F) {
	d80, _ := SingleLevelBroadcastData(5, LevelValue{2, 123456})
	d86, _ := MultipleLevelBroadcastData(7, []LevelValue{{1, 100000}, {3, 99}})
	f.Add(byte(0x80), d80)
	f.Add(byte(0x86), d86)
	f.Add(byte(0x86), []byte{0x07, 0x01, 0x01, 0, 0, 0, 0, 0x0A})
	f.Add(byte(0x86), []byte{0x0D, 0x07, 0x01, 0, 0, 0, 0x10, 0, 0x01, 0, 0, 0, 0, 0x99})
	f.Add(byte(0x80), []byte{})
	f.Fuzz(func(t *testing.T, cmd byte, data []byte) {
		b, err := ParseProgressiveBroadcast(cmd, data)
		if err != nil {
			return
		}
		if b.Group == 0 || len(b.Levels) == 0 || len(b.Levels) > MaxProgressiveLevel {
			t.Fatalf("accepted %+v", b)
		}
		var again []byte
		switch cmd {
		case 0x80:
			if len(b.Levels) != 1 {
				t.Fatalf("80 with %d levels", len(b.Levels))
			}
			again, err = SingleLevelBroadcastData(b.Group, b.Levels[0])
		case 0x86:
			again, err = MultipleLevelBroadcastData(b.Group, b.Levels)
		default:
			t.Fatalf("command %02X accepted", cmd)
		}
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("% X parsed as %+v, built again as % X (%v)", data, b, again, err)
		}
	})
}

// FuzzProgressiveReplies: the decoders of the machine's replies (0x84/85,
// 0x87, 0x83, 0x1F; 0x1B has one decoder, the host's) never panic, and what they accept builds back
// to the same bytes.
func FuzzProgressiveReplies(f *testing.F) {
	w, _ := ProgressiveWinData(ProgressiveWin{5, 2, 123456})
	ws, _ := MultipleProgressiveWinsData(ProgressiveWins{5, []LevelValue{{1, 5000}, {1, 7}}})
	hp, _ := HandpayInfoData(HandpayInfo{Group: 3, Level: 1, Amount: 99, PartialPay: 1, ResetID: 1})
	mi, _ := MachineInfoData(MachineInfo{"LU", "001", 1, 5, 7, 0, "ABC123", "9650"})
	for _, s := range [][]byte{w, ws, hp, mi, {0x02, 0x05, 0x00}, make([]byte, 7), {0, 0, 0, 0x01, 0x23, 0x45}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if w, err := DecodeProgressiveWin(data); err == nil {
			if again, err := ProgressiveWinData(w); err != nil || !bytes.Equal(again, data) {
				t.Fatalf("85 % X → %+v → % X %v", data, w, again, err)
			}
		}
		if ws, err := DecodeMultipleProgressiveWins(data); err == nil {
			if again, err := MultipleProgressiveWinsData(ws); err != nil || !bytes.Equal(again, data) {
				t.Fatalf("87 % X → %+v → % X %v", data, ws, again, err)
			}
		}
		if g, v, err := DecodeCumulativeProgressiveWins(data); err == nil {
			if again, err := CumulativeProgressiveWinsData(g, v); err != nil || !bytes.Equal(again, data) {
				t.Fatalf("83 % X → %d %d → % X %v", data, g, v, again, err)
			}
		}
		if m, err := DecodeMachineInfo(data); err == nil {
			if again, err := MachineInfoData(m); err != nil || !bytes.Equal(again, data) {
				t.Fatalf("1F % X → %+v → % X %v", data, m, again, err)
			}
		}
	})
}
