package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var shippedTables = []string{"makccarat-alt1-5pct", "makccarat-alt2-half4"}

func TestTableParPrintsExactFigures(t *testing.T) {
	code, out, e := parsheet(t, "par", "../../assets/tables/makccarat-alt1-5pct.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	for _, want := range []string{
		"drawing alternative 1",
		"commission five_percent_789",
		"over 4998398275503360", // 416·415·414·413·412·411
		"player pair           7.469880%    31/415",
		"tie                   5.769491%    32185505879/557856950391",
		"  tie at 9",
		"  banker wins with 7",
		"player_pair  RTP 372/415   house edge 43/415",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("PAR sheet lacks %q", want)
		}
	}
	code, out, e = parsheet(t, "par", "../../assets/tables/makccarat-alt2-half4.json", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	var r struct {
		Alternative int    `json:"alternative"`
		Commission  string `json:"commission"`
		Figures     struct {
			Bets []struct {
				Spot string `json:"spot"`
				RTP  struct {
					Fraction string `json:"fraction"`
				} `json:"rtp"`
			} `json:"bets"`
		} `json:"figures"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// 6 decks: a pair is (4·6−1)/(52·6−1) = 23/311, paid 11:1.
	if r.Alternative != 2 || r.Commission != "half_on_four" || len(r.Figures.Bets) != 5 ||
		r.Figures.Bets[3].Spot != "player_pair" || r.Figures.Bets[3].RTP.Fraction != "276/311" {
		t.Fatalf("%+v", r)
	}
}

func TestTableCheckAndSignature(t *testing.T) {
	for _, id := range shippedTables {
		code, out, e := parsheet(t, "check", "--require-signature", "../../assets/tables/"+id+".json")
		if code != 0 || !strings.Contains(out, "signature: valid") || !strings.Contains(out, "bet tie (") {
			t.Fatalf("%s: exit %d out %q err %q", id, code, out, e)
		}
	}
	dir := t.TempDir()
	src, err := os.ReadFile("../../assets/tables/makccarat-alt1-5pct.json")
	if err != nil {
		t.Fatal(err)
	}
	// A refusal names the file, the field and the value.
	bad := write(t, dir, "bad.json", strings.Replace(string(src), `"bet_unit_cents": 20`, `"bet_unit_cents": 10`, 1))
	code, _, e := parsheet(t, "check", bad)
	if code != 1 || !strings.Contains(e, "bad.json: bet_unit_cents = 10:") {
		t.Fatalf("exit %d err %q", code, e)
	}
	// Sign with a lab key, verify, tamper.
	prefix := filepath.Join(dir, "lab")
	if code, _, e := parsheet(t, "keygen", "--out", prefix); code != 0 {
		t.Fatal(e)
	}
	f := write(t, dir, "table.json", string(src))
	if code, out, e := parsheet(t, "sign", "--key", prefix+".key", f); code != 0 || !strings.Contains(out, "signed with key") {
		t.Fatalf("exit %d out %q err %q", code, out, e)
	}
	if code, out, e := parsheet(t, "verify", f, "--pub", prefix+".pub"); code != 0 || !strings.Contains(out, "signature valid") {
		t.Fatalf("exit %d out %q err %q", code, out, e)
	}
	if code, out, _ := parsheet(t, "check", f, "--pub", prefix+".pub"); code != 0 || !strings.Contains(out, "signature: valid") {
		t.Fatalf("check with the lab key: exit %d %q", code, out)
	}
	tampered := bytes.Replace(src, []byte(`"decks": 8`), []byte(`"decks": 9`), 1)
	if err := os.WriteFile(f, tampered, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := parsheet(t, "verify", f, "--pub", prefix+".pub"); code != 1 || !strings.Contains(out, "does not verify") {
		t.Fatalf("tampered: exit %d %q", code, out)
	}
	if code, _, e := parsheet(t, "check", f, "--pub", prefix+".pub"); code != 1 || !strings.Contains(e, "(signature)") {
		t.Fatalf("tampered check: exit %d %q", code, e)
	}
	// An invalid definition is never signed.
	if code, _, e := parsheet(t, "sign", "--key", prefix+".key", bad); code != 1 || !strings.Contains(e, "bet_unit_cents") {
		t.Fatalf("invalid definition signed: %d %q", code, e)
	}
	if _, err := os.Stat(bad + ".sig"); err == nil {
		t.Fatal("signature written for a refused definition")
	}
}

func TestTableSim(t *testing.T) {
	name := "../../assets/tables/makccarat-alt2-half4.json"
	code, one, e := parsheet(t, "sim", name, "--hands", "100000", "--seed", "11", "--workers", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, one, e)
	}
	var r struct {
		Hands     int64 `json:"hands"`
		Seed      uint64
		AllInside bool `json:"all_inside"`
		Figures   []struct {
			Name   string `json:"name"`
			Exact  string `json:"exact"`
			Inside bool   `json:"inside"`
		} `json:"figures"`
	}
	if err := json.Unmarshal([]byte(one), &r); err != nil {
		t.Fatal(err)
	}
	if !r.AllInside || r.Hands != 100000 || r.Seed != 11 || len(r.Figures) != 41 || r.Figures[len(r.Figures)-2].Exact != "276/311" {
		t.Fatalf("%+v", r)
	}
	_, two, _ := parsheet(t, "sim", name, "--hands", "100000", "--seed", "11", "--workers", "2", "--json")
	if one != two {
		t.Fatal("the same seed gave another report on two workers")
	}
	code, out, _ := parsheet(t, "sim", name, "--hands", "20000", "--seed", "1")
	if code != 0 || !strings.Contains(out, "RTP tie") || !strings.Contains(out, "inside") || strings.Contains(out, "OUTSIDE") {
		t.Fatalf("exit %d %q", code, out)
	}
	for _, args := range [][]string{
		{"sim", name},                    // no --hands
		{"sim", name, "--spins", "1000"}, // a paytable's flag
		{"sim", name, "--hands", "9", "--level", "2"},
		{"sim", "../../assets/paytables/lusitania-88.json", "--hands", "1000"},
	} {
		if code, _, _ := parsheet(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// The PAR sheets committed beside the table definitions are what the current
// calculator prints for them (make par regenerates them).
func TestCommittedTableParSheetsUpToDate(t *testing.T) {
	wd, _ := os.Getwd()
	if err := os.Chdir("../.."); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	for _, id := range shippedTables {
		name := "assets/tables/" + id + ".json"
		want, err := os.ReadFile("assets/tables/" + id + ".par.txt")
		if err != nil {
			t.Fatalf("%v (run make par)", err)
		}
		code, out, e := parsheet(t, "par", name)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", id, code, e)
		}
		if out != string(want) {
			t.Fatalf("%s.par.txt is stale: run make par", id)
		}
	}
}
