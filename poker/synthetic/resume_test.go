package synthetic_test

import (
	"testing"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/rng"
)

// The server's rule for a synthetic-poker hand a failure stopped (SRIJ rule
// 86 by analogy): void, every ante and bet back to its player, and a pot
// carried from a pó waits for the next hand, which is a pó again.
func TestResumeVoidsAPoHand(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(4), four...)
	s.Deal()
	s.antes(four...)
	s.CallDown() // everyone checks after the first card: pó, 400 carried
	stacks := map[string]int64{}
	for _, id := range four {
		stacks[id] = s.Stack(id)
	}
	recs := s.Deal()
	if posts := find(recs, poker.KindPost); len(posts) != 4 || posts[0].Action != "po_ante" {
		t.Fatalf("not a pó: %+v", recs)
	}
	recs = s.OK(poker.Resume{At: s.Now})
	void := find(recs, poker.KindVoid)
	if len(void) != 1 || void[0].Amount != 400 || len(void[0].Shares) != 4 {
		t.Fatalf("void %+v", recs)
	}
	for _, id := range four {
		if s.Stack(id) != stacks[id] {
			t.Errorf("%s: %d after the void, %d before", id, s.Stack(id), stacks[id])
		}
	}
	if v := s.tb.View(""); len(v.Pots) != 1 || v.Pots[0] != 400 {
		t.Fatalf("the carried pot after the void: %+v", v.Pots)
	}
	recs = s.Deal()
	if start := find(recs, poker.KindHandStart); start[0].Amount != 400 || find(recs, poker.KindPost)[0].Action != "po_ante" {
		t.Fatalf("the hand after the void is no pó: %+v", recs)
	}
}

// A hand stopped while the antes are asked: the antes paid go back, the
// next hand asks again.
func TestResumeVoidsDuringTheAntes(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(4), four...)
	s.Deal()
	s.antes("ana", "bia")
	recs := s.OK(poker.Resume{At: s.Now})
	if v := find(recs, poker.KindVoid); len(v) != 1 || len(v[0].Shares) != 2 || v[0].Amount != 0 {
		t.Fatalf("void %+v", recs)
	}
	for _, id := range four {
		if s.Stack(id) != baseConfig().InitialCave {
			t.Errorf("%s has %d", id, s.Stack(id))
		}
	}
	if o := s.tb.View("ana").Offer; o != nil {
		t.Fatalf("an ante is still asked: %+v", o)
	}
	s.Deal()
	if o := s.tb.View("ana").Offer; o == nil || o.Accept != "ante" {
		t.Fatalf("the next hand asks no ante: %+v", o)
	}
}
