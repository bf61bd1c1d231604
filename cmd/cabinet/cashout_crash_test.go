package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/rng"
)

// ledgerRecords reads every record of a copy of the cabinet's ledger.
func ledgerRecords(t testing.TB, data string) []meters.Record {
	t.Helper()
	var recs []meters.Record
	if err := meters.Records(filepath.Join(data, "ledger"), func(_ uint64, r meters.Record) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestCashOutCrashLoop pulls the power cord at random moments around
// cash-outs and bills: while the printer prints, between the validator's
// stacking and its record, and anywhere else. After each restart the
// devices are driven to what the ledger says; at the end every ticket the
// ledger issued is on paper (exactly one copy not marked as a reprint at
// most, every other copy marked), counted once on the ticket meters, and
// the cashbox holds exactly the notes the meters credit.
// CRASH_ITERATIONS sets the number of kills (make crashtest: 500).
func TestCashOutCrashLoop(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	n := crashIterations(10)
	data := t.TempDir()
	args := []string{"--spin-time", "5ms", "--jackpot", "off"}
	r := rng.NewSeeded(2026)
	send := func(c *cabinet, cmd cabinettest.Command) error {
		b, _ := json.Marshal(cmd)
		if _, err := c.Conn.Write(append(b, '\n')); err != nil {
			return err
		}
		_, err := c.Rd.ReadBytes('\n')
		return err
	}
	for i := range n {
		c := startCabinet(t, data, args...)
		if i > 0 {
			// Orders left open at the kill are settled at power-up.
			v := c.WaitFor("the devices to settle", func(v machine.View) bool { return v.Printing == "" })
			if v.Mode == "handpay" {
				c.TurnKey("att-1") // a ticket the printer could not print
			}
		}
		play := rng.NewSeeded(r.Uint64n(1 << 62))
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				var err error
				switch play.Intn(4) {
				case 0, 1:
					err = send(c, cabinettest.Command{Cmd: "bill", Cents: meters.BillValues[play.Intn(4)]})
				case 2:
					err = send(c, cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
				default:
					err = send(c, cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
				}
				if err != nil {
					return // the cord was pulled
				}
			}
		}()
		// The printer takes 300 ms, a note a few: kills land in both.
		time.Sleep(time.Duration(100+r.Intn(900)) * time.Millisecond)
		c.Cmd.Process.Signal(syscall.SIGKILL)
		c.Cmd.Wait()
		c.Conn.Close()
		<-done
		st := readLedger(t, data)
		if err := st.Check(); err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		noEvidence(t, i, st)
	}
	// The last restart settles what the last kill left.
	c := startCabinet(t, data, args...)
	v := c.WaitFor("the devices to settle", func(v machine.View) bool { return v.Printing == "" })
	if v.Mode == "handpay" {
		c.TurnKey("att-1")
	}
	c.Stop()

	st := readLedger(t, data)
	issued := map[string]int64{}
	printed, voided := map[string]int{}, map[string]bool{}
	reprints := 0
	for _, rec := range ledgerRecords(t, data) {
		switch x := rec.(type) {
		case meters.CashOut:
			issued[x.Ticket] = x.Cents
		case meters.TicketPrinted:
			printed[x.Ticket]++
			if x.Reprint {
				reprints++
			}
		case meters.TicketVoid:
			voided[x.Ticket] = true
		}
	}
	copies, unmarked := map[string]int{}, map[string]int{}
	for _, p := range trayTickets(t, data) {
		copies[p.Validation]++
		if !p.Reprint {
			unmarked[p.Validation]++
		}
		if p.Cents != issued[p.Validation] {
			t.Fatalf("ticket %s printed for %d cents, issued for %d", p.Validation, p.Cents, issued[p.Validation])
		}
	}
	var total int64
	for v, cents := range issued {
		switch {
		case voided[v]:
			if printed[v] != 0 {
				t.Fatalf("ticket %s both voided and confirmed printed", v)
			}
		case printed[v] != 1:
			t.Fatalf("ticket %s confirmed printed %d times", v, printed[v])
		case copies[v] < 1 || unmarked[v] > 1:
			t.Fatalf("ticket %s: %d copies on paper, %d not marked as a reprint", v, copies[v], unmarked[v])
		default:
			total += cents
		}
	}
	if st.Get(meters.TicketOut) != total || st.Get(meters.TicketsOut) != int64(len(issued)-len(voided)) {
		t.Fatalf("ticket meters %d cents / %d tickets, the printed tickets %d cents / %d", st.Get(meters.TicketOut), st.Get(meters.TicketsOut), total, len(issued)-len(voided))
	}
	var box struct {
		Cashbox struct {
			Cents int64 `json:"cents"`
		} `json:"cashbox"`
	}
	if b, err := os.ReadFile(filepath.Join(data, "devices", "validator.json")); err == nil {
		json.Unmarshal(b, &box)
	}
	if st.Get(meters.BillsIn) != box.Cashbox.Cents {
		t.Fatalf("the cashbox holds %d cents of notes, the meters credit %d", box.Cashbox.Cents, st.Get(meters.BillsIn))
	}
	t.Logf("%d kills survived: %d tickets issued, %d voided to handpay, %d reprints marked; %d cents of notes in the cashbox, all credited",
		n, len(issued), len(voided), reprints, box.Cashbox.Cents)
}
