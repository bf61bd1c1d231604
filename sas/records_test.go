package sas

import (
	"reflect"
	"testing"

	"github.com/openegm/cabinet/meters"
)

func TestExceptionsForRecords(t *testing.T) {
	cases := []struct {
		rec  meters.Record
		want []Exception
	}{
		{meters.MoneyIn{Source: meters.SourceBill, Cents: 2000}, []Exception{0x4A}},
		{meters.MoneyIn{Source: meters.SourceBill, Cents: 50000}, []Exception{0x4E}},
		{meters.MoneyIn{Source: meters.SourceBill, Cents: 20000}, []Exception{0x50}},
		{meters.MoneyIn{Source: meters.SourceCoin, Cents: 200}, nil},
		{meters.GameStart{Game: 1}, []Exception{0x7E}},
		{meters.GameEnd{Game: 1}, []Exception{0x7F}},
		{meters.HandpayPending{Kind: meters.HandpayWin, Cents: 1}, []Exception{0x51}},
		{meters.HandpayReset{Who: "a", Cents: 1}, []Exception{0x52}},
		{meters.HandpayValidated{Who: "a", Cents: 1, Ticket: "001234567890123456", Seq: 1}, []Exception{0x52, 0x3E}},
		{meters.ValidationControl{Off: meters.CtlTicketRedemption}, nil},
		{meters.CashOut{Method: meters.OutTicket, Cents: 1, Ticket: "1"}, nil},
		{meters.TicketPrinted{Cents: 1, Ticket: "1"}, []Exception{0x3D}},
		{meters.Event{Code: meters.EventDoorOpen, Door: meters.DoorMain}, []Exception{0x11}},
		{meters.Event{Code: meters.EventDoorClose, Door: meters.DoorLogic}, []Exception{0x16}},
		{meters.Event{Code: meters.EventDoorOpen, Door: meters.DoorCashbox}, []Exception{0x19}},
		{meters.Event{Code: meters.EventDoorClose, Door: meters.DoorBelly}, []Exception{0x1E}},
		{meters.Event{Code: meters.EventDoorOpen, Door: meters.DoorDrop}, []Exception{0x13}},
		{meters.Event{Code: meters.EventPowerUp}, []Exception{0x17}},
		{meters.Event{Code: meters.EventTilt, Tilt: "bill_jam"}, []Exception{0x28}},
		{meters.Event{Code: meters.EventTilt, Tilt: "printer", Detail: "paper_out"}, []Exception{0x61}},
		{meters.Event{Code: meters.EventTilt, Tilt: "printer", Detail: "offline"}, []Exception{0x60}},
		{meters.Event{Code: meters.EventTilt, Tilt: "rng"}, []Exception{0x20}},
		{meters.Event{Code: meters.EventTiltClear, Tilt: "rng"}, nil},
		{meters.Service{Who: "t", Role: "technician", Action: meters.ActionLogin}, []Exception{0x84}},
		{meters.Service{Who: "t", Role: "inspector", Action: "logout"}, []Exception{0x83}},
		{meters.Service{Who: "t", Role: "operator", Action: meters.ActionPINFailed}, nil},
		{meters.Config{Who: "t", Key: "denom", Value: "5"}, []Exception{0x3C}},
		{meters.RAMClear{Who: "t", Why: "x"}, []Exception{0x3A}},
		{meters.Event{Code: meters.EventLinkDown}, []Exception{0x53}},
		{meters.Event{Code: meters.EventLinkUp}, nil},
		{meters.ProgressiveHit{Game: 3, Level: 2, Cents: 100}, []Exception{0x56}},
		{meters.ProgressiveAward{Game: 3, Level: 2, Cents: 100}, []Exception{0x54}},
		{meters.ProgressiveAward{Game: 3, Level: 2, Cents: 100, Attendant: true}, nil},
	}
	for _, c := range cases {
		if got := ExceptionsFor(c.rec); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v %+v: got %v, want %v", c.rec.Type(), c.rec, got, c.want)
		}
	}
}
