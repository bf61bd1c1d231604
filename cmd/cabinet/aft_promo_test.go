package main

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas/host"
	"github.com/openegm/cabinet/sas/metercode"
)

// sashostAt runs the sashost binary against the cabinet's SAS port with
// --json and returns its output and exit code (1: a refusal it printed).
func sashostAt(t *testing.T, c *cabinet, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "sashost"), append([]string{"--pty", c.SASPty(), "--addr", "1", "--json"}, args...)...)
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	case err != nil:
		t.Fatalf("sashost %v: %v", args, err)
	}
	return string(out), 0
}

// aftKeyHex is aftKey as sashost takes it.
func aftKeyHex() string { return aftKey().String() }

// promoTransfer sends one transfer with sashost's aft command and returns
// the machine's final reply.
func promoTransfer(t *testing.T, c *cabinet, typ, id string, kv ...string) aft.TransferReply {
	t.Helper()
	args := append([]string{"aft", "transfer", typ, "id=" + id, "asset=4321", "key=" + aftKeyHex()}, kv...)
	out, code := sashostAt(t, c, args...)
	var r aft.TransferReply
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.ID != id && !r.Short() {
		t.Fatalf("sashost %v (exit %d): %s", args, code, out)
	}
	if ok := r.Status.Succeeded(); ok != (code == 0) {
		t.Fatalf("sashost %v: status %v, exit %d", args, r.Status, code)
	}
	return r
}

// playUntil plays games until done says so (at most 400 games).
func playUntil(t *testing.T, c *cabinet, what string, done func(v machine.View) bool) machine.View {
	t.Helper()
	for i := 0; ; i++ {
		v := c.WaitIdle()
		if done(v) {
			return v
		}
		if i == 400 {
			t.Fatalf("400 games and still not %s: %+v", what, v)
		}
		if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "" {
			t.Fatalf("spin refused %q with %d cents (%d restricted, %d non-restricted)", r.Refused, v.CreditsCents, v.RestrictedCents, v.NonRestrictedCents)
		}
	}
}

// Restricted and non-restricted credits through the real cabinet and
// the real sashost: in with a pool and an expiration, refusals the host
// reads (another pool, a receipt of a bonus, over the limit, a ticket), play
// that takes restricted credits first, then non-restricted, a cash-out
// that leaves the restricted ones, the host's transfer of those out, a
// bonus win, the 0x74 status, and every SAS meter read back equal to the
// ledger's.
func TestAFTPromoOnTheCabinet(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, append(slices.Clone(aftArgs), "--spin-time", "5ms")...)
	defer c.Stop()
	c.WaitIdle()
	if out, code := sashostAt(t, c, "aft", "register", "asset=4321", "key="+aftKeyHex(), "pos=9"); code != 0 {
		t.Fatalf("register: %s", out)
	}

	day := time.Now()
	in := promoTransfer(t, c, "in", "P-1", "cashable=1500", "restricted=700", "nonrestricted=300", "pool=12", "expiration=30")
	if in.Status != aft.StatusFull || in.Cashable != 1500 || in.Restricted != 700 || in.NonRestricted != 300 || in.PoolID != 12 ||
		in.Expiration != 30 || in.Meters == nil || in.Meters.Restricted != 700 || in.Meters.NonRestricted != 300 {
		t.Fatalf("transfer in: %+v", in)
	}
	v := c.WaitFor("the promotional credits", func(v machine.View) bool { return v.CreditsCents == 2500 })
	// 30 days from the machine's day (which may have turned since).
	if v.RestrictedCents != 700 || v.NonRestrictedCents != 300 ||
		v.RestrictedExpires != aft.DateOf(day.AddDate(0, 0, 30)) && v.RestrictedExpires != aft.DateOf(time.Now().AddDate(0, 0, 30)) {
		t.Fatalf("view: restricted %d, non-restricted %d, expires %v", v.RestrictedCents, v.NonRestrictedCents, v.RestrictedExpires)
	}
	out, _ := sashostAt(t, c, "aft", "status")
	var st aft.StatusReply
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Cashable != 1500 || st.Restricted != 700 || st.NonRestricted != 300 ||
		st.RestrictedPool != 12 || st.RestrictedExpiration != v.RestrictedExpires || st.AFTStatus&aft.StatusPrinterForReceipts == 0 {
		t.Fatalf("0x74: %s", out)
	}

	for i, c2 := range []struct {
		name string
		typ  string
		kv   []string
		want aft.Status
	}{
		{"restricted credits of another pool", "in", []string{"restricted=10", "pool=13"}, aft.StatusOtherPool},
		{"a receipt of a bonus", "bonus", []string{"cashable=100", "receipt"}, aft.StatusReceiptNotAllowed},
		{"over the transfer limit", "in", []string{"cashable=100001"}, aft.StatusExceedsLimit},
		{"a transfer to a ticket", "ticket", []string{"cashable=100"}, aft.StatusInvalidFunction},
		{"restricted out beyond the credits", "out", []string{"restricted=701"}, aft.StatusInvalidAmount},
	} {
		if r := promoTransfer(t, c, c2.typ, "R-"+strconv.Itoa(i), c2.kv...); r.Status != c2.want {
			t.Errorf("%s: %v, want %v", c2.name, r.Status, c2.want)
		}
	}

	// Bets take the restricted credits first.
	v = playUntil(t, c, "three games played", func(v machine.View) bool { return v.GamesPlayed == 3 })
	if v.NonRestrictedCents != 300 || v.RestrictedCents >= 700 {
		t.Fatalf("after 3 games: restricted %d, non-restricted %d", v.RestrictedCents, v.NonRestrictedCents)
	}
	restricted := v.RestrictedCents
	// The cash-out pays the rest and leaves the restricted credits.
	r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	if r.Refused != "" || r.View.PrintingCents != v.CreditsCents-restricted {
		t.Fatalf("cash-out: refused %q, ticket of %d cents with %d credits (%d restricted)", r.Refused, r.View.PrintingCents, v.CreditsCents, restricted)
	}
	v = c.WaitFor("the ticket", func(v machine.View) bool { return v.Printing == "" && v.CreditsCents == restricted })
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); r.Refused != "refused_restricted_only" {
		t.Fatalf("cash-out of restricted credits: refused %q", r.Refused)
	}
	// Both presses of the cash-out button were told to the host (66, SAS
	// 8.8), the one that paid and the one that could not.
	events, _ := sashostAt(t, c, "events", "--for", "3s")
	if n := strings.Count(events, `"code":102`); n != 2 {
		t.Fatalf("%d cash-out button exceptions (66), want 2:\n%s", n, events)
	}
	// The host takes them back.
	if r := promoTransfer(t, c, "out", "P-OUT", "restricted="+strconv.FormatInt(restricted, 10)); r.Status != aft.StatusFull || r.Restricted != restricted {
		t.Fatalf("restricted out: %+v", r)
	}
	c.WaitFor("no credits", func(v machine.View) bool { return v.CreditsCents == 0 })

	// Another pool now that none is left, with cashable money: restricted
	// first, then non-restricted, then cashable.
	if r := promoTransfer(t, c, "in", "P-2", "cashable=400", "restricted=40", "nonrestricted=60", "pool=13"); r.Status != aft.StatusFull {
		t.Fatalf("second transfer in: %+v", r)
	}
	c.WaitFor("the second transfer", func(v machine.View) bool { return v.CreditsCents == 500 })
	v = playUntil(t, c, "the non-restricted credits played", func(v machine.View) bool {
		if v.NonRestrictedCents < 60 && v.RestrictedCents != 0 {
			t.Fatalf("non-restricted credits played before the restricted ones: %+v", v)
		}
		return v.NonRestrictedCents == 0
	})
	if r := promoTransfer(t, c, "bonus", "B-1", "cashable=250", "nonrestricted=50"); r.Status != aft.StatusFull {
		t.Fatalf("bonus: %+v", r)
	}
	v = c.WaitFor("the bonus", func(w machine.View) bool { return w.CreditsCents == v.CreditsCents+300 })
	if v.NonRestrictedCents != 0 || v.Message.Key != "msg_aft_bonus" {
		t.Fatalf("the bonus is not a cashable win: %+v", v)
	}

	// Every meter over SAS is the ledger's.
	out, code := sashostAt(t, c, "meters")
	var ms struct {
		Meters []host.Meter `json:"meters"`
	}
	if err := json.Unmarshal([]byte(out), &ms); err != nil || code != 0 {
		t.Fatalf("meters (exit %d): %s", code, out)
	}
	c.Stop()
	ledger := readLedger(t, data)
	if err := ledger.Check(); err != nil {
		t.Fatal(err)
	}
	got := map[metercode.Code]uint64{}
	for _, m := range ms.Meters {
		got[m.Code] = m.Value
		if want, ok := ledger.SASMeter(m.Code); !ok || uint64(want) != m.Value {
			t.Errorf("SAS %v = %d, the ledger %d (%v)", m.Code, m.Value, want, ok)
		}
	}
	played := ledger.Get(meters.RestrictedPlayed)
	for code, want := range map[metercode.Code]int64{
		metercode.CurrentCredits: ledger.Get(meters.Credits), metercode.CurrentRestrictedCredits: 0,
		metercode.RestrictedPlayed: 700 - restricted + 40, metercode.NonRestrictedPlayed: 60,
		metercode.AFTInHouseRestrictedIn: 740, metercode.AFTInHouseRestrictedInCount: 2,
		metercode.AFTInHouseNonRestrictedIn: 360, metercode.AFTInHouseNonRestrictedInCount: 2,
		metercode.AFTInHouseRestrictedOut: restricted, metercode.AFTInHouseRestrictedOutCount: 1,
		metercode.AFTInHouseNonRestrictedOut: 0, metercode.AFTInHouseCashableIn: 1900,
		metercode.ElectronicToMachine: 2500 + 500, metercode.ElectronicToHost: restricted,
		metercode.MachinePaidExternalBonus: 300, metercode.AFTBonusCashableIn: 250, metercode.AFTBonusNonRestrictedIn: 50,
	} {
		if v, ok := got[code]; !ok || int64(v) != want {
			t.Errorf("SAS %v = %d (read %v), want %d", code, v, ok, want)
		}
	}
	if played != 700-restricted+40 || ledger.Get(meters.NonRestrictedCashedOut) != 300 {
		t.Errorf("ledger: restricted played %d, non-restricted cashed out %d", played, ledger.Get(meters.NonRestrictedCashedOut))
	}
}
