// Command handcount prints how many poker hands fall in each category of
// the rankings the card tables use, by exhaustive enumeration:
//
//	28-5      every five cards of the 28-card deck, Portuguese ranking
//	28-deals  every deal of synthetic poker seen by one player: two hole
//	          cards and five community cards, the best hand of the two and
//	          three of the five (Portaria 817/2005, rule 1)
//	52-5      every five cards of the 52-card deck
//	52-7      every seven cards of the 52-card deck, best five (hold'em)
//
// The 52-card figures are published ones (the tests check them); the 28-card
// figures are checked in the tests against a brute force with the reference
// evaluator. Usage:
//
//	handcount [--lang pt|en] [--json] [--only 28-5,28-deals,52-5,52-7]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/openegm/cabinet/cards"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "handcount:", err)
		os.Exit(2)
	}
}

type section struct {
	name    string
	title   [2]string // pt, en
	ranking *cards.Ranking
	count   func() cards.CategoryCounts
}

var sections = []section{
	{"28-5", [2]string{"Póquer sintético: todas as mãos de 5 cartas do baralho de 28", "Synthetic poker: every 5-card hand of the 28-card deck"},
		cards.Synthetic28(), cards.Count28Five},
	{"28-deals", [2]string{"Póquer sintético: 2 cartas do jogador e 3 das 5 comuns, todas as distribuições", "Synthetic poker: 2 hole cards and 3 of the 5 community cards, every deal"},
		cards.Synthetic28(), cards.Count28Deals},
	{"52-5", [2]string{"Baralho de 52: todas as mãos de 5 cartas", "52-card deck: every 5-card hand"},
		cards.Holdem52(), cards.Count52Five},
	{"52-7", [2]string{"Hold'em: as 5 melhores de 7 cartas, todas as mãos de 7", "Hold'em: the best 5 of 7 cards, every 7-card hand"},
		cards.Holdem52(), cards.Count52Seven},
}

// Row is one category's line, as --json writes it.
type Row struct {
	Category string `json:"category"`
	Hands    uint64 `json:"hands"`
	// Percent is hands/total in percent, rounded to 6 decimals (a string,
	// so no reader rounds it again).
	Percent string `json:"percent"`
}

// Table is one section, highest category first.
type Table struct {
	Section string `json:"section"`
	Title   string `json:"title"`
	Total   uint64 `json:"total"`
	Rows    []Row  `json:"rows"`
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("handcount", flag.ContinueOnError)
	fs.SetOutput(out)
	lang := fs.String("lang", "pt", "language of the names: pt or en")
	asJSON := fs.Bool("json", false, "write JSON")
	only := fs.String("only", "", "comma-separated sections (28-5, 28-deals, 52-5, 52-7); default all")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *lang != "pt" && *lang != "en" {
		return fmt.Errorf("--lang %q: want pt or en", *lang)
	}
	want := map[string]bool{}
	if *only != "" {
		for _, s := range strings.Split(*only, ",") {
			if !known(s) {
				return fmt.Errorf("--only: unknown section %q (28-5, 28-deals, 52-5, 52-7)", s)
			}
			want[s] = true
		}
	}
	var tables []Table
	for _, s := range sections {
		if len(want) > 0 && !want[s.name] {
			continue
		}
		tables = append(tables, tabulate(s, *lang))
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(tables)
	}
	for i, t := range tables {
		if i > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "%s\n", t.Title)
		for _, r := range t.Rows {
			fmt.Fprintf(out, "  %s %14d  %11s %%\n", pad(r.Category, 24), r.Hands, r.Percent)
		}
		fmt.Fprintf(out, "  %s %14d\n", pad("total", 24), t.Total)
	}
	return nil
}

// pad widens s to n characters (letters, not bytes: "sequência").
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

func known(name string) bool {
	for _, s := range sections {
		if s.name == name {
			return true
		}
	}
	return false
}

func tabulate(s section, lang string) Table {
	c := s.count()
	t := Table{Section: s.name, Title: s.title[0], Total: c.Total()}
	if lang == "en" {
		t.Title = s.title[1]
	}
	cats := s.ranking.Categories()
	for i := len(cats) - 1; i >= 0; i-- {
		n := c[cats[i]]
		t.Rows = append(t.Rows, Row{Category: cats[i].Name(lang), Hands: n, Percent: percent(n, t.Total)})
	}
	return t
}

// percent is 100·n/total rounded half up to six decimals, in integers.
func percent(n, total uint64) string {
	const scale = 100_000_000 // 100 % × 10^6
	q := (n*scale*2 + total) / (2 * total)
	return fmt.Sprintf("%d.%06d", q/1_000_000, q%1_000_000)
}
