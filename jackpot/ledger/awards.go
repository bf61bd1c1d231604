package ledger

import (
	"fmt"
	"os"
	"path/filepath"
)

// AwardMade is one award the controller made, as its ledger holds it, and
// whether its machine confirmed it.
type AwardMade struct {
	Payout
	Confirmed bool `json:"confirmed"`
}

// Awards reads every award of the ledger in dir, in the order they were
// made, by folding every record from the first, read-only (as Verify
// does: dir is never written). The state keeps only each machine's
// last award per level; an inspector reconciling the controller with the
// cabinets needs them all.
func Awards(dir string) ([]AwardMade, error) {
	logDir := filepath.Join(dir, LogDir)
	if st, err := os.Stat(logDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("link ledger: %s is not a link controller ledger (no %s directory)", dir, LogDir)
	}
	type key struct {
		machine, level string
		game           uint64
	}
	var out []AwardMade
	at := map[key]int{}
	_, _, err := foldCopy(logDir, func(r Record, res Result) {
		switch r.(type) {
		case Hit, Award, SuperClaimed:
			for _, p := range res.Payouts {
				at[key{p.Machine, p.Level, p.Game}] = len(out)
				out = append(out, AwardMade{Payout: p})
			}
		case Confirmed:
			for _, p := range res.Payouts {
				if i, ok := at[key{p.Machine, p.Level, p.Game}]; ok {
					out[i].Confirmed = true
				}
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("link ledger %s: %w", dir, err)
	}
	return out, nil
}
