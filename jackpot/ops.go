package jackpot

import (
	"fmt"
	"math"
)

// Op is one of the operation records AddLevel, Contribute, Hit, Award,
// Transfer and Fund (values, not pointers). Every op carries what Apply needs
// and nothing Apply would have to look up elsewhere, so the ledger can log it
// (MarshalOp) and replay it.
type Op interface {
	opTag() byte
}

// AddLevel creates a level and seeds it to its reset value (seed funding).
type AddLevel struct {
	Level  string
	Config Config
	Target int64 // mystery: the first hit value, from DrawTarget; otherwise 0
	Who    string
	At     int64
}

// Contribute adds the contributions of one game's qualifying bet to the
// listed levels (each at most once), atomically. On a mystery level whose
// target it reaches, it registers the hit for Where/Game (see Result.Claims).
type Contribute struct {
	Levels []string
	Bet    int64  // cents, 1..MaxBet
	Where  string // machine identifier
	Game   uint64 // game number on that machine
	At     int64
}

// Hit registers a paytable hit on a level, pending confirmation by Award.
type Hit struct {
	Level string
	Bet   int64 // cents; at least the level's MinHitBet
	Where string
	Game  uint64
	At    int64
}

// Award confirms the pending hit(s) of a level: it pays them under the
// level's SecondHit rule, records them in the history and resets the level.
//
// Amounts, when not nil, are what each pending claim is paid instead, in
// claim order (millicents, whole cents): the amount a machine already paid
// from the value it showed (a SAS progressive paid at the machine), or the
// rule's amount held to what the machine showed (RuleAmounts gives the
// rule's). The level's value less what they take goes to its reserve; what
// they take beyond the value comes from the reserve and the overflow, then
// from the operator (seed funding). Under SecondHitWinsReset each claim is
// paid from the value left by the one before (the reset value after the
// first), under SplitAmount all from the one value.
type Award struct {
	Level   string
	Target  int64 // mystery: the next hit value, from DrawTarget; otherwise 0
	Amounts []int64
	At      int64
}

// Transfer moves value that cannot be awarded from one level to another
// (regulation rule 6). Either All (every millicent of the source's current,
// reserve and overflow) or the given amounts of each. Close (with All only)
// closes the source for good. Neither level may have pending hits.
type Transfer struct {
	From, To                   string
	Current, Reserve, Overflow int64 // millicents, when not All
	All                        bool
	Close                      bool
	Who, Why                   string // both required
	At                         int64
}

// Fund puts operator money into a level's reserve (seed funding).
type Fund struct {
	Level    string
	Amount   int64 // millicents, whole cents, > 0
	Who, Why string
	At       int64
}

const (
	tagAddLevel   byte = 1
	tagContribute byte = 2
	tagHit        byte = 3
	tagAward      byte = 4
	tagTransfer   byte = 5
	tagFund       byte = 6
	// tagAwardAmounts is an Award with Amounts: a tag of its own keeps the
	// encoding of a plain Award unchanged.
	tagAwardAmounts byte = 7
)

func (AddLevel) opTag() byte   { return tagAddLevel }
func (Contribute) opTag() byte { return tagContribute }
func (Hit) opTag() byte        { return tagHit }
func (Award) opTag() byte      { return tagAward }
func (Transfer) opTag() byte   { return tagTransfer }
func (Fund) opTag() byte       { return tagFund }

// Result is what an op changed.
type Result struct {
	Seq     uint64          // this op's sequence number (Pools.Seq after it)
	Changes []Change        // the levels the op touched, meters before and after
	Claims  []LevelClaim    // hits registered (Hit, or mystery levels reached by Contribute)
	Paid    []Payment       // awards paid (Award), in claim order
	Moved   *TransferRecord // the transfer (Transfer)
}

// Change is one level's meters before and after an op.
type Change struct {
	Level         string
	Before, After Meters
}

// LevelClaim is a hit registered on a level.
type LevelClaim struct {
	Level string
	Claim
}

// Payment is one award paid on a level.
type Payment struct {
	Level string
	HitRecord
}

// Apply applies op. On error nothing changes.
func (p *Pools) Apply(op Op) (Result, error) {
	if p.seq == math.MaxUint64 {
		return Result{}, fmt.Errorf("jackpot: op sequence number: %w", ErrOverflow)
	}
	var (
		r   Result
		err error
	)
	switch o := op.(type) {
	case AddLevel:
		r, err = p.addLevel(o)
	case Contribute:
		r, err = p.contribute(o)
	case Hit:
		r, err = p.hit(o)
	case Award:
		r, err = p.award(o)
	case Transfer:
		r, err = p.transfer(o)
	case Fund:
		r, err = p.fund(o)
	default:
		return Result{}, fmt.Errorf("jackpot: %w: unsupported op %T (ops are values, not pointers)", ErrInvalid, op)
	}
	if err != nil {
		return Result{}, err
	}
	p.seq++
	r.Seq = p.seq
	return r, nil
}

// opErr names the op and level in an error.
func opErr(op, id string, err error) error {
	return fmt.Errorf("jackpot: %s level %q: %w", op, id, err)
}

// open returns a working copy of level id, refusing unknown and closed ones.
func (p *Pools) open(id string) (int, level, error) {
	i, ok := p.find(id)
	if !ok {
		return 0, level{}, ErrUnknownLevel
	}
	l := *p.levels[i]
	if l.closed {
		return 0, level{}, ErrClosed
	}
	return i, l, nil
}

func (p *Pools) addLevel(o AddLevel) (Result, error) {
	fail := func(err error) (Result, error) { return Result{}, opErr("add", o.Level, err) }
	if err := checkText("level id", o.Level, maxIDLen, true); err != nil {
		return fail(err)
	}
	if _, ok := p.find(o.Level); ok {
		return fail(ErrLevelExists)
	}
	if len(p.levels) >= MaxLevels {
		return fail(fmt.Errorf("%w: already %d levels", ErrInvalid, MaxLevels))
	}
	if err := o.Config.Validate(); err != nil {
		return fail(err)
	}
	if err := o.Config.checkTarget(o.Target); err != nil {
		return fail(err)
	}
	if err := checkText("who", o.Who, maxWhoLen, true); err != nil {
		return fail(err)
	}
	l := &level{id: o.Level, cfg: o.Config, target: o.Target}
	l.m.SeedFunding = o.Config.ResetValue
	l.m.Current = o.Config.ResetValue
	if err := checkLevel(l); err != nil {
		return fail(err)
	}
	if p.index == nil {
		p.index = make(map[string]int)
	}
	p.index[l.id] = len(p.levels)
	p.levels = append(p.levels, l)
	return Result{Changes: []Change{{Level: l.id, After: l.m}}}, nil
}

func (p *Pools) contribute(o Contribute) (Result, error) {
	fail := func(id string, err error) (Result, error) { return Result{}, opErr("contribute to", id, err) }
	if len(o.Levels) == 0 || len(o.Levels) > MaxLevels {
		return fail("", fmt.Errorf("%w: %d levels named", ErrInvalid, len(o.Levels)))
	}
	if o.Bet <= 0 || o.Bet > MaxBet {
		return fail(o.Levels[0], fmt.Errorf("%w: bet %d cents: want 1..%d", ErrInvalid, o.Bet, MaxBet))
	}
	if err := checkText("where", o.Where, maxIDLen, true); err != nil {
		return fail(o.Levels[0], err)
	}
	idx := make([]int, len(o.Levels))
	work := make([]level, len(o.Levels))
	for k, id := range o.Levels {
		i, l, err := p.open(id)
		if err != nil {
			return fail(id, err)
		}
		for _, j := range idx[:k] {
			if j == i {
				return fail(id, fmt.Errorf("%w: named twice", ErrInvalid))
			}
		}
		idx[k], work[k] = i, l
	}
	r := Result{Changes: make([]Change, len(work))}
	for k := range work {
		l := &work[k]
		before := l.m
		triggered, err := l.contribute(o.Bet)
		if err != nil {
			return fail(l.id, err)
		}
		if triggered {
			c := Claim{At: o.At, Where: o.Where, Game: o.Game, Bet: o.Bet, Mystery: true}
			l.claims = []Claim{c}
			r.Claims = append(r.Claims, LevelClaim{Level: l.id, Claim: c})
		}
		if err := checkLevel(l); err != nil {
			return fail(l.id, err)
		}
		r.Changes[k] = Change{Level: l.id, Before: before, After: l.m}
	}
	for k, i := range idx {
		*p.levels[i] = work[k]
	}
	return r, nil
}

// contribute adds one bet's contributions to l and reports whether it
// reached a mystery target.
func (l *level) contribute(bet int64) (triggered bool, err error) {
	// bet <= MaxBet and rates <= PPM: bet*rate + carry < 2^63.
	n := bet*l.cfg.Rate + l.carryMain
	main := n / carryModulo
	l.carryMain = n % carryModulo
	n = bet*l.cfg.HiddenRate + l.carryHidden
	hidden := n / carryModulo
	l.carryHidden = n % carryModulo

	var ov overflowFlag
	m := &l.m
	m.QualifyingBets = ov.add(m.QualifyingBets, bet)
	m.Contributions = ov.add(m.Contributions, main+hidden)
	m.HiddenContributions = ov.add(m.HiddenContributions, hidden)
	m.Reserve = ov.add(m.Reserve, hidden)
	switch {
	case len(l.claims) > 0:
		// The value is frozen for the pending winners.
		m.Reserve = ov.add(m.Reserve, main)
	case l.cfg.Trigger == TriggerMystery:
		room := max(l.target-m.Current, 0)
		if main >= room {
			m.Current += room
			m.Reserve = ov.add(m.Reserve, main-room)
			triggered = true
		} else {
			m.Current += main
		}
	case l.cfg.Cap != 0:
		room := max(l.cfg.Cap-m.Current, 0)
		if main > room {
			m.Current += room
			m.Overflow = ov.add(m.Overflow, main-room)
		} else {
			m.Current += main
		}
	default:
		m.Current = ov.add(m.Current, main)
	}
	if ov {
		return false, ErrOverflow
	}
	return triggered, nil
}

func (p *Pools) hit(o Hit) (Result, error) {
	fail := func(err error) (Result, error) { return Result{}, opErr("hit", o.Level, err) }
	i, l, err := p.open(o.Level)
	if err != nil {
		return fail(err)
	}
	if l.cfg.Trigger != TriggerPaytable {
		return fail(fmt.Errorf("%w: a %v level is hit only by its contributions", ErrInvalid, l.cfg.Trigger))
	}
	if o.Bet <= 0 || o.Bet > MaxBet || o.Bet < l.cfg.MinHitBet {
		return fail(fmt.Errorf("%w: bet %d cents: want %d..%d", ErrInvalid, o.Bet, max(l.cfg.MinHitBet, 1), MaxBet))
	}
	if err := checkText("where", o.Where, maxIDLen, true); err != nil {
		return fail(err)
	}
	if len(l.claims) >= MaxClaims {
		return fail(fmt.Errorf("%w: already %d unconfirmed hits", ErrInvalid, MaxClaims))
	}
	c := Claim{At: o.At, Where: o.Where, Game: o.Game, Bet: o.Bet}
	l.claims = append(l.claims[:len(l.claims):len(l.claims)], c) // copy on write
	if err := checkLevel(&l); err != nil {
		return fail(err)
	}
	*p.levels[i] = l
	return Result{
		Changes: []Change{{Level: l.id, Before: l.m, After: l.m}},
		Claims:  []LevelClaim{{Level: l.id, Claim: c}},
	}, nil
}

func (p *Pools) award(o Award) (Result, error) {
	fail := func(err error) (Result, error) { return Result{}, opErr("award", o.Level, err) }
	i, l, err := p.open(o.Level)
	if err != nil {
		return fail(err)
	}
	if len(l.claims) == 0 {
		return fail(ErrNoHit)
	}
	if err := l.cfg.checkTarget(o.Target); err != nil {
		return fail(err)
	}
	if o.Amounts != nil {
		if len(o.Amounts) != len(l.claims) {
			return fail(fmt.Errorf("%w: %d amounts for %d pending claims", ErrInvalid, len(o.Amounts), len(l.claims)))
		}
		for k, a := range o.Amounts {
			if a < 0 || a > MaxAmount || a%MillicentsPerCent != 0 {
				return fail(fmt.Errorf("%w: amount %d of claim %d: want whole cents, 0..%d millicents", ErrInvalid, a, k, MaxAmount))
			}
		}
	}
	before := l.m
	var ov overflowFlag
	m := &l.m
	r := Result{Paid: make([]Payment, 0, len(l.claims))}
	pay := func(c Claim, amount int64) {
		m.Awarded = ov.add(m.Awarded, amount)
		m.Hits = ov.add(m.Hits, 1)
		h := HitRecord{At: c.At, Where: c.Where, Game: c.Game, Amount: amount}
		n := min(len(l.history), HistoryLen-1)
		hist := make([]HitRecord, n+1) // copy on write
		copy(hist, l.history[len(l.history)-n:])
		hist[n] = h
		l.history = hist
		r.Paid = append(r.Paid, Payment{Level: l.id, HitRecord: h})
	}
	// take empties the current value for awards of total millicents: what
	// is left goes to the reserve, what is missing comes from the reserve
	// and the overflow, then from the operator.
	take := func(total int64) {
		if total <= m.Current {
			m.Reserve = ov.add(m.Reserve, m.Current-total)
		} else {
			short := total - m.Current
			m.Reserve = ov.add(m.Reserve, m.Overflow)
			m.Overflow = 0
			from := min(m.Reserve, short)
			m.Reserve -= from
			m.SeedFunding = ov.add(m.SeedFunding, short-from)
		}
		m.Current = 0
	}
	rule := l.ruleAmounts(len(l.claims))
	amounts := o.Amounts
	if amounts == nil {
		amounts = rule
	}
	switch l.cfg.SecondHit {
	case SecondHitWinsReset:
		for k, c := range l.claims {
			take(amounts[k])
			pay(c, amounts[k])
			l.reset(&ov)
		}
	case SplitAmount:
		var total int64
		for _, a := range amounts {
			total = ov.add(total, a)
		}
		take(total)
		for k, c := range l.claims {
			pay(c, amounts[k])
		}
		l.reset(&ov)
	}
	if ov {
		return fail(ErrOverflow)
	}
	l.claims = nil
	l.target = o.Target
	if err := checkLevel(&l); err != nil {
		return fail(err)
	}
	*p.levels[i] = l
	r.Changes = []Change{{Level: l.id, Before: before, After: l.m}}
	return r, nil
}

// ruleAmounts is what the level's SecondHit rule pays n pending claims,
// in claim order (millicents, whole cents): under SecondHitWinsReset the
// first the value, each next one the reset value (a reset comes between);
// under SplitAmount each an equal share of the value in whole cents.
func (l *level) ruleAmounts(n int) []int64 {
	out := make([]int64, n)
	switch l.cfg.SecondHit {
	case SecondHitWinsReset:
		for k := range out {
			v := l.m.Current
			if k > 0 {
				v = l.cfg.ResetValue
			}
			out[k] = Cents(v) * MillicentsPerCent
		}
	case SplitAmount:
		for k := range out {
			out[k] = Cents(l.m.Current) / int64(n) * MillicentsPerCent
		}
	}
	return out
}

// ShownAward is what a machine's hit is paid given the rule's amount
// (millicents) and what the machine showed (cents; 0: nothing, no limit):
// the rule's amount held to what it showed, or, when the machine paid
// what it showed itself, exactly that.
func ShownAward(rule, shownCents int64, paid bool) int64 {
	shown := shownCents * MillicentsPerCent
	switch {
	case paid:
		return shown
	case shownCents > 0:
		return min(rule, shown)
	}
	return rule
}

// RuleAmounts is what an Award without Amounts would pay the level's
// pending claims, in claim order; nil if the level is unknown or has none.
func (p *Pools) RuleAmounts(level string) []int64 {
	i, ok := p.find(level)
	if !ok || len(p.levels[i].claims) == 0 {
		return nil
	}
	return p.levels[i].ruleAmounts(len(p.levels[i].claims))
}

// reset sets the current value (0 on entry) to the reset value, funded from
// the overflow and reserve first, then by the operator.
func (l *level) reset(ov *overflowFlag) {
	m := &l.m
	m.Reserve = ov.add(m.Reserve, m.Overflow)
	m.Overflow = 0
	take := min(m.Reserve, l.cfg.ResetValue)
	m.Reserve -= take
	m.SeedFunding = ov.add(m.SeedFunding, l.cfg.ResetValue-take)
	m.Current = l.cfg.ResetValue
}

// roomInCurrent is how much a transfer may add to l's current value: up to
// the cap, and on a mystery level to just below the target (only a
// contribution may reach it).
func (l *level) roomInCurrent() int64 {
	if len(l.claims) > 0 {
		return 0
	}
	switch {
	case l.cfg.Trigger == TriggerMystery:
		return max(l.target-1-l.m.Current, 0)
	case l.cfg.Cap != 0:
		return max(l.cfg.Cap-l.m.Current, 0)
	}
	return math.MaxInt64 - l.m.Current
}

func (p *Pools) transfer(o Transfer) (Result, error) {
	fail := func(id string, err error) (Result, error) { return Result{}, opErr("transfer from", id, err) }
	if err := checkText("who", o.Who, maxWhoLen, true); err != nil {
		return fail(o.From, err)
	}
	if err := checkText("why", o.Why, maxWhyLen, true); err != nil {
		return fail(o.From, err)
	}
	i, src, err := p.open(o.From)
	if err != nil {
		return fail(o.From, err)
	}
	j, dst, err := p.open(o.To)
	if err != nil {
		return fail(o.From, fmt.Errorf("to %q: %w", o.To, err))
	}
	if i == j {
		return fail(o.From, fmt.Errorf("%w: transfer to itself", ErrInvalid))
	}
	if len(src.claims) > 0 || len(dst.claims) > 0 {
		return fail(o.From, fmt.Errorf("%w: confirm them before a transfer", ErrPending))
	}
	rec := TransferRecord{At: o.At, From: o.From, To: o.To, Closed: o.Close, Who: o.Who, Why: o.Why}
	if o.All {
		if o.Current != 0 || o.Reserve != 0 || o.Overflow != 0 {
			return fail(o.From, fmt.Errorf("%w: amounts given with All", ErrInvalid))
		}
		rec.Current, rec.Reserve, rec.Overflow = src.m.Current, src.m.Reserve, src.m.Overflow
	} else {
		if o.Close {
			return fail(o.From, fmt.Errorf("%w: Close needs All", ErrInvalid))
		}
		for _, a := range []struct {
			name     string
			v, have  int64
			recordTo *int64
		}{
			{"current", o.Current, src.m.Current, &rec.Current},
			{"reserve", o.Reserve, src.m.Reserve, &rec.Reserve},
			{"overflow", o.Overflow, src.m.Overflow, &rec.Overflow},
		} {
			if a.v < 0 || a.v > a.have {
				return fail(o.From, fmt.Errorf("%w: %s amount %d: the level holds %d", ErrInvalid, a.name, a.v, a.have))
			}
			*a.recordTo = a.v
		}
	}
	var ov overflowFlag
	total := ov.add(ov.add(rec.Current, rec.Reserve), rec.Overflow)
	if ov || total > MaxAmount {
		return fail(o.From, fmt.Errorf("%w: transfer of %d millicents, at most %d", ErrInvalid, total, MaxAmount))
	}
	if total == 0 && !o.Close {
		return fail(o.From, fmt.Errorf("%w: nothing to transfer", ErrInvalid))
	}
	srcBefore, dstBefore := src.m, dst.m
	src.m.Current -= rec.Current
	src.m.Reserve -= rec.Reserve
	src.m.Overflow -= rec.Overflow
	src.m.TransferredOut = ov.add(src.m.TransferredOut, total)
	src.closed = o.Close
	rec.ToCurrent = min(total, dst.roomInCurrent())
	rec.ToReserve = total - rec.ToCurrent
	dst.m.Current = ov.add(dst.m.Current, rec.ToCurrent)
	dst.m.Reserve = ov.add(dst.m.Reserve, rec.ToReserve)
	dst.m.TransferredIn = ov.add(dst.m.TransferredIn, total)
	if ov {
		return fail(o.From, ErrOverflow)
	}
	if err := checkLevel(&src); err != nil {
		return fail(o.From, err)
	}
	if err := checkLevel(&dst); err != nil {
		return fail(o.From, err)
	}
	*p.levels[i], *p.levels[j] = src, dst
	n := min(len(p.transfers), TransferLogLen-1)
	log := make([]TransferRecord, n+1)
	copy(log, p.transfers[len(p.transfers)-n:])
	log[n] = rec
	p.transfers = log
	moved := rec
	return Result{
		Changes: []Change{
			{Level: src.id, Before: srcBefore, After: src.m},
			{Level: dst.id, Before: dstBefore, After: dst.m},
		},
		Moved: &moved,
	}, nil
}

func (p *Pools) fund(o Fund) (Result, error) {
	fail := func(err error) (Result, error) { return Result{}, opErr("fund", o.Level, err) }
	i, l, err := p.open(o.Level)
	if err != nil {
		return fail(err)
	}
	if o.Amount <= 0 || o.Amount > MaxAmount || o.Amount%MillicentsPerCent != 0 {
		return fail(fmt.Errorf("%w: amount %d millicents: want whole cents in (0, %d]", ErrInvalid, o.Amount, MaxAmount))
	}
	if err := checkText("who", o.Who, maxWhoLen, true); err != nil {
		return fail(err)
	}
	if err := checkText("why", o.Why, maxWhyLen, true); err != nil {
		return fail(err)
	}
	before := l.m
	var ov overflowFlag
	l.m.SeedFunding = ov.add(l.m.SeedFunding, o.Amount)
	l.m.Reserve = ov.add(l.m.Reserve, o.Amount)
	if ov {
		return fail(ErrOverflow)
	}
	if err := checkLevel(&l); err != nil {
		return fail(err)
	}
	*p.levels[i] = l
	return Result{Changes: []Change{{Level: l.id, Before: before, After: l.m}}}, nil
}
