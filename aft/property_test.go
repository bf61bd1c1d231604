package aft

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas/metercode"
)

// Random hosts against the core, with power losses at random points
// (before a pending transfer's commit, or after it, before the host saw
// the result), repeats of old requests, lock requests and a machine that
// is sometimes busy. After every step: the core's state is the fold of
// the ledger, the credits are what the committed records say and never
// negative, every transaction ID was committed at most once, a repeat
// never produced a record, and the history reads back the records.
func TestPropertyExactlyOnceAcrossPowerLosses(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { propertyRun(t, uint64(seed)) })
	}
}

func propertyRun(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 17))
	cfg := testConfig()
	m := newMachine(t, cfg)
	m.cond.CreditLimit = 20_000
	m.register()
	var sent []TransferRequest // every request the hosts made, for repeats
	committed := map[string]Transfer{}
	powerUp := func() {
		st, err := Fold(m.ledger)
		if err != nil {
			t.Fatalf("fold at power-up: %v", err)
		}
		m.core = New(cfg, st)
	}
	// Unique IDs stay below the history's 127 entries, the horizon of
	// exactly once.
	for step := 0; step < 110; step++ {
		m.now = m.now.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
		m.cond.GameInProgress = rng.IntN(12) == 0
		m.cond.Tilt = rng.IntN(20) == 0
		m.cond.WonCredits = int64(rng.IntN(3)) * 250
		m.raised = nil
		switch rng.IntN(10) {
		case 0:
			m.core.Lock(LockRequest{Code: RequestLock, Conditions: byte(rng.IntN(4)), Timeout: uint16(rng.IntN(800))}, m.conditions(), m.now)
			continue
		case 1:
			m.core.Tick(m.conditions(), m.now)
			continue
		}
		var q TransferRequest
		repeat := len(sent) > 0 && rng.IntN(4) == 0
		if repeat {
			q = sent[rng.IntN(len(sent))]
		} else {
			q = randomRequest(rng, fmt.Sprintf("S%d-%d", seed, step))
			sent = append(sent, q)
		}
		prev, wasCommitted := committed[q.ID]
		d := m.core.Transfer(q, m.conditions(), m.now)
		if wasCommitted {
			if d.Record != nil {
				t.Fatalf("step %d: %q committed before, a second record %+v", step, q.ID, d.Record)
			}
			if sameRequest(prev, q) && (d.Reply.ID != q.ID || d.Reply.Total() != prev.Amounts.Total() || !d.Reply.Status.Succeeded()) {
				t.Fatalf("step %d: repeat of %q answered %+v, recorded %+v", step, q.ID, d.Reply, prev)
			}
		}
		if d.Record != nil {
			switch rng.IntN(10) {
			case 0: // power lost before the commit: it never happened
				powerUp()
			case 1: // the machine's recheck refused it
				if err := m.core.Abandon(*d.Record, StatusUnable, m.now); err != nil {
					t.Fatal(err)
				}
			default:
				if st, ok := Recheck(*d.Record, m.conditions()); !ok {
					t.Fatalf("step %d: a fresh decision fails its recheck with %v", step, st)
				}
				m.commit(*d.Record)
				committed[d.Record.ID] = *d.Record
				if rng.IntN(8) == 0 { // power lost before the host saw the result
					powerUp()
				}
			}
		}
		checkInvariants(t, step, m, committed)
	}
}

func randomRequest(rng *rand.Rand, id string) TransferRequest {
	q := TransferRequest{Code: TransferCode(rng.IntN(2)), Asset: asset, Key: testKey(), ID: id}
	switch rng.IntN(6) {
	case 0, 1:
		q.Type = InHouseToMachine
		q.Restricted = int64(rng.IntN(3)) * int64(rng.IntN(500))
		q.Expiration, q.PoolID = Expiration(rng.IntN(60)), uint16(rng.IntN(2))
	case 2:
		q.Type = InHouseToHost
		q.Restricted = int64(rng.IntN(2)) * int64(rng.IntN(500))
	case 3:
		q.Type = BonusCoinOut
	case 4:
		q.Type = WinToHost
	case 5:
		q.Type = InHouseToTicket
	}
	q.Cashable = 1 + int64(rng.IntN(6000))
	if q.Type != WinToHost && q.Type != InHouseToTicket {
		q.NonRestricted = int64(rng.IntN(2)) * int64(rng.IntN(800))
	}
	if rng.IntN(6) == 0 {
		q.Flags |= FlagReceipt
	}
	return q
}

func checkInvariants(t *testing.T, step int, m *machine, committed map[string]Transfer) {
	t.Helper()
	folded, err := Fold(m.ledger)
	if err != nil {
		t.Fatalf("step %d: %v", step, err)
	}
	live := m.core.State()
	if !reflect.DeepEqual(folded, live) {
		t.Fatalf("step %d: core state is not the fold of the ledger:\n%+v\n%+v", step, live, folded)
	}
	var credits Credits
	var in, outs int64
	seen := map[string]bool{}
	var logged []Transfer
	for _, r := range m.ledger {
		tr, ok := r.(Transfer)
		if !ok {
			continue
		}
		if seen[tr.ID] {
			t.Fatalf("step %d: transaction %q committed twice", step, tr.ID)
		}
		seen[tr.ID] = true
		credits = credits.Apply(tr)
		switch tr.Type {
		case InHouseToMachine, InHouseToTicket:
			in += tr.Amounts.Total()
		case InHouseToHost, WinToHost:
			outs += tr.Amounts.Total()
		}
		if tr.Amounts.Total() > tr.Requested.Total() || (tr.Code == CodeFull && tr.Amounts != tr.Requested) {
			t.Fatalf("step %d: %q moved %+v for a request of %+v (code %v)", step, tr.ID, tr.Amounts, tr.Requested, tr.Code)
		}
		if Logged(tr.Type, tr.Amounts) {
			logged = append(logged, tr)
		}
	}
	if len(seen) != len(committed) {
		t.Fatalf("step %d: %d transfers in the ledger, %d committed", step, len(seen), len(committed))
	}
	if credits != m.credits {
		t.Fatalf("step %d: credits %+v, the ledger says %+v", step, m.credits, credits)
	}
	if credits.Cashable < 0 || credits.Restricted < 0 || credits.NonRestricted < 0 {
		t.Fatalf("step %d: negative credits %+v", step, credits)
	}
	if live.Meters[metercode.ElectronicToMachine] != in || live.Meters[metercode.ElectronicToHost] != outs {
		t.Fatalf("step %d: meters 17 %d 18 %d, ledger in %d out %d", step,
			live.Meters[metercode.ElectronicToMachine], live.Meters[metercode.ElectronicToHost], in, outs)
	}
	// The history reads back the logged records, newest at FF.
	for back := 1; back <= min(len(logged), MaxHistory); back++ {
		want := logged[len(logged)-back]
		r := m.core.Interrogate(byte(256 - back))
		if r.ID != want.ID || r.Position != want.Position || r.Total() != want.Amounts.Total() || r.Status != want.Status {
			t.Fatalf("step %d: history %d back is %+v, the ledger has %+v", step, back, r, want)
		}
		if a := m.core.Interrogate(want.Position); a.ID != want.ID {
			t.Fatalf("step %d: position %d is %q, want %q", step, want.Position, a.ID, want.ID)
		}
	}
}
