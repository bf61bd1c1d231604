// Package compliance keeps docs/compliance.md honest: every code or test it
// names must exist in the tree, so the table a lab reads cannot silently rot
// when a function is renamed or a test is deleted.
package compliance

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const doc = "../../docs/compliance.md"

// refPattern matches `dir:Name` and `dir:Type.Method`.
var refPattern = regexp.MustCompile("`([a-z0-9_/]+):([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)?)`")

// declared lists the top-level names of one directory: functions, types,
// variables, constants, and methods as Type.Method.
func declared(t *testing.T, dir string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	files, err := filepath.Glob(filepath.Join("../..", dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					names[d.Name.Name] = true
					continue
				}
				names[receiverType(d.Recv.List[0].Type)+"."+d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}

func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverType(e.X)
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

func TestEveryReferenceExists(t *testing.T) {
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	refs := refPattern.FindAllStringSubmatch(string(text), -1)
	if len(refs) < 100 {
		t.Fatalf("only %d references found in %s; the pattern or the document broke", len(refs), doc)
	}
	cache := map[string]map[string]bool{}
	var missing []string
	for _, r := range refs {
		dir, name := r[1], r[2]
		names, ok := cache[dir]
		if !ok {
			if st, err := os.Stat(filepath.Join("../..", dir)); err != nil || !st.IsDir() {
				missing = append(missing, r[0]+" (no such directory)")
				cache[dir] = map[string]bool{}
				continue
			}
			names = declared(t, dir)
			cache[dir] = names
		}
		if !names[name] {
			missing = append(missing, r[0])
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/compliance.md names %d things that do not exist:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
}

// TestEverySlotMachineRuleHasARow: the 14 rules of Title III are all listed,
// each with code or the plain statement why the firmware has nothing to do.
func TestEverySlotMachineRuleHasARow(t *testing.T) {
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| (\d+) \|`)
	seen := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(string(text), -1) {
		seen[m[1]] = true
	}
	for n := 1; n <= 14; n++ {
		if !seen[strconv.Itoa(n)] {
			t.Errorf("rule %d of Title III has no row", n)
		}
	}
}

// cheminSection is the heading of chemin de fer's rules in docs/compliance.md.
const cheminSection = "## Chemin de fer — Portaria 817/2005 Title II Section I (rules 7–107)"

// TestEveryCheminRuleHasARow: rules 7 to 107 of Title II Section I (banca
// francesa) each have one row of their own in the chemin de fer section,
// with the code that implements the rule or the plain statement why it is
// not done or does not apply. Only that section is read, so the slot
// machines' rows 7-14 do not count.
func TestEveryCheminRuleHasARow(t *testing.T) {
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	start := strings.Index(s, "\n"+cheminSection+"\n")
	if start < 0 {
		t.Fatalf("%s has no section %q", doc, cheminSection)
	}
	section := s[start+len(cheminSection)+2:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	row := regexp.MustCompile(`(?m)^\| (\d+) \|(.*)$`)
	rows := map[int]int{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		n, _ := strconv.Atoi(m[1])
		rows[n]++
		if n < 7 || n > 107 {
			t.Errorf("row %d: Section I's rules are 7 to 107", n)
			continue
		}
		// rule | code | tests | not done |
		cells := strings.Split(m[2], "|")
		if len(cells) != 5 || strings.TrimSpace(cells[4]) != "" {
			t.Errorf("rule %d: %d cells, want rule, code, tests and not done", n, len(cells))
			continue
		}
		rule, code, notDone := strings.TrimSpace(cells[0]), strings.Trim(strings.TrimSpace(cells[1]), "—"), strings.TrimSpace(cells[3])
		switch {
		case rule == "":
			t.Errorf("rule %d: the rule is not said", n)
		case code == "" && notDone == "":
			t.Errorf("rule %d: no code and no word on why not", n)
		}
	}
	for n := 7; n <= 107; n++ {
		switch rows[n] {
		case 0:
			t.Errorf("rule %d of Title II Section I has no row", n)
		case 1:
		default:
			t.Errorf("rule %d of Title II Section I has %d rows", n, rows[n])
		}
	}
}

// TestReferenceCheckerCatchesAMissingName proves the checker can fail: a
// made-up reference must not be found.
func TestReferenceCheckerCatchesAMissingName(t *testing.T) {
	names := declared(t, "book")
	if !names["Verify"] {
		t.Fatal("book:Verify should be declared")
	}
	if names["VerifyNothingAtAll"] || names["Book.NoSuchMethod"] {
		t.Fatal("checker reports a name that does not exist")
	}
}
