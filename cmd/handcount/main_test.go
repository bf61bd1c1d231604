package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/openegm/cabinet/cards"
)

func runJSON(t *testing.T, args ...string) []Table {
	t.Helper()
	var out bytes.Buffer
	if err := run(append([]string{"--json"}, args...), &out); err != nil {
		t.Fatal(err)
	}
	var tables []Table
	if err := json.Unmarshal(out.Bytes(), &tables); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return tables
}

// The tool prints what the enumerations count, highest category first, with
// the total and percentages that add up.
func TestPrintsTheCounts(t *testing.T) {
	args := []string{"--only", "28-5,28-deals,52-5"}
	if os.Getenv("POKER_LONG") != "" {
		args = nil // every section, the 133 million seven-card hands too
	}
	tables := runJSON(t, args...)
	want := map[string]struct {
		r     *cards.Ranking
		c     cards.CategoryCounts
		total uint64
	}{
		"28-5":     {cards.Synthetic28(), cards.Count28Five(), 98280},
		"28-deals": {cards.Synthetic28(), cards.Count28Deals(), 24864840},
		"52-5":     {cards.Holdem52(), cards.Count52Five(), 2598960},
		"52-7":     {cards.Holdem52(), cards.CategoryCounts{}, 133784560},
	}
	if n := map[bool]int{true: 3, false: 4}[args != nil]; len(tables) != n {
		t.Fatalf("%d tables, want %d", len(tables), n)
	}
	for _, tb := range tables {
		w := want[tb.Section]
		if tb.Total != w.total {
			t.Errorf("%s: total %d, want %d", tb.Section, tb.Total, w.total)
		}
		cats := w.r.Categories()
		if len(tb.Rows) != len(cats) {
			t.Fatalf("%s: %d rows", tb.Section, len(tb.Rows))
		}
		var sum uint64
		for i, row := range tb.Rows {
			cat := cats[len(cats)-1-i]
			if row.Category != cat.Name("pt") {
				t.Errorf("%s row %d: %q, want %q", tb.Section, i, row.Category, cat.Name("pt"))
			}
			if tb.Section != "52-7" && row.Hands != w.c[cat] {
				t.Errorf("%s %s: %d, counted %d", tb.Section, row.Category, row.Hands, w.c[cat])
			}
			sum += row.Hands
		}
		if sum != tb.Total {
			t.Errorf("%s: rows add to %d, total %d", tb.Section, sum, tb.Total)
		}
	}
	if args == nil && (len(tables) != 4 || tables[3].Rows[0].Hands != 4324 || tables[3].Rows[9].Hands != 23294460) {
		t.Errorf("52-7: %+v", tables[len(tables)-1])
	}
}

func TestTextInEnglish(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"--lang", "en", "--only", "28-5"}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"Synthetic poker: every 5-card hand", "flush", "68", "full house", "1008",
		"figures with two pairs", "1728", "total", "98280", "0.069190 %"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in\n%s", want, s)
		}
	}
}

func TestRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{{"--lang", "fr"}, {"--only", "28-6"}, {"extra"}} {
		var out bytes.Buffer
		if err := run(args, &out); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		n, total uint64
		want     string
	}{{1, 3, "33.333333"}, {2, 3, "66.666667"}, {3, 3, "100.000000"}, {0, 7, "0.000000"}, {68, 98280, "0.069190"}} {
		if got := percent(c.n, c.total); got != c.want {
			t.Errorf("percent(%d, %d) = %s, want %s", c.n, c.total, got, c.want)
		}
	}
}
