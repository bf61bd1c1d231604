package meters

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/rng"
)

// sameState fails when decodeState (restoreFast first) and encoding/json
// alone differ on a state's encoding: in the value or in the error. It
// says whether restoreFast read it.
func sameState(t testing.TB, b []byte) (fast bool) {
	t.Helper()
	_, fast = restoreFast(b)
	got, gerr := decodeState(b)
	want, werr := decodeStateJSON(b)
	switch {
	case (gerr == nil) != (werr == nil):
		t.Fatalf("%s: decodeState says %v, encoding/json %v", b, gerr, werr)
	case gerr != nil && gerr.Error() != werr.Error():
		t.Fatalf("%s: decodeState says %q, encoding/json %q", b, gerr, werr)
	case !reflect.DeepEqual(got, want):
		t.Fatalf("%s: decodeState gives %#v, encoding/json %#v", b, got, want)
	}
	return fast
}

// stateCorpus calls check with states of folds that reach every part of a
// state: random lawful play (games, free games, bills through the escrow,
// tickets, handpays, tilts and doors, service) with and without the
// cabinet's own jackpot, AFT with promotional credits and bonus jackpots,
// the casino's ticket system, test mode, a poker seat, table hands,
// settings and PIN failures, a RAM clear; after every record of the
// features, and every few steps of the random play.
func stateCorpus(t *testing.T, check func(*State)) {
	for seed := uint64(1); seed <= 6; seed++ {
		p := &player{r: rng.NewSeeded(seed), s: NewState(), t: t, limit: 20000}
		if seed%2 == 0 {
			p.openLocal()
		}
		for i := range 1500 {
			p.step()
			if i%30 == 0 {
				check(p.s)
			}
		}
		check(p.s)
	}
	apply := func(s *State, recs ...Record) {
		t.Helper()
		for _, r := range recs {
			if err := s.Apply(r); err != nil {
				t.Fatalf("lawful %v refused: %v", r.Type(), err)
			}
			check(s)
		}
	}

	// AFT: registration, transfers, promotional credits of a pool, a
	// bonus to credits and one owed by hand.
	s := NewState()
	check(s)
	apply(s, AFTRegistration{At: 1, Registration: aft.Registration{Status: aft.RegReady}},
		AFTRegistration{At: 2, Registration: aft.Registration{Status: aft.RegRegistered, Key: aft.Key{1}, POSID: 3}})
	apply(s, aftRec(s, "IN-1", aft.InHouseToMachine, 5000))
	apply(s, promoIn(s, "IN-2", 1000, 500, 300, 7, 3102026))
	apply(s, game(1, 400, 0)...)
	apply(s, bonusJackpot(s, "J-1", 300, false))
	apply(s, bonusJackpot(s, "J-2", 250_000, true))
	apply(s, HandpayPending{At: 5, Kind: HandpayBonus, Cents: 250_000, Ref: "J-2"}, HandpayReset{At: 6, Who: "att-1", Cents: 250_000})
	apply(s, aftRec(s, "OUT-1", aft.InHouseToHost, 5500))

	// The ticket system, settings (one with what encoding/json escapes,
	// one not ASCII), PIN failures, a ticket printed and one in escrow.
	s = NewState()
	apply(s, MoneyIn{At: 1, Source: SourceTicket, Cents: 300}, ValidationConfig{At: 1, ID: 3},
		TicketData{At: 1, ExpiryDays: 30, Location: "Casino <Lisboa> & Co"},
		Config{At: 1, Who: "tech-1", Key: "denom", Value: "1", From: ConfigCommandLine},
		Config{At: 1, Who: "tech-1", Key: "venue", Value: "Estoril → sala é \"VIP\""},
		Service{At: 1, Who: "tech-1", Role: "technician", Action: ActionPINFailed},
		CashOut{At: 2, Method: OutTicket, Cents: 300, Ticket: ticketA, Style: StyleSecureEnhanced, Seq: 1},
		TicketPrinted{At: 3, Ticket: ticketA, Cents: 300}, TicketEscrow{At: 4, Digits: "005555555555555555"})

	// Test mode with a reel game and a table hand, then a poker seat.
	s = NewState()
	apply(s, MoneyIn{Source: SourceBill, Cents: 2000}, CashOut{Method: OutTicket, Cents: 2000, Ticket: "1"},
		TicketPrinted{Ticket: "1", Cents: 2000})
	apply(s, TestMode{At: 10, Who: "tech", Role: "technician", Enter: true, Credits: 10000}, testReelGame(1, 100, 250),
		TestGame{At: 12, Game: 2, Kind: GameMakccarat, Paytable: "m", Digest: "d", Denom: 1, BetCents: 200,
			Hand: &TableHand{Bets: [TableSpots]int64{200}, Cards: mustCards(t, "9H", "2C", "KD", "3S")}, WinCents: 390},
		TestMode{At: 13, Who: "tech", Role: "technician", Why: "technician"})
	apply(s, MoneyIn{At: 1, Source: SourceBill, Cents: 10000})
	buy := pokerReq(PokerBuyIn, 1, 4000)
	apply(s, buy, PokerDone{At: 11, ID: buy.ID, Cents: 4000})
	out := pokerOut(buy.ID, 1)
	apply(s, out, PokerDone{At: 21, ID: out.ID, Cents: 3000})

	// Table hands (a game history with a hand), a reel game, a tilt and
	// an open door, an event whose detail encoding/json escapes, a RAM
	// clear.
	s = idleWithCredits(t)
	check(s)
	apply(s, tableStart(t, 1, [TableSpots]int64{200, 0, 0, 0, 0}, 390, 10), GameEnd{At: 2, Game: 1, WinCents: 390})
	apply(s, GameStart{At: 3, Game: 2, Paytable: "lusitania-92", Digest: "d", Denom: 1, BetCredits: 100, BetCents: 100, Stops: []int{1, 2, 3, 4, 5}})
	apply(s, GameEnd{At: 4, Game: 2}, Event{At: 5, Code: EventTilt, Tilt: "reel_jam"}, Event{At: 5, Code: EventDoorOpen, Door: DoorMain},
		Event{At: 6, Code: EventLogRepaired, Detail: "torn <record> & \"more\"\n"})
	apply(s, Event{At: 7, Code: EventTiltClear, Tilt: "reel_jam"}, Event{At: 7, Code: EventDoorClose, Door: DoorMain},
		CashOut{At: 8, Method: OutHopper, Cents: s.Get(Credits)}, RAMClear{At: 9, Who: "tech", Why: "new board"})
}

// TestRestoreFastIsEncodingJSON holds the reflection-free decoder of a
// state to encoding/json on the states of real folds, as the ledger
// encodes them (every one of which it must read itself), and on the
// snapshots a ledger writes.
func TestRestoreFastIsEncodingJSON(t *testing.T) {
	n := 0
	stateCorpus(t, func(s *State) {
		b, err := fold{s}.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if !sameState(t, b) {
			t.Fatalf("restoreFast did not read a state the ledger encoded: %s", b)
		}
		n++
	})

	// A ledger's own snapshots, with a game open in the newest.
	dir := t.TempDir()
	l, _, err := Open(dir, Options{SnapshotEvery: 7})
	if err != nil {
		t.Fatal(err)
	}
	p := &player{r: rng.NewSeeded(42), s: l.state, t: t, limit: 20000}
	p.commit = func(r Record) error {
		err := l.Commit(r)
		p.s = l.state
		return err
	}
	for range 200 {
		p.step()
	}
	if l.Meter(Credits) == 0 {
		p.commit(MoneyIn{At: p.now, Source: SourceCoin, Cents: 1})
	}
	if err := p.commit(GameStart{At: p.now, Game: l.state.LastGame + 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 1, BetCents: 1, Stops: []int{1}}); err != nil {
		t.Fatal(err)
	}
	if l.state.Open == nil {
		t.Fatal("no game open")
	}
	l.Close()
	for i := range 2 {
		data, err := os.ReadFile(filepath.Join(dir, "snapshot-"+string(rune('0'+i))))
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			State json.RawMessage `json:"state"`
		}
		if err := json.Unmarshal(data[32:], &f); err != nil {
			t.Fatal(err)
		}
		if !sameState(t, f.State) {
			t.Fatalf("restoreFast did not read snapshot %d", i)
		}
		n++
	}
	if n < 300 {
		t.Fatalf("only %d states checked", n)
	}
}

// On every state one byte away from a ledger's (cut, changed, inserted),
// restoreFast reads only what encoding/json reads alike.
func TestRestoreFastNearStates(t *testing.T) {
	s := NewState()
	mustApply(t, s, MoneyIn{At: 1, Source: SourceBill, Cents: 2000}, Config{At: 1, Who: "t", Key: "k", Value: "v"},
		GameStart{At: 2, Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{1, 22}, FreeAwarded: 1},
		FreeGame{At: 3, Game: 1, Index: 1, Stops: []int{3}, WinCents: 40, Awarded: 0}, GameEnd{At: 4, Game: 1, WinCents: 40},
		HandpayPending{At: 5, Kind: HandpayCancelled, Cents: 2020}, HandpayReset{At: 6, Who: "a", Cents: 2020},
		Event{At: 7, Code: EventTilt, Tilt: "x"})
	b, err := fold{s}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !sameState(t, b) {
		t.Fatalf("restoreFast did not read %s", b)
	}
	for i := range b {
		sameState(t, append(append([]byte{}, b[:i]...), b[i+1:]...))
		for _, c := range []byte(`0 1-"\,:{}[]nlt` + "\x00\xc3") {
			m := append([]byte{}, b...)
			m[i] = c
			sameState(t, m)
			sameState(t, append(append(append([]byte{}, b[:i]...), c), b[i:]...))
		}
	}
	for _, x := range []string{"", "null", "{}", "[]", `{"meters":null}`, string(b) + " ", " " + string(b),
		strings.Replace(string(b), `"games":[`, `"games":[null,`, 1),
		strings.Replace(string(b), `"end":{`, `"end":null,"x":{`, 1),
		strings.Replace(string(b), `"meters":{`, `"meters":{"zz":1,`, 1),
		strings.Replace(string(b), `"last_game":1`, `"last_game":1,"last_game":2`, 1),
		strings.Replace(string(b), `"last_game":1`, `"Last_Game":1`, 1),
		strings.Replace(string(b), `"bill_counts":[`, `"bill_counts":[1.5,`, 1),
		strings.Replace(string(b), `"tilts":["x"]`, `"tilts":["x\u0041"]`, 1),
	} {
		sameState(t, []byte(x))
	}
}

// FuzzRestore: restoreFast reads only what encoding/json reads alike, to
// the same state.
func FuzzRestore(f *testing.F) {
	s := NewState()
	for _, r := range []Record{MoneyIn{At: 1, Source: SourceBill, Cents: 2000},
		GameStart{At: 2, Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{1}, FreeAwarded: 1},
		FreeGame{At: 3, Game: 1, Index: 1, Stops: []int{3}, WinCents: 40}, GameEnd{At: 4, Game: 1, WinCents: 40},
		HandpayPending{At: 5, Kind: HandpayCancelled, Cents: 2020}, HandpayReset{At: 6, Who: "a", Cents: 2020},
		Event{At: 7, Code: EventDoorOpen, Door: DoorMain}, Service{At: 8, Who: "t", Role: "r", Action: ActionPINFailed}} {
		if err := s.Apply(r); err != nil {
			f.Fatal(err)
		}
		b, err := fold{s}.Encode()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameState(t, b)
	})
}

// BenchmarkRestoreState is the decoding of a state of full histories, by
// restoreFast and by encoding/json.
func BenchmarkRestoreState(b *testing.B) {
	p := &player{r: rng.NewSeeded(1), s: NewState(), t: b, limit: 20000}
	for range 3000 {
		p.step()
	}
	enc, err := fold{p.s}.Encode()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range []struct {
		name   string
		decode func([]byte) (*State, error)
	}{{"fast", decodeState}, {"json", decodeStateJSON}} {
		b.Run(d.name, func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			for b.Loop() {
				if _, err := d.decode(enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
