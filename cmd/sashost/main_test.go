package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

const addr = 3

// machine is a small cabinet stand-in served over a pseudo-terminal.
type machine struct {
	mu     sync.Mutex
	link   *sas.Link
	meters map[uint16]uint64
	wg     sync.WaitGroup
	clock  time.Time
	image  []byte
}

func (m *machine) Meter(c uint16) (uint64, bool) { v, ok := m.meters[c]; return v, ok }

func (m *machine) LongPoll(r sas.Request) sas.Reply {
	if sas.IsMeterPoll(r.Cmd) {
		return sas.MeterReply(r, m)
	}
	switch r.Cmd {
	case 0x01, 0x02:
		return sas.ReplyAck()
	case 0x1B:
		d := []byte{0, 0x40}
		d = sas.AppendBCD(d, 123456, 5)
		d = sas.AppendBCD(d, 0, 2)
		return sas.ReplyData(append(d, make([]byte, 11)...)...)
	case 0x1F:
		d := append([]byte("ZZ000"), 1, 10, 0, 0, 0)
		d = append(d, "TBL001"...)
		return sas.ReplyData(append(d, "9500"...)...)
	case 0x54:
		d := append([]byte{0}, "602SN42"...)
		d[0] = byte(len(d) - 1)
		return sas.ReplyData(d...)
	case 0x7E:
		return sas.ReplyData(host.EncodeTime(m.clock)...)
	case 0x7F:
		t, err := host.DecodeTime(r.Data, time.Local)
		if err != nil {
			return sas.NoReply()
		}
		m.clock = t
		return sas.ReplyAck()
	case 0x21:
		seed := uint16(r.Data[0]) | uint16(r.Data[1])<<8
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			sig := sas.CRCSeeded(seed, m.image)
			m.mu.Lock()
			m.link.Defer(0x21, byte(sig), byte(sig>>8))
			m.mu.Unlock()
		}()
		return sas.ReplyAck()
	}
	return sas.NoReply()
}

func (m *machine) push(e sas.Exception) {
	m.mu.Lock()
	m.link.Exceptions.Push(e)
	m.mu.Unlock()
}

func serve(t *testing.T, mode sas.FramerMode) (*machine, string) {
	t.Helper()
	p, err := sas.OpenPTY(mode)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	m := &machine{link: sas.NewLink(addr), image: []byte("program"), clock: time.Date(2030, 6, 7, 8, 9, 10, 0, time.Local),
		meters: map[uint16]uint64{0x00: 1000, 0x01: 900, 0x24: 400, 0x02: 0, 0x05: 77, 0x06: 30, 0xFF01: 2, 0xFF02: 1, 0x0C: 55, 0x0D: 12345}}
	m.link.Handler = m
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sas.Serve(ctx, p, m.link, 0, sas.ServeOptions{Lock: &m.mu}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Serve: %v", err)
		}
		m.wg.Wait()
		p.Close()
	})
	return m, p.HostPath()
}

func sashost(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestSashost(t *testing.T) {
	for _, framing := range []string{"content", "parmrk"} {
		t.Run(framing, func(t *testing.T) {
			mode := sas.ModeContent
			if framing == "parmrk" {
				mode = sas.ModePARMRK
			}
			m, path := serve(t, mode)
			// A patient host: on a loaded machine (or under the race detector) the
			// simulated machine can take longer than SAS allows to answer.
			base := []string{"--pty", path, "--addr", fmt.Sprint(addr), "--framing", framing, "--timeout", "2s"}
			cmd := func(args ...string) string {
				t.Helper()
				out, errs, code := sashost(t, append(append([]string{}, base...), args...)...)
				if code != 0 {
					t.Fatalf("sashost %v: exit %d: %s", args, code, errs)
				}
				return out
			}

			var mj struct {
				Poll1C []host.Meter `json:"poll_1c"`
				Meters []host.Meter `json:"meters"`
			}
			if err := json.Unmarshal([]byte(cmd("meters", "--json")), &mj); err != nil {
				t.Fatal(err)
			}
			if len(mj.Poll1C) != 8 || mj.Poll1C[0].Value != 1000 || mj.Poll1C[4].Value != 77 {
				t.Errorf("1C: %+v", mj.Poll1C)
			}
			got := map[sas.MeterCode]uint64{}
			for _, x := range mj.Meters {
				got[x.Code] = x.Value
			}
			for c, v := range m.meters {
				if c < 0xFF00 && got[sas.MeterCode(c)] != v {
					t.Errorf("meter %04X = %d, want %d", c, got[sas.MeterCode(c)], v)
				}
			}
			if out := cmd("meters", "--via", "2f"); !strings.Contains(out, "total drop") || !strings.Contains(out, "400") {
				t.Errorf("meters human:\n%s", out)
			}

			for _, e := range []sas.Exception{sas.ExcSlotDoorOpened, sas.ExcSlotDoorClosed, sas.ExcBillJam} {
				m.push(e)
			}
			ev := cmd("events", "--count", "3", "--json", "--for", "5s")
			lines := strings.Split(strings.TrimSpace(ev), "\n")
			var codes []sas.Exception
			for _, l := range lines {
				var g host.GeneralReply
				if err := json.Unmarshal([]byte(l), &g); err != nil {
					t.Fatalf("%q: %v", l, err)
				}
				codes = append(codes, g.Exception)
			}
			if fmt.Sprint(codes) != fmt.Sprint([]sas.Exception{0x11, 0x12, 0x28}) {
				t.Errorf("events: %s", ev)
			}
			m.push(sas.ExcGameStarted)
			if out := cmd("events", "--count", "1", "--sync", "9"); !strings.Contains(out, "7E game started") {
				t.Errorf("events human: %q", out)
			}

			if out := cmd("credits"); out != "current credits: 55\n" {
				t.Errorf("credits: %q", out)
			}
			if out := cmd("info"); !strings.Contains(out, "paytable TBL001, base RTP 95.00%") || !strings.Contains(out, "SAS version 6.02, serial number SN42") {
				t.Errorf("info: %q", out)
			}
			if out := cmd("romsig", "--seed", "FFFF"); out != fmt.Sprintf("ROM signature, seed FFFF: %04X\n", sas.CRCSeeded(0xFFFF, m.image)) {
				t.Errorf("romsig: %q", out)
			}
			cmd("time", "set", "--at", "2029-02-03T04:05:06")
			if out := cmd("time", "get"); out != "machine time: 2029-02-03T04:05:06\n" {
				t.Errorf("time: %q", out)
			}
			if out := cmd("disable"); out != "disable: acknowledged\n" {
				t.Errorf("disable: %q", out)
			}
			cmd("enable")
			if out := cmd("handpay", "--json"); !strings.Contains(out, `"amount_cents":123456`) {
				t.Errorf("handpay: %q", out)
			}
			if out := cmd("poll", fmt.Sprintf("%02X1A", addr)); !strings.Contains(out, "00 00 00 55") || !strings.Contains(out, "data") {
				t.Errorf("poll: %q", out)
			}
			if out := cmd("poll", fmt.Sprintf("%02X", 0x80|addr)); !strings.Contains(out, "00 no activity") {
				t.Errorf("poll general: %q", out)
			}
			if out := cmd("poll", fmt.Sprintf("%02X011234", addr), "--no-crc"); !strings.Contains(out, fmt.Sprintf("reply: %02X (nack)", 0x80|addr)) {
				t.Errorf("poll bad CRC: %q", out)
			}
		})
	}
}

func TestSashostUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"meters"},
		{"--pty", "/dev/null", "--tcp", "x:1", "meters"},
		{"--pty", "/x", "--addr", "200", "meters"},
		{"--bogus"},
	} {
		if _, _, code := sashost(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	_, path := serve(t, sas.ModeContent)
	for _, args := range [][]string{
		{"--pty", path, "frobnicate"},
		{"--pty", path, "romsig"},
		{"--pty", path, "time", "later"},
		{"--pty", path, "poll", "zz"},
	} {
		if _, errs, code := sashost(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errs)
		}
	}
	// No machine at that address: an error, exit 1.
	if _, errs, code := sashost(t, "--pty", path, "--addr", "9", "--retries", "1", "--timeout", "20ms", "credits"); code != 1 || !strings.Contains(errs, "no reply") {
		t.Errorf("wrong address: exit %d: %s", code, errs)
	}
}
