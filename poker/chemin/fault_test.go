package chemin

import (
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/rng"
)

// A cent out of place stops the table for good after the step (DESIGN rule
// 3), as at the poker tables: every later step is refused.
func TestAConservationFailureStopsTheTable(t *testing.T) {
	tb, err := New(Rules{Table: "x", Seats: 6, MinBank: 1000, MinBet: 100, DecisionTime: 10 * time.Second}, rng.NewSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 5, 21, 0, 0, 0, time.UTC)
	for i, id := range []string{"a", "b", "c", "d"} {
		if _, err := tb.Step(poker.Join{At: at, Player: id, Seat: i + 1, Amount: 5000}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tb.Step(poker.Deal{At: at}); err != nil {
		t.Fatal(err)
	}
	tb.garage++ // a cent from nowhere
	_, err = tb.Step(poker.Act{At: at, Player: "a", Action: poker.Action{Kind: Bank, To: 1000}})
	if err == nil || !strings.Contains(err.Error(), "chip conservation") || tb.Fault() == nil {
		t.Fatalf("the step with a cent too many: %v", err)
	}
	if _, err := tb.Step(poker.Tick{At: at}); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("a stopped table stepped: %v", err)
	}
}
