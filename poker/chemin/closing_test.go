package chemin_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/rng"
)

// shuffled is a script whose sabots the certified RNG's seeded twin
// shuffles, of one deck so that a sabot is played out in a few coups.
func shuffled(t *testing.T, seed uint64) *script {
	t.Helper()
	r := rules()
	r.Decks = 1
	tb, err := chemin.New(r, rng.NewSeeded(seed))
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, tb: tb, now: time.Date(2026, 12, 5, 21, 0, 0, 0, time.UTC), fold: chemin.NewFolder()}
	for i, id := range five {
		s.ok(poker.Join{At: s.now, Player: id, Seat: i + 1, Amount: 100000})
	}
	return s
}

// move plays the table on by one step as plain players would: the
// banker states the least bank and goes on after a win, the first ponto
// bets the least, the others pass, a passed hand is taken, and the
// timer takes every decision of the cards and the auction.
func (s *script) move() []poker.Record {
	s.t.Helper()
	if s.tb.Phase() == chemin.Idle {
		return s.deal()
	}
	v := s.tb.View("")
	who := s.toAct()
	if who == "" {
		return s.timeout()
	}
	mine := s.tb.View(who)
	r := s.tb.Rules()
	pick := func(k poker.ActionKind) (poker.Action, bool) {
		for _, c := range mine.Choices {
			if c.Kind == k {
				return poker.Action{Kind: k, To: c.Min}, true
			}
		}
		return poker.Action{}, false
	}
	var want []poker.ActionKind
	switch v.Phase {
	case chemin.Stake:
		want = []poker.ActionKind{chemin.Bank, chemin.Refuse}
	case chemin.BancoRound:
		want = []poker.ActionKind{chemin.NoBet}
	case chemin.BetRound:
		want = []poker.ActionKind{chemin.Bet, chemin.NoBet}
	case chemin.AfterCoup:
		want = []poker.ActionKind{chemin.Continue}
	case chemin.Offered, chemin.Forced:
		want = []poker.ActionKind{chemin.Take, chemin.Decline, chemin.Refuse}
	default:
		return s.timeout()
	}
	for _, k := range want {
		if a, ok := pick(k); ok {
			if k == chemin.Bank {
				a.To = r.MinBank
			}
			return s.act(who, a.Kind, a.To)
		}
	}
	return s.timeout()
}

// upTo plays until the table's phase is p or n steps have gone.
func (s *script) upTo(p chemin.Phase, n int) []poker.Record {
	s.t.Helper()
	var recs []poker.Record
	for range n {
		if s.tb.Phase() == p {
			return recs
		}
		recs = append(recs, s.move()...)
	}
	s.t.Fatalf("no %s in %d steps (phase %s)", p, n, s.tb.Phase())
	return nil
}

// shoeAt is when the sabot in play began: its commitment's time.
func (s *script) shoeAt() time.Time {
	s.t.Helper()
	shoes := find(s.all, chemin.KindShoe)
	if len(shoes) == 0 {
		s.t.Fatal("no sabot")
	}
	return shoes[len(shoes)-1].At
}

// closing tells the table its closing hour has come, at that hour.
func (s *script) closing(hour time.Time) []poker.Record {
	s.t.Helper()
	if hour.After(s.now) {
		s.now = hour
	}
	return s.ok(poker.Closing{At: s.now, Hour: hour})
}

// closedWell checks the close: the partida's end after the last coup's
// end, no bank left, the sabot revealed, every player gone with his
// stack, and every cent that came in gone out or the house's cagnotte.
func (s *script) closedWell(after []poker.Record) {
	s.t.Helper()
	if s.tb.Phase() != chemin.Closed {
		s.t.Fatalf("phase %s after the close", s.tb.Phase())
	}
	ends := find(after, poker.KindEnd)
	if len(ends) != 1 || ends[0].Reason != chemin.EndOfPartida || !said(after, chemin.MsgPartidaOver) {
		s.t.Fatalf("the partida's end: %+v", ends)
	}
	st := s.tb.State()
	if len(st.Players) != 0 || st.Bank != 0 || st.Garage != 0 || st.Shoe != "" || st.PaidOut+st.Cagnotte != st.PaidIn {
		s.t.Fatalf("after the close: %+v", st)
	}
	leaves := find(after, poker.KindLeave)
	if len(leaves) != len(five) {
		s.t.Fatalf("%d players left at the close, %d were seated", len(leaves), len(five))
	}
	s.no(poker.Deal{At: s.now}, "partida is over")
	s.no(poker.Join{At: s.now, Player: "fabio", Seat: 6, Amount: 100000}, "partida is over")
	s.no(poker.Closing{At: s.now, Hour: s.now}, "over already")
}

// Rule 107: a sabot begun at least twenty minutes before the closing hour
// (exactly twenty, too) is played to its end past the hour; no sabot
// starts after it, and the partida ends when the sabot does.
func TestClosingPlaysOnASabotBegunTwentyMinutesBefore(t *testing.T) {
	s := shuffled(t, 1)
	s.upTo(chemin.AfterCoup, 100) // a coup played
	hour := s.shoeAt().Add(chemin.SabotBeforeClose)
	recs := s.closing(hour)
	if !said(recs, chemin.MsgPlaysOn) || said(recs, chemin.MsgLastCoup) {
		t.Fatalf("at the hour: %+v", recs)
	}
	if v := s.tb.View(""); !v.PlaysOn || v.FinalCoup || !v.Closing.Equal(hour) {
		t.Fatalf("the view at the hour: %+v", v)
	}
	before := len(find(s.all, poker.KindHandStart))
	after := s.upTo(chemin.Closed, 2000)
	coups := len(find(s.all, poker.KindHandStart)) - before
	shoeEnds := find(after, chemin.KindShoeEnd)
	switch {
	case coups < 2:
		t.Fatalf("%d coups after the hour: the sabot was not played on", coups)
	case len(find(after, chemin.KindShoe)) != 0:
		t.Fatal("a sabot began after the closing hour")
	case len(shoeEnds) != 1 || shoeEnds[0].Reason != "":
		t.Fatalf("the sabot did not end by its warning card: %+v", shoeEnds)
	case said(after, chemin.MsgLastCoup) || !said(after, chemin.MsgLastOfSabot):
		t.Fatal("«Último golpe» said, or «Último golpe do sabot» not, in a sabot played to its end")
	case said(after, chemin.MsgHandStays):
		t.Fatal("«A mão fica» said at the partida's end: no sabot follows")
	}
	s.closedWell(after)
}

// Rule 107: a sabot begun less than twenty minutes before the hour (a
// nanosecond less) is not played on: the coup in play is the last, said
// «Último golpe» (rule 96) at the hour, and the partida ends after it,
// the bank back to its banker and the sabot revealed.
func TestClosingTheCoupInPlayIsTheLast(t *testing.T) {
	s := shuffled(t, 2)
	s.upTo(chemin.AfterCoup, 100)
	s.upTo(chemin.BetRound, 100)
	coup := s.tb.View("").Coup
	hour := s.shoeAt().Add(chemin.SabotBeforeClose - time.Nanosecond)
	recs := s.closing(hour)
	if !said(recs, chemin.MsgLastCoup) || recs[0].Hand != coup {
		t.Fatalf("at the hour, in coup %d: %+v", coup, recs)
	}
	if v := s.tb.View(""); v.PlaysOn || !v.FinalCoup || v.Phase != chemin.BetRound {
		t.Fatalf("the view at the hour: %+v", v)
	}
	at := len(s.all)
	after := s.upTo(chemin.Closed, 100)
	if n := len(find(after, poker.KindHandStart)); n != 0 {
		t.Fatalf("%d coups after the last", n)
	}
	ends := find(after, chemin.KindShoeEnd)
	if len(ends) != 1 || !strings.Contains(ends[0].Reason, "rule 107") || len(ends[0].Cards) != 52 {
		t.Fatalf("the sabot not revealed at the close: %+v", ends)
	}
	// The coup's end, then the bank back to its banker if he kept it.
	end := find(after, poker.KindHandEnd)
	if len(end) != 1 || end[0].Hand != coup {
		t.Fatalf("the last coup's end: %+v", end)
	}
	if end[0].Amount > 0 {
		rel := find(after, chemin.KindRelease)
		if len(rel) != 1 || rel[0].Amount != end[0].Amount {
			t.Fatalf("a bank of %d at the close, released %+v", end[0].Amount, rel)
		}
	}
	// The last coup replays as any other (SRIJ rule 78), «Último golpe»
	// among its records.
	var last []poker.Record
	for _, r := range s.all {
		if r.Hand == coup {
			last = append(last, r)
		}
	}
	frames, err := chemin.ReplayCoup(last, "")
	if err != nil || !said(last, chemin.MsgLastCoup) || len(frames) != len(last) {
		t.Fatalf("the last coup's replay: %d frames of %d records, %v", len(frames), len(last), err)
	}
	s.closedWell(s.all[at:])
}

// Between coups the closing hour makes the next coup the last: it is said
// «Último golpe» as it starts, and the partida ends after it. A table with
// no sabot in play at the hour closes at once: no sabot starts after it.
func TestClosingBetweenCoups(t *testing.T) {
	s := shuffled(t, 3)
	s.upTo(chemin.AfterCoup, 100)
	s.now = s.now.Add(time.Minute)
	recs := s.closing(s.now)
	if !said(recs, chemin.MsgNextIsLast) || said(recs, chemin.MsgLastCoup) || s.tb.Phase() != chemin.AfterCoup {
		t.Fatalf("at the hour between coups: %+v", recs)
	}
	at := len(s.all)
	after := s.upTo(chemin.Closed, 100)
	starts := find(after, poker.KindHandStart)
	if len(starts) != 1 {
		t.Fatalf("%d coups after the hour, want the last one", len(starts))
	}
	var last []string
	for _, r := range after {
		if r.Kind == chemin.KindAnnounce && r.Hand == starts[0].Hand {
			last = append(last, r.Action)
		}
	}
	if len(last) == 0 || !strings.Contains(strings.Join(last, " "), string(chemin.MsgLastCoup)) {
		t.Fatalf("the last coup's announcements %v", last)
	}
	s.closedWell(s.all[at:])

	// Before the first deal: no sabot, so nothing plays on.
	e := shuffled(t, 4)
	recs = e.closing(e.now)
	if e.tb.Phase() != chemin.Closed || !said(recs, chemin.MsgPartidaOver) || len(find(recs, chemin.KindShoe)) != 0 {
		t.Fatalf("the close of a table not dealt: %+v", recs)
	}
}

// The closing hour is told once, when it has come; the announcements are
// said in Portuguese and English.
func TestClosingEventsAndWords(t *testing.T) {
	s := shuffled(t, 5)
	s.no(poker.Closing{At: s.now, Hour: s.now.Add(time.Second)}, "has not come")
	s.upTo(chemin.BetRound, 100)
	s.closing(s.now)
	s.no(poker.Closing{At: s.now, Hour: s.now}, "told already")
	for m, want := range map[chemin.Message][2]string{
		chemin.MsgLastCoup:    {"Último golpe", "Last coup"},
		chemin.MsgPlaysOn:     {"Hora de encerramento: joga-se até ao fim do sabot", "Closing time: play goes on to the end of the shoe"},
		chemin.MsgNextIsLast:  {"Hora de encerramento: o próximo golpe é o último", "Closing time: the next coup is the last"},
		chemin.MsgPartidaOver: {"Fim da partida. A mesa fecha.", "End of the partida. The table closes."},
	} {
		r := poker.Record{Kind: chemin.KindAnnounce, Action: string(m)}
		if pt, en := chemin.Text("pt", r), chemin.Text("en", r); pt != want[0] || en != want[1] {
			t.Errorf("%s: %q / %q", m, pt, en)
		}
	}
}

// Past the hour, when the hand goes round for the last coup and every
// player refuses it, no coup is left to deal: the partida ends, its sabot
// revealed.
func TestClosingWhenNobodyTakesTheLastBank(t *testing.T) {
	s := shuffled(t, 6)
	s.deal()
	s.closing(s.now)
	if v := s.tb.View(""); v.Phase != chemin.Stake || !v.FinalCoup {
		t.Fatalf("the bank asked at the hour: %+v", v)
	}
	at := len(s.all)
	for range 4 {
		s.act(s.toAct(), chemin.Refuse)
		if s.tb.Phase() == chemin.Closed {
			t.Fatal("closed before every player refused")
		}
	}
	s.act(s.toAct(), chemin.Refuse)
	if n := len(find(s.all[at:], chemin.KindShoeEnd)); n != 1 {
		t.Fatalf("%d sabots revealed", n)
	}
	s.closedWell(s.all[at:])
}

// Random tables told their closing hour at a random moment, the hour
// drawn around the twenty minutes before which the sabot in play must
// have begun (rule 107): each closes with every cent out or in the
// cagnotte, the records folding to the engine after every step, no sabot
// after the hour, one coup at most after it unless its sabot began 20
// minutes before, and a replay from the events and the recorded draws
// equal to the table.
func TestRandomCloses(t *testing.T) {
	n := 24
	if testing.Short() {
		n = 6
	}
	playedOn, lastCoup := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := simRules()
		kinds[int(seed)%len(kinds)](&r)
		rec := &recorder{src: rng.NewSeeded(seed)}
		tb, err := chemin.New(r, rec)
		if err != nil {
			t.Fatal(err)
		}
		s := &sim{t: t, tb: tb, rnd: rand.New(rand.NewPCG(seed, 107)), fold: chemin.NewFolder(), now: time.Date(2026, 12, 5, 21, 0, 0, 0, time.UTC)}
		for i := range 14 {
			s.bench = append(s.bench, fmt.Sprintf("p%02d", i+1))
		}
		tellAt := 50 + s.rnd.IntN(400)
		told := -1
		var playsOn bool
		for steps := 0; tb.Phase() != chemin.Closed; steps++ {
			if steps > 100000 {
				t.Fatalf("seed %d: no close in %d steps (phase %s)", seed, steps, tb.Phase())
			}
			if steps == tellAt {
				var sabAt time.Time
				for _, x := range s.all {
					if x.Kind == chemin.KindShoe {
						sabAt = x.At
					}
				}
				if sabAt.IsZero() {
					tellAt++
					continue
				}
				hour := sabAt.Add(chemin.SabotBeforeClose + time.Duration(s.rnd.IntN(3)-1)*time.Duration(s.rnd.IntN(600))*time.Second)
				if hour.After(s.now) {
					s.now = hour
				}
				recs, err := s.step(poker.Closing{At: s.now, Hour: hour})
				if err != nil {
					t.Fatalf("seed %d: the closing hour refused: %v", seed, err)
				}
				playsOn = said(recs, chemin.MsgPlaysOn)
				if want := tb.View("").Shoe != "" && !sabAt.After(hour.Add(-chemin.SabotBeforeClose)); playsOn != want && tb.Phase() != chemin.Closed {
					t.Fatalf("seed %d: a sabot begun %s before the hour plays on: %v", seed, hour.Sub(sabAt), playsOn)
				}
				told = len(s.all)
				continue
			}
			if tb.Phase() == chemin.Idle {
				s.now = s.now.Add(2 * time.Second)
				s.between()
				s.step(poker.Deal{At: s.now})
				continue
			}
			s.decide()
		}
		after := s.all[told:]
		coups, shoes := len(find(after, poker.KindHandStart)), len(find(after, chemin.KindShoe))
		switch {
		case shoes != 0:
			t.Fatalf("seed %d: a sabot after the hour", seed)
		case !playsOn && coups > 1:
			t.Fatalf("seed %d: %d coups after the hour, its sabot not played on", seed, coups)
		case len(find(after, poker.KindEnd)) != 1:
			t.Fatalf("seed %d: the partida's end %v", seed, find(after, poker.KindEnd))
		}
		if playsOn {
			playedOn++
		} else {
			lastCoup++
		}
		st := tb.State()
		if len(st.Players) != 0 || st.PaidIn != st.PaidOut+st.Cagnotte || st.Bank != 0 || st.Garage != 0 || len(st.Stakes) != 0 {
			t.Fatalf("seed %d: after the close %+v", seed, st)
		}
		again, err := chemin.New(r, &recorder{replay: slices.Clone(rec.got)})
		if err != nil {
			t.Fatal(err)
		}
		var all []poker.Record
		for _, ev := range s.events {
			recs, err := again.Step(ev)
			if err != nil {
				t.Fatalf("seed %d: the replay refuses %T %+v: %v", seed, ev, ev, err)
			}
			all = append(all, recs...)
		}
		a, _ := json.Marshal(all)
		b, _ := json.Marshal(s.all)
		if string(a) != string(b) || again.Phase() != chemin.Closed {
			t.Fatalf("seed %d: the replay differs", seed)
		}
	}
	if playedOn == 0 || lastCoup == 0 {
		t.Fatalf("%d sabots played on, %d last coups: the draws missed a case", playedOn, lastCoup)
	}
	t.Logf("%d sabots played on past the hour, %d partidas closed by a last coup", playedOn, lastCoup)
}
