// Package floor is a casino floor in one process, for the benchmark and
// the test that run the casino's systems together (floor_test.go): many
// simulated cabinets on one link controller (jackpot/link) and one ticket
// system (tito/ticketsys), the controller's superjackpot and the tickets on
// a three-member TLS etcd cluster.
//
// A simulated cabinet is two cheap SAS peers, as a real cabinet has two
// SAS channels: Cabinet here, the progressive side, on a multi-drop line
// that the link controller polls (Line serves up to 127 of them on one TCP
// connection, the controller's "tcp" channel), and a tito/titopeer machine
// on its own in-memory link to the ticket system. Neither is the cabinet's
// firmware (machine/, cmd/cabinet): they keep their state in memory and
// execute every poll at once, without implied acknowledgement or resends,
// which lossless in-process links never need.
package floor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openegm/cabinet/sas"
)

// Cabinet is the progressive side of one simulated machine, as SAS
// describes it for a machine in addressed award mode (the cabinet's
// --link-award addressed): it takes the values broadcast to its group
// (global 0x86), plays games that feed the linked coin-in (0xB4 category
// 1) and games played (0x2F), and, on a hit, locks (no game, so games
// played stands still), raises 0x56 and reports the hit with the value it
// showed (0x87) until the controller's addressed 0x80 brings the award,
// which it pays if it is not above what it showed. Its methods are safe
// for concurrent use.
type Cabinet struct {
	addr   byte
	group  byte
	serial string
	now    func() time.Time

	mu         sync.Mutex
	coinIn     uint64 // cents, every bet here feeds the linked levels
	games      uint64
	values     map[byte]uint64 // the last value broadcast for each level
	broadcasts int
	lastValue  time.Time
	maxGap     time.Duration // the longest wait between two broadcasts
	queue      []sas.Exception
	hit        *Hit // the hit waiting for its award
	awards     []Award
	refused    []Award // awards above what was shown: never paid
}

// Hit is a progressive hit at a cabinet.
type Hit struct {
	Level byte
	Shown uint64 // cents: the level's value the cabinet showed
	Game  uint64 // games played with the winning game
	At    time.Time
}

// Award is a hit's award as the cabinet received it.
type Award struct {
	Hit
	Cents   uint64
	Latency time.Duration // from the hit to the award's arrival
}

// NewCabinet returns the cabinet at SAS address addr (1-127) of
// progressive group, reporting serial (0x54).
func NewCabinet(addr, group byte, serial string) *Cabinet {
	return &Cabinet{addr: addr, group: group, serial: serial, now: time.Now}
}

// Addr is the cabinet's SAS address.
func (c *Cabinet) Addr() byte { return c.addr }

// Errors of the player's actions.
var (
	ErrLocked  = errors.New("floor: the cabinet is locked for a progressive hit")
	ErrNoValue = errors.New("floor: the cabinet shows no value for the level")
)

// Play plays one game of bet cents at the top bet, the bet that feeds
// the linked levels.
func (c *Cabinet) Play(bet uint64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hit != nil {
		return ErrLocked
	}
	c.coinIn += bet
	c.games++
	return nil
}

// HitLevel plays one game of bet cents that wins level: the cabinet locks
// with the value it shows for it and reports the hit.
func (c *Cabinet) HitLevel(level byte, bet uint64) (Hit, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hit != nil {
		return Hit{}, ErrLocked
	}
	shown, ok := c.values[level]
	if !ok || shown == 0 {
		return Hit{}, ErrNoValue
	}
	c.coinIn += bet
	c.games++
	h := Hit{Level: level, Shown: shown, Game: c.games, At: c.now()}
	c.hit = &h
	c.queue = append(c.queue, sas.ExcProgressiveLevelHit)
	return h, nil
}

// Locked reports whether a hit waits for its award.
func (c *Cabinet) Locked() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hit != nil
}

// Progress is what a cabinet saw of the progressive values.
type Progress struct {
	Broadcasts int
	MaxGap     time.Duration
	Last       time.Time
	Values     map[byte]uint64
}

// Progress returns what the cabinet saw of the broadcasts.
func (c *Cabinet) Progress() Progress {
	c.mu.Lock()
	defer c.mu.Unlock()
	vs := make(map[byte]uint64, len(c.values))
	for k, v := range c.values {
		vs[k] = v
	}
	return Progress{Broadcasts: c.broadcasts, MaxGap: c.maxGap, Last: c.lastValue, Values: vs}
}

// ResetGap starts the measure of the longest wait between broadcasts
// again (after the floor's start-up).
func (c *Cabinet) ResetGap() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.maxGap = 0
}

// Awards returns the awards paid, and those refused for being above the
// value shown.
func (c *Cabinet) Awards() (paid, refused []Award) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.awards), slices.Clone(c.refused)
}

// Meters returns the linked coin-in (cents) and games played.
func (c *Cabinet) Meters() (coinIn, games uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.coinIn, c.games
}

// Meter implements sas.MeterSource for 0x2F.
func (c *Cabinet) Meter(code uint16) (uint64, bool) {
	switch sas.MeterCode(code) {
	case sas.MeterTotalCoinIn:
		return c.coinIn, true
	case sas.MeterGamesPlayed:
		return c.games, true
	}
	return 0, false
}

// global executes a long poll sent to every machine (address 0).
func (c *Cabinet) global(cmd byte, data []byte) {
	if cmd != sas.CmdMultipleLevelBroadcast && cmd != sas.CmdSingleLevelBroadcast {
		return
	}
	b, err := sas.ParseProgressiveBroadcast(cmd, data)
	if err != nil || b.Group != c.group {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if c.values == nil {
		c.values = map[byte]uint64{}
	}
	for _, lv := range b.Levels {
		c.values[lv.Level] = lv.Amount
	}
	if !c.lastValue.IsZero() {
		c.maxGap = max(c.maxGap, now.Sub(c.lastValue))
	}
	c.lastValue = now
	c.broadcasts++
}

// general answers a general poll with the next exception.
func (c *Cabinet) general() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		return []byte{byte(sas.ExcNone)}
	}
	e := c.queue[0]
	c.queue = c.queue[1:]
	return []byte{byte(e)}
}

// longPoll answers a long poll addressed to the cabinet (nil: silence, as
// SAS wants for a poll a machine does not support).
func (c *Cabinet) longPoll(cmd byte, data []byte) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []byte
	var err error
	switch cmd {
	case 0x54: // SAS version and serial number
		out = append([]byte{byte(3 + len(c.serial))}, "602"+c.serial...)
	case 0x1F:
		out, err = sas.MachineInfoData(sas.MachineInfo{GameID: "FL", AdditionalID: "001", Denomination: 0x01, MaxBet: 100,
			ProgressiveGroup: c.group, PaytableID: "FLOOR1", BasePercent: "9500"})
	case 0x2F:
		var ok bool
		if out, ok = sas.MeterResponse(cmd, data, c); !ok {
			return nil
		}
	case sas.CmdWagerCategory:
		game, cat, perr := sas.ParseWagerCategoryPoll(data)
		if perr != nil || game != 0 {
			return nil
		}
		w := sas.WagerCategory{Category: cat, Payback: "0000"}
		if cat == 1 {
			w.Payback, w.Size, w.CoinIn = "9500", 9, c.coinIn
		}
		out, err = sas.WagerCategoryData(w)
	case sas.CmdMultipleProgressiveWins:
		ws := sas.ProgressiveWins{Group: c.group}
		if h := c.hit; h != nil {
			ws.Wins = []sas.LevelValue{{Level: h.Level, Amount: h.Shown}}
		}
		out, err = sas.MultipleProgressiveWinsData(ws)
	case sas.CmdSingleLevelBroadcast:
		b, perr := sas.ParseProgressiveBroadcast(cmd, data)
		if perr != nil || b.Group != c.group {
			return nil
		}
		c.award(b.Levels[0])
		return sas.AckReply(c.addr)
	default:
		return nil
	}
	if err != nil {
		return nil
	}
	return sas.BuildReply(c.addr, cmd, out...)
}

// award applies the controller's addressed 0x80: the amount of the hit
// the cabinet reports, paid unless it is above what the cabinet showed.
// Called with mu held.
func (c *Cabinet) award(lv sas.LevelValue) {
	h := c.hit
	if h == nil || h.Level != lv.Level {
		return // not the hit reported: ignored, as the cabinet does
	}
	a := Award{Hit: *h, Cents: lv.Amount, Latency: c.now().Sub(h.At)}
	if lv.Amount > h.Shown {
		c.refused = append(c.refused, a)
		return
	}
	c.awards = append(c.awards, a)
	c.hit = nil
	c.queue = append(c.queue, sas.ExcProgressiveWin)
}

// Line is a multi-drop SAS line: the cabinets at their addresses on one
// connection, each answering the polls addressed to it and all of them
// taking the global ones.
type Line struct {
	cabs  map[byte]*Cabinet
	polls atomic.Int64 // polls addressed to a cabinet of the line, and global ones
}

// NewLine returns the line of cabs (distinct addresses).
func NewLine(cabs []*Cabinet) (*Line, error) {
	l := &Line{cabs: map[byte]*Cabinet{}}
	for _, c := range cabs {
		if c.addr < 1 || c.addr > sas.MaxAddr || l.cabs[c.addr] != nil {
			return nil, fmt.Errorf("floor: address %d: want a unique address 1-127 on the line", c.addr)
		}
		l.cabs[c.addr] = c
	}
	return l, nil
}

// Listen serves the line on a new loopback TCP listener until ctx ends (on
// a goroutine of wg's, when wg is not nil) and returns the address a
// controller's tcp channel dials.
func (l *Line) Listen(ctx context.Context, wg *sync.WaitGroup) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	if wg != nil {
		wg.Go(func() { l.Serve(ctx, ln) })
	} else {
		go l.Serve(ctx, ln)
	}
	return ln.Addr().String(), nil
}

// Serve answers the host's polls on the connections accepted on ln, one
// after the other (a controller that reopens its line connects again),
// until ctx ends; it closes ln.
func (l *Line) Serve(ctx context.Context, ln net.Listener) error {
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		l.serveConn(ctx, conn)
	}
}

func (l *Line) serveConn(ctx context.Context, conn net.Conn) {
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	defer conn.Close()
	buf := make([]byte, 4096)
	var in []byte
	for {
		n, err := conn.Read(buf)
		in = append(in, buf[:n]...)
		for {
			frame, rest, ok := sas.CutPoll(in)
			if !ok {
				break
			}
			in = rest
			if reply := l.handle(frame); len(reply) > 0 {
				if _, err := conn.Write(reply); err != nil {
					return
				}
			}
		}
		if err != nil {
			return // the controller went away (or reopens its line): it connects again
		}
	}
}

// Polls returns how many polls the line has received: addressed to one
// of its cabinets, or global.
func (l *Line) Polls() int64 { return l.polls.Load() }

// handle routes one poll to its cabinet (nil: nobody answers).
func (l *Line) handle(f []byte) []byte {
	l.polls.Add(1)
	if f[0]&sas.GeneralPollBit != 0 {
		if c := l.cabs[f[0]&sas.MaxAddr]; c != nil {
			return c.general()
		}
		return nil // the global general poll (0x80): the host moving on
	}
	var data []byte
	if len(f) > 2 {
		if !sas.CheckCRC(f) {
			if c := l.cabs[f[0]]; c != nil {
				return sas.NackReply(c.addr)
			}
			return nil
		}
		data = f[2 : len(f)-2]
	}
	if f[0] == sas.GlobalAddr {
		for _, c := range l.cabs {
			c.global(f[1], data)
		}
		return nil
	}
	if c := l.cabs[f[0]]; c != nil {
		return c.longPoll(f[1], data)
	}
	return nil
}
