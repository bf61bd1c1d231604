package aft

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"

	"golang.org/x/crypto/blake2b"
)

// IDSet is a set of transaction IDs kept as their 64-bit BLAKE2b digests
// (BLAKE2b with an 8-byte output, unkeyed): 8 bytes an ID, whatever its
// length. Two IDs may share a digest: the set then says an ID it never
// held is in it. The set only ever refuses with that answer (a transfer
// under the ID is refused as not unique), never credits twice; among n
// IDs held, a new ID is taken for one of them with probability at most
// n/2^64 (5.4·10^-14 at a million), and over a million transfers some
// refusal happens so with probability at most n²/2^65 (2.7·10^-8). The
// digest is not secret, so a host could choose two IDs of one digest (about
// 2^32 tries): it would only have its own second transfer refused.
//
// The set is persistent: With returns a new set and leaves the receiver
// as it was, so a copy of a State (the ledger's fold copies it for
// every AFT record) costs a few words and shares the digests. Inside, the
// digests are in sorted runs that are never changed once made, of
// strictly decreasing lengths (a binary counter: adding an ID merges
// the runs of equal or smaller length), so an addition costs O(log n)
// amortised and a lookup a binary search in each of at most log2(n)+1
// runs.
//
// Its JSON encoding is canonical: one string, the base64 of every
// digest big-endian in increasing order, whatever the runs. The zero set
// (IsZero) is left out of the sealed state; a set that is Kept is not,
// even empty (""), so that a state a build without the set sealed (no
// key) is told from one of a build that keeps it and has nothing in it
// yet (see State.Retired).
type IDSet struct {
	runs [][]uint64 // sorted, strictly increasing; never written after made
	n    int
	kept bool
}

// IDDigest is the digest an IDSet keeps of a transaction ID.
func IDDigest(id string) uint64 {
	h, err := blake2b.New(8, nil)
	if err != nil {
		panic(err) // 8 is a valid size and no key: cannot fail
	}
	h.Write([]byte(id))
	return binary.BigEndian.Uint64(h.Sum(nil))
}

// Len is the number of digests held.
func (s IDSet) Len() int { return s.n }

// IsZero reports whether the set is neither kept nor holds anything
// (encoding/json's omitzero).
func (s IDSet) IsZero() bool { return !s.kept && s.n == 0 }

// Kept reports whether the set is kept (Keep, or any ID added, or read
// from an encoding).
func (s IDSet) Kept() bool { return s.kept || s.n > 0 }

// Keep returns the set marked kept: encoded even while empty.
func (s IDSet) Keep() IDSet { s.kept = true; return s }

// Has reports whether id's digest is in the set.
func (s IDSet) Has(id string) bool { return s.has(IDDigest(id)) }

func (s IDSet) has(d uint64) bool {
	for _, r := range s.runs {
		if _, ok := slices.BinarySearch(r, d); ok {
			return true
		}
	}
	return false
}

// With returns the set with id's digest added (s itself when it is in
// it already). s is unchanged.
func (s IDSet) With(id string) IDSet { return s.with(IDDigest(id)) }

func (s IDSet) with(d uint64) IDSet {
	if s.has(d) {
		return s
	}
	cur := []uint64{d}
	k := len(s.runs)
	for k > 0 && len(s.runs[k-1]) <= len(cur) {
		cur = merge(s.runs[k-1], cur)
		k--
	}
	runs := make([][]uint64, k, k+1)
	copy(runs, s.runs[:k])
	return IDSet{runs: append(runs, cur), n: s.n + 1, kept: true}
}

// merge returns the sorted union of two sorted runs without common
// elements, in a new slice.
func merge(a, b []uint64) []uint64 {
	out := make([]uint64, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0] < b[0] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// sorted returns every digest in increasing order.
func (s IDSet) sorted() []uint64 {
	var all []uint64
	for i := len(s.runs) - 1; i >= 0; i-- { // smallest first: each digest is copied about twice
		all = merge(all, s.runs[i])
	}
	return all
}

// MarshalJSON encodes the set as one base64 string of its digests,
// big-endian, in increasing order.
func (s IDSet) MarshalJSON() ([]byte, error) {
	all := s.sorted()
	raw := make([]byte, 0, 8*len(all))
	for _, d := range all {
		raw = binary.BigEndian.AppendUint64(raw, d)
	}
	// Base64 needs no JSON escape: the string is written as it is.
	out := make([]byte, base64.StdEncoding.EncodedLen(len(raw))+2)
	out[0], out[len(out)-1] = '"', '"'
	base64.StdEncoding.Encode(out[1:len(out)-1], raw)
	return out, nil
}

// UnmarshalJSON reads what MarshalJSON wrote: digests in strictly
// increasing order, so that a set has one encoding.
func (s *IDSet) UnmarshalJSON(data []byte) error {
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return fmt.Errorf("aft: transaction ID set: not a JSON string of base64")
	}
	// A JSON escape is no base64 character: the decoder refuses it.
	text := data[1 : len(data)-1]
	b := make([]byte, base64.StdEncoding.DecodedLen(len(text)))
	nb, err := base64.StdEncoding.Decode(b, text)
	if err != nil {
		return fmt.Errorf("aft: transaction ID set: %w", err)
	}
	b = b[:nb]
	if len(b)%8 != 0 {
		return fmt.Errorf("aft: transaction ID set of %d bytes, not a multiple of 8", len(b))
	}
	all := make([]uint64, len(b)/8)
	for i := range all {
		all[i] = binary.BigEndian.Uint64(b[8*i:])
		if i > 0 && all[i] <= all[i-1] {
			return fmt.Errorf("aft: transaction ID set: digest %d of %d not above the one before it", i, len(all))
		}
	}
	*s = IDSet{n: len(all), kept: true}
	if len(all) > 0 {
		s.runs = [][]uint64{all}
	}
	return nil
}
