package floor

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/jackpot/link"
)

// TestValuesGoOutWhileARoundIsSlow: on a line where two of the configured
// addresses never answer (each step there waits out the host's three
// 60 ms timeouts, 180 ms or more), the values go out after each of those
// steps, not once a round: a slow or silent cabinet, or a busy machine,
// must not hold the values back from the rest of the line for a whole
// round. The controller's own counters tell it apart from a round-based
// broadcast without any clock: with one broadcast a round there would be
// about one for every two failed polls; here there is about one for each.
func TestValuesGoOutWhileARoundIsSlow(t *testing.T) {
	cabs := []*Cabinet{NewCabinet(1, group, "S1"), NewCabinet(2, group, "S2")}
	line, err := NewLine(cabs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	addr, err := line.Listen(ctx, &wg)
	if err != nil {
		t.Fatal(err)
	}

	levels := []string{"major"}
	cfg := linkConfig{Controller: "slow-line", Group: group, BroadcastMS: 50,
		Levels: []link.Level{{ID: "major", SAS: levelMajor, ResetCents: 50_000, RatePPM: 10_000, SecondHit: "wins-reset"}},
		Channels: []link.Channel{{Name: "line-01", TCP: addr, Cabinets: []link.Cabinet{
			{ID: "egm-silent-3", Addr: 3, Levels: levels, Award: link.AwardAddressed},
			{ID: "egm-0001", Addr: 1, Levels: levels, Award: link.AwardAddressed, Serial: "S1"},
			{ID: "egm-silent-4", Addr: 4, Levels: levels, Award: link.AwardAddressed},
			{ID: "egm-0002", Addr: 2, Levels: levels, Award: link.AwardAddressed, Serial: "S2"},
		}}}}
	text, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	parsed, err := link.ParseConfig(filepath.Join(dir, "linkctl.json"), text)
	if err != nil {
		t.Fatal(err)
	}
	l, _, err := ledger.Open(filepath.Join(dir, "ledger"), ledger.Options{Keys: book.FileKeys{Dir: filepath.Join(dir, "board")}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctl, err := link.New(parsed, l, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	wg.Go(func() {
		if err := ctl.Run(ctx); err != nil && ctx.Err() == nil {
			t.Errorf("controller: %v", err)
		}
	})

	const failed = 16 // eight rounds
	for deadline := time.Now().Add(2 * time.Minute); ctl.Stats().PollErrors < failed; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the silent cabinets failed %d polls in 2 minutes: %+v", ctl.Stats().PollErrors, ctl.Stats())
		}
	}
	st := ctl.Stats()
	// Every failed step but the first round's two is followed by a
	// broadcast (180 ms and more after the one before it, due after 50);
	// once a round would be half of them, and one more.
	if want := st.PollErrors - 2; st.Broadcasts < want {
		t.Fatalf("%d broadcasts for %d failed polls of the silent cabinets, want %d or more (one after each): %+v", st.Broadcasts, st.PollErrors, want, st)
	}
	for _, c := range cabs {
		if p := c.Progress(); p.Broadcasts < st.Broadcasts-2 || p.Values[levelMajor] != 50_000 {
			t.Fatalf("cabinet %d saw %d broadcasts of %d sent, values %v", c.Addr(), p.Broadcasts, st.Broadcasts, p.Values)
		}
	}
}
