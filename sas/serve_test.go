package sas_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
	"github.com/openegm/cabinet/sas/metercode"
)

const machineAddr = 0x11 // also the code of "slot door opened": general polls must still parse

// romImage stands for the program image the ROM signature covers.
var romImage = bytes.Repeat([]byte("cabinet program image \xff\x00"), 64)

// fakeMachine is the cabinet's side for the tests: a Handler and a
// MeterSource over fixed data, sharing mu with Serve as ServeOptions.Lock.
type fakeMachine struct {
	mu   sync.Mutex // ServeOptions.Lock: held during LongPoll and OnEvent
	link *sas.Link

	meters map[uint16]uint64 // read-only once serving

	// Written under mu (from LongPoll and OnEvent).
	enabled bool
	clock   time.Time
	events  []sas.Event
	acked   []sas.Exception
	saved   []byte // the exception queue as persisted

	wg sync.WaitGroup // ROM signature computations
}

func newFakeMachine() *fakeMachine {
	m := &fakeMachine{
		link:    sas.NewLink(machineAddr),
		enabled: true,
		meters: map[uint16]uint64{
			uint16(sas.MeterTotalCoinIn):               12345678,
			uint16(metercode.TotalCoinOut):             87654321,
			uint16(metercode.TotalDrop):                5000,
			uint16(metercode.TotalJackpot):             0,
			uint16(sas.MeterGamesPlayed):               4242,
			uint16(metercode.GamesWon):                 1717,
			uint16(metercode.GamesLost):                2525,
			uint16(metercode.TotalCancelledCredits):    99999999,
			uint16(metercode.CurrentCredits):           250,
			uint16(metercode.SASCashableTicketInCents): 123456789012, // 12 digits: 6 bytes in 6F
			uint16(metercode.TotalWon):                 3141592,
			0x44:// €20 notes
			7,
			0x47:// €100 notes
			3,
			uint16(metercode.SlotDoorOpenings): 12,
			uint16(metercode.PowerResets):      5,
		},
	}
	m.link.Handler = m
	m.link.Exceptions = sas.NewExceptionQueue(200)
	return m
}

func (m *fakeMachine) Meter(code uint16) (uint64, bool) {
	v, ok := m.meters[code]
	return v, ok
}

// LongPoll runs with m.mu held by Serve.
func (m *fakeMachine) LongPoll(r sas.Request) sas.Reply {
	if sas.IsMeterPoll(r.Cmd) {
		return sas.MeterReply(r, m)
	}
	switch r.Cmd {
	case 0x01:
		m.enabled = false
		return sas.ReplyAck()
	case 0x02:
		m.enabled = true
		return sas.ReplyAck()
	case 0x1B:
		d := []byte{0x00, 0x40}
		d = sas.AppendBCD(d, 150000, 5)
		d = sas.AppendBCD(d, 0, 2)
		d = append(d, 0x00)
		d = append(d, make([]byte, 10)...)
		return sas.ReplyData(d...)
	case 0x1F:
		d := []byte("AB000")
		d = append(d, 0x01, 0x05, 0x00, 0x34, 0x12)
		d = append(d, "PT0001"...)
		d = append(d, "9612"...)
		return sas.ReplyData(d...)
	case 0x54:
		d := append([]byte{0}, "602CAB-0001"...)
		d[0] = byte(len(d) - 1)
		return sas.ReplyData(d...)
	case 0x7E:
		return sas.ReplyData(host.EncodeTime(m.clock)...)
	case 0x7F:
		t, err := host.DecodeTime(r.Data, time.UTC)
		if err != nil {
			return sas.NoReply()
		}
		m.clock = t
		return sas.ReplyAck()
	case 0x21:
		if len(r.Data) != 2 {
			return sas.NoReply()
		}
		seed := uint16(r.Data[0]) | uint16(r.Data[1])<<8
		m.wg.Add(1)
		go func() { // computed without blocking other polls
			defer m.wg.Done()
			sig := sas.CRCSeeded(seed, romImage)
			time.Sleep(30 * time.Millisecond)
			m.mu.Lock()
			m.link.Defer(0x21, byte(sig), byte(sig>>8))
			m.mu.Unlock()
		}()
		return sas.ReplyAck()
	}
	return sas.NoReply()
}

// onEvent runs with m.mu held by Serve: it persists the queue when an
// acknowledgement changed it.
func (m *fakeMachine) onEvent(ev sas.Event) {
	m.events = append(m.events, ev)
	if ev.AckedException != sas.ExcNone {
		m.acked = append(m.acked, ev.AckedException)
		m.saved, _ = m.link.Exceptions.MarshalBinary()
	}
}

// push raises an exception as the cabinet does: under the lock, then
// persist.
func (m *fakeMachine) push(e sas.Exception) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.link.Exceptions.Push(e)
	m.saved, _ = m.link.Exceptions.MarshalBinary()
}

func (m *fakeMachine) count(k sas.EventKind) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, ev := range m.events {
		if ev.Kind == k {
			n++
		}
	}
	return n
}

// checkGoroutines fails the test if goroutines started during it are
// still running once its cleanups have run.
func checkGoroutines(t testing.TB) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(2 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				t.Errorf("goroutines: %d before, %d after\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// rig is a machine served over a pseudo-terminal and a host on the other
// end.
type rig struct {
	m      *fakeMachine
	c      *host.Client
	pty    *sas.TTY
	hostP  *sas.TTY
	cancel context.CancelFunc
	done   chan error
}

func startPTY(t testing.TB, mode sas.FramerMode, hopt host.Options, sopt sas.ServeOptions) *rig {
	t.Helper()
	checkGoroutines(t)
	pty, err := sas.OpenPTY(mode)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	hp, err := sas.OpenTTY(pty.HostPath())
	if err != nil {
		pty.Close()
		t.Fatal(err)
	}
	m := newFakeMachine()
	sopt.Lock = &m.mu
	sopt.OnEvent = m.onEvent
	ctx, cancel := context.WithCancel(context.Background())
	r := &rig{m: m, pty: pty, hostP: hp, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- sas.Serve(ctx, pty, m.link, 0, sopt) }()
	hopt.Addr = machineAddr
	hopt.Escape = mode == sas.ModePARMRK
	r.c = host.New(hp, hopt)
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-r.done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Serve returned %v, want context.Canceled", err)
			}
		case <-time.After(2 * time.Second):
			t.Error("Serve did not return after cancel")
		}
		m.wg.Wait()
		hp.Close()
		pty.Close()
	})
	return r
}

var modes = []struct {
	name string
	mode sas.FramerMode
}{{"content", sas.ModeContent}, {"parmrk", sas.ModePARMRK}}

func TestServePTYPolls(t *testing.T) {
	for _, md := range modes {
		t.Run(md.name, func(t *testing.T) {
			r := startPTY(t, md.mode, host.Options{}, sas.ServeOptions{})
			m, c := r.m, r.c

			ms, err := c.Meters(0x1C)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range ms {
				if want := m.meters[uint16(x.Code)]; x.Value != want || x.Size != 4 {
					t.Errorf("1C %v = %d (%d bytes), want %d", x.Code, x.Value, x.Size, want)
				}
			}
			if len(ms) != 8 {
				t.Errorf("1C gave %d meters", len(ms))
			}

			for _, ext := range []bool{false, true} {
				all, err := c.AllMeters(0, ext)
				if err != nil {
					t.Fatalf("ext %v: %v", ext, err)
				}
				got := map[uint16]uint64{}
				for _, x := range all {
					got[uint16(x.Code)] = x.Value
				}
				for code, v := range m.meters {
					if code >= 0xFF00 {
						continue // cabinet-local, 1C only
					}
					want := v
					if !ext && sas.MeterCode(code).Size() == 5 {
						want = v % 1e10
					} else if !ext {
						want = v % 1e8
					}
					if g, ok := got[code]; !ok || g != want {
						t.Errorf("ext %v: meter %v = %d (present %v), want %d", ext, sas.MeterCode(code), g, ok, want)
					}
				}
				if len(got) != len(m.meters)-2 {
					t.Errorf("ext %v: %d meters, want %d: %v", ext, len(got), len(m.meters)-2, all)
				}
			}

			if cr, err := c.Credits(); err != nil || cr != 250 {
				t.Errorf("credits %d, %v", cr, err)
			}
			info, err := c.MachineInfo()
			want := host.MachineInfo{GameID: "AB", AdditionalID: "000", Denomination: 1, MaxBet: 5,
				GameOptions: 0x1234, PaytableID: "PT0001", BasePercent: "96.12"}
			if err != nil || info != want {
				t.Errorf("1F: %+v, %v", info, err)
			}
			if si, err := c.SASInfo(); err != nil || si.Version != "6.02" || si.Serial != "CAB-0001" {
				t.Errorf("54: %+v, %v", si, err)
			}
			if hp, err := c.Handpay(); err != nil || hp.Amount != 150000 || hp.Level != 0x40 {
				t.Errorf("1B: %+v, %v", hp, err)
			}
			set := time.Date(2031, 12, 31, 23, 59, 58, 0, time.UTC)
			if err := c.SetTime(set); err != nil {
				t.Fatal(err)
			}
			if got, err := c.Time(time.UTC); err != nil || !got.Equal(set) {
				t.Errorf("7E after 7F: %v, %v", got, err)
			}
			if err := c.Disable(); err != nil {
				t.Fatal(err)
			}
			m.mu.Lock()
			dis := !m.enabled
			m.mu.Unlock()
			if err := c.Enable(); err != nil || !dis {
				t.Errorf("disable seen %v; enable: %v", dis, err)
			}

			// Seed FFFF: in PARMRK framing its bytes travel as FF FF.
			for _, seed := range []uint16{0xFFFF, 0x0000, 0x1234} {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				sig, err := c.ROMSignature(ctx, seed, 0, nil)
				cancel()
				if want := sas.CRCSeeded(seed, romImage); err != nil || sig != want {
					t.Errorf("ROM signature seed %04X = %04X, %v; want %04X", seed, sig, err, want)
				}
			}

			// A poll with a wrong CRC is NACKed.
			bad := sas.LongPollFrame(machineAddr, 0x7F, host.EncodeTime(set)...)
			bad[len(bad)-1] ^= 0x55
			if raw, err := c.Exchange(bad); err != nil || !bytes.Equal(raw, []byte{machineAddr | 0x80}) {
				t.Errorf("bad CRC answered % X, %v; want NACK", raw, err)
			}
			// An unsupported poll is not answered.
			if raw, err := c.Exchange(sas.LongPollFrame(machineAddr, 0x2A)); err != nil || raw != nil {
				t.Errorf("unsupported poll answered % X, %v", raw, err)
			}
		})
	}
}

// TestServePTYExceptionsLost: exceptions pushed while the host polls
// arrive in order, none lost or duplicated, although the host "loses" every
// third reply: it repeats the poll and the machine resends the same bytes.
func TestServePTYExceptionsLost(t *testing.T) {
	for _, md := range modes {
		for _, syncAddr := range []byte{0, machineAddr + 1} {
			t.Run(fmt.Sprintf("%s/sync%02X", md.name, syncAddr), func(t *testing.T) {
				var lost [][]byte
				var resent int
				var n int
				justLost := false
				lose := func(poll, reply []byte, attempt int) bool {
					if justLost { // the repeat of the poll whose reply was dropped
						justLost = false
						if bytes.Equal(reply, lost[len(lost)-1]) {
							resent++
						} else {
							t.Errorf("repeat of % X answered % X, the lost reply was % X", poll, reply, lost[len(lost)-1])
						}
						return false
					}
					if attempt > 0 {
						return false // a repeat after a reply late under load
					}
					if reply[0] == byte(sas.ExcNone) {
						return false // "no activity" is answered afresh when repeated
					}
					n++
					if n%3 == 0 {
						lost = append(lost, bytes.Clone(reply))
						justLost = true
						return true
					}
					return false
				}
				r := startPTY(t, md.mode, host.Options{Lose: lose, SyncAddr: syncAddr}, sas.ServeOptions{})

				var pushed []sas.Exception
				codes := []sas.Exception{sas.ExcSlotDoorOpened, sas.ExcSlotDoorClosed, sas.ExcGameStarted,
					sas.ExcGameEnded, sas.ExcBill20Accepted, sas.ExcCashboxDoorOpened, sas.ExcCashboxDoorClosed,
					sas.ExcOperatorMenuEntered, sas.ExcOperatorMenuExited, sas.ExcBellyDoorOpened}
				for i := range 60 {
					pushed = append(pushed, codes[i%len(codes)])
				}
				ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
				defer cancel()
				var progress atomic.Int64
				go func() {
					for _, e := range pushed {
						r.m.push(e)
						time.Sleep(3 * time.Millisecond)
					}
					// Stop the host once nothing more arrives: generously,
					// for a loaded machine may pause the loop for seconds
					// (3 s was seen too short at a load average of 12).
					for last := int64(-1); ctx.Err() == nil; {
						select {
						case <-ctx.Done():
							return
						case <-time.After(15 * time.Second):
						}
						if n := progress.Load(); n == last {
							cancel()
						} else {
							last = n
						}
					}
				}()

				var got []sas.Exception
				err := r.c.PollEvents(ctx, 5*time.Millisecond, func(g host.GeneralReply) bool {
					got = append(got, g.Exception)
					progress.Add(1)
					return len(got) < len(pushed)
				}, func(err error) { t.Errorf("poll: %v", err) })
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, pushed) {
					t.Fatalf("received %d exceptions\n% X\nwant\n% X", len(got), got, pushed)
				}
				// One more poll acknowledges the last one.
				if g, err := r.c.GeneralPoll(); err != nil || g.Exception != sas.ExcNone {
					t.Fatalf("after all: %+v, %v", g, err)
				}
				if len(lost) == 0 || resent != len(lost) {
					t.Errorf("%d replies lost, %d resent", len(lost), resent)
				}
				if k := r.m.count(sas.EventResent); k < len(lost) {
					t.Errorf("machine saw %d repeats, host lost %d replies", k, len(lost))
				}
				r.m.mu.Lock()
				defer r.m.mu.Unlock()
				if !slices.Equal(r.m.acked, pushed) {
					t.Errorf("acknowledged (persisted) % X", r.m.acked)
				}
				var q sas.ExceptionQueue
				if err := q.UnmarshalBinary(r.m.saved); err != nil || q.Len() != 0 {
					t.Errorf("persisted queue: %d left, %v", q.Len(), err)
				}
			})
		}
	}
}

// fakeClock is a clock the test moves.
type fakeClock struct{ ns atomic.Int64 }

func newFakeClock() *fakeClock {
	c := &fakeClock{}
	c.ns.Store(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func (c *fakeClock) Now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *fakeClock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

// readChirps reads the host's end directly for d of real time.
func readChirps(t *testing.T, p *sas.TTY, d time.Duration) []byte {
	t.Helper()
	var out []byte
	buf := make([]byte, 64)
	deadline := time.Now().Add(d)
	for {
		p.SetReadDeadline(deadline)
		n, err := p.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal(err)
			}
			return out
		}
	}
}

func TestServeChirp(t *testing.T) {
	for _, md := range modes {
		t.Run(md.name, func(t *testing.T) {
			clk := newFakeClock()
			// A patient host: a retry after a slow reply (a loaded machine)
			// would leave the repeated answer on the line, read as a chirp.
			r := startPTY(t, md.mode, host.Options{Now: clk.Now, Timeout: 2 * time.Second}, sas.ServeOptions{Now: clk.Now})
			if g, err := r.c.GeneralPoll(); err != nil || g.Exception != sas.ExcNone {
				t.Fatalf("first poll: %+v %v", g, err)
			}
			r.m.mu.Lock()
			up := r.m.link.Up()
			r.m.mu.Unlock()
			if !up {
				t.Fatal("link not up after a poll")
			}
			// 4.9 s of silence: nothing.
			clk.Advance(4900 * time.Millisecond)
			if b := readChirps(t, r.hostP, 60*time.Millisecond); len(b) != 0 {
				t.Fatalf("chirped % X before 5 s", b)
			}
			// 5 s: the link is down, the machine chirps its address once.
			clk.Advance(100 * time.Millisecond)
			if b := readChirps(t, r.hostP, 250*time.Millisecond); !bytes.Equal(b, []byte{machineAddr}) {
				t.Fatalf("after 5 s of silence read % X, want one chirp %02X", b, machineAddr)
			}
			if r.m.count(sas.EventLinkDown) != 1 {
				t.Errorf("link-down events: %d", r.m.count(sas.EventLinkDown))
			}
			// The next chirp 200 ms later, not before.
			clk.Advance(150 * time.Millisecond)
			if b := readChirps(t, r.hostP, 50*time.Millisecond); len(b) != 0 {
				t.Fatalf("chirped % X 150 ms after the last chirp", b)
			}
			clk.Advance(50 * time.Millisecond)
			if b := readChirps(t, r.hostP, 250*time.Millisecond); !bytes.Equal(b, []byte{machineAddr}) {
				t.Fatalf("200 ms later read % X, want a chirp", b)
			}
			// A poll to us is ignored until the start-up rule is met. (The
			// client would sync by itself: write the poll directly.)
			poll := []byte{0x80 | machineAddr}
			if md.mode == sas.ModePARMRK {
				poll = []byte{0xFF, 0x00, 0x80 | machineAddr}
			}
			if _, err := r.hostP.Write(poll); err != nil {
				t.Fatal(err)
			}
			if b := readChirps(t, r.hostP, 50*time.Millisecond); len(b) != 0 {
				t.Fatalf("unsynchronised poll answered % X", b)
			}
			if err := r.c.Sync(); err != nil {
				t.Fatal(err)
			}
			if g, err := r.c.GeneralPoll(); err != nil || g.Exception != sas.ExcNone {
				t.Fatalf("poll after sync: %+v %v", g, err)
			}
			clk.Advance(time.Second)
			if b := readChirps(t, r.hostP, 50*time.Millisecond); len(b) != 0 {
				t.Fatalf("chirped % X with the link up", b)
			}
		})
	}
}

func TestServeTCP(t *testing.T) {
	for _, md := range modes {
		t.Run(md.name, func(t *testing.T) {
			checkGoroutines(t)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Skipf("no loopback TCP: %v", err)
			}
			m := newFakeMachine()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				done <- sas.ServeListener(ctx, ln, m.link, md.mode, sas.ServeOptions{Lock: &m.mu, OnEvent: m.onEvent})
			}()
			dial := func() *host.Client {
				p, err := sas.DialTCP(context.Background(), ln.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				return host.New(p, host.Options{Addr: machineAddr, Escape: md.mode == sas.ModePARMRK})
			}
			c1 := dial()
			ms, err := c1.Meters(0x1C)
			if err != nil || len(ms) != 8 || ms[0].Value != 12345678 {
				t.Fatalf("1C over TCP: %v %v", ms, err)
			}
			m.push(sas.ExcSlotDoorOpened)
			g, err := c1.GeneralPoll()
			if err != nil || g.Exception != sas.ExcSlotDoorOpened {
				t.Fatalf("general poll over TCP: %+v %v", g, err)
			}
			// A second connection replaces the first; the link carries over
			// (the host moving on acknowledges the exception).
			c2 := dial()
			if cr, err := c2.Credits(); err != nil || cr != 250 {
				t.Fatalf("second connection: %d %v", cr, err)
			}
			c1.Port().SetReadDeadline(time.Now().Add(2 * time.Second))
			if _, err := c1.Port().Read(make([]byte, 8)); !errors.Is(err, io.EOF) {
				t.Errorf("first connection after the second: %v, want EOF", err)
			}
			m.mu.Lock()
			acked := slices.Clone(m.acked)
			m.mu.Unlock()
			if !slices.Equal(acked, []sas.Exception{sas.ExcSlotDoorOpened}) {
				t.Errorf("acknowledged % X", acked)
			}
			c1.Close()
			c2.Close()
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("ServeListener returned %v", err)
				}
			case <-time.After(2 * time.Second):
				t.Fatal("ServeListener did not return")
			}
		})
	}
}

// failPort fails its reads after a few deadlines.
type failPort struct {
	reads atomic.Int32
	err   error
}

func (p *failPort) Read([]byte) (int, error) {
	if p.reads.Add(1) > 3 {
		return 0, p.err
	}
	time.Sleep(time.Millisecond)
	return 0, os.ErrDeadlineExceeded
}
func (p *failPort) Write(b []byte) (int, error)     { return len(b), nil }
func (p *failPort) Close() error                    { return nil }
func (p *failPort) SetReadDeadline(time.Time) error { return nil }
func (p *failPort) WriteWakeup(byte) error          { return nil }
func (p *failPort) Framing() sas.FramerMode         { return sas.ModeContent }

func TestServeEnds(t *testing.T) {
	checkGoroutines(t)
	want := errors.New("line unplugged")
	p := &failPort{err: want}
	if err := sas.Serve(context.Background(), p, sas.NewLink(1), 0, sas.ServeOptions{}); !errors.Is(err, want) {
		t.Fatalf("Serve on a failing port returned %v", err)
	}

	pty, err := sas.OpenPTY(sas.ModeContent)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer pty.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sas.Serve(ctx, pty, sas.NewLink(1), 0, sas.ServeOptions{}) }()
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Serve returned %v", err)
		}
		if d := time.Since(start); d > 200*time.Millisecond {
			t.Errorf("Serve took %v to return after cancel", d)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
}

// TestPTYNobodyReads: with no host attached the machine keeps serving
// (chirping) and its writes never block; a host that attaches later reads
// no stale bytes.
func TestPTYNobodyReads(t *testing.T) {
	pty, err := sas.OpenPTY(sas.ModeContent)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer pty.Close()
	chunk := bytes.Repeat([]byte{0x42}, 1000)
	for range 20 { // 20 kB: far more than a pseudo-terminal buffers
		pty.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := pty.Write(chunk); err != nil {
			t.Fatalf("write with nobody reading: %v", err)
		}
	}
	hp, err := sas.OpenTTY(pty.HostPath())
	if err != nil {
		t.Fatal(err)
	}
	defer hp.Close()
	if b := readChirps(t, hp, 30*time.Millisecond); len(b) != 0 {
		t.Fatalf("a new host read %d stale bytes", len(b))
	}
	pty.Write([]byte{7})
	if b := readChirps(t, hp, 50*time.Millisecond); !bytes.Equal(b, []byte{7}) {
		t.Fatalf("read % X after attaching", b)
	}
}
