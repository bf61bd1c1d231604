package main

import (
	"github.com/openegm/cabinet/internal/money"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
	"github.com/openegm/cabinet/sas/metercode"
)

func tableBet(t *testing.T, c *cabinet, spot string, cents int64) {
	t.Helper()
	if r := c.Send(cabinettest.Command{Cmd: "bet", Value: spot, Cents: cents}); !r.OK || r.Refused != "" {
		t.Fatalf("bet %d on %s: %+v", cents, spot, r)
	}
}

// dealt deals the chips on the table and waits for the hand to end; it
// returns the hand as the screen shows it at the end.
func dealt(t *testing.T, c *cabinet) machine.HandView {
	t.Helper()
	r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnDeal})
	if !r.OK || r.Refused != "" {
		t.Fatalf("deal: %+v", r)
	}
	game := r.View.Table.Hand.Game
	v := c.WaitFor("the hand to end", func(v machine.View) bool {
		return v.Mode == "idle" && v.Table.Hand != nil && v.Table.Hand.Game == game && v.Table.Hand.Done
	})
	return *v.Table.Hand
}

func gameMeters(t *testing.T, h *host.Client, game uint16) map[sas.MeterCode]uint64 {
	t.Helper()
	ms, err := h.SelectedMeters(game, []sas.MeterCode{sas.MeterCode(metercode.TotalCoinIn), sas.MeterCode(metercode.TotalCoinOut),
		sas.MeterCode(metercode.GamesPlayed), sas.MeterCode(metercode.TotalWon)}, false)
	if err != nil {
		t.Fatalf("0x2F for game %d: %v", game, err)
	}
	out := map[sas.MeterCode]uint64{}
	for _, m := range ms {
		out[m.Code] = m.Value
	}
	return out
}

// The real cabinet as a multi-game machine: hands of Makccarat and reel
// games on one credit meter; the host reads the games (0x51, 0x55, 0x56,
// 0xB5) and each game's meters (0x2F with its number), which add up to the
// machine's; the credit meter moves by exactly what each hand's cards pay.
func TestMakccaratOnTheCabinet(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--sas-addr", "1", "--sas-pty", "--spin-time", "5ms", "--card-time", "5ms", "--jackpot", "off")
	h := sasHost(t, data)
	defer h.Close()
	drain(t, h)
	if n, err := h.GameCount(); err != nil || n != 2 {
		t.Fatalf("0x51: %d %v", n, err)
	}
	if g, err := h.EnabledGames(); err != nil || !slices.Equal(g, []uint16{1, 2}) {
		t.Fatalf("0x56: %v %v", g, err)
	}
	if g, err := h.SelectedGame(); err != nil || g != 1 {
		t.Fatalf("0x55 at start: %d %v", g, err)
	}
	info, err := h.GameInfo(2)
	if err != nil || info.Game != 2 || info.Name != "Makccarat" || info.Paytable != "makccarat-alt1-5pct" || info.MaxBet != 9999 {
		t.Fatalf("0xB5 for game 2: %+v %v", info, err)
	}
	if info, err := h.GameInfo(1); err != nil || info.Name != "Lusitania" || info.Paytable != "lusitania-92" || info.MaxBet == 0 {
		t.Fatalf("0xB5 for game 1: %+v %v", info, err)
	}
	if _, err := h.GameInfo(3); err == nil {
		t.Fatal("0xB5 answered for a game the machine does not have")
	}

	c.Bill(10000)
	credits := int64(10000)
	if r := c.Send(cabinettest.Command{Cmd: "select_game", Value: "makccarat"}); r.Refused != "" || r.View.GameKind != "makccarat" {
		t.Fatalf("game menu: %+v", r)
	}
	if g, err := h.SelectedGame(); err != nil || g != 2 {
		t.Fatalf("0x55 at the table: %d %v", g, err)
	}
	if _, err := c.Conn.Write([]byte(`{"cmd":"bet","value":"dragon","cents":200}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if line, err := c.Rd.ReadString('\n'); err != nil || !strings.Contains(line, `unknown bet spot \"dragon\"`) {
		t.Fatalf("a bet on a spot that does not exist: %s %v", line, err)
	}
	tableBet(t, c, "player", 400)
	tableBet(t, c, "banker", 200)
	tableBet(t, c, "tie", 100)
	var staked, paid int64
	for range 12 {
		hand := dealt(t, c)
		if hand.StakedCents != 700 || len(hand.Cards) < 4 || hand.Winner == "" {
			t.Fatalf("hand %+v", hand)
		}
		staked += 700
		paid += hand.PaidCents
		credits += hand.PaidCents - 700
		if v := c.State(); v.CreditsCents != credits {
			t.Fatalf("credits %d after hand %d, want %d", v.CreditsCents, hand.Game, credits)
		}
	}
	c.Send(cabinettest.Command{Cmd: "select_game", Value: "reels"})
	for range 5 {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		c.WaitIdle()
	}
	table, reels, all := gameMeters(t, h, 2), gameMeters(t, h, 1), gameMeters(t, h, 0)
	coinIn, played := sas.MeterCode(metercode.TotalCoinIn), sas.MeterCode(metercode.GamesPlayed)
	if table[coinIn] != uint64(staked) || table[played] != 12 || table[sas.MeterCode(metercode.TotalWon)] != uint64(paid) {
		t.Fatalf("game 2 meters %v; staked %d paid %d", table, staked, paid)
	}
	if reels[played] != 5 || reels[coinIn]+table[coinIn] != all[coinIn] || all[played] != 17 {
		t.Fatalf("game 1 %v + game 2 %v ≠ machine %v", reels, table, all)
	}

	// The inspector reads every hand with its cards and stakes, each
	// re-evaluated apart from the cabinet, and the ledger verifies.
	c.Stop()
	out, err := exec.Command(filepath.Join(binDir, "meterread"), "games", "--last", "100", "--lang", "en", data).CombinedOutput()
	if err != nil {
		t.Fatalf("meterread games: %v\n%s", err, out)
	}
	stakes := "[player " + money.Euro("en", 400) + ", banker " + money.Euro("en", 200) + ", tie " + money.Euro("en", 100) + "]"
	if n := strings.Count(string(out), stakes); n != 12 || strings.Contains(string(out), " ! ") {
		t.Fatalf("meterread games shows %d hands with their stakes (want 12), or a hand that does not re-evaluate:\n%s", n, out)
	}
	mustVerify(t, data, c.MachinePub())
}

// A SIGKILL while the cards are turned: the restarted cabinet turns the
// same hand (same game, no new one drawn) and pays it once.
func TestMakccaratHandSurvivesSIGKILL(t *testing.T) {
	data := t.TempDir()
	args := []string{"--spin-time", "5ms", "--card-time", "3s", "--jackpot", "off"}
	c := startCabinet(t, data, args...)
	c.Bill(5000)
	c.Send(cabinettest.Command{Cmd: "select_game", Value: "makccarat"})
	tableBet(t, c, "banker", 1000)
	r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnDeal})
	if r.Refused != "" || r.View.Mode != "dealing" {
		t.Fatalf("deal: %+v", r)
	}
	game := r.View.Table.Hand.Game
	c.Kill()

	c = startCabinet(t, data, append(args[:len(args):len(args)], "--card-time", "5ms")...)
	v := c.WaitFor("the hand to end", func(v machine.View) bool { return v.Mode == "idle" })
	if v.GameKind != "makccarat" || v.LastGame != game || v.GamesPlayed != 1 || v.Table.Hand == nil || v.Table.Hand.Game != game {
		t.Fatalf("after the restart: game %s last %d played %d hand %+v", v.GameKind, v.LastGame, v.GamesPlayed, v.Table.Hand)
	}
	if want := 5000 - 1000 + v.Table.Hand.PaidCents; v.CreditsCents != want {
		t.Fatalf("credits %d, want %d", v.CreditsCents, want)
	}
}
