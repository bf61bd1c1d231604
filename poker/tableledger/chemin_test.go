package tableledger

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/tabledef"
	"github.com/openegm/cabinet/rng"
)

// cheminSteps plays a chemin de fer table of the shipped definition
// through a Session with random legal decisions, a resume in the middle of
// a coup among them, and returns its Open and steps. With prefer, the
// bankers pay the cagnotte from outside half the time (rule 47) and the
// auction's bidders offer associated and join such offers (rule 87).
func cheminSteps(t *testing.T, n int, prefer bool) (SessionOpen, []Step) {
	t.Helper()
	return cheminPlay(t, n, cheminPlan{prefer: prefer, seed: 5, resume: true})
}

// cheminPlan is how cheminPlay plays: prefer as cheminSteps says, the
// seed of the sabots and the decisions, a resume in a coup required, and
// churn: six players who now and then leave (with a cash-out) and rest.
type cheminPlan struct {
	prefer, resume, churn bool
	seed                  uint64
	// closeAfter: after so many steps the closing hour is told, long
	// enough after the sabot in play began for it to play on (long), or a
	// nanosecond short of it, and the play goes on to the partida's end.
	closeAfter int
	long       bool
}

func cheminPlay(t testing.TB, n int, plan cheminPlan) (SessionOpen, []Step) {
	t.Helper()
	prefer := plan.prefer
	data, sig, err := assets.CheminTable("chemin-6d")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 5, 20, 0, 0, 0, time.UTC)
	o := SessionOpen{Table: "chemin-6d", Session: 1, At: at, Definition: data, Signature: sig, Digest: tabledef.Digest(data), KeyID: "k"}
	s, err := SessionOf(o, 1, rng.NewSeeded(plan.seed))
	if err != nil {
		t.Fatal(err)
	}
	ce := s.Engine.(*tabledef.CheminEngine)
	rnd := rand.New(rand.NewPCG(plan.seed, 6))
	var steps []Step
	step := func(ev poker.Event, tr *Transfer) bool {
		st, _, err := s.Step(ev, tr)
		if err != nil {
			return false
		}
		if st != nil {
			st.Opened = 1
			steps = append(steps, *st)
		}
		return true
	}
	players := []string{"ana", "bia", "caio", "duda"}
	if plan.churn {
		players = append(players, "eva", "fabio")
	}
	for i, p := range players {
		at = at.Add(time.Second)
		step(poker.Join{At: at, Player: p, Amount: 60000}, &Transfer{ID: fmt.Sprint("in-", i), Kind: BuyIn, Source: "cab-" + p, Player: p, Amount: 60000})
	}
	resumed, told := false, false
	for loops := 0; len(steps) < n || plan.closeAfter > 0; loops++ {
		if ce.Phase() == chemin.Closed {
			break
		}
		if plan.closeAfter > 0 && !told && len(steps) >= plan.closeAfter {
			var shoeAt time.Time
			for _, x := range steps {
				for _, r := range x.Records {
					if r.Kind == chemin.KindShoe {
						shoeAt = r.At
					}
				}
			}
			hour := shoeAt.Add(chemin.SabotBeforeClose)
			if !plan.long {
				hour = hour.Add(-time.Nanosecond)
			}
			if hour.After(at) {
				at = hour
			}
			if !step(poker.Closing{At: at, Hour: hour}, nil) {
				t.Fatal("the closing hour refused")
			}
			told = true
		}
		if loops > 50*n {
			t.Fatalf("the table is stuck: %+v", ce.CheminView(""))
		}
		at = at.Add(time.Second)
		for i, p := range players {
			if ce.Seats.Find(p) == nil && (!plan.churn || rnd.IntN(8) == 0) { // he gave up his seat (rule 85) or left: back with a new cave
				step(poker.Join{At: at, Player: p, Amount: 60000}, &Transfer{ID: fmt.Sprint("in-", i, "-", loops), Kind: BuyIn, Source: "cab-" + p, Player: p, Amount: 60000})
			}
		}
		if plan.churn && rnd.IntN(40) == 0 {
			p := players[rnd.IntN(len(players))]
			if q := ce.Seats.Find(p); q != nil && !q.Leaving {
				at = at.Add(time.Second)
				step(poker.Leave{At: at, Player: p}, &Transfer{ID: fmt.Sprint("out-", len(steps)), Kind: CashOut, Source: "cab-" + p, Player: p})
			}
		}
		if plan.churn && rnd.IntN(40) == 0 {
			at = at.Add(time.Second)
			step(poker.Rest{At: at, Player: players[rnd.IntN(len(players))], On: rnd.IntN(2) == 0}, nil)
		}
		v := ce.CheminView("")
		if !resumed && v.Phase == chemin.BetRound && len(v.Stakes) > 0 && len(steps) > n/2 {
			resumed = true
			step(poker.Resume{At: at}, nil)
			continue
		}
		acted := false
		for _, p := range players {
			cs := ce.CheminView(p).Choices
			if len(cs) == 0 || (len(cs) == 1 && cs[0].Kind == chemin.Associate) {
				continue
			}
			c := cs[rnd.IntN(len(cs))]
			if k := cs[0].Kind; k == chemin.Refuse && len(cs) > 1 {
				c = cs[1] // a bank, mostly
			}
			if k := cs[0].Kind; k == chemin.PlayCards && rnd.IntN(4) != 0 {
				c = cs[1] // the cards declined (rule 101), mostly: they are offered seldom
			}
			if prefer {
				for _, x := range cs {
					if x.Kind == chemin.JoinBid || (x.Kind == chemin.PayOutside || x.Kind == chemin.BidAssociated) && rnd.IntN(2) == 0 {
						c = x
						break
					}
				}
			}
			to := c.Min
			if c.Max > c.Min && c.Step > 0 {
				to += rnd.Int64N(min((c.Max-c.Min)/c.Step, 4)+1) * c.Step
			}
			if step(poker.Act{At: at, Player: p, Action: poker.Action{Kind: c.Kind, To: to}}, nil) {
				acted = true
				break
			}
		}
		if !acted && !step(poker.Deal{At: at}, nil) {
			step(poker.Tick{At: at.Add(time.Minute)}, nil)
			at = at.Add(time.Minute)
		}
		for _, p := range ce.Seats.Players() {
			if p.Stack < 1000 {
				at = at.Add(time.Second)
				step(poker.Rebuy{At: at, Player: p.ID, Amount: 30000}, &Transfer{ID: fmt.Sprint("re-", len(steps)), Kind: Rebuy, Source: "cab-" + p.ID, Player: p.ID, Amount: 30000})
			}
		}
	}
	if plan.resume && !resumed {
		t.Fatal("no resume in a coup")
	}
	return o, steps
}

func foldAll(o SessionOpen, steps []Step) (*State, error) {
	st := NewState()
	if err := st.Apply(o); err != nil {
		return st, err
	}
	for i, x := range steps {
		if err := st.Apply(x); err != nil {
			return st, fmt.Errorf("step %d: %w", i, err)
		}
	}
	return st, st.Check()
}

// The ledger folds a chemin de fer table's money apart from the engine:
// a session of random decisions folds with every cent in place, and a
// step whose cagnotte is not the definition's 5% (rounded down) of the
// banker's win, whose payment is not twice the stake, or whose void does
// not give every stake back, is refused, though its money still adds up.
func TestCheminFold(t *testing.T) {
	o, steps := cheminSteps(t, 1500, false)
	st, err := foldAll(o, steps)
	if err != nil {
		t.Fatal(err)
	}
	tb := st.Tables["chemin-6d"]
	if tb.Meters.Hands < 20 || tb.Meters.Rake == 0 || tb.Meters.Voided != 1 || tb.Meters.Fees != 0 {
		t.Fatalf("meters %+v", tb.Meters)
	}
	var rake int64
	for _, x := range steps {
		for _, r := range x.Records {
			if r.Kind == poker.KindAward && r.Action == "banker" {
				rake += r.Amount * 500 / 10000
			}
		}
	}
	if rake != tb.Meters.Rake {
		t.Fatalf("cagnotte %d, 5%% of the bankers' wins %d", tb.Meters.Rake, rake)
	}
	// Each player's session counts the coups he played (shown when he
	// leaves): some, and never more than the table's.
	played := 0
	for name, p := range tb.Players {
		if int64(p.Totals.Hands) > tb.Meters.Hands+tb.Meters.Voided {
			t.Errorf("%s played %d coups of the table's %d", name, p.Totals.Hands, tb.Meters.Hands+tb.Meters.Voided)
		}
		played += p.Totals.Hands
	}
	if len(tb.Players) > 0 && played == 0 {
		t.Error("no seated player has played a coup")
	}
	tampers := []struct {
		name, want string
		match      func(r poker.Record) bool
		change     func(r *poker.Record)
	}{
		{"a cent of cagnotte to the banker", "cagnotte",
			func(r poker.Record) bool { return r.Kind == poker.KindAward && r.Action == "banker" && r.Rake > 0 },
			func(r *poker.Record) {
				r.Rake--
				r.Shares = []poker.Share{{Seat: r.Shares[0].Seat, Amount: r.Shares[0].Amount + 1}}
			}},
		{"a ponto paid less than twice his stake", "paid",
			func(r poker.Record) bool { return r.Kind == poker.KindAward && r.Action == "ponto" },
			func(r *poker.Record) {
				r.Shares = append([]poker.Share{}, r.Shares...)
				r.Shares[0].Amount--
				r.Amount--
			}},
		{"a void that keeps a stake", "void",
			func(r poker.Record) bool { return r.Kind == poker.KindVoid && len(r.Shares) > 0 },
			func(r *poker.Record) { r.Shares = r.Shares[1:] }},
		{"a sabot revealed with a card twice", "sabot revealed",
			func(r poker.Record) bool { return r.Kind == chemin.KindShoeEnd },
			func(r *poker.Record) {
				r.Cards = append([]cards.Card{}, r.Cards...)
				r.Cards[len(r.Cards)-1] = r.Cards[0]
				if r.Cards[0] == r.Cards[1] {
					r.Cards[len(r.Cards)-1] = r.Cards[2]
				}
			}},
		{"a sabot of one deck short", "decks",
			func(r poker.Record) bool { return r.Kind == chemin.KindShoe },
			func(r *poker.Record) { r.Amount-- }},
		// The cards then go to a lower priority than the ponto who
		// played them, or with no decline recorded (rule 101).
		{"a decline turned into playing the cards", "cards dealt to seat",
			func(r poker.Record) bool { return r.Kind == poker.KindAct && r.Action == string(chemin.PassCards) },
			func(r *poker.Record) { r.Action = string(chemin.PlayCards) }},
		{"a decline erased", "cards dealt to seat",
			func(r poker.Record) bool { return r.Kind == poker.KindAct && r.Action == string(chemin.PassCards) },
			func(r *poker.Record) { r.Action = string(chemin.NoBet) }},
	}
	// The random session declined the cards and played them (rule 101),
	// so the fold above checked both.
	kinds := map[string]int{}
	for _, x := range steps {
		for _, r := range x.Records {
			if r.Kind == poker.KindAct {
				kinds[r.Action]++
			}
		}
	}
	if kinds[string(chemin.PassCards)] == 0 || kinds[string(chemin.PlayCards)] == 0 {
		t.Fatalf("decisions of the session: %v", kinds)
	}
	for _, tc := range tampers {
		changed := false
		bad := make([]Step, len(steps))
		for i, x := range steps {
			bad[i] = x
			for j, r := range x.Records {
				if !changed && tc.match(r) {
					recs := append([]poker.Record{}, x.Records...)
					tc.change(&recs[j])
					bad[i].Records = recs
					changed = true
				}
			}
		}
		if !changed {
			t.Fatalf("%s: no record to change", tc.name)
		}
		if _, err := foldAll(o, bad); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: the fold says %v", tc.name, err)
		}
	}
}

// A player the rules take away without a cash-out asked (he gave up his
// seat rather than take the bank, rule 85) is paid to the source of his
// buy-in as a cash-out the ledger names out:BUYIN, once; a banker may not
// leave with the bank on the table.
func TestCheminLeaveWithoutCashOut(t *testing.T) {
	data, sig, err := assets.CheminTable("chemin-6d")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 5, 20, 0, 0, 0, time.UTC)
	o := SessionOpen{Table: "chemin-6d", Session: 1, At: at, Definition: data, Signature: sig, Digest: tabledef.Digest(data), KeyID: "k"}
	st := NewState()
	if err := st.Apply(o); err != nil {
		t.Fatal(err)
	}
	join := Step{Table: "chemin-6d", Session: 1, Opened: 1, Event: Event{Kind: "join", At: at, Player: "ana", Amount: 5000},
		Transfer: &Transfer{ID: "b1", Kind: BuyIn, Source: "cab-1", Player: "ana", Amount: 5000},
		Records:  []poker.Record{{Kind: poker.KindJoin, At: at, Seat: 3, Player: "ana", Amount: 5000, Stack: 5000}}}
	if err := st.Apply(join); err != nil {
		t.Fatal(err)
	}
	tot := poker.Totals{BoughtIn: 5000, CashedOut: 5000}
	leave := Step{Table: "chemin-6d", Session: 1, Opened: 1, Event: Event{Kind: "act", At: at, Player: "ana", Action: &poker.Action{Kind: chemin.Refuse}},
		Records: []poker.Record{{Kind: poker.KindAct, At: at, Seat: 3, Player: "ana", Action: string(chemin.Refuse)},
			{Kind: poker.KindLeave, At: at, Seat: 3, Player: "ana", Amount: 5000, Totals: &tot}}}
	bank := leave
	bank.Records = []poker.Record{{Kind: chemin.KindBank, At: at, Seat: 3, Player: "ana", Amount: 1000, Stack: 4000},
		{Kind: poker.KindLeave, At: at, Seat: 3, Player: "ana", Amount: 4000, Totals: &tot}}
	if err := st.Apply(bank); err == nil || !strings.Contains(err.Error(), "bank") {
		t.Fatalf("a banker left with the bank: %v", err)
	}
	st = NewState()
	st.Apply(o)
	st.Apply(join)
	if err := st.Apply(leave); err != nil {
		t.Fatal(err)
	}
	tr := st.Transfers["out:b1"]
	if tr == nil || !tr.Done || tr.Amount != 5000 || tr.Kind != CashOut || tr.Source != "cab-1" || st.Sources["cab-1"].Out != 5000 {
		t.Fatalf("the cash-out: %+v, source %+v", tr, st.Sources["cab-1"])
	}
	if err := st.Check(); err != nil {
		t.Fatal(err)
	}
}

// A banker who pays the cagnotte from outside has it taken from his stack,
// the whole win in the bank (rule 47); an auction won by an associated
// offer gives the bank half from each (rule 87). A session of both folds,
// and a cent of either moved wrongly is refused, though the money still
// adds up.
func TestCheminFoldOutsideAndAssociated(t *testing.T) {
	o, steps := cheminSteps(t, 2500, true)
	st, err := foldAll(o, steps)
	if err != nil {
		t.Fatal(err)
	}
	outside, assoc := 0, 0
	for _, x := range steps {
		joined := false
		for _, r := range x.Records {
			switch {
			case r.Kind == poker.KindAward && r.Action == "banker" && r.Rake > 0 && r.Shares[0].Amount == r.Amount:
				outside++
			case r.Kind == poker.KindAct && r.Action == string(chemin.JoinBid):
				joined = true
			case r.Kind == chemin.KindAssociate && joined:
				assoc++
			}
		}
	}
	if outside == 0 || assoc == 0 {
		t.Fatalf("%d cagnottes paid from outside, %d banks of associated offers", outside, assoc)
	}
	var rake int64
	for _, x := range steps {
		for _, r := range x.Records {
			if r.Kind == poker.KindAward && r.Action == "banker" {
				rake += r.Amount * 500 / 10000
			}
		}
	}
	if tb := st.Tables["chemin-6d"]; rake != tb.Meters.Rake {
		t.Fatalf("cagnotte %d, 5%% of the bankers' wins %d", tb.Meters.Rake, rake)
	}
	tampers := []struct {
		name, want string
		match      func(x Step, j int) bool
		change     func(recs []poker.Record, j int)
	}{
		{"a cagnotte from outside taken from the win instead", "from outside",
			func(x Step, j int) bool {
				r := x.Records[j]
				return r.Kind == poker.KindAward && r.Action == "banker" && r.Rake > 0 && r.Shares[0].Amount == r.Amount
			},
			func(recs []poker.Record, j int) {
				r := &recs[j]
				r.Shares = []poker.Share{{Seat: r.Shares[0].Seat, Amount: r.Amount - r.Rake}}
			}},
		{"a cagnotte taken from the win when he pays it from outside, a cent to the bank", "from outside",
			func(x Step, j int) bool {
				r := x.Records[j]
				return r.Kind == poker.KindAward && r.Action == "banker" && r.Rake > 0 && r.Shares[0].Amount == r.Amount-r.Rake
			},
			func(recs []poker.Record, j int) {
				r := &recs[j]
				r.Shares = []poker.Share{{Seat: r.Shares[0].Seat, Amount: r.Amount}}
			}},
		{"a cent of the associate's half to the banker", "offer",
			func(x Step, j int) bool {
				return j+1 < len(x.Records) && x.Records[j].Kind == chemin.KindBank && x.Records[j+1].Kind == chemin.KindAssociate &&
					slices.ContainsFunc(x.Records, func(r poker.Record) bool { return r.Action == string(chemin.JoinBid) })
			},
			func(recs []poker.Record, j int) {
				recs[j].Amount++
				recs[j].Stack--
				recs[j+1].Amount--
				recs[j+1].Stack++
			}},
		{"a passed hand taken a cent below its level", "offered at",
			func(x Step, j int) bool {
				return j+1 < len(x.Records) && x.Records[j].Action == string(chemin.Take) && x.Records[j+1].Kind == chemin.KindBank
			},
			func(recs []poker.Record, j int) {
				recs[j].To--
				recs[j+1].Amount--
				recs[j+1].Stack++
			}},
	}
	for _, tc := range tampers {
		changed := false
		bad := make([]Step, len(steps))
		for i, x := range steps {
			bad[i] = x
			for j := range x.Records {
				if !changed && tc.match(x, j) {
					recs := append([]poker.Record{}, x.Records...)
					tc.change(recs, j)
					bad[i].Records = recs
					changed = true
				}
			}
		}
		if !changed {
			t.Fatalf("%s: no record to change", tc.name)
		}
		if _, err := foldAll(o, bad); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: the fold says %v", tc.name, err)
		}
	}
}

// Sessions of players who leave (a banker too, an auction's winner before
// his first coup: rules 77, 78, 88), rest and come back, with every new
// path of the engine (the cagnotte from outside, associated offers, the
// passer who keeps the hand, a stopped table's sabot revealed) fold with
// every cent in place, whatever the seed.
func TestCheminFoldWithPlayersComingAndGoing(t *testing.T) {
	seen := map[string]int{}
	for seed := uint64(1); seed <= 24; seed++ {
		o, steps := cheminPlay(t, 1500, cheminPlan{prefer: seed%2 == 0, seed: seed, churn: true})
		if _, err := foldAll(o, steps); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
		for _, x := range steps {
			for _, r := range x.Records {
				switch {
				case r.Kind == chemin.KindShoeEnd && strings.Contains(r.Reason, "stopped"):
					seen["a stopped table's sabot"]++
				case r.Kind == poker.KindAward && r.Action == "banker" && r.Rake > 0 && r.Shares[0].Amount == r.Amount:
					seen["a cagnotte from outside"]++
				case r.Action == string(chemin.JoinBid):
					seen["an associated offer joined"]++
				case r.Action == string(chemin.Take):
					seen["a hand taken"]++
				case r.Kind == chemin.KindAnnounce && r.Action == string(chemin.MsgAbandon):
					seen["a hand abandoned"]++
				}
			}
		}
	}
	for _, k := range []string{"a stopped table's sabot", "a cagnotte from outside", "an associated offer joined", "a hand taken", "a hand abandoned"} {
		if seen[k] == 0 {
			t.Errorf("no %s in the sessions", k)
		}
	}
	t.Logf("%v", seen)
}

// The partida's close at its closing hour (rule 107) folds apart from the
// engine: a sabot begun twenty minutes before the hour is played on to its
// warning card, one begun a nanosecond later gives one coup at most after
// the hour; then the bank goes back, the sabot is revealed, the partida
// ends and every player is paid to his source, every cent in place. The
// same steps with the hour told otherwise are refused: the fold measures
// the sabot's start against the hour itself.
func TestCheminFoldTheClose(t *testing.T) {
	for _, long := range []bool{true, false} {
		o, steps := cheminPlay(t, 400, cheminPlan{seed: 9, closeAfter: 400, long: long})
		st, err := foldAll(o, steps)
		if err != nil {
			t.Fatalf("long %v: %v", long, err)
		}
		tb := st.Tables["chemin-6d"]
		var in, out int64
		for _, src := range st.Sources {
			in, out = in+src.In, out+src.Out
		}
		if !tb.Over || len(tb.Players) != 0 || tb.Bank != 0 || out != in-tb.Meters.Rake || tb.Meters.Rake == 0 {
			t.Fatalf("long %v: after the close %+v, in %d out %d", long, tb, in, out)
		}
		for id, tr := range st.Transfers {
			if tr.Kind == CashOut && !tr.Done {
				t.Fatalf("long %v: cash-out %s not paid", long, id)
			}
		}
		// The coups after the hour, and how the sabot ended.
		k := slices.IndexFunc(steps, func(x Step) bool { return x.Event.Kind == "closing" })
		coups, cut := 0, ""
		for _, x := range steps[k:] {
			for _, r := range x.Records {
				switch r.Kind {
				case poker.KindHandStart:
					coups++
				case chemin.KindShoeEnd:
					cut = r.Reason + "."
				}
			}
		}
		switch {
		case long && (coups < 2 || cut != "."):
			t.Fatalf("a sabot played on: %d coups after the hour, its end %q", coups, cut)
		case !long && (coups > 1 || !strings.Contains(cut, "rule 107")):
			t.Fatalf("no sabot played on: %d coups after the hour, its end %q", coups, cut)
		}
		// The hour told otherwise, the same steps.
		bad := slices.Clone(steps)
		ev := bad[k].Event
		if long {
			ev.Hour = ev.Hour.Add(-time.Nanosecond) // the sabot began a nanosecond too late: one coup at most
		} else {
			ev.Hour = ev.Hour.Add(time.Nanosecond) // exactly 20 minutes: the sabot must play on
		}
		if ev.Hour.After(ev.At) {
			ev.At = ev.Hour
		}
		bad[k].Event = ev
		want := map[bool]string{true: "after the partida's last coup", false: "before its warning card"}[long]
		if _, err := foldAll(o, bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("long %v, the hour moved: the fold says %v, want %q", long, err, want)
		}
	}
}

// An associate adds as much as the banker's bank (rule 31): the fold takes
// an association of the bank's amount and refuses one a cent short.
func TestCheminAssociateAddsTheBankersBank(t *testing.T) {
	data, sig, err := assets.CheminTable("chemin-6d")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 5, 20, 0, 0, 0, time.UTC)
	o := SessionOpen{Table: "chemin-6d", Session: 1, At: at, Definition: data, Signature: sig, Digest: tabledef.Digest(data), KeyID: "k"}
	for _, half := range []int64{10000, 9999} {
		st := NewState()
		if err := st.Apply(o); err != nil {
			t.Fatal(err)
		}
		for i, p := range []string{"ana", "bia"} {
			join := Step{Table: "chemin-6d", Session: 1, Opened: 1, Event: Event{Kind: "join", At: at, Player: p, Amount: 50000},
				Transfer: &Transfer{ID: "b-" + p, Kind: BuyIn, Source: "cab", Player: p, Amount: 50000},
				Records:  []poker.Record{{Kind: poker.KindJoin, At: at, Seat: i + 1, Player: p, Amount: 50000, Stack: 50000}}}
			if err := st.Apply(join); err != nil {
				t.Fatal(err)
			}
		}
		bank := Step{Table: "chemin-6d", Session: 1, Opened: 1, Event: Event{Kind: "act", At: at, Player: "ana", Action: &poker.Action{Kind: chemin.BankAssociated, To: 10000 + half}},
			Records: []poker.Record{{Kind: chemin.KindBank, At: at, Seat: 1, Player: "ana", Amount: 10000, Stack: 40000},
				{Kind: chemin.KindAssociate, At: at, Seat: 2, Player: "bia", Amount: half, Stack: 50000 - half}}}
		err := st.Apply(bank)
		if half == 10000 && err != nil || half != 10000 && (err == nil || !strings.Contains(err.Error(), "rule 31")) {
			t.Errorf("an associate's %d to a bank of 10000: %v", half, err)
		}
	}
}
