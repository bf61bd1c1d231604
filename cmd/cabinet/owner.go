package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/meters/inspect"
)

// deviceSink carries out device commands after their records are committed,
// and follows the committed state (lamps, hard meters).
type deviceSink interface {
	apply(machine.Device)
	follow(machine.View, *meters.Ledger) []machine.Event
	inputLevels() map[string]bool
}

// owner is the one goroutine that steps the machine and commits its records
// (DESIGN: one goroutine owns machine/). Other goroutines submit events and
// wait for the step to be done, commit included.
type owner struct {
	m       *machine.Machine
	ledger  *meters.Ledger // nil when the ledger could not be opened
	log     *slog.Logger
	devices deviceSink
	reqs    chan request
	view    atomic.Pointer[machine.View]
	// afterCommit hooks run on the owner goroutine after records are durable.
	afterCommit []func([]meters.Record, *meters.Ledger)
	data        string // the data directory (the ledger is DATA/ledger)
	mark        *faultMark
	// reportDir is where the inspector's reports go ("": DATA/reports);
	// approval is the program's approval as the start-up found it.
	reportDir, approval string
	// hasher checks and hashes PINs on a worker (machine.PINJob); stopped
	// is closed when the loop ends, so a late worker does not wait for it.
	hasher  machine.PINHasher
	stopped chan struct{}

	// onCashOut hooks run on the owner goroutine when the player pressed
	// the cash-out button (machine.CashOutPressed), after the step's commit.
	onCashOut []func()
	// poker carries out the poker seat's effects (nil: no table server).
	poker *pokerEdge
}

type request struct {
	ev    machine.Event
	read  func() // runs on the owner goroutine (reads of the ledger)
	fault error  // a meter that can no longer be kept (hard meters)
	done  chan stepped
}

// stepped is what one event did: its effects and the view right after it
// (later events from elsewhere may change the view before the caller
// reads it; a reply describes its own event).
type stepped struct {
	eff  machine.Effects
	view machine.View
}

func newOwner(m *machine.Machine, l *meters.Ledger, log *slog.Logger) *owner {
	o := &owner{m: m, ledger: l, log: log, reqs: make(chan request), hasher: machine.Argon2id, stopped: make(chan struct{})}
	v := m.View()
	o.view.Store(&v)
	return o
}

// step runs on the owner goroutine: the machine's records are committed to
// the ledger first; only then are device commands carried out and the new
// view published (commit before show).
func (o *owner) step(ev machine.Event) machine.Effects {
	eff := o.m.Step(ev)
	if len(eff.Records) > 0 {
		n, err := 0, errNoLedger
		if o.ledger != nil {
			n, err = o.ledger.CommitN(eff.Records...)
		}
		if n > 0 {
			for _, r := range eff.Records[:n] {
				o.log.Info("committed", "record", r.Type().String(), "commit_last_seq", o.ledger.LastSeq())
			}
			// The view shows what is now durable before the hooks tell
			// anyone (the SAS host learns a transfer is done from them,
			// and reads the credits it left from the view at once).
			if err == nil {
				o.publish()
			}
			for _, f := range o.afterCommit {
				f(eff.Records[:n], o.ledger)
			}
		}
		if err != nil {
			// The step's devices would act on records that are not
			// durable: the fault's own (acceptor off, note returned) only.
			eff.Devices = o.meterFault(err)
		}
	}
	answers := o.apply(eff.Devices)
	v := o.publish()
	if o.devices != nil && len(eff.Records) > 0 {
		answers = append(answers, o.devices.follow(v, o.ledger)...)
	}
	for _, ev := range answers {
		o.step(ev)
	}
	return eff
}

// apply carries out device commands; the owner answers some itself.
func (o *owner) apply(devs []machine.Device) (answers []machine.Event) {
	for _, d := range devs {
		if il, ok := d.(machine.InspectLedger); ok {
			answers = append(answers, o.inspect(il))
		} else if _, ok := d.(machine.CashOutPressed); ok {
			for _, f := range o.onCashOut {
				f()
			}
		} else if _, ok := d.(machine.PINJob); ok {
			continue // the loop hands it to a worker
		} else if o.poker != nil && o.poker.take(d) {
			continue
		} else if o.devices != nil {
			o.devices.apply(d)
		}
	}
	return answers
}

// publish makes the machine's view the one shown.
func (o *owner) publish() machine.View {
	v := o.m.View()
	if v.Service != nil && v.Service.Page == "io" && o.devices != nil {
		v.Service.Inputs = o.devices.inputLevels()
	}
	o.view.Store(&v)
	return v
}

// meterFault stops the machine on what the ledger holds and keeps the
// reason outside the ledger, so a restart does not forget it.
func (o *owner) meterFault(err error) []machine.Device {
	o.log.Error("meter fault: play stops until a technician acts", "err", err)
	if o.mark != nil {
		if merr := o.mark.set(err.Error()); merr != nil {
			o.log.Error("meter fault not kept outside the ledger", "err", merr)
		}
	}
	var committed *meters.State
	if o.ledger != nil {
		committed = o.ledger.State()
	}
	return o.m.Step(machine.LedgerFault{At: time.Now(), Err: err.Error(), Committed: committed}).Devices
}

// inspect verifies the ledger as meterread verify does (on a private copy:
// the owner is the only writer and it is busy here, so the copy is
// consistent) and, when asked, writes the signed report to
// DATA/reports/report-TIME.txt with its signature by the machine key in
// .sig beside it.
func (o *owner) inspect(il machine.InspectLedger) machine.Event {
	now := time.Now()
	dir := filepath.Join(o.data, "ledger")
	var pub ed25519.PublicKey
	if o.ledger != nil {
		pub = o.ledger.PublicKey() // the key store's: the one registered at commissioning
	}
	v, st := inspect.Verify(dir, pub)
	if st != nil && o.ledger != nil && st.Meters != o.ledger.State().Meters {
		// What the machine runs on must be what its log says.
		v.OK = false
		v.Problems = append(v.Problems, "the meters the machine runs on differ from the fold of its log")
	}
	out := machine.Verdict{OK: v.OK, Summary: v.Line("en"), Problems: v.Problems,
		Records: v.Records, Checkpoints: v.Checkpoints, KeyID: v.KeyID, LastHash: v.LastHash}
	if il.Export && o.ledger != nil {
		var paths, failed []string
		err := errors.New("the log cannot be folded")
		if st != nil {
			paths, failed, err = o.exportReport(dir, st, v, now)
		}
		if len(paths) == 2 {
			out.Report, out.ReportJSON = paths[0], paths[1]
		}
		if err != nil {
			out.Problems = append(out.Problems, "report not exported: "+err.Error())
		}
		if len(failed) > 0 {
			// A section that does not add up to its meter: the records
			// and the meters disagree, which the menu's verdict says too.
			out.OK = false
			out.Problems = append(out.Problems, failed...)
		}
	}
	o.log.Info("ledger inspected", "who", il.Who, "ok", out.OK, "report", out.Report)
	return machine.LedgerVerdict{At: now, Verdict: out}
}

// exportReport writes the inspector's report, as text in the cabinet's
// language and as JSON, each signed by the machine key, to the report
// directory (removable media the operator configured, or DATA/reports).
// failed names the report's checks that do not hold.
func (o *owner) exportReport(dir string, st *meters.State, v inspect.Verdict, now time.Time) (paths, failed []string, err error) {
	h, err := inspect.ReadHistory(dir, time.Time{}, time.Time{})
	if err != nil {
		return nil, nil, err
	}
	r := inspect.BuildReport(st, v, h, inspect.Issuer{At: now, Approval: o.approval})
	for _, c := range r.Checks.Rows {
		if !c.Holds {
			failed = append(failed, fmt.Sprintf("report check fails: %s %s: %d, meter %s %d", c.Section, c.Name, c.Sum, c.Meter, c.Value))
		}
	}
	out := o.reportDir
	if out == "" {
		out = filepath.Join(o.data, "reports")
	}
	if err := os.MkdirAll(out, 0o700); err != nil {
		return nil, failed, err
	}
	lang := st.Settings["language"] // the operator's; Portuguese by default
	paths, err = inspect.ReportFiles(out, "report-"+now.UTC().Format("20060102-150405"), r, lang, o.ledger.Sign,
		func(p string, data []byte) error { return atomicfile.Write(p, data, 0o644) })
	return paths, failed, err
}

// submit hands an event to the owner and waits until it is committed.
func (o *owner) submit(ev machine.Event) machine.Effects { return o.submitSeen(ev).eff }

// submitSeen is submit with the view right after the event.
func (o *owner) submitSeen(ev machine.Event) stepped {
	done := make(chan stepped, 1)
	o.reqs <- request{ev: ev, done: done}
	return <-done
}

// fault reports, from another goroutine, a meter that can no longer be kept.
func (o *owner) fault(err error) {
	done := make(chan stepped, 1)
	o.reqs <- request{fault: err, done: done}
	<-done
}

// read runs f on the owner goroutine, where the ledger may be read.
func (o *owner) read(f func()) {
	done := make(chan stepped, 1)
	o.reqs <- request{read: f, done: done}
	<-done
}

func (o *owner) loop(ctx context.Context) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	defer close(o.stopped)
	for {
		select {
		case <-ctx.Done():
			o.step(machine.PowerDown{At: time.Now()})
			return
		case now := <-tick.C:
			o.step(machine.Tick{At: now})
		case r := <-o.reqs:
			switch {
			case r.read != nil:
				r.read()
				r.done <- stepped{}
			case r.fault != nil:
				o.apply(o.meterFault(r.fault))
				r.done <- stepped{view: o.publish()}
			default:
				eff := o.step(r.ev)
				if job := pinJob(eff.Devices); job != nil {
					// The caller is answered by the job's answer event.
					go o.work(job, r.done)
					continue
				}
				r.done <- stepped{eff: eff, view: *o.view.Load()}
			}
		}
	}
}

var errNoLedger = errors.New("the ledger is not open")

// pinJob is the PIN to hash or check among an event's devices, if any.
func pinJob(devs []machine.Device) machine.PINJob {
	for _, d := range devs {
		if j, ok := d.(machine.PINJob); ok {
			return j
		}
	}
	return nil
}

// work runs a PIN job away from the owner goroutine (argon2id takes 19 MiB
// and tens of milliseconds, which every other event would wait), then
// steps its answer as the request of the caller who is waiting for it.
func (o *owner) work(job machine.PINJob, done chan stepped) {
	ev := job.Do(o.hasher, time.Now())
	select {
	case o.reqs <- request{ev: ev, done: done}:
	case <-o.stopped:
		done <- stepped{view: *o.view.Load()}
	}
}
