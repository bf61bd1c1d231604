package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui/demo"
)

func road(ws string) []machine.RoadHand {
	var out []machine.RoadHand
	for _, c := range ws {
		w := map[rune]string{'P': "player", 'B': "banker", 'T': "tie"}[c]
		out = append(out, machine.RoadHand{Winner: w, Points: len(out) % 10})
	}
	return out
}

func cellsText(cs []RoadCell) string {
	var parts []string
	for _, c := range cs {
		w := map[string]string{"player": "P", "banker": "B", "": "-"}[c.Winner]
		parts = append(parts, fmt.Sprintf("%s%d,%d/%d", w, c.Col, c.Row, c.Ties))
	}
	return strings.Join(parts, " ")
}

// The big road: runs go down a column, a new side starts a new column,
// ties are marks on the last cell (and the ties before any win on the
// first cell, which the first win fills), a run longer than the column
// turns right along the bottom row.
func TestBigRoad(t *testing.T) {
	for _, c := range []struct {
		name, hands, want string
	}{
		{"empty", "", ""},
		{"tie first", "TTBB", "B0,0/2 B0,1/0"},
		{"only ties", "TTT", "-0,0/3"},
		{"alternating", "PBPTB", "P0,0/0 B1,0/0 P2,0/1 B3,0/0"},
		{"ties stack on the last cell", "BBTTP", "B0,0/0 B0,1/2 P1,0/0"},
		{"dragon tail", "PPPPPPPPB", "P0,0/0 P0,1/0 P0,2/0 P0,3/0 P0,4/0 P0,5/0 P1,5/0 P2,5/0 B1,0/0"},
		// The next run of the same column height meets the tail: it turns
		// right above it.
		{"turn above a tail", "PPPPPPPBBBBBBB", "P0,0/0 P0,1/0 P0,2/0 P0,3/0 P0,4/0 P0,5/0 P1,5/0 B1,0/0 B1,1/0 B1,2/0 B1,3/0 B1,4/0 B2,4/0 B3,4/0"},
	} {
		if got := cellsText(BigRoad(road(c.hands), 6)); got != c.want {
			t.Errorf("%s (%s):\n got %s\nwant %s", c.name, c.hands, got, c.want)
		}
	}
	cells := BigRoad([]machine.RoadHand{{Winner: "tie"}, {Winner: "banker", BankerPair: true}}, 6)
	if len(cells) != 1 || !cells[0].BankerPair || cells[0].Ties != 1 {
		t.Errorf("the first win keeps its pairs in the ties' cell: %+v", cells)
	}
	if w := RoadWindow(BigRoad(road(strings.Repeat("PB", 15)), 6), BigRoadCols); w != 10 {
		t.Errorf("30 columns in a window of %d: first column %d, want 10", BigRoadCols, w)
	}
}

func TestBeadPlate(t *testing.T) {
	b := BeadPlate(road("PBTPPBB"), 6, 10)
	if len(b) != 7 || b[5].Col != 0 || b[5].Row != 5 || b[6].Col != 1 || b[6].Row != 0 || b[2].Hand.Winner != "tie" {
		t.Fatalf("7 hands: %+v", b)
	}
	// 65 hands in 10 columns of 6: the oldest column goes, rows are kept.
	hs := road(strings.Repeat("PBT", 22)[:65])
	b = BeadPlate(hs, 6, 10)
	if len(b) != 59 || b[0].Hand != hs[6] || b[0].Row != 0 || b[58].Col != 9 || b[58].Row != 4 {
		t.Fatalf("65 hands: %d beads, first %+v last %+v", len(b), b[0], b[len(b)-1])
	}
	if p, bk, tie := RoadCounts(road("PBTPPBB")); p != 3 || bk != 3 || tie != 1 {
		t.Errorf("counts %d %d %d", p, bk, tie)
	}
}

func TestChips(t *testing.T) {
	spots := func(max int64) []machine.TableSpot { return []machine.TableSpot{{Max: max}} }
	for _, c := range []struct {
		unit, max int64
		want      []int64
	}{
		{20, 100000, []int64{100, 500, 2500, 10000}},
		{50, 100000, []int64{100, 500, 2500, 10000}},
		{30, 100000, []int64{120, 510, 2520, 10020}},
		{20, 2000, []int64{100, 500}},
		{5000, 2000, []int64{5000}}, // no chip fits: the unit itself (the machine says why it is refused)
	} {
		if got := Chips(&machine.TableView{BetUnit: c.unit, Spots: spots(c.max)}); !slices.Equal(got, c.want) {
			t.Errorf("unit %d max %d: chips %v, want %v", c.unit, c.max, got, c.want)
		}
	}
}

// tableView is a table as the machine shows it: the shipped definition's
// figures, with a hand and roads set by each test.
func tableView(t *testing.T) *machine.TableView {
	t.Helper()
	tb, err := assets.LoadTable("makccarat-alt1-5pct")
	if err != nil {
		t.Fatal(err)
	}
	c := demo.New(defaultPaytable(t), demo.Config{Table: tb})
	v := c.View()
	if v.Table == nil || len(v.Table.Spots) != int(baccarat.NumSpots) {
		t.Fatalf("demo with a table: %+v", v.Table)
	}
	return v.Table
}

func tableScreen(t *testing.T, mode string) (*Screen, *fakeCabinet) {
	v := machine.View{Mode: mode, Lang: "pt", Credits: 10000, CreditsCents: 10000, Denom: 1,
		GameKind: "makccarat", Games: []string{"reels", "makccarat"}, Table: tableView(t)}
	s, c := newTestScreen(t, v)
	s.Table.Menu = false
	return s, c
}

// A spot's key and a touch on the spot put the selected chip on it; V
// changes the chip; nothing is sent while a hand is dealt.
func TestChipPlacement(t *testing.T) {
	s, c := tableScreen(t, "idle")
	if !s.AtTable() {
		t.Fatal("the table is not on screen")
	}
	s.Key("u") // player, 1 € chip
	s.Key(KeyChip)
	s.Key("p") // banker pair, 5 € chip
	clickOn(t, s, "spot:tie")
	clickOn(t, s, "chip:3")
	clickOn(t, s, "spot:banker")
	want := []string{"bet 0 100", "bet 4 500", "bet 2 500", "bet 1 10000"}
	if got := c.take(); !slices.Equal(got, want) {
		t.Fatalf("calls %v, want %v", got, want)
	}
	s.Key(KeyChip) // wraps to the first chip
	if s.ChipCents() != 100 {
		t.Errorf("chip after wrapping: %d", s.ChipCents())
	}
	s.Key(KeyBackspace)
	s.Key(KeySpin)
	if got := c.take(); !slices.Equal(got, []string{"press clear_bets", "press deal"}) {
		t.Errorf("calls %v", got)
	}
	// Dealing: the spots take nothing, the deal button is off.
	c.view.Mode = "dealing"
	s.Update()
	s.Key("y")
	s.Click(SpotRect(0).Center())
	if got := c.take(); len(got) != 0 {
		t.Errorf("chips placed while dealing: %v", got)
	}
	if button(t, s, machine.BtnDeal).Enabled {
		t.Error("deal enabled while dealing")
	}
}

// The menu opens from the reels with the games button (not by itself),
// picks a game by touch or keys, and comes back with Esc or the games
// button when idle.
func TestGameMenu(t *testing.T) {
	v := machine.View{Mode: "idle", Lang: "pt", Denom: 1, GameKind: "reels", Games: []string{"reels", "makccarat"}, Table: tableView(t)}
	s, c := newTestScreen(t, v)
	if s.MenuUp() {
		t.Fatal("the menu covers the reels at the start")
	}
	clickOn(t, s, "games")
	if !s.MenuUp() || s.AtTable() {
		t.Fatal("the games button does not open the menu")
	}
	s.Key(KeyRight)
	s.Key(KeyEnter)
	if got := c.take(); !slices.Equal(got, []string{"select_game makccarat"}) {
		t.Fatalf("calls %v", got)
	}
	c.view.GameKind = "makccarat"
	s.Update()
	if !s.AtTable() {
		t.Fatal("not at the table after choosing it")
	}
	clickOn(t, s, "games")
	if !s.MenuUp() {
		t.Fatal("the games button does not open the menu")
	}
	clickOn(t, s, "game:reels")
	if got := c.take(); !slices.Equal(got, []string{"select_game reels"}) {
		t.Fatalf("calls %v", got)
	}
	c.view.GameKind = "reels"
	s.Update()
	// From the reels: the games button, and Esc.
	if b := button(t, s, "games"); !b.Enabled {
		t.Fatal("no way back to the menu from the reels")
	}
	s.Key(KeyEscape)
	if !s.MenuUp() {
		t.Fatal("Esc does not open the menu from the reels")
	}
	s.Key(KeyEscape)
	// A game in progress: no menu.
	c.view.Mode, c.view.GameOpen = "spinning", true
	s.Update()
	s.Key(KeyEscape)
	if s.MenuUp() || button(t, s, "games").Enabled {
		t.Error("the menu is offered during a game")
	}
	// One game only: no menu and no button.
	s2, _ := newTestScreen(t, machine.View{Mode: "idle", Lang: "pt", Denom: 1, GameKind: "reels", Games: []string{"reels"}})
	if s2.MenuUp() || slices.Contains(ids(s2.Buttons()), "games") {
		t.Error("a menu with one game")
	}
}

// The cards go to their hand's box in the order dealt, the result and the
// settlement show once the hand is done and while the chips are its stakes.
func TestTableHand(t *testing.T) {
	s, c := tableScreen(t, "dealing")
	tv := c.view.Table
	cs := []cards.Card{{Rank: 9, Suit: cards.Hearts}, {Rank: 2, Suit: cards.Spades}, {Rank: cards.King, Suit: cards.Clubs}, {Rank: 3, Suit: cards.Diamonds}}
	tv.Bets[baccarat.SpotPlayer] = 1000
	tv.Hand = &machine.HandView{Game: 3, Cards: cs[:3], Sides: []string{"player", "banker", "player"}, Turned: 3, PlayerPoints: 9, BankerPoints: 2}
	s.Update()
	slots := s.TableCards()
	if len(slots) != 3 || slots[2].Side != "player" || slots[2].R.X <= slots[0].R.X || slots[1].R.X < RectBankerHand.X {
		t.Fatalf("slots %+v", slots)
	}
	if s.ResultText() != "" || s.Settled() || s.TableMessage() != T("pt", "mode_dealing") {
		t.Errorf("a result before the last card: %q %q", s.ResultText(), s.TableMessage())
	}
	tv.Hand.Cards, tv.Hand.Sides, tv.Hand.Turned, tv.Hand.Done = cs, []string{"player", "banker", "player", "banker"}, 4, true
	tv.Hand.BankerPoints, tv.Hand.Winner, tv.Hand.PaidCents = 5, "player", 2000
	tv.Hand.Spots[baccarat.SpotPlayer] = machine.Payout{Stake: 1000, Result: "won", Paid: 2000}
	c.view.Mode = "idle"
	s.Update()
	for _, msg := range []string{"", "msg_win"} { // the machine's "you won" gives way to the result
		c.view.Message = machine.Message{Key: msg, Args: []int64{2000}}
		s.Update()
		if got := s.TableMessage(); !strings.Contains(got, "JOGADOR GANHA 9 a 5") || !strings.Contains(got, "20,00 €") {
			t.Errorf("message %q: result line %q", msg, got)
		}
	}
	sv := s.SpotViews()
	if sv[1].Spot != baccarat.SpotPlayer || !sv[1].Won || !strings.Contains(sv[1].Result, "20,00 €") || sv[1].Key != "U" {
		t.Errorf("player spot %+v", sv[1])
	}
	if !strings.Contains(sv[1].Odds, "1 para 1") || !strings.Contains(sv[2].Odds, "14 para 1") {
		t.Errorf("odds %q %q", sv[1].Odds, sv[2].Odds)
	}
	// A chip more for the next hand: the last settlement is no longer shown.
	tv.Bets[baccarat.SpotTie] = 100
	s.Update()
	if s.Settled() || s.SpotViews()[1].Result != "" || s.TableMeters()[1].Value != "11,00 €" {
		t.Errorf("after a new chip: settled %v, %+v, staked %s", s.Settled(), s.SpotViews()[1], s.TableMeters()[1].Value)
	}
	// Refusals in both languages; the limits named from the definition.
	c.view.Message = machine.Message{Key: "refused_spot_limit", Args: []int64{10000}}
	s.Update()
	if got := s.TableMessage(); got != "Aposta máxima nesta casa: 100,00 €" {
		t.Errorf("refusal %q", got)
	}
	tv.Bets = [baccarat.NumSpots]int64{baccarat.SpotBanker: 100}
	c.view.Message, c.view.Lang = machine.Message{Key: "refused_table_limits", Detail: "bet on banker: 100 cents is outside"}, "en"
	s.Update()
	if got := s.TableMessage(); got != "Minimum bet on BANKER: €2.00" {
		t.Errorf("limits refusal %q", got)
	}
}

// The rules page is the definition's: each bet's payout with its exact
// RTP, the commission, the decks and the limits, in pt and en.
func TestTableRulesPages(t *testing.T) {
	tv := tableView(t)
	for _, c := range []struct {
		lang string
		want []string
	}{
		{"pt", []string{"8 baralhos", "Alternativa 1", "EMPATE: paga 14 para 1", "PAR BANCA: paga 11 para 1", "5 % do prémio", "7, 8 ou 9",
			"JOGADOR: mínimo 2,00 €, máximo 1.000,00 €", "Por mão: mínimo 2,00 €, máximo 2.000,00 €", "0,20 €", RTPText("pt", tv.Spots[2].RTPPct)}},
		{"en", []string{"8 decks", "Alternative 1", "TIE: pays 14 to 1", "7, 8 or 9", "Per hand: minimum €2.00, maximum €2,000.00", tv.Spots[0].RTPPct}},
	} {
		var all strings.Builder
		for _, p := range TableRulesPages(tv, c.lang) {
			all.WriteString(PageText(p) + "\n")
		}
		for _, w := range c.want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s rules lack %q:\n%s", c.lang, w, all.String())
			}
		}
	}
	if !strings.Contains(tv.Spots[2].RTPPct, ".") || !strings.Contains(RTPText("pt", tv.Spots[2].RTPPct), ",") {
		t.Errorf("RTP %q", tv.Spots[2].RTPPct)
	}
	tv.Commission, tv.Alternative = "half_on_four", 2
	got := PageText(TableRulesPages(tv, "pt")[1]) + PageText(TableRulesPages(tv, "pt")[0])
	if n := len(TableRulesPages(tv, "pt")); n != 3 {
		t.Errorf("%d rules pages, want 3", n)
	}
	if !strings.Contains(got, "metade do prémio") || !strings.Contains(got, "com 4 pontos") || !strings.Contains(got, "Alternativa 2: ") || strings.Contains(got, "7, 8 ou 9") {
		t.Errorf("half_on_four, alternative 2:\n%s", got)
	}
	// At the table, help shows these pages.
	s, _ := tableScreen(t, "idle")
	clickOn(t, s, machine.BtnHelp)
	s.Update()
	if !s.Help || s.PaytablePages()[0].Title != T("pt", "rules_title") {
		t.Errorf("help at the table shows %q", s.PaytablePages()[0].Title)
	}
}

// Every text of the table renders in both languages without a formatting
// error (a bare % in a text is one).
func TestTableTextsRender(t *testing.T) {
	for k := range tableTexts {
		checkBoth(t, k, slices.Repeat([]string{"7"}, verbs(k))...)
	}
}
