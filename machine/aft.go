package machine

import (
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
)

// AFT (SAS Advanced Funds Transfer) reaches the machine from the SAS
// port, whose AFT core answers the host at once and decides each
// transfer from the machine's conditions as the last view showed them.
// The machine has the last word: it looks again with its live state
// (aft.Recheck) and records the transfer in the same step, or refuses it
// (Effects.AFTRefused) and nothing moves.

// AFTCreditLimit is the most the credit meter may hold after a transfer
// in, in cents: what long poll 1A's 4 BCD bytes carry.
const AFTCreditLimit = 99_999_999

// AFTTransfer is a transfer the AFT core decided, to record now.
type AFTTransfer struct {
	At       time.Time
	Transfer aft.Transfer
}

// AFTRegistration is a change of the AFT registration the core answered
// the host with, to record.
type AFTRegistration struct {
	At           time.Time
	Registration aft.Registration
}

// AFTLock says whether the host holds the AFT game lock (long poll 0x74):
// while it does the machine starts no game and accepts no note, so the
// credits the host was told stay as they are until its transfer.
type AFTLock struct {
	At     time.Time
	Locked bool
}

func (e AFTTransfer) at() time.Time     { return e.At }
func (e AFTRegistration) at() time.Time { return e.At }
func (e AFTLock) at() time.Time         { return e.At }

// AFTConditions is what the machine is doing, as the AFT core asks it:
// the port decides from the view's copy, the machine rechecks with its
// own. The credits are the ledger's, by kind (meters/promo.go).
func (m *Machine) AFTConditions() aft.Conditions {
	return aft.Conditions{
		Credits:        m.st.CreditsByKind(),
		CreditLimit:    AFTCreditLimit,
		GameInProgress: m.phase != idle || m.st.Open != nil || len(m.st.PendingHits) > 0 || m.st.Poker.Busy() != "",
		Handpay:        m.st.Handpay != nil || m.st.OwedHandpay > 0,
		Tilt:           len(m.st.Tilts) > 0 || m.fault != "",
		Disabled: !m.poweredUp || len(m.st.DoorsOpen) > 0 || m.hostDisabled || m.session != nil ||
			m.st.PendingTicket != nil || m.inTest(),
		PrinterReady: !m.devFault[TiltPrinter],
	}
}

// aftTransfer records a decided transfer when the machine can still make
// it, or refuses it with the status the host reads.
func (m *Machine) aftTransfer(e AFTTransfer, eff *Effects) {
	if st, ok := aft.Recheck(e.Transfer, m.AFTConditions()); !ok {
		eff.AFTRefused = st
		return
	}
	t := m.bonusByHand(e.Transfer)
	r := meters.AFTTransfer{At: m.ns(), Transfer: t}
	if _, err := m.st.Next(r); err != nil {
		// The core and the ledger disagree (an ID the ledger ran, a
		// position out of turn): the host is refused, the machine plays on.
		eff.AFTRefused = aft.StatusUnexpected
		return
	}
	m.record(eff, r)
	cents := t.Amounts.Total()
	switch {
	case t.Type.ToHost():
		m.cashedOut = true
		m.say("msg_aft_out", cents)
	case t.Handpay:
		m.playerAt = m.now
		m.bonusLockout(eff, t)
	case t.Type.Bonus():
		m.playerAt = m.now
		m.say("msg_aft_bonus", cents)
	case cents > 0:
		m.playerAt = m.now
		m.say("msg_aft_in", cents)
	}
}

func (m *Machine) aftLock(e AFTLock) {
	m.aftLocked = e.Locked
	if e.Locked {
		m.say("refused_aft_locked")
	} else if m.message.Key == "refused_aft_locked" {
		m.message = Message{}
	}
}
