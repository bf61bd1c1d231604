package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/meters/inspect"
	"github.com/openegm/cabinet/reels"
)

// fullDir is a ledger with what an inspector looks for: the machine and
// its program, the paytable, a note, a game, a ticket, a handpay and its
// payment, and a RAM clear.
func fullDir(t *testing.T) (dir string, pt *reels.Certified) {
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(t.TempDir(), "ledger")
	l, _, err := meters.Open(dir, meters.Options{CheckpointEvery: 3, Keys: book.FileKeys{Dir: dir + ".keys"}})
	if err != nil {
		t.Fatal(err)
	}
	const at = int64(1_800_000_000_000_000_000)
	cfg := func(k, v string) meters.Record {
		return meters.Config{At: at, Who: "start-up configuration", Key: k, Value: v}
	}
	recs := []meters.Record{
		cfg("machine_id", "EGM-0042"), cfg("machine_num", "42"), cfg("program", strings.Repeat("ab", 32)),
		cfg("paytable", pt.ID), cfg("paytable_version", strconv.Itoa(pt.Version)),
		meters.MoneyIn{At: at + 1, Source: meters.SourceBill, Cents: 5000},
		meters.GameStart{At: at + 2, Game: 1, Paytable: pt.ID, Digest: pt.Digest, Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{1, 2, 3, 4, 5}},
		meters.GameEnd{At: at + 3, Game: 1},
		meters.CashOut{At: at + 4, Method: meters.OutTicket, Cents: 1000, Ticket: "004200000000000001"},
		meters.TicketPrinted{At: at + 5, Ticket: "004200000000000001", Cents: 1000},
		meters.HandpayPending{At: at + 6, Kind: meters.HandpayCancelled, Cents: 3980},
		meters.HandpayReset{At: at + 7, Who: "att-9", Cents: 3980},
		meters.RAMClear{At: at + 8, Who: "tech-1 (technician)", Why: "board replaced"},
		// After the clear, money paths the meters count from zero: AFT, a
		// ticket taken in, a poker table's buy-in and cash-out.
		meters.AFTTransfer{At: at + 9, Transfer: aft.Transfer{Position: 1, ID: "AFT-1", Code: aft.CodeFull, Type: aft.InHouseToMachine,
			Status: aft.StatusFull, Requested: aft.Amounts{Cashable: 1000}, Amounts: aft.Amounts{Cashable: 1000}, At: time.Unix(0, at+9),
			ReceiptStatus: aft.ReceiptNone}},
		meters.TicketEscrow{At: at + 10, Digits: "001234567890123456"},
		meters.TicketRedeem{At: at + 11, Digits: "001234567890123456", Cents: 500},
		meters.PokerTransfer{At: at + 12, ID: meters.PokerTransferID("EGM-0042", at+12, 1), Seq: 1, Kind: meters.PokerBuyIn, Table: "holdem-1",
			Source: "EGM-0042", Player: "EGM-0042", Cents: 600},
		meters.PokerDone{At: at + 13, ID: meters.PokerTransferID("EGM-0042", at+12, 1), Cents: 600},
		meters.PokerTransfer{At: at + 14, ID: meters.PokerCashOutID(meters.PokerTransferID("EGM-0042", at+12, 1), 1), Kind: meters.PokerCashOut,
			Table: "holdem-1", Source: "EGM-0042", Player: "EGM-0042"},
		meters.PokerDone{At: at + 15, ID: meters.PokerCashOutID(meters.PokerTransferID("EGM-0042", at+12, 1), 1), Cents: 900},
	}
	if err := l.Commit(recs...); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, pt
}

// The report names the machine and says, in Portuguese by default, what
// an inspector needs: the program and its approval, the paytable with its
// digest and certified RTP per level, the actual RTP, the handpays, the
// notes, the tickets and the RAM clears with the meters just before.
func TestReportHasWhatTheInspectorNeeds(t *testing.T) {
	dir, pt := fullDir(t)
	code, out, e := meterread("report", dir, "--pub", pubFile(dir))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	for _, want := range []string{
		"RELATÓRIO DO REGISTO DA MÁQUINA EGM-0042", "Número da máquina: 42", strings.Repeat("ab", 32),
		"Aprovação: não verificada", pt.ID + ", versão " + strconv.Itoa(pt.Version), pt.Digest,
		pt.RTP[0].RatString(), "RTP real", "PAGAMENTOS MANUAIS", "39,80 €", "att-9",
		"DINHEIRO RECEBIDO", "50,00 €", "TALÕES EMITIDOS", "004200000000000001", "10,00 €",
		"LIMPEZAS DA RAM", "board replaced", "total apostado (coin in)", "EVENTOS", "VERIFICADO",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(out, dir) {
		t.Error("the report names a file path instead of the machine")
	}
	// The meters just before the RAM clear: 20 cents bet, 50 € of notes.
	clear := out[strings.Index(out, "LIMPEZAS DA RAM"):strings.Index(out, "JOGOS")]
	if !strings.Contains(clear, "0,20 €") || !strings.Contains(clear, "50,00 €") {
		t.Errorf("the RAM clear lacks the meters before it:\n%s", clear)
	}
	_, en, _ := meterread("report", dir, "--pub", pubFile(dir), "--lang", "en")
	if !strings.Contains(en, "LEDGER REPORT OF MACHINE EGM-0042") || !strings.Contains(en, "€39.80") || !strings.Contains(en, "RAM CLEARS") {
		t.Errorf("the English report:\n%s", en)
	}
}

// The JSON report holds the same, with keys in one style (lower snake
// case) all through.
func TestReportJSON(t *testing.T) {
	dir, pt := fullDir(t)
	code, out, _ := meterread("report", dir, "--pub", pubFile(dir), "--json")
	if code != 0 {
		t.Fatal(out)
	}
	var r inspect.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Machine.ID != "EGM-0042" || r.Paytable.Digest != pt.Digest || len(r.Paytable.RTP) != len(pt.RTP) || len(r.RAMClears) != 1 ||
		len(r.Tickets) != 1 || len(r.Handpays) != 1 || r.Handpays[0].PaidBy != "att-9" || r.Format != inspect.ReportFormat {
		t.Fatalf("report %+v", r)
	}
	var before int64
	for _, m := range r.RAMClears[0].MetersBefore {
		if m.Name == "total coin in (bets)" {
			before = m.Value
		}
	}
	if before != 20 {
		t.Errorf("coin in before the RAM clear %d, want 20", before)
	}
	for _, k := range regexp.MustCompile(`"([^"]+)":`).FindAllStringSubmatch(out, -1) {
		if !regexp.MustCompile(`^[a-z0-9_]+$`).MatchString(k[1]) {
			t.Errorf("JSON key %q is not lower snake case", k[1])
		}
	}
}

// The report's money paths add up to the meters, and says so; the checks
// command says it alone, and a period covers only its records.
func TestReportMoneyPathsAddUp(t *testing.T) {
	dir, _ := fullDir(t)
	code, out, e := meterread("report", dir, "--pub", pubFile(dir))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	for _, want := range []string{"TRANSFERÊNCIAS AFT", "AFT-1", "TALÕES RECEBIDOS", "TRANSFERÊNCIAS DE MESAS DE PÓQUER", "MODO DE TESTE",
		"Período dos movimentos de dinheiro: todo o registo", "as secções somam o mesmo que os contadores",
		"verificação: feitas das mesas (saídas) 9,00 € = transferências das mesas de póquer 9,00 € — confere"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	code, out, _ = meterread("report", dir, "--pub", pubFile(dir), "--json")
	var r inspect.Report
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || !r.Checks.Hold || r.Checks.Against != "meters" || len(r.AFT) != 1 || len(r.Poker) != 2 {
		t.Fatalf("JSON report: %d, checks %+v", code, r.Checks)
	}
	if code, out, _ := meterread("checks", dir, "--lang", "en"); code != 0 || !strings.Contains(out, "checks hold: the sections add up to the meters") {
		t.Errorf("checks: %d %q", code, out)
	}
	// From the AFT transfer on: no note, the ticket taken in.
	code, out, _ = meterread("report", dir, "--pub", pubFile(dir), "--json", "--since", time.Unix(0, 1_800_000_000_000_000_009).UTC().Format(time.RFC3339Nano))
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Period.Whole || len(r.MoneyIn) != 1 || r.MoneyIn[0].Source != meters.SourceTicket || !r.Checks.Hold {
		t.Errorf("the report since the transfer: %d, period %+v, money in %+v, checks %+v", code, r.Period, r.MoneyIn, r.Checks)
	}
}

// meterread checks a report's signature with the registered key, in
// either encoding (the machine.pub of older cabinets is hex).
func TestReportVerify(t *testing.T) {
	dir, _ := fullDir(t)
	pub, priv, _ := ed25519.GenerateKey(nil)
	keys := t.TempDir()
	key := filepath.Join(keys, "inspector.key")
	os.WriteFile(key, reels.EncodeKey(priv), 0o600)
	out := filepath.Join(t.TempDir(), "report.txt")
	if code, _, e := meterread("report", dir, "--pub", pubFile(dir), "--key", key, "--out", out); code != 0 {
		t.Fatal(e)
	}
	b64, hx := filepath.Join(keys, "b64.pub"), filepath.Join(keys, "hex.pub")
	os.WriteFile(b64, []byte(base64.StdEncoding.EncodeToString(pub)+"\n"), 0o644)
	os.WriteFile(hx, []byte(hex.EncodeToString(pub)+"\n"), 0o644)
	for _, p := range []string{b64, hx} {
		if code, o, e := meterread("report", "verify", out, "--pub", p); code != 0 || !strings.HasPrefix(o, "VERIFICADO: ") {
			t.Fatalf("%s: %d %q %q", p, code, o, e)
		}
	}
	doc, _ := os.ReadFile(out)
	doc[40] ^= 1
	os.WriteFile(out, doc, 0o644)
	if code, o, _ := meterread("report", "verify", out, "--pub", b64); code != 1 || !strings.HasPrefix(o, "NÃO VERIFICADO: ") || !strings.Contains(o, "não corresponde à sua assinatura") {
		t.Fatalf("a changed report: %d %q", code, o)
	}
	if code, o, _ := meterread("report", "verify", out, "--pub", b64, "--lang", "en"); code != 1 || !strings.HasPrefix(o, "NOT VERIFIED: ") || !strings.Contains(o, "does not match its signature") {
		t.Fatalf("a changed report, in English: %d %q", code, o)
	}
	if code, _, _ := meterread("report", "verify", out); code != 2 {
		t.Fatal("report verify without a key did not exit 2")
	}
	// The machine's own key file verifies the ledger in either encoding.
	raw, _ := os.ReadFile(pubFile(dir))
	mpub, err := meters.ReadPublicKey(pubFile(dir))
	if err != nil {
		t.Fatalf("machine.pub %q: %v", raw, err)
	}
	os.WriteFile(hx, []byte(hex.EncodeToString(mpub)), 0o644)
	if code, o, _ := meterread("verify", dir, "--pub", hx); code != 0 {
		t.Fatalf("verify with the hex machine key: %q", o)
	}
}

// handpays, bills and tickets, as text and JSON; the meters page ends with
// the jackpot's liability.
func TestHandpaysBillsTickets(t *testing.T) {
	dir, _ := fullDir(t)
	for cmd, want := range map[string]struct {
		text string
		rows int
	}{"handpays": {"att-9", 1}, "bills": {"50,00 €", 2}, "tickets": {"004200000000000001", 1}, "aft": {"AFT-1", 1},
		"poker": {"holdem-1", 2}, "tickets-in": {"001234567890123456", 1}} {
		code, out, e := meterread(cmd, dir)
		if code != 0 || !strings.Contains(out, want.text) {
			t.Errorf("%s: %d %q %q", cmd, code, out, e)
		}
		code, out, _ = meterread(cmd, dir, "--json")
		var rows []map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != want.rows {
			t.Errorf("%s --json: %q", cmd, out)
		}
	}
	code, out, _ := meterread("meters", cabinetDir(t), "--lang", "en")
	if code != 0 || !strings.Contains(out, "liability held in trust: €250.02000") {
		t.Errorf("meters lack the jackpot liability:\n%s", out)
	}
}
