package aft

import "github.com/openegm/cabinet/sas/metercode"

// The AFT meter codes of SAS table C-7 (6.02), each an amount in cents (5
// BCD bytes) followed by the count of transfers that included that kind
// of amount; sas/metercode's table names them (and says where they come
// from). B2–B7 are not defined by the public lists; debit to a ticket
// (AC, AD) is listed for completeness: the cabinet prints no transfer
// ticket, so those stay 0.
const (
	MeterInHouseCashableIn          = metercode.AFTInHouseCashableIn
	MeterInHouseCashableInCount     = metercode.AFTInHouseCashableInCount
	MeterInHouseRestrictedIn        = metercode.AFTInHouseRestrictedIn
	MeterInHouseRestrictedInCount   = metercode.AFTInHouseRestrictedInCount
	MeterInHouseNonRestrictedIn     = metercode.AFTInHouseNonRestrictedIn
	MeterInHouseNonRestrictedCount  = metercode.AFTInHouseNonRestrictedInCount
	MeterDebitIn                    = metercode.AFTDebitIn
	MeterDebitInCount               = metercode.AFTDebitInCount
	MeterTicketCashable             = metercode.AFTTicketCashable
	MeterTicketCashableCount        = metercode.AFTTicketCashableCount
	MeterTicketRestricted           = metercode.AFTTicketRestricted
	MeterTicketRestrictedCount      = metercode.AFTTicketRestrictedCount
	MeterDebitTicket                = metercode.AFTDebitTicket
	MeterDebitTicketCount           = metercode.AFTDebitTicketCount
	MeterBonusCashableIn            = metercode.AFTBonusCashableIn
	MeterBonusCashableInCount       = metercode.AFTBonusCashableInCount
	MeterBonusNonRestrictedIn       = metercode.AFTBonusNonRestrictedIn
	MeterBonusNonRestrictedInCount  = metercode.AFTBonusNonRestrictedInCount
	MeterInHouseCashableOut         = metercode.AFTInHouseCashableOut
	MeterInHouseCashableOutCount    = metercode.AFTInHouseCashableOutCount
	MeterInHouseRestrictedOut       = metercode.AFTInHouseRestrictedOut
	MeterInHouseRestrictedOutCount  = metercode.AFTInHouseRestrictedOutCount
	MeterInHouseNonRestrictedOut    = metercode.AFTInHouseNonRestrictedOut
	MeterInHouseNonRestrictedOutCnt = metercode.AFTInHouseNonRestrictedOutCnt
)

// MeterInfo names an AFT meter.
type MeterInfo struct {
	Code metercode.Code
	Name string
	Unit metercode.Unit
}

// Meters lists the meters the AFT fold keeps, in code order, named as
// sas/metercode's table names them.
func Meters() []MeterInfo {
	codes := []metercode.Code{metercode.ElectronicToMachine, metercode.ElectronicToHost,
		MeterInHouseCashableIn, MeterInHouseCashableInCount, MeterInHouseRestrictedIn, MeterInHouseRestrictedInCount,
		MeterInHouseNonRestrictedIn, MeterInHouseNonRestrictedCount, MeterDebitIn, MeterDebitInCount,
		MeterTicketCashable, MeterTicketCashableCount, MeterTicketRestricted, MeterTicketRestrictedCount,
		MeterDebitTicket, MeterDebitTicketCount, MeterBonusCashableIn, MeterBonusCashableInCount,
		MeterBonusNonRestrictedIn, MeterBonusNonRestrictedInCount, MeterInHouseCashableOut, MeterInHouseCashableOutCount,
		MeterInHouseRestrictedOut, MeterInHouseRestrictedOutCount, MeterInHouseNonRestrictedOut, MeterInHouseNonRestrictedOutCnt}
	out := make([]MeterInfo, len(codes))
	for i, c := range codes {
		out[i] = MeterInfo{c, c.Name(), c.Unit()}
	}
	return out
}

// kindMeters are, for a transfer type, the (cents, count) meter codes of
// its cashable, restricted and non-restricted amounts (0: none).
type kindMeters [3][2]metercode.Code

var typeMeters = map[TransferType]kindMeters{
	InHouseToMachine: {{MeterInHouseCashableIn, MeterInHouseCashableInCount},
		{MeterInHouseRestrictedIn, MeterInHouseRestrictedInCount},
		{MeterInHouseNonRestrictedIn, MeterInHouseNonRestrictedCount}},
	// A debit is cashable money (SAS has no other debit amount).
	DebitToMachine: {{MeterDebitIn, MeterDebitInCount}, {}, {}},
	DebitToTicket:  {{MeterDebitTicket, MeterDebitTicketCount}, {}, {}},
	BonusCoinOut: {{MeterBonusCashableIn, MeterBonusCashableInCount}, {},
		{MeterBonusNonRestrictedIn, MeterBonusNonRestrictedInCount}},
	BonusJackpot: {{MeterBonusCashableIn, MeterBonusCashableInCount}, {},
		{MeterBonusNonRestrictedIn, MeterBonusNonRestrictedInCount}},
	InHouseToTicket: {{MeterTicketCashable, MeterTicketCashableCount},
		{MeterTicketRestricted, MeterTicketRestrictedCount}, {}},
	InHouseToHost: {{MeterInHouseCashableOut, MeterInHouseCashableOutCount},
		{MeterInHouseRestrictedOut, MeterInHouseRestrictedOutCount},
		{MeterInHouseNonRestrictedOut, MeterInHouseNonRestrictedOutCnt}},
	// Choice: a win paid to the host is in-house cashable money leaving
	// the machine; SAS has no meter of its own for it.
	WinToHost: {{MeterInHouseCashableOut, MeterInHouseCashableOutCount}, {}, {}},
}

type meterDelta struct {
	code  metercode.Code
	cents int64
}

// meterDeltas is how a committed transfer moves the meters. 0x17 counts
// every transfer to the machine, to its credit meter or to a ticket (SAS
// table C-7: cashable, restricted, non-restricted and debit); 0x18 every
// transfer to the host, wins included. A bonus is a win, not a transfer:
// it moves its AFT bonus meters here, and the machine meters it as an
// external bonus (0x1E machine paid, or 0x21 attendant paid for the
// jackpot handpay) with coin out or jackpot.
func meterDeltas(t Transfer) []meterDelta {
	var out []meterDelta
	km := typeMeters[t.Type]
	for i, v := range [3]int64{t.Amounts.Cashable, t.Amounts.Restricted, t.Amounts.NonRestricted} {
		if v == 0 || km[i][0] == 0 {
			continue
		}
		out = append(out, meterDelta{km[i][0], v}, meterDelta{km[i][1], 1})
	}
	switch t.Type {
	case InHouseToMachine, InHouseToTicket, DebitToMachine, DebitToTicket:
		out = append(out, meterDelta{metercode.ElectronicToMachine, t.Amounts.Total()})
	case InHouseToHost, WinToHost:
		out = append(out, meterDelta{metercode.ElectronicToHost, t.Amounts.Total()})
	}
	return out
}

// cumulative reads the meters of a type's three amounts, as the 0x72
// reply reports them.
func cumulative(m map[metercode.Code]int64, t TransferType) Cumulative {
	km := typeMeters[t]
	read := func(i int) int64 {
		if km[i][0] == 0 {
			return 0 // the type has no such amount (0x00 is coin in)
		}
		return m[km[i][0]]
	}
	return Cumulative{Cashable: read(0), Restricted: read(1), NonRestricted: read(2)}
}
