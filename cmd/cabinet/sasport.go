package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/metercode"
)

// sasOptions choose the SAS channel: one of a serial device, a
// pseudo-terminal the cabinet creates (its host end's path is written to
// DATA/sas-pty, and DATA/sas-tty links to it), or a TCP listener; addr 0
// turns SAS off.
type sasOptions struct {
	addr    int
	group   int // SAS progressive group of the linked levels (0: none)
	serial  string
	pty     bool
	tcp     string
	framing string // for a pty: "content" (default) or "parmrk"
}

// sasPort is the cabinet's SAS gaming-machine side. The serve loop holds mu
// whenever it is in the link; the owner holds it to push exceptions. The
// Handler therefore never waits on the owner: meters come from a snapshot
// published after every commit, and host orders reach the machine
// asynchronously.
type sasPort struct {
	link    *sas.Link
	mu      sync.Mutex
	own     *owner
	log     *slog.Logger
	qfile   string
	meters  atomic.Pointer[meterSnap]
	info    []byte // the 0x1F reply data
	payback string // the top bet's RTP, 4 digits (0xB4)
	serial  string
	rom     *romSigner // nil: the image it covers could not be read

	group  byte               // progressive group (0: no linked levels)
	linkCh chan machine.Event // progressive broadcasts and confirmations, in order, to the owner
	rt     sas.RealTimeConfig // what real-time event data needs besides the ledger

	// Host orders (0x01/0x02, 0x03/0x04, 0x06/0x07, 0x08, 0x94) wait here for the
	// owner, in the order they came: the serve loop never blocks on the
	// owner, and a 0x07 then 0x06 (or two 0x08) cannot swap on the way.
	ordersMu   sync.Mutex
	orders     []machine.Event
	ordersWake chan struct{}

	// The linked hits in the last 0x85/0x87 reply (under mu), and those
	// the host has received (its implied acknowledgement), which go to the
	// machine when the host moves on once more (onEvent); winsNew marks
	// the poll that acknowledged them.
	winsCmd  byte
	winsOut  []meters.ProgressiveHit
	winsRead []meters.ProgressiveHit
	winsNew  bool
	// lastWin is the last progressive win paid, for 0x84 (under mu; kept
	// in the queue file).
	lastWin sas.ProgressiveWin

	seq    uint64 // ledger records up to here are in the queue (under mu)
	ver    uint64 // queue version (under mu)
	saveMu sync.Mutex
	saved  uint64 // version last written (under saveMu)
}

type meterSnap struct {
	ledger *meters.State // meters and bill counts only, for SASMeter
	m      []int64
	claims []meters.ProgressiveHit // reported hits on linked levels, unconfirmed
	// linkedCoinIn is the coin-in of bets that could win a linked level.
	linkedCoinIn int64
	handpay      *meters.HandpayPending
	local        []int // the local jackpot's levels
	// lastBill is the note last accepted (cents; 0: none since the ledger
	// began) and lastBillCount the count of its denomination.
	lastBill      int64
	lastBillCount int64
}

// sasQueueFile holds the exception queue and the ledger sequence number up
// to which records have been turned into exceptions.
type sasQueueFile struct {
	Seq     uint64             `json:"seq"`
	Queue   []byte             `json:"queue"`
	LastWin sas.ProgressiveWin `json:"last_win,omitzero"`
}

func openSAS(ctx context.Context, o sasOptions, own *owner, l *meters.Ledger, pt *reels.Certified, data, machineID string,
	rom [][]byte, log *slog.Logger) (*sasPort, error) {
	if o.addr < 1 || o.addr > 127 {
		return nil, fmt.Errorf("SAS address %d outside 1-127", o.addr)
	}
	if o.group < 0 || o.group > 255 {
		return nil, fmt.Errorf("SAS progressive group %d outside 0-255", o.group)
	}
	s := &sasPort{link: sas.NewLink(byte(o.addr)), own: own, log: log, qfile: filepath.Join(data, "sas-queue.json"),
		serial: machineID, group: byte(o.group), linkCh: make(chan machine.Event, 256),
		ordersWake: make(chan struct{}, 1)}
	s.link.Handler = s
	s.rt = sas.RealTimeConfig{Group: s.group, MaxBetLevel: -1}
	if pt != nil {
		s.rt.MaxBetLevel = pt.TopLevel()
	}
	info, err := machineInfo(pt, s.group)
	if err != nil {
		return nil, err
	}
	s.info, s.payback = info, topPercent(pt)
	if rom != nil {
		s.rom = newROMSigner(rom, func(seed, sig uint16) {
			s.mu.Lock()
			s.link.Defer(0x21, byte(sig), byte(sig>>8))
			s.mu.Unlock()
		})
		go s.rom.run(ctx)
	}
	go func() {
		// One goroutine keeps the broadcasts in the order they came.
		for {
			select {
			case <-ctx.Done():
				return
			case b := <-s.linkCh:
				own.submit(b)
			}
		}
	}()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.ordersWake:
			}
			for {
				s.ordersMu.Lock()
				if len(s.orders) == 0 {
					s.ordersMu.Unlock()
					break
				}
				ev := s.orders[0]
				s.orders = s.orders[1:]
				s.ordersMu.Unlock()
				own.submit(ev)
			}
		}
	}()
	if l != nil {
		s.publish(l.State())
		if err := s.restore(l); err != nil {
			return nil, err
		}
	}
	own.afterCommit = append(own.afterCommit, s.committed)

	var port sas.Port
	mode := sas.ModeContent
	switch {
	case o.serial != "":
		tty, err := sas.OpenSerial(o.serial)
		if err != nil {
			return nil, err
		}
		port, mode = tty, sas.ModePARMRK
	case o.pty:
		if o.framing == "parmrk" {
			mode = sas.ModePARMRK
		}
		tty, err := sas.OpenPTY(mode)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(data, "sas-pty"), []byte(tty.HostPath()+"\n"), 0o644); err != nil {
			return nil, err
		}
		// A stable name for the host end: a new pseudo-terminal is made at
		// every start, and a host (the link controller) that reopens
		// DATA/sas-tty finds the new one.
		link := filepath.Join(data, "sas-tty")
		os.Remove(link)
		if err := os.Symlink(tty.HostPath(), link); err != nil {
			return nil, err
		}
		log.Info("SAS on a pseudo-terminal", "host_end", tty.HostPath(), "framing", o.framing)
		port = tty
	case o.tcp != "":
		ln, err := net.Listen("tcp", o.tcp)
		if err != nil {
			return nil, err
		}
		go func() {
			err := sas.ServeListener(ctx, ln, s.link, sas.ModeContent, s.serveOptions())
			if err != nil && ctx.Err() == nil {
				log.Error("SAS over TCP stopped", "err", err)
			}
		}()
		return s, nil
	default:
		return nil, errors.New("SAS address given but no channel (--sas-serial, --sas-pty or --sas-tcp)")
	}
	go func() {
		defer port.Close()
		if err := sas.Serve(ctx, port, s.link, mode, s.serveOptions()); err != nil && ctx.Err() == nil {
			log.Error("SAS stopped", "err", err)
		}
	}()
	return s, nil
}

func (s *sasPort) serveOptions() sas.ServeOptions {
	return sas.ServeOptions{Lock: &s.mu, OnEvent: s.onEvent}
}

// restore loads the persisted queue, then turns every record committed after
// it into exceptions again, so a restart neither loses nor repeats one. A
// missing file means SAS is new on this ledger: nothing from before is owed.
func (s *sasPort) restore(l *meters.Ledger) error {
	b, err := os.ReadFile(s.qfile)
	if errors.Is(err, os.ErrNotExist) {
		s.seq = l.LastSeq()
		s.save()
		return nil
	}
	if err != nil {
		return err
	}
	var f sasQueueFile
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("%s: %w", s.qfile, err)
	}
	if err := s.link.Exceptions.UnmarshalBinary(f.Queue); err != nil {
		return fmt.Errorf("%s: %w", s.qfile, err)
	}
	s.lastWin = f.LastWin
	var recs []meters.Record
	err = l.Since(f.Seq, func(_ uint64, r meters.Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		return err
	}
	// The same derivation as after a commit, from the same ledger state:
	// the events (real-time data included) are those the lost run would
	// have queued.
	for _, e := range sas.EventsFor(recs, l.State(), s.rt) {
		s.link.Exceptions.PushEvent(e)
	}
	s.noteWins(recs, l.State())
	s.seq = l.LastSeq()
	s.save()
	return nil
}

// committed runs on the owner goroutine after records are durable.
func (s *sasPort) committed(recs []meters.Record, l *meters.Ledger) {
	st := l.State()
	s.publish(st)
	events := sas.EventsFor(recs, st, s.rt)
	s.mu.Lock()
	for _, e := range events {
		s.link.Exceptions.PushEvent(e)
	}
	s.noteWins(recs, st)
	s.seq = l.LastSeq()
	s.mu.Unlock()
	s.save()
}

// noteWins keeps the last progressive win paid among recs for 0x84: a
// linked level's with the SAS group, a local level's (not a SAS
// progressive) with group 0.
func (s *sasPort) noteWins(recs []meters.Record, st *meters.State) {
	for _, r := range recs {
		a, ok := r.(meters.ProgressiveAward)
		if !ok || a.Level < 1 || a.Level > sas.MaxProgressiveLevel || a.Cents > sas.MaxProgressiveAmount {
			continue
		}
		w := sas.ProgressiveWin{Level: byte(a.Level), Amount: uint64(a.Cents)}
		if !st.IsLocalLevel(a.Level) {
			w.Group = s.group
		}
		s.lastWin = w
	}
}

// onEvent runs in the serve loop with mu held, after the reply to the poll
// it is about was written: an acknowledged exception changed the queue;
// linked hits the host has received go to the machine (broadcast award
// mode pays them) when the host moves on after the poll that acknowledged
// them, not at that poll. Until then the machine still holds the hits and
// plays no game, so the games-played meter the host reads in that poll is
// the hits' game, and a host that must record them before they are paid
// (the link controller) has the time to.
func (s *sasPort) onEvent(ev sas.Event) {
	if ev.AckedException != sas.ExcNone {
		go s.save()
	}
	switch {
	case ev.LinkDown:
		s.winsRead, s.winsNew = nil, false // reported again when the host is back
	case s.winsNew:
		s.winsNew = false
	case ev.Acked && len(s.winsRead) > 0:
		s.order(machine.LinkWinsRead{At: time.Now(), Hits: s.winsRead})
		s.winsRead = nil
	}
}

// save writes the queue with the sequence number it covers. Versions keep a
// slow writer from overwriting a newer queue.
func (s *sasPort) save() {
	s.mu.Lock()
	q, err := s.link.Exceptions.MarshalBinary()
	s.ver++
	ver, seq, win := s.ver, s.seq, s.lastWin
	s.mu.Unlock()
	if err != nil {
		s.log.Error("SAS queue", "err", err)
		return
	}
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	if ver < s.saved {
		return
	}
	b, _ := json.Marshal(sasQueueFile{Seq: seq, Queue: q, LastWin: win})
	if err := atomicfile.Write(s.qfile, b, 0o600); err != nil {
		s.log.Error("SAS queue not saved", "err", err)
		return
	}
	s.saved = ver
}

func (s *sasPort) publish(st *meters.State) {
	snap := &meterSnap{m: slices.Clone(st.Meters[:]), linkedCoinIn: st.LinkedCoinIn,
		ledger: &meters.State{Meters: st.Meters, BillCounts: slices.Clone(st.BillCounts)}}
	if n := len(st.Bills); n > 0 {
		snap.lastBill = st.Bills[n-1].Cents
		if i := slices.Index(meters.BillValues, snap.lastBill); i >= 0 && i < len(st.BillCounts) {
			snap.lastBillCount = st.BillCounts[i]
		}
	}
	snap.claims = st.LinkedClaims()
	if st.Handpay != nil {
		hp := *st.Handpay
		snap.handpay = &hp
	}
	for _, l := range st.LocalLevels() {
		snap.local = append(snap.local, l.Level)
	}
	s.meters.Store(snap)
}

// Meter answers the SAS meter polls from the last committed state, by the
// ledger's mapping to the one table of SAS codes (meters.State.SASMeter).
// Amounts are cents, which are credits at SAS's accounting denomination of
// 0.01.
func (s *sasPort) Meter(code uint16) (uint64, bool) {
	snap := s.meters.Load()
	if snap == nil {
		return 0, false
	}
	v, ok := snap.ledger.SASMeter(metercode.Code(code))
	return uint64(v), ok
}

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
	now := time.Now()
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
//   - extended meters (features 2 bit 3): 0x6F and 0xAF are answered;
//   - maximum polling rate 40 ms (features 3 bit 0): the link answers
//     within a fraction of a millisecond at 40 ms polls (README, make
//     sastiming), which real-time event reporting needs (SAS 2.3.3);
//   - multiple SAS progressive win reporting (features 3 bit 1), when the
//     cabinet has linked levels (--link-group): 0x87 reports every
//     unconfirmed hit. Without a group it has no SAS progressive to report.
//
// Clear: jackpot multiplier, AFT and legacy bonus awards, tournament (not
// implemented); validation extensions, validation style 00 and ticket
// redemption (the cabinet prints tickets with its own validation numbers
// and redeems none; no 0x4C/0x57/0x70/0x71); tickets to total drop (ticket
// in is not in total drop 0x24, ticket out not in cancelled credits 0x04);
// component authentication (no 0x6E: the ROM signature 0x21 is the check);
// jackpot keyoff exception; AFT; multi-denom extensions (the host sees one
// accounting denomination, 0.01); meter change notification; session play;
// foreign currency redemption; non-SAS progressive hit reporting (the local
// jackpot's hits are not reported with 0x5D); enhanced progressive data;
// maximum progressive payback.
func cabinetFeatures(group byte) [4]byte {
	f := [4]byte{0, sas.Feature2MeterModelWhenWon | sas.Feature2ExtendedMeters, sas.Feature3MaxPollingRate40ms, 0}
	if group != 0 {
		f[2] |= sas.Feature3MultipleProgressiveWins
	}
	return f
}

// enabledFeatures answers 0xA0 for game 0, the machine.
//
// Choice: another game number gets no reply: the cabinet has no
// multi-game extensions (it would answer 0x51 with 0), and SAS 7.6.3 says
// such a machine ignores multi-game polls for a game other than 0000.
func (s *sasPort) enabledFeatures(data []byte) sas.Reply {
	game, err := sas.DecodeGameNumber(data)
	if err != nil || game != 0 {
		return sas.NoReply()
	}
	out, err := sas.EnabledFeaturesData(sas.Features{Game: 0, Bits: cabinetFeatures(s.group)})
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

// Wager categories of 0xB4 for game 0000, the machine.
const (
	wagerAll    = 0 // every bet: total coin-in
	wagerLinked = 1 // the bets that could win the linked levels (GameStart.Linked)
)

// wagerCategory answers 0xB4 for the machine (game 0000): category 0000 is
// the total coin-in, category 0001 the linked coin-in, what the link
// controller feeds its levels from; any other is a category the machine
// does not have. Amounts are cents (the accounting denomination 0.01), in
// 5 BCD bytes like SAS's other amounts; the payback is the top bet's.
//
// Choice: the cabinet has one game and answers game 0000 itself (as 0xA0):
// the Aristocrat client answers zeros there and keeps categories for games
// 1-n, but a single-game machine has no game 1, and the linked coin-in is
// the machine's. Another game number gets no reply.
func (s *sasPort) wagerCategory(data []byte) sas.Reply {
	game, cat, err := sas.ParseWagerCategoryPoll(data)
	snap := s.meters.Load()
	if err != nil || game != 0 || snap == nil {
		return sas.NoReply()
	}
	w := sas.WagerCategory{Game: game, Category: cat, Payback: "0000"}
	switch cat {
	case wagerAll:
		w.CoinIn = uint64(snap.m[meters.CoinIn])
	case wagerLinked:
		w.CoinIn = uint64(snap.linkedCoinIn)
	}
	if cat == wagerAll || cat == wagerLinked {
		w.Payback, w.Size, w.CoinIn = s.payback, 5, w.CoinIn%10_000_000_000
	}
	out, err := sas.WagerCategoryData(w)
	if err != nil {
		s.log.Error("SAS 0xB4", "err", err)
		return sas.NoReply()
	}
	return sas.ReplyData(out...)
}

// checkLinkAward checks the link award mode and the second-hit rule shown
// with it.
//
// Choice: broadcast is the default because it is what a standard SAS
// progressive controller expects (global broadcasts, a read of the hit,
// then the reset): a cabinet that waited for an addressed confirmation no
// standard controller sends would leave every hit pending. addressed is
// for a controller that decides the amount (cmd/linkctl with "award":
// "addressed"). A split rule needs the controller's amount, so it needs
// addressed.
func checkLinkAward(mode, rule string) error {
	if mode != machine.LinkAwardBroadcast && mode != machine.LinkAwardAddressed {
		return fmt.Errorf("--link-award %q: want %s or %s", mode, machine.LinkAwardBroadcast, machine.LinkAwardAddressed)
	}
	if rule != "wins-reset" && rule != "split" {
		return fmt.Errorf("--link-second-hit %q: want wins-reset or split (the controller's second_hit)", rule)
	}
	if rule == "split" && mode == machine.LinkAwardBroadcast {
		return fmt.Errorf("--link-second-hit split needs --link-award addressed: in broadcast mode each hit is paid the value the cabinet showed, which the controller cannot split")
	}
	return nil
}

// progressiveBroadcast passes the link controller's values of our group to
// the machine (in arrival order). An addressed single-level 0x80 for a
// level on which the cabinet reports a hit goes as a confirmation of that
// hit (the game it names is from the committed state the reports come
// from); the machine decides what it is in its award mode. Addressed polls
// are acknowledged; global ones are never answered.
func (s *sasPort) progressiveBroadcast(r sas.Request, now time.Time) sas.Reply {
	b, err := sas.ParseProgressiveBroadcast(r.Cmd, r.Data)
	if err != nil {
		s.log.Warn("SAS progressive broadcast refused", "cmd", fmt.Sprintf("%02X", r.Cmd), "err", err)
		return sas.NoReply()
	}
	if s.group != 0 && b.Group == s.group {
		var ev machine.Event
		if lv := b.Levels[0]; !r.Global && r.Cmd == sas.CmdSingleLevelBroadcast {
			if c, ok := s.claim(int(lv.Level)); ok {
				ev = machine.LinkConfirm{At: now, Level: c.Level, Game: c.Game, Cents: int64(lv.Amount)}
			}
		}
		if ev == nil {
			values := make(map[int]int64, len(b.Levels))
			for _, lv := range b.Levels {
				values[int(lv.Level)] = int64(lv.Amount)
			}
			ev = machine.LinkBroadcast{At: now, Values: values}
		}
		select {
		case s.linkCh <- ev:
		default:
			// The controller repeats its values and its confirmations.
			s.log.Warn("SAS progressive broadcast dropped: the machine is behind")
		}
	}
	return sas.ReplyAck()
}

// claim returns the reported hit on linked level lv, if there is one.
func (s *sasPort) claim(lv int) (meters.ProgressiveHit, bool) {
	snap := s.meters.Load()
	if snap == nil {
		return meters.ProgressiveHit{}, false
	}
	i := slices.IndexFunc(snap.claims, func(h meters.ProgressiveHit) bool { return h.Level == lv })
	if i < 0 {
		return meters.ProgressiveHit{}, false
	}
	return snap.claims[i], true
}

// progressiveWins answers 0x85 (the oldest) and 0x87 (all, up to 32) with
// the reported hits on linked levels not yet paid. They come from the
// ledger, so a hit is reported until it is paid, across restarts of
// either side.
//
// Choice: an entry stays until the award is committed, not only until the
// reply is acknowledged. In addressed mode the controller confirms it; in
// broadcast mode (standard SAS) the host's acknowledgement of the reply
// that carried it releases it: the machine then pays the value it
// reported, as the Aristocrat Monaco client does (its LP85 handler claims
// and awards the linked level on the implied acknowledgement, and reports
// the win until then). A host reads a hit again only if the cabinet
// restarted before the payment was committed; the link controller
// identifies a hit by machine, level and games played (the machine is
// locked while a hit is pending, so that meter stands still) and records
// it once, however often it reads it.
func (s *sasPort) progressiveWins(cmd byte) sas.Reply {
	snap := s.meters.Load()
	var claims []meters.ProgressiveHit
	if snap != nil {
		claims = snap.claims
	}
	var data []byte
	var err error
	var out []meters.ProgressiveHit
	if cmd == sas.CmdSASProgressiveWin {
		w := sas.ProgressiveWin{}
		if len(claims) > 0 {
			w = sas.ProgressiveWin{Group: s.group, Level: byte(claims[0].Level), Amount: uint64(claims[0].Cents)}
			out = claims[:1]
		}
		data, err = sas.ProgressiveWinData(w)
	} else {
		w := sas.ProgressiveWins{Group: s.group}
		out = claims[:min(len(claims), sas.MaxProgressiveLevel)]
		for _, c := range out {
			w.Wins = append(w.Wins, sas.LevelValue{Level: byte(c.Level), Amount: uint64(c.Cents)})
		}
		data, err = sas.MultipleProgressiveWinsData(w)
	}
	if err != nil {
		s.log.Error("SAS progressive win reply", "err", err)
		return sas.NoReply()
	}
	s.winsCmd, s.winsOut = cmd, slices.Clone(out)
	return sas.ReplyData(data...)
}

// ReplyAcked implements sas.ReplyObserver (called with mu held): the host
// received the reply to cmd; if it carried linked hits, they go to the
// machine when the host moves on again (onEvent).
func (s *sasPort) ReplyAcked(cmd byte) {
	if cmd == s.winsCmd && len(s.winsOut) > 0 {
		s.winsRead, s.winsNew = append(s.winsRead, s.winsOut...), true
	}
	s.winsCmd, s.winsOut = 0, nil
}

// ReplyDropped implements sas.ReplyObserver: a reply was lost with the
// link; the hits not yet released are reported again.
func (s *sasPort) ReplyDropped(byte) {
	s.winsCmd, s.winsOut, s.winsRead, s.winsNew = 0, nil, nil, false
}

// lastProgressiveWin answers 0x84: group, level and amount of the last
// progressive win the cabinet paid (to credits or by hand), all zero when
// none since SAS was turned on for this ledger.
//
// Choice: the last award, one level (a game that won two levels reports the
// one paid last); a linked level with the SAS group, a local level with
// group 0 as the Aristocrat Monaco client reports a non-SAS level. The
// 6.02 digest gives the layout (group, level, 5 BCD amount) and nothing
// more.
func (s *sasPort) lastProgressiveWin() sas.Reply {
	data, err := sas.ProgressiveWinData(s.lastWin)
	if err != nil {
		s.log.Error("SAS 0x84", "err", err)
		return sas.NoReply()
	}
	return sas.ReplyData(data...)
}

// cumulativeProgressive answers 0x83 for the machine (game 0): every
// progressive win paid, by the machine or by hand, in cents.
func (s *sasPort) cumulativeProgressive(data []byte) sas.Reply {
	game, err := sas.DecodeGameNumber(data)
	snap := s.meters.Load()
	if err != nil || game != 0 || snap == nil {
		return sas.NoReply()
	}
	total := snap.m[meters.MachinePaidProgressive] + snap.m[meters.AttendantPaidProgressive]
	out, err := sas.CumulativeProgressiveWinsData(0, uint64(total)%100_000_000)
	if err != nil {
		return sas.NoReply()
	}
	return sas.ReplyData(out...)
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
