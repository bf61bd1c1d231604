package odds_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/openegm/cabinet/poker/chemin/odds"
)

// The tableau of spec/chemin.md, read off the table as written: for each
// banker total, the ponto's third cards on which he draws, the card on
// which he chooses, and what he does when the ponto stood.
var tableau = [8]struct {
	drawsOn string
	choice  int // -1: none
	stood   bool
}{
	{"0123456789", -1, true},
	{"0123456789", -1, true},
	{"0123456789", -1, true},
	{"01234567", 9, true},
	{"234567", -1, true},
	{"567", 4, true},
	{"67", -1, false},
	{"", -1, false},
}

func TestTheTableauIsTheSpecs(t *testing.T) {
	for total, row := range tableau {
		if got := odds.BankerDraws(total, -1, odds.Banker{}); got != row.stood {
			t.Errorf("banker %d, ponto stood: draws %v", total, got)
		}
		for third := range 10 {
			for _, b := range odds.BankerStrategies {
				want := strings.ContainsRune(row.drawsOn, rune('0'+third))
				switch {
				case third == row.choice && total == 3:
					want = b.ThreeVsNine
				case third == row.choice && total == 5:
					want = b.FiveVsFour
				}
				if got := odds.BankerDraws(total, third, b); got != want {
					t.Errorf("banker %d against %d (%+v): draws %v", total, third, b, got)
				}
			}
		}
	}
	for total := range 8 {
		for _, five := range odds.PontoStrategies {
			want := total <= 4 || total == 5 && five
			if odds.PontoDraws(total, five) != want {
				t.Errorf("ponto %d (draws on 5: %v)", total, five)
			}
		}
	}
}

// brute deals every ordered sequence of six distinct cards of a small shoe
// and plays each coup on the cards it needs, with the spec's tableau above,
// for every strategy pair: the counts the enumeration over values must
// equal exactly.
func brute(values []int) (total uint64, n [2][4][3]uint64) {
	used := make([]bool, len(values))
	var seq [6]int
	var deal func(k int)
	play := func(drawOnFive, threeVsNine, fiveVsFour bool) int {
		p, b := (seq[0]+seq[2])%10, (seq[1]+seq[3])%10
		if p < 8 && b < 8 {
			next := 4
			third := -1
			if p <= 4 || p == 5 && drawOnFive {
				third = seq[next]
				next++
				p = (p + third) % 10
			}
			row := tableau[b]
			draws := row.stood
			if third >= 0 {
				draws = strings.ContainsRune(row.drawsOn, rune('0'+third))
				if third == row.choice {
					draws = b == 3 && threeVsNine || b == 5 && fiveVsFour
				}
			}
			if draws {
				b = (b + seq[next]) % 10
			}
		}
		switch {
		case b > p:
			return odds.BankerWins
		case p > b:
			return odds.PontoWins
		}
		return odds.Void
	}
	deal = func(k int) {
		if k == 6 {
			total++
			for i, five := range []bool{true, false} {
				for j, s := range [][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
					n[i][j][play(five, s[0], s[1])]++
				}
			}
			return
		}
		for c, v := range values {
			if !used[c] {
				used[c] = true
				seq[k] = v
				deal(k + 1)
				used[c] = false
			}
		}
	}
	deal(0)
	return total, n
}

func TestEnumerationEqualsBruteForce(t *testing.T) {
	for _, shoe := range []odds.Shoe{
		{4, 1, 1, 1, 1, 1, 1, 1, 1, 1}, // one suit: ace to king
		{3, 2, 1, 2, 0, 1, 1, 1, 2, 1}, // 14 cards, uneven
	} {
		var values []int
		for v, c := range shoe {
			for range c {
				values = append(values, v)
			}
		}
		total, n := brute(values)
		cs, err := odds.Count(shoe)
		if err != nil {
			t.Fatal(err)
		}
		if cs.Total != total || cs.N != n {
			t.Fatalf("shoe %v:\nenumeration %d %v\nbrute force %d %v", shoe, cs.Total, cs.N, total, n)
		}
	}
}

func TestCountsAddUp(t *testing.T) {
	for _, d := range []int{1, 6, 8} {
		cs, err := odds.Count(odds.Decks(d))
		if err != nil {
			t.Fatal(err)
		}
		n := uint64(52 * d)
		if cs.Total != n*(n-1)*(n-2)*(n-3)*(n-4)*(n-5) {
			t.Fatalf("%d decks: total %d", d, cs.Total)
		}
		for i := range 2 {
			for j := range 4 {
				if s := cs.N[i][j][0] + cs.N[i][j][1] + cs.N[i][j][2]; s != cs.Total {
					t.Errorf("%d decks, pair %d %d: %d of %d", d, i, j, s, cs.Total)
				}
			}
		}
	}
}

// With every choice "draw" the coup is punto banco's: the counts of ordered
// six-card sequences are the published ones for 6 and 8 decks (banker,
// player, tie), and with 8 decks the banker's expectation before the
// commission is the banker's advantage over the player, 1.2351%.
func TestEveryChoiceDrawIsPuntoBanco(t *testing.T) {
	for _, c := range []struct {
		decks int
		want  [3]uint64
	}{
		{8, [3]uint64{2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216}},
		{6, [3]uint64{403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288}},
	} {
		f, err := odds.Exact(c.decks, 500)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Counts.N[0][0]; got != c.want {
			t.Errorf("%d decks: %v, want %v", c.decks, got, c.want)
		}
		if c.decks != 8 {
			continue
		}
		p := f.Pairs[0][0]
		if !p.PontoDrawsOnFive || p.Banker != (odds.Banker{ThreeVsNine: true, FiveVsFour: true}) {
			t.Fatalf("pair 0 0 is %+v", p)
		}
		if got := new(big.Rat).Mul(p.Before.Rat, big.NewRat(100, 1)).FloatString(4); got != "1.2351" {
			t.Errorf("8 decks, every choice draw: banker %s%%, want 1.2351%%", got)
		}
		want := big.NewRat(2_292_252_566_437_888-2_230_518_282_592_256, 4_998_398_275_503_360)
		if p.Before.Cmp(want) != 0 || p.Before.RatString() != "241149546272/19524993263685" || p.Before.Percent() != "1.235081%" {
			t.Errorf("8 decks: %s = %s", p.Before.RatString(), p.Before.Percent())
		}
	}
}

// After the cagnotte c the banker keeps P(win)·(1−c) − P(lose); with no
// cagnotte the figures before and after are the same.
func TestCagnotte(t *testing.T) {
	f, err := odds.Exact(1, 500)
	if err != nil {
		t.Fatal(err)
	}
	g, err := odds.Exact(1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		for j := range 4 {
			p := f.Pairs[i][j]
			want := new(big.Rat).Mul(p.BankerWin.Rat, big.NewRat(19, 20))
			want.Sub(want, p.PontoWin.Rat)
			if p.After.Cmp(want) != 0 {
				t.Errorf("pair %d %d after: %s", i, j, p.After.RatString())
			}
			sum := new(big.Rat).Add(p.BankerWin.Rat, p.PontoWin.Rat)
			if sum.Add(sum, p.Void.Rat).Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("pair %d %d: probabilities add to %s", i, j, sum.RatString())
			}
			if q := g.Pairs[i][j]; q.After.Cmp(q.Before.Rat) != 0 || q.Before.Cmp(p.Before.Rat) != 0 {
				t.Errorf("pair %d %d without cagnotte: %s %s", i, j, q.Before.RatString(), q.After.RatString())
			}
		}
	}
	for _, bad := range []int64{-1, 10001} {
		if _, err := odds.Exact(6, bad); err == nil {
			t.Errorf("a cagnotte of %d bps accepted", bad)
		}
	}
	for _, bad := range []int{0, odds.MaxDecks + 1} {
		if _, err := odds.Exact(bad, 500); err == nil {
			t.Errorf("%d decks accepted", bad)
		}
	}
	if _, err := odds.Count(odds.Shoe{5}); err == nil {
		t.Error("a shoe of 5 cards counted")
	}
}
