//go:build production

package assets

import (
	"strings"
	"testing"
)

// A production build refuses the table definitions signed with the
// development key, as it refuses the paytables.
func TestProductionRefusesDevelopmentSignedTables(t *testing.T) {
	if len(Tables()) < 2 {
		t.Fatalf("tables %v", Tables())
	}
	for _, id := range Tables() {
		if _, err := LoadTable(id); err == nil || !strings.Contains(err.Error(), "(signature)") {
			t.Fatalf("%s: %v", id, err)
		}
	}
}

// ... and the poker table definitions.
func TestProductionRefusesDevelopmentSignedPokerTables(t *testing.T) {
	if len(PokerTables()) < 2 {
		t.Fatalf("poker tables %v", PokerTables())
	}
	for _, id := range PokerTables() {
		if _, err := LoadPokerTable(id); err == nil || !strings.Contains(err.Error(), "(signature)") {
			t.Fatalf("%s: %v", id, err)
		}
	}
}

// ... and the chemin de fer table definitions.
func TestProductionRefusesDevelopmentSignedCheminTables(t *testing.T) {
	if len(CheminTables()) < 1 {
		t.Fatalf("chemin de fer tables %v", CheminTables())
	}
	for _, id := range CheminTables() {
		if _, err := LoadCheminTable(id); err == nil || !strings.Contains(err.Error(), "(signature)") {
			t.Fatalf("%s: %v", id, err)
		}
	}
}
