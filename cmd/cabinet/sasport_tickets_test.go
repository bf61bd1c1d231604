package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
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

// handpayLedger is a configured secure-enhanced ledger with a printed
// ticket, a cancelled-credit handpay validated with its receipt and a
// jackpot handpay validated without one, and a ticket redeemed.
func handpayLedger(t *testing.T) (*meters.State, [3]tito.Validation) {
	t.Helper()
	st := meters.NewState()
	var v [3]tito.Validation
	for i := range v {
		v[i], _ = tito.SecureEnhanced(77, uint32(i+1))
	}
	for _, r := range []meters.Record{
		meters.MoneyIn{At: 1, Source: meters.SourceBill, Cents: 5000}, meters.ValidationConfig{At: 1, ID: 77},
		meters.CashOut{At: 2, Method: meters.OutTicket, Cents: 1000, Ticket: v[0].Digits(), Style: meters.StyleSecureEnhanced, Seq: 1, TicketNo: 1, ExpiryDays: 30},
		meters.TicketPrinted{At: 3, Ticket: v[0].Digits(), Cents: 1000},
		meters.HandpayPending{At: 4, Kind: meters.HandpayCancelled, Cents: 4000},
		meters.HandpayValidated{At: 5, Who: "att-1", Cents: 4000, Ticket: v[1].Digits(), Seq: 2, Receipt: true, TicketNo: 2, ExpiryDays: 30},
		meters.TicketEscrow{At: 6, Digits: portTicket}, meters.TicketRedeem{At: 7, Digits: portTicket, Cents: 900},
	} {
		if err := st.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	return st, v
}

// TestPortHandpayValidations: 4D reports a validated handpay with its SAS
// type (10 with a receipt, its ticket number and expiration; 60 without,
// FFFF and no expiration), and 50 counts each type from the ledger.
func TestPortHandpayValidations(t *testing.T) {
	st, v := handpayLedger(t)
	// A win at the handpay limit, planted: total won counts it from the
	// moment the machine owes it (the ledger's rule for a game's win).
	st.Handpay, st.OwedHandpay = &meters.HandpayPending{At: 8, Kind: meters.HandpayWin, Cents: 2500}, 0
	st.Meters[meters.TotalWon] += 2500
	if err := st.Apply(meters.HandpayValidated{At: 9, Who: "SAS host (0x94)", Cents: 2500, Ticket: v[2].Digits(), Seq: 3}); err != nil {
		t.Fatal(err)
	}
	p := newTestPort(t, st, machine.View{Mode: "idle"})
	read := func() sas.ValidationRecord {
		r, err := sas.DecodeValidationRecord(p.ticketPoll(sas.CmdEnhancedValidationInfo, sas.ValidationCurrent))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := read(); r.Type != sas.ValCashableTicket || r.Number != v[0].Uint() {
		t.Fatalf("first: %+v", r)
	}
	if r := read(); r.Type != sas.ValHandpayCancelledReceipt || r.Number != v[1].Uint() || r.Cents != 4000 || r.TicketNumber != 2 || r.Expiration != 30 || r.SystemID != 0 {
		t.Fatalf("handpay with receipt: %+v", r)
	}
	if r := read(); r.Type != sas.ValHandpayJackpot || r.Number != v[2].Uint() || r.TicketNumber != sas.NoTicketNumber || r.Expiration != sas.ExpirationNone {
		t.Fatalf("handpay without receipt: %+v", r)
	}
	meter := func(ty sas.ValidationType) sas.ValidationMeters {
		m, err := sas.DecodeValidationMeters(p.ticketPoll(sas.CmdValidationMeters, byte(ty)))
		if err != nil || m.Type != ty {
			t.Fatalf("50 %v: %+v %v", ty, m, err)
		}
		return m
	}
	for ty, want := range map[sas.ValidationType]sas.ValidationMeters{
		sas.ValCashableTicket:          {Count: 1, Cents: 1000},
		sas.ValHandpayCancelledReceipt: {Count: 1, Cents: 4000},
		sas.ValHandpayJackpot:          {Count: 1, Cents: 2500},
		sas.ValHandpayJackpotReceipt:   {},
		sas.ValHandpayCancelled:        {},
		sas.ValCashableRedeemed:        {Count: 1, Cents: 900},
		sas.ValRestrictedTicket:        {},
	} {
		if m := meter(ty); m.Count != want.Count || m.Cents != want.Cents {
			t.Errorf("50 %v: %d, %d cents; want %d, %d", ty, m.Count, m.Cents, want.Count, want.Cents)
		}
	}
}

// TestPortExtendedValidation: 7B answers the status after the change it
// orders (what the host may turn off, and what the cabinet does now) and
// the expirations; 7C orders the texts it names; A0's ticket redemption
// bit follows the ledger.
func TestPortExtendedValidation(t *testing.T) {
	st, _ := handpayLedger(t)
	p := newTestPort(t, st, machine.View{Mode: "idle"})
	p.receipts = true
	status := func(c sas.ValidationControl) sas.ValidationStatus {
		b, err := c.Encode()
		if err != nil {
			t.Fatal(err)
		}
		s, err := sas.DecodeValidationStatus(p.ticketPoll(sas.CmdExtendedValidationStatus, b...))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	all := sas.ValCtlPrinterCashout | sas.ValCtlPrinterHandpay | sas.ValCtlValidateHandpays | sas.ValCtlTicketRedemption | sas.ValCtlSecureEnhancedConfig
	if s := status(sas.ValidationControl{}); s.Status != all || s.CashableExpiration != 9999 || s.RestrictedExpiration != 9999 || len(p.pendingOrders()) != 0 {
		t.Fatalf("a read: %+v, orders %v", s, p.pendingOrders())
	}
	s := status(sas.ValidationControl{Mask: sas.ValCtlTicketRedemption | sas.ValCtlPrintRestricted, States: sas.ValCtlPrintRestricted, CashableExpiration: 60})
	if s.Status != all&^sas.ValCtlTicketRedemption|sas.ValCtlPrintRestricted || s.CashableExpiration != 60 {
		t.Fatalf("redemption off, restricted turned on: %+v", s)
	}
	o := p.pendingOrders()
	if len(o) != 1 || o[0].(machine.HostValidationControl).Mask&sas.ValCtlTicketRedemption == 0 || o[0].(machine.HostValidationControl).CashableExpiry != 60 {
		t.Fatalf("orders %+v", o)
	}
	// The machine records it: A0 then drops ticket redemption.
	if err := st.Apply(meters.ValidationControl{At: 9, Off: meters.CtlTicketRedemption, CashableExpiry: 60}); err != nil {
		t.Fatal(err)
	}
	p.publish(st)
	f, err := sas.DecodeEnabledFeatures(p.ticketPollA0())
	if err != nil || f.Bits[0] != sas.Feature1ValidationExtensions|sas.Feature1ValidationStyleBit1 {
		t.Fatalf("A0 with redemption off: %+v %v", f, err)
	}
	if s := status(sas.ValidationControl{}); s.Status != all&^sas.ValCtlTicketRedemption || s.CashableExpiration != 60 {
		t.Fatalf("7B read after the record: %+v", s)
	}

	texts, _ := sas.EncodeExtendedTicketData([]sas.TicketText{{Code: sas.TicketAddress2, Text: "1250 Lisboa"}, {Code: sas.TicketDebitTitle, Text: "DEBITO"}})
	if got := p.ticketPoll(sas.CmdSetExtendedTicketData, texts...); !bytes.Equal(got, []byte{1}) {
		t.Fatalf("7C: % X", got)
	}
	o = p.pendingOrders()
	d, ok := o[len(o)-1].(machine.HostTicketData)
	if !ok || d.Address2 == nil || *d.Address2 != "1250 Lisboa" || d.DebitTitle == nil || d.Location != nil || d.ExpiryDays != nil {
		t.Fatalf("7C order %+v", o[len(o)-1])
	}
}

// ticketPollA0 asks 0xA0 for game 0000.
func (p *testPort) ticketPollA0() []byte {
	p.t.Helper()
	reply := p.poll(sas.LongPollFrame(1, sas.CmdEnabledFeatures, 0, 0))
	p.poll([]byte{0x81})
	if len(reply) < 4 {
		p.t.Fatalf("A0: % X", reply)
	}
	return reply[2 : len(reply)-2]
}

// A restricted ticket printed is read with 0x4D as validation type 01 with
// its pool and expiration date, and counted by 0x50 type 01; a restricted
// ticket redeemed by type 81.
func TestPortRestrictedValidations(t *testing.T) {
	st := meters.NewState()
	v1, _ := tito.SecureEnhanced(77, 1)
	in := meters.AFTTransfer{At: 1, Transfer: aft.Transfer{ID: "IN-1", Code: aft.CodeFull, Type: aft.InHouseToMachine, Status: aft.StatusFull,
		Asset: 7, Requested: aft.Amounts{Restricted: 300}, Amounts: aft.Amounts{Restricted: 300}, PoolID: 9,
		Expiration: 10312026, RestrictedExpiration: 10312026, Position: 1, At: time.Unix(0, 1), ReceiptStatus: aft.ReceiptNone}}
	for _, r := range []meters.Record{in, meters.ValidationConfig{At: 1, ID: 77},
		meters.CashOut{At: 2, Method: meters.OutTicket, Cents: 300, Ticket: v1.Digits(), Style: meters.StyleSecureEnhanced, Seq: 1, TicketNo: 1,
			Kind: meters.KindRestricted, Pool: 9, Expiration: 10312026},
		meters.TicketPrinted{At: 3, Ticket: v1.Digits(), Cents: 300},
		meters.TicketEscrow{At: 4, Digits: portTicket},
		meters.TicketRedeem{At: 5, Digits: portTicket, Status: meters.RedeemedRestricted, Cents: 120, Pool: 3},
	} {
		if err := st.Apply(r); err != nil {
			t.Fatalf("%T: %v", r, err)
		}
	}
	p := newTestPort(t, st, machine.View{Mode: "idle"})
	r, err := sas.DecodeValidationRecord(p.ticketPoll(sas.CmdEnhancedValidationInfo, sas.ValidationCurrent))
	if err != nil || r.Type != sas.ValRestrictedTicket || r.Number != v1.Uint() || r.Cents != 300 || r.PoolID != 9 || r.Expiration != 10312026 {
		t.Fatalf("4D: %+v %v", r, err)
	}
	for ty, want := range map[sas.ValidationType]sas.ValidationMeters{
		sas.ValRestrictedTicket:   {Type: sas.ValRestrictedTicket, Count: 1, Cents: 300},
		sas.ValRestrictedRedeemed: {Type: sas.ValRestrictedRedeemed, Count: 1, Cents: 120},
		sas.ValCashableTicket:     {Type: sas.ValCashableTicket},
		sas.ValCashableRedeemed:   {Type: sas.ValCashableRedeemed},
	} {
		got, err := sas.DecodeValidationMeters(p.ticketPoll(sas.CmdValidationMeters, byte(ty)))
		if err != nil || got != want {
			t.Errorf("50 %v: %+v %v, want %+v", ty, got, err, want)
		}
	}
}

// 0x71 with transfer code 01 goes to the machine as restricted credits of
// the host's pool and expiration; 71 FF then reports 01.
func TestPortRestrictedRedeem(t *testing.T) {
	st := meters.NewState()
	if err := st.Apply(meters.TicketEscrow{At: 5, Digits: portTicket}); err != nil {
		t.Fatal(err)
	}
	p := newTestPort(t, st, machine.View{Mode: "idle"})
	d, _ := sas.EncodeValidationDigits(portTicket)
	b, err := sas.RedeemTicket{Code: sas.TransferRestricted, Cents: 400, ParsingCode: sas.ParsingBCD, Data: d,
		Restricted: true, Expiration: 30, PoolID: 12}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := redeemReply(t, p.ticketPoll(sas.CmdRedeemTicket, b...)); s != sas.RedeemPending {
		t.Fatalf("the answer: %v", s)
	}
	o := p.pendingOrders()
	if len(o) != 1 {
		t.Fatalf("orders %+v", o)
	}
	if r := o[0].(machine.HostRedeem); r.Status != machine.RedeemCreditedRestricted || r.Cents != 400 || r.Pool != 12 || r.Expiration != 30 {
		t.Fatalf("order %+v", r)
	}
	if err := st.Apply(meters.TicketRedeem{At: 6, Digits: portTicket, Status: meters.RedeemedRestricted, Cents: 400, Pool: 12}); err != nil {
		t.Fatal(err)
	}
	p.publish(st)
	if s, dg := redeemReply(t, p.ticketPoll(sas.CmdRedeemTicket, 0x01, 0xFF)); s != sas.RedeemedRestricted || dg != portTicket {
		t.Fatalf("71 FF after the credit: %v %s", s, dg)
	}
}
