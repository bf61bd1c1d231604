package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/openegm/cabinet/hw"
	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// hardware joins hw/ and the machine: debounced inputs and device events
// become machine events, device commands become pin and device actions, and
// the lamps and electromechanical meters follow the committed state.
type hardware struct {
	board   *hw.Board
	pulsers *hw.Pulsers
	own     *owner
	data    string
	log     *slog.Logger

	mu        sync.Mutex
	processed map[string]int     // events handled per source (input or device kind)
	last      map[string]stepped // what the last one did
	// driving serialises the simulator's actions on one input or device
	// (one bill in the validator at a time, one hand on a button): the
	// next event from that source is the one the action caused.
	driving map[string]*sync.Mutex
	who     map[string]string // key holder announced for the next key turn
	levels  map[string]bool   // last debounced level of every input (I/O test)
	handled map[string]bool   // level of the last change of each input the machine handled
	// offsets are added to the ledger's counts to give the hard meters'
	// targets: a RAM clear zeroes the ledger, a hard meter never goes back.
	// ramClears is the ledger's count of RAM clears they account for.
	offsets   map[string]uint64
	ramClears uint64
	// meterErr says why the hard meters cannot be kept (pulsers nil): a
	// meter fault the owner reports, with the rest of the cabinet up.
	meterErr error
	// receipts are the handpay receipts printed (the simulated printer
	// prints tickets only; a real cabinet's receipt printer is to come).
	receipts []machine.PrintReceipt
}

const offsetsFile = "offsets.json"

// pulseCents is the value of one pulse of a money hard meter: one euro.
const pulseCents = 100

func openHardware(ctx context.Context, mapping *hw.Mapping, simulated bool, printDelay time.Duration, own *owner, l *meters.Ledger, data string, log *slog.Logger) (*hardware, error) {
	board, err := hw.Open(mapping, simulated)
	if err != nil {
		return nil, err
	}
	h := &hardware{board: board, own: own, data: data, log: log,
		processed: map[string]int{}, last: map[string]stepped{}, driving: map[string]*sync.Mutex{}, who: map[string]string{}, levels: map[string]bool{}, handled: map[string]bool{}}
	if sim := board.Sim(); sim != nil {
		// What the simulated validator and printer keep across a power
		// loss lives beside the ledger, as the devices' own memory.
		if err := sim.KeepDevices(hw.SimDevices{Dir: filepath.Join(data, "devices"), PrintDelay: printDelay}); err != nil {
			board.Close()
			return nil, err
		}
	}
	if err := h.openMeters(l); err != nil {
		h.meterErr, h.pulsers = fmt.Errorf("hard meters: %w", err), nil
	}
	go board.Run(ctx)
	go h.inputs(ctx)
	if sim := board.Sim(); sim != nil {
		go h.deviceEvents(ctx, sim)
	}
	if h.pulsers != nil {
		go func() {
			// A hard meter that cannot keep its count is a meter fault (rule 9).
			if err := h.pulsers.Run(ctx); err != nil && ctx.Err() == nil {
				own.fault(fmt.Errorf("hard meter: %w", err))
			}
		}()
	}
	return h, nil
}

// openMeters opens the electromechanical meters' pulsers with their counts.
func (h *hardware) openMeters(l *meters.Ledger) error {
	var err error
	if h.pulsers, err = h.board.OpenPulsers(filepath.Join(h.data, "hardmeters")); err != nil {
		return err
	}
	h.offsets = map[string]uint64{}
	if b, err := os.ReadFile(filepath.Join(h.data, "hardmeters", offsetsFile)); err == nil {
		var f offsetsData
		if err := json.Unmarshal(b, &f); err != nil || f.Offsets == nil {
			// The first version kept the offsets alone, one RAM clear
			// ago at most.
			f = offsetsData{Offsets: map[string]uint64{}}
			if err := json.Unmarshal(b, &f.Offsets); err != nil {
				return fmt.Errorf("offsets: %w", err)
			}
			if l != nil && len(f.Offsets) > 0 {
				f.RAMClears = l.State().RAMClears
			}
		}
		h.offsets, h.ramClears = f.Offsets, f.RAMClears
	}
	// A new board on an existing ledger starts its hard meters where the
	// ledger is, rather than pulsing a lifetime; this must happen before the
	// pulsers run.
	if l != nil {
		for meter, target := range hardTargets(l) {
			if st, err := h.pulsers.Status(meter); err == nil && st.Fresh && st.Delivered == 0 && !st.InFlight {
				if err := h.pulsers.Baseline(meter, target+h.offsets[meter]); err != nil {
					return fmt.Errorf("baseline of %s: %w", meter, err)
				}
			}
		}
	}
	// A RAM clear the offsets do not account for (a new board, offsets of
	// the first version, a power loss before they were saved): what the ledger
	// owed before it is unknown, so each hard meter counts on from what it
	// shows, read while no pulser runs.
	if l != nil && l.State().RAMClears > h.ramClears {
		for meter, target := range hardTargets(l) {
			if st, err := h.pulsers.Status(meter); err == nil {
				h.offsets[meter] = 0
				if st.Delivered > target {
					h.offsets[meter] = st.Delivered - target
				}
			}
		}
		h.ramClears = l.State().RAMClears
		if err := h.saveOffsets(); err != nil {
			h.log.Error("hard meter offsets not saved", "err", err)
		}
	}
	return nil
}

// status is what the money devices report at power-up.
func (h *hardware) status() machine.DeviceStatus {
	sim := h.board.Sim()
	if sim == nil {
		// No validator or printer driver on real hardware yet: an order
		// left open is settled as "not done" (a ticket becomes a handpay).
		return machine.DeviceStatus{PrinterFault: "no printer"}
	}
	return machine.DeviceStatus{LastStacked: sim.Bills().LastStacked(), PrinterFault: sim.Printer().Fault()}
}

// hardTargets are the electromechanical meters' counts the ledger implies.
func hardTargets(l *meters.Ledger) map[string]uint64 {
	return map[string]uint64{
		"meter_coin_in":  uint64(l.Meter(meters.CoinIn) / pulseCents),
		"meter_coin_out": uint64(l.Meter(meters.CoinOut) / pulseCents),
		"meter_drop":     uint64(l.Meter(meters.TotalDrop) / pulseCents),
		"meter_jackpot":  uint64(l.Meter(meters.HandpaidWins) / pulseCents),
		"meter_games":    uint64(l.Meter(meters.GamesPlayed)),
	}
}

func (h *hardware) close() { h.board.Close() }

// inputs turns debounced pin changes into machine events.
func (h *hardware) inputs(ctx context.Context) {
	for in := range h.board.Inputs() {
		h.mu.Lock()
		h.levels[in.Name] = in.Active
		h.mu.Unlock()
		var ev machine.Event
		switch {
		case strings.HasPrefix(in.Name, "door_"):
			ev = machine.Door{At: in.At, Door: strings.TrimPrefix(in.Name, "door_"), Open: in.Active}
		case in.Name == machine.KeyAttendant:
			h.mu.Lock()
			who := h.who[in.Name]
			delete(h.who, in.Name)
			h.mu.Unlock()
			ev = machine.Key{At: in.At, Key: in.Name, On: in.Active, Who: who}
		case in.Active && isButton(in.Name):
			ev = machine.Button{At: in.At, Name: in.Name}
		}
		res := stepped{view: *h.own.view.Load()}
		if ev != nil {
			res = h.own.submitSeen(ev)
		}
		h.handledInput(in, res)
		if ctx.Err() != nil {
			return
		}
	}
}

func isButton(name string) bool {
	return isPinButton(name) || name == machine.BtnDeal || name == machine.BtnClearBets
}

// isPinButton: the button is a physical one on the cabinet's panel (the
// table game's deal and clear are touches on the screen).
func isPinButton(name string) bool {
	switch name {
	case machine.BtnSpin, machine.BtnBetUp, machine.BtnBetDown, machine.BtnMaxBet, machine.BtnCashOut, machine.BtnHelp, machine.BtnLanguage:
		return true
	}
	return false
}

// deviceEvents turns the simulated validator's and printer's reports into
// machine events, as a real device driver would.
func (h *hardware) deviceEvents(ctx context.Context, sim *hw.Sim) {
	for {
		select {
		case <-ctx.Done():
			return
		case de := <-sim.Events():
			now := time.Now()
			var ev machine.Event
			switch e := de.(type) {
			case hw.BillEscrowed:
				ev = machine.BillEscrowed{At: now, Cents: e.Cents}
			case hw.BillStacked:
				ev = machine.BillStacked{At: now, Cents: e.Cents, Order: e.Order}
			case hw.BillRejected:
				ev = machine.BillRejected{At: now, Cents: e.Cents, Reason: e.Reason, Order: e.Order}
			case hw.BillJam:
				ev = machine.BillJam{At: now}
			case hw.BillJamCleared:
				ev = machine.BillJamCleared{At: now}
			case hw.TicketPrinted:
				ev = machine.TicketPrinted{At: now, Validation: e.Validation}
			case hw.PrinterFault:
				ev = machine.PrinterFault{At: now, Reason: e.Reason, Validation: e.Validation}
			case hw.PrinterReady:
				ev = machine.PrinterOK{At: now}
			}
			res := stepped{view: *h.own.view.Load()}
			if ev != nil {
				res = h.own.submitSeen(ev)
			}
			h.done(de.Kind(), res)
		}
	}
}

// handledInput counts a change of an input the machine has handled. The
// level goes with the count, under one lock: a waiter (awaitLevel) sees the
// level and the result of the same change.
func (h *hardware) handledInput(in hw.Input, res stepped) {
	h.mu.Lock()
	h.handled[in.Name] = in.Active
	h.processed[in.Name]++
	h.last[in.Name] = res
	h.mu.Unlock()
}

func (h *hardware) done(source string, res stepped) {
	h.mu.Lock()
	h.processed[source]++
	h.last[source] = res
	h.mu.Unlock()
}

// awaitLimit is how long the control socket waits for a device's event.
const awaitLimit = 30 * time.Second

// hold reserves an input or device (named by what) for one caller's
// action until the returned release: with one action at a time on it, the
// next event from it is that action's and not another caller's.
func (h *hardware) hold(what string) (release func()) {
	h.mu.Lock()
	lock := h.driving[what]
	if lock == nil {
		lock = &sync.Mutex{}
		h.driving[what] = lock
	}
	h.mu.Unlock()
	lock.Lock()
	return lock.Unlock
}

// await runs act and waits until the machine has handled the next event
// from one of sources (the control socket answers after the commit). The
// caller holds the device (hold).
func (h *hardware) await(act func() error, sources ...string) (stepped, error) {
	return h.awaitWhen(act, func(string) bool { return true }, sources...)
}

// awaitLevel runs act (which sets pin to level) and waits until the machine
// has handled that pin at that level. Any report will not do: at power-up
// the pin's first stable level (the button up) may still be on its way, and
// taking it for the press let the release follow within the debounce
// window, so the press was never seen and the release waited in vain.
func (h *hardware) awaitLevel(act func() error, pin string, level bool) (stepped, error) {
	return h.awaitWhen(act, func(s string) bool { return h.handled[s] == level }, pin)
}

// awaitWhen waits for a new event from one of sources after which ok holds
// (called with h.mu held).
func (h *hardware) awaitWhen(act func() error, ok func(source string) bool, sources ...string) (stepped, error) {
	h.mu.Lock()
	before := make([]int, len(sources))
	for i, s := range sources {
		before[i] = h.processed[s]
	}
	h.mu.Unlock()
	if err := act(); err != nil {
		return stepped{}, err
	}
	// Generous: a loaded machine (or one under the race detector) can
	// take seconds to debounce, commit and answer; a device that never
	// answers is still reported.
	deadline := time.Now().Add(awaitLimit)
	for {
		h.mu.Lock()
		for i, s := range sources {
			if h.processed[s] != before[i] && ok(s) {
				res := h.last[s]
				h.mu.Unlock()
				return res, nil
			}
		}
		h.mu.Unlock()
		if time.Now().After(deadline) {
			return stepped{}, fmt.Errorf("no %v event within %v", sources, awaitLimit)
		}
		time.Sleep(time.Millisecond)
	}
}

// announce sets who holds the key for its next turn.
func (h *hardware) announce(key, who string) {
	h.mu.Lock()
	h.who[key] = who
	h.mu.Unlock()
}

// apply carries out device commands, on the owner goroutine, after commit.
func (h *hardware) apply(d machine.Device) {
	sim := h.board.Sim()
	switch c := d.(type) {
	case machine.EnableBills:
		if sim != nil {
			sim.Bills().Accept(c.Accept)
			sim.Bills().Enable(c.On)
		}
	case machine.PrintTicket:
		if sim != nil {
			if err := sim.Printer().Print(hw.Ticket{Validation: c.Validation, Cents: c.Cents, MachineID: c.MachineID, At: c.At, Reprint: c.Reprint}); err != nil {
				h.log.Error("printer refused the ticket", "validation", c.Validation, "err", err)
			} else if _, err := saveTicketPNG(filepath.Join(h.data, ticketsDir), c); err != nil {
				h.log.Error("the printed ticket's picture", "validation", c.Validation, "err", err)
			}
		}
	case machine.ReturnTicket:
		h.log.Info("ticket returned to the player", "ticket", c.Digits, "reason", c.Reason)
	case machine.StackTicket:
		h.log.Info("ticket stacked", "ticket", c.Digits)
	case machine.PrintAFTReceipt:
		h.printAFTReceipt(c)
	case machine.PrintReceipt:
		h.log.Info("handpay receipt", "kind", c.Kind, "cents", c.Cents, "game", c.Game, "ref", c.Ref, "paid_by", c.Who, "validation", c.Validation)
		if _, err := saveReceiptPNG(filepath.Join(h.data, ticketsDir), c); err != nil {
			h.log.Error("the handpay receipt's picture", "validation", c.Validation, "err", err)
		}
		h.mu.Lock()
		h.receipts = append(h.receipts, c)
		h.mu.Unlock()
	case machine.StackBill:
		if sim != nil {
			if err := sim.Bills().Stack(c.Order); err != nil {
				h.log.Error("validator could not stack the note", "order", c.Order, "err", err)
			}
		}
	case machine.ReturnBill:
		if sim != nil {
			if err := sim.Bills().Return(c.Reason, c.Order); err != nil && !errors.Is(err, hw.ErrNoEscrow) {
				h.log.Error("validator could not return the note", "order", c.Order, "err", err)
			}
		}
	case machine.TestOutput:
		if err := h.board.SetLamp(c.Name, c.On); err != nil {
			h.log.Error("I/O test", "output", c.Name, "err", err)
		}
	case machine.StorePIN:
		if err := storePIN(h.data, c.Role, c.Hash); err != nil {
			h.log.Error("storing the new PIN failed; the old one stays valid after a restart", "role", c.Role, "err", err)
		}
	}
}

// inputLevels is a copy of the live input levels.
func (h *hardware) inputLevels() map[string]bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.levels)
}

// offsetsData is the hard meters' offsets file.
type offsetsData struct {
	Offsets   map[string]uint64 `json:"offsets"`
	RAMClears uint64            `json:"ram_clears"`
}

// follow sets lamps and hard-meter targets from the committed state; it runs
// on the owner goroutine after every step. A hard meter ahead of the
// ledger with no RAM clear to explain it means the ledger went back behind
// the machine's back: that is returned as evidence for the machine.
func (h *hardware) follow(v machine.View, l *meters.Ledger) []machine.Event {
	// The I/O test owns the lamps while the menu is open; the hard meters
	// follow the ledger there too (a RAM clear is made there).
	if v.Mode != "service" {
		h.followLamps(v)
	}
	if l == nil || l.Fault() != nil || h.pulsers == nil {
		return nil
	}
	var evidence []machine.Event
	clears := l.State().RAMClears
	if clears > h.ramClears {
		h.countOnAfterRAMClear(clears)
	}
	for meter, target := range hardTargets(l) {
		err := h.pulsers.SetTarget(meter, target+h.offsets[meter])
		if errors.Is(err, hw.ErrTargetBelowDelivered) {
			st, _ := h.pulsers.Status(meter)
			shown := st.Delivered
			if st.InFlight {
				shown++
			}
			evidence = append(evidence, machine.Tamper{At: time.Now(), Tilt: machine.TiltRollback,
				Detail: fmt.Sprintf("hard meter %s shows %d, the ledger %d, with no RAM clear since: the ledger is older than the meters", meter, shown, target+h.offsets[meter])})
			continue
		}
		if err != nil {
			h.log.Error("hard meter", "meter", meter, "err", err)
		}
	}
	return evidence
}

func (h *hardware) followLamps(v machine.View) {
	play := v.Mode == "idle"
	alarm := v.Mode == "tilt" || v.Mode == "handpay" || v.Mode == "meter_fault" || v.Mode == "door_open"
	for lamp, on := range map[string]bool{
		"lamp_spin": play && v.CreditsCents >= v.BetCents, "lamp_cash_out": play && v.CreditsCents > 0,
		"lamp_bet": play, "tower_top": alarm, "tower_bottom": v.Mode == "handpay" || v.Mode == "service",
	} {
		h.board.SetLamp(lamp, on)
	}
}

// countOnAfterRAMClear takes the RAM clear the ledger just made into the
// offsets: every hard meter counts on from the target it had, which is what
// the ledger owed it before the clear (its pulses delivered or still owed).
// Not from what it shows: the driver is still delivering the owed pulses,
// which would be lost, and the count moves while it is read. The target is
// the last one follow set from the ledger before the clear (a commit always
// follows power-up, before any clear can).
func (h *hardware) countOnAfterRAMClear(clears uint64) {
	for _, meter := range h.pulsers.Meters() {
		if st, err := h.pulsers.Status(meter); err == nil {
			h.offsets[meter] = st.Target
			h.log.Info("hard meter continues after the RAM clear", "meter", meter, "offset", st.Target, "shown", st.Delivered)
		}
	}
	h.ramClears = clears
	if err := h.saveOffsets(); err != nil {
		h.log.Error("hard meter offsets not saved", "err", err)
	}
}

func (h *hardware) saveOffsets() error {
	b, err := json.Marshal(offsetsData{Offsets: h.offsets, RAMClears: h.ramClears})
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(h.data, "hardmeters", offsetsFile), b, 0o600)
}
