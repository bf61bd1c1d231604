package meters

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/openegm/cabinet/book"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/openegm/cabinet/book/walog"
)

// The guards of the fold, each tested on both sides of its edge: a guard
// removed, or moved by one cent, fails one of these tests.

// equationState is a state whose every term of the credit equation is
// non-zero and different, so a term dropped, counted twice or counted with
// the wrong sign changes the result.
func equationState() *State {
	s := NewState()
	m := &s.Meters
	m[BillsIn], m[CoinsIn], m[TicketIn], m[ElectronicIn] = 1_000_00, 3_00, 50_00, 7_00
	m[CoinOut], m[MachinePaidPaytable], m[MachinePaidProgressive], m[TotalWon] = 90_00, 80_00, 10_00, 90_00
	m[CoinIn] = 110_00
	s.PerGame = map[string]GameMeters{GameReels: {CoinIn: 60_00}, GameMakccarat: {CoinIn: 50_00}}
	m[TicketOut], m[HopperOut], m[ElectronicOut], m[HandpaidCancelled], m[TotalHandPaid] = 200_00, 11_00, 13_00, 300_00, 300_00
	s.PendingTicket = &CashOut{Method: OutTicket, Cents: 17_00, Ticket: "1"}
	in := int64(1_000_00 + 3_00 + 50_00 + 7_00)
	out := int64(200_00 + 11_00 + 13_00 + 300_00 + 17_00)
	m[Credits] = in + 90_00 - 110_00 - out
	return s
}

// Check holds on a state that keeps the credit equation and fails, naming
// the equation, when any one of its terms is one cent off: the invariant
// DESIGN rule 3 rests on.
func TestCheckCatchesEveryTermOfTheCreditEquation(t *testing.T) {
	s := equationState()
	if err := s.Check(); err != nil {
		t.Fatalf("a state that keeps the equation: %v", err)
	}
	for _, c := range []struct {
		meter Meter
		sign  int64 // how the meter enters the equation
	}{
		{Credits, -1}, {BillsIn, 1}, {CoinsIn, 1}, {TicketIn, 1}, {ElectronicIn, 1}, {CoinIn, -1},
		{TicketOut, -1}, {HopperOut, -1}, {ElectronicOut, -1}, {HandpaidCancelled, -1},
	} {
		name := Defs[c.meter].Name
		s := equationState()
		s.Meters[c.meter]++
		err := s.Check()
		if err == nil || !strings.Contains(err.Error(), "credit equation broken") {
			t.Errorf("%s one cent up: %v", name, err)
		}
		// The same cent balanced on the credit meter keeps the equation.
		if c.meter == CoinIn {
			g := s.PerGame[GameMakccarat]
			g.CoinIn++
			s.PerGame[GameMakccarat] = g
		}
		if c.meter == HandpaidCancelled {
			s.Meters[TotalHandPaid]++ // its other sum (aftbonus.go)
		}
		if c.meter != Credits {
			s.Meters[Credits] += c.sign
			if err := s.Check(); err != nil {
				t.Errorf("%s and credits moved together: %v", name, err)
			}
		}
	}
	// Wins to credits: coin out with its machine-paid split.
	s = equationState()
	s.Meters[CoinOut]++
	s.Meters[MachinePaidPaytable]++
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "credit equation broken") {
		t.Errorf("a win not on the credit meter: %v", err)
	}
	s.Meters[Credits]++
	s.Meters[TotalWon]++
	if err := s.Check(); err != nil {
		t.Errorf("a win on the credit meter: %v", err)
	}
	// The ticket being printed is money out.
	s = equationState()
	s.PendingTicket.Cents++
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "credit equation broken") {
		t.Errorf("a ticket owed one cent more: %v", err)
	}
	s.PendingTicket = nil
	s.Meters[Credits] += 17_00
	if err := s.Check(); err != nil {
		t.Errorf("no ticket owed, its amount on the credit meter: %v", err)
	}
}

// The games' meters add up to the machine's: a bet, a game or its result
// counted for the machine and not for a game (or for two) breaks Check.
func TestCheckPerGameMetersAddUp(t *testing.T) {
	if err := equationState().Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		meter Meter
		game  func(*GameMeters)
	}{
		{"coin in", CoinIn, func(g *GameMeters) { g.CoinIn++ }},
		{"games played", GamesPlayed, func(g *GameMeters) { g.Played++ }},
		{"games won", GamesWon, func(g *GameMeters) { g.Won++ }},
		{"games lost", GamesLost, func(g *GameMeters) { g.Lost++ }},
	} {
		s := equationState()
		g := s.PerGame[GameReels]
		c.game(&g)
		s.PerGame[GameReels] = g
		if err := s.Check(); err == nil || !strings.Contains(err.Error(), "do not add up") {
			t.Errorf("%s of a game one up: %v", c.name, err)
		}
		s.Meters[c.meter]++
		if c.meter == CoinIn {
			s.Meters[Credits]-- // a bet is taken from the credits
		}
		if err := s.Check(); err != nil {
			t.Errorf("%s of the machine and of a game one up: %v", c.name, err)
		}
	}
}

// The other invariants of Check: no negative meter, and coin out is the
// sum of what the machine paid from the paytable and the progressives.
func TestCheckNegativeMeterAndCoinOutSplit(t *testing.T) {
	s := equationState()
	s.Meters[GamesPlayed] = -1
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), `"games played" is negative`) {
		t.Errorf("negative games played: %v", err)
	}
	s = equationState()
	s.Meters[MachinePaidProgressive]--
	s.Meters[MachinePaidPaytable]++
	if err := s.Check(); err != nil {
		t.Errorf("coin out split differently, same sum: %v", err)
	}
	s.Meters[MachinePaidProgressive]++
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "coin out 9000 ≠ machine-paid paytable 8001 + progressive 1000") {
		t.Errorf("coin out below its split: %v", err)
	}
}

// snapshot is what the book's snapshot file holds after its checksum.
type snapshot struct {
	Seq     uint64 `json:"seq"`
	Hash    string `json:"hash"`
	SealSeq uint64 `json:"seal_seq"`
	State   *State `json:"state"`
}

// forgeSnapshots rewrites every snapshot of dir with change applied to its
// state and a checksum that matches again, as someone editing the disk
// would.
func forgeSnapshots(t *testing.T, dir string, change func(*State)) {
	t.Helper()
	forged := 0
	for i := range 2 {
		f := filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, i))
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s snapshot
		if err := json.Unmarshal(data[32:], &s); err != nil {
			t.Fatal(err)
		}
		change(s.State)
		body, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		sum := blake2b.Sum256(body)
		if err := os.WriteFile(f, append(sum[:], body...), 0o600); err != nil {
			t.Fatal(err)
		}
		forged++
	}
	if forged == 0 {
		t.Fatal("no snapshot to forge")
	}
}

// Start-up never takes a snapshot's credits on trust, even when no record
// follows it to be folded (the snapshot written at shutdown): a snapshot
// whose credits were raised (checksum recomputed) is not the sealed state,
// so it is named and not used, and the meters come from the log.
func TestStartUpChecksTheSnapshotsCreditEquation(t *testing.T) {
	dir, l := withBills(t, 1)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// An untouched snapshot opens.
	l, info, err := Open(dir, Options{})
	if err != nil || info.SnapshotSeq == 0 || l.Meter(Credits) != 500 {
		t.Fatalf("reopen: %v, %+v", err, info)
	}
	l.Close()

	forgeSnapshots(t, dir, func(s *State) { s.Meters[Credits] += 1_000_00 })
	l, info, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Meter(Credits) != 500 || info.SnapshotSeq != 0 || len(info.Tampered) == 0 {
		t.Fatalf("a forged snapshot with 1000 euros more credit: credits %d, %+v", l.Meter(Credits), info)
	}
}

// The fold refuses a bet, a cash-out or a cancelled-credit handpay of one
// cent more than the credit meter holds, and accepts exactly all of it.
func TestFoldSpendsAtMostTheCredit(t *testing.T) {
	const credit = 500
	start := func(bet int64) Record {
		return GameStart{Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: bet, BetCents: bet, Stops: []int{1}}
	}
	for _, c := range []struct {
		name string
		rec  func(cents int64) Record
		want string
	}{
		{"bet", start, "game 1: bet 501 cents with 500 cents of credit"},
		{"cash out", func(c int64) Record { return CashOut{Method: OutTicket, Cents: c, Ticket: "1"} }, "cash out of 501 cents with 500"},
		{"cancelled credits", func(c int64) Record { return HandpayPending{Kind: HandpayCancelled, Cents: c} }, "cancelled-credit handpay of 501 cents with 500"},
	} {
		s := NewState()
		if err := s.Apply(MoneyIn{Source: SourceBill, Cents: credit}); err != nil {
			t.Fatal(err)
		}
		before, _ := json.Marshal(s)
		if err := s.Apply(c.rec(credit + 1)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s of one cent more than the credit: %v", c.name, err)
		}
		if after, _ := json.Marshal(s); string(after) != string(before) {
			t.Errorf("%s: a refused record changed the state", c.name)
		}
		if err := s.Apply(c.rec(credit)); err != nil {
			t.Errorf("%s of all the credit: %v", c.name, err)
		}
	}
	s := NewState()
	s.Apply(MoneyIn{Source: SourceBill, Cents: credit})
	if err := s.Apply(start(credit)); err != nil {
		t.Fatal(err)
	}
	if s.Get(Credits) != 0 || s.Get(CoinIn) != credit || s.Get(GamesPlayed) != 1 {
		t.Fatalf("after a bet of all the credit: credits %d, coin in %d, games %d", s.Get(Credits), s.Get(CoinIn), s.Get(GamesPlayed))
	}
}

// Local levels are listed in level order, whatever order they were opened
// in.
func TestLocalLevelsInLevelOrder(t *testing.T) {
	s := NewState()
	for _, lv := range []int{9, 2, 5} {
		if err := s.Apply(JackpotLevel{At: 1, Who: "op", Level: lv, ResetCents: int64(lv) * 100, RatePPM: 10_000}); err != nil {
			t.Fatal(err)
		}
	}
	var got []int
	for _, l := range s.LocalLevels() {
		got = append(got, l.Level)
		if l.Reset != int64(l.Level)*100 {
			t.Errorf("level %d shows reset %d", l.Level, l.Reset)
		}
	}
	if fmt.Sprint(got) != "[2 5 9]" {
		t.Fatalf("levels %v, want [2 5 9]", got)
	}
}

func TestFaultNamesItsRecord(t *testing.T) {
	cause := errors.New("cause")
	if got := (&Fault{Err: cause}).Error(); got != "meter fault: cause" {
		t.Errorf("fault tied to no record: %q", got)
	}
	if got := (&Fault{Seq: 1, Err: cause}).Error(); got != "meter fault at record 1: cause" {
		t.Errorf("fault at record 1: %q", got)
	}
}

// bills commits n €5 notes.
func bills(t *testing.T, l *Ledger, n int) {
	t.Helper()
	for range n {
		if err := l.Commit(MoneyIn{Source: SourceBill, Cents: 500}); err != nil {
			t.Fatal(err)
		}
	}
}

// withBills opens a new ledger and commits n €5 notes.
func withBills(t *testing.T, n int) (string, *Ledger) {
	t.Helper()
	dir := t.TempDir()
	l, _, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bills(t, l, n)
	return dir, l
}

func snapshotSeqs(t *testing.T, dir string) []uint64 {
	t.Helper()
	var seqs []uint64
	for i := range 2 {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, i)))
		if err != nil {
			continue
		}
		var s snapshot
		if err := json.Unmarshal(data[32:], &s); err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, s.Seq)
	}
	return seqs
}

// A snapshot is written after every SnapshotEvery records, not one earlier
// or later, and at shutdown; start-up begins from the newest one.
func TestSnapshotsEveryNRecordsAndTheNewestServes(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SnapshotEvery: 10, CheckpointEvery: 1 << 30}
	l, _, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	bills(t, l, 9)
	if seqs := snapshotSeqs(t, dir); len(seqs) != 0 {
		t.Fatalf("snapshots %v after 9 records", seqs)
	}
	bills(t, l, 1)
	tenth := l.LastSeq()
	if seqs := snapshotSeqs(t, dir); fmt.Sprint(seqs) != fmt.Sprintf("[%d]", tenth) {
		t.Fatalf("snapshots %v after 10 records, want [%d]", seqs, tenth)
	}
	bills(t, l, 10)
	twentieth := l.LastSeq()
	bills(t, l, 2)
	if seqs := snapshotSeqs(t, dir); fmt.Sprint(seqs) != fmt.Sprintf("[%d %d]", twentieth, tenth) {
		t.Fatalf("snapshots %v after 22 records, want [%d %d]", seqs, twentieth, tenth)
	}
	last := l.LastSeq()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if seqs := snapshotSeqs(t, dir); fmt.Sprint(seqs) != fmt.Sprintf("[%d %d]", twentieth, last) {
		t.Fatalf("snapshots %v after shutdown at record %d", seqs, last)
	}
	l, info, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if info.SnapshotSeq != last || l.Meter(Credits) != 22*500 {
		t.Fatalf("start-up from %+v with credits %d, want the snapshot of record %d", info, l.Meter(Credits), last)
	}
}

// A faulted ledger writes no snapshot at shutdown.
func TestFaultedLedgerWritesNoSnapshot(t *testing.T) {
	dir, l := withBills(t, 2)
	seq := l.LastSeq()
	err := l.Commit(CashOut{Method: OutTicket, Cents: 1001, Ticket: "1"})
	var f *Fault
	if !errors.As(err, &f) || f.Seq != seq+1 {
		t.Fatalf("a refused record after record %d: %v (%+v)", seq, err, f)
	}
	l.Close()
	if seqs := snapshotSeqs(t, dir); len(seqs) != 0 {
		t.Fatalf("a faulted ledger wrote snapshots %v", seqs)
	}
}

// A record in the log that the fold refuses (written past the ledger, as a
// damaged or edited log would hold it) is a meter fault at start-up, at
// that record; the records before it are replayed and counted.
func TestStartUpRefusesAnUnlawfulLoggedRecord(t *testing.T) {
	dir, l := withBills(t, 3)
	l.Close()
	// Reopen the same log under the ledger and append past its fold.
	priv, err := testKeys.Signer(keyName, false)
	if err != nil {
		t.Fatal(err)
	}
	log, _, err := walog.Open(filepath.Join(dir, book.LogDir), walog.Options{Signer: priv, Marks: true})
	if err != nil {
		t.Fatal(err)
	}
	data, err := Encode(CashOut{Method: OutTicket, Cents: 2000, Ticket: "1"})
	if err != nil {
		t.Fatal(err)
	}
	bad, err := log.Append(uint16(TypeCashOut), data)
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	_, _, err = Open(dir, Options{})
	var f *Fault
	if !errors.As(err, &f) || f.Seq != bad.Seq || !strings.Contains(err.Error(), "cash out of 2000 cents with 1500") {
		t.Fatalf("start-up over a logged overdraft at record %d: %v", bad.Seq, err)
	}

	// Without it, and without the snapshots, every record is replayed: the
	// new log's mark, the three notes with their marks, the seal and its
	// mark written when it closed.
	dir, l = withBills(t, 3)
	l.Close()
	for i := range 2 {
		os.Remove(filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, i)))
	}
	l, info, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if info.Replayed != 9 || info.LastSeq != 9 || info.SnapshotSeq != 0 || l.Meter(Credits) != 1500 {
		t.Fatalf("start-up %+v, credits %d", info, l.Meter(Credits))
	}
}

// Amounts that must be positive refuse 0; a contribution of 0 millicents
// (a small bet at a small rate) is lawful.
func TestZeroAmounts(t *testing.T) {
	if err := NewState().Apply(MoneyIn{Source: SourceCoin, Cents: 0}); err == nil || !strings.Contains(err.Error(), "cents 0 must be positive") {
		t.Errorf("a coin of 0 cents: %v", err)
	}
	if err := NewState().Apply(MoneyIn{Source: SourceCoin, Cents: 1}); err != nil {
		t.Errorf("a coin of 1 cent: %v", err)
	}
	s := NewState()
	for _, r := range []Record{
		JackpotLevel{At: 1, Who: "op", Level: 9, Mystery: true, ResetCents: 10_00, CapCents: 20_00, RatePPM: 1, Target: 15_00_000},
		MoneyIn{Source: SourceCoin, Cents: 1},
	} {
		if err := s.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	amounts, mystery, err := s.JackpotContribution([]int{9}, 1, 1, 2)
	if err != nil || len(amounts) != 1 || amounts[0].Millicents != 0 {
		t.Fatalf("contribution of a 1-cent bet at 1 ppm: %+v, %v", amounts, err)
	}
	gs := GameStart{At: 2, Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 1, BetCents: 1, Stops: []int{1},
		Contributions: amounts, Mystery: mystery}
	if err := s.Apply(gs); err != nil {
		t.Fatalf("a game start contributing 0 millicents: %v", err)
	}
}

// Each record type refuses what it must on its own, before the fold looks
// at the state, and says what.
func TestRecordValidationEdges(t *testing.T) {
	gs := func(progressives ...int) GameStart {
		return GameStart{Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 1, BetCents: 1, Stops: []int{1}, Progressives: progressives}
	}
	for _, c := range []struct {
		name string
		rec  Record
		want string // "" when lawful
	}{
		{"handpay of 0", HandpayPending{Kind: HandpayWin, Cents: 0, Game: 1}, "cents 0 must be positive"},
		{"hopper cash-out of 0", CashOut{Method: OutHopper, Cents: 0}, "cents 0 must be positive"},
		{"ticket without a number", CashOut{Method: OutTicket, Cents: 5}, "ticket cash-out without a validation number"},
		{"hopper cash-out", CashOut{Method: OutHopper, Cents: 5}, ""},
		{"award of 0", ProgressiveAward{Game: 1, Level: 1, Cents: 0}, "cents 0 must be positive"},
		{"level 32", JackpotLevel{Who: "op", Level: MaxJackpotLevel}, ""},
		{"level 33", JackpotLevel{Who: "op", Level: MaxJackpotLevel + 1}, "level 33 outside 1-32"},
		{"level 0", JackpotLevel{Who: "op", Level: 0}, "level 0 outside 1-32"},
		{"levels 1, 2", gs(1, 2), ""},
		{"level 1 twice", gs(1, 1), "not in ascending order without repeats"},
		{"levels 2, 1", gs(2, 1), "not in ascending order without repeats"},
	} {
		err := c.rec.validate()
		if c.want == "" && err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// A game is won when it wins credits or a jackpot level; a game that wins
// nothing is lost, also while another game's jackpot hit is pending.
func TestGamesWonAndLost(t *testing.T) {
	s := NewState()
	if err := s.Apply(MoneyIn{Source: SourceBill, Cents: 500}); err != nil {
		t.Fatal(err)
	}
	for _, g := range []struct {
		game         uint64
		win          int64
		progressives []int
		won          bool
	}{
		{1, 0, nil, false},
		{2, 5, nil, true},
		{3, 0, []int{1}, true}, // a linked level hit: won, the award comes later
		{4, 0, nil, false},     // with game 3's hit still pending
	} {
		won, lost := s.Get(GamesWon), s.Get(GamesLost)
		for _, r := range []Record{
			GameStart{Game: g.game, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 1, BetCents: 1, Stops: []int{1}, WinCents: g.win, Progressives: g.progressives},
			GameEnd{Game: g.game, WinCents: g.win},
		} {
			if err := s.Apply(r); err != nil {
				t.Fatal(err)
			}
		}
		want := int64(0)
		if g.won {
			want = 1
		}
		if got := s.Get(GamesWon) - won; got != want || s.Get(GamesLost)-lost != 1-want {
			t.Errorf("game %d (win %d, levels %v): won +%d, lost +%d", g.game, g.win, g.progressives, got, s.Get(GamesLost)-lost)
		}
	}
	if len(s.PendingHits) != 1 {
		t.Fatalf("pending hits %v", s.PendingHits)
	}
}

// Opening the cashbox or the drop door empties the stacker meters; other
// doors do not. Closing the main door, and only it, restarts the games
// since door closure.
func TestDoorsAndTheirMeters(t *testing.T) {
	s := NewState()
	apply := func(r Record) {
		t.Helper()
		if err := s.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	stack := func() {
		apply(MoneyIn{Source: SourceBill, Cents: 500})
		apply(GameStart{Game: s.LastGame + 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 1, BetCents: 1, Stops: []int{1}})
		apply(GameEnd{Game: s.LastGame})
	}
	for _, c := range []struct {
		door      string
		emptied   bool
		gamesZero bool // games since door closure restart when it closes
	}{
		{DoorMain, false, true}, {DoorLogic, false, false}, {DoorBelly, false, false},
		{DoorCashbox, true, false}, {DoorDrop, true, false},
	} {
		stack()
		bills, games := s.Get(StackerBills), s.Get(GamesSinceDoorClose)
		apply(Event{Code: EventDoorOpen, Door: c.door})
		if got := s.Get(StackerBills); (got == 0) != c.emptied || (!c.emptied && got != bills) {
			t.Errorf("%s door opened: stacker bills %d (were %d)", c.door, got, bills)
		}
		apply(Event{Code: EventDoorClose, Door: c.door})
		if got := s.Get(GamesSinceDoorClose); (got == 0) != c.gamesZero || (!c.gamesZero && got != games) {
			t.Errorf("%s door closed: games since door closure %d (were %d)", c.door, got, games)
		}
	}
}
