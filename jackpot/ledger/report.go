package ledger

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"text/tabwriter"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/jackpot"
)

// ReportFormat names the layout of a Report document.
const ReportFormat = "openegm linkctl report v1"

// Figures are the accounting figures of a level, or of all levels. Amounts
// are jackpot's millicents (1 cent = 1000), qualifying bets cents.
//
// For a level the identity is
//
//	Sources = seed funding + contributions + transferred in
//	Uses    = awarded + current + reserve + overflow + transferred out
//
// and for the total, where transfers cancel out (in = out),
//
//	Sources = seed funding + contributions
//	Uses    = awarded + current + reserve + overflow.
//
// Sources and Uses are decimal strings (they are sums of int64 meters).
type Figures struct {
	QualifyingBets      int64  `json:"qualifying_bets_cents"`
	Contributions       int64  `json:"contributions_mc"`
	HiddenContributions int64  `json:"hidden_contributions_mc"`
	SeedFunding         int64  `json:"seed_funding_mc"`
	TransferredIn       int64  `json:"transferred_in_mc"`
	TransferredOut      int64  `json:"transferred_out_mc"`
	Current             int64  `json:"current_mc"`
	Reserve             int64  `json:"reserve_mc"`
	Overflow            int64  `json:"overflow_mc"`
	Liability           int64  `json:"liability_mc"` // current + reserve + overflow: held in trust (rule 5)
	Awarded             int64  `json:"awarded_mc"`
	Hits                int64  `json:"hits"`
	Sources             string `json:"sources_mc"`
	Uses                string `json:"uses_mc"`
	Holds               bool   `json:"identity_holds"`
}

// LevelReport is one local level.
type LevelReport struct {
	Level        string `json:"level"`
	Trigger      string `json:"trigger"`
	SecondHit    string `json:"second_hit"`
	Closed       bool   `json:"closed"`
	Machines     int    `json:"machines"`          // machines feeding it
	Pending      int    `json:"pending_awards"`    // awards not yet confirmed by their machine
	PendingCents int64  `json:"pending_cents"`     // their amount
	Unawarded    int    `json:"unawarded_mystery"` // mystery hits waiting for their Award record
	Figures
}

// SharedReport is one shared level as this controller knows it: the
// coin-in its machines fed, and where that coin-in is; the claims of its
// machines (sent, answered, unanswered) and the cents etcd awarded them,
// which are not in this controller's pools (the level's pool is in etcd);
// and the awards on it not yet confirmed by their machine.
type SharedReport struct {
	Shared
	Machines      int   `json:"machines"`
	PendingAwards int   `json:"pending_awards"` // awards not yet confirmed: Answered − ConfirmedAwards
	PendingCents  int64 `json:"pending_cents"`  // their amount: AwardedCents − ConfirmedCents
}

// TransferReport is the audit record of one transfer.
type TransferReport struct {
	At         int64  `json:"at"`
	From       string `json:"from"`
	To         string `json:"to"`
	CurrentMC  int64  `json:"current_mc"`
	ReserveMC  int64  `json:"reserve_mc"`
	OverflowMC int64  `json:"overflow_mc"`
	ToCurrent  int64  `json:"to_current_mc"`
	ToReserve  int64  `json:"to_reserve_mc"`
	Closed     bool   `json:"closed"`
	Who        string `json:"who"`
	Why        string `json:"why"`
}

// Report is the controller's accounting readout: per local level and in
// total the liability, contributions, seed funding, awards, hits,
// transfers and the identity figures, plus the shared levels' coin-in,
// batches and claims tally, the awards waiting for confirmation (local and
// shared), the claims waiting for etcd's answer and the last transfers.
type Report struct {
	Format string `json:"format"`
	// Verdict is Verify's, when the report is made from a verified
	// directory (the caller sets it).
	Verdict        *Verdict       `json:"verdict,omitempty"`
	Records        uint64         `json:"records"`
	Machines       int            `json:"machines"`
	CoinInFed      int64          `json:"coin_in_fed_cents"`
	Levels         []LevelReport  `json:"levels"`
	Total          Figures        `json:"total"`
	TransfersEqual bool           `json:"transfers_cancel"` // total transferred in = total transferred out
	Shared         []SharedReport `json:"shared"`
	PendingAwards  []Payout       `json:"pending_awards"`
	UnsentBatches  []Batch        `json:"unsent_batches"`
	// UnansweredClaims are the claims on shared levels sent to etcd (or
	// about to be) whose answer is not yet recorded.
	UnansweredClaims []SuperClaim     `json:"unanswered_claims"`
	Transfers        []TransferReport `json:"transfers"`
	Holds            bool             `json:"identity_holds"` // every level's identity and the total's
}

// Report computes the report of a state. It fails only if the totals over
// all levels do not fit an int64 meter.
func (s *State) Report() (*Report, error) {
	total, err := s.pools.Totals()
	if err != nil {
		return nil, err
	}
	r := &Report{Format: ReportFormat, Records: s.records, Machines: len(s.machines), CoinInFed: s.fed,
		Levels: []LevelReport{}, Shared: []SharedReport{}, PendingAwards: s.PendingPayouts(),
		UnsentBatches: s.Unsent(), UnansweredClaims: s.PendingSuperClaims(), Transfers: []TransferReport{}}
	if r.PendingAwards == nil {
		r.PendingAwards = []Payout{}
	}
	if r.UnsentBatches == nil {
		r.UnsentBatches = []Batch{}
	}
	if r.UnansweredClaims == nil {
		r.UnansweredClaims = []SuperClaim{}
	}
	feeding := map[string]int{}
	for _, m := range s.machines {
		for _, id := range m.Levels {
			feeding[id]++
		}
	}
	for _, id := range s.pools.Levels() {
		lv, _ := s.pools.Level(id)
		lr := LevelReport{Level: id, Trigger: lv.Config.Trigger.String(), SecondHit: lv.Config.SecondHit.String(),
			Closed: lv.Closed, Machines: feeding[id], Unawarded: len(lv.Pending), Figures: figures(lv.Meters, true)}
		for _, p := range r.PendingAwards {
			if p.Level == id {
				lr.Pending++
				lr.PendingCents += p.Amount
			}
		}
		r.Levels = append(r.Levels, lr)
	}
	r.Total = figures(total, false)
	r.TransfersEqual = total.TransferredIn == total.TransferredOut
	for _, sh := range s.SharedLevels() {
		sr := SharedReport{Shared: sh, Machines: feeding[sh.Level]}
		for _, p := range r.PendingAwards {
			if p.Level == sh.Level {
				sr.PendingAwards++
				sr.PendingCents += p.Amount
			}
		}
		r.Shared = append(r.Shared, sr)
	}
	for _, t := range s.pools.Transfers() {
		r.Transfers = append(r.Transfers, TransferReport{At: t.At, From: t.From, To: t.To, CurrentMC: t.Current,
			ReserveMC: t.Reserve, OverflowMC: t.Overflow, ToCurrent: t.ToCurrent, ToReserve: t.ToReserve,
			Closed: t.Closed, Who: t.Who, Why: t.Why})
	}
	r.Holds = r.Total.Holds && r.TransfersEqual
	for _, lr := range r.Levels {
		r.Holds = r.Holds && lr.Holds
	}
	if r.Total.Liability < 0 || sum(total.Current, total.Reserve, total.Overflow).Cmp(big.NewInt(r.Total.Liability)) != 0 {
		return nil, fmt.Errorf("link report: the total liability does not fit an int64 meter")
	}
	return r, nil
}

func sum(xs ...int64) *big.Int {
	t := new(big.Int)
	for _, x := range xs {
		t.Add(t, big.NewInt(x))
	}
	return t
}

// FiguresOf are the figures of a level's meters (withTransfers) or of a
// total's (transfers cancel): the superjackpot's report uses them too.
func FiguresOf(m jackpot.Meters, withTransfers bool) Figures { return figures(m, withTransfers) }

// figures fills the figures of meters m; withTransfers for one level.
func figures(m jackpot.Meters, withTransfers bool) Figures {
	f := Figures{QualifyingBets: m.QualifyingBets, Contributions: m.Contributions, HiddenContributions: m.HiddenContributions,
		SeedFunding: m.SeedFunding, TransferredIn: m.TransferredIn, TransferredOut: m.TransferredOut,
		Current: m.Current, Reserve: m.Reserve, Overflow: m.Overflow, Awarded: m.Awarded, Hits: m.Hits}
	f.Liability = m.Current + m.Reserve + m.Overflow
	f.Sources, f.Uses, f.Holds = identity(f, withTransfers)
	return f
}

func identity(f Figures, withTransfers bool) (sources, uses string, holds bool) {
	id := f.Meters().Identity(withTransfers)
	return id.Sources.String(), id.Uses.String(), id.Holds()
}

// Meters are the jackpot meters the figures show.
func (f Figures) Meters() jackpot.Meters {
	return jackpot.Meters{QualifyingBets: f.QualifyingBets, Contributions: f.Contributions, HiddenContributions: f.HiddenContributions,
		SeedFunding: f.SeedFunding, TransferredIn: f.TransferredIn, TransferredOut: f.TransferredOut, Current: f.Current,
		Reserve: f.Reserve, Overflow: f.Overflow, Hits: f.Hits, Awarded: f.Awarded}
}

// Check recomputes every derived figure of the report (liabilities,
// identity sides and verdicts, totals as the sums of the levels) and
// reports the first that does not match: a report is consistent or it is
// refused.
func (r *Report) Check() error {
	if r.Format != ReportFormat {
		return fmt.Errorf("link report: format %q, want %q", r.Format, ReportFormat)
	}
	var t Figures
	holds := true
	for _, lr := range r.Levels {
		if err := checkFigures("level "+lr.Level, lr.Figures, true); err != nil {
			return err
		}
		holds = holds && lr.Holds
		for _, p := range []struct {
			dst *int64
			v   int64
		}{
			{&t.QualifyingBets, lr.QualifyingBets}, {&t.Contributions, lr.Contributions},
			{&t.HiddenContributions, lr.HiddenContributions}, {&t.SeedFunding, lr.SeedFunding},
			{&t.TransferredIn, lr.TransferredIn}, {&t.TransferredOut, lr.TransferredOut},
			{&t.Current, lr.Current}, {&t.Reserve, lr.Reserve}, {&t.Overflow, lr.Overflow},
			{&t.Awarded, lr.Awarded}, {&t.Hits, lr.Hits},
		} {
			s := sum(*p.dst, p.v)
			if !s.IsInt64() {
				return fmt.Errorf("link report: totals overflow")
			}
			*p.dst = s.Int64()
		}
	}
	if err := checkFigures("total", r.Total, false); err != nil {
		return err
	}
	want := figures(t.Meters(), false)
	if r.Total != want {
		return fmt.Errorf("link report: the total is not the sum of the levels")
	}
	if r.TransfersEqual != (t.TransferredIn == t.TransferredOut) {
		return fmt.Errorf("link report: transfers_cancel is %v for %d in, %d out", r.TransfersEqual, t.TransferredIn, t.TransferredOut)
	}
	if r.Holds != (holds && r.Total.Holds && r.TransfersEqual) {
		return fmt.Errorf("link report: identity_holds is %v, the figures say otherwise", r.Holds)
	}
	return r.checkShared()
}

// checkShared checks the shared levels' claims tallies against the
// report's own lists: claims = answered + unanswered, and the pending
// awards on each level are the answered ones not confirmed.
func (r *Report) checkShared() error {
	unanswered := 0
	for _, sr := range r.Shared {
		fail := func(format string, a ...any) error {
			return fmt.Errorf("link report: shared level %q: %s", sr.Level, fmt.Sprintf(format, a...))
		}
		if sr.Claims != sr.Answered+int64(len(sr.Unanswered)) {
			return fail("%d claims ≠ %d answered + %d unanswered", sr.Claims, sr.Answered, len(sr.Unanswered))
		}
		var n, cents int64
		for _, p := range r.PendingAwards {
			if p.Level == sr.Level {
				n++
				cents += p.Amount
			}
		}
		if int64(sr.PendingAwards) != n || sr.PendingCents != cents {
			return fail("%d pending awards of %d cents, the list has %d of %d cents", sr.PendingAwards, sr.PendingCents, n, cents)
		}
		if n != sr.Answered-sr.ConfirmedAwards || cents != sr.AwardedCents-sr.ConfirmedCents {
			return fail("%d awards of %d cents pending ≠ %d answered (%d cents) − %d confirmed (%d cents)",
				n, cents, sr.Answered, sr.AwardedCents, sr.ConfirmedAwards, sr.ConfirmedCents)
		}
		unanswered += len(sr.Unanswered)
	}
	if unanswered != len(r.UnansweredClaims) {
		return fmt.Errorf("link report: %d unanswered claims listed, the shared levels hold %d", len(r.UnansweredClaims), unanswered)
	}
	return nil
}

func checkFigures(what string, f Figures, withTransfers bool) error {
	if l := sum(f.Current, f.Reserve, f.Overflow); !l.IsInt64() || l.Int64() != f.Liability {
		return fmt.Errorf("link report: %s: liability %d is not current + reserve + overflow", what, f.Liability)
	}
	src, use, holds := identity(f, withTransfers)
	if src != f.Sources || use != f.Uses || holds != f.Holds {
		return fmt.Errorf("link report: %s: identity figures %s, %s, %v do not follow from the meters (%s, %s, %v)",
			what, f.Sources, f.Uses, f.Holds, src, use, holds)
	}
	return nil
}

// MarshalDocument returns the report's canonical document: JSON indented
// by two spaces with a final newline, the form meterread report --json
// prints. These are the bytes SignReport signs.
func (r *Report) MarshalDocument() ([]byte, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	return Document(r)
}

// Document is v's canonical document: JSON indented by two spaces with a
// final newline (what a report's signature covers).
func Document(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// DecodeDocument decodes a signed document strictly into v and checks it
// is in its canonical form.
func DecodeDocument(doc []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("link report: %w", err)
	}
	if canon, err := Document(v); err != nil || !bytes.Equal(canon, doc) {
		return fmt.Errorf("link report: the document is not in its canonical form")
	}
	return nil
}

// SignReport returns the report's canonical document and its signature
// file content: the Ed25519 signature of the document's bytes, base64, one
// line — what meterread report --key writes to FILE.sig. The key is an
// inspector's or operator's key (a parsheet keygen key).
func SignReport(r *Report, key ed25519.PrivateKey) (doc, sig []byte, err error) {
	doc, err = r.MarshalDocument()
	if err != nil {
		return nil, nil, err
	}
	sig, err = SignDocument(doc, key)
	return doc, sig, err
}

// SignDocument returns the signature file content of a document
// (book.SignDocument: the Ed25519 signature of its bytes, base64, one
// line).
func SignDocument(doc []byte, key ed25519.PrivateKey) ([]byte, error) {
	if len(key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("link report: signing key is %d bytes, not %d", len(key), ed25519.PrivateKeySize)
	}
	return book.SignDocument(key, doc)
}

// VerifyDocument checks a signature file's content against a document's
// exact bytes (book.VerifyDocument).
func VerifyDocument(doc, sig []byte, pub ed25519.PublicKey) error {
	if err := book.VerifyDocument(doc, sig, pub); err != nil {
		return fmt.Errorf("link report: %w", err)
	}
	return nil
}

// ErrBadSignature is a report whose signature does not verify.
var ErrBadSignature = book.ErrBadSignature

// VerifyReport checks a signed report: the signature (base64, surrounding
// white space ignored) over the document's exact bytes with pub, then the
// document itself: strictly decoded, canonical, and consistent (Check).
func VerifyReport(doc, sig []byte, pub ed25519.PublicKey) (*Report, error) {
	if err := VerifyDocument(doc, sig, pub); err != nil {
		return nil, err
	}
	var r Report
	if err := DecodeDocument(doc, &r); err != nil {
		return nil, err
	}
	if err := r.Check(); err != nil {
		return nil, err
	}
	return &r, nil
}

// eurosDec formats a decimal string of millicents (an identity side).
func eurosDec(s string) string {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return s + " mc"
	}
	return money.MillicentsBig("en", v)
}

// WriteText prints the report for people: per level and in total the
// liability, contributions, seed funding, awards, transfers and the
// identity, then shared levels, pending awards and unsent batches.
func (r *Report) WriteText(w io.Writer) error {
	// In English, as linkctl writes everything else.
	mc := func(v int64) string { return money.Millicents("en", v) }
	eur := func(c int64) string { return money.Euro("en", c) }
	var b bytes.Buffer
	if v := r.Verdict; v != nil {
		if v.OK {
			fmt.Fprintf(&b, "VERIFIED: %d log records, hash chain intact (last %s), %d signed checkpoints by controller key %s, %d ledger records folded, invariants hold\n\n",
				v.Records, short(v.LastHash), v.Checkpoints, v.KeyID, v.Folded)
		} else {
			fmt.Fprintf(&b, "NOT VERIFIED: %d problem(s)\n", len(v.Problems))
			for _, p := range v.Problems {
				fmt.Fprintf(&b, "  - %s\n", p)
			}
			b.WriteString("\n")
		}
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "level\tliability\tcurrent\treserve\toverflow\tcontributions\tseed funding\tawarded\thits\ttransf. in\ttransf. out\tidentity\t")
	row := func(name string, f Figures) {
		id := "holds"
		if !f.Holds {
			id = "BROKEN"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t\n", name, mc(f.Liability), mc(f.Current),
			mc(f.Reserve), mc(f.Overflow), mc(f.Contributions), mc(f.SeedFunding), mc(f.Awarded), f.Hits,
			mc(f.TransferredIn), mc(f.TransferredOut), id)
	}
	for _, lr := range r.Levels {
		name := lr.Level
		if lr.Closed {
			name += " (closed)"
		}
		row(name, lr.Figures)
	}
	row("TOTAL", r.Total)
	tw.Flush()
	verdict := "holds"
	if !r.Holds {
		verdict = "DOES NOT HOLD"
	}
	fmt.Fprintf(&b, "\nidentity: seed funding %s + contributions %s = %s;\n          awards %s + current %s + reserve %s + overflow %s = %s: %s\n",
		mc(r.Total.SeedFunding), mc(r.Total.Contributions), eurosDec(r.Total.Sources),
		mc(r.Total.Awarded), mc(r.Total.Current), mc(r.Total.Reserve), mc(r.Total.Overflow), eurosDec(r.Total.Uses), verdict)
	fmt.Fprintf(&b, "liability held in trust: %s; %d machines, coin-in fed %s; %d ledger records\n",
		mc(r.Total.Liability), r.Machines, eur(r.CoinInFed), r.Records)
	if len(r.Shared) > 0 {
		b.WriteString("\nSHARED LEVELS (coin-in fed to the superjackpot)\n")
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "level\tmachines\tfed\tnot batched\tunconfirmed batches\tconfirmed to seq\tconfirmed bets\tcontributed\t")
		for _, sh := range r.Shared {
			var un int64
			for _, bt := range sh.Pending {
				un += bt.Bet
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d (%s)\t%d\t%s\t%s\t\n", sh.Level, sh.Machines, eur(sh.Fed), eur(sh.Unbatched),
				len(sh.Pending), eur(un), sh.Applied, eur(sh.AppliedBet), mc(sh.Contributed))
		}
		tw.Flush()
		b.WriteString("\nSUPERJACKPOT CLAIMS (awarded by etcd, not from this controller's pools)\n")
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "level\tclaims\tanswered\tunanswered\tawarded\tconfirmed\tpending\t")
		for _, sh := range r.Shared {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%d (%s)\t%d (%s)\t\n", sh.Level, sh.Claims, sh.Answered, len(sh.Unanswered),
				eur(sh.AwardedCents), sh.ConfirmedAwards, eur(sh.ConfirmedCents), sh.PendingAwards, eur(sh.PendingCents))
		}
		tw.Flush()
	}
	if len(r.PendingAwards) > 0 {
		b.WriteString("\nAWARDS WAITING FOR THE MACHINE'S CONFIRMATION\n")
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "time (UTC)\tmachine\tlevel\tgame\tamount\tclaimed")
		for _, p := range r.PendingAwards {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", when(p.At), p.Machine, p.Level, p.Game, eur(p.Amount), eur(p.Claimed))
		}
		tw.Flush()
	}
	if len(r.UnsentBatches) > 0 {
		b.WriteString("\nSUPERJACKPOT BATCHES NOT YET CONFIRMED\n")
		for _, bt := range r.UnsentBatches {
			fmt.Fprintf(&b, "  %s seq %d: %s (%s)\n", bt.Level, bt.Seq, eur(bt.Bet), when(bt.At))
		}
	}
	if len(r.UnansweredClaims) > 0 {
		b.WriteString("\nSUPERJACKPOT CLAIMS NOT YET ANSWERED\n")
		for _, c := range r.UnansweredClaims {
			fmt.Fprintf(&b, "  %s machine %s game %d: bet %s, claimed %s (%s)\n", c.Level, c.Machine, c.Game,
				eur(c.Bet), eur(c.Claimed), when(c.At))
		}
	}
	if len(r.Transfers) > 0 {
		b.WriteString("\nTRANSFERS (rule 6)\n")
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "time (UTC)\tfrom\tto\tamount\tclosed\twho\twhy")
		for _, t := range r.Transfers {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%s\t%s\n", when(t.At), t.From, t.To, mc(t.CurrentMC+t.ReserveMC+t.OverflowMC), t.Closed, t.Who, t.Why)
		}
		tw.Flush()
	}
	_, err := w.Write(b.Bytes())
	return err
}

func when(ns int64) string { return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05") }

func short(h string) string {
	if len(h) > 16 {
		return h[:16] + "…"
	}
	return h
}
