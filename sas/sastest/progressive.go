// Package sastest holds a test double of a gaming machine's side of SAS
// progressives, for the tests of the host side (sas/host, cmd/sashost).
// It is not the cabinet's logic (that lives in cmd/cabinet over the
// ledger, where a hit is reported until it is paid): it keeps only what a
// host's test observes, so that it can be read at a glance.
package sastest

import (
	"maps"
	"slices"

	"github.com/openegm/cabinet/sas"
)

// Progressive is a machine of one progressive group: it takes the values
// broadcast to its group (0x80, 0x86), reports a hit with exception 0x56
// and answers 0x85 (the oldest unread win) and 0x87 (every unread win). A
// win the host has received (it moved on after the reply that carried it)
// is acknowledged. Not safe for concurrent use: the caller holds the lock
// it passes to sas.Serve.
type Progressive struct {
	Group      byte
	Exceptions *sas.ExceptionQueue // where 0x56 goes; nil: nowhere

	values   map[byte]uint64
	unread   []Win
	inFlight []Win
	sentBy   byte // the command whose reply carried inFlight
	acked    []Win
}

// Win is one progressive win, named by the test that made it.
type Win struct {
	ID     uint64
	Level  byte
	Amount uint64 // cents
}

// Values returns the last value broadcast for each level.
func (p *Progressive) Values() map[byte]uint64 { return maps.Clone(p.values) }

// Hit queues a win and raises 0x56.
func (p *Progressive) Hit(id uint64, level byte, amount uint64) {
	p.unread = append(p.unread, Win{ID: id, Level: level, Amount: amount})
	if p.Exceptions != nil {
		p.Exceptions.Push(sas.ExcProgressiveLevelHit)
	}
}

// Acknowledged returns the wins the host has received, oldest first.
func (p *Progressive) Acknowledged() []Win { return slices.Clone(p.acked) }

// LongPoll answers the progressive long polls; anything else, or a
// broadcast that does not parse, gets no reply.
func (p *Progressive) LongPoll(r sas.Request) sas.Reply {
	switch r.Cmd {
	case sas.CmdSingleLevelBroadcast, sas.CmdMultipleLevelBroadcast:
		b, err := sas.ParseProgressiveBroadcast(r.Cmd, r.Data)
		if err != nil {
			return sas.NoReply()
		}
		if b.Group == p.Group {
			if p.values == nil {
				p.values = map[byte]uint64{}
			}
			for _, lv := range b.Levels {
				p.values[lv.Level] = lv.Amount
			}
		}
		return sas.ReplyAck()
	case sas.CmdSASProgressiveWin:
		p.send(r.Cmd, 1)
		w := sas.ProgressiveWin{}
		if len(p.inFlight) == 1 {
			w = sas.ProgressiveWin{Group: p.Group, Level: p.inFlight[0].Level, Amount: p.inFlight[0].Amount}
		}
		d, _ := sas.ProgressiveWinData(w)
		return sas.ReplyData(d...)
	case sas.CmdMultipleProgressiveWins:
		p.send(r.Cmd, sas.MaxProgressiveLevel)
		ws := sas.ProgressiveWins{Group: p.Group}
		for _, w := range p.inFlight {
			ws.Wins = append(ws.Wins, sas.LevelValue{Level: w.Level, Amount: w.Amount})
		}
		d, _ := sas.MultipleProgressiveWinsData(ws)
		return sas.ReplyData(d...)
	}
	return sas.NoReply()
}

// send puts at most n of the oldest unread wins in flight in the reply to
// cmd; wins still in flight from an earlier reply the host did not take
// are unread again first.
func (p *Progressive) send(cmd byte, n int) {
	p.unread = append(p.inFlight, p.unread...)
	n = min(n, len(p.unread))
	p.inFlight, p.unread, p.sentBy = p.unread[:n:n], p.unread[n:], cmd
}

// ReplyAcked implements sas.ReplyObserver: the host moved on after the
// reply to cmd, so the wins it carried are received.
func (p *Progressive) ReplyAcked(cmd byte) {
	if cmd != 0 && cmd == p.sentBy {
		p.acked = append(p.acked, p.inFlight...)
		p.inFlight, p.sentBy = nil, 0
	}
}

// ReplyDropped implements sas.ReplyObserver: the reply to cmd was lost
// with the link, so the wins it carried are unread again.
func (p *Progressive) ReplyDropped(cmd byte) {
	if cmd != 0 && cmd == p.sentBy {
		p.unread = append(p.inFlight, p.unread...)
		p.inFlight, p.sentBy = nil, 0
	}
}
