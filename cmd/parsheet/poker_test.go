package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parsheet checks, signs and verifies poker table definitions with the same
// keys as paytables; a refused definition is never signed, and par and sim
// say why a poker table has no figures.
func TestPokerDefinitionCheckAndSign(t *testing.T) {
	for _, id := range []string{"holdem-nl-2", "sintetico-3"} {
		code, out, e := parsheet(t, "check", "--require-signature", "../../assets/poker/"+id+".json")
		if code != 0 || !strings.Contains(out, "signature: valid") || !strings.Contains(out, "Commission: ") {
			t.Fatalf("%s: exit %d out %q err %q", id, code, out, e)
		}
	}
	dir := t.TempDir()
	src, err := os.ReadFile("../../assets/poker/holdem-nl-2.json")
	if err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(dir, "lab")
	if code, _, e := parsheet(t, "keygen", "--out", prefix); code != 0 {
		t.Fatal(e)
	}
	bad := write(t, dir, "bad.json", strings.Replace(string(src), `"rake_bps": 500`, `"rake_bps": 700`, 1))
	if code, _, e := parsheet(t, "sign", "--key", prefix+".key", bad); code != 1 || !strings.Contains(e, "bad.json: rake_bps = 700: 1% to 5%") {
		t.Fatalf("invalid definition: exit %d %q", code, e)
	}
	if _, err := os.Stat(bad + ".sig"); err == nil {
		t.Fatal("signature written for a refused definition")
	}
	f := write(t, dir, "table.json", string(src))
	if code, out, e := parsheet(t, "sign", "--key", prefix+".key", f); code != 0 || !strings.Contains(out, "signed with key") {
		t.Fatalf("exit %d out %q err %q", code, out, e)
	}
	if code, out, _ := parsheet(t, "check", f, "--pub", prefix+".pub"); code != 0 || !strings.Contains(out, "signature: valid") {
		t.Fatalf("check: exit %d %q", code, out)
	}
	if err := os.WriteFile(f, []byte(strings.Replace(string(src), `"seats": 10`, `"seats": 9`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, e := parsheet(t, "check", f, "--pub", prefix+".pub"); code != 1 || !strings.Contains(e, "(signature)") {
		t.Fatalf("tampered: exit %d %q", code, e)
	}
	for _, cmd := range [][]string{{"par", f}, {"sim", f, "--hands", "10"}} {
		if code, _, e := parsheet(t, cmd...); code != 1 || !strings.Contains(e, "no PAR sheet") {
			t.Fatalf("%v: exit %d %q", cmd, code, e)
		}
	}
}
