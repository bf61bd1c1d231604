// Command meterread is the gaming inspector's offline readout of a cabinet's
// ledger (regulation rules 9 and 14). It works on a copy of the cabinet's
// data directory and never writes to the directory it reads.
package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/meters/walog"
	"github.com/openegm/cabinet/reels"
)

const usage = `meterread — inspector's readout of a cabinet ledger (read-only)

Usage:
  meterread verify  DIR [--pub FILE]
      Checks every record's checksum, the hash chain, the signed checkpoints
      (with the machine public key recorded at commissioning; default: the
      machine.pub found in DIR) and replays the meters, checking the credit
      equation, monotonic meters, game numbering and one end per game.
      Prints a verdict; exit status 0 = verified, 1 = not verified.

  meterread meters  DIR [--json]
      Every meter with its name and SAS code, in cents and euros.

  meterread games   DIR [--last N] [--json]
      The last N games (default 10): bet, stops, free games, win.

  meterread events  DIR [--last N] [--json]
      The last N events (default 50): doors, power, tilts, service actions.

  meterread jackpot DIR [--json]
      The local jackpot levels, exact to the millicent: current value,
      reserve, overflow, the liability held in trust, seed funding,
      contributions, awards and hits, with the accounting identity checked.

  meterread report  DIR [--json] [--key INSPECTOR.key] [--out FILE]
      One document with the verdict, the meters, the local jackpot, the
      games and the events.
      With --key (a parsheet keygen key) FILE.sig holds its Ed25519
      signature, base64, so the report itself is tamper-evident.

DIR is a copy of the cabinet's data directory; it is never modified.
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pubFile := fs.String("pub", "", "")
	asJSON := fs.Bool("json", false, "")
	last := fs.Int("last", 0, "")
	keyFile := fs.String("key", "", "")
	outFile := fs.String("out", "", "")
	var pos []string
	rest := args[1:]
	for {
		if err := fs.Parse(rest); err != nil {
			fmt.Fprintf(stderr, "meterread: %v (see meterread --help)\n", err)
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "meterread %s: expected one data directory (see meterread --help)\n", args[0])
		return 2
	}
	dir := pos[0]
	switch args[0] {
	case "verify":
		v := verify(dir, *pubFile)
		writeVerdict(stdout, v)
		if !v.OK {
			return 1
		}
		return 0
	case "meters", "games", "events", "jackpot", "report":
	default:
		fmt.Fprintf(stderr, "meterread: unknown command %q (see meterread --help)\n", args[0])
		return 2
	}
	st, err := readState(dir)
	if err != nil {
		fmt.Fprintf(stderr, "meterread: %v\n", err)
		return 1
	}
	switch args[0] {
	case "meters":
		if *asJSON {
			return emit(stdout, stderr, meterRows(st))
		}
		writeMeters(stdout, st)
	case "games":
		g := lastN(st.Games, *last, 10)
		if *asJSON {
			return emit(stdout, stderr, g)
		}
		writeGames(stdout, g)
	case "events":
		e := lastN(st.Events, *last, 50)
		if *asJSON {
			return emit(stdout, stderr, e)
		}
		writeEvents(stdout, e)
	case "jackpot":
		rows := jackpotRows(st)
		if *asJSON {
			return emit(stdout, stderr, rows)
		}
		writeJackpot(stdout, rows)
	case "report":
		return report(dir, *pubFile, st, *asJSON, *keyFile, *outFile, stdout, stderr)
	}
	return 0
}

// verdict is the result of verify.
type verdict struct {
	OK          bool     `json:"ok"`
	Records     uint64   `json:"records"`
	Checkpoints int      `json:"checkpoints"`
	KeyID       string   `json:"machine_key"`
	LastHash    string   `json:"last_hash"`
	Problems    []string `json:"problems"`
}

func verify(dir, pubFile string) verdict {
	v := verdict{}
	if pubFile == "" {
		pubFile = filepath.Join(dir, "machine.pub")
	}
	pub, err := meters.ReadPublicKey(pubFile)
	if err != nil {
		v.Problems = append(v.Problems, fmt.Sprintf("machine public key: %v", err))
	} else {
		v.KeyID = meters.KeyID(pub)
	}
	rep, err := walog.Verify(filepath.Join(dir, "log"), pub)
	if err != nil {
		v.Problems = append(v.Problems, err.Error())
	} else {
		v.Records, v.Checkpoints = rep.Records, rep.Checkpoints
		v.LastHash = hex.EncodeToString(rep.LastHash[:])
		v.Problems = append(v.Problems, rep.Problems...)
		if rep.TornTail != "" {
			v.Problems = append(v.Problems, "torn last record (the cabinet repairs it at next start-up): "+rep.TornTail)
		}
		if !rep.OK && len(rep.Problems) == 0 {
			v.Problems = append(v.Problems, "log verification failed")
		}
	}
	if _, err := readState(dir); err != nil {
		v.Problems = append(v.Problems, err.Error())
	}
	v.OK = len(v.Problems) == 0
	return v
}

// readState folds the ledger on a private copy of dir, so the original is
// never touched (opening a ledger may repair a torn tail or write snapshots).
func readState(dir string) (*meters.State, error) {
	if _, err := os.Stat(filepath.Join(dir, "log")); err != nil {
		return nil, fmt.Errorf("%s is not a cabinet data directory: %w", dir, err)
	}
	tmp, err := os.MkdirTemp("", "meterread-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(dir, tmp); err != nil {
		return nil, err
	}
	l, _, err := meters.Open(tmp, meters.Options{SnapshotEvery: 1 << 62})
	if err != nil {
		return nil, err
	}
	defer l.Close()
	return l.State(), nil
}

func copyTree(src, dst string) error {
	return filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o600)
	})
}

type meterRow struct {
	Name  string `json:"name"`
	SAS   string `json:"sas,omitempty"`
	Value int64  `json:"value"`
	Unit  string `json:"unit"`
	Euros string `json:"euros,omitempty"`
}

func meterRows(st *meters.State) []meterRow {
	var rows []meterRow
	for i, d := range meters.Defs {
		r := meterRow{Name: d.Name, Value: st.Meters[i], Unit: "count"}
		if d.SAS >= 0 {
			r.SAS = fmt.Sprintf("0x%02X", d.SAS)
		}
		if d.Cents {
			r.Unit, r.Euros = "cents", euros(st.Meters[i])
		}
		rows = append(rows, r)
	}
	for i, b := range meters.BillValues {
		rows = append(rows, meterRow{Name: fmt.Sprintf("bills of %s accepted", euros(b)),
			SAS: fmt.Sprintf("0x%02X", meters.BillSASBase+i), Value: st.BillCounts[i], Unit: "count"})
	}
	return rows
}

// euros formats cents exactly, without floating point.
func euros(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d €", sign, c/100, c%100)
}

func writeMeters(w io.Writer, st *meters.State) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SAS\tmeter\tvalue\teuros")
	for _, r := range meterRows(st) {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", r.SAS, r.Name, r.Value, r.Euros)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nlast game %d; credit equation: %s in − %s bets + %s wins − %s out = %s credits\n",
		st.LastGame, euros(st.MoneyInTotal()), euros(st.Get(meters.CoinIn)), euros(st.Get(meters.CoinOut)),
		euros(st.MoneyOutTotal()), euros(st.Get(meters.Credits)))
}

func writeGames(w io.Writer, games []meters.GameHistory) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "game\ttime (UTC)\tpaytable\tbet\tstops\tfree games\twin\thandpay")
	for _, g := range games {
		win, hp := "(in progress)", ""
		if g.End != nil {
			win = euros(g.End.WinCents)
			if g.End.Handpay {
				hp = "yes"
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%v\t%d\t%s\t%s\n", g.Start.Game, when(g.Start.At), g.Start.Paytable,
			euros(g.Start.BetCents), g.Start.Stops, len(g.Free), win, hp)
	}
	tw.Flush()
}

func writeEvents(w io.Writer, events []meters.Event) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "time (UTC)\tevent\tdoor\tdetail")
	for _, e := range events {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", when(e.At), e.Code, e.Door, e.Detail)
	}
	tw.Flush()
}

func when(ns int64) string { return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05") }

func writeVerdict(w io.Writer, v verdict) {
	if v.OK {
		fmt.Fprintf(w, "VERIFIED: %d records, hash chain intact (last %s), %d signed checkpoints by machine key %s, meters consistent\n",
			v.Records, short(v.LastHash), v.Checkpoints, v.KeyID)
		return
	}
	fmt.Fprintf(w, "NOT VERIFIED: %d problem(s)\n", len(v.Problems))
	for _, p := range v.Problems {
		fmt.Fprintf(w, "  - %s\n", p)
	}
}

func short(h string) string {
	if len(h) > 16 {
		return h[:16] + "…"
	}
	return h
}

func lastN[T any](s []T, n, def int) []T {
	if n <= 0 {
		n = def
	}
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func emit(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

func report(dir, pubFile string, st *meters.State, asJSON bool, keyFile, outFile string, stdout, stderr io.Writer) int {
	v := verify(dir, pubFile)
	var doc strings.Builder
	if asJSON {
		enc := json.NewEncoder(&doc)
		enc.SetIndent("", "  ")
		enc.Encode(map[string]any{"verdict": v, "meters": meterRows(st), "jackpot": jackpotRows(st), "games": st.Games, "events": st.Events})
	} else {
		fmt.Fprintf(&doc, "CABINET LEDGER REPORT  %s\n\n", dir)
		writeVerdict(&doc, v)
		fmt.Fprintln(&doc, "\nMETERS")
		writeMeters(&doc, st)
		fmt.Fprintln(&doc, "\nLOCAL JACKPOT (held in trust)")
		writeJackpot(&doc, jackpotRows(st))
		fmt.Fprintln(&doc, "\nGAMES")
		writeGames(&doc, st.Games)
		fmt.Fprintln(&doc, "\nEVENTS")
		writeEvents(&doc, st.Events)
	}
	data := []byte(doc.String())
	if outFile == "" {
		stdout.Write(data)
	} else if err := os.WriteFile(outFile, data, 0o644); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if keyFile != "" {
		if outFile == "" {
			fmt.Fprintln(stderr, "meterread report: --key needs --out FILE (the signature goes to FILE.sig)")
			return 2
		}
		kd, err := os.ReadFile(keyFile)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		priv, err := reels.ParsePrivateKey(keyFile, kd)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		sig := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, data)) + "\n"
		if err := os.WriteFile(outFile+".sig", []byte(sig), 0o644); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if !v.OK {
		return 1
	}
	return 0
}

// jackpotRow is one local jackpot level's meters, in millicents (exact).
type jackpotRow struct {
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

// jackpotRows lists the local levels and, last, their total, with the
// identity seed funding + contributions + transferred in = awarded +
// current + reserve + overflow + transferred out checked on each.
func jackpotRows(st *meters.State) []jackpotRow {
	if st.Jackpot.Pools == nil {
		return nil
	}
	row := func(id, trigger string, m jackpot.Meters) jackpotRow {
		return jackpotRow{Level: id, Trigger: trigger, Current: m.Current, Reserve: m.Reserve, Overflow: m.Overflow,
			Liability: m.Current + m.Reserve + m.Overflow, SeedFunding: m.SeedFunding, Contributions: m.Contributions,
			Awarded: m.Awarded, Hits: m.Hits,
			Identity: m.SeedFunding+m.Contributions+m.TransferredIn == m.Awarded+m.Current+m.Reserve+m.Overflow+m.TransferredOut}
	}
	var rows []jackpotRow
	for _, id := range st.Jackpot.Levels() {
		v, _ := st.Jackpot.Level(id)
		rows = append(rows, row(id, v.Config.Trigger.String(), v.Meters))
	}
	if t, err := st.Jackpot.Totals(); err == nil {
		rows = append(rows, row("total", "", t))
	}
	return rows
}

// millicents formats an exact amount in euros with five decimals.
func millicents(m int64) string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	return fmt.Sprintf("%s%d.%05d €", sign, m/100_000, m%100_000)
}

func writeJackpot(w io.Writer, rows []jackpotRow) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "no local jackpot")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "level\ttrigger\tcurrent\treserve\toverflow\tliability\tseed funding\tcontributions\tawarded\thits\tidentity\t")
	for _, r := range rows {
		ok := "holds"
		if !r.Identity {
			ok = "BROKEN"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t\n", r.Level, r.Trigger, millicents(r.Current), millicents(r.Reserve),
			millicents(r.Overflow), millicents(r.Liability), millicents(r.SeedFunding), millicents(r.Contributions), millicents(r.Awarded), r.Hits, ok)
	}
	tw.Flush()
	fmt.Fprintln(w, "identity: seed funding + contributions (+ transfers in) = awarded + current + reserve + overflow (+ transfers out), to the millicent")
}
