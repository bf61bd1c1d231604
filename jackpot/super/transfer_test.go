package super

import (
	"errors"
	"testing"

	"github.com/openegm/cabinet/jackpot"
)

func liability(t *testing.T, p *jackpot.Pools) int64 {
	t.Helper()
	m, err := p.Totals()
	if err != nil {
		t.Fatal(err)
	}
	return m.Current + m.Reserve + m.Overflow
}

// A transfer between two levels of the group is made once, whatever the
// retries: the group's liability is unchanged, the identity holds, the
// record says who, why and what moved; the same ID with other content is
// refused, and so is one without a reason.
func TestTransferExactlyOnce(t *testing.T) {
	c := sharedCluster(t)
	s := mustStore(t, c, "casino-a")
	initLevels(t, s, levelDef{"grand", grandCfg, 0}, levelDef{"major", majorCfg, 0})
	if _, err := s.Contribute(opCtx(t), Batch{Seq: 1, Bet: 100_000_00, At: 5, Level: "grand"}); err != nil {
		t.Fatal(err)
	}
	before := mustPools(t, s)
	grand, _ := before.Level("grand")
	tr := jackpot.Transfer{From: "grand", To: "major", All: true, Close: true, Who: "op-1", Why: "grand retired: its machines left", At: 9}
	first, err := s.Transfer(opCtx(t), "t-1", tr)
	if err != nil {
		t.Fatal(err)
	}
	if first.Replayed || first.Amount() != grand.Meters.Current+grand.Meters.Reserve+grand.Meters.Overflow || first.Who != "op-1" {
		t.Fatalf("transfer %+v, grand held %+v", first, grand.Meters)
	}
	retry := tr
	retry.At = 99                                                              // a command run again
	again, err := mustStore(t, c, "casino-b").Transfer(opCtx(t), "t-1", retry) // a retry, from anywhere
	if err != nil || !again.Replayed || again.Amount() != first.Amount() || again.Revision != first.Revision {
		t.Fatalf("retry %+v %v", again, err)
	}
	after := mustPools(t, s)
	if liability(t, after) != liability(t, before) {
		t.Fatalf("liability %d after the transfer, %d before", liability(t, after), liability(t, before))
	}
	if err := after.Check(); err != nil {
		t.Fatal(err)
	}
	if g, _ := after.Level("grand"); !g.Closed || g.Meters.TransferredOut != first.Amount() {
		t.Fatalf("grand after: %+v", g)
	}
	other := tr
	other.Why = "another reason"
	if _, err := s.Transfer(opCtx(t), "t-1", other); !errors.Is(err, ErrConflict) {
		t.Fatalf("the same ID with other content: %v", err)
	}
	noWhy := jackpot.Transfer{From: "major", To: "grand", All: true, Who: "op-1", At: 10}
	if _, err := s.Transfer(opCtx(t), "t-2", noWhy); err == nil {
		t.Fatal("a transfer without a reason was made")
	}
	if _, err := s.Contribute(opCtx(t), Batch{Seq: 2, Bet: 100, At: 11, Level: "grand"}); !errors.Is(err, jackpot.ErrClosed) {
		t.Fatalf("a batch to the closed level: %v", err)
	}
}
