package tableledger

import (
	"crypto/ed25519"
	"fmt"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/reels"
)

// Verdict is what Verify found.
type Verdict struct {
	book.Verdict
	// Sessions and Steps re-run by the engines, and the hands they dealt.
	Sessions int    `json:"sessions"`
	Steps    uint64 `json:"steps"`
	State    *State `json:"-"`
}

// Verify checks a table server's ledger for an inspector: the log's frames,
// hash chain, checkpoint and seal signatures against pub (the key
// registered at commissioning), the fold of every record from the first
// with its money checked at every step, the snapshots; then every session's
// definition against the certification keys (trusted), and every session
// re-run by the engines on its logged events and draws, which must give the
// very records the log holds. It never writes to dir.
func Verify(dir string, pub ed25519.PublicKey, trusted []ed25519.PublicKey) (*Verdict, error) {
	bv, err := book.Verify(dir, Spec, pub)
	if err != nil {
		return nil, err
	}
	v := &Verdict{Verdict: *bv}
	if bv.State != nil {
		v.State = bv.State.(fold).s
	}
	problem := func(format string, a ...any) { v.Problems = append(v.Problems, fmt.Sprintf(format, a...)) }
	sessions := map[string]*Session{}
	// A chemin de fer session's records are folded again by the game's own
	// folder (chemin.Folder): every cent, every payment against the
	// stakes, and every card dealt from a sabot against the order its end
	// reveals, whose digest was committed before its first card.
	folders := map[string]*chemin.Folder{}
	err = Records(dir, func(seq uint64, r Record) error {
		switch x := r.(type) {
		case SessionOpen:
			if _, err := reels.Verify("table "+x.Table+" session "+fmt.Sprint(x.Session), x.Definition, x.Signature, trusted); err != nil {
				problem("record %d: %v", seq, err)
			}
			s, err := SessionOf(x, seq, nil)
			if err != nil {
				problem("record %d: %v", seq, err)
				delete(sessions, x.Table)
				return nil
			}
			sessions[x.Table] = s
			delete(folders, x.Table)
			if s.Def.Chemin != nil {
				folders[x.Table] = chemin.NewFolder()
			}
			v.Sessions++
		case Step:
			s := sessions[x.Table]
			switch {
			case s == nil:
				return nil // the session could not be opened: named above
			case x.Session != s.Number || x.Opened != s.Opened:
				problem("record %d: a step of %s session %d opened at %d, the session open is %d opened at %d", seq, x.Table, x.Session, x.Opened, s.Number, s.Opened)
				delete(sessions, x.Table)
			default:
				if err := s.Replay(x); err != nil {
					problem("record %d (%s session %d): %v", seq, x.Table, x.Session, err)
					delete(sessions, x.Table)
					return nil
				}
				v.Steps++
				if f := folders[x.Table]; f != nil {
					if err := f.Add(x.Records...); err != nil {
						problem("record %d (%s session %d): chemin de fer fold: %v", seq, x.Table, x.Session, err)
						delete(folders, x.Table)
					}
				}
			}
		case SessionClose:
			delete(sessions, x.Table)
		}
		return nil
	})
	if err != nil {
		problem("reading the log: %v", err)
	}
	v.OK = len(v.Problems) == 0
	return v, nil
}
