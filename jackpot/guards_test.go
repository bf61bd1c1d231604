package jackpot

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The edges of the pools' limits and of the decoders' refusals, each tested
// on both sides: a limit moved by one, or a refusal that no longer says
// what it found, fails one of these tests.

// decodeErr decodes a state and returns the error, which must be
// ErrCorrupt.
func decodeErr(t *testing.T, data []byte) string {
	t.Helper()
	var q Pools
	err := q.UnmarshalBinary(data)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("decode of %d bytes: %v, want ErrCorrupt", len(data), err)
	}
	return err.Error()
}

// A refused state says what the decoder found, and where.
func TestStateDecodeErrorsSayWhat(t *testing.T) {
	good, err := fixture(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	header := len(stateMagic) + 1 + 8 // magic, version, seq
	bad := func(b []byte) []byte { return append([]byte(nil), b...) }
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"no transfer count", bad(good[:header]), "bad length in transfer count"},
		{"cut in the version", bad(good[:len(stateMagic)]), "truncated in version"},
		{"cut in the seq", bad(good[:header-1]), "truncated in seq"},
		{"a trailing byte", append(bad(good), 0), "1 trailing bytes after state"},
		{"version 2", func() []byte { b := bad(good); b[len(stateMagic)] = 2; return b }(), "state version 2, want 1"},
	} {
		if got := decodeErr(t, c.data); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want it to say %q", c.name, got, c.want)
		}
	}
}

// A refused op says what the decoder found.
func TestOpDecodeErrorsSayWhat(t *testing.T) {
	good, err := MarshalOp(Award{Level: "grand", At: 7})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"version 2", append([]byte{2}, good[1:]...), "op version 2, want 1"},
		{"unknown tag", []byte{opVersion, 99}, "unknown op tag 99"},
		{"no tag", []byte{opVersion}, "truncated in op tag"},
		{"a trailing byte", append(append([]byte(nil), good...), 0), "1 trailing bytes after op"},
	} {
		_, err := UnmarshalOp(c.data)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrCorrupt saying %q", c.name, err, c.want)
		}
	}
}

// ids are n level IDs.
func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("l%d", i)
	}
	return out
}

// A Pools holds MaxLevels levels and no more; one contribution may name all
// of them, and its op encodes, but not one more.
func TestMaxLevels(t *testing.T) {
	var p Pools
	all := ids(MaxLevels)
	for _, id := range all {
		mustApply(t, &p, AddLevel{Level: id, Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"})
	}
	if _, err := p.Apply(AddLevel{Level: "one-more", Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "already 256 levels") {
		t.Fatalf("level %d: %v", MaxLevels+1, err)
	}
	op := Contribute{Levels: all, Bet: 1_000, Where: "m-1", Game: 1}
	if _, err := MarshalOp(op); err != nil {
		t.Fatalf("encode a contribution to %d levels: %v", MaxLevels, err)
	}
	r := mustApply(t, &p, op)
	if len(r.Changes) != MaxLevels {
		t.Fatalf("a contribution to %d levels changed %d", MaxLevels, len(r.Changes))
	}
	over := Contribute{Levels: append(all, "l0"), Bet: 1_000, Where: "m-1", Game: 2}
	if _, err := MarshalOp(over); !errors.Is(err, ErrInvalid) {
		t.Fatalf("encode a contribution naming %d levels: %v", MaxLevels+1, err)
	}
	if _, err := p.Apply(over); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "257 levels named") {
		t.Fatalf("a contribution naming %d levels: %v", MaxLevels+1, err)
	}
}

// A hit's bet is 1..MaxBet cents (and at least the level's minimum); a
// refusal names the bet.
func TestHitBetEdges(t *testing.T) {
	cfg := paytable(0, 0, 1, 0, SplitAmount)
	cfg.MinHitBet = 0
	for _, c := range []struct {
		bet int64
		ok  bool
	}{{0, false}, {1, true}, {MaxBet, true}, {MaxBet + 1, false}} {
		var p Pools
		mustApply(t, &p, AddLevel{Level: "a", Config: cfg, Who: "tech"})
		_, err := p.Apply(Hit{Level: "a", Bet: c.bet, Where: "m-1", Game: 1})
		if c.ok != (err == nil) || (err != nil && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), fmt.Sprintf("bet %d cents: want 1..", c.bet)))) {
			t.Errorf("a hit with a bet of %d cents: %v", c.bet, err)
		}
	}
}

// A level holds MaxClaims unconfirmed hits and refuses one more.
func TestMaxClaims(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "a", Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"})
	for g := range MaxClaims {
		mustApply(t, &p, Hit{Level: "a", Bet: 100, Where: "m-1", Game: uint64(g + 1)})
	}
	_, err := p.Apply(Hit{Level: "a", Bet: 100, Where: "m-1", Game: MaxClaims + 1})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "already 32 unconfirmed hits") {
		t.Fatalf("hit %d: %v", MaxClaims+1, err)
	}
	if v, _ := p.Level("a"); len(v.Pending) != MaxClaims {
		t.Fatalf("%d claims pending, want %d", len(v.Pending), MaxClaims)
	}
}

// A transfer moves at most MaxAmount millicents: exactly that much is
// accepted, one cent more refused.
func TestTransferOfMaxAmount(t *testing.T) {
	for _, c := range []struct {
		amount int64
		ok     bool
	}{{MaxAmount, true}, {MaxAmount + cent, false}} {
		var p Pools
		mustApply(t, &p, AddLevel{Level: "a", Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"})
		mustApply(t, &p, AddLevel{Level: "b", Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"})
		mustApply(t, &p, Fund{Level: "a", Amount: MaxAmount, Who: "op", Why: "seed"})
		mustApply(t, &p, Fund{Level: "a", Amount: MaxAmount, Who: "op", Why: "seed"})
		_, err := p.Apply(Transfer{From: "a", To: "b", Reserve: c.amount, Who: "inspector", Why: "test"})
		if c.ok != (err == nil) || (err != nil && !strings.Contains(err.Error(), "at most")) {
			t.Errorf("a transfer of %d millicents: %v", c.amount, err)
		}
	}
}

// A fund is whole cents in (0, MaxAmount]; a refusal names the amount.
func TestFundEdges(t *testing.T) {
	for _, c := range []struct {
		amount int64
		ok     bool
	}{{0, false}, {cent, true}, {MaxAmount, true}, {MaxAmount + cent, false}} {
		var p Pools
		mustApply(t, &p, AddLevel{Level: "a", Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"})
		_, err := p.Apply(Fund{Level: "a", Amount: c.amount, Who: "op", Why: "seed"})
		if c.ok != (err == nil) || (err != nil && !strings.Contains(err.Error(), fmt.Sprintf("amount %d millicents: want whole cents", c.amount))) {
			t.Errorf("a fund of %d millicents: %v", c.amount, err)
		}
	}
}

// A refused hidden rate says the range allowed with the level's rate.
func TestHiddenRateErrorSaysTheRange(t *testing.T) {
	c := paytable(0, 0, 1_000, PPM, SplitAmount)
	if err := c.Validate(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "want 0..999000") {
		t.Fatalf("hidden rate of 100%% beside a rate of 1000 ppm: %v", err)
	}
}

// A transfer's amount is the sum of what it took from current, reserve
// and overflow.
func TestTransferRecordAmount(t *testing.T) {
	r := TransferRecord{Current: 1 * cent, Reserve: 20 * cent, Overflow: 300 * cent}
	if got := r.Amount(); got != 321*cent {
		t.Fatalf("amount %d, want %d", got, 321*cent)
	}
}

// A transfer record balances what it took (current, reserve, overflow)
// against what it credited; components of 0 and of MaxAmount are in range.
func TestTransferRecordCheck(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "a", Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"})
	mustApply(t, &p, AddLevel{Level: "b", Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"})
	rec := func(cur, res, ov, toCur, toRes int64) TransferRecord {
		return TransferRecord{From: "a", To: "b", Current: cur, Reserve: res, Overflow: ov, ToCurrent: toCur, ToReserve: toRes, Who: "inspector", Why: "test"}
	}
	for _, c := range []struct {
		r    TransferRecord
		want string // "" when it holds
	}{
		{rec(1*cent, 20*cent, 300*cent, 21*cent, 300*cent), ""},
		{rec(0, MaxAmount, 0, 0, MaxAmount), ""},
		{rec(1*cent, 20*cent, 300*cent, 21*cent, 299*cent), "takes 321000, credits 320000"},
		{rec(0, 0, MaxAmount+1, MaxAmount+1, 0), "out of range"},
		{func() TransferRecord { r := rec(0, 1, 0, 1, 0); r.Who = ""; return r }(), "who"},
		{func() TransferRecord { r := rec(0, 1, 0, 1, 0); r.Why = ""; return r }(), "why"},
	} {
		err := p.checkTransferRecord(c.r)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.r, err, c.want)
		}
	}
}

// checkLevel's edges: a carry is 0..999 thousandths of a millicent, a claim's
// bet 1..MaxBet cents; a broken main share names the main contributions.
func TestCheckLevelEdges(t *testing.T) {
	fresh := func() *level {
		var p Pools
		mustApply(t, &p, AddLevel{Level: "a", Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"})
		mustApply(t, &p, Hit{Level: "a", Bet: 100, Where: "m-1", Game: 1})
		return p.levels[0]
	}
	for _, c := range []struct {
		name   string
		change func(l *level)
		want   string // how the error ends; "" when the level holds
	}{
		{"as applied", func(*level) {}, ""},
		{"main carry 1000", func(l *level) { l.carryMain = carryModulo }, "carries 1000, 0 out of range"},
		{"hidden carry 1000", func(l *level) { l.carryHidden = carryModulo }, "carries 0, 1000 out of range"},
		{"claim bet 0", func(l *level) { l.claims[0].Bet = 0 }, "claim bet 0"},
		{"claim bet MaxBet", func(l *level) { l.claims[0].Bet = MaxBet }, ""},
		{"claim bet MaxBet+1", func(l *level) { l.claims[0].Bet = MaxBet + 1 }, "claim bet 1000000000001"},
		{"a main share rounded away", func(l *level) {
			l.m.QualifyingBets, l.m.Contributions, l.m.HiddenContributions, l.m.Current = 1_000, 5, 2, 5
		}, "main contributions 3 millicents + carry 0/1000"},
	} {
		l := fresh()
		c.change(l)
		err := checkLevel(l)
		if (c.want == "") != (err == nil) || (err != nil && !strings.HasSuffix(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// The overflow detector flags a sum that wrapped around, either way, and
// nothing else.
func TestOverflowFlag(t *testing.T) {
	const maxI, minI = int64(^uint64(0) >> 1), -int64(^uint64(0)>>1) - 1
	for _, c := range []struct {
		a, b int64
		over bool
	}{
		{5, 3, false}, {5, -3, false}, {-5, 3, false}, {-5, -3, false}, {7, 0, false},
		{maxI - 1, 1, false}, {maxI, 1, true}, {maxI, maxI, true},
		{minI + 1, -1, false}, {minI, -1, true}, {minI, minI, true},
	} {
		var f overflowFlag
		if s := f.add(c.a, c.b); bool(f) != c.over || (!c.over && s != c.a+c.b) {
			t.Errorf("%d + %d: %d, overflow %v", c.a, c.b, s, bool(f))
		}
	}
}

// While the history holds every hit (HistoryLen of them included), it
// adds up to the awards exactly.
func TestHistoryAddsUpAtHistoryLen(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "a", Config: paytable(10*cent, 0, 1, 0, SplitAmount), Who: "tech"})
	for g := range HistoryLen {
		mustApply(t, &p, Hit{Level: "a", Bet: 100, Where: "m-1", Game: uint64(g + 1)})
		mustApply(t, &p, Award{Level: "a"})
	}
	l := p.levels[0]
	if l.m.Hits != HistoryLen || len(l.history) != HistoryLen || l.history[0].Amount < cent {
		t.Fatalf("hits %d, history %d, first award %d", l.m.Hits, len(l.history), l.history[0].Amount)
	}
	l.history[0].Amount -= cent
	if err := checkLevel(l); !errors.Is(err, ErrIdentity) || !strings.Contains(err.Error(), "history adds up to") {
		t.Fatalf("a history one cent short with %d hits: %v", HistoryLen, err)
	}
}

// A level ID is at most 64 bytes: 64 are accepted, 65 refused by name.
func TestLevelIDLength(t *testing.T) {
	var p Pools
	long := strings.Repeat("x", maxIDLen)
	mustApply(t, &p, AddLevel{Level: long, Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"})
	_, err := p.Apply(AddLevel{Level: long + "y", Config: paytable(0, 0, 1, 0, SplitAmount), Who: "tech"})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "level id is 65 bytes, at most 64") {
		t.Fatalf("a 65-byte level ID: %v", err)
	}
}
