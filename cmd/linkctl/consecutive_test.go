package main

import (
	"fmt"
	"github.com/openegm/cabinet/book"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/book/walog"
	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// paidByGame is what a cabinet paid for each game's hit on linked level 1,
// from its ledger's records.
func paidByGame(t *testing.T, data string) map[uint64]int64 {
	t.Helper()
	out := map[uint64]int64{}
	err := meters.Records(filepath.Join(data, "ledger"), func(_ uint64, r meters.Record) error {
		if a, ok := r.(meters.ProgressiveAward); ok && a.Level == 1 {
			out[a.Game] += a.Cents
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// awardedByGame is what the controller awarded each game of machine on
// level "mega", from every record of its ledger folded again.
func awardedByGame(t *testing.T, dir, machine string) map[uint64]int64 {
	t.Helper()
	st := ledger.NewState()
	out := map[uint64]int64{}
	err := book.Records(dir, func(r walog.Record) error {
		recs, err := ledger.Decode(ledger.Type(r.Type), r.Data)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			res, err := st.Apply(rec)
			if err != nil {
				return fmt.Errorf("record %d: %w", r.Seq, err)
			}
			if _, ok := rec.(ledger.Hit); !ok {
				continue
			}
			for _, p := range res.Payouts {
				if p.Machine == machine && p.Level == "mega" {
					out[p.Game] += p.Amount
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// hitOnce plays one game at the linked bet on c and reports whether it
// made a hit (or one is pending).
func hitOnce(t *testing.T, c *cabinettest.Cabinet) bool {
	t.Helper()
	if c.State().CreditsCents < 20*20 {
		c.Bill(50000)
	}
	switch r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnMaxBet}); r.Refused {
	case "":
		return strings.HasPrefix(c.WaitIdle().Message.Key, "msg_jackpot")
	case "refused_jackpot_pending":
		return true
	case "refused_link_down", "refused_game_in_progress":
		time.Sleep(20 * time.Millisecond)
		return false
	default:
		t.Fatalf("max bet refused: %s", r.Refused)
	}
	return false
}

// Two hits in a row on one cabinet, the controller stopped (SIGSTOP) the
// moment the first is paid and resumed once the second is pending: the
// second is paid its own award, never the first's again. Before awards
// were tied to their game on both sides, the resumed controller sent the
// first hit's amount again when it saw the cabinet report a hit, and the
// cabinet paid it to the second. Every game the cabinet paid is then
// checked against the controller's award for that same game; and linkctl
// reconcile says the ledgers agree, and names every disagreement in cents
// when it is given the two cabinets' ledgers the wrong way round.
func TestConsecutiveHitsControllerStopped(t *testing.T) {
	t.Parallel()
	cs := newCasino(t, "wins-reset", "addressed")
	c := cs.cabs[0]
	c.WaitFor("the linked value", func(v machine.View) bool { return len(v.Jackpots) == 1 && v.TopOffered == 1 })
	pairs := 0
	for attempt := 0; pairs < 3; attempt++ {
		if attempt == 15 {
			t.Fatalf("only %d second hits within 4 s of a stop in 15 attempts", pairs)
		}
		for !hitOnce(t, c) {
		}
		c.WaitFor("the first hit paid", func(v machine.View) bool { return !v.Jackpots[0].Pending })
		cs.ctl.Process.Signal(syscall.SIGSTOP)
		second := false
		// Before the cabinet takes the linked bet away (5 s without values).
		for deadline := time.Now().Add(4 * time.Second); !second && time.Now().Before(deadline); {
			second = hitOnce(t, c)
		}
		cs.ctl.Process.Signal(syscall.SIGCONT)
		if second {
			pairs++
		}
		c.WaitFor("every award paid and the link up", func(v machine.View) bool {
			return !v.Jackpots[0].Pending && !v.LinkDown && v.TopOffered == 1
		})
	}
	time.Sleep(time.Second) // the controller sees the last payment
	cs.stopController(syscall.SIGTERM)

	paid, awarded := paidByGame(t, cs.cabData[0]), awardedByGame(t, cs.ctlData, "egm-0")
	if len(paid) < 2*pairs {
		t.Fatalf("the cabinet paid %d games: %v", len(paid), paid)
	}
	for game, cents := range paid {
		if awarded[game] != cents {
			t.Errorf("game %d: the cabinet paid %d c, the controller awarded %d c", game, cents, awarded[game])
		}
	}
	for game, cents := range awarded {
		if _, ok := paid[game]; !ok {
			t.Errorf("game %d: the controller awarded %d c, the cabinet paid nothing", game, cents)
		}
	}
	t.Logf("%d hits paid, %d of them while the controller was stopped after the hit before", len(paid), pairs)

	ledgerOf := func(i int) string { return filepath.Join(cs.cabData[i], "ledger") }
	code, out := linkctl(t, "reconcile", cs.ctlData, "--config", cs.config, "--cabinet", "egm-0="+ledgerOf(0), "--cabinet", "egm-1="+ledgerOf(1))
	if code != 0 || !strings.HasPrefix(out, "AGREE") {
		t.Fatalf("reconcile: exit %d\n%s", code, out)
	}
	code, out = linkctl(t, "reconcile", cs.ctlData, "--config", cs.config, "--cabinet", "egm-0="+ledgerOf(1), "--cabinet", "egm-1="+ledgerOf(0))
	if code != 1 || !strings.HasPrefix(out, "DISAGREE") {
		t.Fatalf("reconcile of swapped ledgers: exit %d\n%s", code, out)
	}
	for game, cents := range awarded {
		for _, want := range []string{
			fmt.Sprintf("egm-0 mega game %d: the controller awarded", game),
			fmt.Sprintf("egm-1 mega game %d: the cabinet paid", game),
			fmt.Sprintf("(differ by %d c)", cents),
		} {
			if !strings.Contains(out, want) {
				t.Errorf("reconcile of swapped ledgers does not say %q:\n%s", want, out)
			}
		}
	}
	t.Logf("reconcile of swapped ledgers:\n%s", out)
}
