package machine

import (
	"time"

	"github.com/openegm/cabinet/meters"
)

// HostHandpayReset is SAS long poll 0x94, remote handpay reset: the casino
// host says the pending handpay was paid. It resets that handpay and
// nothing else: unlike the attendant's key it clears no tilt, and it is no
// key turn, so the service session of a technician at the cabinet goes on.
//
// The SAS port answers the poll from the committed state before the event
// reaches the machine; Pending is the handpay it answered about, so a
// reset that arrives after that handpay was reset by the key (and another
// one, say a jackpot waiting behind it, became pending) resets nothing.
type HostHandpayReset struct {
	At      time.Time
	Who     string // recorded as who reset it
	Pending meters.HandpayPending
}

func (e HostHandpayReset) at() time.Time { return e.At }

// hostHandpayReset resets the handpay the host meant, if it is still the
// pending one.
func (m *Machine) hostHandpayReset(e HostHandpayReset, eff *Effects) {
	if h := m.st.Handpay; h != nil && *h == e.Pending {
		m.resetHandpay(eff, e.Who, false)
	}
}

// resetHandpay records the reset of the pending handpay by who (validated
// when handpays are, ticketin.go; receipt: a receipt is printed for it),
// then pays a jackpot that was waiting behind it.
func (m *Machine) resetHandpay(eff *Effects, who string, receipt bool) ReceiptValidation {
	h := m.st.Handpay
	rv := m.recordHandpayReset(eff, who, receipt)
	if rv.Validation != "" {
		// The receipt is the voucher the cashier pays (handpayVoucher).
		m.say("msg_handpay_voucher", h.Cents)
	} else {
		m.say("msg_handpay_reset", h.Cents)
	}
	m.awardHits(eff)
	return rv
}
