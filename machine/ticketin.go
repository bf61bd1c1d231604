package machine

import (
	"fmt"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/tito"
)

// Tickets the casino's system validates (SAS 6.02 section 15). Out: the
// cash-out ticket's number is the host's (secure-enhanced from the ID it
// set with 0x4C, or its own with 0x58); without a host configuration a
// production cabinet pays by hand, never with a number a host cannot
// validate. In: the validator's ticket waits in escrow (recorded) until
// the host answers; one record credits it and ends the cycle. Handpays
// are validated from the same secure-enhanced sequence when reset, and
// what the host turns off with 0x7B the cabinet stops doing.

// Validation styles an operator selects (Config.Validation).
const (
	ValidationSecureEnhanced = meters.StyleSecureEnhanced
	ValidationSystem         = meters.StyleSystem
)

// MinTicketTimeout is the shortest wait for the host's answer to a
// ticket in escrow or a cash-out waiting for its number: the ticket system
// needs 10 s of a general poll cycle at least.
const MinTicketTimeout = 10 * time.Second

// TicketInserted: the validator read a ticket's barcode and holds it.
type TicketInserted struct {
	At     time.Time
	Digits string
}

// HostValidationID is the host's 0x4C (validation ID 0: a read, no change).
type HostValidationID struct {
	At      time.Time
	ID, Seq uint32
}

// HostTicketData is the host's 0x7D or 0x7C: what tickets and receipts
// print. A nil field is one the host did not send, kept as it is (0x7D
// may stop after any field; 0x7C carries only the texts it changes).
type HostTicketData struct {
	At         time.Time
	ExpiryDays *uint16 // 0: never
	Location   *string
	Address1   *string
	Address2   *string
	// The titles of restricted and debit tickets (0x7C), kept and
	// reported: the restricted ticket prints its own (tito), and this
	// cabinet prints no debit ticket.
	RestrictedTitle *string
	DebitTitle      *string
}

// HostValidationControl is the host's 0x7B: the control bits of Mask are
// set to those of States (meters.Ctl*; the others SAS defines are not
// this cabinet's to change, and are ignored), and the expirations, in
// days, that are not 0 (9999: never).
type HostValidationControl struct {
	At                               time.Time
	Mask, States                     uint16
	CashableExpiry, RestrictedExpiry uint16
}

// HostValidationsRead: the host read the validations up to Upto (0x4D 00).
type HostValidationsRead struct {
	At   time.Time
	Upto uint64
}

// HostRedeem is the host's verdict on the ticket in escrow (0x71): Status
// 00 credits Cents as cashable credits, 01 as restricted promotional
// credits of Pool expiring on Expiration (as the host sent it: a date
// MMDDYYYY, a number of days, 0 never), 80 and up refuse it (the SAS
// status the machine reports, already mapped from the host's transfer
// code).
type HostRedeem struct {
	At         time.Time
	Digits     string
	Status     byte
	Cents      int64
	Why        string
	Pool       uint16
	Expiration aft.Expiration
}

// HostValidationNumber is the host's 0x58: its system ID and number, or
// system ID 0 (denied: no ticket).
type HostValidationNumber struct {
	At       time.Time
	SystemID uint8
	Number   uint64
}

func (e TicketInserted) at() time.Time        { return e.At }
func (e HostValidationID) at() time.Time      { return e.At }
func (e HostTicketData) at() time.Time        { return e.At }
func (e HostValidationsRead) at() time.Time   { return e.At }
func (e HostRedeem) at() time.Time            { return e.At }
func (e HostValidationNumber) at() time.Time  { return e.At }
func (e HostValidationControl) at() time.Time { return e.At }

// ReturnTicket gives the ticket in the validator back to the player.
type ReturnTicket struct {
	Digits string
	Reason string
}

// StackTicket puts the redeemed ticket in the cashbox.
type StackTicket struct{ Digits string }

func (ReturnTicket) device() {}
func (StackTicket) device()  {}

// Ticket-in statuses the machine records (SAS table 15.12d).
const (
	RedeemCredited           byte = meters.RedeemedCashable
	RedeemCreditedRestricted byte = meters.RedeemedRestricted
	RedeemRefusedByHost      byte = 0x80
	RedeemBadTransfer        byte = 0x82
	RedeemUnableNow          byte = 0x87
	RedeemTimedOut           byte = 0x88
)

func (m *Machine) ticketTimeout() time.Duration {
	return max(m.cfg.TicketTimeout, MinTicketTimeout)
}

// ticketEvent steps this file's events; false for any other.
func (m *Machine) ticketEvent(ev Event, eff *Effects) bool {
	switch e := ev.(type) {
	case TicketInserted:
		m.playerAt = m.now
		m.ticketInserted(e, eff)
	case HostValidationID:
		cur := m.enhanced()
		next, err := cur.Set(e.ID, e.Seq)
		if err == nil && next != cur {
			m.record(eff, meters.ValidationConfig{At: m.ns(), ID: next.ID, Seq: next.Seq, HostSeq: next.HostSeq})
		}
	case HostTicketData:
		m.hostTicketData(e, eff)
	case HostValidationControl:
		m.hostValidationControl(e, eff)
	case HostValidationsRead:
		if e.Upto > m.st.TITO.ReadSeq && e.Upto <= m.st.TITO.ValSeq {
			m.record(eff, meters.ValidationRead{At: m.ns(), Upto: e.Upto})
		}
	case HostRedeem:
		m.hostRedeem(e, eff)
	case HostValidationNumber:
		m.hostValidationNumber(e, eff)
	default:
		return false
	}
	return true
}

// hostTicketData records what the host changed of the ticket data.
func (m *Machine) hostTicketData(e HostTicketData, eff *Effects) {
	d := meters.TicketData{}
	if old := m.st.TITO.Data; old != nil {
		d = *old
	}
	before := d
	if e.ExpiryDays != nil {
		d.ExpiryDays = *e.ExpiryDays
	}
	for _, f := range []struct {
		from *string
		to   *string
	}{{e.Location, &d.Location}, {e.Address1, &d.Address1}, {e.Address2, &d.Address2},
		{e.RestrictedTitle, &d.RestrictedTitle}, {e.DebitTitle, &d.DebitTitle}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	if d != before || m.st.TITO.Data == nil {
		d.At = m.ns()
		m.record(eff, d)
	}
}

// hostValidationControl records the control bits and expirations the
// host changed (0x7B). Turning a bit off takes effect from the next
// cash-out, handpay or ticket: what is under way finishes as it began.
func (m *Machine) hostValidationControl(e HostValidationControl, eff *Effects) {
	t := &m.st.TITO
	r := meters.ValidationControl{At: m.ns(), Off: meters.ControlOff(t.Off, e.Mask, e.States),
		On: meters.ControlOn(t.TurnedOn, e.Mask, e.States)}
	if e.CashableExpiry != 0 {
		cur := uint16(0)
		if t.Data != nil {
			cur = t.Data.ExpiryDays
		}
		if want := e.CashableExpiry % tito.ExpiryNever; want != cur || t.Data == nil {
			r.CashableExpiry = e.CashableExpiry
		}
	}
	if e.RestrictedExpiry != 0 && e.RestrictedExpiry != t.RestrictedExpiry {
		r.RestrictedExpiry = e.RestrictedExpiry
	}
	if r.Off != t.Off || r.On != t.TurnedOn || r.CashableExpiry != 0 || r.RestrictedExpiry != 0 {
		m.record(eff, r)
	}
}

// enhanced is the secure-enhanced configuration the ledger holds.
func (m *Machine) enhanced() tito.Enhanced {
	if c := m.st.TITO.Enhanced; c != nil {
		return tito.Enhanced{ID: c.ID, Seq: c.Seq, HostSeq: c.HostSeq}
	}
	return tito.Enhanced{}
}

// acceptsTicket says why a ticket cannot go in now ("" when it can).
func (m *Machine) acceptsTicket() string {
	t := &m.st.TITO
	switch {
	case !m.acceptsBills():
		return "the machine takes no money now"
	case !t.On(meters.CtlTicketRedemption):
		return "the host turned ticket redemption off"
	case t.Escrow != nil:
		return "another ticket is in escrow"
	case m.st.PendingTicket != nil || t.Requested != nil:
		return "a ticket is being printed"
	}
	return ""
}

// creditedHere is why a ticket already credited at this cabinet goes back.
const creditedHere = "already credited at this machine"

func (m *Machine) ticketInserted(e TicketInserted, eff *Effects) {
	why := m.acceptsTicket()
	if why == "" && len(e.Digits) != meters.TicketDigits {
		why = fmt.Sprintf("barcode of %d digits, want %d", len(e.Digits), meters.TicketDigits)
	}
	if why == "" && m.st.TITO.WasCredited(e.Digits) {
		// A copy of a ticket this cabinet credited: the ledger knows, and
		// refuses it whatever the host would say (its redemption of the
		// original may not even be committed yet).
		eff.Devices = append(eff.Devices, ReturnTicket{Digits: e.Digits, Reason: creditedHere})
		m.say("msg_ticket_used")
		return
	}
	if why == "" {
		if m.record(eff, meters.TicketEscrow{At: m.ns(), Digits: e.Digits}) {
			m.escrowSince = m.now
			m.say("msg_ticket_reading")
			return
		}
		why = "not recorded"
	}
	eff.Devices = append(eff.Devices, ReturnTicket{Digits: e.Digits, Reason: why})
	m.say("msg_ticket_rejected")
}

// hostRedeem ends the ticket in escrow as the host said. An answer for
// another ticket, or for one whose cycle already ended (a timeout came
// first), changes nothing: the host learns the outcome from 0x71 FF.
func (m *Machine) hostRedeem(e HostRedeem, eff *Effects) {
	esc := m.st.TITO.Escrow
	if esc == nil || esc.Digits != e.Digits {
		return
	}
	r := meters.TicketRedeem{At: m.ns(), Digits: e.Digits, Status: e.Status, Why: e.Why}
	switch {
	case e.Status != RedeemCredited && e.Status != RedeemCreditedRestricted:
	case e.Cents <= 0:
		r.Status, r.Why = RedeemRefusedByHost, "host authorised no amount"
	case m.st.TITO.WasCredited(e.Digits):
		// The host authorised a number this cabinet already credited
		// (escrowed before this build kept the set): refused, never paid
		// twice.
		r.Status, r.Why = RedeemRefusedByHost, creditedHere
	case e.Status == RedeemCreditedRestricted:
		r.Cents, r.Pool = e.Cents, e.Pool
		r.Status, r.Why, r.Expiration = m.restrictedTicketIn(e)
		if r.Status != RedeemCreditedRestricted {
			r.Cents, r.Pool, r.Expiration = 0, 0, 0
		}
	default:
		r.Cents = e.Cents
	}
	r.Once = r.Status == RedeemCredited || r.Status == RedeemCreditedRestricted
	m.endEscrow(r, eff)
}

// endEscrow records the end of the ticket cycle and moves the ticket.
func (m *Machine) endEscrow(r meters.TicketRedeem, eff *Effects) {
	if !m.record(eff, r) {
		return
	}
	if r.Status == RedeemCredited || r.Status == RedeemCreditedRestricted {
		eff.Devices = append(eff.Devices, StackTicket{Digits: r.Digits})
		m.say("msg_ticket_accepted", r.Cents)
		return
	}
	eff.Devices = append(eff.Devices, ReturnTicket{Digits: r.Digits, Reason: r.Why})
	if r.Why == creditedHere {
		m.say("msg_ticket_used")
		return
	}
	m.say("msg_ticket_rejected")
}

// ticketTick ends what waited for the host too long: the ticket in escrow
// goes back (88); a cash-out without its number is paid by hand.
func (m *Machine) ticketTick(eff *Effects) {
	t := &m.st.TITO
	if t.Escrow != nil && !m.now.Before(m.escrowSince.Add(m.ticketTimeout())) {
		m.endEscrow(meters.TicketRedeem{At: m.ns(), Digits: t.Escrow.Digits, Status: RedeemTimedOut,
			Why: fmt.Sprintf("no answer from the host within %v", m.ticketTimeout())}, eff)
	}
	if q := t.Requested; q != nil && !m.now.Before(m.requestSince.Add(m.ticketTimeout())) {
		m.validationDenied(q.Cents, fmt.Sprintf("no validation number from the host within %v", m.ticketTimeout()), eff)
	}
}

// validationDenied ends the request for a number without a ticket and pays
// the credits by hand (hostValidationNumber says why).
func (m *Machine) validationDenied(cents int64, why string, eff *Effects) {
	if m.record(eff, meters.ValidationDenied{At: m.ns(), Cents: cents, Why: why}) {
		m.cashOutByHand(eff)
	}
}

// ticketPowerUp restarts the host's time to answer what the ledger says
// is still waiting: the power loss was not the host's fault.
func (m *Machine) ticketPowerUp() {
	m.escrowSince, m.requestSince = m.now, m.now
}

// cashOutByHand pays the credit meter by an attendant (all of it but the
// restricted promotional credits, which stay).
func (m *Machine) cashOutByHand(eff *Effects) {
	credits := m.st.Redeemable()
	if credits > 0 && m.record(eff, meters.HandpayPending{At: m.ns(), Kind: meters.HandpayCancelled, Cents: credits}) {
		m.say("msg_handpay", credits)
	}
}

// ticketCashOut pays credits as a ticket with a number a host validates:
// secure-enhanced from the host's ID, or a request for the host's number
// (system). Without a host configuration a development build prints its
// own numbers (Config.DevTickets); a production one pays by hand.
func (m *Machine) ticketCashOut(credits int64, eff *Effects) {
	if !m.st.TITO.On(meters.CtlPrinterCashout) {
		m.cashOutByHand(eff) // the host turned the printer off as the cash-out device (0x7B)
		return
	}
	if m.cfg.Validation == ValidationSystem {
		if m.record(eff, meters.ValidationRequest{At: m.ns(), Cents: credits}) {
			m.requestSince = m.now
			m.say("msg_printing", credits)
		}
		return
	}
	co := meters.CashOut{At: m.ns(), Method: meters.OutTicket, Cents: credits}
	switch next, v, err := m.enhanced().Next(); {
	case err == nil:
		co.Ticket, co.Style, co.Seq = v.Digits(), meters.StyleSecureEnhanced, next.Seq
		co.TicketNo, co.ExpiryDays = m.ticketNumber(), m.expiryDays()
	case m.cfg.DevTickets:
		co.Ticket = m.validation()
	default:
		m.cashOutByHand(eff)
		return
	}
	m.printCashOut(co, eff)
}

// printCashOut records the ticket cash-out and prints it.
func (m *Machine) printCashOut(co meters.CashOut, eff *Effects) {
	if !m.record(eff, co) {
		return
	}
	m.reprint = false
	eff.Devices = append(eff.Devices, m.printTicket(false))
	m.say("msg_printing", co.Cents)
}

// hostValidationNumber prints the ticket the host numbered. A denial is
// what a timeout is: SAS 15.8 has the machine proceed after ten seconds
// without 0x58 "as though system validation had been denied", and pay the
// cash-out "by another means or abort it". Choice: another means, a
// handpay, for both: the player asked for the credits, and the attendant
// who pays them sees the amount the host would not put on a ticket.
func (m *Machine) hostValidationNumber(e HostValidationNumber, eff *Effects) {
	q := m.st.TITO.Requested
	if q == nil {
		return
	}
	if e.SystemID == 0 {
		m.validationDenied(q.Cents, "the host denied a validation number", eff)
		return
	}
	v, err := tito.System(e.SystemID, e.Number)
	if err != nil {
		m.validationDenied(q.Cents, "the host's number: "+err.Error(), eff)
		return
	}
	m.printCashOut(meters.CashOut{At: m.ns(), Method: meters.OutTicket, Cents: q.Cents, Ticket: v.Digits(),
		Style: meters.StyleSystem, TicketNo: m.ticketNumber(), ExpiryDays: m.expiryDays()}, eff)
}

// ticketNumber is the number printed on the next ticket, 1-9999 and on.
func (m *Machine) ticketNumber() uint16 {
	return uint16((m.st.TicketSeq + 1) % (tito.MaxTicketNumber + 1))
}

// expiryDays is what the host set with 0x7D (0 there: never).
func (m *Machine) expiryDays() uint16 {
	if d := m.st.TITO.Data; d != nil && d.ExpiryDays != 0 {
		return d.ExpiryDays
	}
	return tito.ExpiryNever
}

// ticketPrintData is what the printer prints besides the number and amount.
func (m *Machine) ticketPrintData(p *PrintTicket) {
	t := m.st.PendingTicket
	p.Style, p.TicketNo, p.ExpiryDays = t.Style, t.TicketNo, t.ExpiryDays
	p.Kind, p.Pool, p.Expiration = t.Kind, t.Pool, uint32(t.Expiration)
	p.Casino, p.Address = m.ticketTexts()
}

// ticketTexts are the location and address lines the host set (0x7C,
// 0x7D) for tickets and receipts.
func (m *Machine) ticketTexts() (casino string, address []string) {
	if d := m.st.TITO.Data; d != nil {
		casino = d.Location
		for _, a := range []string{d.Address1, d.Address2} {
			if a != "" {
				address = append(address, a)
			}
		}
	}
	return casino, address
}

// ReceiptValidation is what a handpay receipt prints of the handpay's
// validation (empty when it was not validated).
type ReceiptValidation struct {
	Validation string   `json:"validation,omitempty"` // 18 digits
	TicketNo   uint16   `json:"ticket_no,omitempty"`
	ExpiryDays uint16   `json:"expiry_days,omitempty"`
	Casino     string   `json:"casino,omitempty"`
	Address    []string `json:"address,omitempty"`
}

// validatesHandpays says whether a handpay reset now gets a validation
// number: in secure-enhanced validation, configured by the host, which
// has not turned handpay validation off (0x7B).
//
// Choice: not in system validation. Its request (0x57) has cash-out types
// for cashable and restricted tickets only, none for a handpay, so SAS
// gives the host no way to number one; the Aristocrat client validates
// handpays in secure-enhanced only, and reports handpay validation meters
// only there.
func (m *Machine) validatesHandpays() bool {
	return m.cfg.Validation != ValidationSystem && m.enhanced().Configured() && m.st.TITO.On(meters.CtlValidateHandpays)
}

// receiptsOn says whether a handpay the attendant confirms prints its
// receipt: the host may turn the printer off as the handpay receipt
// device (0x7B).
func (m *Machine) receiptsOn() bool { return m.st.TITO.On(meters.CtlPrinterHandpay) }

// handpayVoucher says whether the attendant's confirmation of the pending
// handpay prints a receipt with a validation number. The casino's ticket
// system records such a receipt as the cashier's to pay (tito/ticketsys),
// so the attendant must pay nothing at the machine: paying both ways would
// pay the win twice. Without a number the receipt is a record of what the
// attendant paid.
func (m *Machine) handpayVoucher() bool {
	return m.cfg.HandpayConfirm && m.receiptsOn() && m.validatesHandpays()
}

// recordHandpayReset records the reset of the pending handpay by who:
// validated with the next secure-enhanced number when handpays are
// (HandpayValidated, which raises 0x3E and is read with 0x4D), plain
// otherwise. receipt: a receipt is printed for it, which then carries the
// number; what it prints of the validation is returned.
func (m *Machine) recordHandpayReset(eff *Effects, who string, receipt bool) ReceiptValidation {
	h := m.st.Handpay
	if m.validatesHandpays() {
		if next, v, err := m.enhanced().Next(); err == nil {
			r := meters.HandpayValidated{At: m.ns(), Who: who, Cents: h.Cents, Ticket: v.Digits(), Seq: next.Seq,
				Receipt: receipt, ExpiryDays: m.expiryDays()}
			if receipt {
				r.TicketNo = m.ticketNumber()
			}
			if !m.record(eff, r) || !receipt {
				return ReceiptValidation{}
			}
			rv := ReceiptValidation{Validation: r.Ticket, TicketNo: r.TicketNo, ExpiryDays: r.ExpiryDays}
			rv.Casino, rv.Address = m.ticketTexts()
			return rv
		}
	}
	m.record(eff, meters.HandpayReset{At: m.ns(), Who: who, Cents: h.Cents})
	return ReceiptValidation{}
}

// ticketValidation says how a cash-out would be numbered now (View).
func (m *Machine) ticketValidation() string {
	switch {
	case m.cfg.Validation == ValidationSystem:
		return ValidationSystem
	case m.enhanced().Configured():
		return ValidationSecureEnhanced
	}
	return ""
}
