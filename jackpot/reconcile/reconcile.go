// Package reconcile compares, award by award, what the cabinets paid for
// their linked hits (their ledgers), what the link controller awarded and
// saw confirmed (its ledger) and, for a shared level, what etcd paid (its
// claims), and names every disagreement in cents. Each ledger can verify on
// its own and still disagree with the others: verification proves a
// ledger was not edited, not that it agrees with its peers.
//
// An award is identified by machine, level and game on every side. The
// cabinet's side is its ProgressiveAward records (and the hits it reported
// and has not been paid yet); the controller's its Hit, Award and
// SuperClaimed results with their Confirmed records; etcd's the claims
// recorded under the group's prefix by this controller.
package reconcile

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/openegm/cabinet/internal/money"
)

// Key identifies an award: machine (the controller's ID of the cabinet),
// level (the controller's level ID) and game (on that machine).
type Key struct {
	Machine string `json:"machine"`
	Level   string `json:"level"`
	Game    uint64 `json:"game"`
}

func (k Key) String() string { return fmt.Sprintf("%s %s game %d", k.Machine, k.Level, k.Game) }

func (k Key) compare(o Key) int {
	return cmp.Or(cmp.Compare(k.Machine, o.Machine), cmp.Compare(k.Level, o.Level), cmp.Compare(k.Game, o.Game))
}

// Paid is a linked hit a cabinet paid: to credits or by an attendant.
type Paid struct {
	Key
	Cents     int64 `json:"cents"`
	Attendant bool  `json:"attendant,omitempty"`
}

// Reported is a linked hit a cabinet reported and has not paid yet, with
// the value it showed.
type Reported struct {
	Key
	Cents int64 `json:"cents"`
}

// Awarded is an award of the controller.
type Awarded struct {
	Key
	Cents     int64 `json:"cents"`
	Confirmed bool  `json:"confirmed"`
	Shared    bool  `json:"shared,omitempty"` // paid from etcd's pool
}

// Claimed is etcd's award of a hit on a shared level to one of this
// controller's machines.
type Claimed struct {
	Key
	Cents int64 `json:"cents"`
}

// Sources are the three sides. Cabinets lists the machines whose ledgers
// were read: an award of the controller to another machine cannot be
// checked against a cabinet. Etcd says whether etcd's claims were read.
type Sources struct {
	Cabinets []string
	Paid     []Paid
	Reported []Reported
	Awarded  []Awarded
	Etcd     bool
	Claims   []Claimed
}

// Finding is one disagreement (or, with InFlight, an award on its way: the
// controller awarded it and the cabinet still reports the hit). The cents
// of each side are given when that side has the award.
type Finding struct {
	Key
	What       string `json:"what"`
	Cabinet    *int64 `json:"cabinet_cents,omitempty"`
	Controller *int64 `json:"controller_cents,omitempty"`
	Etcd       *int64 `json:"etcd_cents,omitempty"`
	// Cents is by how much the sides differ (the larger less the smaller
	// of the amounts present; the amount itself when a side has none).
	Cents    int64 `json:"cents"`
	InFlight bool  `json:"in_flight,omitempty"`
}

// Report is the comparison.
type Report struct {
	Findings []Finding `json:"findings"` // disagreements, by machine, level and game
	InFlight []Finding `json:"in_flight,omitempty"`
	// Totals over the machines read, cents.
	CabinetsPaid     int64 `json:"cabinets_paid_cents"`
	ControllerPaid   int64 `json:"controller_awarded_cents"`
	EtcdPaid         int64 `json:"etcd_awarded_cents"`
	Awards           int   `json:"awards"` // keys compared
	DisagreeingCents int64 `json:"disagreeing_cents"`
}

// Agree reports whether the sides agree on every award.
func (r *Report) Agree() bool { return len(r.Findings) == 0 }

type sides struct {
	paid     *Paid
	reported *Reported
	awarded  *Awarded
	claimed  *Claimed
}

// Compare compares the sources award by award.
func Compare(src Sources) *Report {
	all := map[Key]*sides{}
	get := func(k Key) *sides {
		s := all[k]
		if s == nil {
			s = &sides{}
			all[k] = s
		}
		return s
	}
	r := &Report{}
	dup := func(k Key, what string) {
		r.Findings = append(r.Findings, Finding{Key: k, What: what})
	}
	for i := range src.Paid {
		p := &src.Paid[i]
		if s := get(p.Key); s.paid != nil {
			dup(p.Key, fmt.Sprintf("the cabinet paid this hit twice: %d c and %d c", s.paid.Cents, p.Cents))
			s.paid.Cents += p.Cents
		} else {
			s.paid = p
		}
		r.CabinetsPaid += p.Cents
	}
	for i := range src.Reported {
		get(src.Reported[i].Key).reported = &src.Reported[i]
	}
	read := map[string]bool{}
	for _, m := range src.Cabinets {
		read[m] = true
	}
	for i := range src.Awarded {
		a := &src.Awarded[i]
		if !read[a.Machine] {
			continue
		}
		if s := get(a.Key); s.awarded != nil {
			dup(a.Key, fmt.Sprintf("the controller awarded this hit twice: %d c and %d c", s.awarded.Cents, a.Cents))
		} else {
			s.awarded = a
		}
		r.ControllerPaid += a.Cents
	}
	for i := range src.Claims {
		c := &src.Claims[i]
		if !read[c.Machine] {
			continue
		}
		get(c.Key).claimed = c
		r.EtcdPaid += c.Cents
	}
	keys := make([]Key, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, Key.compare)
	r.Awards = len(keys)
	for _, k := range keys {
		if f, ok := judge(k, all[k], src.Etcd); ok {
			if f.InFlight {
				r.InFlight = append(r.InFlight, f)
			} else {
				r.Findings = append(r.Findings, f)
			}
		}
	}
	slices.SortStableFunc(r.Findings, func(a, b Finding) int { return a.Key.compare(b.Key) })
	for _, f := range r.Findings {
		r.DisagreeingCents += f.Cents
	}
	return r
}

func cents(v int64) *int64 { return &v }

// judge says what is wrong with one award, if anything.
func judge(k Key, s *sides, etcd bool) (Finding, bool) {
	f := Finding{Key: k}
	var amounts []int64
	if s.paid != nil {
		f.Cabinet = cents(s.paid.Cents)
		amounts = append(amounts, s.paid.Cents)
	}
	if s.awarded != nil {
		f.Controller = cents(s.awarded.Cents)
		amounts = append(amounts, s.awarded.Cents)
	}
	if s.claimed != nil {
		f.Etcd = cents(s.claimed.Cents)
		amounts = append(amounts, s.claimed.Cents)
	}
	if len(amounts) > 0 {
		f.Cents = slices.Max(amounts) - slices.Min(amounts)
	}
	shared := s.claimed != nil || s.awarded != nil && s.awarded.Shared
	switch {
	case s.paid == nil && s.awarded == nil && s.claimed == nil:
		return f, false // a hit reported and not yet awarded: nothing to compare
	case s.awarded == nil && s.paid != nil:
		f.What, f.Cents = fmt.Sprintf("the cabinet paid %s, the controller never awarded it", euros(s.paid.Cents)), s.paid.Cents
	case s.awarded == nil:
		f.What, f.Cents = fmt.Sprintf("etcd paid %s, the controller has no award", euros(s.claimed.Cents)), s.claimed.Cents
	case s.paid == nil && s.reported != nil && !s.awarded.Confirmed:
		f.InFlight = true
		f.What = fmt.Sprintf("awarded %s, not yet paid: the cabinet still reports the hit (showed %s)", euros(s.awarded.Cents), euros(s.reported.Cents))
		if s.awarded.Cents > s.reported.Cents {
			f.InFlight = false
			f.What = fmt.Sprintf("the controller awarded %s, more than the %s the cabinet showed and reports", euros(s.awarded.Cents), euros(s.reported.Cents))
			f.Cents = s.awarded.Cents - s.reported.Cents
		}
	case s.paid == nil:
		f.What, f.Cents = fmt.Sprintf("the controller awarded %s (confirmed: %v), the cabinet never paid it nor reports it", euros(s.awarded.Cents), s.awarded.Confirmed), s.awarded.Cents
	case s.paid.Cents != s.awarded.Cents:
		f.What = fmt.Sprintf("the cabinet paid %s, the controller awarded %s", euros(s.paid.Cents), euros(s.awarded.Cents))
	case !s.awarded.Confirmed:
		f.InFlight = true
		f.What = fmt.Sprintf("paid %s, the controller's confirmation still to come", euros(s.paid.Cents))
	}
	if f.What == "" && shared && etcd {
		switch {
		case s.claimed == nil:
			f.What, f.Cents = fmt.Sprintf("the controller awarded %s from the shared pool, etcd has no such claim", euros(s.awarded.Cents)), s.awarded.Cents
		case s.claimed.Cents != s.awarded.Cents:
			f.What = fmt.Sprintf("etcd paid %s, the controller awarded %s", euros(s.claimed.Cents), euros(s.awarded.Cents))
		}
	} else if f.What != "" && shared && etcd && s.claimed != nil && s.awarded != nil && s.claimed.Cents != s.awarded.Cents {
		f.What += fmt.Sprintf("; etcd paid %s", euros(s.claimed.Cents))
	}
	return f, f.What != ""
}

// euros writes cents as euros, with the cents figure the ledgers hold.
func euros(c int64) string { return fmt.Sprintf("%s (%d c)", money.Euro("en", c), c) }

// WriteText writes the report for a person: every disagreement with its
// cents, the awards in flight, the totals.
func (r *Report) WriteText(w io.Writer) {
	verdict := "AGREE"
	if !r.Agree() {
		verdict = "DISAGREE"
	}
	fmt.Fprintf(w, "%s: %d awards compared, %d disagreements worth %s\n", verdict, r.Awards, len(r.Findings), euros(r.DisagreeingCents))
	fmt.Fprintf(w, "  paid by the cabinets %s, awarded by the controller %s", euros(r.CabinetsPaid), euros(r.ControllerPaid))
	if r.EtcdPaid != 0 {
		fmt.Fprintf(w, ", paid by etcd %s", euros(r.EtcdPaid))
	}
	fmt.Fprintln(w)
	for _, f := range r.Findings {
		fmt.Fprintf(w, "  disagree: %v: %s (differ by %d c)\n", f.Key, f.What, f.Cents)
	}
	for _, f := range r.InFlight {
		fmt.Fprintf(w, "  in flight: %v: %s\n", f.Key, f.What)
	}
}
