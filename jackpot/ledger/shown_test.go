package ledger

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/book"
)

// blockingWitness stands for a commit's slow write: once armed, its next
// Write says so on entered and waits for release.
type blockingWitness struct {
	book.Witness
	mu       sync.Mutex
	armed    bool
	entered  chan struct{}
	released chan struct{}
}

func (w *blockingWitness) Write(h book.Head) error {
	w.mu.Lock()
	armed := w.armed
	w.armed = false
	w.mu.Unlock()
	if armed {
		close(w.entered)
		<-w.released
	}
	return w.Witness.Write(h)
}

// A look at the ledger does not wait for a commit in flight, and sees only
// what is durable: the commit's record once it returned, never before.
func TestViewDoesNotWaitForACommit(t *testing.T) {
	dir := t.TempDir()
	fw, err := book.OpenFileWitness(filepath.Join(t.TempDir(), "witness"))
	if err != nil {
		t.Fatal(err)
	}
	w := &blockingWitness{Witness: fw, entered: make(chan struct{}), released: make(chan struct{})}
	l, _ := mustOpen(t, dir, Options{Witness: w})
	defer l.Close()
	if _, err := l.CommitBatch(setupRecords(2, 25_00*mc)...); err != nil {
		t.Fatal(err)
	}
	mustCommit(t, l, Meters{At: 2, Machine: "M001", CoinIn: 1000, GamesPlayed: 1})

	w.mu.Lock()
	w.armed = true
	w.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		_, err := l.Commit(Meters{At: 3, Machine: "M001", CoinIn: 5000, GamesPlayed: 2})
		done <- err
	}()
	<-w.entered // the commit holds the ledger's lock, its record written

	// A look that waited for the commit would wait for the release, which
	// comes only after the look: the minute is a deadlock's bound, not a
	// speed asked for.
	var seen Machine
	looked := make(chan struct{})
	go func() {
		l.View(func(s *State) { seen, _ = s.Machine("M001") })
		close(looked)
	}()
	select {
	case <-looked:
	case <-time.After(time.Minute):
		close(w.released)
		t.Fatal("a look waited for the commit in flight")
	}
	if seen.CoinIn != 1000 {
		t.Fatalf("a look during the commit saw coin-in %d, want 1000 (the last commit that returned)", seen.CoinIn)
	}
	if m, _ := l.State().Machine("M001"); m.CoinIn != 1000 {
		t.Fatalf("State during the commit: coin-in %d, want 1000", m.CoinIn)
	}
	if _, err := l.Report(); err != nil {
		t.Fatal(err)
	}
	close(w.released)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the commit did not return")
	}
	l.View(func(s *State) { seen, _ = s.Machine("M001") })
	if seen.CoinIn != 5000 {
		t.Fatalf("after the commit returned a look saw coin-in %d, want 5000", seen.CoinIn)
	}
	// What is shown is what a restart folds from the log.
	want := stateJSON(t, l.State())
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l2, _ := mustOpen(t, dir, Options{Witness: fw})
	defer l2.Close()
	if got := stateJSON(t, l2.State()); got != want {
		t.Fatalf("reopened state differs from the one shown:\n%s\n%s", got, want)
	}
}
