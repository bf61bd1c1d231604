package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/openegm/cabinet/jackpot"
)

const mc = jackpot.MillicentsPerCent

// Level configurations of the test link.
var (
	grandCfg = jackpot.Config{ResetValue: 10_000_00 * mc, Rate: 5_000, HiddenRate: 1_000, Trigger: jackpot.TriggerPaytable,
		MinHitBet: 100, SecondHit: jackpot.SecondHitWinsReset}
	majorCfg = jackpot.Config{ResetValue: 500_00 * mc, Cap: 2_000_00 * mc, Rate: 7_333, HiddenRate: 1_111, Trigger: jackpot.TriggerPaytable,
		MinHitBet: 50, SecondHit: jackpot.SplitAmount}
	miniCfg = jackpot.Config{ResetValue: 20_00 * mc, Cap: 50_00 * mc, Rate: 9_999, HiddenRate: 777, Trigger: jackpot.TriggerMystery,
		SecondHit: jackpot.SplitAmount}
)

// setupRecords sets up the test link: levels grand, major, mini (mystery,
// first target given), shared level super, and n machines M000… each
// feeding grand, major and mini, the even ones also super.
func setupRecords(n int, miniTarget int64) []Record {
	recs := []Record{
		LevelSetup(1, "grand", grandCfg, 0, "tech"),
		LevelSetup(1, "major", majorCfg, 0, "tech"),
		LevelSetup(1, "mini", miniCfg, miniTarget, "tech"),
		SetupShared{At: 1, Level: "super", Who: "tech"},
	}
	for i := range n {
		lv := []string{"grand", "major", "mini"}
		if i%2 == 0 {
			lv = append(lv, "super")
		}
		recs = append(recs, SetupMachine{At: 1, Machine: machineID(i), SAS: 1 + i%MaxSAS, Levels: lv, Who: "tech"})
	}
	return recs
}

func machineID(i int) string { return fmt.Sprintf("M%03d", i) }

func mustApply(t testing.TB, s *State, r Record) Result {
	t.Helper()
	res, err := s.Apply(r)
	if err != nil {
		t.Fatalf("apply %#v: %v", r, err)
	}
	return res
}

func newState(t testing.TB, n int) *State {
	t.Helper()
	s := NewState()
	for _, r := range setupRecords(n, 30_00*mc) {
		mustApply(t, s, r)
	}
	return s
}

func stateJSON(t testing.TB, s *State) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustCommit(t testing.TB, l *Ledger, r Record) Result {
	t.Helper()
	res, err := l.Commit(r)
	if err != nil {
		t.Fatalf("commit %#v: %v", r, err)
	}
	return res
}

func mustOpen(t testing.TB, dir string, opts Options) (*Ledger, OpenInfo) {
	t.Helper()
	l, info, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	return l, info
}

func mustRefuse(t testing.TB, err error, want error) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted; want a refusal (%v)", want)
	}
	if want != nil && !errors.Is(err, want) {
		t.Fatalf("refused with %v; want %v", err, want)
	}
}

func level(t testing.TB, s *State, id string) jackpot.LevelView {
	t.Helper()
	lv, ok := s.Level(id)
	if !ok {
		t.Fatalf("no level %q", id)
	}
	return lv
}

// copyTree copies a ledger directory (the live one may be open: this is
// what a power cut leaves).
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, fi.Mode())
	})
	if err != nil {
		t.Fatal(err)
	}
}
