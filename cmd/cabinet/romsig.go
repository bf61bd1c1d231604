package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/openegm/cabinet/sas"
)

// runningProgram reads the program this process runs. On Linux
// /proc/self/exe is the inode that was executed, even after the file at
// its path was replaced (an upgrade renames a new file over it) or
// removed; elsewhere the executable's path is the best there is.
func runningProgram() ([]byte, error) {
	if runtime.GOOS == "linux" {
		return mapFile("/proc/self/exe")
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return os.ReadFile(exe)
}

// romImage is what the ROM signature (SAS 0x21) covers, in order: the
// running program as the self-test read it (it embeds the paytables, their
// signatures and the certification keys), then the files of --paytable-dir
// in name order, then the --jackpot file, if one is given (a configuration
// file changes what bets pay into and what mystery levels hit at; the
// embedded default is inside the program). The files are read once, here,
// at start-up: the signature is of what the cabinet started with. Parts,
// not one buffer: the program is not copied.
//
// A paytable chosen later in the service menu is loaded from the directory
// as it is then; the signature stays that of the directory at start-up.
func romImage(program []byte, paytableDir, jackpotFile string) ([][]byte, error) {
	if program == nil {
		return nil, errNoProgram
	}
	parts := [][]byte{program}
	if paytableDir != "" {
		files, err := filepath.Glob(filepath.Join(paytableDir, "*.json*"))
		if err != nil {
			return nil, err
		}
		slices.Sort(files)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			parts = append(parts, b)
		}
	}
	if jackpotFile != "" && jackpotFile != "embedded" && jackpotFile != "off" {
		b, err := os.ReadFile(jackpotFile)
		if err != nil {
			return nil, err
		}
		parts = append(parts, b)
	}
	return parts, nil
}

var errNoProgram = errors.New("the program image could not be read at start-up")

// romSignQueue is how many seeds may wait while a signature is computed.
const romSignQueue = 4

// romSigner computes ROM signatures one at a time on its own goroutine,
// which holds no lock while it computes, so the serve loop answers other
// polls meanwhile. Seeds wait in a bounded queue: a seed already waiting
// or being computed is not queued twice (a host repeats 0x21 until the
// signature comes), and a new seed when the queue is full is refused, the
// port answers busy and the host asks again.
type romSigner struct {
	image   [][]byte
	deliver func(seed, sig uint16) // hands the signature to the link

	mu      sync.Mutex
	waiting []uint16
	busy    bool   // a signature is being computed
	current uint16 // its seed
	wake    chan struct{}

	// For tests: computations running now and the most ever at once, the
	// longest the queue has been.
	running, maxRunning, maxWaiting atomic.Int32
}

func newROMSigner(image [][]byte, deliver func(seed, sig uint16)) *romSigner {
	return &romSigner{image: image, deliver: deliver, wake: make(chan struct{}, 1)}
}

// request queues seed and reports whether it was accepted (queued now or
// already on its way). It never waits for a computation.
func (r *romSigner) request(seed uint16) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.busy && r.current == seed || slices.Contains(r.waiting, seed) {
		return true
	}
	if len(r.waiting) >= romSignQueue {
		return false
	}
	r.waiting = append(r.waiting, seed)
	raise(&r.maxWaiting, int32(len(r.waiting)))
	select {
	case r.wake <- struct{}{}:
	default: // already woken: the loop takes every seed queued
	}
	return true
}

// run computes the queued signatures, oldest first, until ctx is done.
func (r *romSigner) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		}
		for {
			r.mu.Lock()
			if len(r.waiting) == 0 {
				r.busy = false
				r.mu.Unlock()
				break
			}
			seed := r.waiting[0]
			r.waiting = r.waiting[1:]
			r.busy, r.current = true, seed
			r.mu.Unlock()
			r.deliver(seed, r.sign(seed))
		}
	}
}

// sign is the SAS CRC seeded by the host over the image, part after part
// (the CRC of a concatenation is the CRC of each part seeded with the one
// before).
func (r *romSigner) sign(seed uint16) uint16 {
	raise(&r.maxRunning, r.running.Add(1))
	defer r.running.Add(-1)
	sig := seed
	for _, p := range r.image {
		sig = sas.CRCSeeded(sig, p)
	}
	return sig
}

// raise sets a to n if n is more, atomically.
func raise(a *atomic.Int32, n int32) {
	for {
		old := a.Load()
		if n <= old || a.CompareAndSwap(old, n) {
			return
		}
	}
}
