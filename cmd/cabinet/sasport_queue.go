// The SAS port's exception queue: derived from the committed records,
// persisted with the ledger sequence it covers, restored so a restart
// neither loses nor repeats an exception.

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
)

// sasQueueFile holds the exception queue and the ledger sequence number up
// to which records have been turned into exceptions.
type sasQueueFile struct {
	Seq     uint64             `json:"seq"`
	Queue   []byte             `json:"queue"`
	LastWin sas.ProgressiveWin `json:"last_win,omitzero"`
}

// restore loads the persisted queue, then turns every record committed after
// it into exceptions again, so a restart neither loses nor repeats one. A
// missing file means SAS is new on this ledger: nothing from before is owed.
func (s *sasPort) restore(l *meters.Ledger) error {
	b, err := os.ReadFile(s.qfile)
	if err == nil || errors.Is(err, os.ErrNotExist) {
		// Kept open from here: saving the queue after a commit opens no
		// file (see atomicfile.Kept).
		var kerr error
		if s.qkept, kerr = atomicfile.OpenKept(s.qfile, 0o600); kerr != nil {
			return fmt.Errorf("%s: %w", s.qfile, kerr)
		}
	}
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
	s.aftCommitted(recs, st, time.Now())
	s.seq = l.LastSeq()
	s.mu.Unlock()
	s.save()
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
	write := func() error { return atomicfile.Write(s.qfile, b, 0o600) }
	if s.qkept != nil {
		write = func() error { return s.qkept.Write(b) }
	}
	if err := write(); err != nil {
		s.log.Error("SAS queue not saved", "err", err)
		return
	}
	s.saved = ver
}
