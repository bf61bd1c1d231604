package sas

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"
)

// The machine's SAS progressive state: the last value the host broadcast
// for each level the machine takes part in, the 5 s rule, and the queue of
// SAS progressive wins the host reads with 0x85 and 0x87.
//
// Sources: the 6.02 reference digest, sections 10.2 (a machine configured
// for SAS progressives must receive an update for each configured level
// within five seconds of the last one for that level, or report exception
// 53) and 10.4 (a queue of SAS progressive wins; exception 56 when a level
// is hit; 0x85 reads the oldest, 0x87 all of them; the host then
// broadcasts the reset amount); section 3 (implied acknowledgement); the
// Aristocrat Monaco LP85 and LP87 handlers (the wins leave the queue in an
// implied-ACK handler; exception 56 is raised again while wins remain).

// ProgressiveTimeout is how long a configured level may go without a
// broadcast: after more than this, the machine reports exception 0x53.
const ProgressiveTimeout = 5 * time.Second

// MaxProgressiveWins is the capacity of the SAS progressive win queue.
//
// Choice: the sources require a queue but give no size. 32 is what one
// 0x87 reply can carry (its count is 00–20), so one read always empties
// the queue; a machine normally locks up on a progressive hit until the
// host has read it, so more wins than that never wait. A Hit beyond it is
// refused (an error), never dropped: a win is money.
const MaxProgressiveWins = MaxProgressiveLevel

// Progressive errors (wrapped with details).
var (
	ErrWinQueueFull  = errors.New("sas: SAS progressive win queue full")
	ErrWinNotQueued  = errors.New("sas: no such SAS progressive win")
	ErrProgressiveID = errors.New("sas: SAS progressive win ID already queued")
)

// ProgressiveConfig is the SAS progressive configuration of the machine.
type ProgressiveConfig struct {
	// Group is the progressive group, 1–255 (0 is reserved for non-SAS
	// progressives). It is also the group 0x1F reports.
	Group byte
	// Levels are the levels the machine takes part in, each 1–32, at
	// least one.
	Levels []byte
}

// QueuedWin is one SAS progressive win in the queue.
type QueuedWin struct {
	// ID is the owner's identifier of the win (for the cabinet, the
	// ledger sequence number of the record of the hit): unique within the
	// queue. It lets the owner find which wins the host acknowledged.
	ID     uint64 `json:"id"`
	Group  byte   `json:"group"`
	Level  byte   `json:"level"`
	Amount uint64 `json:"amount_cents"`
	// InFlight: sent in a 0x85/0x87 reply not yet acknowledged.
	InFlight bool `json:"in_flight,omitempty"`
	// Acked: the host has received it (implied ACK). It stays in the
	// queue until the owner Releases it.
	Acked bool `json:"acked,omitempty"`
}

// ProgressiveEvent is what Tick reports about the 5 s rule.
type ProgressiveEvent struct {
	// Lost: an outage began: some configured level has had no broadcast
	// for more than ProgressiveTimeout. Exception 0x53 was raised (once
	// for the outage).
	Lost bool
	// Restored: every configured level has been refreshed again; the
	// outage is over.
	Restored bool
	// Stale lists the configured levels without fresh information (when
	// Lost).
	Stale []byte
}

// BroadcastResult is what Receive did with a broadcast.
type BroadcastResult struct {
	// OtherGroup: the broadcast was for another group and was ignored.
	OtherGroup bool
	// Taken is the number of levels recorded; Ignored those of the
	// machine's group it does not take part in.
	Taken, Ignored int
}

// Progressive is the SAS progressive state of one machine. It is pure: time
// is passed in, and what the host must be told is pushed to Exceptions.
//
// It is also a Handler for 0x80, 0x86, 0x85 and 0x87 and a ReplyObserver:
// a machine's Handler hands those polls to LongPoll and forwards
// ReplyAcked and ReplyDropped, so that a win leaves the queue only when
// the host has received the reply that carried it.
//
// A Progressive is not safe for concurrent use; the owner holds the same
// lock as for the Link.
type Progressive struct {
	// Exceptions, if not nil, receives the exceptions the state raises:
	// 0x53 when an outage begins, 0x56 when a win is queued (and again
	// while unread wins remain after an acknowledgement, after a lost
	// reply, and after UnmarshalBinary). Set it to the Link's queue.
	Exceptions *ExceptionQueue

	group  byte
	levels uint64 // bit l: level l configured

	started bool
	start   time.Time
	last    [MaxProgressiveLevel + 1]time.Time
	known   [MaxProgressiveLevel + 1]bool
	value   [MaxProgressiveLevel + 1]uint64
	down    bool

	wins        []QueuedWin // oldest first
	inflightCmd byte        // the command whose reply carries the InFlight wins
}

// NewProgressive returns the progressive state of a machine configured
// with cfg: no values yet, an empty win queue.
//
// Choice: the 5 s rule's clock starts at the first Tick or Receive (the
// machine's power-up as far as this state knows), so a machine that never
// hears a broadcast reports 0x53 five seconds after it starts.
func NewProgressive(cfg ProgressiveConfig) (*Progressive, error) {
	if cfg.Group == 0 {
		return nil, progErr("group 0 is reserved for non-SAS progressives")
	}
	if len(cfg.Levels) == 0 {
		return nil, progErr("no progressive levels configured")
	}
	p := &Progressive{group: cfg.Group}
	for _, l := range cfg.Levels {
		if l < 1 || l > MaxProgressiveLevel {
			return nil, progErr("configured level %d outside 1-%d", l, MaxProgressiveLevel)
		}
		if p.levels&(1<<l) != 0 {
			return nil, progErr("level %d configured twice", l)
		}
		p.levels |= 1 << l
	}
	return p, nil
}

// Group returns the machine's progressive group.
func (p *Progressive) Group() byte { return p.group }

// Levels returns the configured levels in ascending order.
func (p *Progressive) Levels() []byte {
	var out []byte
	for l := byte(1); l <= MaxProgressiveLevel; l++ {
		if p.configured(l) {
			out = append(out, l)
		}
	}
	return out
}

func (p *Progressive) configured(l byte) bool {
	return l >= 1 && l <= MaxProgressiveLevel && p.levels&(1<<l) != 0
}

func (p *Progressive) observe(now time.Time) {
	if !p.started {
		p.started, p.start = true, now
	}
}

// Receive records a broadcast for group received at now: the value of
// each level of levels the machine takes part in, and the time.
//
// Choice: a broadcast for another group is ignored entirely: it is not
// progressive information for this machine, so it does not keep the 5 s
// rule at bay. (To the SAS link it is still activity: its address byte
// keeps the link up and acknowledges the last reply, which Link does.)
// Levels of our group the machine does not take part in are ignored too.
func (p *Progressive) Receive(group byte, levels []LevelValue, now time.Time) BroadcastResult {
	p.observe(now)
	if group != p.group {
		return BroadcastResult{OtherGroup: true}
	}
	var r BroadcastResult
	for _, lv := range levels {
		if !p.configured(lv.Level) {
			r.Ignored++
			continue
		}
		p.value[lv.Level], p.known[lv.Level], p.last[lv.Level] = lv.Amount, true, now
		r.Taken++
	}
	return r
}

// Values returns the last value received for each configured level that
// has had one, by level. Values are kept in memory only.
func (p *Progressive) Values() map[byte]uint64 {
	out := map[byte]uint64{}
	for l := byte(1); l <= MaxProgressiveLevel; l++ {
		if p.configured(l) && p.known[l] {
			out[l] = p.value[l]
		}
	}
	return out
}

// Value returns the last value received for level, and whether there is
// one.
func (p *Progressive) Value(level byte) (uint64, bool) {
	if !p.configured(level) || !p.known[level] {
		return 0, false
	}
	return p.value[level], true
}

// stale returns the configured levels with no broadcast for more than
// ProgressiveTimeout at now.
func (p *Progressive) stale(now time.Time) []byte {
	if !p.started {
		return nil
	}
	var out []byte
	for l := byte(1); l <= MaxProgressiveLevel; l++ {
		if !p.configured(l) {
			continue
		}
		ref := p.start
		if p.known[l] {
			ref = p.last[l]
		}
		if now.Sub(ref) > ProgressiveTimeout {
			out = append(out, l)
		}
	}
	return out
}

// Down reports whether, at now, some configured level has had no
// progressive information for more than ProgressiveTimeout (5 s exactly is
// not yet down). It changes nothing.
func (p *Progressive) Down(now time.Time) bool { return len(p.stale(now)) > 0 }

// Tick applies the 5 s rule at now. When an outage begins it raises 0x53
// (once per outage) and reports Lost; when every configured level is fresh
// again it reports Restored. Call it regularly (as often as Link.Tick);
// Receive records but never reports.
func (p *Progressive) Tick(now time.Time) ProgressiveEvent {
	p.observe(now)
	stale := p.stale(now)
	switch {
	case len(stale) > 0 && !p.down:
		p.down = true
		p.raise(ExcNoProgressive5s)
		return ProgressiveEvent{Lost: true, Stale: stale}
	case len(stale) == 0 && p.down:
		p.down = false
		return ProgressiveEvent{Restored: true}
	}
	return ProgressiveEvent{}
}

func (p *Progressive) raise(e Exception) {
	if p.Exceptions != nil {
		p.Exceptions.Push(e)
	}
}

// Hit queues a SAS progressive win of amount cents on level (one the
// machine takes part in), identified by id, and raises 0x56. The owner
// calls it after the hit is durable; the award is committed when the host
// has acknowledged the win (see Acknowledged).
func (p *Progressive) Hit(id uint64, level byte, amount uint64) error {
	if !p.configured(level) {
		return progErr("hit on level %d, which the machine does not take part in", level)
	}
	if amount > MaxProgressiveAmount {
		return progErr("hit on level %d: %d cents exceed 10 BCD digits", level, amount)
	}
	if p.index(id) >= 0 {
		return fmt.Errorf("%w: %d", ErrProgressiveID, id)
	}
	if len(p.wins) >= MaxProgressiveWins {
		return fmt.Errorf("%w: %d wins wait; win %d on level %d refused", ErrWinQueueFull, len(p.wins), id, level)
	}
	p.wins = append(p.wins, QueuedWin{ID: id, Group: p.group, Level: level, Amount: amount})
	p.raise(ExcProgressiveLevelHit)
	return nil
}

func (p *Progressive) index(id uint64) int {
	return slices.IndexFunc(p.wins, func(w QueuedWin) bool { return w.ID == id })
}

// Queue returns a copy of the queue, oldest first.
func (p *Progressive) Queue() []QueuedWin { return slices.Clone(p.wins) }

// Unread returns the number of wins the host has not yet acknowledged
// (in flight included).
func (p *Progressive) Unread() int {
	n := 0
	for _, w := range p.wins {
		if !w.Acked {
			n++
		}
	}
	return n
}

// Acknowledged returns the wins the host has acknowledged and the owner has
// not yet released, oldest first: commit their awards, then Release them.
func (p *Progressive) Acknowledged() []QueuedWin {
	var out []QueuedWin
	for _, w := range p.wins {
		if w.Acked {
			out = append(out, w)
		}
	}
	return out
}

// Release removes an acknowledged win once the owner has committed its
// award. A win not in the queue, or not yet acknowledged, is an error.
func (p *Progressive) Release(id uint64) error {
	i := p.index(id)
	if i < 0 {
		return fmt.Errorf("%w: %d", ErrWinNotQueued, id)
	}
	if !p.wins[i].Acked {
		return fmt.Errorf("%w: %d is not acknowledged by the host", ErrWinNotQueued, id)
	}
	p.wins = slices.Delete(p.wins, i, i+1)
	return nil
}

// clearInFlight forgets which wins are in flight.
func (p *Progressive) clearInFlight() {
	for i := range p.wins {
		p.wins[i].InFlight = false
	}
	p.inflightCmd = 0
}

// AnswerWin returns the data of the reply to 0x85: the oldest unread win
// (group, level, amount), now in flight; or, with none, the all-zero
// answer (see ProgressiveWinData). Use it as the data reply to the poll.
func (p *Progressive) AnswerWin() []byte {
	p.clearInFlight()
	for i, w := range p.wins {
		if !w.Acked {
			p.wins[i].InFlight, p.inflightCmd = true, CmdSASProgressiveWin
			b, _ := ProgressiveWinData(ProgressiveWin{Group: w.Group, Level: w.Level, Amount: w.Amount})
			return b
		}
	}
	b, _ := ProgressiveWinData(ProgressiveWin{})
	return b
}

// AnswerWins returns the data of the reply to 0x87: the unread wins of the
// group of the oldest (at most 32), now in flight; or, with none, the
// machine's group and a count of 0.
//
// Choice: the empty answer carries the machine's group, as the Aristocrat
// LP87 handler does (its length byte is 02).
func (p *Progressive) AnswerWins() []byte {
	p.clearInFlight()
	r := ProgressiveWins{Group: p.group}
	for i, w := range p.wins {
		if w.Acked {
			continue
		}
		if len(r.Wins) == 0 {
			r.Group = w.Group
		}
		if w.Group != r.Group || len(r.Wins) == MaxProgressiveLevel {
			break
		}
		p.wins[i].InFlight, p.inflightCmd = true, CmdMultipleProgressiveWins
		r.Wins = append(r.Wins, LevelValue{Level: w.Level, Amount: w.Amount})
	}
	b, _ := MultipleProgressiveWinsData(r)
	return b
}

// Ack marks the wins in flight as received by the host and returns them;
// if unread wins remain, 0x56 is raised again so that the host reads them.
// Persist the queue afterwards. Normally called through ReplyAcked.
func (p *Progressive) Ack() []QueuedWin {
	var out []QueuedWin
	for i := range p.wins {
		if p.wins[i].InFlight {
			p.wins[i].InFlight, p.wins[i].Acked = false, true
			out = append(out, p.wins[i])
		}
	}
	p.inflightCmd = 0
	if len(out) > 0 && p.Unread() > 0 {
		p.raise(ExcProgressiveLevelHit)
	}
	return out
}

// Nack forgets what was in flight: those wins are unread again and 0x56 is
// raised so that the host reads them again. Normally called through
// ReplyDropped.
func (p *Progressive) Nack() {
	had := p.inflightCmd != 0
	p.clearInFlight()
	if had && p.Unread() > 0 {
		p.raise(ExcProgressiveLevelHit)
	}
}

// ReplyAcked implements ReplyObserver: the host moved on after the reply
// to cmd; if it carried wins (0x85, 0x87), they are acknowledged.
func (p *Progressive) ReplyAcked(cmd byte) {
	if cmd != 0 && cmd == p.inflightCmd {
		p.Ack()
	}
}

// ReplyDropped implements ReplyObserver: the reply to cmd was lost with
// the link; wins it carried are unread again.
func (p *Progressive) ReplyDropped(cmd byte) {
	if cmd != 0 && cmd == p.inflightCmd {
		p.Nack()
	}
}

// LongPoll answers the progressive long polls: 0x80 and 0x86 (broadcast
// or addressed: recorded at r.Now, then ACKed), 0x85 and 0x87 (the win
// queue). Anything else, or a broadcast that does not parse, gets no reply.
//
// Choice: a malformed 0x80/0x86 addressed to the machine is not answered
// (the Aristocrat client NACKs it; here a NACK means a bad CRC, and
// silence is what the link gives a poll the machine cannot act on). A
// well-formed one for another group is ACKed and ignored.
func (p *Progressive) LongPoll(r Request) Reply {
	switch r.Cmd {
	case CmdSingleLevelBroadcast, CmdMultipleLevelBroadcast:
		b, err := ParseProgressiveBroadcast(r.Cmd, r.Data)
		if err != nil {
			return NoReply()
		}
		p.Receive(b.Group, b.Levels, r.Now)
		return ReplyAck()
	case CmdSASProgressiveWin:
		if r.Global {
			return NoReply()
		}
		return ReplyData(p.AnswerWin()...)
	case CmdMultipleProgressiveWins:
		if r.Global {
			return NoReply()
		}
		return ReplyData(p.AnswerWins()...)
	}
	return NoReply()
}

// Binary form of the win queue, version 1:
//
//	0     version (1)
//	1     number n of wins (<= MaxProgressiveWins)
//	2…    n wins of 16 bytes, oldest first:
//	      ID (uint64, little endian), group, level, amount (5 BCD),
//	      flags (bit 0: acknowledged by the host; no other bit)
//
// What is in flight is not kept: after a restart those wins are unread
// again and are reported again (at least once, like the exception queue).
const progQueueFormat = 1

const queuedWinSize = 8 + 1 + 1 + 5 + 1

// ErrProgressiveQueueFormat is returned (wrapped) by UnmarshalBinary.
var ErrProgressiveQueueFormat = errors.New("sas: bad SAS progressive win queue encoding")

// MarshalBinary encodes the win queue (not the values, not what is in
// flight).
func (p *Progressive) MarshalBinary() ([]byte, error) {
	b := make([]byte, 2, 2+queuedWinSize*len(p.wins))
	b[0], b[1] = progQueueFormat, byte(len(p.wins))
	for _, w := range p.wins {
		b = binary.LittleEndian.AppendUint64(b, w.ID)
		b = append(b, w.Group, w.Level)
		b = AppendBCD(b, w.Amount, 5)
		var flags byte
		if w.Acked {
			flags = 1
		}
		b = append(b, flags)
	}
	return b, nil
}

// UnmarshalBinary replaces the win queue with an encoded one, validating
// every field: version, count, exact length, a group other than 0, a level
// the machine takes part in, a BCD amount, known flags, unique IDs. On
// error the queue is unchanged. Nothing is in flight afterwards; if unread
// wins remain, 0x56 is raised.
//
// Choice: a queued win's group need not be the configured group (the
// operator may have changed it with wins still waiting); 0x87 then reports
// one group per reply.
func (p *Progressive) UnmarshalBinary(b []byte) error {
	if len(b) < 2 {
		return fmt.Errorf("%w: %d bytes, want at least 2", ErrProgressiveQueueFormat, len(b))
	}
	if b[0] != progQueueFormat {
		return fmt.Errorf("%w: version %d, want %d", ErrProgressiveQueueFormat, b[0], progQueueFormat)
	}
	n := int(b[1])
	if n > MaxProgressiveWins {
		return fmt.Errorf("%w: %d wins exceed %d", ErrProgressiveQueueFormat, n, MaxProgressiveWins)
	}
	if len(b) != 2+queuedWinSize*n {
		return fmt.Errorf("%w: %d bytes for %d wins, want %d", ErrProgressiveQueueFormat, len(b), n, 2+queuedWinSize*n)
	}
	wins := make([]QueuedWin, 0, n)
	for i := range n {
		e := b[2+queuedWinSize*i:]
		w := QueuedWin{ID: binary.LittleEndian.Uint64(e), Group: e[8], Level: e[9]}
		amt, err := DecodeBCD(e[10:15])
		if err != nil {
			return fmt.Errorf("%w: win %d amount: %v", ErrProgressiveQueueFormat, i, err)
		}
		w.Amount = amt
		switch {
		case w.Group == 0:
			return fmt.Errorf("%w: win %d has group 0", ErrProgressiveQueueFormat, i)
		case !p.configured(w.Level):
			return fmt.Errorf("%w: win %d is on level %d, which the machine does not take part in", ErrProgressiveQueueFormat, i, w.Level)
		case e[15]&^1 != 0:
			return fmt.Errorf("%w: win %d has unknown flags 0x%02X", ErrProgressiveQueueFormat, i, e[15])
		case slices.ContainsFunc(wins, func(x QueuedWin) bool { return x.ID == w.ID }):
			return fmt.Errorf("%w: win %d repeats ID %d", ErrProgressiveQueueFormat, i, w.ID)
		}
		w.Acked = e[15] == 1
		wins = append(wins, w)
	}
	p.wins, p.inflightCmd = wins, 0
	if p.Unread() > 0 {
		p.raise(ExcProgressiveLevelHit)
	}
	return nil
}
