package meters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/openegm/cabinet/cards"
	"reflect"
	"strings"
	"testing"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/rng"
)

// player drives a State with random but lawful records, the way a machine
// would, and keeps its own independent tally to check the fold against.
type player struct {
	r *rng.RNG
	s *State
	t testing.TB
	// commit, when set, is how records reach the state (a ledger); the
	// player then only reads s.
	commit func(Record) error
	now    int64
	limit  int64 // handpay limit, cents
	credit int64 // independent model of the credit meter
	bets   int64
	paid   int64 // wins to credits
	in     int64
	out    int64
	games  int64
	// local, when set, plays with the cabinet's own jackpot: paytable
	// level 1 (won at the top bet, credits 200) and mystery level 9.
	local   bool
	stated  int64 // contributions stated by game starts, millicents
	awarded int64 // local awards, cents
	ticket  int   // tickets issued
	order   uint64
}

// openLocal opens the player's local jackpot levels.
func (p *player) openLocal() {
	p.local = true
	p.apply(JackpotLevel{At: p.now, Who: "op", Level: 1, ResetCents: 50_000, RatePPM: 15_000, HiddenPPM: 2_500})
	myst := JackpotLevel{At: p.now, Who: "op", Level: 9, Mystery: true, ResetCents: 1_000, RatePPM: 7_777, CapCents: 3_000}
	cfg, err := myst.JackpotConfig()
	if err != nil {
		p.t.Fatal(err)
	}
	if myst.Target, err = jackpot.DrawTarget(cfg, p.r); err != nil {
		p.t.Fatal(err)
	}
	p.apply(myst)
}

// localGame states the jackpot part of a game start the way the machine
// does: contributions to mystery levels always, to paytable levels at the
// top bet; a paytable hit only there.
func (p *player) localGame(gs *GameStart, top bool) {
	var levels []int
	for _, l := range p.s.LocalLevels() {
		if l.Mystery || top {
			levels = append(levels, l.Level)
		}
	}
	amounts, mystery, err := p.s.JackpotContribution(levels, gs.BetCents, gs.Game, gs.At)
	if err != nil {
		p.t.Fatal(err)
	}
	gs.Contributions, gs.Mystery = amounts, mystery
	for _, a := range amounts {
		p.stated += a.Millicents
	}
	gs.Progressives = nil
	if top && p.n(100) == 0 {
		gs.Progressives = []int{1}
	}
}

// awardLocal pays the pending local hits the way the machine does.
func (p *player) awardLocal() {
	for len(p.s.PendingHits) > 0 {
		h := p.s.PendingHits[0]
		var target int64
		if h.Level == 9 {
			lv, _ := p.s.localLevel(9)
			var err error
			if target, err = jackpot.DrawTarget(lv.Config, p.r); err != nil {
				p.t.Fatal(err)
			}
		}
		cents, err := p.s.LocalAward(h.Level, h.Game, target, p.now)
		if err != nil {
			p.t.Fatal(err)
		}
		attendant := cents >= p.limit
		if !attendant {
			p.credit += cents
			p.paid += cents
		}
		p.awarded += cents
		p.apply(ProgressiveAward{At: p.now, Game: h.Game, Level: h.Level, Cents: cents, Attendant: attendant, Target: target})
		if attendant {
			p.apply(HandpayPending{At: p.now, Kind: HandpayProgressive, Cents: cents, Game: h.Game, Level: h.Level})
			p.apply(HandpayReset{At: p.now, Who: "att-3", Cents: cents})
		}
	}
}

func (p *player) apply(rec Record) {
	p.t.Helper()
	p.now += 1_000_000
	apply := p.s.Apply
	if p.commit != nil {
		apply = p.commit
	}
	if err := apply(rec); err != nil {
		p.t.Fatalf("lawful %v refused: %v", rec.Type(), err)
	}
	if err := p.s.Check(); err != nil {
		p.t.Fatal(err)
	}
	if p.s.Get(Credits) != p.credit {
		p.t.Fatalf("after %v: credits %d, model %d", rec.Type(), p.s.Get(Credits), p.credit)
	}
}

func (p *player) n(k int) int { return p.r.Intn(k) }

func (p *player) step() {
	switch k := p.n(20); {
	case k < 4:
		b := BillValues[p.n(len(BillValues))]
		var order uint64
		if p.n(2) == 0 {
			// Through the escrow: ordered stacked, then stacked or returned.
			p.order += uint64(1 + p.n(3))
			order = p.order
			p.apply(BillEscrow{At: p.now, Ref: order, Cents: b})
			if p.n(5) == 0 {
				p.apply(BillReturned{At: p.now, Ref: order, Cents: b, Why: "returned"})
				return
			}
		}
		p.credit += b
		p.in += b
		p.apply(MoneyIn{At: p.now, Source: SourceBill, Cents: b, Order: order})
	case k < 5:
		c := int64(1 + p.n(500))
		p.credit += c
		p.in += c
		p.apply(MoneyIn{At: p.now, Source: []string{SourceCoin, SourceTicket, SourceElectronic}[p.n(3)], Cents: c, Ref: "T1"})
	case k < 15:
		p.game()
	case k < 16 && p.credit > 0:
		c := int64(1 + p.n(int(p.credit)))
		p.credit -= c
		p.out += c
		p.ticket++
		v := fmt.Sprint(p.ticket)
		p.apply(CashOut{At: p.now, Method: OutTicket, Cents: c, Ticket: v})
		if p.n(8) == 0 {
			// The printer could not print it: back to credits.
			p.credit += c
			p.out -= c
			p.apply(TicketVoid{At: p.now, Ticket: v, Cents: c, Why: "printer jam"})
		} else {
			p.apply(TicketPrinted{At: p.now, Ticket: v, Cents: c, Reprint: p.n(10) == 0})
		}
	case k < 17 && p.credit > 0:
		c := p.credit
		p.apply(HandpayPending{At: p.now, Kind: HandpayCancelled, Cents: c})
		p.credit -= c
		p.out += c
		p.apply(HandpayReset{At: p.now, Who: "att-1", Cents: c})
	case k < 18:
		door := []string{DoorMain, DoorLogic, DoorCashbox, DoorBelly, DoorDrop}[p.n(5)]
		p.apply(Event{At: p.now, Code: EventTilt, Tilt: "door_" + door})
		p.apply(Event{At: p.now, Code: EventDoorOpen, Door: door})
		p.apply(Event{At: p.now, Code: EventTiltClear, Tilt: "door_" + door})
		p.apply(Event{At: p.now, Code: EventDoorClose, Door: door})
	case k < 19:
		p.apply(Event{At: p.now, Code: EventPowerDown})
		p.apply(Event{At: p.now, Code: EventPowerUp})
	default:
		p.apply(Service{At: p.now, Who: "tech-1", Action: "view meters"})
	}
}

func (p *player) game() {
	if p.n(5) == 0 {
		p.tableHand()
		return
	}
	denom := int64([]int{1, 2, 5, 10}[p.n(4)])
	credits := int64(20 * (1 + p.n(10)))
	bet := credits * denom
	if bet > p.credit {
		return
	}
	p.games++
	g := p.s.LastGame + 1
	win := func() int64 {
		if p.n(3) == 0 {
			return int64(p.n(40)) * denom * 10
		}
		return 0
	}
	base := win()
	free := 0
	if p.n(25) == 0 {
		free = 1 + p.n(5)
	}
	var prog []int
	if p.n(200) == 0 {
		prog = []int{1}
	}
	p.credit -= bet
	p.bets += bet
	gs := GameStart{At: p.now + 1_000_000, Game: g, Paytable: "lusitania-92", Digest: "d", Denom: denom, Level: 0,
		BetCredits: credits, BetCents: bet, Stops: []int{1, 2, 3, 4, 5}, WinCents: base, FreeAwarded: free, Progressives: prog}
	if p.local {
		p.localGame(&gs, credits == 200)
		prog = nil
	}
	p.apply(gs)
	total := base
	for i := 1; free > 0; i++ {
		w := win()
		again := 0
		if p.n(20) == 0 {
			again = 2
		}
		p.apply(FreeGame{At: p.now, Game: g, Index: i, Stops: []int{0, 0, 0, 0, 0}, WinCents: w, Awarded: again})
		total += w
		free += again - 1
	}
	handpay := total >= p.limit
	if !handpay {
		p.credit += total
		p.paid += total
	}
	p.apply(GameEnd{At: p.now, Game: g, WinCents: total, Handpay: handpay})
	if handpay {
		p.apply(HandpayPending{At: p.now, Kind: HandpayWin, Cents: total, Game: g})
		p.apply(HandpayReset{At: p.now, Who: "att-2", Cents: total})
	}
	if p.local {
		p.awardLocal()
	}
	for _, lv := range prog {
		amount := int64(10000 + p.n(100000))
		attendant := amount >= p.limit
		p.apply(ProgressiveHit{At: p.now, Game: g, Level: lv, Cents: amount})
		if !attendant {
			p.credit += amount
			p.paid += amount
		}
		p.apply(ProgressiveAward{At: p.now, Game: g, Level: lv, Cents: amount, Attendant: attendant})
		if attendant {
			p.apply(HandpayPending{At: p.now, Kind: HandpayProgressive, Cents: amount, Game: g, Level: lv})
			p.apply(HandpayReset{At: p.now, Who: "att-3", Cents: amount})
		}
	}
}

// tableHand plays a Makccarat hand: stakes in multiples of 20 cents on
// random spots, a random amount paid back (the fold does not re-evaluate
// the cards: recall does).
func (p *player) tableHand() {
	var h TableHand
	var bet int64
	for i := range h.Bets {
		if p.n(2) == 0 {
			h.Bets[i] = 20 * int64(1+p.n(10))
			bet += h.Bets[i]
		}
	}
	if bet == 0 || bet > p.credit {
		return
	}
	p.games++
	g := p.s.LastGame + 1
	h.Cards = []cards.Card{{Rank: cards.Ace}, {Rank: cards.King, Suit: cards.Spades}, {Rank: 9}, {Rank: 2}}
	paid := int64(0)
	if p.n(2) == 0 {
		paid = bet * int64(1+p.n(3))
		h.Commission = int64(p.n(3))
	}
	p.credit -= bet
	p.bets += bet
	p.apply(GameStart{At: p.now, Game: g, Kind: GameMakccarat, Paytable: "makccarat-alt1-5pct", Digest: "d", Denom: 1,
		BetCredits: bet, BetCents: bet, WinCents: paid, Hand: &h})
	handpay := paid >= p.limit
	if !handpay {
		p.credit += paid
		p.paid += paid
	}
	p.apply(GameEnd{At: p.now, Game: g, WinCents: paid, Handpay: handpay})
	if handpay {
		p.apply(HandpayPending{At: p.now, Kind: HandpayWin, Cents: paid, Game: g})
		p.apply(HandpayReset{At: p.now, Who: "att-2", Cents: paid})
	}
}

func TestRandomLawfulSequencesKeepInvariants(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		p := &player{r: rng.NewSeeded(seed), s: NewState(), t: t, limit: 20000}
		for range 3000 {
			p.step()
		}
		s := p.s
		if s.Get(CoinIn) != p.bets || s.MoneyInTotal() != p.in || s.MoneyOutTotal() != p.out || s.Get(CoinOut) != p.paid {
			t.Fatalf("seed %d: bets %d/%d in %d/%d out %d/%d paid %d/%d", seed, s.Get(CoinIn), p.bets,
				s.MoneyInTotal(), p.in, s.MoneyOutTotal(), p.out, s.Get(CoinOut), p.paid)
		}
		if s.Get(GamesPlayed) != p.games || s.Get(GamesWon)+s.Get(GamesLost) != p.games || s.LastGame != uint64(p.games) {
			t.Fatalf("seed %d: games %d won %d lost %d, model %d", seed, s.Get(GamesPlayed), s.Get(GamesWon), s.Get(GamesLost), p.games)
		}
		if n := len(s.Games); n != int(p.games) && (n < HistoryGames || n >= 2*HistoryGames) {
			t.Fatalf("seed %d: history holds %d games", seed, len(s.Games))
		}
		var bills int64
		for i, n := range s.BillCounts {
			bills += n * BillValues[i]
		}
		if bills != s.Get(BillsIn) {
			t.Fatalf("seed %d: bill counts add to %d, bills in %d", seed, bills, s.Get(BillsIn))
		}
		if s.Get(TotalWon) != s.Get(MachinePaidPaytable)+s.Get(MachinePaidProgressive)+s.Get(AttendantPaidPaytable)+s.Get(AttendantPaidProgressive) {
			t.Fatalf("seed %d: total won %d does not split into its parts", seed, s.Get(TotalWon))
		}
	}
}

// A fold is a pure function of the records: the same records give the same
// state, and the state survives a JSON snapshot unchanged.
func TestFoldIsDeterministicAndSnapshots(t *testing.T) {
	play := func() *State {
		p := &player{r: rng.NewSeeded(99), s: NewState(), t: t, limit: 15000}
		for range 500 {
			p.step()
		}
		return p.s
	}
	a, _ := json.Marshal(play())
	b, _ := json.Marshal(play())
	if string(a) != string(b) {
		t.Fatal("the same records gave different states")
	}
	var back State
	if err := json.Unmarshal(a, &back); err != nil {
		t.Fatal(err)
	}
	if c, _ := json.Marshal(&back); string(c) != string(a) {
		t.Fatal("state does not survive a JSON round trip")
	}
}

func lawfulBase(t *testing.T) *State {
	s := NewState()
	for _, r := range []Record{
		MoneyIn{Source: SourceBill, Cents: 2000},
		GameStart{Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{1}, WinCents: 0, FreeAwarded: 1},
	} {
		if err := s.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestUnlawfulRecordsRefusedAndStateUnchanged(t *testing.T) {
	cases := []struct {
		name string
		rec  Record
		want string
	}{
		{"second start while open", GameStart{Game: 2, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{1}}, "in progress"},
		{"end before owed free game", GameEnd{Game: 1}, "still owed"},
		{"end of another game", GameEnd{Game: 7}, "not in progress"},
		{"free game out of order", FreeGame{Game: 1, Index: 2, Stops: []int{1}}, "free game 2 after 0"},
		{"cash out during a game", CashOut{Method: OutTicket, Cents: 5, Ticket: "1"}, "in progress"},
		{"handpay reset with none pending", HandpayReset{Who: "a", Cents: 5}, "no handpay pending"},
		{"award without hit", ProgressiveAward{Game: 1, Level: 1, Cents: 5}, "no pending hit"},
		{"bill of a wrong value", MoneyIn{Source: SourceBill, Cents: 700}, "not a euro note"},
		{"negative coin", MoneyIn{Source: SourceCoin, Cents: -5}, "must be positive"},
		{"bet not credits × denom", GameStart{Game: 2, Paytable: "p", Digest: "d", Denom: 2, BetCredits: 20, BetCents: 20, Stops: []int{1}}, "is not 20 credits"},
		{"RAM clear with credits", RAMClear{Who: "t", Why: "x"}, "RAM clear with credits"},
		{"unknown door", Event{Code: EventDoorOpen, Door: "roof"}, "door"},
	}
	for _, c := range cases {
		s := lawfulBase(t)
		before, _ := json.Marshal(s)
		err := s.Apply(c.rec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
		after, _ := json.Marshal(s)
		if string(before) != string(after) {
			t.Errorf("%s: refused record changed the state", c.name)
		}
	}
	// Once the game is ended, ending it again is refused: one end per start.
	s := lawfulBase(t)
	for _, r := range []Record{FreeGame{Game: 1, Index: 1, Stops: []int{1}, WinCents: 30}, GameEnd{Game: 1, WinCents: 30}} {
		if err := s.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Apply(GameEnd{Game: 1, WinCents: 30}); err == nil {
		t.Fatal("game ended twice")
	}
	if err := s.Apply(GameStart{Game: 3, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 1, BetCents: 1, Stops: []int{1}}); err == nil || !strings.Contains(err.Error(), "does not follow") {
		t.Fatalf("game 3 after game 1: %v", err)
	}
	// A game end whose total is not the sum of its spins.
	s = lawfulBase(t)
	s.Apply(FreeGame{Game: 1, Index: 1, Stops: []int{1}, WinCents: 30})
	if err := s.Apply(GameEnd{Game: 1, WinCents: 31}); err == nil || !strings.Contains(err.Error(), "its spins won 30") {
		t.Fatalf("wrong total: %v", err)
	}
	// A handpay for another amount than the game end owed.
	s.Apply(GameEnd{Game: 1, WinCents: 30, Handpay: true})
	if err := s.Apply(HandpayPending{Kind: HandpayWin, Cents: 29, Game: 1}); err == nil {
		t.Fatal("handpay of the wrong amount accepted")
	}
	if err := s.Apply(MoneyIn{Source: SourceBill, Cents: 500}); err != nil {
		t.Fatalf("money in while a handpay is owed: %v", err)
	}
	if err := s.Apply(GameStart{Game: 2, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 1, BetCents: 1, Stops: []int{1}}); err == nil {
		t.Fatal("game started while a handpay is owed")
	}
}

func TestTiltsAndDoorsArePartOfTheFold(t *testing.T) {
	s := NewState()
	for _, r := range []Record{
		Event{Code: EventTilt, Tilt: "bill_jam"},
		Event{Code: EventTilt, Tilt: "printer"},
		Event{Code: EventDoorOpen, Door: DoorMain},
		Event{Code: EventTiltClear, Tilt: "printer"},
	} {
		if err := s.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(s.Tilts, []string{"bill_jam"}) || !reflect.DeepEqual(s.DoorsOpen, []string{DoorMain}) {
		t.Fatalf("tilts %v doors %v", s.Tilts, s.DoorsOpen)
	}
	if err := s.Apply(Event{Code: EventTiltClear, Tilt: "printer"}); err == nil {
		t.Fatal("cleared a tilt that is not active")
	}
	if err := s.Apply(Event{Code: EventDoorOpen, Door: DoorMain}); err == nil {
		t.Fatal("opened an open door")
	}
	if err := s.Apply(Event{Code: EventTilt}); err == nil {
		t.Fatal("tilt without a name")
	}
	s.Apply(Event{Code: EventDoorClose, Door: DoorMain})
	if len(s.DoorsOpen) != 0 {
		t.Fatalf("doors %v", s.DoorsOpen)
	}
}

func TestRAMClearZeroesMetersKeepsHistory(t *testing.T) {
	s := lawfulBase(t)
	for _, r := range []Record{FreeGame{Game: 1, Index: 1, Stops: []int{1}}, GameEnd{Game: 1},
		CashOut{Method: OutTicket, Cents: 1980, Ticket: "9"}, TicketPrinted{Ticket: "9", Cents: 1980}, RAMClear{Who: "tech", Why: "board swap"}} {
		if err := s.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	for i, v := range s.Meters {
		if v != 0 {
			t.Fatalf("meter %s = %d after RAM clear", Defs[i].Name, v)
		}
	}
	if len(s.Games) != 1 || s.LastGame != 1 || s.Events[len(s.Events)-1].Code != EventRAMClear {
		t.Fatal("RAM clear lost the history or the game numbering")
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	recs := []Record{
		MoneyIn{At: 1, Source: SourceBill, Cents: 5000},
		GameStart{At: 2, Game: 1, Paytable: "p", Digest: "d", Denom: 5, Level: 2, BetCredits: 60, BetCents: 300,
			Stops: []int{1, 2, 3, 4, 5}, WinCents: 50, FreeAwarded: 10, Progressives: []int{1},
			Contributions: []LevelAmount{{Level: 1, Millicents: 1500}, {Level: 9, Millicents: 7}}, Mystery: []int{9}},
		FreeGame{At: 3, Game: 1, Index: 1, Stops: []int{0, 1, 2, 3, 4}, WinCents: 10, Awarded: 10, Progressives: []int{2}},
		GameEnd{At: 4, Game: 1, WinCents: 60, Handpay: true},
		HandpayPending{At: 5, Kind: HandpayWin, Cents: 60, Game: 1},
		HandpayReset{At: 6, Who: "att", Cents: 60},
		CashOut{At: 7, Method: OutTicket, Cents: 100, Ticket: "1234"},
		TicketPrinted{At: 7, Ticket: "1234", Cents: 100, Reprint: true},
		TicketVoid{At: 7, Ticket: "1234", Cents: 100, Why: "printer jam"},
		BillEscrow{At: 7, Ref: 3, Cents: 2000},
		BillReturned{At: 7, Ref: 3, Cents: 2000, Why: "validator returned it"},
		MoneyIn{At: 7, Source: SourceBill, Cents: 2000, Order: 4},
		ProgressiveHit{At: 8, Game: 1, Level: 1, Cents: 99_000},
		ProgressiveAward{At: 9, Game: 1, Level: 1, Cents: 100000, Attendant: true},
		ProgressiveAward{At: 9, Game: 1, Level: 9, Cents: 100000, Target: 5_000_000},
		JackpotLevel{At: 9, Who: "op", Level: 9, Mystery: true, ResetCents: 100, RatePPM: 10_000, CapCents: 200, Target: 150_000},
		Event{At: 10, Code: EventDoorOpen, Door: DoorMain},
		Config{At: 11, Who: "tech", Key: "denom", Value: "5"},
		Service{At: 12, Who: "tech", Action: "recall"},
		RAMClear{At: 13, Who: "tech", Why: "x"},
	}
	for _, r := range recs {
		data, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(r.Type(), data)
		if err != nil {
			t.Fatalf("%v: %v", r.Type(), err)
		}
		if !reflect.DeepEqual(back, r) {
			t.Fatalf("%v: %+v != %+v", r.Type(), back, r)
		}
	}
	if _, err := Decode(TypeMoneyIn, []byte(`{"at":1,"source":"bill","cents":500,"extra":1}`)); err == nil {
		t.Fatal("unknown field accepted")
	}
	if _, err := Decode(TypeMoneyIn, []byte(`{"at":1,"source":"bill","cents":500} {}`)); err == nil {
		t.Fatal("trailing data accepted")
	}
	if _, err := Decode(Type(999), []byte(`{}`)); err == nil {
		t.Fatal("unknown type accepted")
	}
	if _, err := Encode(MoneyIn{Source: "gold", Cents: 5}); err == nil {
		t.Fatal("invalid record encoded")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(uint16(TypeGameStart), []byte(`{"at":2,"game":1,"paytable":"p","digest":"d","denom":5,"level":2,"bet_credits":60,"bet_cents":300,"stops":[1,2],"win_cents":50,"free_awarded":0}`))
	f.Add(uint16(TypeMoneyIn), []byte(`{"at":1,"source":"bill","cents":500}`))
	f.Add(uint16(TypeJackpotLevel), []byte(`{"at":1,"who":"op","level":9,"mystery":true,"reset_cents":100,"rate_ppm":1000,"cap_cents":200,"target":150000}`))
	f.Add(uint16(TypeGameStart), []byte(`{"at":2,"game":1,"paytable":"p","digest":"d","denom":1,"level":0,"bet_credits":20,"bet_cents":20,"stops":[1],"win_cents":0,"free_awarded":0,"progressives":[1],"contributions":[{"level":1,"millicents":200},{"level":9,"millicents":20}],"mystery":[9]}`))
	f.Add(uint16(TypePromoExpired), []byte(`{"at":1,"cents":500,"pool":7,"expiration":3102026,"day":3112026}`))
	f.Add(uint16(TypeAFTReceipt), []byte(`{"at":1,"receipt":{"position":3,"id":"T-3"},"reprint":true}`))
	f.Add(uint16(TypeAFTReceiptText), []byte(`{"at":1,"text":{"fields":[{"code":0,"text":"CASINO"},{"code":16,"text":""}]}}`))
	f.Add(uint16(TypeGameEnd), []byte(`{"at":2,"game":1,"win_cents":50,"handpay":false}`))
	f.Add(uint16(TypeFreeGame), []byte(`{"at":2,"game":1,"index":1,"stops":[1,2],"win_cents":0,"awarded":0,"progressives":[2]}`))
	f.Fuzz(func(t *testing.T, typ uint16, data []byte) {
		// The fast path of the game records reads only what encoding/json
		// reads alike.
		sameDecode(t, Type(typ), data)
		r, err := Decode(Type(typ), data)
		if err != nil {
			return
		}
		// An accepted record is valid and re-encodes to a payload that
		// decodes to the same record: the same to the byte once encoded
		// again (Encode is the log's one form; an empty list a forged
		// payload spells out, "progressives":[], is the none Encode
		// leaves out, which DeepEqual would tell from nil).
		enc, err := Encode(r)
		if err != nil {
			t.Fatalf("decoded record does not encode: %v", err)
		}
		back, err := Decode(Type(typ), enc)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		again, err := Encode(back)
		if err != nil || !bytes.Equal(again, enc) {
			t.Fatalf("re-decoded record encodes as %s, not %s (%v)", again, enc, err)
		}
		// Folding it into an empty state never panics.
		NewState().Apply(r)
	})
}
