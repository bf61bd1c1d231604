package host

import (
	"bytes"
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/sastest"
)

func TestProgressiveReplyShapes(t *testing.T) {
	// 85: group, level, 5 BCD: 11 bytes with address, command and CRC.
	r85 := sas.BuildReply(addr, 0x85, 0x05, 0x02, 0, 0, 0x12, 0x34, 0x56)
	if n, ok := ReplyLength(r85); !ok || n != 11 {
		t.Fatalf("85 length %d %v", n, ok)
	}
	r, err := ParseResponse(addr, 0x85, r85)
	if err != nil {
		t.Fatal(err)
	}
	if w, err := DecodeProgressiveWin(r.Data); err != nil || w != (sas.ProgressiveWin{Group: 5, Level: 2, Amount: 123456}) {
		t.Fatalf("85 %+v %v", w, err)
	}
	// 87: variable, its length byte decides.
	r87 := sas.BuildReply(addr, 0x87, 0x08, 0x05, 0x01, 0x03, 0, 0, 0, 0x01, 0x00)
	if n, ok := ReplyLength(r87); !ok || n != len(r87) {
		t.Fatalf("87 length %d %v", n, ok)
	}
	r, err = ParseResponse(addr, 0x87, r87)
	if err != nil {
		t.Fatal(err)
	}
	if ws, err := DecodeProgressiveWins(r.Data); err != nil || ws.Group != 5 || !slices.Equal(ws.Wins, []sas.LevelValue{{Level: 3, Amount: 100}}) {
		t.Fatalf("87 %+v %v", ws, err)
	}
	if _, err := ParseResponse(addr, 0x87, sas.BuildReply(addr, 0x87, 0x09, 0x05, 0x01, 0x03, 0, 0, 0, 0x01, 0x00)); !errors.Is(err, ErrBadReply) {
		t.Errorf("87 with a wrong length byte: %v", err)
	}
	// Decoders: strict, wrapped as ErrBadReply.
	for name, err := range map[string]error{
		"85 short":      func() error { _, err := DecodeProgressiveWin(make([]byte, 6)); return err }(),
		"85 bad BCD":    func() error { _, err := DecodeProgressiveWin([]byte{5, 1, 0, 0, 0, 0, 0xAA}); return err }(),
		"87 count":      func() error { _, err := DecodeProgressiveWins([]byte{2, 5, 1}); return err }(),
		"83 short":      func() error { _, err := DecodeCumulativeWins(make([]byte, 5)); return err }(),
		"83 bad BCD":    func() error { _, err := DecodeCumulativeWins([]byte{0, 0, 0, 0, 0, 0x0E}); return err }(),
		"1B short":      func() error { _, err := DecodeHandpay(make([]byte, 19)); return err }(),
		"1B long":       func() error { _, err := DecodeHandpay(make([]byte, 21)); return err }(),
		"1B bad BCD":    func() error { b := make([]byte, 20); b[3] = 0xB0; _, err := DecodeHandpay(b); return err }(),
		"1B bad unused": func() error { b := make([]byte, 20); b[19] = 0x0C; _, err := DecodeHandpay(b); return err }(),
	} {
		if !errors.Is(err, ErrBadReply) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if cw, err := DecodeCumulativeWins([]byte{0, 0x01, 0, 0, 0x12, 0x34}); err != nil || cw != (CumulativeWins{Game: 1, Amount: 1234}) {
		t.Errorf("83 %+v %v", cw, err)
	}
	// 1B: the 6.03 session amounts in the last 10 bytes are read as BCD.
	hd, _ := sas.HandpayInfoData(sas.HandpayInfo{Group: 2, Level: 1, Amount: 10000, SessionWin: 5, SessionPay: 6})
	if h, err := DecodeHandpay(hd); err != nil || h != (Handpay{ProgressiveGroup: 2, Level: 1, Amount: 10000, SessionWin: 5, SessionPay: 6}) {
		t.Errorf("1B %+v %v", h, err)
	}
	// What the machine builds decodes to what it was built from, at the
	// edges of each field, and all zero is no handpay.
	for _, h := range []sas.HandpayInfo{
		{Level: sas.HandpayLevelNonProgressive, Amount: 123456, PartialPay: 25, ResetID: sas.HandpayResetCredits},
		{Group: 3, Level: 1, Amount: sas.MaxProgressiveAmount, PartialPay: 9999, SessionWin: 100, SessionPay: 200},
		{},
	} {
		data, err := sas.HandpayInfoData(h)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := DecodeHandpay(data); err != nil || got != handpayOf(h) {
			t.Errorf("1B % X decoded as %+v %v, built from %+v", data, got, err, h)
		}
	}
}

// handpayOf is what the host should read from a machine's 0x1B reply.
func handpayOf(h sas.HandpayInfo) Handpay {
	return Handpay{ProgressiveGroup: h.Group, Level: h.Level, Amount: h.Amount, PartialPay: h.PartialPay,
		ResetID: h.ResetID, SessionWin: h.SessionWin, SessionPay: h.SessionPay}
}

// TestBroadcastWrites: a global broadcast is the frame alone, written once,
// with nothing read; an addressed one is a long poll that must be ACKed.
func TestBroadcastWrites(t *testing.T) {
	p := &fakePort{mode: sas.ModeContent}
	c := New(p, Options{Addr: addr, Gap: time.Millisecond, Timeout: time.Millisecond})
	levels := []sas.LevelValue{{Level: 1, Amount: 100000}, {Level: 2, Amount: 2500}}
	if err := c.Broadcast(9, levels, true); err != nil {
		t.Fatal(err)
	}
	want, _ := sas.ProgressiveBroadcastFrame(0, 9, levels)
	if !bytes.Equal(p.tx, want) {
		t.Fatalf("global broadcast wrote % X, want % X", p.tx, want)
	}
	// Addressed, one level: 0x80, ACKed.
	p.tx, p.rx = nil, [][]byte{{addr}}
	if err := c.Broadcast(9, levels[:1], false); err != nil {
		t.Fatal(err)
	}
	want, _ = sas.ProgressiveBroadcastFrame(addr, 9, levels[:1])
	if !bytes.HasSuffix(p.tx, want) || want[1] != 0x80 {
		t.Fatalf("addressed broadcast wrote % X, want … % X", p.tx, want)
	}
	// Not ACKed: an error.
	p.tx, p.rx = nil, nil
	if err := c.Broadcast(9, levels[:1], false); !errors.Is(err, ErrNoReply) {
		t.Fatalf("silent machine: %v", err)
	}
	// Bad values never reach the wire.
	p.tx = nil
	if err := c.Broadcast(0, levels, true); !errors.Is(err, sas.ErrProgressive) || p.tx != nil {
		t.Fatalf("group 0: %v, wrote % X", err, p.tx)
	}
	if err := c.SendGlobal([]byte{addr, 0x80}); err == nil {
		t.Error("SendGlobal to an address")
	}
}

// progMachine is a machine for the end-to-end test: the Link, a
// Progressive for the progressive polls, fixed replies to 0x83 and 0x1B.
type progMachine struct {
	mu    sync.Mutex
	link  *sas.Link
	prog  *sastest.Progressive
	acked []byte // AckedCmd of the events, in order
}

func (m *progMachine) LongPoll(r sas.Request) sas.Reply {
	switch r.Cmd {
	case 0x80, 0x86, 0x85, 0x87:
		return m.prog.LongPoll(r)
	case 0x83:
		g, err := sas.DecodeGameNumber(r.Data)
		if err != nil || g != 0 {
			return sas.NoReply()
		}
		d, _ := sas.CumulativeProgressiveWinsData(0, 777)
		return sas.ReplyData(d...)
	case 0x1B:
		d, _ := sas.HandpayInfoData(sas.HandpayInfo{Group: 5, Level: 1, Amount: 100000, ResetID: sas.HandpayResetStandard})
		return sas.ReplyData(d...)
	}
	return sas.NoReply()
}

func (m *progMachine) ReplyAcked(cmd byte)   { m.prog.ReplyAcked(cmd) }
func (m *progMachine) ReplyDropped(cmd byte) { m.prog.ReplyDropped(cmd) }

// TestProgressiveEndToEnd runs the host client against sas.Serve over a
// stream: broadcasts reach the machine's values, a hit is reported with
// 0x56 and read with 0x87, and the host moving on acknowledges it.
func TestProgressiveEndToEnd(t *testing.T) {
	a, b := net.Pipe()
	m := &progMachine{link: sas.NewLink(addr)}
	m.prog = &sastest.Progressive{Group: 5, Exceptions: m.link.Exceptions}
	m.link.Handler = m
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- sas.Serve(ctx, sas.NewStreamPort(b, sas.ModeContent), m.link, 0, sas.ServeOptions{Lock: &m.mu,
			OnEvent: func(ev sas.Event) {
				if ev.AckedCmd != 0 {
					m.acked = append(m.acked, ev.AckedCmd)
				}
			}})
	}()
	defer func() {
		cancel()
		a.Close()
		<-done
		b.Close()
	}()
	c := New(sas.NewStreamPort(a, sas.ModeContent), Options{Addr: addr})
	locked := func(f func()) { m.mu.Lock(); defer m.mu.Unlock(); f() }

	if err := c.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := c.Broadcast(5, []sas.LevelValue{{Level: 1, Amount: 100000}, {Level: 2, Amount: 2500}}, true); err != nil {
		t.Fatal(err)
	}
	if err := c.Broadcast(5, []sas.LevelValue{{Level: 2, Amount: 2600}}, false); err != nil {
		t.Fatal(err)
	}
	var values map[byte]uint64
	locked(func() { values = m.prog.Values() })
	if values[1] != 100000 || values[2] != 2600 {
		t.Fatalf("values %v", values)
	}

	locked(func() { m.prog.Hit(41, 1, 100000) })
	g, err := c.GeneralPoll()
	if err != nil || g.Exception != sas.ExcProgressiveLevelHit {
		t.Fatalf("general poll %+v %v", g, err)
	}
	ws, err := c.ProgressiveWins()
	if err != nil || ws.Group != 5 || !slices.Equal(ws.Wins, []sas.LevelValue{{Level: 1, Amount: 100000}}) {
		t.Fatalf("87 %+v %v", ws, err)
	}
	locked(func() {
		if len(m.prog.Acknowledged()) != 0 {
			t.Error("acknowledged before the host moved on")
		}
	})
	if g, err := c.GeneralPoll(); err != nil || g.Exception != sas.ExcNone {
		t.Fatalf("general poll after 87: %+v %v", g, err)
	}
	locked(func() {
		if ack := m.prog.Acknowledged(); len(ack) != 1 || ack[0].ID != 41 {
			t.Errorf("acknowledged %+v", ack)
		}
	})
	// Serve reports the event (OnEvent) after it has written the reply,
	// so the host may have the reply first.
	for deadline := time.Now().Add(time.Second); ; time.Sleep(time.Millisecond) {
		var acked []byte
		locked(func() { acked = bytes.Clone(m.acked) })
		if bytes.Contains(acked, []byte{0x87}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("events acknowledged % X", acked)
		}
	}
	if w, err := c.ProgressiveWin(); err != nil || !w.None() {
		t.Fatalf("85 with nothing unread: %+v %v", w, err)
	}
	if cw, err := c.CumulativeProgressiveWins(0); err != nil || cw.Amount != 777 {
		t.Fatalf("83 %+v %v", cw, err)
	}
	if h, err := c.Handpay(); err != nil || h.Level != 1 || h.Amount != 100000 || h.ProgressiveGroup != 5 {
		t.Fatalf("1B %+v %v", h, err)
	}
	if _, err := c.CumulativeProgressiveWins(10000); err == nil {
		t.Error("game 10000 sent")
	}
}

// FuzzProgressiveDecoders: the host's progressive decoders never panic and
// accept only what the machine-side builders would produce.
func FuzzProgressiveDecoders(f *testing.F) {
	f.Add([]byte{5, 2, 0, 0, 0x12, 0x34, 0x56})
	f.Add([]byte{0x08, 0x05, 0x01, 0x03, 0, 0, 0, 0x01, 0x00})
	f.Add([]byte{0, 0, 0, 0, 0x12, 0x34})
	f.Add(make([]byte, 20))
	f.Fuzz(func(t *testing.T, data []byte) {
		if w, err := DecodeProgressiveWin(data); err == nil {
			if again, _ := sas.ProgressiveWinData(w); !bytes.Equal(again, data) {
				t.Fatalf("85 % X → % X", data, again)
			}
		}
		if ws, err := DecodeProgressiveWins(data); err == nil {
			if again, _ := sas.MultipleProgressiveWinsData(ws); !bytes.Equal(again, data) {
				t.Fatalf("87 % X → % X", data, again)
			}
		}
		if cw, err := DecodeCumulativeWins(data); err == nil {
			if again, _ := sas.CumulativeProgressiveWinsData(cw.Game, cw.Amount); !bytes.Equal(again, data) {
				t.Fatalf("83 % X → % X", data, again)
			}
		}
		if h, err := DecodeHandpay(data); err == nil {
			if len(data) != 20 {
				t.Fatalf("1B of %d bytes: %+v", len(data), h)
			}
			// Levels and reset IDs the machine would never build are
			// read as received; everything else builds back.
			info := sas.HandpayInfo{Group: h.ProgressiveGroup, Level: h.Level, Amount: h.Amount, PartialPay: h.PartialPay,
				ResetID: h.ResetID, SessionWin: h.SessionWin, SessionPay: h.SessionPay}
			if again, err := sas.HandpayInfoData(info); err == nil && !bytes.Equal(again, data) {
				t.Fatalf("1B % X → %+v → % X", data, h, again)
			}
		}
	})
}
