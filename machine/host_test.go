package machine

import (
	"slices"
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
)

// handpayWhileLoggedIn brings a machine to a handpay pending while a
// technician is logged in and a bill jam tilts it: a game started before
// the login ends with a win at the handpay limit (1 cent: any win), and the
// validator jams after it.
func handpayWhileLoggedIn(t *testing.T) *harness {
	cfg := svcCfg()
	cfg.HandpayLimit = 1
	for seed := uint64(1); seed < 500; seed++ {
		h := newHarness(t, cfg, nil, seed)
		h.power()
		h.bill(1000)
		if eff := h.press(BtnSpin); eff.Refused != "" {
			t.Fatal(eff.Refused)
		}
		login(h, RoleTechnician)
		for range 40 {
			h.advance(time.Second)
		}
		if h.m.st.Handpay == nil || h.m.st.Open != nil {
			continue // no win with this seed
		}
		h.step(BillJam{At: h.now})
		if h.m.session == nil || !slices.Contains(h.m.st.Tilts, TiltBillJam) {
			t.Fatalf("seed %d: session %v, tilts %v", seed, h.m.session, h.m.st.Tilts)
		}
		return h
	}
	t.Fatal("no seed wins a first game")
	return nil
}

// 0x94 resets the handpay only: the bill jam tilt and the technician's
// session survive, and the key is still on for the technician.
func TestHostHandpayResetTouchesNothingElse(t *testing.T) {
	h := handpayWhileLoggedIn(t)
	pending := *h.m.st.Handpay
	eff := h.step(HostHandpayReset{At: h.now, Who: "SAS host (0x94)", Pending: pending})
	if len(eff.Records) == 0 {
		t.Fatal("nothing recorded")
	}
	r, ok := eff.Records[0].(meters.HandpayReset)
	if !ok || r.Who != "SAS host (0x94)" || r.Cents != pending.Cents {
		t.Fatalf("records %+v", eff.Records)
	}
	for _, rec := range eff.Records {
		if e, ok := rec.(meters.Event); ok && e.Code == meters.EventTiltClear {
			t.Fatalf("a tilt cleared: %+v", e)
		}
		if s, ok := rec.(meters.Service); ok {
			t.Fatalf("a service record: %+v", s)
		}
	}
	if h.ledger.Handpay != nil || !slices.Contains(h.ledger.Tilts, TiltBillJam) {
		t.Fatalf("ledger: handpay %+v, tilts %v", h.ledger.Handpay, h.ledger.Tilts)
	}
	if v := h.m.View(); v.Service == nil || v.Service.Role != RoleTechnician {
		t.Fatalf("the session ended: %+v", v.Service)
	}
	if eff := h.svc(SvcPage, "", "handpays"); eff.Refused != "" {
		t.Fatalf("the technician can no longer act: %s", eff.Refused)
	}
	// The jam clears at the validator: the key (still on) must be turned.
	h.step(BillJamCleared{At: h.now})
	if !slices.Contains(h.m.st.Tilts, TiltBillJam) {
		t.Fatal("the tilt went without the key")
	}
}

// A reset for a handpay that is no longer the pending one, or with none
// pending, does nothing.
func TestHostHandpayResetOfAnotherHandpay(t *testing.T) {
	h := handpayWhileLoggedIn(t)
	stale := *h.m.st.Handpay
	stale.At--
	if eff := h.step(HostHandpayReset{At: h.now, Who: "host", Pending: stale}); len(eff.Records) != 0 {
		t.Fatalf("another handpay reset: %+v", eff.Records)
	}
	pending := *h.m.st.Handpay
	h.step(HostHandpayReset{At: h.now, Who: "host", Pending: pending})
	if eff := h.step(HostHandpayReset{At: h.now, Who: "host", Pending: pending}); len(eff.Records) != 0 {
		t.Fatalf("a second reset of the same handpay: %+v", eff.Records)
	}
}

// With a meter fault nothing can be recorded, so nothing is reset.
func TestHostHandpayResetWithAMeterFault(t *testing.T) {
	h := handpayWhileLoggedIn(t)
	pending := *h.m.st.Handpay
	h.step(LedgerFault{At: h.now, Err: "disk gone"})
	if eff := h.step(HostHandpayReset{At: h.now, Who: "host", Pending: pending}); len(eff.Records) != 0 || h.m.st.Handpay == nil {
		t.Fatalf("reset with a meter fault: %+v", eff.Records)
	}
}
