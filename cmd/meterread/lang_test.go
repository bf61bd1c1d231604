package main

import (
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
