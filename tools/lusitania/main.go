// Command lusitania generates the three certified versions of the game
// "Lusitânia" (5 reels, 3 rows, 20 lines) from their symbol counts, so the
// strips in assets/paytables are reproducible from a reviewable design: the
// versions share symbols, art, lines and pays and differ only in how many
// of each symbol their strips carry.
//
//	go run ./tools/lusitania -out assets/paytables
//
// It prints each version's exact RTP per bet level. The files still have to
// be signed (parsheet sign) before the cabinet will run them.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openegm/cabinet/reels"
)

type symbol struct{ id, kind, pt, en string }

var symbols = []symbol{
	{"W", "wild", "Coroa", "Crown"},
	{"S", "scatter", "Caravela", "Caravel"},
	{"GA", "normal", "Galo de Barcelos", "Barcelos Rooster"},
	{"GU", "normal", "Guitarra", "Portuguese Guitar"},
	{"AN", "normal", "Âncora", "Anchor"},
	{"SA", "normal", "Sardinha", "Sardine"},
	{"AZ", "normal", "Azulejo", "Tile"},
	{"A", "normal", "Ás", "Ace"},
	{"K", "normal", "Rei", "King"},
	{"Q", "normal", "Dama", "Queen"},
	{"J", "normal", "Valete", "Jack"},
	{"T", "normal", "Dez", "Ten"},
}

// The 20 lines of a 5×3 window, rows 0 (top) to 2.
var lines = [][]int{
	{1, 1, 1, 1, 1}, {0, 0, 0, 0, 0}, {2, 2, 2, 2, 2}, {0, 1, 2, 1, 0}, {2, 1, 0, 1, 2},
	{0, 0, 1, 2, 2}, {2, 2, 1, 0, 0}, {1, 0, 0, 0, 1}, {1, 2, 2, 2, 1}, {0, 1, 1, 1, 0},
	{2, 1, 1, 1, 2}, {1, 0, 1, 2, 1}, {1, 2, 1, 0, 1}, {0, 1, 0, 1, 0}, {2, 1, 2, 1, 2},
	{1, 1, 0, 1, 1}, {1, 1, 2, 1, 1}, {0, 2, 0, 2, 0}, {2, 0, 2, 0, 2}, {0, 2, 2, 2, 0},
}

// pays[symbol] = pays for 2, 3, 4, 5 of a kind (0 = none).
var pays = []struct {
	id   string
	pays [4]int
}{
	{"W", [4]int{0, 50, 250, 2500}},
	{"GA", [4]int{2, 25, 100, 750}},
	{"GU", [4]int{0, 20, 80, 400}},
	{"AN", [4]int{0, 15, 60, 250}},
	{"SA", [4]int{0, 15, 50, 200}},
	{"AZ", [4]int{0, 10, 40, 150}},
	{"A", [4]int{0, 5, 25, 100}},
	{"K", [4]int{0, 5, 20, 100}},
	{"Q", [4]int{0, 5, 15, 75}},
	{"J", [4]int{0, 5, 15, 60}},
	{"T", [4]int{0, 5, 10, 50}},
}

// counts[version][reel][symbol index] — the design. Wilds sit mostly on
// the middle reels; scatters are two per reel, spread so one reel never shows
// two. The 92 and 96 versions take one Ten off reels 3-5 and off every reel:
// shorter strips make every paying symbol more frequent.
var versions = []struct {
	id, pt, en string
	counts     [5][12]int
}{
	{"lusitania-88", "Lusitânia 88", "Lusitania 88", [5][12]int{
		//W  S GA GU AN SA AZ  A  K  Q  J  T
		{1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 5},
		{3, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 5},
		{3, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 5},
		{3, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 5},
		{1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 5},
	}},
	{"lusitania-92", "Lusitânia 92", "Lusitania 92", [5][12]int{
		//W  S GA GU AN SA AZ  A  K  Q  J  T
		{1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 5},
		{3, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 5},
		{3, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 4},
		{3, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 4},
		{1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 4},
	}},
	{"lusitania-96", "Lusitânia 96", "Lusitania 96", [5][12]int{
		//W  S GA GU AN SA AZ  A  K  Q  J  T
		{1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 4},
		{3, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 4},
		{3, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 4},
		{3, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 4},
		{1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 4},
	}},
}

// strip spreads the counts evenly (smooth weighted round-robin), so equal
// symbols are as far apart as their counts allow.
func strip(counts [12]int) []string {
	total := 0
	for _, c := range counts {
		total += c
	}
	current := make([]int, len(counts))
	out := make([]string, 0, total)
	for range total {
		best := -1
		for i, c := range counts {
			current[i] += c
			if c > 0 && (best < 0 || current[i] > current[best]) {
				best = i
			}
		}
		current[best] -= total
		out = append(out, symbols[best].id)
	}
	return out
}

func quoteAll(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ",")
}

func render(v int) []byte {
	ver := versions[v]
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"id\": %q,\n  \"version\": 1,\n  \"title\": {\"pt\": %q, \"en\": %q},\n  \"rows\": 3,\n  \"symbols\": [\n", ver.id, ver.pt, ver.en)
	for i, s := range symbols {
		sep := ","
		if i == len(symbols)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    {\"id\": %q, \"kind\": %q, \"name\": {\"pt\": %q, \"en\": %q}}%s\n", s.id, s.kind, s.pt, s.en, sep)
	}
	b.WriteString("  ],\n  \"reels\": [\n")
	for i, c := range ver.counts {
		sep := ","
		if i == len(ver.counts)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    [%s]%s\n", quoteAll(strip(c)), sep)
	}
	b.WriteString("  ],\n  \"lines\": [\n")
	for i, l := range lines {
		sep := ","
		if i == len(lines)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    [%d,%d,%d,%d,%d]%s\n", l[0], l[1], l[2], l[3], l[4], sep)
	}
	b.WriteString("  ],\n  \"line_pays\": [\n")
	var entries []string
	for _, p := range pays {
		for k, v := range p.pays {
			if v == 0 {
				continue
			}
			prog := ""
			if p.id == "W" && k == 3 {
				prog = `, "progressive": 1`
			}
			entries = append(entries, fmt.Sprintf("    {\"symbol\": %q, \"count\": %d, \"pays\": %d%s}", p.id, k+2, v, prog))
		}
	}
	b.WriteString(strings.Join(entries, ",\n"))
	b.WriteString("\n  ],\n")
	b.WriteString(`  "scatter_pays": [
    {"symbol": "S", "count": 2, "pays": 1},
    {"symbol": "S", "count": 3, "pays": 3},
    {"symbol": "S", "count": 4, "pays": 20},
    {"symbol": "S", "count": 5, "pays": 100}
  ],
  "free_games": {
    "symbol": "S",
    "awards": [{"count": 3, "games": 10}, {"count": 4, "games": 15}, {"count": 5, "games": 20}],
    "multiplier": 2,
    "reels": null,
    "retrigger": true
  },
  "credits_per_line": [1, 2, 3, 5, 10]
}
`)
	return b.Bytes()
}

// oneScatterPerReel keeps the design promise that a reel shows at most one
// Caravel, so "n Caravels" means "Caravels on n reels" to the player.
func oneScatterPerReel(p *reels.Paytable) error {
	for i, strip := range p.Reels {
		for s := range strip {
			n := 0
			for r := range p.Rows {
				if p.Symbols[strip[(s+r)%len(strip)]].Kind == reels.Scatter {
					n++
				}
			}
			if n > 1 {
				return fmt.Errorf("reel %d at stop %d shows %d scatters", i+1, s, n)
			}
		}
	}
	return nil
}

func main() {
	out := flag.String("out", "", "directory to write the paytables to (default: only print their RTP)")
	flag.Parse()
	for v, ver := range versions {
		data := render(v)
		name := ver.id + ".json"
		p, err := reels.Parse(name, data)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := oneScatterPerReel(p); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			os.Exit(1)
		}
		rtps, err := p.RTP()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%-14s", ver.id)
		for i, r := range rtps {
			fmt.Printf("  level %d: %s", i+1, reels.Exact{Rat: r}.Percent(3))
		}
		fmt.Println()
		if *out != "" {
			if err := os.WriteFile(filepath.Join(*out, name), data, 0o644); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
}
