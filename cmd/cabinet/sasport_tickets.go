// The SAS port's ticket long polls (SAS 6.02 section 15): the host's
// validation configuration (4C, 7D), the validations it reads (4D),
// system validation (57, 58) and ticket in (70, 71). Each is answered at
// once from the committed state (the serve loop never waits on the
// owner); what changes the machine goes to it as an order, and what must
// survive a power loss is recorded by the machine.

package main

import (
	"strconv"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito"
)

// ticketLink is the port's memory of a ticket cycle between a reply and
// the commit that follows it (under mu): the validations read, and the
// ticket in escrow the host has answered.
type ticketLink struct {
	readUpto uint64
	answered string // digits of the ticket answered with 0x71, this escrow
	escrowAt int64  // the escrow record's time: a new escrow of the same ticket is a new cycle
}

// ticketPoll answers the ticket long polls; false for any other.
func (s *sasPort) ticketPoll(r sas.Request, now time.Time) (sas.Reply, bool) {
	snap := s.meters.Load()
	if snap == nil {
		snap = &meterSnap{}
	}
	t := &snap.tito
	switch r.Cmd {
	case sas.CmdSetValidationID:
		return s.setValidationID(t, r.Data, now), true
	case sas.CmdEnhancedValidationInfo:
		return s.validationInfo(t, r.Data, now), true
	case sas.CmdSetTicketData:
		return s.setTicketData(r.Data, now), true
	case sas.CmdSetExtendedTicketData:
		return s.setExtendedTicketData(r.Data, now), true
	case sas.CmdExtendedValidationStatus:
		return s.extendedValidationStatus(t, r.Data, now), true
	case sas.CmdValidationMeters:
		return s.validationMeters(t, r.Data), true
	case sas.CmdPendingCashoutInfo:
		p := sas.PendingCashout{Type: sas.CashoutNotWaiting}
		if q := t.Requested; q != nil {
			p = sas.PendingCashout{Type: sas.CashoutCashable, Cents: uint64(q.Cents)}
		}
		return encoded(s, r.Cmd, p.Encode), true
	case sas.CmdReceiveValidationNumber:
		v, err := sas.DecodeValidationNumber(r.Data)
		if err != nil {
			s.log.Warn("SAS 0x58 refused", "err", err)
			return sas.NoReply(), true
		}
		if t.Requested == nil {
			return sas.ReplyData(sas.ReceiveValidationNotInOut), true
		}
		if !v.Denied() {
			if _, err := tito.System(v.SystemID, v.Number); err != nil {
				return sas.ReplyData(sas.ReceiveValidationRejected), true
			}
		}
		s.order(machine.HostValidationNumber{At: now, SystemID: v.SystemID, Number: v.Number})
		return sas.ReplyData(sas.ReceiveValidationAck), true
	case sas.CmdTicketValidationData:
		d := sas.TicketValidationData{Status: sas.TicketNone}
		if e := t.Escrow; e != nil {
			data, err := sas.EncodeValidationDigits(e.Digits)
			if err != nil {
				return sas.NoReply(), true
			}
			// The amount is the host's to say: the validator reads only the barcode.
			d = sas.TicketValidationData{Status: sas.TicketInEscrow, ParsingCode: sas.ParsingBCD, Data: data}
		}
		return encoded(s, r.Cmd, d.Encode), true
	case sas.CmdRedeemTicket:
		return s.redeemTicket(t, r.Data, now), true
	}
	return sas.Reply{}, false
}

// encoded replies with enc's data, or nothing if it does not encode.
func encoded(s *sasPort, cmd byte, enc func() ([]byte, error)) sas.Reply {
	b, err := enc()
	if err != nil {
		s.log.Error("SAS ticket reply", "cmd", cmd, "err", err)
		return sas.NoReply()
	}
	return sas.ReplyData(b...)
}

// setValidationID answers 0x4C with the configuration after it: the host
// sets the ID at every start, and a repeat of the same ID and sequence
// keeps the sequence where the tickets since have taken it (tito.Enhanced).
func (s *sasPort) setValidationID(t *meters.Tickets, data []byte, now time.Time) sas.Reply {
	v, err := sas.DecodeValidationID(data)
	if err != nil {
		s.log.Warn("SAS 0x4C refused", "err", err)
		return sas.NoReply()
	}
	var cur tito.Enhanced
	if c := t.Enhanced; c != nil {
		cur = tito.Enhanced{ID: c.ID, Seq: c.Seq, HostSeq: c.HostSeq}
	}
	next, err := cur.Set(v.MachineID, v.Sequence)
	if err != nil {
		s.log.Warn("SAS 0x4C refused", "err", err)
		return sas.NoReply()
	}
	if next != cur {
		s.order(machine.HostValidationID{At: now, ID: v.MachineID, Seq: v.Sequence})
	}
	return encoded(s, sas.CmdSetValidationID, sas.ValidationID{MachineID: next.ID, Sequence: next.Seq}.Encode)
}

// validationInfo answers 0x4D: 00 the oldest unread validation, marked
// read (the machine records it; until then the port remembers), FF the
// same without marking it, 01-1F the one at that index of the last 31.
func (s *sasPort) validationInfo(t *meters.Tickets, data []byte, now time.Time) sas.Reply {
	fn, err := sas.DecodeEnhancedValidationPoll(data)
	if err != nil {
		s.log.Warn("SAS 0x4D refused", "err", err)
		return sas.NoReply()
	}
	last := t.Validations[max(0, len(t.Validations)-int(sas.ValidationMaxIndex)):]
	rec := sas.ValidationRecord{}
	switch fn {
	case sas.ValidationCurrent, sas.ValidationLookAhead:
		read := max(t.ReadSeq, s.tickets.readUpto)
		for i, v := range last {
			if v.Seq <= read {
				continue
			}
			rec = validationRecord(v, i+1)
			if fn == sas.ValidationCurrent {
				s.tickets.readUpto = v.Seq
				s.order(machine.HostValidationsRead{At: now, Upto: v.Seq})
			}
			break
		}
	default:
		if i := int(fn); i <= len(last) {
			rec = validationRecord(last[i-1], i)
		}
	}
	return encoded(s, sas.CmdEnhancedValidationInfo, rec.Encode)
}

// validationRecord is v as 0x4D reports it. A handpay validated without a
// receipt printed no ticket: ticket number FFFF and no expiration, as
// table 15.13c's "no receipt" types say.
func validationRecord(v meters.Validation, index int) sas.ValidationRecord {
	at := time.Unix(0, v.At)
	sys, _ := strconv.Atoi(v.Ticket[:2])
	num, _ := strconv.ParseUint(v.Ticket[2:], 10, 64)
	r := sas.ValidationRecord{Type: validationType(v), Index: byte(index),
		At:     time.Date(at.Year(), at.Month(), at.Day(), at.Hour(), at.Minute(), at.Second(), 0, time.UTC),
		Number: num, Cents: uint64(v.Cents), TicketNumber: v.TicketNo, SystemID: byte(sys), Expiration: uint32(v.ExpiryDays)}
	if v.Handpay != "" && !v.Receipt {
		r.TicketNumber, r.Expiration = sas.NoTicketNumber, sas.ExpirationNone
	}
	if v.Kind == meters.KindRestricted {
		// The restricted credits' pool, and their date when they have one
		// (4 BCD MMDDYYYY, as AFT's expirations), else the days printed.
		r.PoolID = v.Pool
		if v.Expiration != 0 {
			r.Expiration = uint32(v.Expiration)
		}
	}
	return r
}

// validationType is the SAS type (table 15.13c) of a validation.
func validationType(v meters.Validation) sas.ValidationType {
	switch {
	case v.Kind == meters.KindRestricted:
		return sas.ValRestrictedTicket
	case v.Handpay == "":
		return sas.ValCashableTicket
	case v.Handpay == meters.HandpayCancelled && v.Receipt:
		return sas.ValHandpayCancelledReceipt
	case v.Handpay == meters.HandpayCancelled:
		return sas.ValHandpayCancelled
	case v.Receipt:
		return sas.ValHandpayJackpotReceipt
	}
	return sas.ValHandpayJackpot
}

// redeemTicket answers 0x71. FF: the cycle's status from the ledger (20
// waiting, 40 crediting, else the last redemption's end). A verdict on the
// ticket in escrow is answered 40 (credit) or 80 (refused) and goes to the
// machine, which records the end and raises 0x68; a verdict on another
// ticket is 81, a second one in the same cycle C0.
func (s *sasPort) redeemTicket(t *meters.Tickets, data []byte, now time.Time) sas.Reply {
	req, err := sas.DecodeRedeemTicket(data)
	if err != nil {
		s.log.Warn("SAS 0x71 refused", "err", err)
		return sas.NoReply()
	}
	e := t.Escrow
	if e != nil && e.At != s.tickets.escrowAt {
		s.tickets.escrowAt, s.tickets.answered = e.At, ""
	}
	reply := func(st sas.RedemptionStatus, cents int64, digits string) sas.Reply {
		d, err := sas.EncodeValidationDigits(digits)
		if err != nil {
			return sas.NoReply()
		}
		return encoded(s, sas.CmdRedeemTicket, sas.RedeemReply{Status: st, Cents: uint64(cents), ParsingCode: sas.ParsingBCD, Data: d}.Encode)
	}
	if req.Code == sas.TransferStatusRequest {
		switch l := t.LastRedeem; {
		case e != nil && s.tickets.answered == e.Digits:
			return reply(sas.RedeemPending, 0, e.Digits)
		case e != nil:
			return reply(sas.RedeemWaiting71, 0, e.Digits)
		case l != nil:
			return reply(sas.RedemptionStatus(l.Status), l.Cents, l.Digits)
		}
		return encoded(s, sas.CmdRedeemTicket, sas.RedeemReply{Status: sas.RedeemNoValidationInfo}.Encode)
	}
	if e == nil || s.tickets.answered == e.Digits {
		return encoded(s, sas.CmdRedeemTicket, sas.RedeemReply{Status: sas.RedeemNotThisCycle}.Encode)
	}
	digits, err := sas.ValidationDigits(req.Data)
	if err != nil || digits != e.Digits {
		return reply(sas.RedeemNumberMismatch, 0, e.Digits)
	}
	s.tickets.answered = e.Digits
	order := machine.HostRedeem{At: now, Digits: e.Digits, Status: machine.RedeemCredited, Cents: int64(req.Cents)}
	switch {
	case req.Code == sas.TransferCashable && req.Cents > 0:
		s.order(order)
		return reply(sas.RedeemPending, int64(req.Cents), e.Digits)
	case req.Code == sas.TransferRestricted && req.Cents > 0:
		// Restricted credits of the ticket's pool and expiration; the
		// machine refuses the pool conflict (87) when it records the end.
		order.Status, order.Pool, order.Expiration = machine.RedeemCreditedRestricted, req.PoolID, aft.Expiration(req.Expiration)
		s.order(order)
		return reply(sas.RedeemPending, int64(req.Cents), e.Digits)
	case req.Code.Accepts():
		// Choice: non-restricted promotional tickets are not taken; no
		// cabinet here prints them.
		order.Status, order.Cents, order.Why = machine.RedeemBadTransfer, 0, "not a cashable or restricted ticket: "+req.Code.String()
	default:
		order.Status, order.Cents, order.Why = machine.RedeemRefusedByHost, 0, "host: "+req.Code.String()
	}
	s.order(order)
	return reply(sas.RedemptionStatus(order.Status), 0, e.Digits)
}
