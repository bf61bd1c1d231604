package poker

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// table builds a hand of players with these stacks in seats 1, 2, ...
func table(stacks ...int64) (*Hand, *[]Record) {
	var recs []Record
	var ps []*InHand
	for i, s := range stacks {
		ps = append(ps, &InHand{Seat: i + 1, Player: &Player{ID: fmt.Sprintf("p%d", i+1), Seat: i + 1, Stack: s}})
	}
	return NewHand(1, time.Unix(0, 0), ps, func(r Record) { recs = append(recs, r) }), &recs
}

func noLimit(min int64) Limits { return Limits{MinOpen: min, MinRaise: min} }

func mustApply(t *testing.T, h *Hand, seat int, a Action) {
	t.Helper()
	i := h.Index(seat)
	if err := h.Apply(i, a, false); err != nil {
		t.Fatalf("seat %d %+v: %v", seat, a, err)
	}
}

func raiseTo(to int64) Action { return Action{Kind: Raise, To: to} }

var (
	call  = Action{Kind: Call}
	check = Action{Kind: Check}
	fold  = Action{Kind: Fold}
	allIn = Action{Kind: AllIn}
)

// A short all-in raise does not reopen the betting to players who already
// acted: they may only call or fold (the bug of engines that let them
// re-raise). Players who had not acted may raise.
func TestShortAllInDoesNotReopen(t *testing.T) {
	h, _ := table(1000, 1000, 350, 1000)
	h.NewRound(noLimit(100))
	if !h.Begin(0) {
		t.Fatal("nobody to act")
	}
	mustApply(t, h, 1, raiseTo(300)) // a full bet (at least the minimum)
	mustApply(t, h, 2, call)
	mustApply(t, h, 3, allIn) // to 350: 50 more than 300, less than a full raise of 100
	if h.Level() != 350 {
		t.Fatalf("level %d", h.Level())
	}
	// Seat 4 has not acted: a full raise is open to him (to 450 at least).
	o := h.Options(h.Index(4))
	if !o.Raise || o.MinTo != 450 || o.Call != 350 {
		t.Fatalf("seat 4: %+v", o)
	}
	mustApply(t, h, 4, call)
	// Seats 1 and 2 acted before the short raise: call or fold only.
	for _, seat := range []int{1, 2} {
		o := h.Options(h.Index(seat))
		if o.Raise || o.Call != 50 {
			t.Fatalf("seat %d after a short all-in: %+v", seat, o)
		}
		if err := h.Apply(h.Index(seat), raiseTo(450), false); err == nil {
			t.Fatalf("seat %d re-raised after a short all-in", seat)
		}
		mustApply(t, h, seat, call)
	}
	if h.Turn() != -1 {
		t.Fatalf("round not over: turn %d", h.Turn())
	}
}

// An all-in that is a full raise reopens the betting; so do short all-ins
// that together make a full raise.
func TestFullAllInReopens(t *testing.T) {
	h, _ := table(1000, 1000, 400, 1000)
	h.NewRound(noLimit(100))
	h.Begin(0)
	mustApply(t, h, 1, raiseTo(300))
	mustApply(t, h, 2, call)
	mustApply(t, h, 3, allIn) // to 400: a full raise of 100
	mustApply(t, h, 4, call)
	if o := h.Options(h.Index(1)); !o.Raise || o.MinTo != 500 {
		t.Fatalf("seat 1 after a full all-in raise: %+v", o)
	}

	h, _ = table(1000, 1000, 350, 420, 1000)
	h.NewRound(noLimit(100))
	h.Begin(0)
	mustApply(t, h, 1, raiseTo(300))
	mustApply(t, h, 2, call)
	mustApply(t, h, 3, allIn) // 350: short
	mustApply(t, h, 4, allIn) // 420: short again, but 120 above what seats 1 and 2 called
	mustApply(t, h, 5, call)
	if o := h.Options(h.Index(1)); !o.Raise {
		t.Fatalf("seat 1 faces 120 of short raises (a full raise in all): %+v", o)
	}
}

// The bounds of a bet or raise in each structure.
func TestBetBounds(t *testing.T) {
	// Pot limit: with 150 in blinds (50/100), the first player may raise to
	// 100 + (150 + 100) = 350; half pot to 100 + 250/2 = 225.
	for _, c := range []struct {
		div      int64
		min, max int64
	}{{0, 200, 5000}, {1, 200, 350}, {2, 200, 225}} {
		h, _ := table(5000, 5000, 5000)
		h.NewRound(Limits{MinOpen: 100, MinRaise: 100, PotDivisor: c.div})
		h.Post(0, 50, 0, "small_blind", false)
		h.Post(1, 100, 0, "big_blind", true)
		h.Begin(2)
		o := h.Options(2)
		if !o.Raise || o.MinTo != c.min || o.MaxTo != c.max || o.Call != 100 {
			t.Errorf("divisor %d: %+v", c.div, o)
		}
	}
	// Fixed limit with a cap of 3: bet, raise, raise, then only calls.
	h, _ := table(5000, 5000, 5000)
	h.NewRound(Limits{MinOpen: 100, MinRaise: 100, Fixed: true, Cap: 3})
	h.Begin(0)
	if o := h.Options(0); o.MinTo != 100 || o.MaxTo != 100 || !o.Opening {
		t.Fatalf("fixed opening %+v", o)
	}
	if err := h.Apply(0, raiseTo(150), false); err == nil {
		t.Fatal("a fixed-limit bet of 150 accepted")
	}
	mustApply(t, h, 1, raiseTo(100))
	mustApply(t, h, 2, raiseTo(200))
	mustApply(t, h, 3, raiseTo(300))
	if o := h.Options(0); o.Raise || o.Call != 200 {
		t.Fatalf("capped: %+v", o)
	}
	// A player with less than a full raise may still go all in.
	h, _ = table(5000, 150)
	h.NewRound(noLimit(100))
	h.Begin(0)
	mustApply(t, h, 1, raiseTo(100))
	if o := h.Options(1); !o.Raise || o.MinTo != 150 || o.MaxTo != 150 {
		t.Fatalf("short stack: %+v", o)
	}
	// Nobody left to answer: no raise.
	h, _ = table(5000, 100)
	h.NewRound(noLimit(100))
	h.Begin(0)
	mustApply(t, h, 1, raiseTo(200))
	mustApply(t, h, 2, allIn)
	if h.Turn() != -1 {
		t.Fatalf("round open after the only other player called all in")
	}
}

// The bet nobody matched is given back before the pots are made.
func TestUncalledBetReturned(t *testing.T) {
	h, recs := table(1000, 300)
	h.NewRound(noLimit(100))
	h.Begin(0)
	mustApply(t, h, 1, raiseTo(800))
	mustApply(t, h, 2, allIn)
	h.ReturnUncalled()
	if h.Players[0].Total != 300 || h.Players[0].Player.Stack != 700 || h.PotTotal() != 600 {
		t.Fatalf("after the return: %+v, pot %d", h.Players[0], h.PotTotal())
	}
	last := (*recs)[len(*recs)-1]
	if last.Kind != KindReturn || last.Amount != 500 || last.Seat != 1 {
		t.Fatalf("record %+v", last)
	}
}

// A pot nobody live is eligible for: the dead money of a folded player
// above every live player's total goes to the top live pot instead of
// vanishing or being paid to nobody.
func TestPotNobodyIsEligibleFor(t *testing.T) {
	h, _ := table(1000, 30, 1000)
	h.NewRound(noLimit(100))
	h.Post(0, 50, 0, "small_blind", false)
	h.Post(1, 100, 100, "big_blind", true) // seat 2 has only 30: all in, the blind to call is still 100
	h.Begin(2)
	mustApply(t, h, 3, fold)
	mustApply(t, h, 1, fold) // the small blind folds: 20 of his 50 is above the big blind's 30
	pots := h.Pots()
	if len(pots) != 1 || pots[0].Amount != 80 || !slices.Equal(pots[0].Eligible, []int{1}) {
		t.Fatalf("pots %+v", pots)
	}
	raked, err := h.Award(nil, RakeRate(500), func(net int64, w []*InHand) []int64 { return []int64{net} })
	if err != nil || raked != 4 || h.Players[1].Player.Stack != 76 {
		t.Fatalf("award: rake %d, stack %d, %v", raked, h.Players[1].Player.Stack, err)
	}
}

// Side pots: one per different all-in total; each raked by itself; the
// split gives every cent.
func TestSidePotsRakedOneByOne(t *testing.T) {
	h, recs := table(101, 333, 1000, 1000)
	h.NewRound(noLimit(100))
	h.Begin(0)
	mustApply(t, h, 1, allIn)         // 101
	mustApply(t, h, 2, allIn)         // 333
	mustApply(t, h, 3, raiseTo(1000)) // all in too
	mustApply(t, h, 4, Action{Kind: Call})
	pots := h.Pots()
	want := []int64{404, 696, 1334}
	for i, p := range pots {
		if p.Amount != want[i] {
			t.Fatalf("pots %+v, want %v", pots, want)
		}
	}
	// Seats 1 and 4 tie the best hand; seat 2 is second, seat 3 last.
	value := map[int]uint64{1: 9, 2: 5, 3: 1, 4: 9}
	raked, err := h.Award(func(p *InHand) uint64 { return value[p.Seat] }, RakeRate(300),
		func(net int64, w []*InHand) []int64 { return SplitInOrder(net, 1, len(w)) })
	if err != nil {
		t.Fatal(err)
	}
	// 3% of each pot, rounded down each: 12 + 20 + 40 (3% of the whole 2434 would be 73).
	if raked != 72 {
		t.Fatalf("rake %d", raked)
	}
	var got []string
	for _, r := range *recs {
		if r.Kind == KindAward {
			got = append(got, fmt.Sprintf("%d:%d-%d=%v", r.Pot, r.Amount, r.Rake, r.Shares))
		}
	}
	// Main pot 404-12=392 split 196/196; side pot 696-20=676 to seat 4
	// (seat 1 is not in it); the top pot 1334-40=1294 to seat 4 too.
	if s := strings.Join(got, " "); s != "0:404-12=[{1 196} {4 196}] 1:696-20=[{4 676}] 2:1334-40=[{4 1294}]" {
		t.Fatalf("awards %s", s)
	}
	var stacks int64
	for _, p := range h.Players {
		stacks += p.Player.Stack
	}
	if stacks+raked != 101+333+1000+1000 {
		t.Fatalf("chips: stacks %d + rake %d", stacks, raked)
	}
}

// Odd cents go one by one to the first winners in order; none vanish.
func TestSplitInOrderKeepsEveryCent(t *testing.T) {
	for _, c := range []struct {
		amount, unit int64
		n            int
		want         string
	}{
		{1111, 1, 2, "[556 555]"},
		{1111, 1, 3, "[371 370 370]"},
		{1000, 1, 3, "[334 333 333]"},
		{5, 1, 7, "[1 1 1 1 1 0 0]"},
		{1067, 100, 2, "[567 500]"}, // units of 100: 5 each, the 67 below a unit with the first
		{1167, 100, 2, "[667 500]"},
		{1267, 100, 3, "[467 400 400]"},
	} {
		parts := SplitInOrder(c.amount, c.unit, c.n)
		var sum int64
		for _, p := range parts {
			sum += p
		}
		if fmt.Sprint(parts) != c.want || sum != c.amount {
			t.Errorf("SplitInOrder(%d, %d, %d) = %v, want %s", c.amount, c.unit, c.n, parts, c.want)
		}
	}
}
