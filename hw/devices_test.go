package hw

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestBillValidatorPaths(t *testing.T) {
	events := make(chan DeviceEvent, 64)
	draws := []float64{0.9, 0.1}
	v, err := NewBillValidator(BillValidatorConfig{Rand: func() float64 { d := draws[0]; draws = draws[1:]; return d }}, events)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		do   func() DeviceEvent
		want DeviceEvent
	}{
		{"disabled at start", func() DeviceEvent { return v.Insert(2000) }, BillRejected{2000, RejectDisabled, 0}},
		{"enabled: €20 stacked", func() DeviceEvent { v.Enable(true); return v.Insert(2000) }, BillEscrowed{2000}},
		{"€5 stacked", func() DeviceEvent { return v.Insert(500) }, BillEscrowed{500}},
		{"€500 stacked", func() DeviceEvent { return v.Insert(50000) }, BillEscrowed{50000}},
		{"€1 is not a note", func() DeviceEvent { return v.Insert(100) }, BillRejected{100, RejectInvalidValue, 0}},
		{"€1000 is not accepted", func() DeviceEvent { return v.Insert(100000) }, BillRejected{100000, RejectInvalidValue, 0}},
		{"€15 is no value", func() DeviceEvent { return v.Insert(1500) }, BillRejected{1500, RejectInvalidValue, 0}},
		{"disabled again", func() DeviceEvent { v.Enable(false); return v.Insert(5000) }, BillRejected{5000, RejectDisabled, 0}},
		{"jam on next insert", func() DeviceEvent { v.Enable(true); v.JamNext(); return v.Insert(10000) }, BillJam{}},
		{"jammed rejects", func() DeviceEvent { return v.Insert(10000) }, BillRejected{10000, RejectJammed, 0}},
		{"jammed rejects even when disabled", func() DeviceEvent { v.Enable(false); return v.Insert(500) }, BillRejected{500, RejectJammed, 0}},
		{"clear jam", func() DeviceEvent {
			if err := v.ClearJam(); err != nil {
				t.Fatal(err)
			}
			return <-events // the cleared event is only on the channel
		}, BillJamCleared{}},
		{"after clear, disabled still rejects", func() DeviceEvent { return v.Insert(500) }, BillRejected{500, RejectDisabled, 0}},
		{"after clear, enabled stacks", func() DeviceEvent { v.Enable(true); return v.Insert(20000) }, BillEscrowed{20000}},
		{"reject rate: draw 0.9 ≥ 0.5 stacks", func() DeviceEvent { _ = v.SetRejectRate(0.5); return v.Insert(1000) }, BillEscrowed{1000}},
		{"reject rate: draw 0.1 < 0.5 rejects", func() DeviceEvent { return v.Insert(1000) }, BillRejected{1000, RejectUnrecognized, 0}},
		{"reject rate 0 never draws", func() DeviceEvent { _ = v.SetRejectRate(0); return v.Insert(1000) }, BillEscrowed{1000}},
		{"inhibited note", func() DeviceEvent { v.Accept([]int64{500, 2000}); return v.Insert(1000) }, BillRejected{1000, RejectInhibited, 0}},
		{"allowed note", func() DeviceEvent { return v.Insert(2000) }, BillEscrowed{2000}},
		{"no note allowed", func() DeviceEvent { v.Accept([]int64{}); return v.Insert(2000) }, BillRejected{2000, RejectInhibited, 0}},
		{"not a note beats inhibited", func() DeviceEvent { return v.Insert(700) }, BillRejected{700, RejectInvalidValue, 0}},
		{"restriction lifted", func() DeviceEvent { v.Accept(nil); return v.Insert(1000) }, BillEscrowed{1000}},
	}
	var order uint64
	for _, s := range steps {
		got := s.do()
		if got != s.want {
			t.Fatalf("%s: %#v, want %#v", s.name, got, s.want)
		}
		if _, isClear := s.want.(BillJamCleared); isClear {
			continue
		}
		select {
		case ev := <-events:
			if ev != s.want {
				t.Fatalf("%s: channel has %#v, want %#v", s.name, ev, s.want)
			}
		default:
			t.Fatalf("%s: no event on the channel", s.name)
		}
		if e, ok := s.want.(BillEscrowed); ok {
			// The machine orders every note in escrow stacked.
			order++
			if err := v.Stack(order); err != nil {
				t.Fatalf("%s: stack: %v", s.name, err)
			}
			if ev := <-events; ev != (BillStacked{Cents: e.Cents, Order: order}) {
				t.Fatalf("%s: stacked %#v, want order %d", s.name, ev, order)
			}
		}
	}
	if err := v.Stack(order + 1); !errors.Is(err, ErrNoEscrow) {
		t.Errorf("Stack with nothing in escrow: %v", err)
	}
	if err := v.ClearJam(); !errors.Is(err, ErrNotJammed) {
		t.Errorf("ClearJam with no jam: %v", err)
	}
	if err := v.SetRejectRate(1.5); err == nil {
		t.Error("reject rate 1.5 accepted")
	}
	if _, err := NewBillValidator(BillValidatorConfig{RejectRate: -1}, nil); err == nil {
		t.Error("negative reject rate accepted")
	}
	select {
	case ev := <-events:
		t.Fatalf("extra event %#v", ev)
	default:
	}
	if got := AcceptedBills(); !reflect.DeepEqual(got, []int64{500, 1000, 2000, 5000, 10000, 20000, 50000}) {
		t.Errorf("accepted %v", got)
	}
}

// TestBillValidatorEscrowAndMemory: one note at a time in escrow; a
// returned note ends its order; the last order stacked survives a power
// loss (a new validator on the same state file), a note in escrow does not.
func TestBillValidatorEscrowAndMemory(t *testing.T) {
	events := make(chan DeviceEvent, 16)
	state := filepath.Join(t.TempDir(), "validator.json")
	v, err := NewBillValidator(BillValidatorConfig{StateFile: state}, events)
	if err != nil {
		t.Fatal(err)
	}
	v.Enable(true)
	if ev := v.Insert(2000); ev != (BillEscrowed{2000}) {
		t.Fatalf("insert: %#v", ev)
	}
	<-events
	if ev := v.Insert(500); ev != (BillRejected{500, RejectBusy, 0}) {
		t.Fatalf("second note while one is in escrow: %#v", ev)
	}
	<-events
	if err := v.Return("machine disabled", 4); err != nil {
		t.Fatal(err)
	}
	if ev := <-events; ev != (BillRejected{2000, "machine disabled", 4}) {
		t.Fatalf("return: %#v", ev)
	}
	v.Insert(5000)
	<-events
	if err := v.Stack(5); err != nil {
		t.Fatal(err)
	}
	<-events
	v.Insert(1000) // left in escrow at the power loss
	<-events
	again, err := NewBillValidator(BillValidatorConfig{StateFile: state}, events)
	if err != nil {
		t.Fatal(err)
	}
	if again.LastStacked() != 5 || again.Cashbox() != (Cashbox{Notes: 1, Cents: 5000}) {
		t.Fatalf("after a power loss the validator remembers order %d and a cashbox of %+v, want 5 and one €50 note", again.LastStacked(), again.Cashbox())
	}
	if err := again.Stack(6); !errors.Is(err, ErrNoEscrow) {
		t.Fatalf("a note in escrow survived the power loss: %v", err)
	}
	os.WriteFile(state, []byte("{garbage"), 0o600)
	if _, err := NewBillValidator(BillValidatorConfig{StateFile: state}, nil); err == nil {
		t.Fatal("a damaged validator memory was accepted")
	}
}

func TestPrinterCorePaths(t *testing.T) {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	c := NewPrinterCore(PrinterConfig{Delay: 100 * time.Millisecond, Paper: 2})
	tk := func(v string) Ticket {
		return Ticket{Validation: v, Cents: 1234, MachineID: "EGM-7", At: t0}
	}
	expect := func(step string, got []DeviceEvent, want ...DeviceEvent) {
		t.Helper()
		if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
			t.Fatalf("%s: events %#v, want %#v", step, got, want)
		}
	}

	evs, err := c.Submit(ms(0), tk("0001"))
	expect("submit", evs)
	if err != nil || !c.Busy() {
		t.Fatalf("submit: %v busy %t", err, c.Busy())
	}
	if _, err := c.Submit(ms(1), tk("0002")); !errors.Is(err, ErrPrinterBusy) {
		t.Fatalf("second submit while busy: %v", err)
	}
	expect("before the delay", c.Advance(ms(99)))
	expect("after the delay", c.Advance(ms(100)), TicketPrinted{"0001"})
	expect("no second completion", c.Advance(ms(200)))
	if c.Paper() != 1 || c.Fault() != "" {
		t.Fatalf("paper %d fault %q", c.Paper(), c.Fault())
	}

	// Paper runs out with the last ticket.
	evs, _ = c.Submit(ms(300), tk("0002"))
	expect("submit last", evs)
	expect("last ticket", c.Advance(ms(400)), TicketPrinted{"0002"}, PrinterFault{Reason: FaultPaperOut})
	evs, err = c.Submit(ms(500), tk("0003"))
	expect("submit with no paper", evs, PrinterFault{Reason: FaultPaperOut, Validation: "0003"})
	if err != nil || c.Busy() {
		t.Fatalf("no paper: %v busy %t", err, c.Busy())
	}
	if _, err := c.ClearFault(); err == nil {
		t.Fatal("ClearFault cleared paper out")
	}
	expect("refill", c.Refill(), PrinterReady{})
	expect("refill when ready", c.Refill())

	// Jam while printing: the ticket is not printed.
	evs, _ = c.Submit(ms(600), tk("0004"))
	expect("submit 4", evs)
	evs, err = c.InjectFault(FaultJam)
	expect("jam mid-print", evs, PrinterFault{Reason: FaultJam, Validation: "0004"})
	if err != nil || c.Busy() {
		t.Fatal(err)
	}
	expect("jammed job never completes", c.Advance(ms(1000)))
	evs, _ = c.Submit(ms(1000), tk("0005"))
	expect("submit while jammed", evs, PrinterFault{Reason: FaultJam, Validation: "0005"})
	evs, err = c.ClearFault()
	expect("clear jam", evs, PrinterReady{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ClearFault(); err == nil {
		t.Fatal("ClearFault with no fault")
	}

	// Offline while idle, then clear.
	evs, _ = c.InjectFault(FaultOffline)
	expect("offline", evs, PrinterFault{Reason: FaultOffline})
	if c.Fault() != FaultOffline {
		t.Fatalf("fault %q", c.Fault())
	}
	evs, _ = c.ClearFault()
	expect("clear offline", evs, PrinterReady{})

	// Injected paper out, and a jam on top of it: clearing the jam leaves
	// paper out.
	evs, _ = c.InjectFault(FaultPaperOut)
	expect("paper out injected", evs, PrinterFault{Reason: FaultPaperOut})
	evs, _ = c.InjectFault(FaultJam)
	expect("jam over paper out", evs, PrinterFault{Reason: FaultJam})
	evs, _ = c.ClearFault()
	expect("clear jam, still no paper", evs, PrinterFault{Reason: FaultPaperOut})
	expect("refill", c.Refill(), PrinterReady{})

	if _, err := c.InjectFault("on_fire"); err == nil {
		t.Fatal("unknown fault accepted")
	}
	if _, err := c.Submit(ms(2000), Ticket{Validation: "", Cents: 5}); !errors.Is(err, ErrBadTicket) {
		t.Fatalf("empty validation: %v", err)
	}
	if _, err := c.Submit(ms(2000), Ticket{Validation: "X", Cents: 0}); !errors.Is(err, ErrBadTicket) {
		t.Fatalf("zero amount: %v", err)
	}
	if err := c.SetPaper(3); err == nil {
		t.Fatal("paper above capacity accepted")
	}

	// The record holds exactly the printed tickets, with all their fields.
	want := []Ticket{tk("0001"), tk("0002")}
	if got := c.Printed(); !reflect.DeepEqual(got, want) {
		t.Fatalf("printed %#v, want %#v", got, want)
	}
}

func recvEvent(t *testing.T, ch <-chan DeviceEvent) DeviceEvent {
	t.Helper()
	select {
	case ev := <-ch:
		return ev
	case <-time.After(2 * time.Second):
		t.Fatal("no device event")
		return nil
	}
}

func TestPrinterWithClock(t *testing.T) {
	events := make(chan DeviceEvent, 16)
	p, err := NewPrinter(PrinterConfig{Delay: 20 * time.Millisecond, Paper: 1}, events)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	tk := Ticket{Validation: "123456789012345678", Cents: 25050, MachineID: "EGM-42", At: at}
	start := time.Now()
	if err := p.Print(tk); err != nil {
		t.Fatal(err)
	}
	if err := p.Print(tk); !errors.Is(err, ErrPrinterBusy) {
		t.Fatalf("busy: %v", err)
	}
	if ev := recvEvent(t, events); ev != (TicketPrinted{tk.Validation}) {
		t.Fatalf("event %#v", ev)
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("printed after %v, before the delay", d)
	}
	if ev := recvEvent(t, events); ev != (PrinterFault{Reason: FaultPaperOut}) {
		t.Fatalf("event %#v", ev)
	}
	if got := p.Printed(); len(got) != 1 || got[0] != tk {
		t.Fatalf("printed %#v", got)
	}
	if err := p.Print(Ticket{Validation: "2", Cents: 1}); err != nil {
		t.Fatal(err)
	}
	if ev := recvEvent(t, events); ev != (PrinterFault{Reason: FaultPaperOut, Validation: "2"}) {
		t.Fatalf("event %#v", ev)
	}
	p.Refill()
	if ev := recvEvent(t, events); ev != (PrinterReady{}) {
		t.Fatalf("event %#v", ev)
	}
	// Jam during a print.
	if err := p.Print(Ticket{Validation: "3", Cents: 1}); err != nil {
		t.Fatal(err)
	}
	if err := p.InjectFault(FaultJam); err != nil {
		t.Fatal(err)
	}
	if ev := recvEvent(t, events); ev != (PrinterFault{Reason: FaultJam, Validation: "3"}) {
		t.Fatalf("event %#v", ev)
	}
	time.Sleep(40 * time.Millisecond)
	select {
	case ev := <-events:
		t.Fatalf("jammed ticket still produced %#v", ev)
	default:
	}
	if p.Fault() != FaultJam || p.Busy() {
		t.Fatalf("fault %q busy %t", p.Fault(), p.Busy())
	}
	if err := p.ClearFault(); err != nil {
		t.Fatal(err)
	}
	if ev := recvEvent(t, events); ev != (PrinterReady{}) {
		t.Fatalf("event %#v", ev)
	}
	if len(p.Printed()) != 1 {
		t.Fatalf("printed %d tickets, want 1", len(p.Printed()))
	}
	if err := p.SetPaper(0); err != nil || p.Paper() != 0 || p.Fault() != FaultPaperOut {
		t.Fatalf("SetPaper(0): %v paper %d fault %q", err, p.Paper(), p.Fault())
	}
}

func TestSimDevicesShareEvents(t *testing.T) {
	b := openSim(t, nil)
	sim := b.Sim()
	sim.Bills().Enable(true)
	sim.Bills().Insert(5000)
	if ev := recvEvent(t, sim.Events()); ev != (BillEscrowed{5000}) || ev.Kind() != "bill_escrowed" {
		t.Fatalf("event %#v", ev)
	}
	if err := sim.Bills().Stack(1); err != nil {
		t.Fatal(err)
	}
	if ev := recvEvent(t, sim.Events()); ev != (BillStacked{5000, 1}) || ev.Kind() != "bill_stacked" {
		t.Fatalf("event %#v", ev)
	}
	if err := sim.Printer().Print(Ticket{Validation: "1", Cents: 5000, MachineID: "SIM", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if ev := recvEvent(t, sim.Events()); ev != (TicketPrinted{"1"}) || ev.Kind() != "ticket_printed" {
		t.Fatalf("event %#v", ev)
	}
}

// TestPrinterTrayOutlivesThePrinter: what a printer printed stays printed
// across a power loss (a new printer on the same tray lists it, reprint mark
// included); a line torn by the power loss is not a ticket.
func TestPrinterTrayOutlivesThePrinter(t *testing.T) {
	tray := filepath.Join(t.TempDir(), "printed.jsonl")
	events := make(chan DeviceEvent, 16)
	p, err := NewPrinter(PrinterConfig{Delay: time.Millisecond, Tray: tray}, events)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, tk := range []Ticket{{Validation: "A1", Cents: 2000, MachineID: "M", At: at}, {Validation: "A1", Cents: 2000, MachineID: "M", At: at, Reprint: true}} {
		if err := p.Print(tk); err != nil {
			t.Fatal(err)
		}
		if ev := recvEvent(t, events); ev != (TicketPrinted{"A1"}) {
			t.Fatalf("event %#v", ev)
		}
	}
	f, _ := os.OpenFile(tray, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"validation":"A2","ce`)
	f.Close()
	again, err := NewPrinter(PrinterConfig{Tray: tray}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := again.Printed()
	if len(got) != 2 || got[0].Validation != "A1" || got[0].Reprint || !got[1].Reprint || got[1].Cents != 2000 || !got[1].At.Equal(at) {
		t.Fatalf("tray after a power loss: %+v", got)
	}
	os.WriteFile(tray, []byte("{bad\n{\"validation\":\"A3\",\"cents\":5}\n"), 0o600)
	if _, err := NewPrinter(PrinterConfig{Tray: tray}, nil); err == nil {
		t.Fatal("a damaged line inside the tray was accepted")
	}
}
