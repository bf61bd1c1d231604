package reconcile

import (
	"bytes"
	"strings"
	"testing"
)

func k(m string, game uint64) Key { return Key{Machine: m, Level: "mega", Game: game} }

func sk(m string, game uint64) Key { return Key{Machine: m, Level: "super", Game: game} }

// The sides agree: every award paid by its cabinet for the amount awarded
// and confirmed (and paid by etcd, on the shared level); one on its way.
func TestCompareAgree(t *testing.T) {
	r := Compare(Sources{
		Cabinets: []string{"egm-0", "egm-1"},
		Paid:     []Paid{{Key: k("egm-0", 1566), Cents: 1000_00}, {Key: sk("egm-1", 4), Cents: 5000_37}},
		Reported: []Reported{{Key: k("egm-1", 9), Cents: 1010_00}},
		Awarded: []Awarded{{Key: k("egm-0", 1566), Cents: 1000_00, Confirmed: true}, {Key: sk("egm-1", 4), Cents: 5000_37, Confirmed: true, Shared: true},
			{Key: k("egm-1", 9), Cents: 1009_99}, {Key: k("egm-9", 3), Cents: 1}},
		Etcd:   true,
		Claims: []Claimed{{Key: sk("egm-1", 4), Cents: 5000_37}},
	})
	var b bytes.Buffer
	r.WriteText(&b)
	if !r.Agree() || len(r.InFlight) != 1 || r.CabinetsPaid != 6000_37 || r.ControllerPaid != 7010_36 || !strings.HasPrefix(b.String(), "AGREE") {
		t.Fatalf("report %+v\n%s", r, b.String())
	}
}

// Every kind of disagreement is named with its cents: the amount paid for
// another game's award (the cabinet paid game 1567 what game 1566 won), a
// game awarded that never won, a game paid twice (a split that included a
// game already paid), a payment the controller never awarded, an award
// above what the cabinet shows, etcd and the controller apart.
func TestCompareDisagree(t *testing.T) {
	r := Compare(Sources{
		Cabinets: []string{"egm-0", "egm-1"},
		Paid: []Paid{
			{Key: k("egm-0", 1566), Cents: 1000_00},
			{Key: k("egm-0", 1567), Cents: 1000_00}, // awarded 31 c
			{Key: k("egm-1", 20), Cents: 500_00},    // twice
			{Key: k("egm-1", 20), Cents: 250_00},
			{Key: k("egm-1", 33), Cents: 700_00}, // never awarded
			{Key: sk("egm-0", 1600), Cents: 5000_00},
		},
		Reported: []Reported{{Key: k("egm-1", 40), Cents: 100_00}},
		Awarded: []Awarded{
			{Key: k("egm-0", 1566), Cents: 1000_00, Confirmed: true},
			{Key: k("egm-0", 1567), Cents: 31, Confirmed: true},
			{Key: k("egm-0", 1580), Cents: 999_69, Confirmed: true}, // a game that never won
			{Key: k("egm-1", 20), Cents: 250_00, Confirmed: true},
			{Key: k("egm-1", 40), Cents: 100_01},
			{Key: sk("egm-0", 1600), Cents: 5000_00, Confirmed: true, Shared: true},
		},
		Etcd:   true,
		Claims: []Claimed{{Key: sk("egm-0", 1600), Cents: 4999_00}},
	})
	want := map[Key]int64{
		k("egm-0", 1567): 999_69, k("egm-0", 1580): 999_69, k("egm-1", 33): 700_00, k("egm-1", 40): 1,
		sk("egm-0", 1600): 1_00,
	}
	var b bytes.Buffer
	r.WriteText(&b)
	text := b.String()
	if r.Agree() || !strings.HasPrefix(text, "DISAGREE") {
		t.Fatalf("no disagreement found:\n%s", text)
	}
	found := map[Key]int64{}
	twice := false
	for _, f := range r.Findings {
		if strings.Contains(f.What, "paid this hit twice") {
			twice = true
			continue
		}
		found[f.Key] = f.Cents
	}
	for key, c := range want {
		if found[key] != c {
			t.Errorf("%v: found %d c, want %d c\n%s", key, found[key], c, text)
		}
		if !strings.Contains(text, key.String()) {
			t.Errorf("%v not named in the text", key)
		}
	}
	// Game 20 was paid 750.00 for an award of 250.00: both said.
	if !twice || found[k("egm-1", 20)] != 500_00 {
		t.Errorf("game paid twice: reported %v, differ %d c\n%s", twice, found[k("egm-1", 20)], text)
	}
	if !strings.Contains(text, "the cabinet paid €1,000.00 (100000 c), the controller awarded €0.31 (31 c)") {
		t.Errorf("the amounts of each side are not in the text:\n%s", text)
	}
}
