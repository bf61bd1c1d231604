package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/meters/inspect"
	"github.com/openegm/cabinet/reels"
	"golang.org/x/crypto/blake2b"
)

func meterread(args ...string) (int, string, string) {
	var o, e bytes.Buffer
	code := run(args, &o, &e)
	return code, o.String(), e.String()
}

// cabinetDir writes a small ledger as the cabinet would: bills, two games
// (one with a free game), a ticket cash-out and a door opening.
func cabinetDir(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "ledger")
	l, _, err := meters.Open(dir, meters.Options{CheckpointEvery: 3, Keys: book.FileKeys{Dir: dir + ".keys"}})
	if err != nil {
		t.Fatal(err)
	}
	recs := []meters.Record{
		meters.MoneyIn{At: 1e18, Source: meters.SourceBill, Cents: 2000},
		meters.JackpotLevel{At: 1e18, Who: "op", Level: 1, ResetCents: 25000, RatePPM: 10000},
		meters.GameStart{At: 1e18 + 1, Game: 1, Paytable: "lusitania-92", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{1, 2, 3, 4, 5}, WinCents: 40, FreeAwarded: 1},
		meters.FreeGame{At: 1e18 + 2, Game: 1, Index: 1, Stops: []int{5, 4, 3, 2, 1}, WinCents: 60},
		meters.GameEnd{At: 1e18 + 3, Game: 1, WinCents: 100},
		meters.GameStart{At: 1e18 + 4, Game: 2, Paytable: "lusitania-92", Digest: "d", Denom: 1, BetCredits: 200, BetCents: 200, Stops: []int{0, 0, 0, 0, 0},
			Contributions: []meters.LevelAmount{{Level: 1, Millicents: 2000}}},
		meters.GameEnd{At: 1e18 + 5, Game: 2},
		meters.CashOut{At: 1e18 + 6, Method: meters.OutTicket, Cents: 1880, Ticket: "000123"},
		meters.TicketPrinted{At: 1e18 + 6, Ticket: "000123", Cents: 1880},
		meters.Event{At: 1e18 + 7, Code: meters.EventDoorOpen, Door: meters.DoorMain},
	}
	if err := l.Commit(recs...); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// pubFile is the machine key of cabinetDir's ledger, as registered.
func pubFile(dir string) string { return dir + ".keys/machine.pub" }

func treeHash(t *testing.T, dir string) string {
	h, _ := blake2b.New256(nil)
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		h.Write([]byte(rel))
		h.Write([]byte(fi.ModTime().String()))
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			h.Write(data)
		}
		return nil
	})
	return string(h.Sum(nil))
}

func TestVerifyAndReadLeaveTheDirectoryUntouched(t *testing.T) {
	dir := cabinetDir(t)
	before := treeHash(t, dir)
	code, out, e := meterread("verify", dir, "--pub", pubFile(dir), "--lang", "en")
	if code != 0 || !strings.HasPrefix(out, "VERIFIED: ") || !strings.Contains(out, "signed checkpoints") {
		t.Fatalf("verify: %d %q %q", code, out, e)
	}
	code, out, _ = meterread("meters", dir, "--json")
	if code != 0 {
		t.Fatal(out)
	}
	var rows []inspect.MeterRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"total coin in (bets)": 220, "total coin out (wins to credits)": 100, "current credits": 0,
		"ticket out": 1880, "games played": 2, "games won": 1, "games lost": 1, "bills of €20.00 accepted": 1, "main (slot) door openings": 1}
	for _, r := range rows {
		if v, ok := want[r.Name]; ok {
			if r.Value != v {
				t.Errorf("%s = %d, want %d", r.Name, r.Value, v)
			}
			delete(want, r.Name)
		}
	}
	if len(want) > 0 {
		t.Fatalf("meters missing from the readout: %v", want)
	}
	if code, out, _ := meterread("games", dir); code != 0 || !strings.Contains(out, "[1 2 3 4 5]") || !strings.Contains(out, "1,00 €") {
		t.Fatalf("games: %q", out)
	}
	if code, out, _ := meterread("games", dir, "--lang", "en"); code != 0 || !strings.Contains(out, "[1 2 3 4 5]") || !strings.Contains(out, "€1.00") {
		t.Fatalf("games: %q", out)
	}
	if code, out, _ := meterread("events", dir); code != 0 || !strings.Contains(out, "porta principal aberta") {
		t.Fatalf("events: %q", out)
	}
	if code, out, _ := meterread("events", dir, "--lang", "en"); code != 0 || !strings.Contains(out, "main door opened") {
		t.Fatalf("events: %q", out)
	}
	if treeHash(t, dir) != before {
		t.Fatal("meterread changed the directory it reads")
	}
}

func TestVerifyDetectsAFlippedByte(t *testing.T) {
	dir := cabinetDir(t)
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
	code, out, _ := meterread("verify", dir, "--pub", pubFile(dir))
	if code != 1 || !strings.HasPrefix(out, "NÃO VERIFICADO") {
		t.Fatalf("flipped byte: %d %q", code, out)
	}
}

func TestVerifyWithTheWrongMachineKey(t *testing.T) {
	dir := cabinetDir(t)
	other := cabinetDir(t)
	code, out, _ := meterread("verify", dir, "--pub", pubFile(other), "--lang", "en")
	if code != 1 || !strings.Contains(out, "NOT VERIFIED") {
		t.Fatalf("foreign key: %d %q", code, out)
	}
}

func TestSignedReport(t *testing.T) {
	dir := cabinetDir(t)
	pub, priv, _ := ed25519.GenerateKey(nil)
	keyFile := filepath.Join(t.TempDir(), "inspector.key")
	os.WriteFile(keyFile, reels.EncodeKey(priv), 0o600)
	out := filepath.Join(t.TempDir(), "report.txt")
	if code, _, e := meterread("report", dir, "--pub", pubFile(dir), "--lang", "en", "--key", keyFile, "--out", out); code != 0 {
		t.Fatal(e)
	}
	doc, _ := os.ReadFile(out)
	sig, _ := os.ReadFile(out + ".sig")
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(sig)))
	if err != nil || !ed25519.Verify(pub, doc, raw) {
		t.Fatal("report signature does not verify")
	}
	for _, want := range []string{"VERIFIED", "METERS", "0x24", "total drop", "GAMES", "EVENTS"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"verify"}, {"bogus", "x"}, {"meters", "a", "b"}, {"report", "x", "--lang", "fr"}} {
		if code, _, _ := meterread(args...); code != 2 {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	if code, _, e := meterread("meters", t.TempDir()); code != 1 || !strings.Contains(e, "neither a cabinet's data directory") {
		t.Fatalf("empty dir: %q", e)
	}
}

// The local jackpot's meters, exact to the millicent, with the identity.
func TestJackpotReadout(t *testing.T) {
	dir := cabinetDir(t)
	code, out, errs := meterread("jackpot", "--json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []inspect.JackpotRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Level != "1" || rows[1].Level != "total" {
		t.Fatalf("rows %+v", rows)
	}
	r := rows[0]
	if r.Current != 25_002_000 || r.SeedFunding != 25_000_000 || r.Contributions != 2000 || r.Liability != r.Current || !r.Identity {
		t.Fatalf("level 1 %+v", r)
	}
	code, out, _ = meterread("report", dir, "--pub", pubFile(dir), "--lang", "en")
	if code != 0 || !strings.Contains(out, "LOCAL JACKPOT") || !strings.Contains(out, "€250.02 ") || strings.Contains(out, "€250.02000") || !strings.Contains(out, "holds") {
		t.Fatalf("report lacks the jackpot:\n%s", out)
	}
}
