package tableledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/synthetic"
)

const syntheticDef = `{"id": "t-sp", "version": 1, "game": "synthetic_poker", "title": {"pt": "T", "en": "T"},
  "number": 3, "initial_cave_cents": 20000, "min_bet_cents": 100, "min_rebuy_cents": 5000,
  "rake_bps": 300, "estardilho": false, "partida_minutes": 60, "decision_seconds": 20}`

// A snapshot written between a hand's start and its first stake (synthetic
// poker: the hand starts, then each player buys the cards or not) must fold
// on from where it was. The hand's stakes, an empty map then, were left out
// of the snapshot and came back nil: the first ante after it crashed the
// fold, and the table server could not start again after a kill (found by
// the long kill loop of cmd/tablesrv).
func TestSnapshotBeforeTheFirstStakeFoldsOn(t *testing.T) {
	d := newDriver(t)
	d.open("sp", syntheticDef)
	for i, p := range []string{"ana", "bia", "caio", "duda"} {
		d.join(p, i+1)
	}
	d.step(poker.Deal{At: d.later()}, nil)
	var snap []byte
	d.l.View(func(s *State) {
		if s.Tables["sp"].Hand == 0 || len(s.Tables["sp"].Stakes) != 0 {
			t.Fatalf("the test needs a hand started with nothing staked: %+v", s.Tables["sp"])
		}
		var err error
		if snap, err = (fold{s}).Encode(); err != nil {
			t.Fatal(err)
		}
	})
	restored, err := restore(snap)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := d.s.Step(poker.Act{At: d.later(), Player: "ana", Action: poker.Action{Kind: synthetic.Ante}}, nil)
	if err != nil || st == nil {
		t.Fatalf("ana's ante: %v", err)
	}
	if err := restored.(fold).s.Apply(*st); err != nil {
		t.Fatalf("the ante folded on the snapshot: %v", err)
	}
	if _, err := d.l.Commit(*st); err != nil {
		t.Fatal(err)
	}
	var live []byte
	d.l.View(func(s *State) { live, _ = json.Marshal(s) })
	again, _ := json.Marshal(restored.(fold).s)
	if !bytes.Equal(live, again) {
		t.Fatalf("the state folded from the snapshot differs from the live one:\n%s\n%s", again, live)
	}
}

// A snapshot may be written after any step of a chemin de fer table (the
// server seals every thousand records): restored there, the state folds
// the next step exactly as the live one does. Checked at every step of
// sessions with bets, auctions and associations, players coming and going:
// the stakes of a coup before its first bet, and the associations of an
// auction before the first associated bid, came back nil (omitempty), and
// the next bet or bid crashed the fold (found by cmd/tablesrv's kill loop).
func TestCheminSnapshotAtEveryStepFoldsOn(t *testing.T) {
	for _, plan := range []cheminPlan{{seed: 5, resume: true}, {prefer: true, seed: 9, churn: true}} {
		o, steps := cheminPlay(t, 600, plan)
		live := NewState()
		if err := live.Apply(o); err != nil {
			t.Fatal(err)
		}
		for i, x := range steps {
			snap, err := (fold{live}).Encode()
			if err != nil {
				t.Fatal(err)
			}
			restored, err := restore(snap)
			if err != nil {
				t.Fatal(err)
			}
			if err := live.Apply(x); err != nil {
				t.Fatalf("plan %+v, step %d: %v", plan, i, err)
			}
			if err := applyRecovering(restored.(fold).s, x); err != nil {
				t.Fatalf("plan %+v, step %d folded on a snapshot of the step before: %v", plan, i, err)
			}
			a, _ := json.Marshal(live)
			b, _ := json.Marshal(restored.(fold).s)
			if !bytes.Equal(a, b) {
				t.Fatalf("plan %+v, step %d: the state folded from the snapshot differs from the live one", plan, i)
			}
		}
	}
}

// applyRecovering is Apply with a panic turned into an error, so that a
// fold that crashes fails the test with its step.
func applyRecovering(s *State, x Step) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return s.Apply(x)
}

// The maps the fold writes into come back from a snapshot as the live
// state held them, empty where they were empty: an auction with bids and
// no associated bid yet keeps its (empty) associations, a table with no
// auction keeps none.
func TestRestoreGivesBackEmptyMaps(t *testing.T) {
	s := NewState()
	s.Tables["auction"] = &Table{Hand: 3, Stakes: map[int]int64{}, Offers: map[int]int64{2: 100_00}, Partners: map[int]int{}}
	s.Tables["idle"] = &Table{}
	snap, err := (fold{s}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	r, err := restore(snap)
	if err != nil {
		t.Fatal(err)
	}
	got := r.(fold).s.Tables
	if a := got["auction"]; a.Stakes == nil || a.Partners == nil || a.Offers[2] != 100_00 {
		t.Fatalf("the auction came back %+v", a)
	}
	if i := got["idle"]; i.Offers != nil || i.Partners != nil {
		t.Fatalf("a table with no auction came back with one: %+v", i)
	}
}
