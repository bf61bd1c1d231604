package compliance

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// raceExempt are the packages that start goroutines but are not in make
// test's race pass, each with its reason (the Makefile says it too).
var raceExempt = map[string]string{
	"cmd/tablesrv":      "its goroutines are poker/tableserver's, raced in process; its browsers and kill loops under -race: make race-all",
	"cmd/screen-window": "ebiten's window, drawn under Xvfb in the screen pass",
	"cmd/uidemo":        "ebiten's window, drawn under Xvfb in the screen pass",
	"ui":                "ebiten's screens, drawn under Xvfb in the screen pass",
}

// startsGoroutines lists the module's package directories that start a
// goroutine in their code or their tests: those the race detector has
// something to look at.
func startsGoroutines(t *testing.T, root string) []string {
	t.Helper()
	found := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.GoStmt); ok {
				rel, _ := filepath.Rel(root, filepath.Dir(p))
				found[filepath.ToSlash(rel)] = true
				return false
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for d := range found {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// racePatterns reads the race pass's package patterns from the Makefile's
// RACE_PKGS (continued lines included).
func racePatterns(t *testing.T, makefile string) []string {
	t.Helper()
	b, err := os.ReadFile(makefile)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^RACE_PKGS = ((?:.*\\\n)*.*)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("the Makefile has no RACE_PKGS")
	}
	return strings.Fields(strings.ReplaceAll(string(m[1]), "\\\n", " "))
}

// covered says whether a go test pattern (./x/... or ./x/) names dir.
func covered(patterns []string, dir string) bool {
	for _, p := range patterns {
		p = strings.TrimPrefix(p, "./")
		if rest, ok := strings.CutSuffix(p, "/..."); ok {
			if dir == rest || strings.HasPrefix(dir, rest+"/") {
				return true
			}
		} else if strings.TrimSuffix(p, "/") == dir {
			return true
		}
	}
	return false
}

// TestRacePassCoversEveryGoroutine: every package that starts a goroutine
// is in make test's race pass or is exempt for a stated reason, so new
// concurrent code (a group commit, a batcher) cannot go unraced because
// nobody added its package to the list; and nothing exempt or listed is
// stale.
func TestRacePassCoversEveryGoroutine(t *testing.T) {
	patterns := racePatterns(t, "../../Makefile")
	dirs := startsGoroutines(t, "../..")
	if len(dirs) < 10 {
		t.Fatalf("only %d packages start goroutines: the scan is broken (%v)", len(dirs), dirs)
	}
	starts := map[string]bool{}
	for _, d := range dirs {
		starts[d] = true
		_, exempt := raceExempt[d]
		if in := covered(patterns, d); !in && !exempt {
			t.Errorf("%s starts goroutines but is not in the Makefile's RACE_PKGS (nor exempt here with a reason)", d)
		} else if in && exempt {
			t.Errorf("%s is both in RACE_PKGS and exempt", d)
		}
	}
	for d := range raceExempt {
		if !starts[d] {
			t.Errorf("%s is exempt from the race pass but starts no goroutine: drop it from raceExempt", d)
		}
	}
	for _, p := range patterns {
		dir := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/..."), "/")
		if fi, err := os.Stat(filepath.Join("../..", dir)); err != nil || !fi.IsDir() {
			t.Errorf("RACE_PKGS names %s, which is not a directory", p)
		}
	}
}

// The pattern matching the test relies on.
func TestRacePatternsCover(t *testing.T) {
	ps := []string{"./book/...", "./cmd/cabinet/", "./jackpot/ledger/"}
	for dir, want := range map[string]bool{
		"book": true, "book/walog": true, "bookish": false, "cmd/cabinet": true, "cmd/cabinet/x": false,
		"jackpot": false, "jackpot/ledger": true, "jackpot/link": false,
	} {
		if got := covered(ps, dir); got != want {
			t.Errorf("covered(%q) = %v, want %v", dir, got, want)
		}
	}
}
