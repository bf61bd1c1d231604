package baccarat

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

// Deal gives exactly the cards the rules call for, each a distinct card of
// the shoe, and the same seed deals the same hands.
func TestDeal(t *testing.T) {
	d := mustParse(t, alt1Def)
	shoe, err := d.NewShoe()
	if err != nil {
		t.Fatal(err)
	}
	if shoe.Len() != 416 {
		t.Fatalf("%d cards", shoe.Len())
	}
	var first [][]cards.Card
	for run := range 2 {
		src := rng.NewSeeded(42)
		lengths := map[int]int{}
		for i := range 2000 {
			dealt, err := d.Alternative.Deal(shoe, src)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Alternative.Evaluate(dealt); err != nil {
				t.Fatalf("dealt %v: %v", dealt, err)
			}
			lengths[len(dealt)]++
			// Eight decks hold 32 of each card: no card dealt more than that.
			seen := map[cards.Card]int{}
			for _, c := range dealt {
				if seen[c]++; seen[c] > 32 {
					t.Fatal("a card dealt more often than the shoe holds it")
				}
			}
			if run == 0 {
				first = append(first, dealt)
			} else if !slices.Equal(first[i], dealt) {
				t.Fatalf("hand %d: %v then %v from the same seed", i, first[i], dealt)
			}
		}
		if lengths[4] == 0 || lengths[5] == 0 || lengths[6] == 0 {
			t.Fatalf("hand lengths %v", lengths)
		}
	}
}

func TestLoadCertified(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	keys := []ed25519.PublicKey{pub}
	data := []byte(alt1Def)
	c, err := LoadCertified("t.json", data, reels.Sign(priv, data), keys)
	if err != nil {
		t.Fatal(err)
	}
	if c.KeyID != reels.KeyID(pub) || len(c.Digest) != 64 || c.Figures.Bets[SpotTie].RTP.Cmp(big.NewRat(8, 10)) <= 0 {
		t.Fatalf("%+v", c)
	}
	bad := []byte(strings.Replace(alt1Def, `"decks": 8`, `"decks": 7`, 1))
	var pe *reels.Error
	if _, err := LoadCertified("t.json", bad, reels.Sign(priv, data), keys); !errors.As(err, &pe) || pe.Field != "(signature)" {
		t.Fatalf("a changed file loaded: %v", err)
	}
	if _, err := LoadCertified("t.json", data, nil, keys); !errors.As(err, &pe) || pe.Field != "(signature)" {
		t.Fatalf("an unsigned file loaded: %v", err)
	}
	// Signed, but invalid: the parse still refuses it.
	invalid := []byte(strings.Replace(alt1Def, `"decks": 8`, `"decks": 3`, 1))
	if _, err := LoadCertified("t.json", invalid, reels.Sign(priv, invalid), keys); err == nil || !strings.Contains(err.Error(), "decks = 3") {
		t.Fatalf("got %v", err)
	}
}

// A bet below 80% is refused by name with its figure. No definition the
// dispatch allows has one, so the rule is checked on figures lowered by
// hand.
func TestCheckNamesTheBetBelow80(t *testing.T) {
	d := mustParse(t, alt1Def)
	f, err := d.Exact()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Check(d); err != nil {
		t.Fatalf("the 8-deck alternative 1 table fails: %v", err)
	}
	f.Bets[SpotTie].RTP = reels.Exact{Rat: big.NewRat(79, 100)}
	f.Bets[SpotBankerPair].RTP = reels.Exact{Rat: big.NewRat(3, 4)}
	err = f.Check(d)
	var re *RTPError
	if !errors.As(err, &re) || re.Spot != SpotTie ||
		!strings.Contains(err.Error(), "t.json: table t-alt1, bet tie: RTP 79.000000% = 79/100 is below the 80% minimum") ||
		!strings.Contains(err.Error(), "bet banker_pair: RTP 75.000000% = 3/4") {
		t.Fatalf("got %v", err)
	}
}
