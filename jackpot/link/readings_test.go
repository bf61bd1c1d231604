package link

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/floor"
	"github.com/openegm/cabinet/jackpot/ledger"
)

// A round's readings are one commit; a reading the ledger refuses is left
// out, and the others are committed without it. Only the committed ones
// move their session's games meter.
func TestReadingsFlushTogetherAndDropARefusedOne(t *testing.T) {
	cfg, err := ParseConfig("linkctl.json", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	l, c := newTestController(t, cfg)
	c.readq, c.committerDone = make(chan *readingsReq, 64), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.commitReadings(ctx)
	b := &readings{c: c}
	one := &session{c: c, cab: cfg.Channels[0].Cabinets[0], batch: b}
	two := &session{c: c, cab: cfg.Channels[0].Cabinets[1], batch: b}

	// What one commit adds to the log (its record and the log's own).
	seq := l.LastSeq()
	if _, err := l.Commit(ledger.Event{At: 1, Code: ledger.EventStart, Detail: "test"}); err != nil {
		t.Fatal(err)
	}
	per := l.LastSeq() - seq
	seq = l.LastSeq()
	b.add(one, ledger.Meters{At: 1, Machine: "egm-1", CoinIn: 500, GamesPlayed: 5})
	b.add(two, ledger.Meters{At: 1, Machine: "egm-2", CoinIn: 700, GamesPlayed: 7})
	if err := b.flush(); err != nil {
		t.Fatal(err)
	}
	if got := l.LastSeq() - seq; got != per {
		t.Fatalf("two readings took %d log records, want %d: one commit", got, per)
	}
	if one.pending != 0 || two.pending != 0 || one.games != 5 || two.games != 7 || c.Stats().Readings != 2 {
		t.Fatalf("after the commit: queued %v %v, games %d %d, stats %+v", one.pending, two.pending, one.games, two.games, c.Stats())
	}

	seq = l.LastSeq()
	b.add(one, ledger.Meters{At: 2, Machine: "egm-1", CoinIn: 400, GamesPlayed: 6}) // coin-in back: refused
	b.add(two, ledger.Meters{At: 2, Machine: "egm-2", CoinIn: 900, GamesPlayed: 9})
	if err := b.flush(); err != nil {
		t.Fatal(err)
	}
	if got := l.LastSeq() - seq; got != per {
		t.Fatalf("one good reading took %d log records, want %d: one commit", got, per)
	}
	if one.pending == 0 || one.games != 5 {
		t.Fatalf("refused reading: pending %d, games %d; want it still unrecorded at 5", one.pending, one.games)
	}
	if two.pending != 0 || two.games != 9 {
		t.Fatalf("good reading: pending %d, games %d; want recorded at 9", two.pending, two.games)
	}
	st := l.State()
	m1, _ := st.Machine("egm-1")
	m2, _ := st.Machine("egm-2")
	if m1.CoinIn != 500 || m2.CoinIn != 900 {
		t.Fatalf("ledger coin-in %d and %d, want 500 (the refused reading left out) and 900", m1.CoinIn, m2.CoinIn)
	}
	if c.Stats().Readings != 3 {
		t.Fatalf("stats %+v, want 3 readings", c.Stats())
	}
	if len(b.recs) != 0 || len(b.from) != 0 || b.inflight != nil {
		t.Fatalf("%d readings left in the batch after the flush", len(b.recs))
	}
}

// On a line of cabinets polled by the controller, the readings of a round
// share log records (one synced commit serves several), and every cent
// the cabinets played reaches the ledger.
func TestLineReadingsShareCommits(t *testing.T) {
	const n = 8
	var cabs []*floor.Cabinet
	var cabinets string
	for i := range n {
		cab := floor.NewCabinet(byte(i+1), 3, "")
		for range i + 1 {
			if err := cab.Play(100); err != nil {
				t.Fatal(err)
			}
		}
		cabs = append(cabs, cab)
		if i > 0 {
			cabinets += ","
		}
		cabinets += fmt.Sprintf(`{"id": "egm-%d", "addr": %d, "levels": ["mega"], "award": "addressed"}`, i+1, i+1)
	}
	line, err := floor.NewLine(cabs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, err := line.Listen(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig("linkctl.json", []byte(fmt.Sprintf(`{"controller": "casino-1", "group": 3,
 "levels": [{"id": "mega", "sas_level": 1, "reset_cents": 100000, "rate_ppm": 10000, "second_hit": "split"}],
 "channels": [{"name": "bank-a", "tcp": %q, "cabinets": [%s]}]}`, addr, cabinets)))
	if err != nil {
		t.Fatal(err)
	}
	l, c := newTestController(t, cfg)
	seq := l.LastSeq()
	if _, err := l.Commit(ledger.Event{At: 1, Code: ledger.EventStart, Detail: "test"}); err != nil {
		t.Fatal(err)
	}
	per := int(l.LastSeq() - seq) // log records a commit takes
	seq = l.LastSeq()
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	// Every cabinet read at least twice: its baseline, then a reading
	// after more play, which contributes.
	caughtUp := func() {
		t.Helper()
		for deadline := time.Now().Add(2 * time.Minute); ; {
			caught := true
			st := l.State()
			for i, cab := range cabs {
				coin, _ := cab.Meters()
				if m, _ := st.Machine(fmt.Sprintf("egm-%d", i+1)); !m.Read || m.CoinIn != int64(coin) {
					caught = false
				}
			}
			if caught {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the ledger did not catch up with the cabinets' coin-in; stats %+v", c.Stats())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	caughtUp()
	before, _ := l.State().Level("mega")
	var played int64
	for i, cab := range cabs {
		bet := uint64(50 * (i + 1))
		if err := cab.Play(bet); err != nil {
			t.Fatal(err)
		}
		played += int64(bet)
	}
	caughtUp()
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	readings, records := c.Stats().Readings, int(l.LastSeq()-seq)
	// A commit a reading (the old way) would take per·(readings+1) log
	// records with the controller's start event.
	if readings < 2*n || records >= per*readings {
		t.Fatalf("%d readings in %d log records (%d a commit, the start event included); want at least %d readings sharing commits", readings, records, per, 2*n)
	}
	after, _ := l.State().Level("mega")
	if got, want := after.Meters.Current-before.Meters.Current, played*10; got != want { // 1% of the cents, in millicents
		t.Fatalf("the level grew by %d millicents for %d cents played, want %d", got, played, want)
	}
}

func TestNextReadingKeepsTheSchedule(t *testing.T) {
	t0 := time.Unix(1000, 0)
	sec := time.Second
	for _, c := range []struct {
		name     string
		due, now time.Time
		want     time.Time
	}{
		{"first reading", time.Time{}, t0, t0.Add(sec)},
		{"on time", t0, t0, t0.Add(sec)},
		{"a round late", t0, t0.Add(300 * time.Millisecond), t0.Add(sec)},
		{"a period late", t0, t0.Add(sec), t0.Add(2 * sec)},
		{"far behind", t0, t0.Add(5 * sec), t0.Add(6 * sec)},
		{"early, for a look", t0, t0.Add(-400 * time.Millisecond), t0},
	} {
		if got := nextReading(c.due, c.now, sec); !got.Equal(c.want) {
			t.Errorf("%s: next reading at %v, want %v", c.name, got.Sub(t0), c.want.Sub(t0))
		}
	}
}

// The committer commits what several lines handed it meanwhile in one
// batch: one fsync for the readings of every line that waited.
func TestCommitterGroupsTheLines(t *testing.T) {
	cfg, err := ParseConfig("linkctl.json", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	l, c := newTestController(t, cfg)
	c.readq, c.committerDone = make(chan *readingsReq, 64), make(chan struct{})
	seq := l.LastSeq()
	if _, err := l.Commit(ledger.Event{At: 1, Code: ledger.EventStart, Detail: "test"}); err != nil {
		t.Fatal(err)
	}
	per := l.LastSeq() - seq
	seq = l.LastSeq()

	a, b := &readings{c: c}, &readings{c: c} // two lines
	one := &session{c: c, cab: cfg.Channels[0].Cabinets[0], batch: a}
	two := &session{c: c, cab: cfg.Channels[0].Cabinets[1], batch: b}
	a.add(one, ledger.Meters{At: 1, Machine: "egm-1", CoinIn: 500, GamesPlayed: 5})
	b.add(two, ledger.Meters{At: 1, Machine: "egm-2", CoinIn: 700, GamesPlayed: 7})
	// Both handed over before the committer runs: they wait together.
	if err := a.send(); err != nil {
		t.Fatal(err)
	}
	if err := b.send(); err != nil {
		t.Fatal(err)
	}
	if one.pending == 0 || two.pending == 0 || l.LastSeq() != seq {
		t.Fatal("readings counted as durable before the committer ran")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.commitReadings(ctx)
	if err := a.flush(); err != nil {
		t.Fatal(err)
	}
	if err := b.flush(); err != nil {
		t.Fatal(err)
	}
	if got := l.LastSeq() - seq; got != per {
		t.Fatalf("two lines' readings took %d log records, want %d: one commit", got, per)
	}
	if one.pending != 0 || two.pending != 0 || one.games != 5 || two.games != 7 || c.Stats().Readings != 2 {
		t.Fatalf("pending %d %d, games %d %d, stats %+v", one.pending, two.pending, one.games, two.games, c.Stats())
	}
}
