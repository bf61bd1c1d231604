package reels

import (
	"reflect"
	"testing"
)

// rulesTable is a 5-reel, 3-row table whose strips are laid out so a test
// can pick the window it wants by choosing stops.
const rulesTable = `{
  "id": "rules", "version": 1, "title": {"pt": "Regras", "en": "Rules"}, "rows": 3,
  "symbols": [
    {"id": "W", "kind": "wild", "name": {"pt": "Coroa", "en": "Crown"}},
    {"id": "S", "kind": "scatter", "name": {"pt": "Caravela", "en": "Caravel"}},
    {"id": "A", "kind": "normal", "name": {"pt": "Âncora", "en": "Anchor"}},
    {"id": "B", "kind": "normal", "name": {"pt": "Bússola", "en": "Compass"}},
    {"id": "C", "kind": "normal", "name": {"pt": "Galo", "en": "Rooster"}}
  ],
  "reels": [
    ["W","A","B","C","S","C","B","A"],
    ["W","A","B","C","S","C","B","A"],
    ["W","A","B","C","S","C","B","A"],
    ["W","A","B","C","S","C","B","A"],
    ["W","A","B","C","S","C","B","A"]
  ],
  "lines": [[0,0,0,0,0], [1,1,1,1,1], [2,2,2,2,2]],
  "line_pays": [
    {"symbol": "A", "count": 3, "pays": 5},
    {"symbol": "A", "count": 5, "pays": 50},
    {"symbol": "B", "count": 5, "pays": 40},
    {"symbol": "W", "count": 2, "pays": 10},
    {"symbol": "W", "count": 3, "pays": 60},
    {"symbol": "W", "count": 5, "pays": 1000, "progressive": 1}
  ],
  "scatter_pays": [{"symbol": "S", "count": 2, "pays": 1}, {"symbol": "S", "count": 3, "pays": 5}],
  "free_games": {"symbol": "S", "awards": [{"count": 3, "games": 8}], "multiplier": 3, "reels": null, "retrigger": true},
  "credits_per_line": [1, 2, 5]
}`

// Strip index of each symbol as the top row: W=0 A=1 B=2 C=3 S=4; row 1 of
// stop s is strip[s+1].
func sym(t *testing.T, p *Paytable, ids ...string) []uint8 {
	t.Helper()
	var out []uint8
	for _, id := range ids {
		found := false
		for i, s := range p.Symbols {
			if s.ID == id {
				out = append(out, uint8(i))
				found = true
			}
		}
		if !found {
			t.Fatalf("no symbol %s", id)
		}
	}
	return out
}

func TestLineRules(t *testing.T) {
	p := mustParse(t, "rules.json", rulesTable)
	cases := []struct {
		name  string
		line  []string
		sym   string // paying symbol, "" for none
		count int
	}{
		{"substituted beats wild-only", []string{"W", "W", "A", "A", "A"}, "A", 5},
		{"wild-only beats substituted", []string{"W", "W", "W", "A", "C"}, "W", 3},         // W×3=60 > A×4 (none)
		{"wild-only beats shorter substituted", []string{"W", "W", "A", "C", "C"}, "W", 2}, // A×3=5 < W×2=10
		{"equal pays go to the substituted", []string{"W", "A", "A", "B", "B"}, "A", 3},    // W×1 pays nothing
		{"scatter interrupts a wild run", []string{"W", "W", "S", "W", "W"}, "W", 2},
		{"scatter first pays nothing on the line", []string{"S", "A", "A", "A", "A"}, "", 0},
		{"all wild", []string{"W", "W", "W", "W", "W"}, "W", 5},
		{"wild does not bridge two symbols", []string{"A", "W", "B", "B", "B"}, "", 0},
		{"run stops at a different symbol", []string{"A", "A", "A", "B", "A"}, "A", 3},
		{"unpaid count pays nothing", []string{"B", "B", "B", "B", "C"}, "", 0},
		{"wilds inside the run", []string{"B", "W", "B", "W", "B"}, "B", 5},
	}
	for _, c := range cases {
		pi := p.linePay(sym(t, p, c.line...))
		if c.sym == "" {
			if pi >= 0 {
				t.Errorf("%s: %v paid %+v", c.name, c.line, p.LinePays[pi])
			}
			continue
		}
		if pi < 0 {
			t.Errorf("%s: %v paid nothing, want %s×%d", c.name, c.line, c.sym, c.count)
			continue
		}
		got := p.LinePays[pi]
		if p.Symbols[got.Symbol].ID != c.sym || got.Count != c.count {
			t.Errorf("%s: %v paid %s×%d, want %s×%d", c.name, c.line, p.Symbols[got.Symbol].ID, got.Count, c.sym, c.count)
		}
	}
}

func TestScattersCountedInEveryRow(t *testing.T) {
	p := mustParse(t, "rules.json", rulesTable)
	// Stop 4 shows S on row 0, stop 3 on row 1, stop 2 on row 2: no line runs
	// through all three rows of different reels, the scatter still counts.
	sp, err := p.Evaluate([]int{4, 3, 2, 1, 1}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.Scatters) != 1 || sp.Scatters[0].Count != 3 {
		t.Fatalf("scatters %+v, want 3 caravels", sp.Scatters)
	}
	if want := int64(5 * 3 * 1); sp.Scatters[0].Credits != want {
		t.Fatalf("scatter pays %d, want 5 × total bet 3 = %d", sp.Scatters[0].Credits, want)
	}
	if sp.FreeAwarded != 8 {
		t.Fatalf("free games %d, want 8", sp.FreeAwarded)
	}
}

func TestReelShowingTwoScatters(t *testing.T) {
	src := `{
  "id": "two", "version": 1, "title": {"pt": "D", "en": "T"}, "rows": 3,
  "symbols": [
    {"id": "S", "kind": "scatter", "name": {"pt": "S", "en": "S"}},
    {"id": "A", "kind": "normal", "name": {"pt": "A", "en": "A"}}
  ],
  "reels": [["S","A","S","A"], ["A","A","A","A"], ["A","S","A","A"]],
  "lines": [[1,1,1]],
  "line_pays": [{"symbol": "A", "count": 3, "pays": 2}],
  "scatter_pays": [{"symbol": "S", "count": 2, "pays": 1}, {"symbol": "S", "count": 3, "pays": 10}],
  "credits_per_line": [1]
}`
	p := mustParse(t, "two.json", src)
	// Reel 0 at stop 0 shows S A S; reel 2 at stop 0 shows A S A.
	sp, err := p.Evaluate([]int{0, 0, 0}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.Scatters) != 1 || sp.Scatters[0].Count != 3 || sp.Scatters[0].Credits != 10 {
		t.Fatalf("scatters %+v, want 3 scatters paying 10", sp.Scatters)
	}
	// Two scatters from one reel alone pay the 2-count entry.
	sp, _ = p.Evaluate([]int{0, 0, 2}, 0, false)
	if len(sp.Scatters) != 1 || sp.Scatters[0].Count != 2 || sp.Scatters[0].Credits != 1 {
		t.Fatalf("scatters %+v, want 2 scatters paying 1", sp.Scatters)
	}
	// The distribution must know a reel can show two.
	dist := p.scatterDistribution(p.Reels, 0)
	if dist[3] == 0 {
		t.Fatalf("distribution %v has no combination with 3 scatters", dist)
	}
}

func TestEvaluateProgressiveOnlyAtTopLevel(t *testing.T) {
	p := mustParse(t, "rules.json", rulesTable)
	stops := []int{0, 0, 0, 0, 0} // row 0 all wild
	low, _ := p.Evaluate(stops, 0, false)
	top, _ := p.Evaluate(stops, p.TopLevel(), false)
	if got := low.Progressives(); len(got) != 0 {
		t.Fatalf("progressive %v at the lowest level", got)
	}
	if got := top.Progressives(); !reflect.DeepEqual(got, []int{1}) {
		t.Fatalf("progressives at top %v, want [1]", got)
	}
	// Row 0 is W×5: 1000 credits at level 0, a jackpot (0 credits) at the top.
	if low.Lines[0].Credits != 1000 || top.Lines[0].Credits != 0 {
		t.Fatalf("line 0 credits low=%d top=%d", low.Lines[0].Credits, top.Lines[0].Credits)
	}
}

func TestFreeGameMultiplierAndRetrigger(t *testing.T) {
	p := mustParse(t, "rules.json", rulesTable)
	stops := []int{4, 3, 2, 1, 1}
	base, _ := p.Evaluate(stops, 1, false)
	free, _ := p.Evaluate(stops, 1, true)
	if free.Win != 3*base.Win {
		t.Fatalf("free win %d, want 3 × base win %d", free.Win, base.Win)
	}
	if free.FreeAwarded != 8 {
		t.Fatalf("retrigger awarded %d, want 8", free.FreeAwarded)
	}
}

func TestEvaluateRefusesBadStops(t *testing.T) {
	p := mustParse(t, "rules.json", rulesTable)
	for _, stops := range [][]int{{0, 0, 0, 0}, {0, 0, 0, 0, 8}, {-1, 0, 0, 0, 0}} {
		if _, err := p.Evaluate(stops, 0, false); err == nil {
			t.Errorf("stops %v accepted", stops)
		}
	}
	if _, err := p.Evaluate([]int{0, 0, 0, 0, 0}, 3, false); err == nil {
		t.Error("bet level 3 accepted with 3 levels")
	}
}
