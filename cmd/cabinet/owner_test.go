package main

import (
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/meters/inspect"
	"github.com/openegm/cabinet/rng"
)

// The hooks that run after a commit (the SAS port tells the host a
// transfer is done from them) find the view already showing what was
// committed: a host that reads the credits right after learning of the
// transfer must not get the credits from before it. A fresh-clone run of
// the AFT crash loop met exactly that: a transfer out sized on the stale
// credits, refused for good (83) after a restart.
func TestViewPublishedBeforeTheCommitHooks(t *testing.T) {
	o := testOwner(t, machine.Config{MachineID: "O", Denom: 1, HandpayLimit: 1 << 40}, rng.NewSeeded(1))
	o.step(machine.PowerUp{At: time.Now()})
	var seen []int64
	o.afterCommit = append(o.afterCommit, func(recs []meters.Record, l *meters.Ledger) {
		seen = append(seen, o.view.Load().CreditsCents, l.Meter(meters.Credits))
	})
	o.step(machine.BillEscrowed{At: time.Now(), Cents: 2000})
	var stacked bool
	seen = seen[:0]
	o.step(machine.BillStacked{At: time.Now(), Cents: 2000, Order: 1})
	if len(seen) == 0 {
		t.Fatal("no commit hook ran for the stacked note")
	}
	for i := 0; i < len(seen); i += 2 {
		if seen[i] != seen[i+1] {
			t.Fatalf("a commit hook saw %d cents on screen with %d in the ledger", seen[i], seen[i+1])
		}
		stacked = seen[i+1] == 2000
	}
	if !stacked {
		t.Fatalf("the note was not credited: %v", seen)
	}
}

// testOwner is an owner of a machine on the default paytable with a fresh
// ledger (closed when the test ends), as cmd/cabinet's run builds it.
func testOwner(t *testing.T, cfg machine.Config, src rng.Source) *owner {
	t.Helper()
	l, _, err := meters.Open(t.TempDir(), meters.Options{Keys: book.FileKeys{Dir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	return newOwner(machine.New(cfg, pt, l.State(), src), l, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// The inspector menu's export names a report check that fails: the menu's
// verdict, not only the exported report, says the records and the meters
// disagree. (An honest fold cannot disagree with itself; the state handed
// to the export is changed in memory.)
func TestExportedReportCheckFailureReachesTheVerdict(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ledger")
	l, _, err := meters.Open(dir, meters.Options{Keys: book.FileKeys{Dir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Commit(meters.MoneyIn{At: 1, Source: meters.SourceBill, Cents: 2000}); err != nil {
		t.Fatal(err)
	}
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	o := newOwner(machine.New(machine.Config{MachineID: "EGM-1", Denom: 1}, pt, l.State(), nil), l, slog.New(slog.NewTextHandler(io.Discard, nil)))
	o.data = t.TempDir()
	paths, failed, err := o.exportReport(dir, l.State(), inspect.Verdict{OK: true}, time.Now())
	if err != nil || len(paths) != 2 || len(failed) != 0 {
		t.Fatalf("honest ledger: %v, failed %v, %v", paths, failed, err)
	}
	st := l.State().Clone()
	st.Meters[meters.BillsIn] += 500
	if _, failed, err = o.exportReport(dir, st, inspect.Verdict{OK: true}, time.Now()); err != nil || len(failed) == 0 ||
		!strings.Contains(strings.Join(failed, "\n"), "money_in bills: 2000, meter") {
		t.Fatalf("a meter 500 above its records: failed %q, %v", failed, err)
	}
}
