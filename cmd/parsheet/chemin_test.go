package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker/chemin/odds"
)

const cheminFile = "../../assets/chemin/chemin-6d.json"

// par prints, in English and in Portuguese, every exact figure the odds
// package computes for the definition's shoe and cagnotte, the game's
// solution and the punto banco check.
func TestCheminParPrintsTheExactFigures(t *testing.T) {
	f, err := odds.Exact(6, 500)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "pt"} {
		code, out, e := parsheet(t, "par", cheminFile, "--lang", lang)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", lang, code, e)
		}
		want := []string{"878869206895680", f.Game.Value.RatString(), "241149546272/19524993263685"}
		for i := range 2 {
			for j := range 4 {
				p := f.Pairs[i][j]
				want = append(want, fmt.Sprintf("  %d  ", 4*i+j+1)+map[string]string{"en": "before ", "pt": "antes "}[lang]+p.Before.RatString(),
					p.After.RatString(), p.BankerWin.RatString(), p.PontoWin.RatString(), p.Void.RatString())
			}
		}
		if lang == "en" {
			want = append(want, "PAR SHEET  chemin-6d v1", "1.237415%", "-1.055849%",
				"check: every choice \"draw\" (punto banco's rules), 8 decks: banker 1.235081% = 241149546272/19524993263685 before the commission (punto banco: 1.2351%)",
				"  ponto: draws on 5 with probability 1 = 100.000000%", "  value 1.237415% = 18880657128/1525814595305")
		} else {
			want = append(want, "FOLHA PAR  chemin-6d v1", "1,237415%", "-1,055849%", "banqueiro ganha", "ponto ganha",
				"verificação: tudo \"tira\" (as regras do punto banco), 8 baralhos: banqueiro 1,235081% = 241149546272/19524993263685 antes da comissão (punto banco: 1,2351%)")
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: PAR sheet lacks %q", lang, w)
			}
		}
	}

	code, out, e := parsheet(t, "par", cheminFile, "--json")
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, e)
	}
	type fig struct {
		Fraction, Percent string
	}
	var r struct {
		ID      string `json:"id"`
		Decks   int    `json:"decks"`
		Figures struct {
			Sequences json.Number `json:"six_card_sequences"`
			Pairs     [2][4]struct {
				Draw   bool `json:"ponto_draws_on_5"`
				Banker struct {
					Three string `json:"three_vs_nine"`
					Five  string `json:"five_vs_four"`
				} `json:"banker"`
				Win    fig `json:"p_banker_win"`
				Lose   fig `json:"p_ponto_win"`
				Void   fig `json:"p_void"`
				Before fig `json:"banker_ev_before_cagnotte"`
				After  fig `json:"banker_ev_after_cagnotte"`
			} `json:"pairs"`
			Game struct {
				Value     fig      `json:"value"`
				PontoDraw [2]fig   `json:"ponto_draw_on_5"`
				Banker    [][4]fig `json:"banker"`
			} `json:"game"`
		} `json:"figures"`
		Check struct {
			EV fig `json:"banker_ev_before_cagnotte"`
		} `json:"check"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		t.Fatal(err)
	}
	if r.ID != "chemin-6d" || r.Decks != 6 || r.Figures.Sequences.String() != f.Sequences.String() ||
		r.Check.EV.Fraction != "241149546272/19524993263685" || r.Check.EV.Percent != "1.235081" {
		t.Fatalf("%+v", r)
	}
	word := map[bool]string{true: "draw", false: "stand"}
	for i := range 2 {
		for j := range 4 {
			p, q := f.Pairs[i][j], r.Figures.Pairs[i][j]
			if q.Draw != p.PontoDrawsOnFive || q.Banker.Three != word[p.Banker.ThreeVsNine] || q.Banker.Five != word[p.Banker.FiveVsFour] ||
				q.Win.Fraction != p.BankerWin.RatString() || q.Lose.Fraction != p.PontoWin.RatString() || q.Void.Fraction != p.Void.RatString() ||
				q.Before.Fraction != p.Before.RatString() || q.After.Fraction != p.After.RatString() || q.Before.Percent+"%" != p.Before.Percent() {
				t.Errorf("pair %d %d: %+v", i, j, q)
			}
		}
	}
	g := r.Figures.Game
	if g.Value.Fraction != f.Game.Value.RatString() || g.PontoDraw[0].Fraction != f.Game.PontoDraw[0].RatString() ||
		len(g.Banker) != len(f.Game.Banker) || g.Banker[0][0].Fraction != f.Game.Banker[0][0].RatString() {
		t.Errorf("game %+v", g)
	}
}

// check, sign and verify take a chemin de fer definition as they take a
// poker table's; a broken one names the file, the field and the value and
// is not signed.
func TestCheminCheckAndSign(t *testing.T) {
	code, out, e := parsheet(t, "check", "--require-signature", cheminFile)
	if code != 0 || !strings.Contains(out, "signature: valid") || !strings.Contains(out, "Cagnotte: 5% of the banker's winnings, rounded down to the cent") {
		t.Fatalf("exit %d out %q err %q", code, out, e)
	}
	src, err := os.ReadFile(cheminFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	prefix := filepath.Join(dir, "lab")
	if code, _, e := parsheet(t, "keygen", "--out", prefix); code != 0 {
		t.Fatal(e)
	}
	bad := write(t, dir, "bad.json", strings.Replace(strings.Replace(string(src), `"cagnotte_bps": 500`, `"cagnotte_bps": 2000`, 1), `"seats": 12`, `"seats": 2`, 1))
	for _, cmd := range [][]string{{"check", bad}, {"sign", "--key", prefix + ".key", bad}, {"par", bad}} {
		code, _, e := parsheet(t, cmd...)
		if code != 1 || !strings.Contains(e, "bad.json: cagnotte_bps = 2000: 1 to 1000 basis points") || !strings.Contains(e, "bad.json: seats = 2:") {
			t.Errorf("%v: exit %d %q", cmd[0], code, e)
		}
	}
	if _, err := os.Stat(bad + ".sig"); err == nil {
		t.Fatal("signature written for a refused definition")
	}
	f := write(t, dir, "table.json", string(src))
	if code, out, e := parsheet(t, "sign", "--key", prefix+".key", f); code != 0 || !strings.Contains(out, "signed with key") {
		t.Fatalf("exit %d out %q err %q", code, out, e)
	}
	if code, out, _ := parsheet(t, "verify", f, "--pub", prefix+".pub"); code != 0 || !strings.Contains(out, "signature valid") {
		t.Fatalf("verify: exit %d %q", code, out)
	}
	if err := os.WriteFile(f, []byte(strings.Replace(string(src), `"decks": 6`, `"decks": 8`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, e := parsheet(t, "check", f, "--pub", prefix+".pub"); code != 1 || !strings.Contains(e, "(signature)") {
		t.Fatalf("tampered: exit %d %q", code, e)
	}
	if code, _, e := parsheet(t, "sim", cheminFile, "--hands", "10"); code != 1 || !strings.Contains(e, "par gives its exact figures") {
		t.Fatalf("sim: exit %d %q", code, e)
	}
	for _, args := range [][]string{{"par", cheminFile, "--lang", "fr"}, {"par", "../../assets/tables/makccarat-alt1-5pct.json", "--lang", "pt"}} {
		if code, _, _ := parsheet(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// The PAR sheets committed beside the chemin de fer definitions are what
// the current calculator prints for them (make par regenerates them).
func TestCommittedCheminParSheetsUpToDate(t *testing.T) {
	wd, _ := os.Getwd()
	if err := os.Chdir("../.."); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	names, _ := filepath.Glob("assets/chemin/*.json")
	if len(names) == 0 {
		t.Fatal("no chemin de fer definition")
	}
	for _, name := range names {
		want, err := os.ReadFile(strings.TrimSuffix(name, ".json") + ".par.txt")
		if err != nil {
			t.Fatalf("%v (run make par)", err)
		}
		code, out, e := parsheet(t, "par", name)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", name, code, e)
		}
		if out != string(want) {
			t.Fatalf("%s: its .par.txt is stale: run make par", name)
		}
	}
}

// parsheet par on the shipped 6-deck definition: its figures and the
// 8-deck check, printed.
func BenchmarkCheminPar(b *testing.B) {
	for b.Loop() {
		var e strings.Builder
		if code := run([]string{"par", cheminFile}, io.Discard, &e); code != 0 {
			b.Fatal(e.String())
		}
	}
}

// parsheet par on an 8-deck sabot, the figure the README states: the
// shipped definition with its decks set to 8 (par reads a definition
// before it is signed, as a lab does).
func BenchmarkCheminPar8Decks(b *testing.B) {
	data, err := os.ReadFile(cheminFile)
	if err != nil {
		b.Fatal(err)
	}
	eight := bytes.Replace(data, []byte(`"decks": 6`), []byte(`"decks": 8`), 1)
	if bytes.Equal(eight, data) {
		b.Fatal("the shipped definition has no 6-deck sabot to change")
	}
	file := filepath.Join(b.TempDir(), "chemin-8d.json")
	if err := os.WriteFile(file, eight, 0o644); err != nil {
		b.Fatal(err)
	}
	var par, exact, cpu time.Duration
	for b.Loop() {
		var out, e strings.Builder
		t0, c0 := time.Now(), cpuTime()
		if code := run([]string{"par", file}, &out, &e); code != 0 {
			b.Fatal(e.String())
		}
		par, cpu = par+time.Since(t0), cpu+cpuTime()-c0
		if !strings.Contains(out.String(), "a sabot of 8 decks") {
			b.Fatalf("not an 8-deck sabot:\n%s", out.String())
		}
		// Its floor in the same run: the exact figures alone, which the
		// sheet cannot print faster than they are computed.
		b.StopTimer()
		t0 = time.Now()
		if _, err := odds.Exact(8, 500); err != nil {
			b.Fatal(err)
		}
		exact += time.Since(t0)
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(float64(par.Microseconds())/1000/n, "par-ms")
	b.ReportMetric(float64(exact.Microseconds())/1000/n, "exact-ms")
	b.ReportMetric(float64(par)/float64(max(exact, 1)), "ratio")
	b.ReportMetric(float64(cpu.Microseconds())/1000/n, "par-cpu-ms")
	b.ReportMetric(0, "ns/op")
}

// cpuTime is the CPU time of this process so far, every thread: on a
// loaded machine it is the figure that does not depend on the others'
// work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
