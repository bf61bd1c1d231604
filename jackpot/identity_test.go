package jackpot

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestIdentitySides: each side of the identity is the exact sum of its
// meters (checked against math/big), beyond int64 and with negative
// figures (a report read from a file may carry any), with and without the
// transfers.
func TestIdentitySides(t *testing.T) {
	edges := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, MaxAmount, -MaxAmount, 1 << 62, -(1 << 62)}
	r := rand.New(rand.NewPCG(13, 2))
	pick := func() int64 {
		if r.IntN(2) == 0 {
			return edges[r.IntN(len(edges))]
		}
		return int64(r.Uint64())
	}
	bigSum := func(xs ...int64) *big.Int {
		t := new(big.Int)
		for _, x := range xs {
			t.Add(t, big.NewInt(x))
		}
		return t
	}
	for range 20000 {
		m := Meters{SeedFunding: pick(), Contributions: pick(), TransferredIn: pick(), TransferredOut: pick(),
			Awarded: pick(), Current: pick(), Reserve: pick(), Overflow: pick()}
		for _, with := range []bool{true, false} {
			src := bigSum(m.SeedFunding, m.Contributions)
			use := bigSum(m.Awarded, m.Current, m.Reserve, m.Overflow)
			if with {
				src.Add(src, big.NewInt(m.TransferredIn))
				use.Add(use, big.NewInt(m.TransferredOut))
			}
			id := m.Identity(with)
			if id.Sources.Big().Cmp(src) != 0 || id.Uses.Big().Cmp(use) != 0 || id.Holds() != (src.Cmp(use) == 0) {
				t.Fatalf("%+v (transfers %v): sides %v, %v, want %v, %v", m, with, id.Sources, id.Uses, src, use)
			}
			if id.Sources.String() != src.String() {
				t.Fatalf("%v printed as %s", src, id.Sources)
			}
		}
	}
}

// TestIdentityHolds: a level that balances only with its transfers holds
// as a level and not as a total; identities add up across levels.
func TestIdentityHolds(t *testing.T) {
	a := Meters{SeedFunding: 100, Contributions: 50, TransferredIn: 30, Current: 180}
	b := Meters{SeedFunding: 100, Contributions: 20, TransferredOut: 30, Awarded: 70, Reserve: 20}
	if !a.Identity(true).Holds() || a.Identity(false).Holds() || !b.Identity(true).Holds() {
		t.Fatal("a level's identity counts its transfers")
	}
	if !a.Identity(false).Plus(b.Identity(false)).Holds() {
		t.Fatal("over both levels transfers cancel")
	}
	a.Current--
	if a.Identity(true).Holds() {
		t.Fatal("a millicent short holds")
	}
}
