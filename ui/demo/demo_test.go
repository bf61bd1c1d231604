package demo

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/machine"
)

// The demo machine has the default jackpot: its two levels are in the view,
// at their reset values, and bets feed them (the mystery level at any bet,
// the paytable level at the top bet).
func TestDefaultJackpot(t *testing.T) {
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	c := New(pt, Config{MachineID: "EGM-DEMO", Denom: 1, Seed: 3})
	v := c.View()
	if len(v.Jackpots) != 2 {
		t.Fatalf("view has %d jackpot levels, want 2: %+v", len(v.Jackpots), v.Jackpots)
	}
	for i, want := range DefaultJackpot {
		j := v.Jackpots[i]
		if j.Level != want.Level || j.Mystery != want.Mystery || j.Cents != want.ResetCents || j.ResetCents != want.ResetCents ||
			j.CapCents != want.CapCents || j.RatePPM != want.RatePPM {
			t.Errorf("level %d in the view: %+v, configured %+v", i, j, want)
		}
	}
	if v.TopOffered != pt.TopLevel() {
		t.Errorf("with the paytable's level local, the top bet must be offered: max level %d, top %d", v.TopOffered, pt.TopLevel())
	}
	c.InsertBill(50_000)
	c.Press(machine.BtnMaxBet)
	for range 20 {
		c.Press(machine.BtnSpin)
		c.Advance(3 * time.Second)
	}
	after := c.View().Jackpots
	for i := range after {
		if after[i].Cents <= v.Jackpots[i].Cents && !after[i].Pending {
			t.Errorf("level %d did not grow with 20 top bets: %d → %d cents", after[i].Level, v.Jackpots[i].Cents, after[i].Cents)
		}
	}
	if v := New(pt, Config{NoJackpot: true}).View(); len(v.Jackpots) != 0 {
		t.Errorf("NoJackpot: %+v", v.Jackpots)
	}
}

// Promotional credit reaches the demo machine as the host's transfer does:
// the view tells it by kind, the restricted credit with its last day, and
// a second restricted transfer in a row is taken too (the positions of
// the AFT history follow one another).
func TestPromo(t *testing.T) {
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	c := New(pt, Config{MachineID: "EGM-DEMO", Denom: 1, Seed: 3})
	c.InsertBill(1000)
	exp := aft.DateOf(c.Now().AddDate(0, 1, 0))
	if why := c.Promo("P-1", 1500, 500, exp); why != "" {
		t.Fatal(why)
	}
	if why := c.Promo("P-2", 100, 0, exp); why != "" {
		t.Fatal(why)
	}
	v := c.View()
	if v.CreditsCents != 3100 || v.RestrictedCents != 1600 || v.NonRestrictedCents != 500 || v.RestrictedExpires != exp {
		t.Fatalf("view: credits %d, restricted %d until %v, non-restricted %d", v.CreditsCents, v.RestrictedCents, v.RestrictedExpires, v.NonRestrictedCents)
	}
	if why := c.Promo("P-2", 100, 0, exp); why == "" {
		t.Fatal("a transfer ID run twice was taken twice")
	}
}
