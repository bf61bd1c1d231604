package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/openegm/cabinet/sas"
)

// rtMachine is a stand-in that answers 0x08, 0x0E, 0x48 and 0xA0.
type rtMachine struct {
	mu    sync.Mutex
	link  *sas.Link
	bills []sas.BillDenominations
}

func (m *rtMachine) LongPoll(r sas.Request) sas.Reply {
	switch r.Cmd {
	case sas.CmdConfigureBills:
		b, err := sas.ParseBillDenominations(r.Data)
		if err != nil {
			return sas.NoReply()
		}
		m.bills = append(m.bills, b)
		return sas.ReplyAck()
	case sas.CmdRealTime:
		on, err := sas.ParseRealTime(r.Data)
		if err != nil {
			return sas.NoReply()
		}
		m.link.RealTime = on
		return sas.ReplyAck()
	case sas.CmdLastBill:
		d, _ := sas.LastBillData(sas.LastBill{Country: sas.CountryEuro, Code: 10, Count: 4})
		return sas.ReplyData(d...)
	case sas.CmdEnabledFeatures:
		g, err := sas.DecodeGameNumber(r.Data)
		if err != nil || g != 0 {
			return sas.NoReply()
		}
		d, _ := sas.EnabledFeaturesData(sas.Features{Bits: [4]byte{0, 0x09, 0x03, 0}})
		return sas.ReplyData(d...)
	}
	return sas.NoReply()
}

func serveRT(t *testing.T) (*rtMachine, string) {
	t.Helper()
	p, err := sas.OpenPTY(sas.ModeContent)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	m := &rtMachine{link: sas.NewLink(addr)}
	m.link.Handler = m
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sas.Serve(ctx, p, m.link, 0, sas.ServeOptions{Lock: &m.mu}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Serve: %v", err)
		}
		p.Close()
	})
	return m, p.HostPath()
}

func TestSashostBillsRealTimeLastBillFeatures(t *testing.T) {
	m, path := serveRT(t)
	base := []string{"--pty", path, "--addr", fmt.Sprint(addr)}
	cmd := func(args ...string) string {
		t.Helper()
		out, errs, code := sashost(t, append(append([]string{}, base...), args...)...)
		if code != 0 {
			t.Fatalf("sashost %v: exit %d: %s", args, code, errs)
		}
		return out
	}

	if out := cmd("bills", "set", "20,5"); !strings.Contains(out, "mask 00000014") || !strings.Contains(out, "[5 20]") ||
		!strings.Contains(out, "stays enabled") {
		t.Errorf("bills set: %q", out)
	}
	var bj struct {
		Notes       []int64 `json:"notes"`
		Mask        string  `json:"mask"`
		KeepEnabled bool    `json:"keep_enabled"`
	}
	if err := json.Unmarshal([]byte(cmd("bills", "set", "all", "--disable-after-bill", "--json")), &bj); err != nil ||
		bj.Mask != "000005DC" || bj.KeepEnabled || len(bj.Notes) != 7 {
		t.Errorf("bills set all: %+v %v", bj, err)
	}
	cmd("bills", "set", "none")
	m.mu.Lock()
	want := []sas.BillDenominations{{Mask: 0x14, KeepEnabled: true}, {Mask: 0x5DC}, {KeepEnabled: true}}
	if fmt.Sprint(m.bills) != fmt.Sprint(want) {
		t.Errorf("machine got %+v, want %+v", m.bills, want)
	}
	m.mu.Unlock()

	if out := cmd("lastbill"); out != "last accepted bill: country 39 (euro), denomination code 10 (500), 4 accepted of that denomination\n" {
		t.Errorf("lastbill: %q", out)
	}
	if out := cmd("lastbill", "--json"); !strings.Contains(out, `"country":39`) || !strings.Contains(out, `"face_value":500`) {
		t.Errorf("lastbill json: %q", out)
	}
	if out := cmd("features"); !strings.Contains(out, "00 09 03 00") || !strings.Contains(out, "  extended meters\n") ||
		!strings.Contains(out, "  multiple SAS progressive win reporting\n") {
		t.Errorf("features: %q", out)
	}
	var fj struct {
		Enabled []string `json:"enabled"`
	}
	if err := json.Unmarshal([]byte(cmd("features", "--json")), &fj); err != nil || len(fj.Enabled) != 4 {
		t.Errorf("features json: %+v %v", fj, err)
	}
	if _, errs, code := sashost(t, append(append([]string{}, base...), "features", "--game", "2", "--retries", "0", "--timeout", "30ms")...); code != 1 || !strings.Contains(errs, "no reply") {
		t.Errorf("features of game 2: exit %d %s", code, errs)
	}

	if out := cmd("realtime", "on"); out != "real-time event reporting on: acknowledged\n" {
		t.Errorf("realtime on: %q", out)
	}
	m.mu.Lock()
	if !m.link.RealTime {
		t.Error("machine not in real-time mode")
	}
	start, _ := sas.GameStartedEvent(sas.GameStarted{CreditsWagered: 20, CoinIn: 1234, WagerType: 0x41, Group: 0})
	m.link.Exceptions.PushEvent(sas.ExceptionEvent{Code: sas.ExcGameStarted, Event: start})
	m.link.Exceptions.Push(sas.ExcSlotDoorOpened)
	m.mu.Unlock()
	ev := cmd("--realtime", "events", "--count", "2", "--for", "5s")
	if !strings.Contains(ev, "7E game started (real-time: 20 credits wagered, coin in €12.34, wager type 41, progressive group 0)") ||
		!strings.Contains(ev, "11 slot door opened (real-time)") {
		t.Errorf("events: %q", ev)
	}
	// Nothing pending: silence, which --realtime takes for no activity.
	if out, errs, code := sashost(t, append(append([]string{}, base...), "--realtime", "events", "--for", "300ms")...); code != 0 || out != "" || errs != "" {
		t.Errorf("quiet real-time events: exit %d %q %q", code, out, errs)
	}
	cmd("realtime", "off")
	for _, args := range [][]string{{"bills"}, {"bills", "set", "7"}, {"bills", "add", "5"}, {"realtime", "maybe"}, {"lastbill", "x"}} {
		if _, errs, code := sashost(t, append(append([]string{}, base...), args...)...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errs)
		}
	}
}
