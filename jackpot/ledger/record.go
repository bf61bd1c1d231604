package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/openegm/cabinet/jackpot"
)

// Type identifies a record kind in the log (the walog record type). The
// numbers are part of the log format: never renumber, only add.
type Type uint16

const (
	TypeSetupLevel   Type = 1
	TypeSetupShared  Type = 2
	TypeSetupMachine Type = 3
	TypeMeters       Type = 4
	TypeRebase       Type = 5
	TypeHit          Type = 6
	TypeAward        Type = 7
	TypeConfirmed    Type = 8
	TypeFund         Type = 9
	TypeTransfer     Type = 10
	TypeSuperBatch   Type = 11
	TypeSuperApplied Type = 12
	TypeEvent        Type = 13
	TypeSuperClaim   Type = 14
	TypeSuperClaimed Type = 15
	// TypeBatch is the group commit: several records in one log record,
	// made durable by one sync and folded in order, all or none.
	TypeBatch Type = 100
)

var typeNames = map[Type]string{
	TypeSetupLevel: "setup level", TypeSetupShared: "setup shared level", TypeSetupMachine: "setup machine",
	TypeMeters: "meters", TypeRebase: "rebase", TypeHit: "hit", TypeAward: "award", TypeConfirmed: "confirmed",
	TypeFund: "fund", TypeTransfer: "transfer", TypeSuperBatch: "super batch", TypeSuperApplied: "super applied",
	TypeEvent: "event", TypeSuperClaim: "super claim", TypeSuperClaimed: "super claimed", TypeBatch: "batch",
}

// lastType is the highest record type a ledger record can have (TypeBatch
// aside): the state counts records of types 1..lastType.
const lastType = TypeSuperClaimed

func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("type %d", uint16(t))
}

// Record is one entry of the controller's ledger: a value of one of the
// record types below (values, not pointers). Every record carries the time
// the controller was given; the fold never reads a clock.
type Record interface {
	Type() Type
	validate() error
}

// Limits of the record format.
const (
	MaxIDLen     = 64   // level and machine IDs (jackpot's limit for level IDs and Where)
	MaxWhoLen    = 128  // Who
	MaxWhyLen    = 1024 // Why, Detail
	MaxMachineLv = 32   // levels one machine feeds
	MaxBatch     = 4096 // records in one group commit
	// MaxSAS is the highest SAS address; 0 is the broadcast address.
	MaxSAS = 127
)

// SetupLevel creates a local progressive level of the link (jackpot
// AddLevel). Amounts are jackpot's millicents (whole cents), rates ppm, the
// minimum hit bet cents. For a mystery level the caller draws the first hit
// value with jackpot.DrawTarget and puts it in Target.
type SetupLevel struct {
	At        int64  `json:"at"`
	Level     string `json:"level"`
	ResetMC   int64  `json:"reset_mc"`
	RatePPM   int64  `json:"rate_ppm"`
	HiddenPPM int64  `json:"hidden_ppm"`
	CapMC     int64  `json:"cap_mc"`
	Trigger   string `json:"trigger"`     // "paytable" or "mystery"
	MinHitBet int64  `json:"min_hit_bet"` // cents
	SecondHit string `json:"second_hit"`  // "second-hit-wins-reset" or "split-amount"
	TargetMC  int64  `json:"target_mc"`   // mystery only, from jackpot.DrawTarget; never shown
	Who       string `json:"who"`
}

// SetupShared declares a superjackpot level shared with other controllers
// through etcd (package jackpot/super). Its pool is not kept here: this
// ledger keeps the coin-in its machines feed to it and the batches that
// carry that coin-in out (SuperBatch, SuperApplied).
type SetupShared struct {
	At    int64  `json:"at"`
	Level string `json:"level"`
	Who   string `json:"who"`
}

// SetupMachine links a machine to the levels it feeds (local or shared), or
// relinks it. The machine's meter baseline and its awards are kept.
type SetupMachine struct {
	At      int64    `json:"at"`
	Machine string   `json:"machine"`
	SAS     int      `json:"sas"` // SAS address, 1..127
	Levels  []string `json:"levels"`
	Who     string   `json:"who"`
}

// Meters is a reading of a machine's coin-in meter (cents) and games-played
// meter. The fold contributes the coin-in since the previous reading to the
// machine's levels, atomically with moving the baseline: a lost reading is
// covered by the next one, a repeated one adds nothing.
type Meters struct {
	At          int64  `json:"at"`
	Machine     string `json:"machine"`
	CoinIn      int64  `json:"coin_in"`      // cents
	GamesPlayed uint64 `json:"games_played"` // games played
}

// Rebase sets a machine's meter baseline without contributing anything:
// after a RAM clear (meters back to zero), a meter replaced, or a rollover.
// It is audited (who, why) and refused while the machine has awards not yet
// confirmed.
type Rebase struct {
	At          int64  `json:"at"`
	Machine     string `json:"machine"`
	CoinIn      int64  `json:"coin_in"`
	GamesPlayed uint64 `json:"games_played"`
	Who         string `json:"who"`
	Why         string `json:"why"`
}

// Hit reports paytable hits on one local level (a hit on a shared level is
// a SuperClaim), each awarded at once in the order given (jackpot Hit for
// each claim, then one Award, under the level's SecondHit rule). One claim
// is the usual case; near-simultaneous claims the controller chooses to
// settle together go in one record, so a split-amount level splits them. A
// claim whose (machine, level, game) was already awarded is a repeat: it
// returns the earlier payout and pays nothing.
type Hit struct {
	At     int64   `json:"at"`
	Level  string  `json:"level"`
	Claims []Claim `json:"claims"`
}

// Claim is one machine's hit in a Hit record. Claimed is the amount the
// machine showed and reported: the award is the level's second-hit rule's
// amount held to it (a machine never pays more than it showed), or, with
// Paid, exactly it (the machine paid it already, as a standard SAS machine
// pays the value it showed once the host has read the hit).
type Claim struct {
	Machine string `json:"machine"`
	Game    uint64 `json:"game"`    // the game number on that machine
	Bet     int64  `json:"bet"`     // cents; at least the level's minimum hit bet
	Claimed int64  `json:"claimed"` // cents: the amount the machine showed (0: none, no limit)
	Paid    bool   `json:"paid,omitempty"`
}

// Award is what a claim is paid, in millicents, given the second-hit
// rule's amount for it.
func (c Claim) Award(rule int64) int64 { return jackpot.ShownAward(rule, c.Claimed, c.Paid) }

// Award pays the pending claim of a level that a Meters reading brought to
// its mystery target. Target is the next hit value, drawn by the caller with
// jackpot.DrawTarget (0 for a paytable level).
type Award struct {
	At       int64  `json:"at"`
	Level    string `json:"level"`
	TargetMC int64  `json:"target_mc"`
}

// Confirmed records that a machine acknowledged an award (it paid the
// player, or locked up for the attendant): the award is no longer pending.
// Who is empty for the machine's own acknowledgement and names the person
// for a manual confirmation.
type Confirmed struct {
	At      int64  `json:"at"`
	Machine string `json:"machine"`
	Level   string `json:"level"`
	Game    uint64 `json:"game"`
	Who     string `json:"who,omitempty"`
}

// Fund puts operator money into a local level's reserve (jackpot Fund).
type Fund struct {
	At       int64  `json:"at"`
	Level    string `json:"level"`
	AmountMC int64  `json:"amount_mc"` // whole cents
	Who      string `json:"who"`
	Why      string `json:"why"`
}

// Transfer moves a local level's captive value to another local level
// (regulation rule 6; jackpot Transfer). With Close the emptied source is
// closed for good; no machine may still feed it.
type Transfer struct {
	At         int64  `json:"at"`
	From       string `json:"from"`
	To         string `json:"to"`
	CurrentMC  int64  `json:"current_mc"`
	ReserveMC  int64  `json:"reserve_mc"`
	OverflowMC int64  `json:"overflow_mc"`
	All        bool   `json:"all"`
	Close      bool   `json:"close"`
	Who        string `json:"who"`
	Why        string `json:"why"`
}

// SuperBatch is a batch of this controller's coin-in to a shared level,
// recorded before it is sent to etcd. Seqs are consecutive per level from 1;
// Bet (cents) comes out of the coin-in fed and not yet batched. A batch is
// sent again, unchanged, until a SuperApplied records etcd's answer.
type SuperBatch struct {
	At    int64  `json:"at"`
	Level string `json:"level"`
	Seq   uint64 `json:"seq"`
	Bet   int64  `json:"bet"`
}

// SuperApplied records etcd's answer to a batch: applied (or found already
// applied), with the contribution it made to the shared pool and whether it
// reached a mystery target there.
type SuperApplied struct {
	At             int64  `json:"at"`
	Level          string `json:"level"`
	Seq            uint64 `json:"seq"`
	ContributionMC int64  `json:"contribution_mc"`
	Triggered      bool   `json:"triggered"`
}

// SuperClaim is a paytable or mystery hit of a machine on a shared level,
// recorded before the controller sends the claim to etcd (package
// jackpot/super, Store.Claim with HitID{Level, Machine, Game, Bet, At} and
// NextTargetMC). It is identified by (level, machine, game); until a
// SuperClaimed records etcd's answer it stays pending in the state (also
// across restarts: State.PendingSuperClaims), and the controller sends it
// again, unchanged — the same At, Bet and target, never redrawn — which etcd
// answers as a replay. A repeat of a pending claim returns the recorded one.
type SuperClaim struct {
	At           int64  `json:"at"` // the HitID's At: part of the claim's identity in etcd
	Level        string `json:"level"`
	Machine      string `json:"machine"`
	Game         uint64 `json:"game"`           // the game number on that machine
	Bet          int64  `json:"bet"`            // cents (0..MaxBet, as Store.Claim takes it)
	Claimed      int64  `json:"claimed"`        // cents: the amount the machine showed (see Claim)
	NextTargetMC int64  `json:"next_target_mc"` // mystery: the next target, drawn before the claim; 0 for paytable
	Paid         bool   `json:"paid,omitempty"` // the machine paid Claimed already (see Claim)
}

// SuperClaimed records etcd's answer to a SuperClaim (super.Claimed): the
// amount the shared level paid the machine, the level's hit count with
// this award and the etcd revision of the transaction that paid it. It
// makes the claim an award pending for the machine, like a local award,
// until a Confirmed.
type SuperClaimed struct {
	At       int64  `json:"at"`
	Level    string `json:"level"`
	Machine  string `json:"machine"`
	Game     uint64 `json:"game"`
	AmountMC int64  `json:"amount_mc"` // whole cents (super.Claimed.Amount)
	Order    int64  `json:"order"`     // the shared level's hit count after this award: 1, 2, …
	Revision int64  `json:"revision"`  // etcd revision of the transaction that paid it
}

// Event codes.
const (
	EventLogRepaired = "log_repaired" // Open cut a torn last record
	EventStart       = "start"        // the controller started
	EventStop        = "stop"         // the controller stopped in order
	EventNote        = "note"         // an operator's note
	// EventIdentity: a line answered with a machine other than the one
	// configured on it; nothing was broadcast, read or awarded there.
	EventIdentity = "identity"
	// EventMeterBack: a cabinet's meters went back (not a rollover): a
	// RAM clear, or its data rolled back; an alarm for the casino.
	EventMeterBack = "meter_back"
	// EventSuperForged: a value in the superjackpot's etcd group did not
	// verify with the registered key of the controller it claims to be
	// from (a forged batch, claim or pools): it was not counted nor paid.
	// Detail names the key, the etcd revision and what it claimed.
	EventSuperForged = "super_forged"
)

// Event is a fact that moves no money.
type Event struct {
	At     int64  `json:"at"`
	Code   string `json:"code"`
	Detail string `json:"detail,omitempty"`
}

func (SetupLevel) Type() Type   { return TypeSetupLevel }
func (SetupShared) Type() Type  { return TypeSetupShared }
func (SetupMachine) Type() Type { return TypeSetupMachine }
func (Meters) Type() Type       { return TypeMeters }
func (Rebase) Type() Type       { return TypeRebase }
func (Hit) Type() Type          { return TypeHit }
func (Award) Type() Type        { return TypeAward }
func (Confirmed) Type() Type    { return TypeConfirmed }
func (Fund) Type() Type         { return TypeFund }
func (Transfer) Type() Type     { return TypeTransfer }
func (SuperBatch) Type() Type   { return TypeSuperBatch }
func (SuperApplied) Type() Type { return TypeSuperApplied }
func (Event) Type() Type        { return TypeEvent }
func (SuperClaim) Type() Type   { return TypeSuperClaim }
func (SuperClaimed) Type() Type { return TypeSuperClaimed }

// ErrRecord marks a record that is malformed on its own (before the state
// is consulted).
var ErrRecord = errors.New("malformed record")

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrRecord, fmt.Sprintf(format, a...))
}

// checkID validates a level or machine ID: 1..MaxIDLen bytes of printable
// UTF-8 without '/' (the etcd keys of package super use it as a separator).
func checkID(what, s string) error {
	if s == "" {
		return bad("%s is empty", what)
	}
	if len(s) > MaxIDLen {
		return bad("%s is %d bytes, at most %d", what, len(s), MaxIDLen)
	}
	if err := printable(what, s); err != nil {
		return err
	}
	if strings.ContainsRune(s, '/') {
		return bad("%s %q contains '/'", what, s)
	}
	return nil
}

func checkText(what, s string, maxLen int, required bool) error {
	if required && s == "" {
		return bad("%s is empty", what)
	}
	if len(s) > maxLen {
		return bad("%s is %d bytes, at most %d", what, len(s), maxLen)
	}
	return printable(what, s)
}

func printable(what, s string) error {
	if !utf8.ValidString(s) {
		return bad("%s is not UTF-8", what)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return bad("%s contains the unprintable character %U", what, r)
		}
	}
	return nil
}

func nonNeg(what string, v int64) error {
	if v < 0 {
		return bad("%s %d is negative", what, v)
	}
	return nil
}

// Trigger and second-hit names in SetupLevel.
func triggerOf(s string) (jackpot.Trigger, bool) {
	switch s {
	case jackpot.TriggerPaytable.String():
		return jackpot.TriggerPaytable, true
	case jackpot.TriggerMystery.String():
		return jackpot.TriggerMystery, true
	}
	return 0, false
}

func secondHitOf(s string) (jackpot.SecondHitRule, bool) {
	switch s {
	case jackpot.SecondHitWinsReset.String():
		return jackpot.SecondHitWinsReset, true
	case jackpot.SplitAmount.String():
		return jackpot.SplitAmount, true
	}
	return 0, false
}

// Config is the jackpot configuration the record sets up.
func (r SetupLevel) Config() (jackpot.Config, error) {
	tr, ok := triggerOf(r.Trigger)
	if !ok {
		return jackpot.Config{}, bad("trigger %q: want %q or %q", r.Trigger, jackpot.TriggerPaytable, jackpot.TriggerMystery)
	}
	sh, ok := secondHitOf(r.SecondHit)
	if !ok {
		return jackpot.Config{}, bad("second-hit rule %q: want %q or %q", r.SecondHit, jackpot.SecondHitWinsReset, jackpot.SplitAmount)
	}
	c := jackpot.Config{ResetValue: r.ResetMC, Rate: r.RatePPM, HiddenRate: r.HiddenPPM, Cap: r.CapMC,
		Trigger: tr, MinHitBet: r.MinHitBet, SecondHit: sh}
	if err := c.Validate(); err != nil {
		return jackpot.Config{}, fmt.Errorf("%w: level %q: %w", ErrRecord, r.Level, err)
	}
	return c, nil
}

// LevelSetup returns the SetupLevel record for a jackpot configuration.
func LevelSetup(at int64, level string, c jackpot.Config, target int64, who string) SetupLevel {
	return SetupLevel{At: at, Level: level, ResetMC: c.ResetValue, RatePPM: c.Rate, HiddenPPM: c.HiddenRate,
		CapMC: c.Cap, Trigger: c.Trigger.String(), MinHitBet: c.MinHitBet, SecondHit: c.SecondHit.String(),
		TargetMC: target, Who: who}
}

func (r SetupLevel) validate() error {
	if err := checkID("level", r.Level); err != nil {
		return err
	}
	if _, err := r.Config(); err != nil {
		return err
	}
	if err := nonNeg("target", r.TargetMC); err != nil {
		return err
	}
	return checkText("who", r.Who, MaxWhoLen, true)
}

func (r SetupShared) validate() error {
	if err := checkID("level", r.Level); err != nil {
		return err
	}
	return checkText("who", r.Who, MaxWhoLen, true)
}

func (r SetupMachine) validate() error {
	if err := checkID("machine", r.Machine); err != nil {
		return err
	}
	if r.SAS < 1 || r.SAS > MaxSAS {
		return bad("machine %q: SAS address %d: want 1..%d", r.Machine, r.SAS, MaxSAS)
	}
	if len(r.Levels) == 0 || len(r.Levels) > MaxMachineLv {
		return bad("machine %q feeds %d levels: want 1..%d", r.Machine, len(r.Levels), MaxMachineLv)
	}
	for i, id := range r.Levels {
		if err := checkID("level", id); err != nil {
			return err
		}
		for _, prev := range r.Levels[:i] {
			if prev == id {
				return bad("machine %q: level %q listed twice", r.Machine, id)
			}
		}
	}
	return checkText("who", r.Who, MaxWhoLen, true)
}

func (r Meters) validate() error {
	if err := checkID("machine", r.Machine); err != nil {
		return err
	}
	return nonNeg("coin-in", r.CoinIn)
}

func (r Rebase) validate() error {
	if err := checkID("machine", r.Machine); err != nil {
		return err
	}
	if err := nonNeg("coin-in", r.CoinIn); err != nil {
		return err
	}
	if err := checkText("who", r.Who, MaxWhoLen, true); err != nil {
		return err
	}
	return checkText("why", r.Why, MaxWhyLen, true)
}

func (r Hit) validate() error {
	if err := checkID("level", r.Level); err != nil {
		return err
	}
	if len(r.Claims) == 0 || len(r.Claims) > jackpot.MaxClaims {
		return bad("hit on level %q with %d claims: want 1..%d", r.Level, len(r.Claims), jackpot.MaxClaims)
	}
	for i, c := range r.Claims {
		if err := checkID("machine", c.Machine); err != nil {
			return err
		}
		if c.Bet <= 0 || c.Bet > jackpot.MaxBet {
			return bad("hit on level %q by machine %q game %d: bet %d cents: want 1..%d", r.Level, c.Machine, c.Game, c.Bet, jackpot.MaxBet)
		}
		if err := nonNeg("claimed amount", c.Claimed); err != nil {
			return err
		}
		if c.Paid && c.Claimed == 0 {
			return bad("hit on level %q by machine %q game %d: paid by the machine, but no amount claimed", r.Level, c.Machine, c.Game)
		}
		for _, p := range r.Claims[:i] {
			if p.Machine == c.Machine && p.Game == c.Game {
				return bad("hit on level %q: machine %q game %d claimed twice", r.Level, c.Machine, c.Game)
			}
		}
	}
	return nil
}

func (r Award) validate() error {
	if err := checkID("level", r.Level); err != nil {
		return err
	}
	return nonNeg("target", r.TargetMC)
}

func (r Confirmed) validate() error {
	if err := checkID("machine", r.Machine); err != nil {
		return err
	}
	if err := checkID("level", r.Level); err != nil {
		return err
	}
	return checkText("who", r.Who, MaxWhoLen, false)
}

func (r Fund) validate() error {
	if err := checkID("level", r.Level); err != nil {
		return err
	}
	if r.AmountMC <= 0 || r.AmountMC%jackpot.MillicentsPerCent != 0 {
		return bad("fund of %d millicents: want whole cents, more than 0", r.AmountMC)
	}
	if err := checkText("who", r.Who, MaxWhoLen, true); err != nil {
		return err
	}
	return checkText("why", r.Why, MaxWhyLen, true)
}

func (r Transfer) validate() error {
	if err := checkID("from", r.From); err != nil {
		return err
	}
	if err := checkID("to", r.To); err != nil {
		return err
	}
	for _, v := range []struct {
		n string
		v int64
	}{{"current", r.CurrentMC}, {"reserve", r.ReserveMC}, {"overflow", r.OverflowMC}} {
		if err := nonNeg(v.n, v.v); err != nil {
			return err
		}
	}
	if err := checkText("who", r.Who, MaxWhoLen, true); err != nil {
		return err
	}
	return checkText("why", r.Why, MaxWhyLen, true)
}

func (r SuperBatch) validate() error {
	if err := checkID("level", r.Level); err != nil {
		return err
	}
	if r.Seq == 0 {
		return bad("super batch seq 0: seqs start at 1")
	}
	if r.Bet <= 0 || r.Bet > jackpot.MaxBet {
		return bad("super batch %d: bet %d cents: want 1..%d", r.Seq, r.Bet, jackpot.MaxBet)
	}
	return nil
}

func (r SuperApplied) validate() error {
	if err := checkID("level", r.Level); err != nil {
		return err
	}
	if r.Seq == 0 {
		return bad("super batch seq 0: seqs start at 1")
	}
	return nonNeg("contribution", r.ContributionMC)
}

func (r SuperClaim) validate() error {
	if err := checkID("level", r.Level); err != nil {
		return err
	}
	if err := checkID("machine", r.Machine); err != nil {
		return err
	}
	if r.Bet < 0 || r.Bet > jackpot.MaxBet {
		return bad("super claim on level %q by machine %q game %d: bet %d cents: want 0..%d", r.Level, r.Machine, r.Game, r.Bet, jackpot.MaxBet)
	}
	if err := nonNeg("claimed amount", r.Claimed); err != nil {
		return err
	}
	if r.Paid && r.Claimed == 0 {
		return bad("super claim on level %q by machine %q game %d: paid by the machine, but no amount claimed", r.Level, r.Machine, r.Game)
	}
	if r.NextTargetMC < 0 || r.NextTargetMC%jackpot.MillicentsPerCent != 0 {
		return bad("super claim on level %q by machine %q game %d: next target %d millicents: want whole cents, at least 0",
			r.Level, r.Machine, r.Game, r.NextTargetMC)
	}
	return nil
}

func (r SuperClaimed) validate() error {
	if err := checkID("level", r.Level); err != nil {
		return err
	}
	if err := checkID("machine", r.Machine); err != nil {
		return err
	}
	if r.AmountMC < 0 || r.AmountMC%jackpot.MillicentsPerCent != 0 {
		return bad("super claim on level %q by machine %q game %d answered with %d millicents: want whole cents, at least 0",
			r.Level, r.Machine, r.Game, r.AmountMC)
	}
	if r.Order < 1 {
		return bad("super claim on level %q by machine %q game %d answered with order %d: orders start at 1", r.Level, r.Machine, r.Game, r.Order)
	}
	if r.Revision < 1 {
		return bad("super claim on level %q by machine %q game %d answered at etcd revision %d: revisions start at 1",
			r.Level, r.Machine, r.Game, r.Revision)
	}
	return nil
}

func (r Event) validate() error {
	switch r.Code {
	case EventLogRepaired, EventStart, EventStop, EventNote, EventIdentity, EventMeterBack, EventSuperForged:
	default:
		return bad("event code %q is not one of %q", r.Code, []string{EventLogRepaired, EventStart, EventStop, EventNote, EventIdentity, EventMeterBack, EventSuperForged})
	}
	return checkText("detail", r.Detail, MaxWhyLen, false)
}

// batch is the payload of a TypeBatch log record.
type batch struct {
	Records []batchEntry `json:"records"`
}

type batchEntry struct {
	Type   Type            `json:"type"`
	Record json.RawMessage `json:"record"`
}

// Encode is the payload of a record in the log: JSON with a fixed field
// order, readable by an inspector with any tool. It refuses a malformed
// record.
func Encode(r Record) ([]byte, error) {
	if r == nil {
		return nil, bad("nil record")
	}
	if err := r.validate(); err != nil {
		return nil, fmt.Errorf("%v record: %w", r.Type(), err)
	}
	return json.Marshal(r)
}

// encodeBatch is the payload of a group commit.
func encodeBatch(recs []Record) ([]byte, error) {
	if len(recs) == 0 || len(recs) > MaxBatch {
		return nil, bad("batch of %d records: want 1..%d", len(recs), MaxBatch)
	}
	b := batch{Records: make([]batchEntry, len(recs))}
	for i, r := range recs {
		data, err := Encode(r)
		if err != nil {
			return nil, fmt.Errorf("batch entry %d: %w", i, err)
		}
		b.Records[i] = batchEntry{Type: r.Type(), Record: data}
	}
	return json.Marshal(b)
}

// Decode parses the payload of a log record of type t strictly: unknown
// fields, a field named in another case, trailing data, values that break
// the record's own rules and any encoding other than the one Encode
// produces are errors, so every record has exactly one encoding. A batch
// decodes to its records, in order.
func Decode(t Type, data []byte) ([]Record, error) {
	if t == TypeBatch {
		var b batch
		if err := strictJSON(data, &b); err != nil {
			return nil, fmt.Errorf("%v record: %w", t, err)
		}
		if len(b.Records) == 0 || len(b.Records) > MaxBatch {
			return nil, fmt.Errorf("%v record: %w", t, bad("%d records: want 1..%d", len(b.Records), MaxBatch))
		}
		out := make([]Record, len(b.Records))
		for i, e := range b.Records {
			if e.Type == TypeBatch {
				return nil, fmt.Errorf("%v record: entry %d: %w", t, i, bad("a batch inside a batch"))
			}
			r, err := decodeOne(e.Type, e.Record)
			if err != nil {
				return nil, fmt.Errorf("%v record: entry %d: %w", t, i, err)
			}
			out[i] = r
		}
		if enc, err := encodeBatch(out); err != nil || !bytes.Equal(enc, data) {
			return nil, fmt.Errorf("%v record: %w", t, bad("not the canonical encoding"))
		}
		return out, nil
	}
	r, err := decodeOne(t, data)
	if err != nil {
		return nil, err
	}
	return []Record{r}, nil
}

func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return bad("%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad("data after the record")
	}
	return nil
}

func decodeOne(t Type, data []byte) (Record, error) {
	var r Record
	switch t {
	case TypeSetupLevel:
		r = decodeAs[SetupLevel](data)
	case TypeSetupShared:
		r = decodeAs[SetupShared](data)
	case TypeSetupMachine:
		r = decodeAs[SetupMachine](data)
	case TypeMeters:
		r = decodeAs[Meters](data)
	case TypeRebase:
		r = decodeAs[Rebase](data)
	case TypeHit:
		r = decodeAs[Hit](data)
	case TypeAward:
		r = decodeAs[Award](data)
	case TypeConfirmed:
		r = decodeAs[Confirmed](data)
	case TypeFund:
		r = decodeAs[Fund](data)
	case TypeTransfer:
		r = decodeAs[Transfer](data)
	case TypeSuperBatch:
		r = decodeAs[SuperBatch](data)
	case TypeSuperApplied:
		r = decodeAs[SuperApplied](data)
	case TypeEvent:
		r = decodeAs[Event](data)
	case TypeSuperClaim:
		r = decodeAs[SuperClaim](data)
	case TypeSuperClaimed:
		r = decodeAs[SuperClaimed](data)
	default:
		return nil, bad("unknown record type %d", uint16(t))
	}
	if d, ok := r.(decodeFailure); ok {
		return nil, fmt.Errorf("%v record: %w", t, d.err)
	}
	if err := r.validate(); err != nil {
		return nil, fmt.Errorf("%v record: %w", t, err)
	}
	if enc, err := json.Marshal(r); err != nil || !bytes.Equal(enc, data) {
		return nil, fmt.Errorf("%v record: %w", t, bad("not the canonical encoding"))
	}
	return r, nil
}

// decodeFailure carries a decoding error through decodeAs.
type decodeFailure struct{ err error }

func (decodeFailure) Type() Type        { return 0 }
func (d decodeFailure) validate() error { return d.err }

// decodeAs decodes into a T and returns the value (not a pointer), so a
// decoded record equals the one that was encoded.
func decodeAs[T Record](data []byte) Record {
	var v T
	if err := strictJSON(data, &v); err != nil {
		return decodeFailure{err}
	}
	return v
}
