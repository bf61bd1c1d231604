package link

import (
	"cmp"
	"crypto/ed25519"
	"fmt"
	"io"
	"math/big"
	"slices"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/jackpot/super"
)

// SuperReportFormat names the layout of a SuperReport document.
const SuperReportFormat = "openegm superjackpot report v2"

// SuperReport is what a superjackpot group holds in trust, read from etcd
// at one revision (super.Audit): per shared level and in total the
// liability (current + reserve + overflow), the operators' seed funding,
// contributions, awards and the identity seed funding + contributions
// (+ transferred in) = awards + current + reserve + overflow (+ transferred
// out), to the millicent; the claims etcd paid, which must add up to the
// awards, per controller; and every controller's last applied batch. All
// of it is what verified with the controllers' registered keys; what did
// not (a forged batch, claim or pools) is listed apart, as rejected, and
// counted nowhere.
type SuperReport struct {
	Format      string              `json:"format"`
	Prefix      string              `json:"prefix"`
	Revision    int64               `json:"etcd_revision"`
	Levels      []SuperLevelReport  `json:"levels"`
	Total       ledger.Figures      `json:"total"`
	Controllers []SuperControllerAt `json:"controllers"`
	Rejected    []SuperRejected     `json:"rejected"`
	// Holds: every identity holds, every level's claims add up to its
	// awards, in number and in millicents, and nothing was rejected.
	Holds bool `json:"holds"`
}

// SuperRejected is a value of the group that did not verify: a forgery,
// not money. ReplacedBy names the controller whose write replaced it (the
// evidence it kept); empty, it is still in etcd (or in the history behind
// a key's current version).
type SuperRejected struct {
	Key        string `json:"key"`
	Revision   int64  `json:"etcd_revision"`
	SignedAs   string `json:"signed_as"`
	Reason     string `json:"reason"`
	Claimed    string `json:"claimed,omitempty"`
	ReplacedBy string `json:"replaced_by,omitempty"`
}

// SuperLevelReport is one level of the group's pools.
type SuperLevelReport struct {
	Level     string `json:"level"`
	Trigger   string `json:"trigger"`
	SecondHit string `json:"second_hit"`
	Closed    bool   `json:"closed"`
	Pending   int    `json:"pending_hits"` // a reached mystery target not yet claimed
	Claims    int64  `json:"claims"`       // claims paid from it
	ClaimedMC int64  `json:"claimed_mc"`   // what they won
	ledger.Figures
}

// SuperControllerAt is one controller of the group: its last applied batch
// and the claims paid to its machines.
type SuperControllerAt struct {
	Controller string `json:"controller"`
	LastBatch  uint64 `json:"last_batch"`
	Claims     int64  `json:"claims"`
	ClaimedMC  int64  `json:"claimed_mc"`
}

// BuildSuperReport computes the report of an audit.
func BuildSuperReport(prefix string, a super.Audit) (*SuperReport, error) {
	r := &SuperReport{Format: SuperReportFormat, Prefix: prefix, Revision: a.Revision}
	byLevel := map[string]*SuperLevelReport{}
	byController := map[string]*SuperControllerAt{}
	controller := func(id string) *SuperControllerAt {
		c := byController[id]
		if c == nil {
			c = &SuperControllerAt{Controller: id}
			byController[id] = c
		}
		return c
	}
	var total jackpot.Meters
	for _, lv := range a.Pools.Levels {
		r.Levels = append(r.Levels, SuperLevelReport{Level: lv.ID, Trigger: lv.Config.Trigger.String(), SecondHit: lv.Config.SecondHit.String(),
			Closed: lv.Closed, Pending: len(lv.Pending), Figures: ledger.FiguresOf(lv.Meters, true)})
		m, ok := addMeters(total, lv.Meters)
		if !ok {
			return nil, fmt.Errorf("superjackpot report: the totals of %s overflow", prefix)
		}
		total = m
	}
	for i := range r.Levels {
		byLevel[r.Levels[i].Level] = &r.Levels[i]
	}
	for _, c := range a.Claims {
		lv := byLevel[c.Level]
		if lv == nil {
			return nil, fmt.Errorf("superjackpot report: claim %v on level %q, which the pools do not have", c.HitID, c.Level)
		}
		lv.Claims++
		lv.ClaimedMC += c.Amount
		ctl := controller(c.Controller)
		ctl.Claims++
		ctl.ClaimedMC += c.Amount
	}
	for id, seq := range a.Heads {
		controller(id).LastBatch = seq
	}
	r.Rejected = []SuperRejected{}
	for _, x := range a.Rejected {
		r.Rejected = append(r.Rejected, SuperRejected{Key: x.Key, Revision: x.Revision, SignedAs: x.By, Reason: x.Reason, Claimed: x.What})
	}
	for _, e := range a.Replaced {
		r.Rejected = append(r.Rejected, SuperRejected{Key: e.Key, Revision: e.Revision, SignedAs: e.By, Reason: e.Reason, Claimed: e.What, ReplacedBy: e.ReplacedBy})
	}
	slices.SortFunc(r.Rejected, func(x, y SuperRejected) int {
		if c := cmp.Compare(x.Revision, y.Revision); c != 0 {
			return c
		}
		return cmp.Compare(x.Key, y.Key)
	})
	for _, c := range byController {
		r.Controllers = append(r.Controllers, *c)
	}
	slices.SortFunc(r.Controllers, func(x, y SuperControllerAt) int { return cmpString(x.Controller, y.Controller) })
	r.Total = ledger.FiguresOf(total, false)
	r.Holds = r.holds()
	return r, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func addMeters(a, b jackpot.Meters) (jackpot.Meters, bool) {
	out := a
	vals := []*int64{&out.QualifyingBets, &out.Contributions, &out.HiddenContributions, &out.SeedFunding, &out.TransferredIn,
		&out.TransferredOut, &out.Current, &out.Reserve, &out.Overflow, &out.Hits, &out.Awarded}
	adds := []int64{b.QualifyingBets, b.Contributions, b.HiddenContributions, b.SeedFunding, b.TransferredIn,
		b.TransferredOut, b.Current, b.Reserve, b.Overflow, b.Hits, b.Awarded}
	for i, v := range vals {
		s := new(big.Int).Add(big.NewInt(*v), big.NewInt(adds[i]))
		if !s.IsInt64() {
			return a, false
		}
		*v = s.Int64()
	}
	return out, true
}

// holds recomputes the verdict: nothing rejected, every identity and
// every level's claims against its awards.
func (r *SuperReport) holds() bool {
	if !r.Total.Holds || len(r.Rejected) > 0 {
		return false
	}
	for _, lv := range r.Levels {
		if !lv.Holds || lv.Claims != lv.Hits || lv.ClaimedMC != lv.Awarded {
			return false
		}
	}
	return true
}

// MarshalDocument is the report's canonical document (JSON indented by two
// spaces, a final newline): the bytes a signature covers.
func (r *SuperReport) MarshalDocument() ([]byte, error) { return ledger.Document(r) }

// SignSuperReport returns the document and its signature file content (an
// inspector's or operator's Ed25519 key, parsheet keygen format).
func SignSuperReport(r *SuperReport, key ed25519.PrivateKey) (doc, sig []byte, err error) {
	if doc, err = r.MarshalDocument(); err != nil {
		return nil, nil, err
	}
	sig, err = ledger.SignDocument(doc, key)
	return doc, sig, err
}

// VerifySuperReport checks a signed document: the signature, then the
// document strictly decoded, canonical, and consistent (its verdict and
// every identity recomputed).
func VerifySuperReport(doc, sig []byte, pub ed25519.PublicKey) (*SuperReport, error) {
	if err := ledger.VerifyDocument(doc, sig, pub); err != nil {
		return nil, err
	}
	var r SuperReport
	if err := ledger.DecodeDocument(doc, &r); err != nil {
		return nil, err
	}
	for _, lv := range r.Levels {
		if f := ledger.FiguresOf(figuresMeters(lv.Figures), true); f != lv.Figures {
			return nil, fmt.Errorf("superjackpot report: level %s: figures %+v do not add up (%+v)", lv.Level, lv.Figures, f)
		}
	}
	if r.Format != SuperReportFormat || r.Holds != r.holds() {
		return nil, fmt.Errorf("superjackpot report: format %q, verdict %v does not match its figures", r.Format, r.Holds)
	}
	return &r, nil
}

func figuresMeters(f ledger.Figures) jackpot.Meters {
	return jackpot.Meters{QualifyingBets: f.QualifyingBets, Contributions: f.Contributions, HiddenContributions: f.HiddenContributions,
		SeedFunding: f.SeedFunding, TransferredIn: f.TransferredIn, TransferredOut: f.TransferredOut, Current: f.Current,
		Reserve: f.Reserve, Overflow: f.Overflow, Hits: f.Hits, Awarded: f.Awarded}
}

// WriteText writes the report for a person.
func (r *SuperReport) WriteText(w io.Writer) {
	verdict := "HOLDS"
	switch {
	case len(r.Rejected) > 0:
		verdict = fmt.Sprintf("DOES NOT HOLD: %d FORGED VALUES REJECTED (not counted below)", len(r.Rejected))
	case !r.Holds:
		verdict = "DOES NOT HOLD"
	}
	fmt.Fprintf(w, "superjackpot %s at etcd revision %d: %s\n", r.Prefix, r.Revision, verdict)
	row := func(name string, f ledger.Figures) {
		fmt.Fprintf(w, "  %-12s liability %s (current %s, reserve %s, overflow %s); seed funding %s, contributions %s, awarded %s in %d hits; identity %v\n",
			name, mc(f.Liability), mc(f.Current), mc(f.Reserve), mc(f.Overflow), mc(f.SeedFunding), mc(f.Contributions), mc(f.Awarded), f.Hits, f.Holds)
	}
	for _, lv := range r.Levels {
		row(lv.Level, lv.Figures)
		fmt.Fprintf(w, "  %-12s %d claims paid %s\n", "", lv.Claims, mc(lv.ClaimedMC))
	}
	row("total", r.Total)
	for _, c := range r.Controllers {
		fmt.Fprintf(w, "  controller %s: last batch %d, %d claims paid %s\n", c.Controller, c.LastBatch, c.Claims, mc(c.ClaimedMC))
	}
	for _, x := range r.Rejected {
		where := "still in etcd"
		if x.ReplacedBy != "" {
			where = "replaced by " + x.ReplacedBy + ", kept as evidence"
		}
		fmt.Fprintf(w, "  REJECTED, not counted: %s at etcd revision %d, signed as %q: %s", x.Key, x.Revision, x.SignedAs, x.Reason)
		if x.Claimed != "" {
			fmt.Fprintf(w, "; it claimed %s", x.Claimed)
		}
		fmt.Fprintf(w, " (%s)\n", where)
	}
}

// mc writes millicents as euros, exactly.
func mc(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	c, sub := v/jackpot.MillicentsPerCent, v%jackpot.MillicentsPerCent
	if sub == 0 {
		return fmt.Sprintf("%s%d.%02d €", sign, c/100, c%100)
	}
	return fmt.Sprintf("%s%d.%02d%03d €", sign, c/100, c%100, sub)
}
