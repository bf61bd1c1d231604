// The SAS port's long polls: the dispatch, the host's orders to the machine
// (queued for the owner), bills, features, machine information and the
// pending handpay.

package main

import (
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/sas"
)

// hostOrders are the long polls that are a plain order to the machine.
var hostOrders = map[byte]string{
	0x01: machine.HostDisable, 0x02: machine.HostEnable,
	0x03: machine.HostSoundOff, 0x04: machine.HostSoundOn,
	0x06: machine.HostBillsEnable, 0x07: machine.HostBillsDisable,
}

// LongPoll is the machine's answer to the host's long polls.
func (s *sasPort) LongPoll(r sas.Request) sas.Reply {
	if sas.IsMeterPoll(r.Cmd) {
		return sas.MeterReply(r, s)
	}
	if rep, ok := s.gamePoll(r); ok {
		return rep
	}
	now := time.Now()
	if rep, ok := s.aftPoll(r, now); ok {
		return rep
	}
	if rep, ok := s.ticketPoll(r, now); ok {
		return rep
	}
	if cmd, ok := hostOrders[r.Cmd]; ok {
		s.order(machine.HostCommand{At: now, Cmd: cmd})
		return sas.ReplyAck()
	}
	switch r.Cmd {
	case sas.CmdConfigureBills:
		return s.configureBills(r.Data, now)
	case sas.CmdRealTime:
		on, err := sas.ParseRealTime(r.Data)
		if err != nil {
			s.log.Warn("SAS 0x0E refused", "err", err)
			return sas.NoReply()
		}
		// Choice: real-time reporting is a setting of the host's session,
		// kept in memory only: after a restart the cabinet reports plain
		// exception codes until the host sends 0x0E again (the Aristocrat
		// client keeps it in memory too; the events themselves, with their
		// data, are in the saved queue either way). A link loss does not
		// turn it off.
		s.link.RealTime = on
		s.log.Info("SAS real-time event reporting", "on", on)
		return sas.ReplyAck()
	case sas.CmdLastBill:
		return s.lastBill()
	case sas.CmdEnabledFeatures:
		return s.enabledFeatures(r.Data)
	case 0x1F:
		return sas.ReplyData(s.info...)
	case sas.CmdSingleLevelBroadcast, sas.CmdMultipleLevelBroadcast:
		return s.progressiveBroadcast(r, now)
	case sas.CmdSASProgressiveWin, sas.CmdMultipleProgressiveWins:
		return s.progressiveWins(r.Cmd)
	case sas.CmdProgressiveWinAmount:
		return s.lastProgressiveWin()
	case sas.CmdWagerCategory:
		return s.wagerCategory(r.Data)
	case 0x83:
		return s.cumulativeProgressive(r.Data)
	case 0x1B:
		return s.handpayInfo()
	case 0x21:
		// The host's seed; the signature follows on a later general poll.
		if len(r.Data) != 2 || s.rom == nil {
			return sas.NoReply()
		}
		if !s.rom.request(uint16(r.Data[0]) | uint16(r.Data[1])<<8) {
			return sas.ReplyBusy() // the queue is full: the host asks again
		}
		return sas.ReplyAck()
	case 0x54:
		serial := []byte(s.serial)
		if len(serial) > 40 {
			serial = serial[:40]
		}
		data := append([]byte{byte(3 + len(serial)), '6', '0', '2'}, serial...)
		return sas.ReplyData(data...)
	case 0x7E:
		return sas.ReplyData(sas.EncodeTime(now)...)
	case 0x7F:
		// The cabinet keeps its clock from the operating system; a host's
		// time is acknowledged and logged, not applied.
		s.log.Info("SAS host sent the date and time", "data", fmt.Sprintf("% X", r.Data))
		return sas.ReplyAck()
	case sas.CmdRemoteHandpayReset:
		return s.remoteHandpayReset(now)
	}
	return sas.NoReply()
}

// remoteHandpayReset answers 0x94 from the committed state the port keeps
// (the serve loop never waits on the owner) and hands the reset to the
// machine, which resets that handpay and nothing else
// (machine.HostHandpayReset).
//
// Status: 02 when no handpay is pending; 01 (unable) when the machine has a
// meter fault, since it can record nothing and so reset nothing; 00
// otherwise. The cabinet has no setting that keeps a handpay from the
// host: every kind (cancelled credits, paytable win, progressive) may be
// reset by it, as by the attendant's key.
//
// Choice: 00 is answered before the reset is committed. If the commit then
// fails (a meter fault at that very moment), the handpay stays pending and
// the host learns it from 0x1B and the missing 0x52 exception.
func (s *sasPort) remoteHandpayReset(now time.Time) sas.Reply {
	snap := s.meters.Load()
	if snap == nil || snap.handpay == nil {
		return sas.ReplyData(sas.HandpayResetNotInHandpay)
	}
	if v := s.own.view.Load(); v != nil && v.Fault != "" {
		return sas.ReplyData(sas.HandpayResetUnable)
	}
	s.order(machine.HostHandpayReset{At: now, Who: "SAS host (0x94)", Pending: *snap.handpay})
	return sas.ReplyData(sas.HandpayResetDone)
}

// order hands a host order to the owner, after the earlier ones, without
// waiting for it.
func (s *sasPort) order(ev machine.Event) {
	s.ordersMu.Lock()
	s.orders = append(s.orders, ev)
	s.ordersMu.Unlock()
	select {
	case s.ordersWake <- struct{}{}:
	default: // already woken: the loop takes every order queued
	}
}

// configureBills executes 0x08: the euro notes the host enables, by face
// value on SAS's bill denomination codes (as billExceptions maps them), go
// to the machine, which passes them to the validator with every
// EnableBills; a disabled note is returned. The action flag's bit 0 clear
// turns the acceptor off after each accepted bill until 0x06.
func (s *sasPort) configureBills(data []byte, now time.Time) sas.Reply {
	b, err := sas.ParseBillDenominations(data)
	if err != nil {
		s.log.Warn("SAS 0x08 refused", "err", err)
		return sas.NoReply()
	}
	accept := []int64{}
	for _, cents := range meters.BillValues {
		if cents%100 == 0 && b.Enabled(cents/100) {
			accept = append(accept, cents)
		}
	}
	s.log.Info("SAS bill denominations", "accept_cents", accept, "keep_enabled", b.KeepEnabled)
	s.order(machine.HostBillDenominations{At: now, Accept: accept, DisableAfterAccept: !b.KeepEnabled})
	return sas.ReplyAck()
}

// lastBill answers 0x48 from the ledger: the last note accepted, its
// denomination code and the lifetime count of that denomination.
//
// Choice: all zeros (as the Aristocrat client answers) when the ledger has
// no bill, or when the count of the last one is zero (a RAM clear since).
func (s *sasPort) lastBill() sas.Reply {
	b := sas.LastBill{}
	if snap := s.meters.Load(); snap != nil && snap.lastBill > 0 && snap.lastBillCount > 0 && snap.lastBill%100 == 0 {
		if code, ok := sas.BillCode(snap.lastBill / 100); ok {
			b = sas.LastBill{Country: sas.CountryEuro, Code: code, Count: uint64(snap.lastBillCount)}
		}
	}
	data, err := sas.LastBillData(b)
	if err != nil {
		return sas.NoReply()
	}
	return sas.ReplyData(data...)
}

// cabinetFeatures are the features 0xA0 reports (tables 7.14c-f, see
// sas/features.go). Set:
//
//   - meter model "metered when won" (features 2, bits 0-1 = 01): a game's
//     win reaches coin out (0x01) with the game end record, when it is won;
//
//   - extended meters (features 2 bit 3): 0x6F and 0xAF are answered;
//
//   - maximum polling rate 40 ms (features 3 bit 0): the link answers
//     within a fraction of a millisecond at 40 ms polls (README, make
//     sastiming), which real-time event reporting needs (SAS 2.3.3);
//
//   - multiple SAS progressive win reporting (features 3 bit 1), when the
//     cabinet has linked levels (--link-group): 0x87 reports every
//     unconfirmed hit. Without a group it has no SAS progressive to report.
//
//   - AFT (features 2 bit 6) and AFT bonus awards (features 1 bit 1) with
//     --aft-asset: in-house transfers of cashable, restricted and
//     non-restricted credits to and from the host, and bonus coin-out
//     wins (72, 73, 74).
//
//   - the validation features (features 1 bits 4-7): ticketFeatures.
//
// Clear: jackpot multiplier, legacy bonus awards, tournament (not
// implemented); tickets to total drop (ticket
// in is not in total drop 0x24, ticket out not in cancelled credits 0x04);
// component authentication (no 0x6E: the ROM signature 0x21 is the check);
// jackpot keyoff exception; multi-denom extensions (the host sees one
// accounting denomination, 0.01); meter change notification; session play;
// foreign currency redemption; non-SAS progressive hit reporting (the local
// jackpot's hits are not reported with 0x5D); enhanced progressive data;
// maximum progressive payback.
func cabinetFeatures(group byte, aftOn bool) [4]byte {
	f := [4]byte{0, sas.Feature2MeterModelWhenWon | sas.Feature2ExtendedMeters, sas.Feature3MaxPollingRate40ms, 0}
	if group != 0 {
		f[2] |= sas.Feature3MultipleProgressiveWins
	}
	if aftOn {
		f[0] |= sas.Feature1AFTBonusAwards
		f[1] |= sas.Feature2AFT
	}
	return f
}

// enabledFeatures answers 0xA0 for game 0, the machine.
//
// Choice: another game number gets no reply: the features (validation,
// progressives, real-time events) are the machine's, not a game's, and
// SAS 7.6.3 lets a machine answer them for game 0000 only.
func (s *sasPort) enabledFeatures(data []byte) sas.Reply {
	game, err := sas.DecodeGameNumber(data)
	if err != nil || game != 0 {
		return sas.NoReply()
	}
	f := cabinetFeatures(s.group, s.aft != nil)
	f[0] |= s.ticketFeatures()
	out, err := sas.EnabledFeaturesData(sas.Features{Game: 0, Bits: f})
	if err != nil {
		return sas.NoReply()
	}
	return sas.ReplyData(out...)
}

// machineInfo is the 0x1F reply: game ID, additional ID, denomination code
// (0x01 = 1 cent), max bet, progressive group, options, paytable ID, base RTP
// at the top level with two implied decimals.
func machineInfo(pt *reels.Certified, group byte) ([]byte, error) {
	mi := sas.MachineInfo{GameID: "LU", AdditionalID: "000", Denomination: 0x01, MaxBet: 0xFF,
		ProgressiveGroup: group, PaytableID: "000000", BasePercent: "0000"}
	if pt != nil {
		mi.AdditionalID = fmt.Sprintf("%03d", pt.Version%1000)
		mi.PaytableID = fmt.Sprintf("%-6.6s", pt.ID[len(pt.ID)-min(6, len(pt.ID)):])
		mi.BasePercent = topPercent(pt)
		if bet := pt.Bet(pt.TopLevel()); bet < 0xFF {
			mi.MaxBet = byte(bet)
		}
	}
	return sas.MachineInfoData(mi)
}

// topPercent is the base RTP at the top bet level, 4 digits with two
// implied decimals ("0000" without a paytable).
func topPercent(pt *reels.Certified) string {
	if pt == nil {
		return "0000"
	}
	top := pt.RTP[len(pt.RTP)-1]
	n := new(big.Int).Mul(top.Num(), big.NewInt(10000))
	n.Quo(n, top.Denom())
	return fmt.Sprintf("%04d", n.Int64()%10000)
}

// handpayInfo answers 0x1B with the pending handpay (zeros when none).
func (s *sasPort) handpayInfo() sas.Reply {
	h := sas.HandpayInfo{}
	if snap := s.meters.Load(); snap != nil && snap.handpay != nil {
		hp := snap.handpay
		h.Amount = uint64(hp.Cents)
		switch hp.Kind {
		case meters.HandpayCancelled:
			h.Level = sas.HandpayLevelCancelledCredits
		case meters.HandpayProgressive:
			h.Level = byte(hp.Level)
			if !slices.Contains(snap.local, hp.Level) {
				h.Group = s.group // a SAS progressive (linked) level
			}
		default:
			h.Level = sas.HandpayLevelNonProgressive
		}
	}
	data, err := sas.HandpayInfoData(h)
	if err != nil {
		s.log.Error("SAS 0x1B", "err", err)
		return sas.NoReply()
	}
	return sas.ReplyData(data...)
}
