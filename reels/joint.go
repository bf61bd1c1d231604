package reels

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// jointStats are sums over every stop combination of one strip set. Wins are
// in units: credits at one credit per line without the free-game multiplier
// (a line pays its pays, a scatter pays × number of lines), so the win per
// unit of total bet is units / len(Lines). Index 0 holds the figures at the
// ordinary bet levels, index 1 at the top level, where progressive
// combinations pay a jackpot level instead of credits.
type jointStats struct {
	cycle uint64
	hits  uint64 // combinations that pay anything or award free games
	sumW  [2]u128
	sumW2 [2]u128
	sumWT [2]u128 // Σ W·T, T = free games awarded
	maxW  [2]uint64
	sumT  u128
	sumTT u128 // Σ T(T−1)
}

func (a *jointStats) merge(b *jointStats) {
	a.hits += b.hits
	for v := range 2 {
		a.sumW[v].addU128(b.sumW[v])
		a.sumW2[v].addU128(b.sumW2[v])
		a.sumWT[v].addU128(b.sumWT[v])
		a.maxW[v] = max(a.maxW[v], b.maxW[v])
	}
	a.sumT.addU128(b.sumT)
	a.sumTT.addU128(b.sumTT)
}

// maxTable bounds the line table (one int32 per symbol tuple, per variant);
// beyond it the enumeration calls linePay per line and prefix instead.
const maxTable = 1 << 24

// enumerator holds what every worker shares for one strip set. The line pay
// of a symbol tuple is looked up in a table filled by linePay, the one
// definition of line pays, so the fast path cannot drift from the game.
type enumerator struct {
	p      *Paytable
	strips [][]uint8
	n, R   int
	alpha  [][]uint8  // distinct symbols of each reel, by code
	cell   [][]int32  // cell[i][s*R+r]: code of the symbol at row r, stop s, times the reel's stride
	sym    [][]uint8  // sym[i][s*R+r]: the symbol itself (fallback path)
	tbl    [2][]int32 // pay units by tuple index; nil when the tuple space is too large
	// Per run of the table over the last reel's symbols (index base/A):
	// constRow says the first reels already decide the pay, progRow that the
	// run holds a progressive combination (top level differs).
	constRow, progRow []bool
	hasTop            bool      // some line combination is progressive: the top level differs
	scat              []uint8   // scatter symbols that pay or trigger
	scatN             [][]uint8 // scatN[i][s*S+k]: cells of scat[k] shown by reel i at stop s
	spay              [][]int64 // spay[k][c]: units paid for c cells of scat[k]
	trig              int       // index in scat of the free-game trigger, -1 for none
	games             []uint64  // games[c]: free games for c trigger cells

	// The last reel, per stop: off[s*R+r] is r*A + the code of the symbol at
	// row r (where acc is read), sig[s] the stop's scatter signature (how many
	// cells of each scatter symbol it shows), and sigCells[sig*S+k] those counts.
	off      []int32
	sig      []uint16
	sigCells []uint8
	nsig     int
}

func (p *Paytable) newEnumerator(strips [][]uint8) *enumerator {
	e := &enumerator{p: p, strips: strips, n: len(strips), R: p.Rows, trig: -1}
	for _, lp := range p.LinePays {
		if lp.Progressive > 0 {
			e.hasTop = true
		}
	}
	// Codes number the symbols each reel carries, so the tuple space is the
	// product of distinct symbols per reel; the last reel gets stride 1 so one
	// prefix reads a contiguous run of the table.
	code := make([][]int32, e.n)
	stride := make([]int64, e.n)
	e.alpha = make([][]uint8, e.n)
	size := int64(1)
	for i := e.n - 1; i >= 0; i-- {
		code[i] = make([]int32, len(p.Symbols))
		seen := make([]bool, len(p.Symbols))
		for _, s := range strips[i] {
			seen[s] = true
		}
		for s, ok := range seen {
			if ok {
				code[i][s] = int32(len(e.alpha[i]))
				e.alpha[i] = append(e.alpha[i], uint8(s))
			}
		}
		stride[i] = size
		if size <= maxTable {
			size *= int64(len(e.alpha[i]))
		}
	}
	e.cell = make([][]int32, e.n)
	e.sym = make([][]uint8, e.n)
	for i, strip := range strips {
		L := len(strip)
		e.cell[i] = make([]int32, L*e.R)
		e.sym[i] = make([]uint8, L*e.R)
		for s := range L {
			for r := range e.R {
				sym := strip[(s+r)%L]
				e.sym[i][s*e.R+r] = sym
				if size <= maxTable {
					e.cell[i][s*e.R+r] = code[i][sym] * int32(stride[i])
				}
			}
		}
	}
	if size <= maxTable {
		e.fillTable(int(size), stride)
	}

	cells := e.n*e.R + 1
	for sym, s := range p.Symbols {
		if s.Kind != Scatter {
			continue
		}
		pays := make([]int64, cells)
		any := false
		for c := range cells {
			if v, entry := p.scatterPay(sym, c); entry >= 0 {
				pays[c] = v * int64(len(p.Lines))
				any = true
			}
		}
		isTrig := p.Free != nil && p.Free.Symbol == sym
		if !any && !isTrig {
			continue
		}
		if isTrig {
			e.trig = len(e.scat)
			e.games = make([]uint64, cells)
			for c := range cells {
				e.games[c] = uint64(p.Free.gamesFor(c))
			}
		}
		e.scat = append(e.scat, uint8(sym))
		e.spay = append(e.spay, pays)
	}
	S := len(e.scat)
	last := e.n - 1
	A := len(e.alpha[last])
	L := len(strips[last])
	e.off = make([]int32, L*e.R)
	for st := range L {
		for r := range e.R {
			e.off[st*e.R+r] = int32(r*A + indexOf(e.alpha[last], e.sym[last][st*e.R+r]))
		}
	}
	e.scatN = make([][]uint8, e.n)
	for i, strip := range strips {
		L := len(strip)
		e.scatN[i] = make([]uint8, L*S)
		for s := range L {
			for r := range e.R {
				for k, sym := range e.scat {
					if strip[(s+r)%L] == sym {
						e.scatN[i][s*S+k]++
					}
				}
			}
		}
	}
	sigOf := map[string]int{}
	e.sig = make([]uint16, L)
	for st := range L {
		cells := e.scatN[last][st*S : st*S+S]
		id, ok := sigOf[string(cells)]
		if !ok {
			id = len(sigOf)
			sigOf[string(cells)] = id
			e.sigCells = append(e.sigCells, cells...)
		}
		e.sig[st] = uint16(id)
	}
	e.nsig = len(sigOf)
	return e
}

// fillTable evaluates linePay once per symbol tuple.
func (e *enumerator) fillTable(size int, stride []int64) {
	p := e.p
	e.tbl[0] = make([]int32, size)
	if e.hasTop {
		e.tbl[1] = make([]int32, size)
	} else {
		e.tbl[1] = e.tbl[0]
	}
	syms := make([]uint8, e.n)
	for idx := range size {
		rest := int64(idx)
		for i := range e.n {
			syms[i] = e.alpha[i][rest/stride[i]]
			rest %= stride[i]
		}
		pi := p.linePay(syms)
		if pi < 0 {
			continue
		}
		lp := p.LinePays[pi]
		e.tbl[0][idx] = int32(lp.Pays)
		if e.hasTop && lp.Progressive == 0 {
			e.tbl[1][idx] = int32(lp.Pays)
		}
	}
	A := len(e.alpha[e.n-1])
	e.constRow = make([]bool, size/A)
	e.progRow = make([]bool, size/A)
	for row := range e.constRow {
		run0, run1 := e.tbl[0][row*A:row*A+A], e.tbl[1][row*A:row*A+A]
		e.constRow[row] = true
		for a := range A {
			if run0[a] != run0[0] || run1[a] != run1[0] {
				e.constRow[row] = false
			}
			if run0[a] != run1[a] {
				e.progRow[row] = true
			}
		}
	}
}

// walker is one worker's state: per-depth partial tuple indices and scatter
// counts, allocated once, so visiting a combination allocates nothing.
type walker struct {
	e    *enumerator
	part [][]int32 // part[d][line]: tuple index of the reels before d
	syms [][]uint8 // syms[line][reel]: symbols, for the no-table path
	sc   [][]uint8 // sc[d][k]: cells of scat[k] on the reels before d
	acc  [2][]int64
	// Per prefix: what each scatter signature of the last reel pays and awards.
	sigPay   []int64
	sigGames []uint64
	stats    jointStats
}

func (e *enumerator) newWalker() *walker {
	nl := len(e.p.Lines)
	w := &walker{e: e}
	w.part = make([][]int32, e.n)
	w.sc = make([][]uint8, e.n)
	for d := range e.n {
		w.part[d] = make([]int32, nl)
		w.sc[d] = make([]uint8, len(e.scat))
	}
	w.syms = make([][]uint8, nl)
	for j := range w.syms {
		w.syms[j] = make([]uint8, e.n)
	}
	A := len(e.alpha[e.n-1])
	w.acc[0] = make([]int64, e.R*A)
	w.acc[1] = make([]int64, e.R*A)
	w.sigPay = make([]int64, e.nsig)
	w.sigGames = make([]uint64, e.nsig)
	return w
}

// reel fixes reel d at stop s and descends.
func (w *walker) reel(d, s int) {
	e := w.e
	lines := e.p.Lines
	cell := e.cell[d][s*e.R:]
	cur, next := w.part[d], w.part[d+1]
	for j, line := range lines {
		next[j] = cur[j] + cell[line[d]]
		w.syms[j][d] = e.sym[d][s*e.R+line[d]]
	}
	S := len(e.scat)
	for k := range S {
		w.sc[d+1][k] = w.sc[d][k] + e.scatN[d][s*S+k]
	}
	if d+1 == e.n-1 {
		w.last()
		return
	}
	for s2 := range e.strips[d+1] {
		w.reel(d+1, s2)
	}
}

// last folds the lines into per-row tables for the last reel — acc[r][a] is
// what all lines through row r pay if that row shows symbol a — so a stop of
// the last reel costs one lookup per row instead of one evaluation per line.
// A line already decided by the first reels (its table row is constant) adds
// to a constant instead, and the top-level variant is computed only where a
// progressive combination is still possible.
func (w *walker) last() {
	e := w.e
	p := e.p
	d := e.n - 1
	alpha := e.alpha[d]
	A := len(alpha)
	part := w.part[d]
	var konst [2]int64
	twoVariants := e.tbl[0] == nil && e.hasTop
	if e.tbl[0] != nil && e.hasTop {
		for j := range p.Lines {
			if e.progRow[int(part[j])/A] {
				twoVariants = true
				break
			}
		}
	}
	clear(w.acc[0])
	if twoVariants {
		clear(w.acc[1])
	}
	for j, line := range p.Lines {
		off := line[d] * A
		if e.tbl[0] != nil {
			base := int(part[j])
			if e.constRow[base/A] {
				konst[0] += int64(e.tbl[0][base])
				konst[1] += int64(e.tbl[1][base])
				continue
			}
			for v := range 1 + b2i(twoVariants) {
				row := e.tbl[v][base : base+A]
				acc := w.acc[v][off : off+A]
				for a, pay := range row {
					acc[a] += int64(pay)
				}
			}
			continue
		}
		syms := w.syms[j]
		for a, sym := range alpha {
			syms[d] = sym
			if pi := p.linePay(syms); pi >= 0 {
				lp := p.LinePays[pi]
				w.acc[0][off+a] += lp.Pays
				if twoVariants && lp.Progressive == 0 {
					w.acc[1][off+a] += lp.Pays
				}
			}
		}
	}

	R, S := e.R, len(e.scat)
	prefSc := w.sc[d]
	for g := range e.nsig {
		var pay int64
		var games uint64
		for k := range S {
			c := prefSc[k] + e.sigCells[g*S+k]
			pay += e.spay[k][c]
			if k == e.trig {
				games = e.games[c]
			}
		}
		w.sigPay[g], w.sigGames[g] = pay, games
	}
	var loc [2]moment
	for s, g := range e.sig {
		games := w.sigGames[g]
		offs := e.off[s*R : s*R+R]
		acc := w.acc[0]
		x := konst[0] + w.sigPay[g]
		for _, o := range offs {
			x += acc[o]
		}
		// Branch-free "pays or awards games": the sign bit of -(x|games).
		nz := uint64(x) | games
		loc[0].hits += (nz | -nz) >> 63
		loc[0].add(uint64(x), games)
		if twoVariants {
			acc = w.acc[1]
			x = konst[1] + w.sigPay[g]
			for _, o := range offs {
				x += acc[o]
			}
			loc[1].add(uint64(x), games)
		}
	}
	if !twoVariants {
		loc[1] = loc[0] // no progressive possible here: the top level pays the same
	}
	w.stats.addMoments(&loc)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// moment is one variant's sums over the stops of the last reel.
type moment struct {
	hits, sumT, sumTT  uint64
	sumW, sumW2, sumWT u128
	maxW               uint64
}

func (m *moment) add(x, games uint64) {
	m.sumW.add(x)
	m.sumW2.addMul(x, x)
	m.maxW = max(m.maxW, x)
	if games > 0 {
		m.sumWT.addMul(x, games)
		m.sumT += games
		m.sumTT += games * (games - 1)
	}
}

func (st *jointStats) addMoments(loc *[2]moment) {
	st.hits += loc[0].hits
	st.sumT.add(loc[0].sumT)
	st.sumTT.add(loc[0].sumTT)
	for v := range 2 {
		st.sumW[v].addU128(loc[v].sumW)
		st.sumW2[v].addU128(loc[v].sumW2)
		st.sumWT[v].addU128(loc[v].sumWT)
		st.maxW[v] = max(st.maxW[v], loc[v].maxW)
	}
}

func indexOf(alpha []uint8, sym uint8) int {
	for i, s := range alpha {
		if s == sym {
			return i
		}
	}
	return -1
}

// enumerate visits every stop combination of a strip set on all cores, split
// by the first reel's stops.
func (p *Paytable) enumerate(strips [][]uint8, workers int) *jointStats {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	e := p.newEnumerator(strips)
	var next atomic.Int64
	results := make([]*jointStats, workers)
	var wg sync.WaitGroup
	for wi := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := e.newWalker()
			for {
				s := int(next.Add(1) - 1)
				if s >= len(strips[0]) {
					break
				}
				w.reel(0, s)
			}
			results[wi] = &w.stats
		}()
	}
	wg.Wait()
	total := &jointStats{cycle: cycleOf(strips)}
	for _, r := range results {
		total.merge(r)
	}
	return total
}
