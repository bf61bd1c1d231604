package main

import (
	"bytes"
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito"
)

const portTicket = "001234567890123456"

// ticketPoll sends a ticket long poll and returns the reply's data
// (nil: silence), with a general poll after it so that the next poll is
// not taken for a resend.
func (p *testPort) ticketPoll(cmd byte, data ...byte) []byte {
	p.t.Helper()
	frame, err := sas.TicketPollFrame(1, cmd, data...)
	if err != nil {
		p.t.Fatal(err)
	}
	reply := p.poll(frame)
	p.poll([]byte{0x81})
	if len(reply) == 0 {
		return nil
	}
	if !sas.CheckCRC(reply) || reply[1] != cmd {
		p.t.Fatalf("reply % X to % X", reply, frame)
	}
	return reply[2 : len(reply)-2]
}

func redeemPoll(t *testing.T, code sas.TransferCode, cents uint64, digits string) []byte {
	t.Helper()
	d, err := sas.EncodeValidationDigits(digits)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sas.RedeemTicket{Code: code, Cents: cents, ParsingCode: sas.ParsingBCD, Data: d}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func redeemReply(t *testing.T, data []byte) (sas.RedemptionStatus, string) {
	t.Helper()
	r, err := sas.DecodeRedeemReply(data)
	if err != nil {
		t.Fatalf("% X: %v", data, err)
	}
	d, _ := sas.ValidationDigits(r.Data)
	return r.Status, d
}

func TestPortTicketInCycle(t *testing.T) {
	st := meters.NewState()
	if err := st.Apply(meters.TicketEscrow{At: 5, Digits: portTicket}); err != nil {
		t.Fatal(err)
	}
	p := newTestPort(t, st, machine.View{Mode: "idle"})
	v, err := sas.DecodeTicketValidationData(p.ticketPoll(sas.CmdTicketValidationData))
	if d, _ := sas.ValidationDigits(v.Data); err != nil || v.Status != sas.TicketInEscrow || d != portTicket || v.Cents != 0 {
		t.Fatalf("70: %+v %v", v, err)
	}
	if s, d := redeemReply(t, p.ticketPoll(sas.CmdRedeemTicket, 0x01, 0xFF)); s != sas.RedeemWaiting71 || d != portTicket {
		t.Fatalf("71 FF before the answer: %v %s", s, d)
	}
	if s, _ := redeemReply(t, p.ticketPoll(sas.CmdRedeemTicket, redeemPoll(t, sas.TransferCashable, 900, "009999999999999999")...)); s != sas.RedeemNumberMismatch {
		t.Fatalf("another ticket's digits: %v", s)
	}
	if len(p.pendingOrders()) != 0 {
		t.Fatal("a mismatch went to the machine")
	}
	if s, _ := redeemReply(t, p.ticketPoll(sas.CmdRedeemTicket, redeemPoll(t, sas.TransferCashable, 900, portTicket)...)); s != sas.RedeemPending {
		t.Fatalf("the answer: %v", s)
	}
	o := p.pendingOrders()
	if len(o) != 1 || o[0].(machine.HostRedeem).Cents != 900 || o[0].(machine.HostRedeem).Digits != portTicket {
		t.Fatalf("orders %+v", o)
	}
	if s, _ := redeemReply(t, p.ticketPoll(sas.CmdRedeemTicket, redeemPoll(t, sas.TransferCashable, 900, portTicket)...)); s != sas.RedeemNotThisCycle {
		t.Fatalf("a second answer in the cycle: %v", s)
	}
	if s, _ := redeemReply(t, p.ticketPoll(sas.CmdRedeemTicket, 0x01, 0xFF)); s != sas.RedeemPending {
		t.Fatalf("71 FF while crediting: %v", s)
	}
	// The machine committed the credit: 71 FF reports it from the ledger.
	if err := st.Apply(meters.TicketRedeem{At: 6, Digits: portTicket, Cents: 900}); err != nil {
		t.Fatal(err)
	}
	p.publish(st)
	r, err := sas.DecodeRedeemReply(p.ticketPoll(sas.CmdRedeemTicket, 0x01, 0xFF))
	if d, _ := sas.ValidationDigits(r.Data); err != nil || r.Status != sas.RedeemedCashable || r.Cents != 900 || d != portTicket {
		t.Fatalf("71 FF after the credit: %+v %v", r, err)
	}
	if v, _ := sas.DecodeTicketValidationData(p.ticketPoll(sas.CmdTicketValidationData)); v.Status != sas.TicketNone {
		t.Fatalf("70 with no escrow: %+v", v)
	}
}

func TestPortValidationRecords(t *testing.T) {
	st := meters.NewState()
	v1, _ := tito.SecureEnhanced(77, 1)
	v2, _ := tito.SecureEnhanced(77, 2)
	for _, r := range []meters.Record{
		meters.MoneyIn{At: 1, Source: meters.SourceTicket, Cents: 700}, meters.ValidationConfig{At: 1, ID: 77},
		meters.CashOut{At: 2, Method: meters.OutTicket, Cents: 300, Ticket: v1.Digits(), Style: meters.StyleSecureEnhanced, Seq: 1, TicketNo: 1, ExpiryDays: 30},
		meters.TicketPrinted{At: 3, Ticket: v1.Digits(), Cents: 300},
		meters.CashOut{At: 4, Method: meters.OutTicket, Cents: 400, Ticket: v2.Digits(), Style: meters.StyleSecureEnhanced, Seq: 2, TicketNo: 2, ExpiryDays: 30},
		meters.TicketPrinted{At: 5, Ticket: v2.Digits(), Cents: 400},
	} {
		if err := st.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	p := newTestPort(t, st, machine.View{Mode: "idle"})
	rec := func(fn byte) sas.ValidationRecord {
		r, err := sas.DecodeValidationRecord(p.ticketPoll(sas.CmdEnhancedValidationInfo, fn))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := rec(sas.ValidationLookAhead); r.Number != v1.Uint() || r.Cents != 300 {
		t.Fatalf("FF: %+v", r)
	}
	if r := rec(sas.ValidationCurrent); r.Number != v1.Uint() || r.Index != 1 || r.TicketNumber != 1 || r.Expiration != 30 {
		t.Fatalf("00 first: %+v", r)
	}
	if r := rec(sas.ValidationCurrent); r.Number != v2.Uint() || r.Index != 2 || r.Cents != 400 {
		t.Fatalf("00 second: %+v", r)
	}
	if r := rec(sas.ValidationCurrent); !r.IsZero() {
		t.Fatalf("00 when all are read: %+v", r)
	}
	if r := rec(1); r.Number != v1.Uint() {
		t.Fatalf("01: %+v", r)
	}
	var reads []uint64
	for _, o := range p.pendingOrders() {
		reads = append(reads, o.(machine.HostValidationsRead).Upto)
	}
	if len(reads) != 2 || reads[0] != 1 || reads[1] != 2 {
		t.Fatalf("reads ordered %v, want [1 2]", reads)
	}
	// 4C: a repeat of the configuration the ledger has changes nothing.
	id, _ := sas.ValidationID{MachineID: 77, Sequence: 0}.Encode()
	got, err := sas.DecodeValidationID(p.ticketPoll(sas.CmdSetValidationID, id...))
	if err != nil || got.MachineID != 77 || got.Sequence != 2 || len(p.pendingOrders()) != 2 {
		t.Fatalf("4C repeat: %+v %v, orders %d", got, err, len(p.pendingOrders()))
	}
	if !bytes.Equal(p.ticketPoll(sas.CmdPendingCashoutInfo), []byte{sas.CashoutNotWaiting, 0, 0, 0, 0, 0}) {
		t.Fatal("57 with nothing waiting")
	}
}
