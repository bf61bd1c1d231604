package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Without the registered key the verdict says so in the run's language,
// the report's and verify's alike, and no English reason is left in the
// Portuguese one (nor Portuguese in the English one).
func TestVerdictWithoutTheKeyInTheRunsLanguage(t *testing.T) {
	dir, _ := fullDir(t)
	const pt = "NÃO VERIFICADO: sem a chave pública registada (--pub) as assinaturas não são verificadas"
	const en = "NOT VERIFIED: without the registered public key (--pub) the signatures are not checked"
	for _, args := range [][]string{{"report", dir}, {"verify", dir}} {
		code, out, _ := meterread(args...)
		if code != 1 || !strings.Contains(out, pt) || strings.Contains(out, "no registered public key") || strings.Contains(out, "NOT VERIFIED") {
			t.Errorf("%s in Portuguese: %d\n%s", args[0], code, out)
		}
		code, out, _ = meterread(append(args, "--lang", "en")...)
		if code != 1 || !strings.Contains(out, en) || strings.Contains(out, "NÃO") {
			t.Errorf("%s in English: %d\n%s", args[0], code, out)
		}
	}
}

// Every command writes the run's language: Portuguese money (1,00 €) and
// words by default, English (€1.00) with --lang en, never the other's.
func TestEveryCommandSpeaksTheRunsLanguage(t *testing.T) {
	dir, _ := fullDir(t)
	jp := cabinetDir(t) // with a local jackpot
	enMoney, ptMoney := regexp.MustCompile(`€\d`), regexp.MustCompile(`\d,\d\d €`)
	for _, c := range []struct {
		cmd, dir, pt, en string
	}{
		{"meters", dir, "total apostado", "total coin in (bets)"},
		{"meters", jp, "em depósito", "held in trust"},
		{"games", dir, "aposta", "bet"},
		{"events", dir, "nota de 50,00 € aceite", "note of €50.00 accepted"},
		{"jackpot", jp, "identidade", "identity"},
		{"handpays", dir, "crédito cancelado", "cancelled credit"},
		{"bills", dir, "nota", "bill"},
		{"tickets", dir, "TALÕES EMITIDOS", "TICKETS OUT"},
		{"verify", dir, "NÃO VERIFICADO", "NOT VERIFIED"},
	} {
		_, out, _ := meterread(c.cmd, c.dir)
		if !strings.Contains(out, c.pt) || enMoney.MatchString(out) {
			t.Errorf("%s in Portuguese lacks %q or writes money in English:\n%s", c.cmd, c.pt, out)
		}
		_, out, _ = meterread(c.cmd, c.dir, "--lang", "en")
		if !strings.Contains(out, c.en) || ptMoney.MatchString(out) {
			t.Errorf("%s in English lacks %q or writes money in Portuguese:\n%s", c.cmd, c.en, out)
		}
	}
}

// englishWords are the words of the verification's problems as the
// ledger's packages say them (problemKinds' English), and the common
// words of any English sentence: none may be left in a Portuguese run.
func englishWords() map[string]bool {
	w := map[string]bool{}
	pt := map[string]bool{}
	for _, k := range problemKinds {
		for _, m := range regexp.MustCompile(`[a-z]{3,}`).FindAllString(k.pt, -1) {
			pt[m] = true
		}
	}
	for _, k := range problemKinds {
		for _, m := range regexp.MustCompile(`[a-z]{3,}`).FindAllString(k.en.String(), -1) {
			if !pt[m] {
				w[m] = true
			}
		}
	}
	for _, m := range strings.Fields("the of is not by with does was were after before record records key signature signatures verify verified checked fault damaged machine log given found problem problems") {
		w[m] = true
	}
	delete(w, "bytes") // the same in both
	return w
}

// englishIn lists the English words of a Portuguese output; the files it
// names (segments, the checkpoint file, snapshots) are names, not words.
func englishIn(out string) []string {
	out = regexp.MustCompile(`ficheiro \S+|snapshot-\d+|segmento \S+|/\S+`).ReplaceAllString(out, "")
	en := englishWords()
	var found []string
	for _, w := range regexp.MustCompile(`\p{L}+`).FindAllString(strings.ToLower(out), -1) {
		if en[w] {
			found = append(found, w)
		}
	}
	return found
}

// flipByte damages a record of the ledger's log (a third of the way into
// its segment) as a bit flip or a hand would.
func flipByte(t *testing.T, dir string) {
	t.Helper()
	segs, _ := filepath.Glob(filepath.Join(dir, "log", "*"))
	var seg string
	for _, s := range segs {
		if fi, _ := os.Stat(s); fi.Mode().IsRegular() && fi.Size() > 200 && !strings.Contains(s, "checkpoint") {
			seg = s
		}
	}
	if seg == "" {
		t.Fatalf("no segment in %v", segs)
	}
	data, _ := os.ReadFile(seg)
	data[len(data)/3] ^= 0x10
	os.WriteFile(seg, data, 0o600)
}

// Every way the verification fails is said in the run's language, its
// reasons too: without the key, with another machine's key, with a
// damaged log (with and without the key), in verify and in the report
// (whose output is then the reading's error). Portuguese has no English
// word of the log's checks left, and no problem of a kind not translated;
// English keeps the checks' own words.
func TestVerificationProblemsInTheRunsLanguage(t *testing.T) {
	full, _ := fullDir(t)
	other := cabinetDir(t)
	damaged := cabinetDir(t)
	flipByte(t, damaged)
	for _, c := range []struct {
		name string
		args []string
		en   string // in the English output
	}{
		{"no key, verify", []string{"verify", full}, "NOT VERIFIED"},
		{"no key, report", []string{"report", full}, "NOT VERIFIED"},
		{"another machine's key", []string{"verify", cabinetDir(t), "--pub", pubFile(other)}, "does not verify with the machine key"},
		{"another machine's key, report", []string{"report", cabinetDir(t), "--pub", pubFile(other)}, "does not verify with the machine key"},
		{"damaged log", []string{"verify", damaged, "--pub", pubFile(damaged)}, "does not match its content"},
		{"damaged log, no key", []string{"verify", damaged}, "verification stopped at seq"},
		{"damaged log, report", []string{"report", damaged, "--pub", pubFile(damaged)}, "does not match its content"},
		{"damaged log, meters", []string{"meters", damaged}, "does not match its content"},
	} {
		code, out, errOut := meterread(c.args...)
		// The report's verdict is its VERIFICAÇÃO DO REGISTO section (the
		// rest names SAS meters in the protocol's English).
		if i := strings.Index(out, "VERIFICAÇÃO DO REGISTO\n"); i >= 0 {
			out = out[i:]
			if j := strings.Index(out, "\n\n"); j >= 0 {
				out = out[:j]
			}
		}
		all := out + errOut
		if code != 1 || !strings.Contains(all, "NÃO VERIFICADO") && !strings.HasPrefix(errOut, "meterread: ") {
			t.Errorf("%s: exit %d, not a failed verification:\n%s", c.name, code, all)
		}
		if w := englishIn(all); len(w) > 0 {
			t.Errorf("%s: English words %q in the Portuguese output:\n%s", c.name, w, all)
		}
		if strings.Contains(all, notTranslated) {
			t.Errorf("%s: a problem of a kind not translated:\n%s", c.name, all)
		}
		_, out, errOut = meterread(append(c.args, "--lang", "en")...)
		if all := out + errOut; !strings.Contains(all, c.en) || strings.Contains(all, "NÃO") || strings.Contains(all, "registo") {
			t.Errorf("%s in English lacks %q or has Portuguese:\n%s", c.name, c.en, all)
		}
	}
}

// Every kind of problem the ledger's packages say, as they say it (their
// format strings, filled in), comes out in Portuguese without an English
// word; a kind not known is said under a Portuguese heading.
func TestEveryProblemKindInPortuguese(t *testing.T) {
	for _, p := range []string{
		"no registered public key given (the key registered at commissioning): the signatures are not checked, and a key found beside the ledger would prove nothing",
		"torn last record (cut at the next start-up): 37 bytes at offset 4096 of segment 00000000000000000002 after seq 41: an incomplete last record (not repaired)",
		"log verification failed",
		"snapshot-0 claims record 11 sealed at 14, which the log does not hold",
		"snapshot-1 is not the state of record 11: forged (the fold of the log differs)",
		"the seal at record 14 names record 12, not the record before it (13)",
		"the seal at record 14 signed another state than the fold of records 1-13",
		"the seal of record 13 does not verify with key 3f9a0c1d",
		"record 12 is the first not vouched for by the machine key: records 12 to 15 (4) after the last commit mark are vouched for by no signature of the machine key: a commit cut short by a power loss (never acknowledged), or records written without the board, followed by a torn entry of 12 bytes",
		"record 12 is the first not vouched for by the machine key: records 12 to 311 (300) after the last commit mark are vouched for by no signature of the machine key: more than one commit holds (256), so no power loss left them",
		"verification stopped at seq 5: records after it were not checked",
		"checkpoint signatures not checked: no public key given",
		"meter fault: record damaged: frame checksum 0x55566df0 does not match its content (0xc90d9756) (record seq 5, file 00000000000000000001 offset 591)",
		"meter fault: record entry damaged: length prefix 9 is outside the frame size range (record seq 5, file 00000000000000000001 offset 591)",
		"meter fault: record entry damaged: segment ends inside a record, and it is not the last segment (record seq 5, file 00000000000000000001 offset 591)",
		"meter fault: record damaged: frame starts with byte 0x00, not the walog v1 magic 0xa7 (record seq 5, file 00000000000000000001 offset 591)",
		"meter fault: record damaged: frame declares 90 payload bytes but carries 80 (record seq 5, file 00000000000000000001 offset 591)",
		"meter fault: record carries seq 7 where seq 6 belongs (record seq 6, file 00000000000000000001 offset 700)",
		"meter fault: chain hash does not follow from the previous record (record seq 6, file 00000000000000000001 offset 700)",
		"meter fault: checkpoint signature over seq 11 does not verify with the machine key (record seq 12, file 00000000000000000001 offset 1599)",
		"meter fault: the last commit mark (record 15) does not verify with the machine key, nor do the 2 before it: the log was written without the board (record seq 15)",
		"meter fault: checkpoint file is missing but the log holds 3 checkpoints (record seq 12, file checkpoint)",
		"meter fault: checkpoint file holds a record of type 9 (record seq 12, file checkpoint offset 0)",
		"meter fault: checkpoint file signature over seq 11 does not verify with the machine key (record seq 12, file checkpoint offset 0)",
		"meter fault: log ends before the signed checkpoint at seq 20 (log ends at seq 15) (record seq 20, file checkpoint)",
		"meter fault: checkpoint file differs from checkpoint record 11 in the log (record seq 11, file checkpoint)",
		"meter fault: checkpoint file names seq 8, which is not one of the log's last two checkpoints (last at seq 11) (record seq 8, file checkpoint)",
		"report.txt does not match its signature under key 3f9a0c1d: changed, or signed by another key",
		"report.txt.sig: not an Ed25519 signature (one line of base64)",
	} {
		pt := problemText(p, "pt")
		if w := englishIn(pt); len(w) > 0 || strings.HasPrefix(pt, notTranslated) {
			t.Errorf("%q\nis in Portuguese %q: English words %q", p, pt, w)
		}
		if en := problemText(p, "en"); en != p {
			t.Errorf("in English %q became %q", p, en)
		}
	}
	if got := problemText("something new went wrong", "pt"); got != notTranslated+"something new went wrong" {
		t.Errorf("a kind not known: %q", got)
	}
}
