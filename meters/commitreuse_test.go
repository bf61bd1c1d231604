package meters

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/openegm/cabinet/book/walog"
	"github.com/openegm/cabinet/cards"
)

// The ledger folds each commit into the state it held before the last one
// (its spare) rather than into a new state. That is only right while the
// live state shares nothing the spare's reuse writes: this scribbles over
// the spare after every commit and checks that the live state is still the
// one an independent fold (State.Apply, a fresh copy per record) gives,
// and that every record was logged as Encode encodes it.
func TestLedgerCommitSharesNothingWithTheStateItReuses(t *testing.T) {
	dir := t.TempDir()
	l, _, err := Open(dir, Options{SnapshotEvery: 50})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ref := NewState() // a new ledger's state: its first commit is the log's mark
	var committed []Record
	p := ledgerPlayer(t, l, 11)
	p.commit = func(r Record) error {
		if err := l.Commit(r); err != nil {
			return err
		}
		p.s = l.state
		committed = append(committed, r)
		if err := ref.Apply(r); err != nil {
			t.Fatalf("record %d (%v): the ledger took it, Apply refused it: %v", len(committed), r.Type(), err)
		}
		if sp := l.spare; sp != nil {
			if sp == l.state {
				t.Fatal("the spare is the live state")
			}
			for i := range sp.BillCounts {
				sp.BillCounts[i] = -1
			}
			for k := range sp.PerGame {
				sp.PerGame[k] = GameMeters{CoinIn: -1, Played: -1}
			}
			for i := range sp.PendingHits {
				sp.PendingHits[i].Cents = -1
			}
			if sp.Open != nil {
				sp.Open.End = &GameEnd{Game: 1 << 40}
			}
			sp.Meters[Credits] = -1
		}
		if !reflect.DeepEqual(l.state, ref) {
			t.Fatalf("after record %d (%v) the ledger's state is not the fold's:\nledger %s\nfold   %s",
				len(committed), r.Type(), stateJSON(t, l.state), stateJSON(t, ref))
		}
		return nil
	}
	p.openLocal()
	for range 1500 {
		p.step()
	}
	if l.state.PerGame[GameReels].Played == 0 || l.state.PerGame[GameMakccarat].Played == 0 || len(committed) < 2000 {
		t.Fatalf("the play did not reach what it checks: %d records, per game %v", len(committed), l.state.PerGame)
	}
	i := 0
	err = l.book.Since(0, func(r walog.Record) error {
		if i >= len(committed) {
			t.Fatalf("record %d is in the log and was never committed", r.Seq)
		}
		want, err := Encode(committed[i])
		if err != nil {
			t.Fatal(err)
		}
		if r.Type != uint16(committed[i].Type()) || !bytes.Equal(r.Data, want) {
			t.Fatalf("record %d logged as %v %s, Encode gives %v %s", r.Seq, Type(r.Type), r.Data, committed[i].Type(), want)
		}
		i++
		return nil
	})
	if err != nil || i != len(committed) {
		t.Fatalf("the log holds %d of %d records: %v", i, len(committed), err)
	}
}

// Records committed together are folded one after the other into one copy
// of the state: the result is the state Apply gives record by record, and a
// refused record leaves the state as it was before the commit.
func TestLedgerCommitNFoldsLikeApplyOneByOne(t *testing.T) {
	l, _, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ref := NewState()
	commit := func(recs ...Record) {
		t.Helper()
		if n, err := l.CommitN(recs...); err != nil || n != len(recs) {
			t.Fatalf("%d of %d committed: %v", n, len(recs), err)
		}
		for _, r := range recs {
			if err := ref.Apply(r); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(l.state, ref) {
			t.Fatalf("ledger %s\nfold   %s", stateJSON(t, l.state), stateJSON(t, ref))
		}
	}
	start := func(g uint64, kind string) GameStart {
		gs := GameStart{At: 1, Game: g, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{1, 2, 3}, WinCents: 40}
		if kind == GameMakccarat {
			gs = GameStart{At: 1, Game: g, Kind: kind, Paytable: "m", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, WinCents: 40,
				Hand: &TableHand{Bets: [TableSpots]int64{20}, Cards: []cards.Card{{Rank: cards.Ace}, {Rank: cards.King, Suit: cards.Spades}, {Rank: 9}, {Rank: 2}}}}
		}
		return gs
	}
	commit(MoneyIn{At: 1, Source: SourceBill, Cents: 500}, MoneyIn{At: 1, Source: SourceBill, Cents: 1000})
	commit(start(1, GameReels), GameEnd{At: 1, Game: 1, WinCents: 40}, start(2, GameMakccarat), GameEnd{At: 1, Game: 2, WinCents: 40})
	commit(start(3, GameReels))
	commit(GameEnd{At: 1, Game: 3, WinCents: 40}, start(4, GameReels), GameEnd{At: 1, Game: 4, WinCents: 40})

	before := stateJSON(t, l.state)
	if _, err := l.CommitN(start(5, GameReels), GameEnd{At: 1, Game: 5, WinCents: 41}); err == nil {
		t.Fatal("a game end that is not its spins' win was committed")
	}
	if got := stateJSON(t, l.state); got != before {
		t.Fatalf("a refused commit changed the state:\nbefore %s\nafter  %s", before, got)
	}
}

// A trimmed history keeps its last n entries in a copy of its own, with
// room for the appends before the next trim (no copy between two trims).
func TestKeepLastTrimsIntoRoomForTheNextAppends(t *testing.T) {
	const n = 4
	var h []int
	for i := range 2 * n {
		h = keepLast(append(h, i), n)
	}
	if !slices.Equal(h, []int{4, 5, 6, 7}) {
		t.Fatalf("trimmed to %v", h)
	}
	before := slices.Clone(h)
	trimmed := h
	for i := range n - 1 {
		h = keepLast(append(h, 8+i), n)
		if &h[0] != &trimmed[0] {
			t.Fatalf("append %d after the trim copied the history", i+1)
		}
	}
	if !slices.Equal(trimmed, before) {
		t.Fatalf("appends changed the trimmed history's entries: %v", trimmed)
	}
	if h = keepLast(append(h, 11), n); !slices.Equal(h, []int{8, 9, 10, 11}) || &h[0] == &trimmed[0] {
		t.Fatalf("the second trim gave %v (in place: %v)", h, &h[0] == &trimmed[0])
	}
}

// A state the ledger handed out (State) is the caller's for good: the
// commits after it, which recycle the ledger's states, change nothing of
// it. The per-game meters were shared with the live state, on the
// understanding that a commit copies them before a change; the recycled
// state clears and refills its map in place.
func TestStateHandedOutStaysAsItWas(t *testing.T) {
	l, _, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Commit(MoneyIn{Source: SourceBill, Cents: 50000}); err != nil {
		t.Fatal(err)
	}
	game := func(g uint64) {
		t.Helper()
		start := GameStart{At: int64(g), Game: g, Paytable: "lusitania-92", Digest: "0123456789abcdef", Denom: 1,
			BetCredits: 20, BetCents: 20, Stops: []int{12, 3, 44, 7, 19}}
		if err := l.Commit(start); err != nil {
			t.Fatal(err)
		}
		if err := l.Commit(GameEnd{At: int64(g), Game: g}); err != nil {
			t.Fatal(err)
		}
	}
	game(1)
	held := l.State()
	want := maps.Clone(held.PerGame)
	if len(want) == 0 {
		t.Fatal("no per-game meters to hold")
	}
	for g := uint64(2); g <= 6; g++ {
		game(g)
	}
	if !maps.Equal(held.PerGame, want) {
		t.Fatalf("the state handed out changed: per-game meters %v, were %v", held.PerGame, want)
	}
}
