package floor

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// The progressive side of a simulated cabinet, polled as the link
// controller polls it, two cabinets on one line: a global broadcast
// reaches both; a hit locks its cabinet and is reported with the value it
// showed until an award for that level arrives; an award above the value
// shown, or for another level, is not paid; the award paid unlocks it.
func TestCabinetOnALine(t *testing.T) {
	a, b := NewCabinet(1, 7, "SA"), NewCabinet(2, 7, "SB")
	line, err := NewLine([]*Cabinet{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewLine([]*Cabinet{a, NewCabinet(1, 7, "SC")}); err == nil {
		t.Fatal("two cabinets at address 1 on one line")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go line.Serve(ctx, ln)
	port, err := sas.DialTCP(ctx, ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	ha := host.New(port, host.Options{Addr: 1, Timeout: 2 * time.Second})
	hb := host.New(port, host.Options{Addr: 2, Timeout: 2 * time.Second})

	if _, err := a.HitLevel(1, 100); err != ErrNoValue {
		t.Fatalf("a hit before any value: %v, want ErrNoValue", err)
	}
	if err := ha.Broadcast(7, []sas.LevelValue{{Level: 1, Amount: 5000}, {Level: 2, Amount: 90000}}, true); err != nil {
		t.Fatal(err)
	}
	if err := ha.Broadcast(9, []sas.LevelValue{{Level: 1, Amount: 1}}, true); err != nil { // another group's
		t.Fatal(err)
	}
	if info, err := hb.SASInfo(); err != nil || info.Serial != "SB" {
		t.Fatalf("0x54 of cabinet 2: %+v %v", info, err)
	}
	for _, c := range []*Cabinet{a, b} {
		if p := c.Progress(); p.Broadcasts != 1 || p.Values[1] != 5000 || p.Values[2] != 90000 {
			t.Fatalf("cabinet %d saw %+v, want group 7's values once", c.Addr(), p)
		}
	}

	for range 3 {
		if err := a.Play(100); err != nil {
			t.Fatal(err)
		}
	}
	h, err := a.HitLevel(1, 100)
	if err != nil || h.Shown != 5000 || h.Game != 4 {
		t.Fatalf("hit %+v %v, want level 1 showing 5000 on game 4", h, err)
	}
	if err := a.Play(100); err != ErrLocked {
		t.Fatalf("a game while the hit waits: %v", err)
	}
	if g, err := ha.GeneralPoll(); err != nil || g.Exception != sas.ExcProgressiveLevelHit {
		t.Fatalf("general poll: %+v %v, want 0x56", g, err)
	}
	if g, err := hb.GeneralPoll(); err != nil || g.Exception != sas.ExcNone {
		t.Fatalf("the other cabinet's general poll: %+v %v", g, err)
	}
	ms, err := ha.SelectedMeters(0, []sas.MeterCode{sas.MeterGamesPlayed, sas.MeterTotalCoinIn}, false)
	if err != nil || len(ms) != 2 || ms[0].Value != 4 || ms[1].Value != 400 {
		t.Fatalf("meters %+v %v, want 4 games and 400 cents", ms, err)
	}
	if w, err := ha.WagerCategory(0, 1); err != nil || w.CoinIn != 400 {
		t.Fatalf("wager category 1: %+v %v", w, err)
	}
	for _, award := range []sas.LevelValue{{Level: 1, Amount: 5001}, {Level: 2, Amount: 10}} {
		if err := ha.Broadcast(7, []sas.LevelValue{award}, false); err != nil {
			t.Fatal(err)
		}
	}
	wins, err := ha.ProgressiveWins()
	if err != nil || len(wins.Wins) != 1 || wins.Wins[0] != (sas.LevelValue{Level: 1, Amount: 5000}) {
		t.Fatalf("0x87 after an award above the value shown and one for another level: %+v %v, want the hit still reported", wins, err)
	}
	if err := ha.Broadcast(7, []sas.LevelValue{{Level: 1, Amount: 4000}}, false); err != nil {
		t.Fatal(err)
	}
	paid, refused := a.Awards()
	if len(paid) != 1 || paid[0].Hit != h || paid[0].Cents != 4000 || len(refused) != 1 || refused[0].Cents != 5001 || a.Locked() {
		t.Fatalf("paid %+v, refused %+v, locked %v: want 4000 paid for the hit, 5001 refused", paid, refused, a.Locked())
	}
	if wins, err := ha.ProgressiveWins(); err != nil || len(wins.Wins) != 0 {
		t.Fatalf("0x87 after the award: %+v %v, want none", wins, err)
	}
	if err := a.Play(100); err != nil {
		t.Fatalf("a game after the award: %v", err)
	}
}
