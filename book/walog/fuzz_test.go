package walog

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func FuzzDecodeFrame(f *testing.F) {
	prev := genesis
	for seq, n := range []int{0, 1, 17, 300} {
		raw, h := encodeRecord(prev, uint64(seq+1), uint16(seq), bytes.Repeat([]byte{byte(n)}, n))
		f.Add(raw)
		prev = h
	}
	data, err := makeCheckpointData(testKey(1), 4, prev)
	if err != nil {
		f.Fatal(err)
	}
	ck, _ := encodeRecord(prev, 5, TypeCheckpoint, data)
	f.Add(ck)
	f.Add([]byte{})
	f.Add(make([]byte, frameOverhead))
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := decodeFrame(b)
		if err != nil {
			return
		}
		// Accepted frames have exactly one encoding.
		if again := appendFrame(nil, fr.seq, fr.typ, fr.data, fr.hash); !bytes.Equal(again, b) {
			t.Fatalf("frame re-encodes differently:\n%x\n%x", b, again)
		}
		if fr.typ == TypeCheckpoint {
			parseCheckpointData(fr.data) // must not panic on any payload
		}
	})
}

// FuzzScanSegment feeds arbitrary bytes to the segment parser as the last
// segment. It must not panic, and whatever it accepts as records or as a
// torn tail must account for every byte.
func FuzzScanSegment(f *testing.F) {
	var seg []byte
	prev := genesis
	for seq := uint64(1); seq <= 3; seq++ {
		raw, h := encodeRecord(prev, seq, 1, payloadFor(seq))
		seg = binary.AppendUvarint(seg, uint64(len(raw)))
		seg = append(seg, raw...)
		prev = h
	}
	f.Add(seg)
	f.Add(seg[:len(seg)-7])
	f.Add(append(append([]byte{}, seg...), make([]byte, 64)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := &scan{lastHash: genesis}
		ok := s.scanSegment("00000000000000000001", b, true, false)
		if !ok {
			if len(s.faults) == 0 {
				t.Fatal("scan stopped without a fault")
			}
			return
		}
		if s.torn != nil {
			if s.torn.offset+s.torn.length != int64(len(b)) || s.lastSegSize != s.torn.offset {
				t.Fatalf("torn tail %+v does not end the %d-byte segment", s.torn, len(b))
			}
		} else if s.lastSegSize != int64(len(b)) {
			t.Fatalf("accepted %d of %d bytes without a torn tail", s.lastSegSize, len(b))
		}
	})
}
