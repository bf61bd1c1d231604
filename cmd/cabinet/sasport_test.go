package main

import (
	"bytes"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
)

// testPort is the cabinet's SAS port without a serial line or an owner
// loop: frames go straight into its link, orders for the machine pile up
// in its queue.
type testPort struct {
	*sasPort
	t   *testing.T
	now time.Time
}

func newTestPort(t *testing.T, st *meters.State, view machine.View) *testPort {
	t.Helper()
	own := &owner{}
	own.view.Store(&view)
	s := &sasPort{link: sas.NewLink(1), own: own, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		serial: "EGM-TEST", linkCh: make(chan machine.Event, 256), ordersWake: make(chan struct{}, 1)}
	s.link.Handler = s
	info, err := machineInfo(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.info, s.payback = info, topPercent(nil)
	s.publish(st)
	p := &testPort{sasPort: s, t: t, now: time.Unix(1_800_000_000, 0)}
	p.poll(sas.GeneralPollFrame(2)) // a poll to another machine: the link is in sync
	return p
}

// poll feeds one frame to the link and returns the reply bytes.
func (p *testPort) poll(frame []byte) []byte {
	p.t.Helper()
	p.now = p.now.Add(50 * time.Millisecond)
	s := p.sasPort
	s.mu.Lock()
	defer s.mu.Unlock()
	reply, _ := s.link.Receive(sas.Frame{Raw: frame}, p.now)
	return reply
}

func (p *testPort) pendingOrders() []machine.Event {
	p.ordersMu.Lock()
	defer p.ordersMu.Unlock()
	return append([]machine.Event(nil), p.orders...)
}

func stateWithHandpay(t *testing.T) *meters.State {
	t.Helper()
	st := meters.NewState()
	for _, r := range []meters.Record{
		meters.MoneyIn{At: 1, Source: meters.SourceBill, Cents: 2000},
		meters.HandpayPending{At: 2, Kind: meters.HandpayCancelled, Cents: 2000},
	} {
		if err := st.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// 0x94's status from the committed state: 00 and the reset handed to the
// machine with the handpay it is about; 01 with a meter fault (nothing
// can be recorded); 02 with no handpay. Only 00 orders anything.
func TestRemoteHandpayResetStatus(t *testing.T) {
	poll := sas.AppendCRC([]byte{1, 0x94})
	p := newTestPort(t, stateWithHandpay(t), machine.View{Mode: "handpay"})
	if got, want := p.poll(poll), sas.BuildReply(1, 0x94, 0x00); !bytes.Equal(got, want) {
		t.Fatalf("handpay pending: % X, want % X", got, want)
	}
	orders := p.pendingOrders()
	if len(orders) != 1 {
		t.Fatalf("orders %+v", orders)
	}
	if r, ok := orders[0].(machine.HostHandpayReset); !ok || r.Pending.At != 2 || r.Pending.Cents != 2000 || r.Who != "SAS host (0x94)" {
		t.Fatalf("order %+v", orders[0])
	}

	p = newTestPort(t, stateWithHandpay(t), machine.View{Mode: "meter_fault", Fault: "commit failed"})
	if got, want := p.poll(poll), sas.BuildReply(1, 0x94, 0x01); !bytes.Equal(got, want) || len(p.pendingOrders()) != 0 {
		t.Fatalf("meter fault: % X (orders %v), want % X", got, p.pendingOrders(), want)
	}

	p = newTestPort(t, meters.NewState(), machine.View{Mode: "idle"})
	if got, want := p.poll(poll), sas.BuildReply(1, 0x94, 0x02); !bytes.Equal(got, want) || len(p.pendingOrders()) != 0 {
		t.Fatalf("no handpay: % X (orders %v), want % X", got, p.pendingOrders(), want)
	}
}
