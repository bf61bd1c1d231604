package machine

import (
	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
)

// AFT bonus jackpot wins (type 11) are wins the casino's bonusing system
// awards (SAS 8.5): below the handpay limit they go to the credit meter as
// a bonus coin-out win does; at or above it the machine locks up for a
// handpay of their own kind, which the attendant resets as any other
// (meters/aftbonus.go says how each is metered).

// bonusByHand decides how a bonus the port decided is paid: by the rule
// that sends a game's win to a handpay.
func (m *Machine) bonusByHand(t aft.Transfer) aft.Transfer {
	t.Handpay = t.Type == aft.BonusJackpot && t.Amounts.Total() >= m.cfg.HandpayLimit
	return t
}

// bonusLockout locks the machine up for the bonus jackpot just recorded.
func (m *Machine) bonusLockout(eff *Effects, t aft.Transfer) {
	cents := t.Amounts.Total()
	if m.record(eff, meters.HandpayPending{At: m.ns(), Kind: meters.HandpayBonus, Cents: cents, Ref: t.ID}) {
		m.say("msg_handpay", cents)
	}
}

// resumeOwed records, at power-up, the handpay lockout of a win whose
// record is committed and whose lockout is not: the one the ledger says
// it owes (a game's win, an attendant-paid jackpot or an AFT bonus),
// whether or not a game was ever played.
func (m *Machine) resumeOwed(eff *Effects) {
	h, ok := m.st.OwedLockout()
	if !ok {
		return
	}
	h.At = m.ns()
	if m.record(eff, h) {
		m.say("msg_handpay", h.Cents)
	}
}
