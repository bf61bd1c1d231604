package host

import (
	"bytes"
	"context"
	"net"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
)

// rtMachine answers 0x08, 0x0E, 0x48 and 0xA0 like the cabinet.
type rtMachine struct {
	mu    sync.Mutex
	link  *sas.Link
	bills sas.BillDenominations
}

func (m *rtMachine) LongPoll(r sas.Request) sas.Reply {
	switch r.Cmd {
	case sas.CmdConfigureBills:
		b, err := sas.ParseBillDenominations(r.Data)
		if err != nil {
			return sas.NoReply()
		}
		m.bills = b
		return sas.ReplyAck()
	case sas.CmdRealTime:
		on, err := sas.ParseRealTime(r.Data)
		if err != nil {
			return sas.NoReply()
		}
		m.link.RealTime = on
		return sas.ReplyAck()
	case sas.CmdLastBill:
		d, _ := sas.LastBillData(sas.LastBill{Country: sas.CountryEuro, Code: 6, Count: 3})
		return sas.ReplyData(d...)
	case sas.CmdEnabledFeatures:
		g, err := sas.DecodeGameNumber(r.Data)
		if err != nil || g != 0 {
			return sas.NoReply()
		}
		d, _ := sas.EnabledFeaturesData(sas.Features{Bits: [4]byte{0, 0x09, 0x01, 0}})
		return sas.ReplyData(d...)
	}
	return sas.NoReply()
}

func TestRealTimeEndToEnd(t *testing.T) {
	a, b := net.Pipe()
	m := &rtMachine{link: sas.NewLink(addr)}
	m.link.Handler = m
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- sas.Serve(ctx, sas.NewStreamPort(b, sas.ModeContent), m.link, 0, sas.ServeOptions{Lock: &m.mu})
	}()
	defer func() {
		cancel()
		a.Close()
		<-done
		b.Close()
	}()
	lost := 0
	c := New(sas.NewStreamPort(a, sas.ModeContent), Options{Addr: addr, Timeout: 50 * time.Millisecond,
		Lose: func(poll, reply []byte, attempt int) bool {
			// The first real-time game end is lost on the line once.
			if len(reply) > 2 && reply[1] == 0xFF && reply[2] == 0x7F && lost == 0 {
				lost++
				return true
			}
			return false
		}})
	push := func(ev sas.ExceptionEvent) { m.mu.Lock(); m.link.Exceptions.PushEvent(ev); m.mu.Unlock() }
	if err := c.Sync(); err != nil {
		t.Fatal(err)
	}

	euro := sas.BillDenominationsFor([]int64{5, 20}, false)
	if err := c.ConfigureBills(euro); err != nil {
		t.Fatal(err)
	}
	m.mu.Lock()
	if m.bills != euro {
		t.Errorf("machine has %+v, want %+v", m.bills, euro)
	}
	m.mu.Unlock()
	if lb, err := c.LastBill(); err != nil || lb != (sas.LastBill{Country: 39, Code: 6, Count: 3}) {
		t.Fatalf("48: %+v %v", lb, err)
	}
	if f, err := c.Features(0); err != nil || f.Bits != [4]byte{0, 0x09, 0x01, 0} {
		t.Fatalf("A0: %+v %v", f, err)
	}
	if _, err := c.Features(1); err == nil {
		t.Fatal("A0 for game 1 answered")
	}

	end := sas.GameEndedEvent(sas.GameEnded{Win: 250})
	push(sas.ExceptionEvent{Code: sas.ExcGameEnded, Event: end})
	if g, err := c.GeneralPoll(); err != nil || g.RealTime || g.Exception != sas.ExcGameEnded {
		t.Fatalf("before 0x0E: %+v %v", g, err)
	}
	if err := c.SetRealTime(true); err != nil || !c.RealTime() {
		t.Fatal(err)
	}
	// Nothing to report: silence, taken at once for no activity.
	start := time.Now()
	g, err := c.GeneralPoll()
	if err != nil || g.Exception != sas.ExcNone || !g.RealTime || g.Attempts != 1 {
		t.Fatalf("nothing: %+v %v", g, err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("no activity took %v", d)
	}
	push(sas.ExceptionEvent{Code: sas.ExcGameEnded, Event: end})
	push(sas.ExceptionEvent{Code: sas.ExcSlotDoorOpened})
	g, err = c.GeneralPoll()
	if err != nil || !g.RealTime || g.Exception != sas.ExcGameEnded || !bytes.Equal(g.EventData, end[1:]) ||
		!reflect.DeepEqual(g.Event, &sas.GameEnded{Win: 250}) || g.Attempts != 2 || lost != 1 {
		t.Fatalf("game end: %+v %v (lost %d)", g, err, lost)
	}
	if g, err := c.GeneralPoll(); err != nil || g.Exception != sas.ExcSlotDoorOpened || g.Event != nil || len(g.EventData) != 0 {
		t.Fatalf("door: %+v %v", g, err)
	}
	if g, err := c.GeneralPoll(); err != nil || g.Exception != sas.ExcNone {
		t.Fatalf("after: %+v %v", g, err)
	}
	if err := c.SetRealTime(false); err != nil || c.RealTime() {
		t.Fatal(err)
	}
	push(sas.ExceptionEvent{Code: sas.ExcGameEnded, Event: end})
	if g, err := c.GeneralPoll(); err != nil || g.RealTime || g.Exception != sas.ExcGameEnded {
		t.Fatalf("after 0x0E off: %+v %v", g, err)
	}
}

func TestParseGeneralRealTimeData(t *testing.T) {
	start, _ := sas.GameStartedEvent(sas.GameStarted{CreditsWagered: 20, CoinIn: 1234, WagerType: 0x41, Group: 5})
	g, err := ParseGeneral(addr, sas.BuildReply(addr, 0xFF, start...))
	if err != nil || !reflect.DeepEqual(g.Event, &sas.GameStarted{CreditsWagered: 20, CoinIn: 1234, WagerType: 0x41, Group: 5}) {
		t.Fatalf("%+v %v", g, err)
	}
	bill, _ := sas.BillAcceptedEvent(sas.BillAccepted{Country: 39, Code: 10, Count: 2})
	g, err = ParseGeneral(addr, sas.BuildReply(addr, 0xFF, bill...))
	if err != nil || !reflect.DeepEqual(g.Event, &sas.BillAccepted{Country: 39, Code: 10, Count: 2}) {
		t.Fatalf("%+v %v", g, err)
	}
	// A game end with a bad BCD digit: kept, with why it does not decode.
	g, err = ParseGeneral(addr, sas.BuildReply(addr, 0xFF, 0x7F, 0, 0, 0, 0xAB))
	if err != nil || g.Event != nil || g.EventError == "" {
		t.Fatalf("%+v %v", g, err)
	}
	// The Aristocrat client's "no activity" in this mode: addr FF 00 CRC.
	g, err = ParseGeneral(addr, sas.BuildReply(addr, 0xFF, 0x00))
	if err != nil || g.Exception != sas.ExcNone || !g.RealTime {
		t.Fatalf("%+v %v", g, err)
	}
	if n, ok := ReplyLength(sas.BuildReply(addr, 0xA0, 0, 0, 0, 9, 1, 0, 0, 0)); !ok || n != 12 {
		t.Fatalf("A0 length %d %v", n, ok)
	}
}
