package baccarat

import (
	"errors"
	"strings"
	"testing"

	"github.com/openegm/cabinet/reels"
)

const alt1Def = `{
  "id": "t-alt1", "version": 1, "game": "makccarat",
  "title": {"pt": "Teste", "en": "Test"},
  "decks": 8, "alternative": 1, "commission": "five_percent_789", "bet_unit_cents": 20,
  "limits": {
    "player":      {"min_cents": 200, "max_cents": 100000},
    "banker":      {"min_cents": 200, "max_cents": 100000},
    "tie":         {"min_cents": 100, "max_cents": 10000},
    "player_pair": {"min_cents": 100, "max_cents": 10000},
    "banker_pair": {"min_cents": 100, "max_cents": 10000},
    "hand":        {"min_cents": 200, "max_cents": 200000}
  }
}`

// alt2Half is alternative 2 with half paid on four, bet unit 2 cents.
var alt2Half = strings.NewReplacer(`"alternative": 1`, `"alternative": 2`, `"five_percent_789"`, `"half_on_four"`,
	`"bet_unit_cents": 20`, `"bet_unit_cents": 2`, `"t-alt1"`, `"t-alt2"`).Replace(alt1Def)

func mustParse(t *testing.T, src string) *Definition {
	t.Helper()
	d, err := Parse("t.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParseValid(t *testing.T) {
	d := mustParse(t, alt1Def)
	if d.ID != "t-alt1" || d.Version != 1 || d.Decks != 8 || d.Alternative != Alternative1 || d.Commission != FivePercent789 ||
		d.BetUnit != 20 || d.Title.PT != "Teste" || d.Limits.Spots[SpotTie] != (Limit{100, 10000}) || d.Limits.Hand != (Limit{200, 200000}) {
		t.Fatalf("%+v", d)
	}
	d = mustParse(t, alt2Half)
	if d.Alternative != Alternative2 || d.Commission != HalfOnFour || d.BetUnit != 2 {
		t.Fatalf("%+v", d)
	}
}

// Every refusal names the file, the field and the value, and a file that
// breaks several rules is refused with all of them.
func TestParseRefusals(t *testing.T) {
	cases := []struct {
		name, old, new string
		want           []string
	}{
		{"unknown field", `"decks": 8`, `"decks": 8, "shuffle": "full"`, []string{`(json)`, `unknown field "shuffle"`}},
		{"key twice", `"decks": 8`, `"decks": 8, "decks": 6`, []string{`key "decks" appears twice`}},
		{"wrong type", `"decks": 8`, `"decks": "8"`, []string{`field "decks"`}},
		{"missing id", `"id": "t-alt1", `, ``, []string{"id: missing"}},
		{"bad id", `"t-alt1"`, `"T Alt"`, []string{`id = "T Alt"`}},
		{"version", `"version": 1`, `"version": 0`, []string{"version = 0"}},
		{"another game", `"makccarat"`, `"poker"`, []string{`game = "poker"`, `must be "makccarat"`}},
		{"no english title", `"en": "Test"`, `"en": ""`, []string{"title.en"}},
		{"five decks", `"decks": 8`, `"decks": 5`, []string{"decks = 5", "6 to 12 decks"}},
		{"thirteen decks", `"decks": 8`, `"decks": 13`, []string{"decks = 13"}},
		{"alternative 3", `"alternative": 1`, `"alternative": 3`, []string{"alternative = 3", "alternatives 1 and 2"}},
		{"commission", `"five_percent_789"`, `"five_percent"`, []string{`commission = "five_percent"`}},
		{"unit of 10 with 5%", `"bet_unit_cents": 20`, `"bet_unit_cents": 10`,
			[]string{"bet_unit_cents = 10", "multiples of 20 cents"}},
		{"unit of 30 with 5%", `"bet_unit_cents": 20`, `"bet_unit_cents": 30`, []string{"bet_unit_cents = 30", "30 cents winning with 7 points"}},
		{"unit 0", `"bet_unit_cents": 20`, `"bet_unit_cents": 0`, []string{"bet_unit_cents = 0"}},
		{"limit not a multiple of the unit", `"min_cents": 100, "max_cents": 10000}`, `"min_cents": 110, "max_cents": 10000}`,
			[]string{"limits.tie.min_cents = 110", "multiple of the bet unit (20 cents)"}},
		{"min above max", `"tie":         {"min_cents": 100, "max_cents": 10000}`, `"tie": {"min_cents": 20000, "max_cents": 10000}`,
			[]string{"limits.tie.min_cents = 20000", "above limits.tie.max_cents"}},
		{"spot nobody could play", `"tie":         {"min_cents": 100, "max_cents": 10000}`, `"tie": {"min_cents": 300000, "max_cents": 400000}`,
			[]string{"limits.tie.min_cents = 300000", "never be played"}},
		{"hand nobody could play", `"hand":        {"min_cents": 200, "max_cents": 200000}`, `"hand": {"min_cents": 400000, "max_cents": 500000}`,
			[]string{"limits.hand.min_cents = 400000", "no hand could be played"}},
		{"missing spot", `"banker_pair": {"min_cents": 100, "max_cents": 10000},`, ``, []string{"limits.banker_pair: missing"}},
		{"missing max", `"min_cents": 200, "max_cents": 200000`, `"min_cents": 200`, []string{"limits.hand.max_cents: missing"}},
		{"huge", `"max_cents": 200000`, `"max_cents": 200000000000`, []string{"limits.hand.max_cents = 200000000000"}},
		{"two rules at once", `"decks": 8, "alternative": 1`, `"decks": 4, "alternative": 7`, []string{"decks = 4", "alternative = 7"}},
		{"trailing data", "}\n}", "}\n} {}", []string{"extra data"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(alt1Def, c.old, c.new, 1)
			if src == alt1Def {
				t.Fatalf("the case changes nothing")
			}
			_, err := Parse("t.json", []byte(src))
			var pe *reels.Error
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *reels.Error", err)
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "t.json: ") {
					t.Fatalf("a refusal does not name the file: %q", line)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("got %q, want %q", err, w)
				}
			}
		})
	}
}

// The bet unit must make every payout whole cents: 5% of a 1:1 prize needs
// multiples of 20 cents, half a 1:1 prize multiples of 2; ties and pairs
// pay whole multiples of the stake.
func TestBetUnits(t *testing.T) {
	unit := func(src string, u string) error {
		src = strings.Replace(src, `"bet_unit_cents": 20`, `"bet_unit_cents": `+u, 1)
		src = strings.Replace(src, `"bet_unit_cents": 2,`, `"bet_unit_cents": `+u+`,`, 1)
		// Limits every unit here divides.
		src = strings.NewReplacer("200,", "1200,", "100,", "1200,", "100000}", "120000}", "10000}", "12000}", "200000}", "240000}").Replace(src)
		_, err := Parse("t.json", []byte(src))
		return err
	}
	for _, u := range []string{"20", "40", "60", "100", "200"} {
		if err := unit(alt1Def, u); err != nil {
			t.Errorf("5%%, unit %s: %v", u, err)
		}
	}
	for _, u := range []string{"1", "2", "5", "10", "25", "30", "50"} {
		if err := unit(alt1Def, u); err == nil || !strings.Contains(err.Error(), "bet_unit_cents = "+u+":") {
			t.Errorf("5%%, unit %s: %v", u, err)
		}
	}
	for _, u := range []string{"2", "4", "6", "10", "100"} {
		if err := unit(alt2Half, u); err != nil {
			t.Errorf("half on four, unit %s: %v", u, err)
		}
	}
	for _, u := range []string{"1", "3", "5", "25"} {
		if err := unit(alt2Half, u); err == nil || !strings.Contains(err.Error(), "multiples of 2 cents") {
			t.Errorf("half on four, unit %s: %v", u, err)
		}
	}
}

func TestCheckBets(t *testing.T) {
	d := mustParse(t, alt1Def)
	ok := []Bets{{200}, {0, 100000}, {0, 0, 0, 100, 100}, {100000, 100000}}
	for _, b := range ok {
		if err := d.CheckBets(b); err != nil {
			t.Errorf("%v: %v", b, err)
		}
	}
	for _, c := range []struct {
		b    Bets
		want string
	}{
		{Bets{210}, "bet on player: 210 cents is not a multiple of the bet unit (20 cents)"},
		{Bets{0, 180}, "bet on banker: 180 cents is outside the spot's limits (200 to 100000 cents)"},
		{Bets{0, 0, 10020}, "bet on tie: 10020 cents is outside"},
		{Bets{0, 0, 0, -20}, "bet on player_pair: -20 cents is negative"},
		{Bets{}, "the hand's stakes total 0 cents"},
		{Bets{0, 0, 100}, "total 100 cents, outside the hand's limits (200 to 200000 cents)"},
		{Bets{100000, 100000, 0, 10000}, "total 210000 cents"},
	} {
		if err := d.CheckBets(c.b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.b, err, c.want)
		}
	}
}
