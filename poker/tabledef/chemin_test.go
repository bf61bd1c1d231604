package tabledef_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/tabledef"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

const cheminDef = `{
  "id": "t-chemin", "version": 1, "game": "chemin_de_fer",
  "title": {"pt": "Banca francesa", "en": "Chemin de fer"},
  "number": 3, "decks": 6, "seats": 12,
  "min_bank_cents": 10000, "min_bet_cents": 1000,
  "cagnotte_bps": 500, "cagnotte_rounding": "down",
  "auction_base_cents": 20000, "auction_increment_cents": 1000,
  "decision_seconds": 20, "tableau_only": false, "languages": ["pt", "en"]
}`

func TestParseChemin(t *testing.T) {
	d, err := tabledef.Parse("c.json", []byte(cheminDef))
	if err != nil {
		t.Fatal(err)
	}
	c := d.Chemin
	if d.Game != tabledef.Chemin || d.Holdem != nil || d.Synthetic != nil || c.Number != 3 || c.Decks != 6 || c.Seats != 12 ||
		c.MinPlayers != 4 || c.MinBank != 10000 || c.MinBet != 1000 || c.CagnotteBps != 500 || c.Rounding != tabledef.RoundDown ||
		c.AuctionBase != 20000 || c.AuctionIncrement != 1000 || c.DecisionTime != 20*time.Second || c.TableauOnly ||
		strings.Join(c.Languages, ",") != "pt,en" {
		t.Fatalf("%+v", c)
	}
	if d.Seats() != 12 || d.MinPlayers() != 4 || d.DecisionTime() != 20*time.Second || d.RakeBps() != 0 || d.FeeBps() != 0 || d.MinRebuy() != 1000 {
		t.Fatalf("seats %d min %d", d.Seats(), d.MinPlayers())
	}
	e, err := d.NewEngine(rng.NewSeeded(1))
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	if ce, ok := e.(*tabledef.CheminEngine); !ok || ce.RequiredCave() != 1000 || ce.CheminView("").Phase != chemin.Idle {
		t.Fatalf("engine %T", e)
	}
	// The definition's figures are the engine's rules, which the engine
	// takes as they are.
	r := c.Rules("Mesa 3")
	if err := r.Validate(); err != nil {
		t.Fatalf("engine rules of the definition: %v", err)
	}
	if r.Decks != 6 || r.MinSeated != 4 || r.MinBank != 10000 || r.AuctionStep != 1000 || r.DecisionTime != 20*time.Second ||
		r.Cagnotte(1019) != c.Cagnotte(1019) || r.Cagnotte(1019) != 50 {
		t.Fatalf("engine rules %+v", r)
	}
	if _, err := chemin.New(r, rng.NewSeeded(1)); err != nil {
		t.Fatalf("a table of the definition: %v", err)
	}
	if !tabledef.IsChemin([]byte(cheminDef)) || tabledef.IsChemin([]byte(syntheticDef)) || tabledef.IsPoker([]byte(cheminDef)) {
		t.Error("IsChemin")
	}
	d, err = tabledef.Parse("c.json", []byte(strings.Replace(cheminDef, `"seats": 12,`, `"seats": 8, "min_players": 5,`, 1)))
	if err != nil || d.MinPlayers() != 5 {
		t.Fatalf("min players: %v", err)
	}
}

// Every rule a chemin de fer definition breaks is named with the file, the
// field and the value.
func TestParseCheminNamesEveryRuleBroken(t *testing.T) {
	for _, c := range []struct {
		name, from, to string
		want           []string
	}{
		{"decks", `"decks": 6`, `"decks": 9`, []string{"c.json: decks = 9: 1 to 8 decks"}},
		{"no decks", `"decks": 6,`, ``, []string{"c.json: decks: missing"}},
		{"seats", `"seats": 12`, `"seats": 3`, []string{"c.json: seats = 3:", "rule 16"}},
		{"min players", `"seats": 12`, `"seats": 12, "min_players": 3`, []string{"c.json: min_players = 3:", "rule 16"}},
		{"min players above seats", `"seats": 12`, `"seats": 6, "min_players": 7`, []string{"c.json: min_players = 7:"}},
		{"bank", `"min_bank_cents": 10000`, `"min_bank_cents": 0`, []string{"c.json: min_bank_cents = 0:"}},
		{"bet above bank", `"min_bet_cents": 1000`, `"min_bet_cents": 20000`, []string{"c.json: min_bet_cents = 20000: at most the minimum bank 10000"}},
		{"cagnotte", `"cagnotte_bps": 500`, `"cagnotte_bps": 1500`, []string{"c.json: cagnotte_bps = 1500:", "rule 47"}},
		{"no cagnotte", `"cagnotte_bps": 500,`, ``, []string{"c.json: cagnotte_bps: missing"}},
		{"rounding", `"down"`, `"bankers"`, []string{`c.json: cagnotte_rounding = "bankers":`}},
		{"auction base", `"auction_base_cents": 20000`, `"auction_base_cents": 5000`, []string{"c.json: auction_base_cents = 5000: at least the minimum bank"}},
		{"auction increment", `"auction_increment_cents": 1000`, `"auction_increment_cents": 30000`, []string{"c.json: auction_increment_cents = 30000:"}},
		{"timer", `"decision_seconds": 20`, `"decision_seconds": 2`, []string{"c.json: decision_seconds = 2:"}},
		{"tableau", `"tableau_only": false,`, ``, []string{"c.json: tableau_only: missing", "rule 102"}},
		{"language", `["pt", "en"]`, `["pt", "fr"]`, []string{`c.json: languages = "fr":`}},
		{"no Portuguese", `["pt", "en"]`, `["en"]`, []string{`c.json: languages = ["en"]: must include "pt"`}},
		{"language twice", `["pt", "en"]`, `["pt", "pt"]`, []string{`c.json: languages = "pt": given twice`}},
		{"poker field", `"decks": 6`, `"decks": 6, "rake_bps": 500`, []string{`unknown field "rake_bps"`}},
		{"key twice", `"decks": 6`, `"decks": 0, "number": 0`, []string{`key "number" appears twice`}},
		{"all at once", `"decks": 6, "seats": 12`, `"decks": 0, "seats": 99`, []string{"decks = 0", "seats = 99"}},
	} {
		_, err := tabledef.Parse("c.json", []byte(strings.Replace(cheminDef, c.from, c.to, 1)))
		var re *reels.Error
		if err == nil || !errors.As(err, &re) || re.File != "c.json" {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want %q", c.name, err, w)
			}
		}
	}
}

func TestCheminCard(t *testing.T) {
	d, err := tabledef.Parse("c.json", []byte(cheminDef))
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string][]string{
		"pt": {"Mesa 3 — Chemin de fer", "Sabot de 6 baralhos", "Banca mínima: 100,00 €", "Aposta mínima: 10,00 €",
			"Cagnotte: 5% dos ganhos do banqueiro, arredondada ao cêntimo abaixo", "Leilão da banca: base 200,00 €, lanços de 10,00 €",
			"Lugares: 12, mínimo 4 jogadores sentados", "O banqueiro escolhe com 3 contra 9 e com 5 contra 4", "Tempo de decisão: 20 s"},
		"en": {"Table 3 — Chemin de fer", "Shoe of 6 decks", "Minimum bank: €100.00", "Minimum bet: €10.00",
			"Cagnotte: 5% of the banker's winnings, rounded down to the cent", "Bank auction: base €200.00, raises of €10.00",
			"Seats: 12, at least 4 seated players", "The banker chooses with 3 against a 9 and with 5 against a 4", "Decision time: 20 s"},
	} {
		if got := d.Card(lang); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s:\n%q\nwant\n%q", lang, got, want)
		}
	}
}

// The cagnotte in cents, brought to a cent as the definition says.
func TestCagnotteRounding(t *testing.T) {
	for _, c := range []struct {
		r        tabledef.Rounding
		bps, win int64
		want     int64
	}{
		{tabledef.RoundDown, 500, 1000, 50},
		{tabledef.RoundDown, 500, 1019, 50},
		{tabledef.RoundHalfUp, 500, 1009, 50},
		{tabledef.RoundHalfUp, 500, 1010, 51}, // 50.5 cents
		{tabledef.RoundUp, 500, 1001, 51},
		{tabledef.RoundUp, 500, 1000, 50},
		{tabledef.RoundUp, 250, 1, 1},
		{tabledef.RoundDown, 500, 0, 0},
		{tabledef.RoundHalfUp, 1000, 9_000_000_000_000_000_005, 900_000_000_000_000_001}, // no overflow
	} {
		cfg := tabledef.CheminConfig{CagnotteBps: c.bps, Rounding: c.r}
		if got := cfg.Cagnotte(c.win); got != c.want {
			t.Errorf("%s %d bps of %d: %d, want %d", c.r, c.bps, c.win, got, c.want)
		}
	}
}
