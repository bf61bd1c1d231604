// Package inspect is the gaming inspector's readout of a cabinet's ledger
// (regulation rules 9 and 14): verification of the log and its meters, the
// meters with their SAS codes, the local jackpot held in trust, the games and
// events, and the report that gathers them, signed. It works on a private
// copy of a data directory and never writes to the one it reads. cmd/meterread
// is its command line; the cabinet's inspector menu uses it too.
package inspect

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/internal/names"
	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas/metercode"
)

// Verdict is what Verify found.
type Verdict struct {
	OK          bool     `json:"ok"`
	Records     uint64   `json:"records"` // log records verified (checkpoints and seals included)
	Folded      uint64   `json:"folded"`  // ledger records folded from the first
	Checkpoints int      `json:"checkpoints"`
	Seals       int      `json:"seals"`
	Marks       int      `json:"marks,omitempty"` // commits carrying the board's signed mark
	VouchedSeq  uint64   `json:"vouched_seq,omitempty"`
	KeyID       string   `json:"machine_key"`
	LastHash    string   `json:"last_hash"`
	Problems    []string `json:"problems"`
	Snapshots   []string `json:"snapshots,omitempty"`
	// NoKey: no registered machine key was given, so no signature was
	// checked (one of the Problems says so, in English).
	NoKey bool `json:"no_key,omitempty"`
}

// LedgerDir is the ledger directory of dir: dir itself when it holds the
// log, or dir/ledger when dir is the cabinet's data directory.
func LedgerDir(dir string) (string, error) {
	for _, d := range []string{dir, filepath.Join(dir, "ledger")} {
		if st, err := os.Stat(filepath.Join(d, book.LogDir)); err == nil && st.IsDir() {
			return d, nil
		}
	}
	return "", fmt.Errorf("%s is neither a cabinet's data directory (with ledger/%s) nor its ledger directory (with %s)", dir, book.LogDir, book.LogDir)
}

// ReadPub reads the machine's public key as the inspector registered it at
// commissioning ("" = none given).
func ReadPub(file string) (ed25519.PublicKey, error) {
	if file == "" {
		return nil, nil
	}
	pub, err := meters.ReadPublicKey(file)
	if err != nil {
		return nil, fmt.Errorf("registered machine key: %w", err)
	}
	return pub, nil
}

// Verify checks a cabinet's ledger (dir: its data directory or its ledger
// directory) against the machine key registered at commissioning: every
// record, the chain, every checkpoint and seal signature, a fold of every
// record from the first with every invariant, and the snapshots against
// the fold. Without a registered key it says so: a key found beside the
// ledger proves nothing (whoever changed the ledger could change it too).
// The state returned is the fold (nil if the log cannot be folded).
func Verify(dir string, pub ed25519.PublicKey) (Verdict, *meters.State) {
	v := Verdict{}
	ld, err := LedgerDir(dir)
	if err != nil {
		v.Problems = append(v.Problems, err.Error())
		return v, nil
	}
	v.NoKey = pub == nil
	st, bv, err := meters.Read(ld, pub)
	if bv == nil {
		v.Problems = append(v.Problems, err.Error())
		return v, nil
	}
	v.Records, v.Folded, v.Checkpoints, v.Seals = bv.Records, bv.Folded, bv.Checkpoints, bv.Seals
	v.Marks, v.VouchedSeq = bv.Marks, bv.VouchedSeq
	v.KeyID, v.LastHash, v.Snapshots = bv.KeyID, bv.LastHash, bv.Snapshots
	v.Problems = append(v.Problems, bv.Problems...)
	v.OK = len(v.Problems) == 0
	return v, st
}

// ReadState folds the ledger of dir from its first record, on a private
// copy (the directory is never touched): the meters as the log says, not
// as a snapshot says.
func ReadState(dir string) (*meters.State, error) {
	ld, err := LedgerDir(dir)
	if err != nil {
		return nil, err
	}
	st, _, err := meters.Read(ld, nil)
	return st, err
}

type MeterRow struct {
	Name string `json:"name"`
	// SAS is the meter's SAS code ("0x44") and SASName what the one table
	// of SAS codes calls it, as a SAS host (sashost) names it.
	SAS     string `json:"sas,omitempty"`
	SASName string `json:"sas_name,omitempty"`
	Value   int64  `json:"value"`
	Unit    string `json:"unit"`
	Euros   string `json:"euros,omitempty"`
	// BillCents is the note a bill count is of.
	BillCents int64 `json:"bill_cents,omitempty"`
}

func MeterRows(st *meters.State) []MeterRow {
	var rows []MeterRow
	for i, d := range meters.Defs {
		r := MeterRow{Name: d.Name, Value: st.Meters[i], Unit: "count"}
		if d.SAS >= 0 {
			r.SAS, r.SASName = sasLabel(metercode.Code(d.SAS))
		}
		if d.Cents {
			r.Unit, r.Euros = "cents", money.Euro("en", st.Meters[i])
		}
		rows = append(rows, r)
	}
	for i, b := range meters.BillValues {
		r := MeterRow{Name: fmt.Sprintf("bills of %s accepted", money.Euro("en", b)), Value: st.BillCounts[i], Unit: "count", BillCents: b}
		if c, ok := meters.BillSAS(b); ok {
			r.SAS, r.SASName = sasLabel(c)
		}
		rows = append(rows, r)
	}
	return rows
}

func sasLabel(c metercode.Code) (code, name string) {
	return fmt.Sprintf("0x%02X", uint16(c)), c.Name()
}

// WriteMeters writes every meter with its SAS code, in the language, the
// credit equation and the credits by kind.
func WriteMeters(w io.Writer, st *meters.State, lang string) {
	eur := func(c int64) string { return money.Euro(lang, c) }
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, rt(lang, "meter_cols"))
	for _, r := range MeterRows(st) {
		e := ""
		if r.Unit == "cents" {
			e = eur(r.Value)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.SAS, r.SASName, meterName(lang, r), money.Count(lang, r.Value), e)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, rt(lang, "equation", st.LastGame, eur(st.MoneyInTotal()), eur(st.Get(meters.CoinIn)), eur(st.Get(meters.CoinOut)),
		eur(st.MoneyOutTotal()), eur(st.Get(meters.RestrictedExpired)), eur(st.Get(meters.Credits))))
	c := st.CreditsByKind()
	fmt.Fprintln(w, rt(lang, "by_kind", eur(c.Cashable), eur(c.Restricted), eur(c.NonRestricted)))
}

// meterName is a meter's name in the language.
func meterName(lang string, r MeterRow) string {
	if r.BillCents != 0 {
		return rt(lang, "bill_meter", money.Euro(lang, r.BillCents))
	}
	return names.Meter(lang, r.Name)
}

// WriteGames writes games with every amount each paid, in the language.
func WriteGames(w io.Writer, games []GameRow, lang string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, rt(lang, "game_cols"))
	for _, row := range gameRowsText(lang, games) {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}

// WriteEvents writes the event log in the language's words.
func WriteEvents(w io.Writer, events []EventRow, lang string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, rt(lang, "event_cols"))
	for _, e := range events {
		what, who := eventText(lang, e)
		fmt.Fprintf(tw, "%s\t%s\t%s\n", when(e.At), what, who)
	}
	tw.Flush()
}

func when(ns int64) string { return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05") }

// WriteVerdict writes the verdict and its problems in the language.
func WriteVerdict(w io.Writer, v Verdict, lang string) {
	fmt.Fprintln(w, v.Line(lang))
	for _, p := range v.shownProblems(lang) {
		fmt.Fprintf(w, "  - %s\n", p)
	}
}

func short(h string) string {
	if len(h) > 16 {
		return h[:16] + "…"
	}
	return h
}

// JackpotRow is one local jackpot level's meters, in millicents (exact).
type JackpotRow struct {
	Level         string `json:"level"`
	Trigger       string `json:"trigger"`
	Current       int64  `json:"current"`
	Reserve       int64  `json:"reserve"`
	Overflow      int64  `json:"overflow"`
	Liability     int64  `json:"liability"` // current + reserve + overflow
	SeedFunding   int64  `json:"seed_funding"`
	Contributions int64  `json:"contributions"`
	Awarded       int64  `json:"awarded"`
	Hits          int64  `json:"hits"`
	Identity      bool   `json:"identity_holds"`
}

// JackpotRows lists the local levels and, last, their total, with the
// identity seed funding + contributions + transferred in = awarded +
// current + reserve + overflow + transferred out checked on each.
func JackpotRows(st *meters.State) []JackpotRow {
	if st.Jackpot.Pools == nil {
		return nil
	}
	row := func(id, trigger string, m jackpot.Meters) JackpotRow {
		return JackpotRow{Level: id, Trigger: trigger, Current: m.Current, Reserve: m.Reserve, Overflow: m.Overflow,
			Liability: m.Current + m.Reserve + m.Overflow, SeedFunding: m.SeedFunding, Contributions: m.Contributions,
			Awarded: m.Awarded, Hits: m.Hits,
			Identity: m.Identity(true).Holds()}
	}
	var rows []JackpotRow
	for _, id := range st.Jackpot.Levels() {
		v, _ := st.Jackpot.Level(id)
		rows = append(rows, row(id, v.Config.Trigger.String(), v.Meters))
	}
	if t, err := st.Jackpot.Totals(); err == nil {
		rows = append(rows, row("total", "", t))
	}
	return rows
}

// WriteJackpot writes the local jackpot levels in the language: exact,
// to the millicent (meterread jackpot), or in euros and cents (the
// report).
func WriteJackpot(w io.Writer, rows []JackpotRow, lang string, exact bool) {
	if len(rows) == 0 {
		fmt.Fprintln(w, rt(lang, "no_jackpot"))
		return
	}
	amount := func(mc int64) string { return money.Euro(lang, mc/1000) }
	if exact {
		amount = func(mc int64) string { return money.Millicents(lang, mc) }
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, rt(lang, "jackpot_cols"))
	for _, r := range rows {
		ok := rt(lang, "identity_holds")
		if !r.Identity {
			ok = rt(lang, "identity_broken")
		}
		level, trigger := r.Level, r.Trigger
		if level == "total" {
			level = rt(lang, "level_total")
		}
		if trigger != "" {
			trigger = rt(lang, "trigger_"+trigger)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", level, trigger, amount(r.Current), amount(r.Reserve),
			amount(r.Overflow), amount(r.Liability), amount(r.SeedFunding), amount(r.Contributions), amount(r.Awarded), money.Count(lang, r.Hits), ok)
	}
	tw.Flush()
	id := rt(lang, "jackpot_identity")
	if !exact {
		id += rt(lang, "jackpot_exact")
	}
	fmt.Fprintln(w, id)
}

// Sign is the detached signature file of a report (book.SignDocument).
func Sign(doc []byte, key ed25519.PrivateKey) ([]byte, error) { return book.SignDocument(key, doc) }
