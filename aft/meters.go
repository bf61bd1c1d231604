package aft

import "github.com/openegm/cabinet/sas/metercode"

// The AFT meter codes of SAS table C-7 (6.02), each an amount in cents (5
// BCD bytes) followed by the count of transfers that included that kind
// of amount. B2–B7 are not defined by the public lists; debit (A6, A7,
// AC, AD) is listed for completeness: the cabinet does no debit
// transfers, so those meters stay 0.
//
// Sources: the meter code lists of two independent open-source SAS
// implementations (C# and C++) agree on A0–B1 and B8–BD; the Aristocrat
// Monaco client keeps A0–A5, AE–B1 and B8–BD.
const (
	MeterInHouseCashableIn          metercode.Code = 0xA0
	MeterInHouseCashableInCount     metercode.Code = 0xA1
	MeterInHouseRestrictedIn        metercode.Code = 0xA2
	MeterInHouseRestrictedInCount   metercode.Code = 0xA3
	MeterInHouseNonRestrictedIn     metercode.Code = 0xA4
	MeterInHouseNonRestrictedCount  metercode.Code = 0xA5
	MeterDebitIn                    metercode.Code = 0xA6
	MeterDebitInCount               metercode.Code = 0xA7
	MeterTicketCashable             metercode.Code = 0xA8
	MeterTicketCashableCount        metercode.Code = 0xA9
	MeterTicketRestricted           metercode.Code = 0xAA
	MeterTicketRestrictedCount      metercode.Code = 0xAB
	MeterDebitTicket                metercode.Code = 0xAC
	MeterDebitTicketCount           metercode.Code = 0xAD
	MeterBonusCashableIn            metercode.Code = 0xAE
	MeterBonusCashableInCount       metercode.Code = 0xAF
	MeterBonusNonRestrictedIn       metercode.Code = 0xB0
	MeterBonusNonRestrictedInCount  metercode.Code = 0xB1
	MeterInHouseCashableOut         metercode.Code = 0xB8
	MeterInHouseCashableOutCount    metercode.Code = 0xB9
	MeterInHouseRestrictedOut       metercode.Code = 0xBA
	MeterInHouseRestrictedOutCount  metercode.Code = 0xBB
	MeterInHouseNonRestrictedOut    metercode.Code = 0xBC
	MeterInHouseNonRestrictedOutCnt metercode.Code = 0xBD
)

// MeterInfo names an AFT meter for the meter table.
type MeterInfo struct {
	Code metercode.Code
	Name string
	Unit metercode.Unit
}

// Meters lists the meters the AFT fold keeps, in code order: what the
// lead adds to sas/metercode's table (0x17 and 0x18 are there already).
func Meters() []MeterInfo {
	return []MeterInfo{
		{metercode.ElectronicToMachine, "total electronic transfers to machine", metercode.Credits},
		{metercode.ElectronicToHost, "total electronic transfers to host", metercode.Credits},
		{MeterInHouseCashableIn, "in-house cashable transfers to machine (cents)", metercode.Cents},
		{MeterInHouseCashableInCount, "in-house transfers to machine with cashable amounts", metercode.Count},
		{MeterInHouseRestrictedIn, "in-house restricted transfers to machine (cents)", metercode.Cents},
		{MeterInHouseRestrictedInCount, "in-house transfers to machine with restricted amounts", metercode.Count},
		{MeterInHouseNonRestrictedIn, "in-house non-restricted transfers to machine (cents)", metercode.Cents},
		{MeterInHouseNonRestrictedCount, "in-house transfers to machine with non-restricted amounts", metercode.Count},
		{MeterDebitIn, "debit transfers to machine (cents)", metercode.Cents},
		{MeterDebitInCount, "debit transfers to machine", metercode.Count},
		{MeterTicketCashable, "in-house cashable transfers to ticket (cents)", metercode.Cents},
		{MeterTicketCashableCount, "in-house cashable transfers to ticket", metercode.Count},
		{MeterTicketRestricted, "in-house restricted transfers to ticket (cents)", metercode.Cents},
		{MeterTicketRestrictedCount, "in-house restricted transfers to ticket", metercode.Count},
		{MeterDebitTicket, "debit transfers to ticket (cents)", metercode.Cents},
		{MeterDebitTicketCount, "debit transfers to ticket", metercode.Count},
		{MeterBonusCashableIn, "bonus cashable transfers to machine (cents)", metercode.Cents},
		{MeterBonusCashableInCount, "bonus transfers to machine with cashable amounts", metercode.Count},
		{MeterBonusNonRestrictedIn, "bonus non-restricted transfers to machine (cents)", metercode.Cents},
		{MeterBonusNonRestrictedInCount, "bonus transfers to machine with non-restricted amounts", metercode.Count},
		{MeterInHouseCashableOut, "in-house cashable transfers to host (cents)", metercode.Cents},
		{MeterInHouseCashableOutCount, "in-house transfers to host with cashable amounts", metercode.Count},
		{MeterInHouseRestrictedOut, "in-house restricted transfers to host (cents)", metercode.Cents},
		{MeterInHouseRestrictedOutCount, "in-house transfers to host with restricted amounts", metercode.Count},
		{MeterInHouseNonRestrictedOut, "in-house non-restricted transfers to host (cents)", metercode.Cents},
		{MeterInHouseNonRestrictedOutCnt, "in-house transfers to host with non-restricted amounts", metercode.Count},
	}
}

// kindMeters are, for a transfer type, the (cents, count) meter codes of
// its cashable, restricted and non-restricted amounts (0: none).
type kindMeters [3][2]metercode.Code

var typeMeters = map[TransferType]kindMeters{
	InHouseToMachine: {{MeterInHouseCashableIn, MeterInHouseCashableInCount},
		{MeterInHouseRestrictedIn, MeterInHouseRestrictedInCount},
		{MeterInHouseNonRestrictedIn, MeterInHouseNonRestrictedCount}},
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
