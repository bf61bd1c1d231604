package sas

import (
	"strings"

	"github.com/openegm/cabinet/meters"
)

// ExceptionsFor is the SAS exceptions a committed ledger record raises. It is
// a pure function of the record, so the cabinet can persist its exception
// queue with the ledger sequence number it covers and, after a restart,
// derive the exceptions of every later record again: none lost, none twice.
func ExceptionsFor(r meters.Record) []Exception {
	switch r := r.(type) {
	case meters.MoneyIn:
		if r.Source == meters.SourceBill {
			if e, ok := billExceptions[r.Cents]; ok {
				return []Exception{e}
			}
			return []Exception{ExcBillAccepted}
		}
	case meters.GameStart:
		return []Exception{ExcGameStarted}
	case meters.GameEnd:
		return []Exception{ExcGameEnded}
	case meters.HandpayPending:
		return []Exception{ExcHandpayPending}
	case meters.HandpayReset:
		return []Exception{ExcHandpayReset}
	case meters.HandpayValidated:
		// Reset, and a validation record for the host to read (4D).
		// Choice: 3E is queued, not a priority flag: the priority order
		// the queue saves has no bit for it, and the host reads every
		// unread record on any 3D or 3E (and at its start), so a late 3E
		// loses nothing.
		return []Exception{ExcHandpayReset, ExcHandpayValidated}
	case meters.TicketPrinted:
		// When the printer confirms it, not when the cash-out is recorded:
		// a ticket may still become a handpay (TicketVoid, then 0x51).
		return []Exception{ExcCashOutTicketPrinted}
	case meters.Event:
		return eventExceptions(r)
	case meters.ProgressiveHit:
		// A hit on a linked level reported to the link controller, which
		// reads it with 0x85/0x87.
		return []Exception{ExcProgressiveLevelHit}
	case meters.ProgressiveAward:
		if !r.Attendant {
			return []Exception{ExcProgressiveWin} // paid to the credit meter
		}
		// A hand-paid award raises 0x51 with its HandpayPending.
	case meters.Service:
		// Choice: technicians and operators use the operator menu (0x84/0x85),
		// inspectors the attendant menu (0x82/0x83), which reads only.
		entered, exited := ExcOperatorMenuEntered, ExcOperatorMenuExited
		if r.Role == "inspector" {
			entered, exited = ExcAttendantMenuEntered, ExcAttendantMenuExited
		}
		switch r.Action {
		case meters.ActionLogin:
			return []Exception{entered}
		case "logout":
			return []Exception{exited}
		}
	case meters.Config:
		return []Exception{ExcOperatorChangedOpts}
	case meters.RAMClear:
		return []Exception{ExcMemoryReset}
	case meters.AFTTransfer:
		return []Exception{ExcAFTTransferDone}
	case meters.TicketEscrow:
		return []Exception{ExcTicketInserted}
	case meters.TicketRedeem:
		return []Exception{ExcTicketTransferDone}
	case meters.ValidationRequest:
		return []Exception{ExcSystemValidationReq}
	}
	return nil
}

// billExceptions maps euro notes onto SAS's bill-accepted codes by face
// value (SAS names them in dollars; the face value is what counts).
var billExceptions = map[int64]Exception{
	500: ExcBill5Accepted, 1000: ExcBill10Accepted, 2000: ExcBill20Accepted, 5000: ExcBill50Accepted,
	10000: ExcBill100Accepted, 20000: ExcBill200Accepted, 50000: ExcBill500Accepted,
}

var doorExceptions = map[string][2]Exception{
	meters.DoorMain:    {ExcSlotDoorOpened, ExcSlotDoorClosed},
	meters.DoorDrop:    {ExcDropDoorOpened, ExcDropDoorClosed},
	meters.DoorLogic:   {ExcCardCageOpened, ExcCardCageClosed},
	meters.DoorCashbox: {ExcCashboxDoorOpened, ExcCashboxDoorClosed},
	meters.DoorBelly:   {ExcBellyDoorOpened, ExcBellyDoorClosed},
}

func eventExceptions(e meters.Event) []Exception {
	switch e.Code {
	case meters.EventDoorOpen:
		return []Exception{doorExceptions[e.Door][0]}
	case meters.EventDoorClose:
		return []Exception{doorExceptions[e.Door][1]}
	case meters.EventPowerUp:
		return []Exception{ExcACPowerApplied}
	case meters.EventPowerDown:
		return []Exception{ExcACPowerLost}
	case meters.EventLinkDown:
		return []Exception{ExcNoProgressive5s}
	case meters.EventTilt:
		switch e.Tilt {
		case "bill_jam":
			return []Exception{ExcBillJam}
		case "printer":
			if strings.Contains(e.Detail, "paper") {
				return []Exception{ExcPrinterPaperOut}
			}
			return []Exception{ExcPrinterCommError}
		}
		return []Exception{ExcGeneralTilt}
	}
	return nil
}
