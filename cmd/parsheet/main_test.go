package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func parsheet(t *testing.T, args ...string) (code int, out, errOut string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// lowTop passes at 1 credit per line and fails at the top level, where its
// progressive combination is excluded. Each reel shows W or A with
// probability 1/2: W×3 (1/64) pays 10, A×3 with wilds (7/64) pays 7, so
// level 1 returns 59/64 = 92.1875% and level 2 returns 49/64 = 76.5625%.
const lowTop = `{
  "id": "low-top", "version": 1, "title": {"pt": "Baixo", "en": "Low"}, "rows": 1,
  "symbols": [
    {"id": "W", "kind": "wild", "name": {"pt": "W", "en": "W"}},
    {"id": "A", "kind": "normal", "name": {"pt": "A", "en": "A"}},
    {"id": "B", "kind": "normal", "name": {"pt": "B", "en": "B"}}
  ],
  "reels": [["W","A","B","B"], ["W","A","B","B"], ["W","A","B","B"]],
  "lines": [[0,0,0]],
  "line_pays": [{"symbol": "A", "count": 3, "pays": 7}, {"symbol": "W", "count": 3, "pays": 10, "progressive": 1}],
  "credits_per_line": [1, 2]
}`

func write(t *testing.T, dir, name, data string) string {
	t.Helper()
	f := filepath.Join(dir, name)
	if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestCheckRefusesBelow80AtTopLevel(t *testing.T) {
	f := write(t, t.TempDir(), "low-top.json", lowTop)
	code, out, errOut := parsheet(t, "check", f)
	if code != 1 {
		t.Fatalf("exit %d, want 1; out %q err %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "bet level 2") || !strings.Contains(errOut, "below the 80% minimum") || !strings.Contains(errOut, "76.5625%") {
		t.Fatalf("refusal does not name level 2 and its figure: %q", errOut)
	}
	if !strings.Contains(out, "level 1 (1 credits per line): base RTP 92.1875% = 59/64") {
		t.Fatalf("level 1 figure missing: %q", out)
	}
}

func TestShippedTablesPassCheckWithSignature(t *testing.T) {
	for _, id := range []string{"lusitania-88", "lusitania-92", "lusitania-96"} {
		code, out, errOut := parsheet(t, "check", "--require-signature", "../../assets/paytables/"+id+".json")
		if code != 0 || !strings.Contains(out, "signature: valid") {
			t.Fatalf("%s: exit %d out %q err %q", id, code, out, errOut)
		}
	}
}

func TestKeygenSignVerifyAndTamper(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "lab")
	if code, _, e := parsheet(t, "keygen", "--out", prefix); code != 0 {
		t.Fatal(e)
	}
	if code, _, _ := parsheet(t, "keygen", "--out", prefix); code != 1 {
		t.Fatal("keygen overwrote an existing key")
	}
	if st, _ := os.Stat(prefix + ".key"); st.Mode().Perm() != 0o600 {
		t.Fatalf("private key mode %v", st.Mode().Perm())
	}
	src, err := os.ReadFile("../../assets/paytables/lusitania-96.json")
	if err != nil {
		t.Fatal(err)
	}
	f := write(t, dir, "game.json", string(src))
	if code, _, e := parsheet(t, "sign", "--key", prefix+".key", f); code != 0 {
		t.Fatal(e)
	}
	// The lab key is not built in: verification needs --pub.
	if code, _, _ := parsheet(t, "verify", f); code != 1 {
		t.Fatal("a signature by an unknown key verified")
	}
	if code, out, e := parsheet(t, "verify", f, "--pub", prefix+".pub"); code != 0 || !strings.Contains(out, "signature valid") {
		t.Fatalf("exit %d out %q err %q", code, out, e)
	}
	// One byte changed anywhere is refused: a digit of a pay.
	tampered := bytes.Replace(src, []byte(`"pays": 750`), []byte(`"pays": 751`), 1)
	if bytes.Equal(tampered, src) {
		t.Fatal("tamper target not found")
	}
	if err := os.WriteFile(f, tampered, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := parsheet(t, "verify", f, "--pub", prefix+".pub")
	if code != 1 || !strings.Contains(out, "does not verify") {
		t.Fatalf("tampered file: exit %d out %q", code, out)
	}
	// A refused paytable is never signed.
	low := write(t, dir, "low.json", lowTop)
	if code, _, e := parsheet(t, "sign", "--key", prefix+".key", low); code != 1 || !strings.Contains(e, "not signed") {
		t.Fatalf("low-RTP table signed: %q", e)
	}
	if _, err := os.Stat(low + ".sig"); err == nil {
		t.Fatal("signature written for a refused table")
	}
}

func TestSimCommandReportsExactInside(t *testing.T) {
	code, out, e := parsheet(t, "sim", "../../assets/paytables/lusitania-88.json", "--spins", "200000", "--seed", "5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, e)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r["exact_inside"] != true || r["games"].(float64) != 200000 || r["seed"].(float64) != 5 {
		t.Fatalf("sim report %v", r)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"par"}, {"sim", "x.json"}, {"keygen"}, {"par", "--nope", "x"}} {
		if code, _, _ := parsheet(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, out, _ := parsheet(t, "--help"); code != 0 || !strings.Contains(out, "parsheet check FILE") {
		t.Fatalf("help: %d %q", code, out)
	}
}

// The PAR sheets committed beside the paytables are what the current
// calculator prints for them (make par regenerates them).
func TestCommittedParSheetsUpToDate(t *testing.T) {
	for _, id := range []string{"lusitania-88", "lusitania-92", "lusitania-96"} {
		name := "assets/paytables/" + id + ".json"
		want, err := os.ReadFile("../../" + strings.TrimSuffix(name, ".json") + ".par.txt")
		if err != nil {
			t.Fatalf("%v (run make par)", err)
		}
		// Run from the repository root so the file name printed matches.
		wd, _ := os.Getwd()
		if err := os.Chdir("../.."); err != nil {
			t.Fatal(err)
		}
		code, out, e := parsheet(t, "par", name)
		os.Chdir(wd)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", id, code, e)
		}
		if out != string(want) {
			t.Fatalf("%s.par.txt is stale: run make par", id)
		}
	}
}
