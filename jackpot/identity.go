package jackpot

import (
	"math/big"
	"math/bits"
)

// Identity is the accounting identity of a level's meters, or of the
// pools' totals, with both sides exact. It is computed here once for the
// pools' checks, the link controller's report and the inspector's readout.
//
//	Sources = SeedFunding + Contributions (+ TransferredIn)
//	Uses    = Awarded + Current + Reserve + Overflow (+ TransferredOut)
//
// A level's identity counts its transfers; the pools' total leaves them
// out, since over all levels transfers cancel (Pools.Check checks that).
type Identity struct{ Sources, Uses Sum }

// Identity computes the identity of m: withTransfers for one level,
// without for totals over every level.
func (m Meters) Identity(withTransfers bool) Identity {
	var id Identity
	id.Sources = id.Sources.add(m.SeedFunding).add(m.Contributions)
	id.Uses = id.Uses.add(m.Awarded).add(m.Current).add(m.Reserve).add(m.Overflow)
	if withTransfers {
		id.Sources = id.Sources.add(m.TransferredIn)
		id.Uses = id.Uses.add(m.TransferredOut)
	}
	return id
}

// Holds reports whether the two sides are equal.
func (id Identity) Holds() bool { return id.Sources == id.Uses }

// Plus is the identity of two sets of meters together.
func (id Identity) Plus(o Identity) Identity {
	return Identity{Sources: id.Sources.Plus(o.Sources), Uses: id.Uses.Plus(o.Uses)}
}

// Sum is an exact sum of int64 amounts, a 128-bit two's complement
// integer: a side of the identity adds up to five meters, which int64
// cannot hold, and a report read from a file may carry any values. It is
// a value (no allocation): the pools check a level's identity at every op.
type Sum struct {
	hi int64
	lo uint64
}

func (s Sum) add(x int64) Sum {
	lo, carry := bits.Add64(s.lo, uint64(x), 0)
	return Sum{hi: s.hi + x>>63 + int64(carry), lo: lo}
}

// Plus returns s + t.
func (s Sum) Plus(t Sum) Sum {
	lo, carry := bits.Add64(s.lo, t.lo, 0)
	return Sum{hi: s.hi + t.hi + int64(carry), lo: lo}
}

// Big returns the sum as a big.Int.
func (s Sum) Big() *big.Int {
	b := big.NewInt(s.hi)
	b.Lsh(b, 64)
	return b.Add(b, new(big.Int).SetUint64(s.lo))
}

// String is the sum in decimal (millicents, for the meters it adds).
func (s Sum) String() string { return s.Big().String() }
