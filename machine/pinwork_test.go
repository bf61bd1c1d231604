package machine

import "testing"

// job steps ev without running the PIN job it hands out, as the owner does
// while a worker has it, and returns that job.
func (h *harness) job(ev Event) PINJob {
	h.t.Helper()
	eff := h.m.Step(ev)
	if len(eff.Records) != 0 || eff.Refused != "" {
		h.t.Fatalf("%T before its PIN work: records %v, refused %q", ev, eff.Records, eff.Refused)
	}
	for _, d := range eff.Devices {
		if j, ok := d.(PINJob); ok {
			return j
		}
	}
	h.t.Fatalf("%T handed out no PIN work: %+v", ev, eff.Devices)
	return nil
}

// What changed while a PIN was being worked on decides: the key turned off
// or the role locked refuses the login, a verdict on a replaced hash is
// checked again against the new one, and a change whose session ended is
// not made.
func TestPINWorkAnswerMeetsTheMachineAsItIsNow(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 31)
	h.power()
	login(h, RoleTechnician) // PIN 582947
	old := h.m.cfg.PINHashes[RoleTechnician]
	h.svc(SvcLogout, "", "")

	// The key goes off while the PIN is checked.
	check := h.job(PINEntry{At: h.now, Role: RoleTechnician, PIN: "582947"})
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	if eff := h.step(check.Do(Argon2id, h.now)); eff.Refused != "refused_key_off" || h.m.session != nil {
		t.Fatalf("a right PIN answered after the key went off: refused %q, session %+v", eff.Refused, h.m.session)
	}
	h.keyOn("tech")

	// A verdict on a hash that is no longer the role's: checked again.
	stale := PINChecked{At: h.now, Role: RoleTechnician, PIN: "582947", Hash: "$argon2id$replaced", OK: true}
	eff := h.m.Step(stale)
	var again CheckPIN
	for _, d := range eff.Devices {
		if c, ok := d.(CheckPIN); ok {
			again = c
		}
	}
	if h.m.session != nil || len(eff.Records) != 0 || again.Hash != old || again.PIN != "582947" {
		t.Fatalf("a stale verdict: session %+v, records %v, checked again %+v", h.m.session, eff.Records, again)
	}

	// The role locks while a wrong PIN is checked: no sixth failure.
	pending := h.job(PINEntry{At: h.now, Role: RoleTechnician, PIN: "111111"})
	for range MaxPINFailures {
		h.pin(RoleTechnician, "222222")
	}
	failed := h.m.st.PINFailures[RoleTechnician].Count
	if eff := h.step(pending.Do(Argon2id, h.now)); eff.Refused != "refused_pin_locked" || h.m.st.PINFailures[RoleTechnician].Count != failed {
		t.Fatalf("a wrong PIN answered after the lock: refused %q, failures %d, were %d", eff.Refused, h.m.st.PINFailures[RoleTechnician].Count, failed)
	}

	// A PIN change whose session ended before its hash came back, even
	// with the same role logged in again.
	h2 := newHarness(t, svcCfg(), nil, 32)
	h2.power()
	login(h2, RoleOperator)
	before := h2.m.cfg.PINHashes[RoleOperator]
	change := h2.job(ServiceAction{At: h2.now, Action: SvcSetPIN, Value: "730164"})
	h2.svc(SvcLogout, "", "")
	if eff := h2.pin(RoleOperator, "582947"); eff.Refused != "" {
		t.Fatalf("logging in again: %q", eff.Refused)
	}
	h2.devices = nil
	eff = h2.step(change.Do(Argon2id, h2.now))
	if h2.m.cfg.PINHashes[RoleOperator] != before || len(eff.Records) != 0 || len(h2.devices) != 0 {
		t.Fatalf("a late PIN change was made: hash changed %v, records %v, devices %+v",
			h2.m.cfg.PINHashes[RoleOperator] != before, eff.Records, h2.devices)
	}
}
