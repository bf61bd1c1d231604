package compliance

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// rowPackages matches the package cells of the README's layout table:
// every `dir` or `dir/` in the first column.
var rowPackages = regexp.MustCompile("`([a-z0-9_/-]+?)/?`")

// The README's layout table names every package of the module, and
// nothing that is not one: a newcomer finds every directory there, and a
// package moved or deleted leaves no stale row.
func TestREADMELayoutNamesEveryPackage(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n## Layout")
	if start < 0 {
		t.Fatal("README has no Layout section")
	}
	section := text[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.SplitN(line[1:], "|", 2)[0]
		for _, m := range rowPackages.FindAllStringSubmatch(first, -1) {
			listed[m[1]] = true
		}
	}
	have := map[string]bool{}
	root := "../.."
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "docs") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			have[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range have {
		if !listed[p] {
			t.Errorf("package %s is not in the README's layout table", p)
		}
	}
	for p := range listed {
		if !have[p] {
			t.Errorf("the README's layout table names %s, which is not a package", p)
		}
	}
}
