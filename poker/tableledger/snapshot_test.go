package tableledger

import (
	"bytes"
	"encoding/json"
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
