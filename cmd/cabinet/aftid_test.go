package main

import (
	"fmt"
	"testing"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// A transaction ID is money once, forever (issue 23): after more transfers
// than the AFT history holds, a host that sends the first transfer again
// under its ID is answered 81 (transaction ID not unique), and nothing
// moves: the credits, the SAS meters and the ledger, which holds one
// record of that ID, are as before; the same after a restart (the machine
// starts from its sealed snapshot). A host re-asking a transfer still in
// the history gets its record, as before.
func TestAFTOldTransactionIDRefusedOnTheCabinet(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	const n = 2*aft.MaxHistory - 40 // 214 transfers: the first left the history long ago
	data := t.TempDir()
	args := append([]string{"--spin-time", "5ms"}, aftArgs...)
	c := startCabinet(t, data, args...)
	defer func() { c.Stop() }()
	h := sasHost(t, data)
	c.WaitIdle()
	if _, err := h.AFTRegisterMachine(aftAsset, aftKey(), aftPOS); err != nil {
		t.Fatal(err)
	}
	id := func(i int) string { return fmt.Sprintf("TX-%03d", i) }
	for i := range n {
		if r := aftDo(t, h, aftReq(id(i), aft.InHouseToMachine, 100)); r.Status != aft.StatusFull {
			t.Fatalf("transfer %d: %+v", i, r)
		}
	}
	const credits = n * 100
	c.WaitFor("the transfers' credits", func(v machine.View) bool { return v.CreditsCents == credits })
	codes := []sas.MeterCode{0x17, sas.MeterCode(aft.MeterInHouseCashableIn), sas.MeterCode(aft.MeterInHouseCashableInCount)}
	meterValues := func(h *host.Client) []uint64 {
		var out []uint64
		for _, code := range codes {
			out = append(out, sasMeter(t, h, code))
		}
		return out
	}
	before := meterValues(h)
	if before[1] != credits || before[2] != n {
		t.Fatalf("meters %v, want A0 %d and A1 %d", before, credits, n)
	}

	resend := func(h *host.Client, when string) {
		t.Helper()
		// aftDo waits out a pending reply: a machine that ran it again
		// would answer 00 in the end.
		if r := aftDo(t, h, aftReq(id(0), aft.InHouseToMachine, 100)); r.Status != aft.StatusIDNotUnique || r.ID != id(0) {
			t.Errorf("%s: the first transfer sent again: status %v, want %v", when, r.Status, aft.StatusIDNotUnique)
		}
		if r, err := h.AFTInterrogate(0); err != nil || r.Status != aft.StatusIDNotUnique || r.ID != id(0) {
			t.Errorf("%s: the current transfer after it: %+v %v", when, r, err)
		}
		// Another request under it, as well.
		if r := aftDo(t, h, aftReq(id(0), aft.InHouseToMachine, 5)); r.Status != aft.StatusIDNotUnique {
			t.Errorf("%s: another request under the first ID: %v", when, r.Status)
		}
		// A transfer still in the history: its record, as the host asks.
		last, err := h.AFTTransfer(aftReq(id(n-1), aft.InHouseToMachine, 100))
		if err != nil || last.Status != aft.StatusFull || last.ID != id(n-1) || last.Position == 0 {
			t.Errorf("%s: the newest transfer again: %+v %v", when, last, err)
		}
		if v := c.WaitIdle(); v.CreditsCents != credits {
			t.Errorf("%s: credits %d, want %d", when, v.CreditsCents, credits)
		}
		if got := meterValues(h); fmt.Sprint(got) != fmt.Sprint(before) {
			t.Errorf("%s: meters 0x17, A0, A1 = %v, were %v", when, got, before)
		}
	}
	resend(h, "live")

	// From the sealed snapshot at power-up.
	c.Stop()
	h.Close()
	c = startCabinet(t, data, args...)
	h = sasHost(t, data)
	defer h.Close()
	c.WaitIdle()
	resend(h, "after a restart")
	c.Stop()

	once := 0
	for _, r := range ledgerRecords(t, data) {
		if tr, ok := r.(meters.AFTTransfer); ok && tr.Transfer.ID == id(0) {
			once++
		}
	}
	st := readLedger(t, data)
	if once != 1 || st.Get(meters.Credits) != credits || st.Get(meters.ElectronicIn) != credits {
		t.Fatalf("ledger: %d records of %s, credits %d, electronic in %d; want 1, %d, %d",
			once, id(0), st.Get(meters.Credits), st.Get(meters.ElectronicIn), credits, credits)
	}
}
