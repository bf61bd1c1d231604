// The SAS port's validation extensions (SAS 6.02 15.2-15.4, 15.13): the
// ticket texts (7C, 7D), the control bits and expirations the host sets
// (7B), the validation meters (50), and the validation features 0xA0
// reports. Answered at once from the committed state; changes go to the
// machine as orders, which it records.

package main

import (
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito"
)

// setTicketData takes 0x7D: with two fields or more, the expiry (days, 00
// never); with more, the texts, of which an empty one leaves the cabinet's
// text as it is (sas.TicketData). The host ID is not kept: the cabinet
// has one host for tickets.
func (s *sasPort) setTicketData(data []byte, now time.Time) sas.Reply {
	d, err := sas.DecodeTicketData(data)
	if err != nil {
		s.log.Warn("SAS 0x7D refused", "err", err)
		return sas.NoReply()
	}
	if d.Fields >= 2 {
		days := uint16(d.Expiry)
		ev := machine.HostTicketData{At: now, ExpiryDays: &days}
		for i, t := range []struct {
			s   string
			dst **string
		}{{d.Location, &ev.Location}, {d.Address1, &ev.Address1}, {d.Address2, &ev.Address2}} {
			if d.Fields >= 3+i && t.s != "" {
				*t.dst = &t.s
			}
		}
		s.order(ev)
	}
	return sas.ReplyData(1) // ticket data valid
}

// setExtendedTicketData takes 0x7C: each element sets its text (an empty
// one clears it: unlike 0x7D, 7C names the texts it sends). No element is
// the host asking whether ticket data is set.
func (s *sasPort) setExtendedTicketData(data []byte, now time.Time) sas.Reply {
	texts, err := sas.DecodeExtendedTicketData(data)
	if err != nil {
		s.log.Warn("SAS 0x7C refused", "err", err)
		return sas.NoReply()
	}
	if len(texts) > 0 {
		ev := machine.HostTicketData{At: now}
		for _, t := range texts {
			text := t.Text
			switch t.Code {
			case sas.TicketLocation:
				ev.Location = &text
			case sas.TicketAddress1:
				ev.Address1 = &text
			case sas.TicketAddress2:
				ev.Address2 = &text
			case sas.TicketRestrictedTitle:
				ev.RestrictedTitle = &text
			case sas.TicketDebitTitle:
				ev.DebitTitle = &text
			}
		}
		s.order(ev)
	}
	return sas.ReplyData(1)
}

// extendedValidationStatus takes 0x7B and answers the status after it:
// the control bits the host may change on this cabinet (meters.
// CtlSettable) as it set them, the expirations it set (0000: unchanged).
//
// Choice: the status bits say what the cabinet does now, as the Aristocrat
// client's do: a bit is on when the host left it on and the cabinet can do
// it: cash-out tickets with a number a host validates (system validation,
// or secure-enhanced configured by 4C), handpay receipts when the
// cabinet prints them (--handpay-confirm), handpay validation in
// secure-enhanced configured, restricted tickets when the host turned them
// on (they default off) in secure-enhanced configured, ticket redemption.
// Foreign restricted amounts are never printed. The secure-enhanced
// configuration bit (15) reports 4C's state; the host's writes to it are
// ignored (a new 4C changes the configuration).
func (s *sasPort) extendedValidationStatus(t *meters.Tickets, data []byte, now time.Time) sas.Reply {
	c, err := sas.DecodeValidationControl(data)
	if err != nil {
		s.log.Warn("SAS 0x7B refused", "err", err)
		return sas.NoReply()
	}
	off, on := meters.ControlOff(t.Off, c.Mask, c.States), meters.ControlOn(t.TurnedOn, c.Mask, c.States)
	cashable, restricted := c.CashableExpiration, c.RestrictedExpiration
	if cashable == 0 {
		cashable = tito.ExpiryNever
		if t.Data != nil && t.Data.ExpiryDays != 0 {
			cashable = t.Data.ExpiryDays
		}
	}
	if restricted == 0 {
		restricted = tito.ExpiryNever
		if t.RestrictedExpiry != 0 {
			restricted = t.RestrictedExpiry
		}
	}
	if off != t.Off || on != t.TurnedOn || c.CashableExpiration != 0 || c.RestrictedExpiration != 0 {
		s.order(machine.HostValidationControl{At: now, Mask: c.Mask, States: c.States,
			CashableExpiry: c.CashableExpiration, RestrictedExpiry: c.RestrictedExpiration})
	}
	st := sas.ValidationStatus{Asset: s.asset(), Status: s.validationStatusBits(t, off, on),
		CashableExpiration: cashable, RestrictedExpiration: restricted}
	return encoded(s, sas.CmdExtendedValidationStatus, st.Encode)
}

// validationStatusBits are the 0x7B status bits with the host's bits off
// and its default-off bits turned on.
func (s *sasPort) validationStatusBits(t *meters.Tickets, off, turnedOn uint16) uint16 {
	after := meters.Tickets{Off: off, TurnedOn: turnedOn}
	on := after.On
	enhanced := s.validation != machine.ValidationSystem && t.Enhanced != nil
	var st uint16
	if on(meters.CtlPrinterCashout) && (s.validation == machine.ValidationSystem || enhanced) {
		st |= sas.ValCtlPrinterCashout
	}
	if on(meters.CtlPrinterHandpay) && s.receipts {
		st |= sas.ValCtlPrinterHandpay
	}
	if on(meters.CtlValidateHandpays) && enhanced {
		st |= sas.ValCtlValidateHandpays
	}
	if on(meters.CtlPrintRestricted) && enhanced {
		st |= sas.ValCtlPrintRestricted
	}
	if on(meters.CtlTicketRedemption) {
		st |= sas.ValCtlTicketRedemption
	}
	if enhanced {
		st |= sas.ValCtlSecureEnhancedConfig
	}
	return st
}

// asset is the machine's asset number (AFT's), 0 without AFT.
func (s *sasPort) asset() uint32 {
	if s.aft != nil {
		return s.aft.Config().Asset
	}
	return 0
}

// validationMeters answers 0x50 from the ledger's validation meters. The
// types this cabinet never validates (AFT tickets, non-restricted
// promotional redemptions) are answered zero, as SAS wants for a meter a
// machine knows to be zero. Count and amount roll over at their widths.
func (s *sasPort) validationMeters(t *meters.Tickets, data []byte) sas.Reply {
	ty, err := sas.DecodeValidationMetersPoll(data)
	if err != nil {
		s.log.Warn("SAS 0x50 refused", "err", err)
		return sas.NoReply()
	}
	m := sas.ValidationMeters{Type: ty}
	v, ok := meters.ValidationMeter{}, false
	switch i, kept := validationMeterOf[ty]; {
	case kept:
		v, ok = t.Meters[i], true
	case ty == sas.ValRestrictedTicket:
		v, ok = t.RestrictedOut, true
	case ty == sas.ValRestrictedRedeemed:
		v, ok = t.RestrictedIn, true
	}
	if ok {
		m.Count, m.Cents = v.Count%100_000_000, uint64(v.Cents)%(sas.MaxTicketAmount+1)
	}
	return encoded(s, sas.CmdValidationMeters, m.Encode)
}

// validationMeterOf maps SAS validation types onto the ledger's meters.
var validationMeterOf = map[sas.ValidationType]int{
	sas.ValCashableTicket:          meters.ValMeterCashableOut,
	sas.ValHandpayCancelledReceipt: meters.ValMeterCancelledReceipt,
	sas.ValHandpayJackpotReceipt:   meters.ValMeterJackpotReceipt,
	sas.ValHandpayCancelled:        meters.ValMeterCancelled,
	sas.ValHandpayJackpot:          meters.ValMeterJackpot,
	sas.ValCashableRedeemed:        meters.ValMeterCashableIn,
}

// ticketFeatures are the validation features of 0xA0 (features 1):
// validation extensions (7B, 7C and the 4D expirations are answered), the
// validation style the cabinet is set to (01 system, 10 secure-enhanced)
// and ticket redemption while the host leaves it on. SAS has no feature
// bit for the printer as cash-out device: 7B's status says it.
func (s *sasPort) ticketFeatures() byte {
	f := sas.Feature1ValidationExtensions
	if s.validation == machine.ValidationSystem {
		f |= sas.Feature1ValidationStyleBit0
	} else {
		f |= sas.Feature1ValidationStyleBit1
	}
	if snap := s.meters.Load(); snap == nil || snap.tito.On(meters.CtlTicketRedemption) {
		f |= sas.Feature1TicketRedemption
	}
	return f
}
