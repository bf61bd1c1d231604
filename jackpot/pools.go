package jackpot

import (
	"errors"
	"fmt"
	"math/bits"
	"unicode/utf8"

	"github.com/openegm/cabinet/rng"
)

const (
	// MillicentsPerCent is the number of millicents in a cent.
	MillicentsPerCent = 1000
	// PPM is the denominator of rates: a rate of PPM is 100 % of the bet.
	PPM = 1_000_000
	// MaxBet is the largest qualifying bet, in cents, that Contribute and
	// Hit accept. With rates <= PPM it keeps bet*rate inside int64.
	MaxBet int64 = 1_000_000_000_000
	// MaxAmount is the largest reset value, cap, fund or transfer amount
	// (millicents) an op may name.
	MaxAmount int64 = 100_000_000_000_000_000
	// HistoryLen is how many awards each level remembers.
	HistoryLen = 25
	// TransferLogLen is how many transfers the pools remember.
	TransferLogLen = 25
	// MaxLevels is the most levels one Pools holds.
	MaxLevels = 256
	// MaxClaims is the most unconfirmed hits one level holds.
	MaxClaims = 32

	maxIDLen    = 64   // level IDs, Where
	maxWhoLen   = 128  // Who
	maxWhyLen   = 1024 // Why
	carryModulo = 1000 // carries are in 1/1000 millicent
)

// Errors, wrapped with the op and the level they concern.
var (
	ErrInvalid      = errors.New("invalid")
	ErrUnknownLevel = errors.New("unknown level")
	ErrLevelExists  = errors.New("level already exists")
	ErrClosed       = errors.New("level is closed")
	ErrPending      = errors.New("level has unconfirmed hits")
	ErrNoHit        = errors.New("level has no unconfirmed hit")
	ErrOverflow     = errors.New("meter overflow")
	ErrIdentity     = errors.New("accounting identity broken")
	ErrCorrupt      = errors.New("corrupt encoding")
)

// Trigger is how a level is won.
type Trigger uint8

const (
	// TriggerPaytable: a progressive combination of the paytable, at a bet
	// of at least MinHitBet, reported by a Hit op.
	TriggerPaytable Trigger = 1
	// TriggerMystery: the level hits when its value reaches a target drawn
	// uniformly in [ResetValue, Cap] at each reset.
	TriggerMystery Trigger = 2
)

func (t Trigger) String() string {
	switch t {
	case TriggerPaytable:
		return "paytable"
	case TriggerMystery:
		return "mystery"
	}
	return fmt.Sprintf("Trigger(%d)", uint8(t))
}

// SecondHitRule decides what a second hit on a level wins when it arrives
// before the first one is confirmed by Award.
type SecondHitRule uint8

const (
	// SecondHitWinsReset: the first claim wins the level's value; each
	// later claim wins the reset value (the level resets once per claim).
	SecondHitWinsReset SecondHitRule = 1
	// SplitAmount: the value is split equally between all claims.
	SplitAmount SecondHitRule = 2
)

func (r SecondHitRule) String() string {
	switch r {
	case SecondHitWinsReset:
		return "second-hit-wins-reset"
	case SplitAmount:
		return "split-amount"
	}
	return fmt.Sprintf("SecondHitRule(%d)", uint8(r))
}

// Config is the certified configuration of a level.
type Config struct {
	ResetValue int64         // millicents, whole cents, >= 0: value after a reset
	Rate       int64         // ppm of the qualifying bet into the current value, 1..PPM
	HiddenRate int64         // ppm of the qualifying bet into the reserve, 0..PPM-Rate
	Cap        int64         // millicents, whole cents; 0 = none (paytable only); >= ResetValue
	Trigger    Trigger       // TriggerPaytable or TriggerMystery
	MinHitBet  int64         // cents: smallest bet that may win a paytable level (the top bet); 0 for mystery
	SecondHit  SecondHitRule // rule for a second hit before confirmation
}

// Validate reports whether c is a usable configuration.
func (c Config) Validate() error {
	switch {
	case c.ResetValue < 0 || c.ResetValue > MaxAmount || c.ResetValue%MillicentsPerCent != 0:
		return fmt.Errorf("%w: reset value %d millicents: want whole cents in [0, %d]", ErrInvalid, c.ResetValue, MaxAmount)
	case c.Rate < 1 || c.Rate > PPM:
		return fmt.Errorf("%w: rate %d ppm: want 1..%d", ErrInvalid, c.Rate, PPM)
	case c.HiddenRate < 0 || c.HiddenRate > PPM-c.Rate:
		return fmt.Errorf("%w: hidden rate %d ppm: want 0..%d (rate + hidden rate <= %d)", ErrInvalid, c.HiddenRate, PPM-c.Rate, PPM)
	case c.Cap < 0 || c.Cap > MaxAmount || c.Cap%MillicentsPerCent != 0:
		return fmt.Errorf("%w: cap %d millicents: want whole cents in [0, %d]", ErrInvalid, c.Cap, MaxAmount)
	case c.Cap != 0 && c.Cap < c.ResetValue:
		return fmt.Errorf("%w: cap %d below reset value %d", ErrInvalid, c.Cap, c.ResetValue)
	case c.MinHitBet < 0 || c.MinHitBet > MaxBet:
		return fmt.Errorf("%w: minimum hit bet %d cents: want 0..%d", ErrInvalid, c.MinHitBet, MaxBet)
	case c.SecondHit != SecondHitWinsReset && c.SecondHit != SplitAmount:
		return fmt.Errorf("%w: second-hit rule %d: want %d (%v) or %d (%v)", ErrInvalid, c.SecondHit,
			SecondHitWinsReset, SecondHitWinsReset, SplitAmount, SplitAmount)
	}
	switch c.Trigger {
	case TriggerPaytable:
	case TriggerMystery:
		if c.Cap == 0 {
			return fmt.Errorf("%w: a mystery level needs a cap", ErrInvalid)
		}
		if c.MinHitBet != 0 {
			return fmt.Errorf("%w: a mystery level has no minimum hit bet", ErrInvalid)
		}
	default:
		return fmt.Errorf("%w: trigger %d: want %d (%v) or %d (%v)", ErrInvalid, c.Trigger,
			TriggerPaytable, TriggerPaytable, TriggerMystery, TriggerMystery)
	}
	return nil
}

// checkTarget validates a mystery target (or its absence) for c.
func (c Config) checkTarget(t int64) error {
	if c.Trigger != TriggerMystery {
		if t != 0 {
			return fmt.Errorf("%w: target %d on a %v level: want 0", ErrInvalid, t, c.Trigger)
		}
		return nil
	}
	if t < c.ResetValue || t > c.Cap || t%MillicentsPerCent != 0 {
		return fmt.Errorf("%w: mystery target %d: want whole cents in [%d, %d]", ErrInvalid, t, c.ResetValue, c.Cap)
	}
	return nil
}

// DrawTarget draws the hit value of a mystery level with configuration c,
// uniformly among the whole-cent amounts in [c.ResetValue, c.Cap], using the
// certified RNG. The caller puts it in the AddLevel or Award op, so it is
// committed to the ledger before it is used. It must never be shown.
func DrawTarget(c Config, src rng.Source) (int64, error) {
	if err := c.Validate(); err != nil {
		return 0, err
	}
	if c.Trigger != TriggerMystery {
		return 0, fmt.Errorf("%w: draw target for a %v level", ErrInvalid, c.Trigger)
	}
	n := uint64((c.Cap-c.ResetValue)/MillicentsPerCent) + 1
	return c.ResetValue + int64(src.Uint64n(n))*MillicentsPerCent, nil
}

// Meters are the meters of one level (or, from Totals, of all levels).
type Meters struct {
	QualifyingBets      int64 // cents: bets that contributed
	Contributions       int64 // millicents: all contributions (main + hidden)
	HiddenContributions int64 // millicents: the part of Contributions from the hidden rate
	SeedFunding         int64 // millicents: put in by the operator (new level, reset shortfall, Fund)
	TransferredIn       int64 // millicents
	TransferredOut      int64 // millicents
	Current             int64 // millicents: the value of the level
	Reserve             int64 // millicents: funds the next reset
	Overflow            int64 // millicents: contributions above the cap since the last reset
	Hits                int64 // count of awarded hits
	Awarded             int64 // millicents, whole cents: total paid to winners
}

// Claim is a hit waiting for confirmation (Award).
type Claim struct {
	At      int64  // unix nanoseconds of the hit
	Where   string // machine (or other place) identifier
	Game    uint64 // game number on that machine
	Bet     int64  // cents
	Mystery bool   // triggered by a contribution reaching a mystery target
}

// HitRecord is one awarded hit in a level's history.
type HitRecord struct {
	At     int64  // unix nanoseconds of the hit
	Where  string // machine identifier
	Game   uint64 // game number
	Amount int64  // millicents, whole cents
}

// TransferRecord is the audit record of one Transfer.
type TransferRecord struct {
	At       int64 // unix nanoseconds
	From, To string
	// Taken from the source, millicents.
	Current, Reserve, Overflow int64
	// Credited to the destination, millicents; ToCurrent + ToReserve =
	// Current + Reserve + Overflow.
	ToCurrent, ToReserve int64
	Closed               bool // the source level was closed
	Who, Why             string
}

// Amount is the total moved, in millicents.
func (t TransferRecord) Amount() int64 { return t.Current + t.Reserve + t.Overflow }

// LevelView is a read-only copy of a level. It omits the mystery target,
// which must never be shown.
type LevelView struct {
	ID      string
	Config  Config
	Closed  bool
	Meters  Meters
	Pending []Claim     // unconfirmed hits, oldest first
	History []HitRecord // last HistoryLen awards, newest last
	// Sub-millicent carries of the main and hidden rates, in 1/1000
	// millicent (0..999).
	CarryMain, CarryHidden int64
}

type level struct {
	id          string
	cfg         Config
	closed      bool
	target      int64 // mystery only: hit value, millicents
	carryMain   int64
	carryHidden int64
	m           Meters
	// claims and history are copy-on-write: a level struct may be copied
	// and the copy changed without touching the original's arrays.
	claims  []Claim
	history []HitRecord
}

// Pools is the state of a set of progressive levels. The zero value is an
// empty Pools ready for use. It is not safe for concurrent use.
type Pools struct {
	seq       uint64
	levels    []*level // in creation order
	index     map[string]int
	transfers []TransferRecord // last TransferLogLen, newest last
}

// Clone returns an independent copy of p. It is cheap: a level's claims
// and history are copy-on-write, so only the level structs are copied. The
// cabinet's ledger fold clones the pools before each op so that a refused
// record leaves the previous state untouched.
func (p *Pools) Clone() *Pools {
	c := &Pools{seq: p.seq, transfers: p.transfers[:len(p.transfers):len(p.transfers)]}
	if p.index != nil {
		c.index = make(map[string]int, len(p.index))
		for k, v := range p.index {
			c.index[k] = v
		}
	}
	c.levels = make([]*level, len(p.levels))
	for i, l := range p.levels {
		cp := *l
		c.levels[i] = &cp
	}
	return c
}

// Seq is the number of ops applied so far.
func (p *Pools) Seq() uint64 { return p.seq }

// Levels lists the level IDs in creation order.
func (p *Pools) Levels() []string {
	ids := make([]string, len(p.levels))
	for i, l := range p.levels {
		ids[i] = l.id
	}
	return ids
}

func (p *Pools) find(id string) (int, bool) {
	i, ok := p.index[id]
	return i, ok
}

// Level returns a copy of level id.
func (p *Pools) Level(id string) (LevelView, bool) {
	i, ok := p.find(id)
	if !ok {
		return LevelView{}, false
	}
	l := p.levels[i]
	return LevelView{
		ID:          l.id,
		Config:      l.cfg,
		Closed:      l.closed,
		Meters:      l.m,
		Pending:     append([]Claim(nil), l.claims...),
		History:     append([]HitRecord(nil), l.history...),
		CarryMain:   l.carryMain,
		CarryHidden: l.carryHidden,
	}, true
}

// Transfers returns the last TransferLogLen transfers, newest last.
func (p *Pools) Transfers() []TransferRecord {
	return append([]TransferRecord(nil), p.transfers...)
}

// Cents floors an amount in millicents to whole cents.
func Cents(millicents int64) int64 {
	c := millicents / MillicentsPerCent
	if millicents%MillicentsPerCent < 0 {
		c--
	}
	return c
}

// DisplayCents is the value of level id to display, in cents (floored).
func (p *Pools) DisplayCents(id string) (int64, error) {
	i, ok := p.find(id)
	if !ok {
		return 0, fmt.Errorf("jackpot: level %q: %w", id, ErrUnknownLevel)
	}
	return Cents(p.levels[i].m.Current), nil
}

// Totals sums the meters of all levels.
func (p *Pools) Totals() (Meters, error) {
	var t Meters
	var ov overflowFlag
	for _, l := range p.levels {
		m := &l.m
		t.QualifyingBets = ov.add(t.QualifyingBets, m.QualifyingBets)
		t.Contributions = ov.add(t.Contributions, m.Contributions)
		t.HiddenContributions = ov.add(t.HiddenContributions, m.HiddenContributions)
		t.SeedFunding = ov.add(t.SeedFunding, m.SeedFunding)
		t.TransferredIn = ov.add(t.TransferredIn, m.TransferredIn)
		t.TransferredOut = ov.add(t.TransferredOut, m.TransferredOut)
		t.Current = ov.add(t.Current, m.Current)
		t.Reserve = ov.add(t.Reserve, m.Reserve)
		t.Overflow = ov.add(t.Overflow, m.Overflow)
		t.Hits = ov.add(t.Hits, m.Hits)
		t.Awarded = ov.add(t.Awarded, m.Awarded)
	}
	if ov {
		return Meters{}, fmt.Errorf("jackpot: totals: %w", ErrOverflow)
	}
	return t, nil
}

// Check verifies the whole state: for every level the accounting identity
// and the exact contribution carries, to the millicent, non-negative meters
// and the level's invariants; over all levels, that transfers cancel and the
// total identity holds.
func (p *Pools) Check() error {
	if len(p.levels) > MaxLevels {
		return fmt.Errorf("jackpot: %d levels, at most %d: %w", len(p.levels), MaxLevels, ErrInvalid)
	}
	if len(p.index) != len(p.levels) {
		return fmt.Errorf("jackpot: level index has %d entries for %d levels: %w", len(p.index), len(p.levels), ErrInvalid)
	}
	var in, out Sum
	var total Identity
	for i, l := range p.levels {
		if j, ok := p.index[l.id]; !ok || j != i {
			return fmt.Errorf("jackpot: level %q: index is inconsistent: %w", l.id, ErrInvalid)
		}
		if err := checkLevel(l); err != nil {
			return err
		}
		in, out = in.add(l.m.TransferredIn), out.add(l.m.TransferredOut)
		total = total.Plus(l.m.Identity(false))
	}
	if in != out {
		return fmt.Errorf("jackpot: transfers in %v != transfers out %v millicents: %w", in, out, ErrIdentity)
	}
	if !total.Holds() {
		return fmt.Errorf("jackpot: total seed funding + contributions %v != awards + current + reserve + overflow %v millicents: %w",
			total.Sources, total.Uses, ErrIdentity)
	}
	if len(p.transfers) > TransferLogLen {
		return fmt.Errorf("jackpot: %d transfer records, at most %d: %w", len(p.transfers), TransferLogLen, ErrInvalid)
	}
	for k, t := range p.transfers {
		if err := p.checkTransferRecord(t); err != nil {
			return fmt.Errorf("jackpot: transfer record %d: %w", k, err)
		}
	}
	return nil
}

func (p *Pools) checkTransferRecord(t TransferRecord) error {
	if _, ok := p.find(t.From); !ok {
		return fmt.Errorf("from %q: %w", t.From, ErrUnknownLevel)
	}
	if _, ok := p.find(t.To); !ok {
		return fmt.Errorf("to %q: %w", t.To, ErrUnknownLevel)
	}
	if t.From == t.To {
		return fmt.Errorf("%w: from and to are both %q", ErrInvalid, t.From)
	}
	for _, v := range []int64{t.Current, t.Reserve, t.Overflow, t.ToCurrent, t.ToReserve} {
		if v < 0 || v > MaxAmount {
			return fmt.Errorf("%w: amount %d out of range", ErrInvalid, v)
		}
	}
	if t.Current+t.Reserve+t.Overflow != t.ToCurrent+t.ToReserve {
		return fmt.Errorf("%w: takes %d, credits %d", ErrIdentity, t.Current+t.Reserve+t.Overflow, t.ToCurrent+t.ToReserve)
	}
	if err := checkText("who", t.Who, maxWhoLen, true); err != nil {
		return err
	}
	return checkText("why", t.Why, maxWhyLen, true)
}

// checkLevel verifies one level's invariants.
func checkLevel(l *level) error {
	fail := func(kind error, format string, a ...any) error {
		return fmt.Errorf("jackpot: level %q: %w: %s", l.id, kind, fmt.Sprintf(format, a...))
	}
	if err := checkText("level id", l.id, maxIDLen, true); err != nil {
		return fail(ErrInvalid, "%v", err)
	}
	if err := l.cfg.Validate(); err != nil {
		return fail(ErrInvalid, "config: %v", err)
	}
	if err := l.cfg.checkTarget(l.target); err != nil {
		return fail(ErrInvalid, "%v", err)
	}
	m := &l.m
	named := []struct {
		name string
		v    int64
	}{
		{"qualifying bets", m.QualifyingBets}, {"contributions", m.Contributions},
		{"hidden contributions", m.HiddenContributions}, {"seed funding", m.SeedFunding},
		{"transferred in", m.TransferredIn}, {"transferred out", m.TransferredOut},
		{"current", m.Current}, {"reserve", m.Reserve}, {"overflow", m.Overflow},
		{"hits", m.Hits}, {"awarded", m.Awarded},
	}
	for _, n := range named {
		if n.v < 0 {
			return fail(ErrIdentity, "%s is %d", n.name, n.v)
		}
	}
	if m.HiddenContributions > m.Contributions {
		return fail(ErrIdentity, "hidden contributions %d exceed contributions %d", m.HiddenContributions, m.Contributions)
	}
	if m.Awarded%MillicentsPerCent != 0 {
		return fail(ErrIdentity, "awarded %d is not whole cents", m.Awarded)
	}
	if l.carryMain < 0 || l.carryMain >= carryModulo || l.carryHidden < 0 || l.carryHidden >= carryModulo {
		return fail(ErrIdentity, "carries %d, %d out of range", l.carryMain, l.carryHidden)
	}
	if !m.Identity(true).Holds() {
		return fail(ErrIdentity, "seed %d + contributions %d + in %d != awarded %d + current %d + reserve %d + overflow %d + out %d",
			m.SeedFunding, m.Contributions, m.TransferredIn, m.Awarded, m.Current, m.Reserve, m.Overflow, m.TransferredOut)
	}
	// No contribution rounded away: bets*rate = contributions*1000 + carry.
	if !exactShare(m.QualifyingBets, l.cfg.Rate, m.Contributions-m.HiddenContributions, l.carryMain) {
		return fail(ErrIdentity, "qualifying bets %d at %d ppm != main contributions %d millicents + carry %d/1000",
			m.QualifyingBets, l.cfg.Rate, m.Contributions-m.HiddenContributions, l.carryMain)
	}
	if !exactShare(m.QualifyingBets, l.cfg.HiddenRate, m.HiddenContributions, l.carryHidden) {
		return fail(ErrIdentity, "qualifying bets %d at %d ppm != hidden contributions %d millicents + carry %d/1000",
			m.QualifyingBets, l.cfg.HiddenRate, m.HiddenContributions, l.carryHidden)
	}
	if l.cfg.Cap != 0 && m.Current > l.cfg.Cap {
		return fail(ErrIdentity, "current %d above cap %d", m.Current, l.cfg.Cap)
	}
	if l.cfg.Trigger == TriggerMystery && m.Current > l.target {
		return fail(ErrIdentity, "current %d above the mystery target", m.Current)
	}
	if len(l.claims) > MaxClaims {
		return fail(ErrInvalid, "%d claims, at most %d", len(l.claims), MaxClaims)
	}
	for _, c := range l.claims {
		if err := checkText("where", c.Where, maxIDLen, true); err != nil {
			return fail(ErrInvalid, "claim: %v", err)
		}
		if c.Bet <= 0 || c.Bet > MaxBet {
			return fail(ErrInvalid, "claim bet %d", c.Bet)
		}
		if c.Mystery != (l.cfg.Trigger == TriggerMystery) {
			return fail(ErrInvalid, "claim kind does not match the %v trigger", l.cfg.Trigger)
		}
		if c.Mystery && m.Current != l.target {
			return fail(ErrIdentity, "mystery hit pending with current %d != target", m.Current)
		}
		if !c.Mystery && c.Bet < l.cfg.MinHitBet {
			return fail(ErrInvalid, "claim bet %d below minimum hit bet %d", c.Bet, l.cfg.MinHitBet)
		}
	}
	if l.cfg.Trigger == TriggerMystery && len(l.claims) > 1 {
		return fail(ErrInvalid, "%d mystery claims", len(l.claims))
	}
	if int64(len(l.history)) != min(m.Hits, HistoryLen) {
		return fail(ErrIdentity, "%d history records for %d hits", len(l.history), m.Hits)
	}
	var inHistory overflowFlag
	sum := int64(0)
	for _, h := range l.history {
		if err := checkText("where", h.Where, maxIDLen, true); err != nil {
			return fail(ErrInvalid, "history: %v", err)
		}
		if h.Amount < 0 || h.Amount%MillicentsPerCent != 0 {
			return fail(ErrInvalid, "history amount %d", h.Amount)
		}
		sum = inHistory.add(sum, h.Amount)
	}
	// While the history holds every hit, it adds up to the awards.
	if inHistory || sum > m.Awarded || (m.Hits <= HistoryLen && sum != m.Awarded) {
		return fail(ErrIdentity, "history adds up to %d, awarded %d over %d hits", sum, m.Awarded, m.Hits)
	}
	if l.closed && (m.Current != 0 || m.Reserve != 0 || m.Overflow != 0 || len(l.claims) != 0) {
		return fail(ErrInvalid, "closed level still holds value or claims")
	}
	return nil
}

// exactShare reports whether bets*rate == share*1000 + carry, exactly.
func exactShare(bets, rate, share, carry int64) bool {
	if bets < 0 || rate < 0 || share < 0 || carry < 0 {
		return false
	}
	h1, l1 := bits.Mul64(uint64(bets), uint64(rate))
	h2, l2 := bits.Mul64(uint64(share), carryModulo)
	l2, c := bits.Add64(l2, uint64(carry), 0)
	h2 += c
	return h1 == h2 && l1 == l2
}

// overflowFlag accumulates int64 overflow over a sequence of additions.
type overflowFlag bool

// add returns a+b and remembers whether it overflowed.
func (f *overflowFlag) add(a, b int64) int64 {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		*f = true
	}
	return s
}

// checkText validates a string field of an op or record.
func checkText(what, s string, maxLen int, required bool) error {
	if required && s == "" {
		return fmt.Errorf("%w: %s is empty", ErrInvalid, what)
	}
	if len(s) > maxLen {
		return fmt.Errorf("%w: %s is %d bytes, at most %d", ErrInvalid, what, len(s), maxLen)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: %s is not UTF-8", ErrInvalid, what)
	}
	return nil
}
