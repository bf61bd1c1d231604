package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// billIn inserts a note and reports whether the cabinet credited it.
func billIn(t *testing.T, c *cabinet, cents int64) bool {
	t.Helper()
	before := c.State().CreditsCents
	return c.Send(cabinettest.Command{Cmd: "bill", Cents: cents}).View.CreditsCents == before+cents
}

// hostOrder gives an order the cabinet carries out asynchronously (the
// serve loop hands it to the machine's owner) time to reach the validator.
func hostOrder(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
}

// 0x08 with the real binary: notes the host disabled are returned by the
// validator, the others credited; "disable after each bill" turns the
// acceptor off after a note until 0x06. 0x48 reports the last note from the
// ledger, and 0xA0 the cabinet's features.
func TestSASBillDenominationsLastBillFeatures(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--sas-addr", "1", "--sas-pty", "--spin-time", "5ms", "--jackpot", "off")
	h := sasHost(t, data)
	drain(t, h)
	if b, err := h.LastBill(); err != nil || b != (sas.LastBill{}) {
		t.Fatalf("0x48 before any bill: %+v %v", b, err)
	}
	c.Bill(5000) // before 0x08: every note is taken
	if b, err := h.LastBill(); err != nil || b != (sas.LastBill{Country: 39, Code: 6, Count: 1}) {
		t.Fatalf("0x48 after a €50 note: %+v %v", b, err)
	}

	hostOrder(t, h.ConfigureBills(sas.BillDenominationsFor([]int64{5, 20}, true)))
	if billIn(t, c, 5000) || billIn(t, c, 1000) || billIn(t, c, 50000) {
		t.Fatal("a note the host disabled was credited")
	}
	if !billIn(t, c, 2000) || !billIn(t, c, 500) || !billIn(t, c, 2000) {
		t.Fatal("a note the host enabled was refused")
	}
	if b, err := h.LastBill(); err != nil || b != (sas.LastBill{Country: 39, Code: 4, Count: 2}) {
		t.Fatalf("0x48 after two €20 notes: %+v %v", b, err)
	}
	if got, want := drain(t, h), []sas.Exception{sas.ExcBill50Accepted, sas.ExcBill20Accepted, sas.ExcBill5Accepted, sas.ExcBill20Accepted}; !slices.Equal(got, want) {
		t.Fatalf("exceptions %v, want %v (returned notes raise none)", got, want)
	}

	// Sound off and on (0x03/0x04) reach the view the screen follows.
	if err := h.SoundOff(true); err != nil {
		t.Fatal(err)
	}
	c.WaitFor("the sound off", func(v machine.View) bool { return v.SoundOff })
	if err := h.SoundOff(false); err != nil {
		t.Fatal(err)
	}
	c.WaitFor("the sound on", func(v machine.View) bool { return !v.SoundOff })

	// Every note, but the acceptor off after each one until 0x06.
	hostOrder(t, h.ConfigureBills(sas.BillDenominationsFor([]int64{5, 10, 20, 50, 100, 200, 500}, false)))
	if !billIn(t, c, 1000) {
		t.Fatal("€10 refused")
	}
	if billIn(t, c, 1000) {
		t.Fatal("a second note taken: the acceptor should be off after the first")
	}
	r, err := h.LongPoll(0x06)
	hostOrder(t, err)
	if r.Kind != host.ReplyAck || !billIn(t, c, 1000) {
		t.Fatal("0x06 did not turn the acceptor back on")
	}

	f, err := h.Features(0)
	tickets := sas.Feature1ValidationExtensions | sas.Feature1ValidationStyleBit1 | sas.Feature1TicketRedemption
	if err != nil || f.Bits != [4]byte{tickets, sas.Feature2MeterModelWhenWon | sas.Feature2ExtendedMeters, sas.Feature3MaxPollingRate40ms, 0x00} {
		t.Fatalf("0xA0: %+v %v", f, err)
	}
	if _, err := h.Features(1); !errors.Is(err, host.ErrNoReply) {
		t.Fatalf("0xA0 for game 1: %v", err)
	}
	b, err := h.LastBill()
	if err != nil {
		t.Fatal(err)
	}
	h.Close()

	// The real sashost binary reads the same.
	var lb struct {
		Country byte   `json:"country"`
		Face    int64  `json:"face_value"`
		Count   uint64 `json:"count"`
	}
	out, err := exec.Command(filepath.Join(binDir, "sashost"), "--pty", c.SASPty(), "--addr", "1", "--json", "lastbill").CombinedOutput()
	if err != nil || json.Unmarshal(out, &lb) != nil || lb.Country != 39 || lb.Face != 10 || lb.Count != b.Count {
		t.Fatalf("sashost lastbill: %v %s", err, out)
	}
	c.Stop()
	st := readLedger(t, data)
	if i := slices.Index(meters.BillValues, 1000); b.Count != uint64(st.BillCounts[i]) || b.Count != 2 {
		t.Fatalf("0x48 count %d, ledger %d", b.Count, st.BillCounts[i])
	}
}

// rtEvent is one real-time event as the host saw it.
type rtEvent struct {
	code sas.Exception
	ev   any
}

// drainRT general-polls a cabinet in real-time mode until it is silent.
func drainRT(t *testing.T, h *host.Client) []rtEvent {
	t.Helper()
	var got []rtEvent
	for range 200 {
		g, err := h.GeneralPoll()
		if err != nil {
			t.Fatal(err)
		}
		if !g.RealTime {
			t.Fatalf("not a real-time answer: %+v", g)
		}
		if g.Exception == sas.ExcNone {
			return got
		}
		if g.EventError != "" {
			t.Fatalf("%v: %s", g.Exception, g.EventError)
		}
		got = append(got, rtEvent{g.Exception, g.Event})
	}
	t.Fatal("events never ran out")
	return nil
}

// Real-time event reporting with the real binary: bills, game starts and
// ends carry the data of the ledger's records (checked against the ledger
// read afterwards). Events queued at a SIGKILL, even those whose records
// the saved queue did not cover yet, come after the restart with the same
// data; real-time mode itself does not survive the restart (Choice in
// sasport_orders.go): the host turns it on again.
func TestSASRealTimeEventsFromTheLedger(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	args := []string{"--sas-addr", "1", "--sas-pty", "--spin-time", "5ms", "--jackpot", "off"}
	c := startCabinet(t, data, args...)
	h := sasHost(t, data)
	drain(t, h)
	if err := h.SetRealTime(true); err != nil {
		t.Fatal(err)
	}
	if got := drainRT(t, h); len(got) != 0 {
		t.Fatalf("events before play: %v", got)
	}
	c.Bill(10000)
	play := func(n int) {
		for range n {
			c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnBetUp})
			if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "" {
				t.Fatalf("spin refused: %s", r.Refused)
			}
			c.WaitIdle()
		}
	}
	play(3)
	before := drainRT(t, h)

	// A SIGKILL with a door and two games' events pending, the saved queue
	// put back to where it was before them: as if the cabinet died after
	// committing them and before saving the queue.
	qfile := filepath.Join(data, "sas-queue.json")
	saved := savedEmptyQueue(t, qfile)
	c.Send(cabinettest.Command{Cmd: "door", Door: "main", Open: true})
	c.Send(cabinettest.Command{Cmd: "door", Door: "main", Open: false})
	play(2)
	h.Close()
	c.Kill()
	if err := os.WriteFile(qfile, saved, 0o600); err != nil {
		t.Fatal(err)
	}
	c = startCabinet(t, data, args...)
	h = sasHost(t, data)
	g, err := h.GeneralPoll()
	if err != nil || g.RealTime || g.Exception != sas.ExcSlotDoorOpened || len(g.Raw) != 1 {
		t.Fatalf("first general poll after the restart: %+v %v (real-time mode should be off)", g, err)
	}
	if err := h.SetRealTime(true); err != nil {
		t.Fatal(err)
	}
	after := drainRT(t, h)
	h.Close()
	c.Stop()

	st := readLedger(t, data)
	if len(st.Games) != 5 {
		t.Fatalf("%d games in the ledger", len(st.Games))
	}
	// What the host must have seen, from the ledger.
	var coinIn int64
	var want []rtEvent
	bill := func(cents int64, count uint64) rtEvent {
		code, _ := sas.BillCode(cents / 100)
		return rtEvent{sas.ExcBillAccepted, &sas.BillAccepted{Country: 39, Code: code, Count: count}}
	}
	want = append(want, bill(10000, 1))
	for _, gh := range st.Games {
		coinIn += gh.Start.BetCents
		wt := byte(sas.WagerDenomCode | 0x01) // 1 cent, code 01
		if gh.Start.Level == 4 {
			wt |= sas.WagerMaxBet
		}
		want = append(want,
			rtEvent{sas.ExcGameStarted, &sas.GameStarted{CreditsWagered: uint64(gh.Start.BetCredits), CoinIn: uint64(coinIn), WagerType: wt}},
			rtEvent{sas.ExcGameEnded, &sas.GameEnded{Win: uint64(gh.End.WinCents)}})
	}
	if got := fmt.Sprint(before); got != fmt.Sprint(want[:7]) {
		t.Fatalf("before the kill:\n got %s\nwant %s", got, fmt.Sprint(want[:7]))
	}
	// After: the door opening went as a plain code; then its closing,
	// games 4 and 5 (game 4's coin in is the ledger's after game 5 less
	// game 5's bet), and the power-up.
	wantAfter := append([]rtEvent{{sas.ExcSlotDoorClosed, nil}}, want[7:]...)
	wantAfter = append(wantAfter, rtEvent{sas.ExcACPowerApplied, nil})
	if got := fmt.Sprint(after); got != fmt.Sprint(wantAfter) {
		t.Fatalf("after the kill:\n got %s\nwant %s", got, fmt.Sprint(wantAfter))
	}
	if st.Games[0].Start.BetCredits == st.Games[2].Start.BetCredits {
		t.Fatal("the bets did not change: the test proves less than it says")
	}
}

// savedEmptyQueue waits until the cabinet has saved its queue empty (the
// last acknowledgement is saved in the background) and returns the file.
func savedEmptyQueue(t *testing.T, qfile string) []byte {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(qfile)
		var f sasQueueFile
		var q sas.ExceptionQueue
		if err == nil && json.Unmarshal(b, &f) == nil && q.UnmarshalBinary(f.Queue) == nil && q.Len() == 0 {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatalf("the queue was never saved empty: %s %v", b, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (e rtEvent) String() string {
	switch v := e.ev.(type) {
	case *sas.GameStarted:
		return fmt.Sprintf("{%02X %+v}", byte(e.code), *v)
	case *sas.GameEnded:
		return fmt.Sprintf("{%02X %+v}", byte(e.code), *v)
	case *sas.BillAccepted:
		return fmt.Sprintf("{%02X %+v}", byte(e.code), *v)
	}
	return fmt.Sprintf("{%02X}", byte(e.code))
}
