// Package metercode is the one table of SAS meter codes (Table C-7 of the
// SAS specification: the codes of long polls 2F, 6F and AF, which the
// fixed meter polls report too): what each code counts, in which unit,
// and the bill meters by face value. The ledger (meters), the cabinet's
// SAS port, the host side (sas/host, cmd/sashost) and the inspector's
// readout (meterread) all name and number meters from here. It imports
// nothing, so both meters and sas can depend on it.
//
// Sources: ../shared/spec/sas.md, and the public Aristocrat Monaco SAS
// client's SasMeterId list (Aristocrat.Sas.Client/Metering), which gives
// each code's unit; the test checks the table against both. The AFT
// meters A6–AD (debit and transfers to ticket), which that list leaves
// out, are from the meter lists of two independent open-source SAS
// implementations (C# and C++), which agree with it on the rest of A0–BD.
package metercode

import (
	"fmt"
	"slices"
)

// Code is a SAS meter code.
type Code uint16

// Unit is what a meter counts.
type Unit uint8

const (
	// Count is a number of occurrences (games, bills, tickets).
	Count Unit = iota + 1
	// Credits is an amount in credits of the machine's SAS accounting
	// denomination (the cabinet's is 0.01: credits are cents).
	Credits
	// Cents is an amount in cents whatever the denomination (5-byte
	// fields).
	Cents
)

func (u Unit) String() string {
	switch u {
	case Count:
		return "count"
	case Credits:
		return "credits"
	case Cents:
		return "cents"
	}
	return fmt.Sprintf("Unit(%d)", uint8(u))
}

// Meter codes with one meter each. The bill meters 0x40–0x57 have no
// constant: they are numbered by face value (Bill).
const (
	TotalCoinIn                 Code = 0x00
	TotalCoinOut                Code = 0x01
	TotalJackpot                Code = 0x02
	TotalHandPaidCancelled      Code = 0x03
	TotalCancelledCredits       Code = 0x04
	GamesPlayed                 Code = 0x05
	GamesWon                    Code = 0x06
	GamesLost                   Code = 0x07
	CoinAcceptorCredits         Code = 0x08
	HopperPaidCredits           Code = 0x09
	CoinsToDropCredits          Code = 0x0A
	BillsAcceptedCredits        Code = 0x0B
	CurrentCredits              Code = 0x0C
	SASCashableTicketInCents    Code = 0x0D
	SASCashableTicketOutCents   Code = 0x0E
	SASRestrictedTicketInCents  Code = 0x0F
	SASRestrictedTicketOutCents Code = 0x10
	SASCashableTicketsIn        Code = 0x11
	SASCashableTicketsOut       Code = 0x12
	SASRestrictedTicketsIn      Code = 0x13
	SASRestrictedTicketsOut     Code = 0x14
	TotalTicketIn               Code = 0x15
	TotalTicketOut              Code = 0x16
	ElectronicToMachine         Code = 0x17
	ElectronicToHost            Code = 0x18
	RestrictedPlayed            Code = 0x19
	NonRestrictedPlayed         Code = 0x1A
	CurrentRestrictedCredits    Code = 0x1B
	MachinePaidPaytableWin      Code = 0x1C
	MachinePaidProgressiveWin   Code = 0x1D
	MachinePaidExternalBonus    Code = 0x1E
	AttendantPaidPaytableWin    Code = 0x1F
	AttendantPaidProgressive    Code = 0x20
	AttendantPaidExternalBonus  Code = 0x21
	TotalWon                    Code = 0x22
	TotalHandPaid               Code = 0x23
	TotalDrop                   Code = 0x24
	GamesSincePowerReset        Code = 0x25
	GamesSinceDoorClosure       Code = 0x26
	BillsInStacker              Code = 0x3E
	BillValueInStacker          Code = 0x3F

	// AFT (electronic transfer) meters: each amount in cents is followed
	// by the count of the transfers that carried that kind of amount.
	AFTInHouseCashableIn           Code = 0xA0
	AFTInHouseCashableInCount      Code = 0xA1
	AFTInHouseRestrictedIn         Code = 0xA2
	AFTInHouseRestrictedInCount    Code = 0xA3
	AFTInHouseNonRestrictedIn      Code = 0xA4
	AFTInHouseNonRestrictedInCount Code = 0xA5
	AFTDebitIn                     Code = 0xA6
	AFTDebitInCount                Code = 0xA7
	AFTTicketCashable              Code = 0xA8
	AFTTicketCashableCount         Code = 0xA9
	AFTTicketRestricted            Code = 0xAA
	AFTTicketRestrictedCount       Code = 0xAB
	AFTDebitTicket                 Code = 0xAC
	AFTDebitTicketCount            Code = 0xAD
	AFTBonusCashableIn             Code = 0xAE
	AFTBonusCashableInCount        Code = 0xAF
	AFTBonusNonRestrictedIn        Code = 0xB0
	AFTBonusNonRestrictedInCount   Code = 0xB1
	AFTInHouseCashableOut          Code = 0xB8
	AFTInHouseCashableOutCount     Code = 0xB9
	AFTInHouseRestrictedOut        Code = 0xBA
	AFTInHouseRestrictedOutCount   Code = 0xBB
	AFTInHouseNonRestrictedOut     Code = 0xBC
	AFTInHouseNonRestrictedOutCnt  Code = 0xBD

	// Cabinet-local codes, not SAS codes: meters long poll 0x1C reports
	// that Table C-7 (as known here) has no code for. Never reported to
	// 6F/AF. Choice: sas.md names them only for poll 0x1C.
	SlotDoorOpenings Code = 0xFF01
	PowerResets      Code = 0xFF02
)

// LocalBase: codes at or above it are cabinet-local.
const LocalBase Code = 0xFF00

// firstBill is the code of the count of the first face value; the others
// follow in the order of billFaces.
const firstBill Code = 0x40

// billFaces are the face values, in whole currency units, of the bill
// meters 0x40–0x57 (SAS names them in dollars; the face value is what
// counts, so €5 is 0x42). They are also SAS's bill denomination codes
// 0–23 (long polls 08 and 48, the real-time bill event): code i is
// billFaces[i] units.
var billFaces = [...]uint64{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000,
	2_000, 2_500, 5_000, 10_000, 20_000, 25_000, 50_000, 100_000, 200_000, 250_000, 500_000, 1_000_000}

type def struct {
	name string
	unit Unit
}

var defs = map[Code]def{
	TotalCoinIn:                 {"total coin in", Credits},
	TotalCoinOut:                {"total coin out", Credits},
	TotalJackpot:                {"total jackpot", Credits},
	TotalHandPaidCancelled:      {"total hand-paid cancelled credits", Credits},
	TotalCancelledCredits:       {"total cancelled credits", Credits},
	GamesPlayed:                 {"games played", Count},
	GamesWon:                    {"games won", Count},
	GamesLost:                   {"games lost", Count},
	CoinAcceptorCredits:         {"total credits from coin acceptor", Credits},
	HopperPaidCredits:           {"total credits paid from hopper", Credits},
	CoinsToDropCredits:          {"total credits from coins to drop", Credits},
	BillsAcceptedCredits:        {"total bills accepted (credits)", Credits},
	CurrentCredits:              {"current credits", Credits},
	SASCashableTicketInCents:    {"total SAS cashable ticket in (cents)", Cents},
	SASCashableTicketOutCents:   {"total SAS cashable ticket out (cents)", Cents},
	SASRestrictedTicketInCents:  {"total SAS restricted ticket in (cents)", Cents},
	SASRestrictedTicketOutCents: {"total SAS restricted ticket out (cents)", Cents},
	SASCashableTicketsIn:        {"total SAS cashable tickets in", Count},
	SASCashableTicketsOut:       {"total SAS cashable tickets out", Count},
	SASRestrictedTicketsIn:      {"total SAS restricted tickets in", Count},
	SASRestrictedTicketsOut:     {"total SAS restricted tickets out", Count},
	TotalTicketIn:               {"total ticket in", Credits},
	TotalTicketOut:              {"total ticket out", Credits},
	ElectronicToMachine:         {"total electronic transfers to machine", Credits},
	ElectronicToHost:            {"total electronic transfers to host", Credits},
	RestrictedPlayed:            {"total restricted amount played", Credits},
	NonRestrictedPlayed:         {"total non-restricted amount played", Credits},
	CurrentRestrictedCredits:    {"current restricted credits", Credits},
	MachinePaidPaytableWin:      {"total machine-paid paytable win", Credits},
	MachinePaidProgressiveWin:   {"total machine-paid progressive win", Credits},
	MachinePaidExternalBonus:    {"total machine-paid external bonus win", Credits},
	AttendantPaidPaytableWin:    {"total attendant-paid paytable win", Credits},
	AttendantPaidProgressive:    {"total attendant-paid progressive win", Credits},
	AttendantPaidExternalBonus:  {"total attendant-paid external bonus win", Credits},
	TotalWon:                    {"total won", Credits},
	TotalHandPaid:               {"total hand paid", Credits},
	TotalDrop:                   {"total drop", Credits},
	GamesSincePowerReset:        {"games since power reset", Count},
	GamesSinceDoorClosure:       {"games since slot door closure", Count},
	BillsInStacker:              {"bills in stacker", Count},
	BillValueInStacker:          {"value of bills in stacker", Credits},

	AFTInHouseCashableIn:           {"in-house cashable transfers to machine (cents)", Cents},
	AFTInHouseCashableInCount:      {"in-house transfers to machine with cashable amounts", Count},
	AFTInHouseRestrictedIn:         {"in-house restricted transfers to machine (cents)", Cents},
	AFTInHouseRestrictedInCount:    {"in-house transfers to machine with restricted amounts", Count},
	AFTInHouseNonRestrictedIn:      {"in-house non-restricted transfers to machine (cents)", Cents},
	AFTInHouseNonRestrictedInCount: {"in-house transfers to machine with non-restricted amounts", Count},
	AFTDebitIn:                     {"debit transfers to machine (cents)", Cents},
	AFTDebitInCount:                {"debit transfers to machine", Count},
	AFTTicketCashable:              {"in-house cashable transfers to ticket (cents)", Cents},
	AFTTicketCashableCount:         {"in-house cashable transfers to ticket", Count},
	AFTTicketRestricted:            {"in-house restricted transfers to ticket (cents)", Cents},
	AFTTicketRestrictedCount:       {"in-house restricted transfers to ticket", Count},
	AFTDebitTicket:                 {"debit transfers to ticket (cents)", Cents},
	AFTDebitTicketCount:            {"debit transfers to ticket", Count},
	AFTBonusCashableIn:             {"bonus cashable transfers to machine (cents)", Cents},
	AFTBonusCashableInCount:        {"bonus transfers to machine with cashable amounts", Count},
	AFTBonusNonRestrictedIn:        {"bonus non-restricted transfers to machine (cents)", Cents},
	AFTBonusNonRestrictedInCount:   {"bonus transfers to machine with non-restricted amounts", Count},
	AFTInHouseCashableOut:          {"in-house cashable transfers to host (cents)", Cents},
	AFTInHouseCashableOutCount:     {"in-house transfers to host with cashable amounts", Count},
	AFTInHouseRestrictedOut:        {"in-house restricted transfers to host (cents)", Cents},
	AFTInHouseRestrictedOutCount:   {"in-house transfers to host with restricted amounts", Count},
	AFTInHouseNonRestrictedOut:     {"in-house non-restricted transfers to host (cents)", Cents},
	AFTInHouseNonRestrictedOutCnt:  {"in-house transfers to host with non-restricted amounts", Count},

	SlotDoorOpenings: {"slot door openings (cabinet-local code)", Count},
	PowerResets:      {"power resets (cabinet-local code)", Count},
}

// Bill returns the code of the count of bills of face value units of the
// currency (20 → 0x44), and false when SAS has no meter for that value.
func Bill(face uint64) (Code, bool) {
	i := slices.Index(billFaces[:], face)
	if i < 0 {
		return 0, false
	}
	return firstBill + Code(i), true
}

// BillFace returns the face value, in whole currency units, of the bills
// counted by c, and false when c is not a bill meter.
func (c Code) BillFace() (uint64, bool) {
	if c < firstBill || c >= firstBill+Code(len(billFaces)) {
		return 0, false
	}
	return billFaces[c-firstBill], true
}

// BillFaces returns the face values of SAS's bill denomination codes in
// code order (code i is BillFaces()[i] units), a copy.
func BillFaces() []uint64 { return slices.Clone(billFaces[:]) }

// Known reports whether the table has c.
func (c Code) Known() bool {
	_, named := defs[c]
	_, bill := c.BillFace()
	return named || bill
}

// Local reports whether c is a cabinet-local code, never sent as a SAS
// meter code.
func (c Code) Local() bool { return c >= LocalBase }

// Name returns what the meter counts ("meter 0xNNNN" for a code not in the
// table).
func (c Code) Name() string {
	if d, ok := defs[c]; ok {
		return d.name
	}
	if v, ok := c.BillFace(); ok {
		return fmt.Sprintf("bills of %d accepted", v)
	}
	return fmt.Sprintf("meter 0x%04X", uint16(c))
}

// Unit returns the meter's unit, 0 for a code not in the table.
func (c Code) Unit() Unit {
	if d, ok := defs[c]; ok {
		return d.unit
	}
	if _, ok := c.BillFace(); ok {
		return Count
	}
	return 0
}

func (c Code) String() string { return fmt.Sprintf("%04X %s", uint16(c), c.Name()) }

// Size returns the minimum width in bytes of the meter's BCD field: 5 for
// amounts in cents, 4 otherwise.
//
// Choice (sas.md: "amounts in cents 5 bytes"): the cents meters are those
// of the table in cents (0x0D–0x10), and beyond the table the even codes
// of 0x80–0x93 (tickets and validated handpays) and 0xA0–0xBD (electronic
// transfers), where each cents meter is followed by its count, as in the
// Aristocrat Monaco meter table.
func (c Code) Size() int {
	switch {
	case c.Unit() == Cents,
		c >= 0x80 && c <= 0x93 && c%2 == 0,
		c >= 0xA0 && c <= 0xBD && c%2 == 0:
		return 5
	}
	return 4
}

// All returns every SAS code of the table in increasing order, the
// cabinet-local codes excluded: what a host asks for to read "every
// meter".
func All() []Code {
	var out []Code
	for c := range defs {
		if !c.Local() {
			out = append(out, c)
		}
	}
	for i := range billFaces {
		out = append(out, firstBill+Code(i))
	}
	slices.Sort(out)
	return out
}
