package tabledef_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/holdem"
	"github.com/openegm/cabinet/poker/tabledef"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

const holdemDef = `{
  "id": "t-holdem", "version": 2, "game": "holdem",
  "title": {"pt": "Mesa de teste", "en": "Test table"},
  "table": "9", "seats": 6,
  "min_bet_cents": 100, "initial_cave_cents": 5000, "min_rebuy_cents": 1000,
  "structure": "fixed_limit", "rake_bps": 250,
  "decision_seconds": 8, "extra_seconds": 4
}`

const syntheticDef = `{
  "id": "t-sint", "version": 1, "game": "synthetic_poker",
  "title": {"pt": "Sintético", "en": "Synthetic"},
  "number": 7, "initial_cave_cents": 20000, "min_bet_cents": 100, "min_rebuy_cents": 5000,
  "rake_bps": 300, "estardilho": true, "partida_minutes": 90, "decision_seconds": 10
}`

func TestParseFillsTheEnginesConfiguration(t *testing.T) {
	d, err := tabledef.Parse("h.json", []byte(holdemDef))
	if err != nil {
		t.Fatal(err)
	}
	h := d.Holdem
	if d.Game != tabledef.Holdem || d.Synthetic != nil || h.Table != "9" || h.Seats != 6 || h.RakeBps != 250 ||
		h.SmallBet != 100 || h.BigBet != 200 || h.RaiseCap != 4 || h.ReplayHands != 3 ||
		h.DecisionTime != 8*time.Second || h.ExtraTime != 4*time.Second {
		t.Fatalf("%+v", h)
	}
	if d.RakeBps() != 250 || d.FeeBps() != 0 || d.MinPlayers() != 2 || d.Seats() != 6 {
		t.Fatalf("rake %d fee %d", d.RakeBps(), d.FeeBps())
	}
	e, err := d.NewEngine(rng.NewSeeded(1))
	if err != nil || e.(*holdem.Table).Config().Structure != holdem.FixedLimit {
		t.Fatalf("engine %v", err)
	}
	s, err := tabledef.Parse("s.json", []byte(syntheticDef))
	if err != nil {
		t.Fatal(err)
	}
	if s.Synthetic.Number != 7 || !s.Synthetic.Estardilho || s.Synthetic.Duration != 90*time.Minute || s.RakeBps() != 300 || s.MinPlayers() != 4 || s.Seats() != 11 {
		t.Fatalf("%+v", s.Synthetic)
	}
	if _, err := s.NewEngine(rng.NewSeeded(1)); err != nil {
		t.Fatal(err)
	}
}

// Every rule a file breaks is named with the file, the field and the value,
// all of them at once.
func TestParseNamesEveryRuleBroken(t *testing.T) {
	for _, c := range []struct {
		name, from, to string
		want           []string
	}{
		{"seats", `"seats": 6`, `"seats": 11`, []string{"h.json: seats = 11: 2 to 10 (SRIJ rule 5)"}},
		{"two rules", `"seats": 6`, `"seats": 1, "rake_bps_x": 1`, []string{`unknown field "rake_bps_x"`}},
		{"min bet", `"min_bet_cents": 100`, `"min_bet_cents": 600`, []string{"min_bet_cents = 600", "rule 24"}},
		{"rake", `"rake_bps": 250`, `"rake_bps": 600`, []string{"rake_bps = 600", "rule 20 a"}},
		{"rake and fee", `"rake_bps": 250`, `"rake_bps": 250, "fee_bps": 1000`, []string{"not both", "rule 20"}},
		{"no commission", `"rake_bps": 250,`, ``, []string{"rake_bps: missing", "rules 19-20"}},
		{"fee", `"rake_bps": 250`, `"fee_bps": 300`, []string{"fee_bps = 300", "rule 20 b"}},
		{"timer", `"decision_seconds": 8`, `"decision_seconds": 4`, []string{"decision_seconds = 4", "rule 51"}},
		{"extra", `"extra_seconds": 4`, `"extra_seconds": 8`, []string{"extra_seconds = 8", "rule 52"}},
		{"structure", `"fixed_limit"`, `"spread_limit"`, []string{`structure = "spread_limit"`, "rule 27"}},
		{"fixed bets", `"rake_bps": 250`, `"rake_bps": 250, "small_bet_cents": 50, "big_bet_cents": 40`, []string{"small_bet_cents = 50", "rule 26", "big_bet_cents = 40"}},
		{"fixed bets at no limit", `"fixed_limit"`, `"no_limit", "big_bet_cents": 400`, []string{"big_bet_cents = 400", "only a fixed-limit"}},
		{"cap", `"rake_bps": 250`, `"rake_bps": 250, "raise_cap": 0`, []string{"raise_cap = 0"}},
		{"replay", `"rake_bps": 250`, `"rake_bps": 250, "replay_hands": 2`, []string{"replay_hands = 2", "rule 78"}},
		{"title", `"en": "Test table"`, `"en": ""`, []string{"title.en"}},
		{"id", `"t-holdem"`, `"T Holdem"`, []string{`id = "T Holdem"`}},
		{"synthetic field", `"seats": 6`, `"seats": 6, "estardilho": true`, []string{`unknown field "estardilho"`}},
		{"twice", `"seats": 6`, `"seats": 6, "seats": 7`, []string{`key "seats" appears twice`}},
		{"game", `"holdem"`, `"omaha"`, []string{`game = "omaha"`}},
		{"money", `"min_rebuy_cents": 1000`, `"min_rebuy_cents": 100000001`, []string{"min_rebuy_cents = 100000001"}},
		{"type", `"seats": 6`, `"seats": "6"`, []string{`field "seats"`}},
	} {
		data := strings.Replace(holdemDef, c.from, c.to, 1)
		_, err := tabledef.Parse("h.json", []byte(data))
		var re *reels.Error
		if err == nil || !errors.As(err, &re) || re.File != "h.json" {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want %q", c.name, err, w)
			}
		}
	}
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"rule 55", `"rake_bps": 300`, `"rake_bps": 500`, "rake_bps = 500: must be 300"},
		{"rule 39", `"partida_minutes": 90`, `"partida_minutes": 150`, "partida_minutes = 150"},
		{"rule 43", `"estardilho": true,`, ``, "estardilho: missing"},
		{"rule 38", `"min_rebuy_cents": 5000`, `"min_rebuy_cents": 50`, "min_rebuy_cents = 50"},
		{"rule 20", `"number": 7`, `"number": 0`, "number = 0"},
		{"hold'em field", `"number": 7`, `"number": 7, "seats": 11`, `unknown field "seats"`},
		{"after the object", `"decision_seconds": 10
}`, `"decision_seconds": 10} {}`, "after top-level value"},
	} {
		_, err := tabledef.Parse("s.json", []byte(strings.Replace(syntheticDef, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := tabledef.Parse("x.json", []byte(`{"id": "x"}`)); err == nil || !strings.Contains(err.Error(), "game: missing") {
		t.Errorf("no game: %v", err)
	}
	if tabledef.IsPoker([]byte(`{"game": "makccarat"}`)) || !tabledef.IsPoker([]byte(syntheticDef)) {
		t.Error("IsPoker")
	}
}

func TestLoadCertifiedChecksTheSignatureFirst(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	data := []byte(syntheticDef)
	c, err := tabledef.LoadCertified("s.json", data, reels.Sign(priv, data), []ed25519.PublicKey{pub})
	if err != nil || c.KeyID != reels.KeyID(pub) || c.Digest != tabledef.Digest(data) || string(c.Data) != syntheticDef {
		t.Fatalf("%+v %v", c, err)
	}
	bad := []byte(strings.Replace(syntheticDef, `"min_bet_cents": 100`, `"min_bet_cents": 10`, 1))
	if _, err := tabledef.LoadCertified("s.json", bad, reels.Sign(priv, data), []ed25519.PublicKey{pub}); err == nil || !strings.Contains(err.Error(), "(signature)") {
		t.Fatalf("a changed definition loaded: %v", err)
	}
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	if _, err := tabledef.LoadCertified("s.json", data, reels.Sign(priv, data), []ed25519.PublicKey{other}); err == nil {
		t.Fatal("an untrusted key's signature loaded")
	}
}

func TestCards(t *testing.T) {
	h, _ := tabledef.Parse("h.json", []byte(holdemDef))
	s, _ := tabledef.Parse("s.json", []byte(syntheticDef))
	for _, c := range []struct {
		d    *tabledef.Definition
		lang string
		want []string
	}{
		{h, "pt", []string{"Mesa 9", "Hold'em, limite fixo", "Apostas obrigatórias: 0,50 € / 1,00 €", "Apostas fixas: 1,00 € / 2,00 €, até 4 por turno",
			"Cave inicial: 50,00 €", "Reposição mínima: 10,00 €", "Comissão: 2,5% de cada pote", "Tempo de decisão: 8 s (+4 s)"}},
		{h, "en", []string{"Table 9", "Hold'em, fixed limit", "Blinds: €0.50 / €1.00", "Fixed bets: €1.00 / €2.00, at most 4 a round",
			"Initial cave: €50.00", "Minimum re-buy: €10.00", "Commission: 2.5% of each pot", "Decision time: 8 s (+4 s)"}},
		{s, "", []string{"Mesa 7", "Cave inicial: 200,00 €", "Aposta mínima: 1,00 €", "Reposição mínima: 50,00 €",
			"Comissão: 3% de cada pote", "Estardilho: sim", "Partida: 90 min", "Tempo de decisão: 10 s"}},
	} {
		if got := c.d.Card(c.lang); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s %s:\n%q\nwant\n%q", c.d.ID, c.lang, got, c.want)
		}
	}
	if tabledef.Percent("pt", 1000) != "10%" || tabledef.Percent("en", 125) != "1.25%" {
		t.Error(tabledef.Percent("pt", 1000), tabledef.Percent("en", 125))
	}
}

// A definition's engine is what the server drives: a step through the
// interface reaches the engine.
func TestEngineInterface(t *testing.T) {
	d, _ := tabledef.Parse("h.json", []byte(holdemDef))
	e, _ := d.NewEngine(rng.NewSeeded(2))
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs, err := e.Step(poker.Join{At: at, Player: "ana", Seat: 1, Amount: e.RequiredCave()})
	if err != nil || len(recs) != 1 || recs[0].Amount != 5000 || e.Fault() != nil {
		t.Fatalf("%+v %v", recs, err)
	}
}
