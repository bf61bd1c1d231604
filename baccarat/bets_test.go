package baccarat

import (
	"errors"
	"strings"
	"testing"

	"github.com/openegm/cabinet/reels"
)

// Payouts worked out by hand from articles 11, 16 and 17 of the dispatch.
func TestSettle(t *testing.T) {
	five := mustParse(t, alt1Def)
	half := mustParse(t, alt2Half)
	all := Bets{200, 200, 100, 100, 100}
	cases := []struct {
		name string
		d    *Definition
		dec  Decision
		bets Bets
		paid [NumSpots]int64
		comm int64
	}{
		{"player wins with 7: 5% of the prize kept", five, Decision{PlayerWins, 7, false, false}, all,
			[NumSpots]int64{390, 0, 0, 0, 0}, 10},
		{"banker wins with 9 and a banker pair", five, Decision{BankerWins, 9, false, true}, all,
			[NumSpots]int64{0, 390, 0, 0, 1200}, 10},
		{"banker wins with 6: no commission", five, Decision{BankerWins, 6, false, false}, all,
			[NumSpots]int64{0, 400, 0, 0, 0}, 0},
		{"player wins with 4 under the 5% option: full prize", five, Decision{PlayerWins, 4, true, false}, all,
			[NumSpots]int64{400, 0, 0, 1200, 0}, 0},
		{"tie under alternative 1: 14:1, player and banker stakes returned", five, Decision{Tie, 5, true, true}, all,
			[NumSpots]int64{200, 200, 1500, 1200, 1200}, 0},
		{"tie under alternative 2: 9:1", half, Decision{Tie, 0, false, false}, all,
			[NumSpots]int64{200, 200, 1000, 0, 0}, 0},
		{"player wins with 4 under half-on-four: half the prize kept", half, Decision{PlayerWins, 4, false, false}, all,
			[NumSpots]int64{300, 0, 0, 0, 0}, 100},
		{"banker wins with 8 under half-on-four: no 5%", half, Decision{BankerWins, 8, false, false}, all,
			[NumSpots]int64{0, 400, 0, 0, 0}, 0},
		{"empty spots pay nothing", five, Decision{PlayerWins, 7, true, true}, Bets{0, 0, 0, 0, 100},
			[NumSpots]int64{0, 0, 0, 0, 1200}, 0},
		{"a larger stake: 5% of 1,000.00", five, Decision{BankerWins, 8, false, false}, Bets{0, 100000},
			[NumSpots]int64{0, 195000, 0, 0, 0}, 5000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := c.d.Settle(c.dec, c.bets)
			if err != nil {
				t.Fatal(err)
			}
			var paid [NumSpots]int64
			var sum int64
			for i, p := range s.Spots {
				paid[i] = p.Paid
				sum += p.Paid
				if p.Stake != c.bets[i] {
					t.Fatalf("spot %d stake %d", i, p.Stake)
				}
				want := Lost
				switch {
				case p.Stake == 0:
					want = NoBet
				case p.Prize > 0:
					want = Won
				case p.Paid == p.Stake:
					want = Returned
				}
				if p.Result != want {
					t.Fatalf("spot %s: %+v, want %v", Spot(i), p, want)
				}
			}
			if paid != c.paid || s.Commission != c.comm || s.Paid != sum || s.Staked != c.bets.Total() {
				t.Fatalf("paid %v commission %d (settlement %+v), want %v and %d", paid, s.Commission, s, c.paid, c.comm)
			}
		})
	}
	if _, err := five.Settle(Decision{PlayerWins, 7, false, false}, Bets{210}); err == nil || !strings.Contains(err.Error(), "multiple of the bet unit") {
		t.Fatalf("210 cents settled: %v", err)
	}
	if _, err := five.Settle(Decision{PlayerWins, 7, false, false}, Bets{-20}); err == nil {
		t.Fatal("a negative stake settled")
	}
}

// The pay rules themselves refuse a commission that is not whole cents, so
// a unit check that missed a case could not pay a fraction silently.
func TestSettleRefusesFractionalCommission(t *testing.T) {
	_, err := settle(Alternative1, FivePercent789, Decision{BankerWins, 8, false, false}, Bets{0, 30})
	if err == nil || !strings.Contains(err.Error(), "not a whole number of cents") {
		t.Fatalf("got %v", err)
	}
	_, err = settle(Alternative2, HalfOnFour, Decision{PlayerWins, 4, false, false}, Bets{3})
	if err == nil {
		t.Fatal("half of 3 cents paid")
	}
}

func TestPlay(t *testing.T) {
	d := mustParse(t, alt1Def)
	h, err := d.Play(parseCards(t, "2C", "3H", "KC", "3S", "7D", "TC"), Bets{1000, 200, 100, 0, 100})
	if err != nil {
		t.Fatal(err)
	}
	// Player 9 against banker 6, the banker's 3-3 a pair.
	if h.Winner != PlayerWins || h.Points != 9 || !h.BankerPair || h.PlayerPair ||
		h.Spots[SpotPlayer].Paid != 1950 || h.Spots[SpotBankerPair].Paid != 1200 || h.Paid != 3150 || h.Staked != 1400 || h.Commission != 50 {
		t.Fatalf("%+v", h)
	}
	if _, err := d.Play(parseCards(t, "2C", "3H", "KC", "3S", "7D", "TC"), Bets{10}); err == nil {
		t.Fatal("a bet under the limits played")
	}
	if _, err := d.Play(parseCards(t, "2C", "3H", "KC", "3S"), Bets{1000}); err == nil {
		t.Fatal("an unfinished hand played")
	}
}

// FuzzParse: no input panics the loader; every refusal is a list of
// definition errors each naming the file; an accepted definition pays every
// possible hand in whole cents and keeps its limits consistent.
func FuzzParse(f *testing.F) {
	f.Add([]byte(alt1Def))
	f.Add([]byte(alt2Half))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"game": "makccarat", "game": "makccarat"}`))
	f.Add([]byte(`{"limits": {"hand": {"min_cents": -1}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse("fuzz.json", data)
		if err != nil {
			var errs []error
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap()
			} else {
				errs = []error{err}
			}
			for _, e := range errs {
				var pe *reels.Error
				if !errors.As(e, &pe) || !strings.HasPrefix(e.Error(), "fuzz.json: ") {
					t.Fatalf("refusal %q is not a named definition error", e)
				}
			}
			return
		}
		if d.Decks < MinDecks || d.Decks > MaxDecks || d.BetUnit < 1 {
			t.Fatalf("accepted %+v", d)
		}
		for s, l := range append(d.Limits.Spots[:], d.Limits.Hand) {
			if l.Min < 1 || l.Min > l.Max || l.Min%d.BetUnit != 0 || l.Max%d.BetUnit != 0 {
				t.Fatalf("limit %d: %+v", s, l)
			}
		}
		var bets Bets
		for s := range bets {
			bets[s] = d.Limits.Spots[s].Max
		}
		for _, dec := range allDecisions() {
			if _, err := d.Settle(dec, bets); err != nil {
				t.Fatalf("accepted definition cannot pay %+v: %v", dec, err)
			}
		}
	})
}
