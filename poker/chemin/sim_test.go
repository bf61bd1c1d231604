package chemin_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/rng"
)

// recorder is the certified RNG as the table server's ledger uses it: every
// value drawn is kept, so a replay deals the same cards without drawing.
type recorder struct {
	src    rng.Source
	got    []uint64
	replay []uint64
}

func (r *recorder) Uint64n(n uint64) uint64 {
	if r.src == nil {
		v := r.replay[0]
		r.replay = r.replay[1:]
		if v >= n {
			panic(fmt.Sprintf("replayed %d below %d", v, n))
		}
		return v
	}
	v := r.src.Uint64n(n)
	r.got = append(r.got, v)
	return v
}

// sim plays a table with bots taking random choices (now and then an
// illegal one, a timeout, a leave, a failure of the system).
type sim struct {
	t      *testing.T
	tb     *chemin.Table
	rnd    *rand.Rand
	now    time.Time
	all    []poker.Record
	fold   *chemin.Folder
	events []poker.Event
	bench  []string
	// figures
	coups, shoes, voids, refused, timeouts, auctions, garages, bancos, suivis, mesas, passes, gaveUp int
}

func (s *sim) step(ev poker.Event) ([]poker.Record, error) {
	recs, err := s.tb.Step(ev)
	if err != nil && len(recs) > 0 {
		s.t.Fatalf("%T %+v refused after it changed the table: %v\n%v", ev, ev, err, recs)
	}
	if err != nil {
		s.refused++
		return nil, err
	}
	s.events = append(s.events, ev)
	s.all = append(s.all, recs...)
	// Conservation and replay equality after every step: the records,
	// folded from the start, are the engine's money and bank exactly.
	if ferr := s.fold.Add(recs...); ferr != nil {
		s.t.Fatalf("after %T %+v: %v", ev, ev, ferr)
	}
	st := s.fold.State()
	if want := s.tb.State(); !reflect.DeepEqual(st, want) {
		s.t.Fatalf("after %T %+v the records fold to\n%+v\nthe engine holds\n%+v\n%v", ev, ev, st, want, recs)
	}
	if err := s.tb.Fault(); err != nil {
		s.t.Fatal(err)
	}
	for _, r := range recs {
		switch {
		case r.Kind == poker.KindHandStart:
			s.coups++
		case r.Kind == chemin.KindShoe:
			s.shoes++
		case r.Kind == poker.KindVoid:
			s.voids++
		case r.Timeout:
			s.timeouts++
		case r.Kind == chemin.KindAnnounce && r.Action == string(chemin.MsgAuction):
			s.auctions++
		case r.Kind == chemin.KindGarage:
			s.garages++
		case r.Kind == chemin.KindBet && r.Action == string(chemin.Banco):
			s.bancos++
		case r.Kind == chemin.KindBet && r.Action == string(chemin.Suivi):
			s.suivis++
		case r.Kind == chemin.KindBet && r.Action == string(chemin.BancoMesa):
			s.mesas++
		case r.Kind == poker.KindAct && r.Action == string(chemin.Pass):
			s.passes++
		case r.Kind == poker.KindHandEnd:
			s.replayCoup(r)
		case r.Kind == poker.KindLeave:
			tot := *r.Totals
			if tot.BoughtIn-tot.Fees+tot.Won-tot.Wagered != tot.CashedOut || tot.CashedOut != r.Amount {
				s.t.Fatalf("%s leaves with %d and totals %+v", r.Player, r.Amount, tot)
			}
			s.bench = append(s.bench, r.Player)
			if r.Reason != "" && r.Reason[0] == 'g' {
				s.gaveUp++
			}
		}
	}
	return recs, nil
}

func (s *sim) seated() []string {
	var ids []string
	for _, sv := range s.tb.View("").Seats {
		ids = append(ids, sv.Player)
	}
	return ids
}

func (s *sim) join() {
	if len(s.bench) == 0 || len(s.seated()) == s.tb.Rules().Seats {
		return
	}
	k := s.rnd.IntN(len(s.bench))
	id := s.bench[k]
	amount := s.tb.Rules().MinBank * int64(1+s.rnd.IntN(20))
	if _, err := s.step(poker.Join{At: s.now, Player: id, Amount: amount}); err == nil {
		s.bench = slices.Delete(s.bench, k, k+1)
	}
}

// between: bots come and go, rest, buy again.
func (s *sim) between() {
	for _, id := range s.seated() {
		switch s.rnd.IntN(80) {
		case 0:
			s.step(poker.Leave{At: s.now, Player: id})
		case 1:
			s.step(poker.Rebuy{At: s.now, Player: id, Amount: s.tb.Rules().MinBank * 3})
		case 2:
			s.step(poker.Rest{At: s.now, Player: id, On: true})
		}
	}
	for _, sv := range s.tb.View("").Seats {
		if sv.Resting && s.rnd.IntN(3) == 0 {
			s.step(poker.Rest{At: s.now, Player: sv.Player, On: false})
		}
	}
	for len(s.seated()) < 6 && len(s.bench) > 0 || s.rnd.IntN(8) == 0 && len(s.bench) > 0 {
		n := len(s.seated())
		s.join()
		if len(s.seated()) == n {
			break
		}
	}
}

// decide makes one decision the table waits for.
func (s *sim) decide() {
	s.now = s.now.Add(time.Duration(s.rnd.IntN(3000)) * time.Millisecond)
	v := s.tb.View("")
	var who []string
	for _, id := range s.seated() {
		if c := s.tb.View(id).Choices; len(c) > 0 {
			if v.Phase == chemin.Stake && v.ToAct != s.seatOf(id) && s.rnd.IntN(6) != 0 {
				continue // an offer to associate, now and then
			}
			who = append(who, id)
		}
	}
	switch r := s.rnd.IntN(60); {
	case len(who) == 0 || r == 0: // the timer decides
		if v.Deadline.After(s.now) {
			s.now = v.Deadline
		}
		s.step(poker.Tick{At: s.now})
		return
	case r == 1 && v.Phase != chemin.Idle: // a failure of the system
		s.step(poker.Resume{At: s.now})
		return
	case r == 2: // somebody whose turn it is not
		id := s.seated()[s.rnd.IntN(len(s.seated()))]
		if len(s.tb.View(id).Choices) == 0 {
			if _, err := s.step(poker.Act{At: s.now, Player: id, Action: poker.Action{Kind: chemin.Draw}}); err == nil {
				s.t.Fatalf("%s acted out of turn in %s", id, v.Phase)
			}
			return
		}
	case r == 3:
		s.step(poker.Leave{At: s.now, Player: who[s.rnd.IntN(len(who))]})
		return
	}
	id := who[s.rnd.IntN(len(who))]
	cs := s.tb.View(id).Choices
	c := cs[s.rnd.IntN(len(cs))]
	a := poker.Action{Kind: c.Kind}
	if c.Max > 0 {
		steps := (c.Max - c.Min) / c.Step
		a.To = c.Min + c.Step*s.rnd.Int64N(steps+1)
		if s.rnd.IntN(3) == 0 {
			a.To = c.Min
		}
		if s.rnd.IntN(40) == 0 {
			bad := a
			bad.To = c.Max + 1 + s.rnd.Int64N(100)
			if c.Kind == chemin.Bid || c.Kind == chemin.Bet || c.Kind == chemin.Bank {
				if _, err := s.step(poker.Act{At: s.now, Player: id, Action: bad}); err == nil {
					s.t.Fatalf("%s's %s of %d beyond %+v accepted", id, c.Kind, bad.To, c)
				}
			}
		}
	}
	if _, err := s.step(poker.Act{At: s.now, Player: id, Action: a}); err != nil {
		s.t.Fatalf("%s's %+v from the choices %+v refused in %s: %v", id, a, cs, v.Phase, err)
	}
}

func (s *sim) seatOf(id string) int {
	for _, sv := range s.tb.View("").Seats {
		if sv.Player == id {
			return sv.Seat
		}
	}
	return 0
}

func simRules() chemin.Rules {
	return chemin.Rules{Table: "cf1", Decks: 6, Seats: 9, MinBank: 1000, MinBet: 100, CagnotteBps: 500,
		Rounding: chemin.RoundHalfUp, AuctionBase: 2000, AuctionStep: 500, DecisionTime: 10 * time.Second}
}

func runSim(t *testing.T, r chemin.Rules, seed uint64, shoes int) *sim {
	rec := &recorder{src: rng.NewSeeded(seed)}
	tb, err := chemin.New(r, rec)
	if err != nil {
		t.Fatal(err)
	}
	s := &sim{t: t, tb: tb, rnd: rand.New(rand.NewPCG(seed, 7)), fold: chemin.NewFolder(), now: time.Date(2026, 12, 5, 21, 0, 0, 0, time.UTC)}
	for i := range 14 {
		s.bench = append(s.bench, fmt.Sprintf("p%02d", i+1))
	}
	for steps := 0; s.shoes <= shoes; steps++ {
		if steps > 200000*shoes {
			t.Fatalf("%d steps for %d shoes", steps, s.shoes)
		}
		if s.tb.Phase() == chemin.Idle {
			s.now = s.now.Add(2 * time.Second)
			s.between()
			s.step(poker.Deal{At: s.now})
			continue
		}
		s.decide()
	}
	// Everyone leaves: what was brought in went out, or to the cagnotte.
	for s.tb.Phase() != chemin.Idle {
		s.now = s.now.Add(time.Minute)
		s.step(poker.Tick{At: s.now})
	}
	for _, id := range s.seated() {
		if _, err := s.step(poker.Leave{At: s.now, Player: id}); err != nil {
			t.Fatalf("%s cannot leave: %v", id, err)
		}
	}
	for s.tb.Phase() != chemin.Idle || len(s.seated()) > 0 {
		s.now = s.now.Add(time.Minute)
		s.step(poker.Tick{At: s.now})
		for _, id := range s.seated() {
			s.step(poker.Leave{At: s.now, Player: id})
		}
	}
	if st, err := chemin.Fold(s.all); err != nil || !reflect.DeepEqual(st, tb.State()) {
		t.Fatalf("the whole fold: %v\n%+v\n%+v", err, st, tb.State())
	}
	st := tb.State()
	if st.PaidIn != st.PaidOut+st.Cagnotte || st.Bank != 0 || st.Garage != 0 {
		t.Fatalf("at the end: %+v", st)
	}
	t.Logf("%d shoes, %d coups, %d bancos, %d suivis, %d com a mesa, %d voided, %d garages, %d passes, %d auctions, %d gave up a seat, %d timeouts, %d refused, cagnotte %d",
		s.shoes, s.coups, s.bancos, s.suivis, s.mesas, s.voids, s.garages, s.passes, s.auctions, s.gaveUp, s.timeouts, s.refused, st.Cagnotte)

	// Replay: a table stepped with the same events and the recorded draws
	// (never the RNG) emits the same records, byte for byte.
	again, err := chemin.New(r, &recorder{replay: slices.Clone(rec.got)})
	if err != nil {
		t.Fatal(err)
	}
	var all []poker.Record
	for _, ev := range s.events {
		recs, err := again.Step(ev)
		if err != nil {
			t.Fatalf("the replay refuses %T %+v: %v", ev, ev, err)
		}
		all = append(all, recs...)
	}
	a, _ := json.Marshal(all)
	b, _ := json.Marshal(s.all)
	if string(a) != string(b) {
		t.Fatal("the replay's records differ")
	}
	if !reflect.DeepEqual(again.State(), tb.State()) {
		t.Fatal("the replay's state differs")
	}
	return s
}

// kinds of tables the random sessions play: the default; the tableau only
// with another cagnotte and rounding; a one-deck sabot at a table of five.
var kinds = []func(*chemin.Rules){
	func(*chemin.Rules) {},
	func(r *chemin.Rules) { r.TableauOnly, r.Rounding, r.CagnotteBps = true, chemin.RoundDown, 333 },
	func(r *chemin.Rules) { r.Decks, r.Seats, r.MinSeated, r.Rounding = 1, 5, 4, chemin.RoundUp },
}

// Random tables over many sabots: every cent conserved after every step
// (the engine's check, the records' fold), the fold of the records equal to
// the engine's money after every step, every sabot's cards the order its
// digest committed, and a replay from the events and the recorded draws
// equal to the table.
func TestRandomShoes(t *testing.T) {
	shoes := 6
	if testing.Short() {
		shoes = 2
	}
	declined := 0
	for i, c := range kinds {
		r := simRules()
		c(&r)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for _, rec := range runSim(t, r, uint64(11+i), shoes).all {
				if rec.Kind == poker.KindAct && rec.Action == string(chemin.PassCards) {
					declined++
				}
			}
		})
	}
	if declined == 0 { // the random tables pass through rule 101's choice
		t.Error("no ponto declined the cards")
	}
}

// CHEMIN_SHOES=n: n sabots of 6 decks in each table of TestRandomShoes'
// kinds, from CHEMIN_SEED (1 by default).
func TestLongShoes(t *testing.T) {
	n := os.Getenv("CHEMIN_SHOES")
	if n == "" {
		t.Skip("CHEMIN_SHOES=n plays n sabots")
	}
	var k int
	seed := uint64(1)
	fmt.Sscan(n, &k)
	fmt.Sscan(os.Getenv("CHEMIN_SEED"), &seed)
	for i, c := range kinds {
		r := simRules()
		c(&r)
		t.Run(fmt.Sprint(i), func(t *testing.T) { runSim(t, r, seed, k) })
	}
}

// replayCoup: every player in the coup just ended has it as his last, and
// it replays for him.
func (s *sim) replayCoup(end poker.Record) {
	k := len(s.all) - 1
	for s.all[k].Kind != poker.KindHandStart || s.all[k].Hand != end.Hand {
		k--
	}
	var coup []poker.Record
	var in []string
	for _, r := range s.all[k:] {
		if r.Hand == end.Hand {
			coup = append(coup, r)
			if (r.Kind == poker.KindHandStart || r.Kind == chemin.KindBet && r.Amount > 0) && !slices.Contains(in, r.Player) {
				in = append(in, r.Player)
			}
		}
	}
	for _, id := range in {
		if !slices.Contains(s.seated(), id) {
			continue // he left as the coup ended
		}
		last := s.tb.LastHands(id)
		if len(last) == 0 || !reflect.DeepEqual(last[len(last)-1], coup) {
			s.t.Fatalf("coup %d is not %s's last", end.Hand, id)
		}
		frames, err := chemin.ReplayCoup(coup, id)
		if err != nil {
			s.t.Fatalf("coup %d for %s: %v", end.Hand, id, err)
		}
		ponto := ""
		if d := find(coup, poker.KindDeal); len(d) > 0 {
			ponto = d[0].Player
		}
		for i, f := range frames {
			// Until the ponto speaks on his cards (not as he plays or
			// declines them before the deal, rule 101).
			spoke := coup[i].Kind == poker.KindAct && coup[i].Player == ponto && (coup[i].Action == string(chemin.Draw) || coup[i].Action == string(chemin.Stand))
			if coup[i].Kind == poker.KindShow || spoke {
				break
			}
			if len(f.PontoCards) >= 2 && id != ponto || len(f.BankerCards) > 0 {
				s.t.Fatalf("coup %d: %s sees cards before they are shown: %+v", end.Hand, id, f)
			}
		}
	}
}
