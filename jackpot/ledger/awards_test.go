package ledger

import "testing"

// Awards lists every award ever made, not only the last per machine and
// level that the state keeps, each with its confirmation.
func TestAwardsListsEveryAward(t *testing.T) {
	dir := t.TempDir()
	l, _ := mustOpen(t, dir, Options{})
	for _, r := range setupRecords(2, 30_00*mc) {
		mustCommit(t, l, r)
	}
	mustCommit(t, l, Meters{At: 2, Machine: "M000", CoinIn: 0})
	for i, game := range []uint64{5, 9, 12} {
		mustCommit(t, l, Hit{At: int64(3 + i), Level: "grand", Claims: []Claim{{Machine: "M000", Game: game, Bet: 200, Claimed: 10_000_00 + int64(i)}}})
		if game != 12 {
			mustCommit(t, l, Confirmed{At: int64(3 + i), Machine: "M000", Level: "grand", Game: game})
		}
	}
	l.Close()
	got, err := Awards(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("awards %+v, want 3", got)
	}
	for i, a := range got {
		if a.Machine != "M000" || a.Level != "grand" || a.Game != []uint64{5, 9, 12}[i] || a.Amount != 10_000_00 || a.Confirmed != (i < 2) {
			t.Fatalf("award %d: %+v", i, a)
		}
	}
	if _, err := Awards(t.TempDir()); err == nil {
		t.Fatal("a directory without a ledger gave awards")
	}
}
