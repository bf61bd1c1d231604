package jackpot

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/openegm/cabinet/rng"
)

// fixture is a state with every feature in it: paytable and mystery levels,
// carries, overflow, reserve, history, pending claims, transfers and a
// closed level.
func fixture(t testing.TB) *Pools {
	t.Helper()
	p := &Pools{}
	mustApply(t, p, AddLevel{Level: "grand", Config: paytable(1000_00*cent, 0, 2_345, 1_111, SecondHitWinsReset), Who: "tech", At: 1})
	mustApply(t, p, AddLevel{Level: "major", Config: paytable(100_00*cent, 150_00*cent, 30_000, 0, SplitAmount), Who: "tech", At: 2})
	mystery := Config{ResetValue: 10_00 * cent, Cap: 50_00 * cent, Rate: 20_000, HiddenRate: 2_000, Trigger: TriggerMystery, SecondHit: SplitAmount}
	mustApply(t, p, AddLevel{Level: "minor", Config: mystery, Target: 12_34 * cent, Who: "tech", At: 3})
	mustApply(t, p, AddLevel{Level: "old", Config: paytable(5_00*cent, 0, 100, 0, SplitAmount), Who: "tech", At: 4})
	all := []string{"grand", "major", "minor", "old"}
	for i := range 300 {
		r := mustApply(t, p, Contribute{Levels: all[:3], Bet: 1 + int64(i%7)*37, Where: "m-0042", Game: uint64(i), At: int64(100 + i)})
		for _, c := range r.Claims {
			mustApply(t, p, Award{Level: c.Level, Target: 20_00 * cent, At: int64(100 + i)})
		}
	}
	mustApply(t, p, Hit{Level: "grand", Bet: 100, Where: "m-0001", Game: 9, At: 500})
	mustApply(t, p, Award{Level: "grand", At: 501})
	mustApply(t, p, Transfer{From: "old", To: "major", All: true, Close: true, Who: "inspector", Why: "machine withdrawn", At: 600})
	mustApply(t, p, Hit{Level: "major", Bet: 150, Where: "m-0002", Game: 10, At: 700})
	mustApply(t, p, Hit{Level: "major", Bet: 150, Where: "m-0003", Game: 11, At: 701})
	return p
}

func TestMarshalRoundTrip(t *testing.T) {
	for _, p := range []*Pools{{}, fixture(t)} {
		b, err := p.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var q Pools
		if err := q.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(exported(p), exported(&q)) {
			t.Fatalf("round trip changed the state:\n%+v\n%+v", exported(p), exported(&q))
		}
		b2, err := q.MarshalBinary()
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("re-marshal differs (%v)", err)
		}
		// The decoded state keeps working like the original.
		if len(p.levels) > 0 {
			op := Contribute{Levels: []string{"grand", "minor"}, Bet: 100, Where: "m"}
			r1, err1 := p.Apply(op)
			r2, err2 := q.Apply(op)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(r1, r2) {
				t.Fatalf("after round trip: %v %v\n%+v\n%+v", err1, err2, r1, r2)
			}
		}
	}
}

// exported is everything a reader sees, plus the hidden target.
func exported(p *Pools) any {
	type lv struct {
		V      LevelView
		Target int64
	}
	var ls []lv
	for _, id := range p.Levels() {
		v, _ := p.Level(id)
		ls = append(ls, lv{v, p.levels[p.index[id]].target})
	}
	return struct {
		Seq       uint64
		Levels    []lv
		Transfers []TransferRecord
	}{p.Seq(), ls, p.Transfers()}
}

func TestUnmarshalTruncated(t *testing.T) {
	b, err := fixture(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(b) {
		var q Pools
		if err := q.UnmarshalBinary(b[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%d of %d bytes: %v", n, len(b), err)
		}
	}
	var q Pools
	if err := q.UnmarshalBinary(append(b[:len(b):len(b)], 0)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("trailing byte: %v", err)
	}
}

func TestUnmarshalGarbled(t *testing.T) {
	p := fixture(t)
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// Every single-byte change is refused, unless it yields another valid
	// state (a different time, machine name or game number): then that
	// state passes Check and re-encodes to exactly the changed bytes.
	refused := 0
	for i := range b {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			g := bytes.Clone(b)
			g[i] ^= x
			var q Pools
			if err := q.UnmarshalBinary(g); err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("byte %d ^ %#x: error %v does not wrap ErrCorrupt", i, x, err)
				}
				refused++
				continue
			}
			if err := q.Check(); err != nil {
				t.Fatalf("byte %d ^ %#x: accepted a state that fails Check: %v", i, x, err)
			}
			if re, _ := q.MarshalBinary(); !bytes.Equal(re, g) {
				t.Fatalf("byte %d ^ %#x: accepted a non-canonical encoding", i, x)
			}
		}
	}
	if refused < len(b) { // most changes touch money, counts or lengths
		t.Fatalf("only %d of %d changes refused", refused, 3*len(b))
	}
	t.Logf("%d of %d single-byte changes refused", refused, 3*len(b))

	// Changes that must be refused: every meter of every level, one
	// millicent up. Find them through the encoder: the first meter follows
	// the level's fixed fields.
	for li, l := range p.levels {
		for k := range 11 {
			q := fixture(t)
			ql := q.levels[li]
			m := []*int64{&ql.m.QualifyingBets, &ql.m.Contributions, &ql.m.HiddenContributions, &ql.m.SeedFunding,
				&ql.m.TransferredIn, &ql.m.TransferredOut, &ql.m.Current, &ql.m.Reserve, &ql.m.Overflow, &ql.m.Hits, &ql.m.Awarded}
			*m[k]++
			var r Pools
			if err := r.UnmarshalBinary(q.encode()); !errors.Is(err, ErrCorrupt) {
				t.Errorf("level %q meter %d + 1 accepted: %v", l.id, k, err)
			}
		}
	}
	for name, g := range map[string][]byte{
		"empty":       nil,
		"bad magic":   append([]byte("OJPX"), b[4:]...),
		"version 2":   append(append([]byte("OJPS"), 2), b[5:]...),
		"only magic":  []byte("OJPS"),
		"long varint": append(bytes.Clone(b[:13]), append([]byte{0x81, 0x00}, b[14:]...)...),
	} {
		var q Pools
		if err := q.UnmarshalBinary(g); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A failed UnmarshalBinary leaves the receiver as it was.
func TestUnmarshalErrorKeepsState(t *testing.T) {
	p := fixture(t)
	before := p.encode()
	if err := p.UnmarshalBinary([]byte("OJPS\x01garbage")); err == nil {
		t.Fatal("garbage accepted")
	}
	if !bytes.Equal(before, p.encode()) {
		t.Fatal("state changed by a failed decode")
	}
}

func opSamples(t testing.TB) []Op {
	cfg := Config{ResetValue: 10 * cent, Cap: 20 * cent, Rate: 10, HiddenRate: 5, Trigger: TriggerMystery, SecondHit: SplitAmount}
	return []Op{
		AddLevel{Level: "grand", Config: cfg, Target: 15 * cent, Who: "tech ção", At: -5},
		Contribute{Levels: []string{"grand", "minor"}, Bet: 250, Where: "m-0042", Game: 1 << 40, At: 1700000000000000000},
		Contribute{Bet: 1, Where: "m"},
		Hit{Level: "major", Bet: 500, Where: "m-7", Game: 3, At: 9},
		Award{Level: "minor", Target: 12 * cent, At: 10},
		Award{Level: "minor", Amounts: []int64{5 * cent, 0}, At: 10},
		Transfer{From: "a", To: "b", Current: 1, Reserve: 2, Overflow: 3, Who: "w", Why: "y", At: 11},
		Transfer{From: "a", To: "b", All: true, Close: true, Who: "w", Why: "y"},
		Fund{Level: "grand", Amount: 100 * cent, Who: "cfo", Why: "seed", At: 12},
	}
}

func TestOpRoundTrip(t *testing.T) {
	for _, op := range opSamples(t) {
		b, err := MarshalOp(op)
		if err != nil {
			t.Fatalf("%+v: %v", op, err)
		}
		got, err := UnmarshalOp(b)
		if err != nil {
			t.Fatalf("%+v: %v", op, err)
		}
		if !reflect.DeepEqual(got, op) {
			t.Fatalf("round trip:\n %+v\n %+v", op, got)
		}
		for n := range len(b) {
			if _, err := UnmarshalOp(b[:n]); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%T truncated to %d of %d bytes: %v", op, n, len(b), err)
			}
		}
		if _, err := UnmarshalOp(append(b, 0)); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%T with a trailing byte: %v", op, err)
		}
	}
	for _, bad := range []Op{
		&Fund{Level: "x"},
		nil,
		Hit{Level: string(make([]byte, maxIDLen+1))},
		Fund{Level: "x", Why: "\xff"},
	} {
		if _, err := MarshalOp(bad); err == nil {
			t.Errorf("MarshalOp(%+v) accepted", bad)
		}
	}
	for name, b := range map[string][]byte{
		"version":  {2, tagAward, 1, 'x', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
		"tag":      {opVersion, 99},
		"flag":     append(must(MarshalOp(Transfer{From: "a", To: "b"}))[:1+1+2+2+24], 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
		"bad utf8": {opVersion, tagAward, 1, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	} {
		if _, err := UnmarshalOp(b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func FuzzUnmarshal(f *testing.F) {
	var empty Pools
	f.Add(must(empty.MarshalBinary()))
	f.Add(must(fixture(f).MarshalBinary()))
	g := &gen{src: rng.NewSeeded(7)}
	var p Pools
	for range 300 {
		p.Apply(g.next(&p))
	}
	f.Add(must(p.MarshalBinary()))
	f.Fuzz(func(t *testing.T, data []byte) {
		var q Pools
		if err := q.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if err := q.Check(); err != nil {
			t.Fatalf("accepted a state that fails Check: %v", err)
		}
		b, err := q.MarshalBinary()
		if err != nil || !bytes.Equal(b, data) {
			t.Fatalf("accepted a non-canonical encoding (%v)", err)
		}
		// Whatever was accepted must survive further ops without panic or
		// broken identity.
		for _, id := range q.Levels() {
			if _, err := q.Apply(Contribute{Levels: []string{id}, Bet: MaxBet, Where: "f"}); err == nil {
				if err := q.Check(); err != nil {
					t.Fatalf("contribute broke the state: %v", err)
				}
			}
		}
	})
}

func FuzzUnmarshalOp(f *testing.F) {
	for _, op := range opSamples(f) {
		f.Add(must(MarshalOp(op)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		op, err := UnmarshalOp(data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		b, err := MarshalOp(op)
		if err != nil || !bytes.Equal(b, data) {
			t.Fatalf("accepted a non-canonical encoding (%v)", err)
		}
		p := fixture(t)
		before := p.encode()
		if _, err := p.Apply(op); err != nil {
			if !bytes.Equal(before, p.encode()) {
				t.Fatalf("refused op changed the state")
			}
		} else if err := p.Check(); err != nil {
			t.Fatalf("op broke the state: %v", err)
		}
	})
}
