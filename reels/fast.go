package reels

import (
	"encoding/binary"

	"github.com/openegm/cabinet/rng"
)

// The simulator's fast path. It pays a spin by the rules of eval.go, not by
// rules of its own: every line result comes from a table that linePay itself
// filled, and the scatter and free-game figures from scatterPay and gamesFor.
// What it adds is layout: the strips are padded so that a reel's rows are
// one 8-byte read with no modulo, each line's cells are packed indices into
// that window, the scatters a reel shows are counted per stop in advance,
// and a line is five table lookups that never branch on the symbols.
// TestFastEqualsEvaluate proves it equal to Evaluate (every stop of the
// small tables, random stops of the shipped games), TestFastTrieIsLinePay
// the table equal to linePay on every symbol tuple, and
// TestSimulateEqualsReference the simulator equal, game for game, to
// DrawStops and Evaluate on the locked generator.

// maxTrieLeaves bounds the line table's construction: it calls linePay
// once per symbol tuple (symbols^reels), about 40 ns each. A paytable
// beyond it is paid line by line through linePay, on the same flat layout.
const maxTrieLeaves = 1 << 22

// trieCell is one (row, symbol) entry of the line table. Walking a line
// from the root row, the symbol of reel i (i < reels-1) selects next, the
// row for reel i+1; on the last reel, pay is the line's result: the
// LinePays index, or -1. A row whose prefix already decides the line is
// absorbing: every next is the row itself and every pay its result, so a
// walk never branches on the symbols.
type trieCell struct {
	next uint32
	pay  int32
}

// fastSet is one strip set (base or free) laid out flat.
type fastSet struct {
	lens []uint64 // strip lengths, for the draw
	// ext holds every strip followed by its first rows-1 symbols again,
	// so row r of reel i stopped at s is ext[start[i]+s+r], no modulo; a
	// spin reads each reel's rows as one 8-byte word, so 8 bytes of
	// padding end it.
	ext   []uint8
	start []int32
	// scat[k][reelAt[i]+s] is how many cells of reel i stopped at s show
	// the scatter symbol scatSyms[k].
	scat   [][]uint8
	reelAt []int32
}

// fastEval is a paytable compiled for simulation. It is read-only once
// built, so workers share it.
type fastEval struct {
	p     *Paytable
	reels int
	nsym  int
	cells []trieCell // nil: pay lines through linePay
	rows  int
	// lines[l] packs line l's cells in a spin's window: byte i is
	// reel i's cell, winRow*i + row (see spin).
	lines    []uint64
	scatSyms []int
	trigger  int // index into scatSyms of the free-game trigger, -1 without free games
	sets     [2]fastSet
}

// fastLevel is what one spin pays, per line result and per scatter count,
// at one bet level on one strip set.
type fastLevel struct {
	set *fastSet
	// pays[pi+1] is the credits and progressive awards of line result pi
	// (-1, no pay, is index 0).
	pays []linePays
	// scatWin[k][c] is what c scatters of scatSyms[k] pay; games[c] the
	// free games that c trigger symbols award on this set.
	scatWin [][]int64
	games   []int
}

type linePays struct{ win, prog int64 }

// winRow is a reel's stride in a spin's window: rows are at most 5, reels
// at most 6, so every cell index fits in 6 bits.
const winRow = 8

func (p *Paytable) compileFast() *fastEval {
	f := &fastEval{p: p, reels: len(p.Reels), nsym: len(p.Symbols), rows: p.Rows, trigger: -1}
	for _, rows := range p.Lines {
		x := uint64(0)
		for i, r := range rows {
			x |= uint64(winRow*i+r) << (8 * i)
		}
		f.lines = append(f.lines, x)
	}
	for sym, s := range p.Symbols {
		if s.Kind == Scatter {
			if p.Free != nil && sym == p.Free.Symbol {
				f.trigger = len(f.scatSyms)
			}
			f.scatSyms = append(f.scatSyms, sym)
		}
	}
	f.sets[0] = f.layout(p.Reels)
	if p.Free != nil {
		f.sets[1] = f.layout(p.Free.Reels)
	}
	leaves := 1
	for range f.reels {
		leaves *= f.nsym
		if leaves > maxTrieLeaves {
			return f
		}
	}
	f.buildTrie()
	return f
}

func (f *fastEval) layout(strips [][]uint8) fastSet {
	p := f.p
	fs := fastSet{reelAt: make([]int32, len(strips)), start: make([]int32, len(strips))}
	at := int32(0)
	for i, strip := range strips {
		fs.lens = append(fs.lens, uint64(len(strip)))
		fs.start[i] = int32(len(fs.ext))
		for j := range len(strip) + p.Rows - 1 {
			fs.ext = append(fs.ext, strip[j%len(strip)])
		}
		fs.reelAt[i] = at
		at += int32(len(strip))
	}
	fs.ext = append(fs.ext, make([]uint8, winRow)...)
	for _, sym := range f.scatSyms {
		cnt := make([]uint8, 0, at)
		for _, strip := range strips {
			for s := range strip {
				c := uint8(0)
				for r := range p.Rows {
					if int(strip[(s+r)%len(strip)]) == sym {
						c++
					}
				}
				cnt = append(cnt, c)
			}
		}
		fs.scat = append(fs.scat, cnt)
	}
	return fs
}

// buildTrie fills the line table from linePay over every symbol tuple,
// sharing identical rows, so the table holds linePay's answers and nothing
// else.
func (f *fastEval) buildTrie() {
	n, S := f.reels, f.nsym
	rows := map[string]uint32{}
	absorbing := map[int32]uint32{}
	key := make([]byte, 8*S)
	addRow := func(row []trieCell) uint32 {
		for s, c := range row {
			binary.LittleEndian.PutUint32(key[8*s:], c.next)
			binary.LittleEndian.PutUint32(key[8*s+4:], uint32(c.pay))
		}
		if off, ok := rows[string(key)]; ok {
			return off
		}
		off := uint32(len(f.cells))
		f.cells = append(f.cells, row...)
		rows[string(key)] = off
		return off
	}
	absorb := func(pay int32) uint32 {
		if off, ok := absorbing[pay]; ok {
			return off
		}
		off := uint32(len(f.cells))
		for range S {
			f.cells = append(f.cells, trieCell{next: off, pay: pay})
		}
		absorbing[pay] = off
		return off
	}
	line := make([]uint8, n)
	// build returns the row for the prefix line[:d], and whether it is
	// decided with result pay.
	var build func(d int) (off uint32, decided bool, pay int32)
	build = func(d int) (uint32, bool, int32) {
		row := make([]trieCell, S)
		same, first := true, int32(0)
		for s := range S {
			line[d] = uint8(s)
			var dec bool
			var pay int32
			if d == n-1 {
				dec, pay = true, int32(f.p.linePay(line))
				row[s].pay = pay
			} else {
				row[s].next, dec, pay = build(d + 1)
			}
			if s == 0 {
				first = pay
			}
			same = same && dec && pay == first
		}
		if same {
			return absorb(first), true, first
		}
		return addRow(row), false, 0
	}
	root, _, _ := build(0)
	if root != 0 {
		// The walk starts at offset 0: move the root there by swapping
		// it with row 0 and fixing every pointer to either.
		for i := range f.cells {
			switch f.cells[i].next {
			case 0:
				f.cells[i].next = root
			case root:
				f.cells[i].next = 0
			}
		}
		for s := range S {
			f.cells[s], f.cells[int(root)+s] = f.cells[int(root)+s], f.cells[s]
		}
	}
}

// level compiles the pays of one bet level on the base (free false) or
// free-game strips: line pays through LinePays, scatter pays through
// scatterPay and awards through gamesFor, exactly as evaluate applies them.
func (f *fastEval) level(level int, free bool) *fastLevel {
	p := f.p
	cpl := p.CreditsPerLine[level]
	mult := int64(1)
	set := &f.sets[0]
	if free {
		mult = p.Free.Multiplier
		set = &f.sets[1]
	}
	top := level == p.TopLevel()
	fl := &fastLevel{set: set, pays: make([]linePays, len(p.LinePays)+1)}
	for pi, lp := range p.LinePays {
		if top && lp.Progressive > 0 {
			fl.pays[pi+1].prog = 1
		} else {
			fl.pays[pi+1].win = lp.Pays * cpl * mult
		}
	}
	cells := f.reels * p.Rows
	bet := p.Bet(level)
	for _, sym := range f.scatSyms {
		w := make([]int64, cells+1)
		for c := 1; c <= cells; c++ {
			if pays, entry := p.scatterPay(sym, c); entry >= 0 {
				w[c] = pays * bet * mult
			}
		}
		fl.scatWin = append(fl.scatWin, w)
	}
	fl.games = make([]int, cells+1)
	if p.Free != nil && (!free || p.Free.Retrigger) {
		for c := range fl.games {
			fl.games[c] = p.Free.gamesFor(c)
		}
	}
	return fl
}

// draw draws one stop per reel of the set into stops, in reel order with
// Uint64n, as DrawStops does.
func (fl *fastLevel) draw(src *rng.Stream, stops []uint64) {
	src.Uint64nEach(stops, fl.set.lens)
}

// spin pays stops (already valid for the set): the credits won, the
// progressive awards and the free games awarded. When lines is not nil it
// also receives each line's result (a LinePays index or -1).
func (f *fastEval) spin(fl *fastLevel, stops []uint64, lines []int32) (win, prog int64, awarded int) {
	set := fl.set
	n := f.reels
	// The window: w[winRow*i+r] is row r of reel i (bytes past the rows
	// are the strip's next symbols, which no line reads).
	var w [64]uint8
	ext := set.ext
	for i, st := range set.start[:n] {
		binary.LittleEndian.PutUint64(w[(winRow*i)&63:], binary.LittleEndian.Uint64(ext[uint64(st)+stops[i]:]))
	}
	pays := fl.pays
	switch {
	case f.cells != nil && n == 5:
		cells := f.cells
		for l, x := range f.lines {
			e := cells[w[x&63]].next
			e = cells[e+uint32(w[(x>>8)&63])].next
			e = cells[e+uint32(w[(x>>16)&63])].next
			e = cells[e+uint32(w[(x>>24)&63])].next
			pi := cells[e+uint32(w[(x>>32)&63])].pay
			pw := pays[pi+1]
			win += pw.win
			prog += pw.prog
			if lines != nil {
				lines[l] = pi
			}
		}
	case f.cells != nil:
		cells := f.cells
		for l, x := range f.lines {
			e := uint32(0)
			for range n - 1 {
				e = cells[e+uint32(w[x&63])].next
				x >>= 8
			}
			pi := cells[e+uint32(w[x&63])].pay
			pw := pays[pi+1]
			win += pw.win
			prog += pw.prog
			if lines != nil {
				lines[l] = pi
			}
		}
	default:
		var syms [maxReels]uint8
		line := syms[:n]
		for l, x := range f.lines {
			for i := range line {
				line[i] = w[(x>>(8*i))&63]
			}
			pi := f.p.linePay(line)
			pw := pays[pi+1]
			win += pw.win
			prog += pw.prog
			if lines != nil {
				lines[l] = int32(pi)
			}
		}
	}
	for k, cnt := range set.scat {
		c := 0
		for i, r := range set.reelAt {
			c += int(cnt[uint64(r)+stops[i]])
		}
		win += fl.scatWin[k][c]
		if k == f.trigger {
			awarded = fl.games[c]
		}
	}
	return win, prog, awarded
}
