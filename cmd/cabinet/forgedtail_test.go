package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/book/walog"
	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// forgeBills appends copies of the records of the ledger's last bill (its
// escrow, stacking and money-in) to the cabinet's log until at least n
// records were added, as someone with the data directory and no key
// would: whole frames, the hash chain and the CRCs right, nothing signed
// touched (the log opened without the machine key writes no checkpoint and
// no mark). It returns the first forged record.
func forgeBills(t *testing.T, data string, n int) uint64 {
	t.Helper()
	return forgeBillsWith(t, data, n, walog.Options{})
}

// forgeBillsWith is forgeBills with the log opened as opts says: with the
// board's key and marks, it is the attacker who holds the whole board.
func forgeBillsWith(t *testing.T, data string, n int, opts walog.Options) uint64 {
	t.Helper()
	var all []meters.Record
	meters.Records(filepath.Join(data, "ledger"), func(_ uint64, r meters.Record) error {
		all = append(all, r)
		return nil
	})
	first := slices.IndexFunc(all, func(r meters.Record) bool { _, ok := r.(meters.BillEscrow); return ok })
	last := slices.IndexFunc(all, func(r meters.Record) bool { m, ok := r.(meters.MoneyIn); return ok && m.Source == meters.SourceBill })
	if first < 0 || last < first {
		t.Fatalf("no bill in the ledger to copy: %d..%d", first, last)
	}
	bill := all[first : last+1]
	log, _, err := walog.Open(filepath.Join(data, "ledger", book.LogDir), opts)
	if err != nil {
		t.Fatal(err)
	}
	from := log.LastSeq() + 1
	for k, added := uint64(1), 0; added < n; k++ {
		for _, r := range bill {
			// Each copy a lawful new note: its own escrow order, later.
			switch b := r.(type) {
			case meters.BillEscrow:
				b.Ref += k
				b.At += int64(k)
				r = b
			case meters.MoneyIn:
				b.Order += k
				b.At += int64(k)
				r = b
			}
			enc, err := meters.Encode(r)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := log.Append(uint16(r.Type()), enc); err != nil {
				t.Fatal(err)
			}
			added++
			if added == n {
				break
			}
		}
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	return from
}

// Issue 23's first attack: money appended to the log with nothing but the
// data directory. Before commit marks, meterread said VERIFIED and the
// cabinet came up with the forged credits. Now the inspector's verify
// names the first record no mark vouches for, and the cabinet cuts the
// tail, keeps it as evidence, logs it, and plays on the true credits; a
// tail longer than any commit (300 records) is also a tilt.
func TestForgedLogTailIsRefused(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 300} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			data := t.TempDir()
			c := startCabinet(t, data, "--spin-time", "5ms")
			c.Bill(10000)
			c.Stop()
			first := forgeBills(t, data, n)
			pub := cabinettest.Board(data) + "/machine.pub"
			out := meterreadVerify(t, data, pub)
			if !strings.HasPrefix(out, "NOT VERIFIED") || !strings.Contains(out, "record "+strconv.FormatUint(first, 10)+" is the first not vouched for") {
				t.Fatalf("meterread verify on a forged tail of %d records:\n%s", n, out)
			}
			c = startCabinet(t, data, "--spin-time", "5ms")
			v := c.State()
			if v.CreditsCents != 10000 {
				t.Fatalf("the cabinet came up with %d cents of credits after a forged tail (true: 10000)", v.CreditsCents)
			}
			if n > walog.MaxBatch && !tilted(v, machine.TiltLedger) {
				t.Fatalf("a forged tail of %d records: mode %s, tilts %v", n, v.Mode, v.Tilts)
			}
			if n <= walog.MaxBatch && v.Mode != "idle" {
				t.Fatalf("a tail a power loss can leave: mode %s, tilts %v", v.Mode, v.Tilts)
			}
			c.Stop()
			st := readLedger(t, data)
			if st.Meters[meters.Credits] != 10000 || st.Meters[meters.BillsIn] != 10000 {
				t.Fatalf("ledger after the forgery: credits %d, bills %d", st.Meters[meters.Credits], st.Meters[meters.BillsIn])
			}
			if !slices.ContainsFunc(st.Events, func(e meters.Event) bool {
				return e.Code == meters.EventLogRepaired && strings.Contains(e.Detail, "records "+strconv.FormatUint(first, 10)+" to ") &&
					strings.Contains(e.Detail, "vouched for by no signature")
			}) {
				t.Fatalf("no event names the unvouched records from %d: %+v", first, st.Events)
			}
			if out := meterreadVerify(t, data, pub); !strings.HasPrefix(out, "VERIFIED") {
				t.Fatalf("after the cut, the log does not verify:\n%s", out)
			}
		})
	}
}

// The attacker with the data directory and the board's witness, not its
// key: he can put both back to an earlier moment together, and the witness
// agrees. On a real cabinet the electromechanical meters cannot be turned
// back with them: ahead of the ledger with no RAM clear, they make it a
// rollback tilt (the simulator keeps them in the data directory, so here
// they stay newer as on the cabinet). The casino's host sees the meters go
// back as well (sashost --history, the link controller).
func TestDataAndWitnessRolledBackTogether(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(5000)
	c.Stop()
	old := filepath.Join(t.TempDir(), "old")
	copyTree(t, filepath.Join(data, "ledger"), old)
	witness := filepath.Join(cabinettest.Board(data), "witness")
	oldWitness, err := os.ReadFile(witness)
	if err != nil {
		t.Fatal(err)
	}
	c = startCabinet(t, data, "--spin-time", "5ms")
	for range 3 {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		c.WaitIdle()
	}
	c.WaitFor("the hard games meter", func(machine.View) bool {
		return c.Send(cabinettest.Command{Cmd: "meters"}).Meters["hard meter_games"] == 3
	})
	c.Stop()
	copyTree(t, old, filepath.Join(data, "ledger"))
	if err := os.WriteFile(witness, oldWitness, 0o600); err != nil {
		t.Fatal(err)
	}
	c = startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	v := c.WaitFor("the rollback tilt", func(v machine.View) bool { return tilted(v, machine.TiltRollback) })
	if slices.Contains(v.Tilts, machine.TiltWitness) {
		t.Fatalf("the witness, rolled back with the data, was taken for the evidence: %v", v.Tilts)
	}
}

// The attacker with the whole board (its key store too) signs what he
// writes: the cabinet and the inspector's verify cannot tell his records
// from the machine's. This test keeps the README's table honest about it;
// only what lies outside the cabinet finds him: the count room's drop
// against the bill meters, and the casino's host and link controller when
// a meter goes back.
func TestWholeBoardSignsWhatItWrites(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(10000)
	c.Stop()
	key, err := book.FileKeys{Dir: cabinettest.Board(data)}.Signer("machine", false)
	if err != nil {
		t.Fatal(err)
	}
	forgeBillsWith(t, data, 3, walog.Options{Signer: key, Marks: true})
	if out := meterreadVerify(t, data, cabinettest.Board(data)+"/machine.pub"); !strings.HasPrefix(out, "VERIFIED") {
		t.Fatalf("records signed with the board's own key:\n%s", out)
	}
	st := readLedger(t, data)
	if st.Meters[meters.BillsIn] != 20000 {
		t.Fatalf("bills in %d after a forged note signed by the board", st.Meters[meters.BillsIn])
	}
}
