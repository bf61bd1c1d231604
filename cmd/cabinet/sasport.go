package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/sas"
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
	// aftAsset is the machine's AFT asset number (0: AFT off) and
	// aftLimit the most one transfer may put on the credit meter, cents.
	aftAsset uint32
	aftLimit int64
	// aftDebit: debit transfers to the credit meter are accepted.
	aftDebit bool
	// validation is how cash-outs are numbered (machine.Config.Validation)
	// and receipts whether handpay receipts are printed (--handpay-confirm):
	// what 0x7B and 0xA0 report (sasport_tickets_ext.go).
	validation string
	receipts   bool
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
	qkept   *atomicfile.Kept // qfile, opened by restore
	meters  atomic.Pointer[meterSnap]
	info    []byte // the 0x1F reply data
	payback string // the top bet's RTP, 4 digits (0xB4)
	serial  string
	rom     *romSigner // nil: the image it covers could not be read
	// maxBetCredits is the reel game's top bet (0xB5).
	maxBetCredits int64

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

	// aft is the AFT core (nil: AFT off), under mu; aftLocked is the lock
	// state last ordered to the machine.
	aft       *aft.Core
	aftLocked bool

	seq    uint64 // ledger records up to here are in the queue (under mu)
	ver    uint64 // queue version (under mu)
	saveMu sync.Mutex
	saved  uint64 // version last written (under saveMu)

	tickets ticketLink // under mu
	// validation and receipts: sasOptions'.
	validation string
	receipts   bool
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
		ordersWake: make(chan struct{}, 1), validation: o.validation, receipts: o.receipts}
	s.link.Handler = s
	s.rt = sas.RealTimeConfig{Group: s.group, MaxBetLevel: -1}
	if pt != nil {
		s.rt.MaxBetLevel = pt.TopLevel()
		s.maxBetCredits = pt.Bet(pt.TopLevel())
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
				eff := own.submit(ev)
				if t, ok := ev.(machine.AFTTransfer); ok {
					s.aftSettle(t, eff)
				}
			}
		}
	}()
	if l != nil {
		st := l.State()
		s.publish(st)
		if err := s.restore(l); err != nil {
			return nil, err
		}
		if o.aftAsset != 0 {
			// Power-up: the core starts from what the ledger folded; a
			// transfer decided and not committed before the power loss
			// never happened (the host sends it again under its ID).
			s.aft = aft.New(aftConfig(o.aftAsset, o.aftLimit, o.aftDebit), st.AFT)
			go s.aftTicker(ctx)
			own.onCashOut = append(own.onCashOut, s.cashOutPressed)
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

// aftTicker moves the AFT lock on when no AFT poll does.
func (s *sasPort) aftTicker(ctx context.Context) {
	t := time.NewTicker(aftTickEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			s.mu.Lock()
			s.aftTick(s.aftConditions(), now)
			s.mu.Unlock()
		}
	}
}

func (s *sasPort) serveOptions() sas.ServeOptions {
	return sas.ServeOptions{Lock: &s.mu, OnEvent: s.onEvent}
}
