package reconcile

import (
	"context"
	"fmt"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/jackpot/super"
	"github.com/openegm/cabinet/meters"
)

// Cabinet reads the linked hits a cabinet paid and those it reported and
// has not paid, from its ledger directory dir (a copy is read: opening a
// ledger may repair its tail). machine is the cabinet's ID at the
// controller; levels maps the cabinet's level numbers (SAS levels) to the
// controller's level IDs. A level the cabinet keeps in its own jackpot,
// or one the map does not name, is not the controller's and is left out.
func Cabinet(dir, machine string, levels map[int]string) ([]Paid, []Reported, error) {
	local := map[int]bool{}
	reported := map[Key]int64{}
	var paid []Paid
	err := meters.Records(dir, func(seq uint64, r meters.Record) error {
		switch r := r.(type) {
		case meters.JackpotLevel:
			local[r.Level] = true
		case meters.ProgressiveHit:
			if id, ok := levels[r.Level]; ok && !local[r.Level] {
				reported[Key{machine, id, r.Game}] = r.Cents
			}
		case meters.ProgressiveAward:
			if id, ok := levels[r.Level]; ok && !local[r.Level] {
				k := Key{machine, id, r.Game}
				delete(reported, k)
				paid = append(paid, Paid{Key: k, Cents: r.Cents, Attendant: r.Attendant})
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("cabinet %s: reading ledger %s: %w", machine, dir, err)
	}
	var rep []Reported
	for k, c := range reported {
		rep = append(rep, Reported{Key: k, Cents: c})
	}
	return paid, rep, nil
}

// Controller reads every award of the controller's ledger in dir.
func Controller(dir string) ([]Awarded, error) {
	awards, err := ledger.Awards(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Awarded, 0, len(awards))
	for _, a := range awards {
		out = append(out, Awarded{Key: Key{a.Machine, a.Level, a.Game}, Cents: a.Amount, Confirmed: a.Confirmed, Shared: a.Revision != 0})
	}
	return out, nil
}

// Etcd reads the claims etcd paid to controller's machines under the
// store's prefix.
func Etcd(ctx context.Context, s *super.Store, controller string) ([]Claimed, error) {
	hist, err := s.History(ctx)
	if err != nil {
		return nil, err
	}
	var out []Claimed
	for _, c := range hist {
		if c.Controller == controller {
			out = append(out, Claimed{Key: Key{c.Machine, c.Level, c.Game}, Cents: jackpot.Cents(c.Amount)})
		}
	}
	return out, nil
}
