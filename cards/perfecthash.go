package cards

import "math/bits"

// perfectHash maps a fixed set of 32-bit keys to their values, one slot per
// key, by hash and displace: key×mult's top bits choose a bucket, its next
// bits a slot, and the bucket's displacement (XORed into the slot) keeps
// the keys of every bucket on slots of their own.
type perfectHash struct {
	mult           uint64
	bShift, sShift uint
	mask           uint32
	disp           []uint16
	value          []HandValue
}

func (p *perfectHash) get(key uint32) HandValue {
	h := uint64(key) * p.mult
	return p.value[(uint32(h>>p.sShift)^uint32(p.disp[h>>p.bShift]))&p.mask]
}

// build sizes the table at the power of two above 4/3 of the keys, with a
// bucket per four slots, and tries multipliers until every bucket, largest
// first, finds a displacement (below 2^16) that lands its keys on free slots.
func (p *perfectHash) build(keys []uint32, vals []HandValue) {
	slotBits := uint(bits.Len(uint(len(keys) * 4 / 3)))
	bucketBits := slotBits - 2
	for mult := uint64(0x9e3779b97f4a7c15); ; mult += 0x4a8af3222e9bba3a {
		if p.try(mult|1, bucketBits, slotBits, keys, vals) {
			return
		}
	}
}

func (p *perfectHash) try(mult uint64, bucketBits, slotBits uint, keys []uint32, vals []HandValue) bool {
	nb, ns := 1<<bucketBits, 1<<slotBits
	*p = perfectHash{mult: mult, bShift: 64 - bucketBits, sShift: 64 - bucketBits - slotBits,
		mask: uint32(ns - 1), disp: make([]uint16, nb), value: make([]HandValue, ns)}
	buckets := make([][]int, nb)
	for i, k := range keys {
		b := (uint64(k) * mult) >> p.bShift
		buckets[b] = append(buckets[b], i)
	}
	bySize := make([][]int, 32) // buckets hold few keys: a counting sort
	for b, ks := range buckets {
		if len(ks) >= len(bySize) {
			return false
		}
		bySize[len(ks)] = append(bySize[len(ks)], b)
	}
	used := make([]bool, ns)
	for n := len(bySize) - 1; n >= 1; n-- {
		for _, b := range bySize[n] {
			slots := make([]uint32, 0, n)
			for _, i := range buckets[b] {
				s := uint32((uint64(keys[i])*mult)>>p.sShift) & p.mask
				for _, o := range slots {
					if o == s {
						return false // two keys of a bucket on one slot: no displacement parts them
					}
				}
				slots = append(slots, s)
			}
			d, ok := freeDisplacement(used, slots)
			if !ok {
				return false
			}
			for j, s := range slots {
				used[s^d] = true
				p.value[s^d] = vals[buckets[b][j]]
			}
			p.disp[b] = uint16(d)
		}
	}
	return true
}

func freeDisplacement(used []bool, slots []uint32) (uint32, bool) {
	for d := uint32(0); d < 1<<16 && int(d) < len(used); d++ {
		free := true
		for _, s := range slots {
			if used[s^d] {
				free = false
				break
			}
		}
		if free {
			return d, true
		}
	}
	return 0, false
}
