package reels

import (
	"math/big"
	"math/bits"
)

// u128 accumulates sums of squares over up to 2^62 stop combinations, which
// overflow 64 bits; math/big in the enumeration's inner loop would cost more
// than the evaluation itself.
type u128 struct{ hi, lo uint64 }

func (a *u128) add(x uint64) {
	var c uint64
	a.lo, c = bits.Add64(a.lo, x, 0)
	a.hi += c
}

func (a *u128) addMul(x, y uint64) {
	hi, lo := bits.Mul64(x, y)
	var c uint64
	a.lo, c = bits.Add64(a.lo, lo, 0)
	a.hi += hi + c
}

func (a *u128) addU128(b u128) {
	var c uint64
	a.lo, c = bits.Add64(a.lo, b.lo, 0)
	a.hi += b.hi + c
}

func (a u128) big() *big.Int {
	v := new(big.Int).SetUint64(a.hi)
	v.Lsh(v, 64)
	return v.Or(v, new(big.Int).SetUint64(a.lo))
}
