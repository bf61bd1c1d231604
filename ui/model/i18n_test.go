package model

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/meters"
)

// sourceKeys scans Go source files for quoted strings matching re's group 1.
func sourceKeys(t *testing.T, glob string, re *regexp.Regexp) []string {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no source files at %s: %v", glob, err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			seen[m[1]] = true
		}
	}
	var keys []string
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkBoth asserts a key has a text of its own in Portuguese and English.
func checkBoth(t *testing.T, key string, arg ...string) {
	t.Helper()
	for _, lang := range Langs {
		s := T(lang, key, arg...)
		if s == "" || s == key || strings.Contains(s, "%!") {
			t.Errorf("catalogue %s: key %q gives %q", lang, key, s)
		}
	}
}

// Every message key the machine can send has Portuguese and English text:
// the keys are found in machine/*.go, so a new key without text fails here.
func TestCatalogueHasEveryMachineMessage(t *testing.T) {
	keys := sourceKeys(t, "../../machine/*.go", regexp.MustCompile(`"((?:msg|refused)_[a-z0-9_]+)"`))
	if len(keys) < 20 {
		t.Fatalf("found only %d message keys in machine/: the scan is broken", len(keys))
	}
	for _, k := range keys {
		checkBoth(t, k, slices.Repeat([]string{"1,00 €"}, verbs(k))...)
		// Amounts: a text that takes one must show it in both languages.
		if verbs(k) > 0 {
			for _, lang := range Langs {
				if s := MessageText(lang, k, []int64{123450}); !strings.Contains(s, Euro(lang, 123450)) {
					t.Errorf("%s %s: %q does not show the amount", lang, k, s)
				}
			}
		}
	}
}

// Modes, tilts, doors, handpay kinds and event codes have texts too; they
// are found in the source so new ones fail until translated.
func TestCatalogueHasEveryState(t *testing.T) {
	modes := sourceKeys(t, "../../machine/view.go", regexp.MustCompile(`return "([a-z_]+)"`))
	modes = append(modes, "service", "idle", "spinning")
	for _, m := range modes {
		checkBoth(t, "mode_"+m)
	}
	for _, tilt := range sourceKeys(t, "../../machine/machine.go", regexp.MustCompile(`Tilt[A-Z][A-Za-z]*\s*=\s*"([a-z_]+)"`)) {
		checkBoth(t, "tilt_"+tilt)
	}
	for _, d := range sourceKeys(t, "../../meters/record.go", regexp.MustCompile(`\bDoor[A-Z][a-z]*\s*=\s*"([a-z_]+)"`)) {
		checkBoth(t, "door_"+d)
	}
	for _, k := range sourceKeys(t, "../../meters/record.go", regexp.MustCompile(`\bHandpay[A-Z][a-z]*\s*=\s*"([a-z_]+)"`)) {
		checkBoth(t, "handpay_"+k)
	}
	for _, e := range sourceKeys(t, "../../meters/record.go", regexp.MustCompile(`\bEvent[A-Z][A-Za-z]*\s*=\s*"([a-z_]+)"`)) {
		checkBoth(t, "event_"+e)
	}
	for _, s := range []string{meters.SourceBill, meters.SourceCoin, meters.SourceTicket, meters.SourceElectronic} {
		checkBoth(t, "source_"+s)
	}
	for _, p := range ServicePages {
		checkBoth(t, "page_"+p)
	}
	for _, d := range meters.Defs {
		for _, lang := range Langs {
			if s := MeterName(lang, d.Name); s == "" || strings.HasPrefix(s, "meter:") {
				t.Errorf("meter %q has no %s name", d.Name, lang)
			}
		}
	}
}

// Every catalogue entry has both languages, the same arguments in each, and
// the Portuguese differs from the English where it should be translated.
func TestCatalogueConsistent(t *testing.T) {
	verbRe := regexp.MustCompile(`%(\[\d+\])?s`)
	for _, k := range Keys() {
		pt, en := texts[k][0], texts[k][1]
		if pt == "" || en == "" {
			t.Errorf("%s: empty text (pt %q, en %q)", k, pt, en)
		}
		a, b := verbRe.FindAllString(pt, -1), verbRe.FindAllString(en, -1)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Errorf("%s: arguments differ: pt %v, en %v", k, a, b)
		}
	}
	if T("pt", "btn_spin") == T("en", "btn_spin") {
		t.Error("pt and en printers give the same text")
	}
	if got := T("xx", "btn_spin"); got != T("pt", "btn_spin") {
		t.Errorf("an unknown language must fall back to Portuguese, got %q", got)
	}
}

func TestEuro(t *testing.T) {
	for _, c := range []struct {
		cents  int64
		pt, en string
	}{
		{0, "0,00 €", "€0.00"},
		{5, "0,05 €", "€0.05"},
		{100, "1,00 €", "€1.00"},
		{123450, "1.234,50 €", "€1,234.50"},
		{100000000, "1.000.000,00 €", "€1,000,000.00"},
		{-123450, "-1.234,50 €", "-€1,234.50"},
		{-5, "-0,05 €", "-€0.05"},
		{-9223372036854775808, "-92.233.720.368.547.758,08 €", "-€92,233,720,368,547,758.08"},
	} {
		if got := Euro("pt", c.cents); got != c.pt {
			t.Errorf("Euro(pt, %d) = %q, want %q", c.cents, got, c.pt)
		}
		if got := Euro("en", c.cents); got != c.en {
			t.Errorf("Euro(en, %d) = %q, want %q", c.cents, got, c.en)
		}
	}
	if got := Credits("pt", 1234567); got != "1.234.567" {
		t.Errorf("Credits(pt) = %q", got)
	}
	if got := Credits("en", -1234); got != "-1,234" {
		t.Errorf("Credits(en) = %q", got)
	}
	if got := MessageText("pt", "msg_win", []int64{123450}); got != "Ganhou 1.234,50 €!" {
		t.Errorf("msg_win pt = %q", got)
	}
	if got := MessageText("en", "msg_handpay", []int64{150000}); got != "Handpay of €1,500.00: please call an attendant" {
		t.Errorf("msg_handpay en = %q", got)
	}
}
