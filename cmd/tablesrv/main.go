// Command tablesrv is the poker table server: it runs synthetic-poker,
// hold'em and chemin de fer tables from signed, approved definitions, keeps its own ledger,
// serves the seats' page and WebSocket and the seat owners' API
// (docs/tablesrv.md), and reads its ledger for the inspector.
package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // the casino's zone for --closing, on a board without a zone database

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/tabledef"
	"github.com/openegm/cabinet/poker/tableledger"
	"github.com/openegm/cabinet/poker/tableserver"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

const usage = `tablesrv — the poker table server

Usage:
  tablesrv run --data DIR [--board DIR] [--listen ADDR] [--table ID]... [--table-dir DIR]
               [--hand-pause D] [--api-token FILE] [--closing HH:MM [--tz ZONE]]
      Runs the tables: every approved definition named by --table (embedded:
      ` + "`tablesrv tables`" + ` lists them) or found signed in --table-dir (DIR/ID.json
      and DIR/ID.json.sig, signed by a key this program trusts); without
      either, every embedded poker definition (a chemin de fer table runs
      when named: --table chemin-6d). The ledger is in DIR; the server's
      signing key, the witness of the ledger's head, the API token and the
      seat key are on the board (default DIR.board), apart from the data.
      The seats' page and WebSocket and the API listen on ADDR (default
      127.0.0.1:8080); the address is written to DIR/tablesrv.addr.
      A table with players when the server stopped resumes: the hand the
      stop cut is void and every stake returned (SRIJ rule 86).
      --closing is the casino's official closing hour, every day, in ZONE
      (default Europe/Lisbon): a chemin de fer partida plays rule 107's
      close at the first such hour after it began (its sabot played to its
      end if begun 20 minutes before, otherwise «Último golpe» and one last
      coup), then every player is paid to his buy-in's source.

  tablesrv tables
      The embedded approved definitions, with their cards.

  tablesrv verify DIR --pub FILE [--json]
      The inspector's check of a ledger (a copy of DIR): every record's
      checksum, the hash chain, the checkpoints and seals signed with the
      server key registered at commissioning (FILE), the fold of every
      record from the first with every cent checked (rake and fees at the
      definition's rate, pots paid in full, voids that give back every
      stake, cash-outs of whole stacks, chip conservation at every step),
      every definition's signature, and every step re-run by the engines on
      the logged events and draws, which must give the records the log
      holds. Exit status 0 = verified, 1 = not verified.

  tablesrv report DIR --pub FILE [--json] [--lang pt|en] [--key KEY --out FILE]
      The verdict, each table's sessions and definitions, its money and
      counts, the players seated, the money of each source, every transfer
      and every void hand. With --key (a parsheet keygen key) the report is
      written to --out with its signature (--out.sig).

  tablesrv hands DIR [--table ID] [--last N] [--json]
      The hand histories from the log: every record of the last N hands
      (default 10) of a table; a chemin de fer table's coups, with the
      dealer's announcements in Portuguese and English.

DIR is never modified by verify, report or hands.
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// parse takes flags before and after the positional arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	data := fs.String("data", "", "")
	board := fs.String("board", "", "")
	listen := fs.String("listen", "127.0.0.1:8080", "")
	var tables multi
	fs.Var(&tables, "table", "")
	tableDir := fs.String("table-dir", "", "")
	pause := fs.Duration("hand-pause", 3*time.Second, "")
	apiToken := fs.String("api-token", "", "")
	pubFile := fs.String("pub", "", "")
	asJSON := fs.Bool("json", false, "")
	lang := fs.String("lang", "pt", "")
	keyFile := fs.String("key", "", "")
	outFile := fs.String("out", "", "")
	last := fs.Int("last", 10, "")
	closingAt := fs.String("closing", "", "")
	zone := fs.String("tz", "Europe/Lisbon", "")
	pos, err := parse(fs, args[1:])
	if err != nil {
		fmt.Fprintf(stderr, "tablesrv %s: %v (see tablesrv --help)\n", args[0], err)
		return 2
	}
	oneDir := func() (string, bool) {
		if len(pos) != 1 {
			fmt.Fprintf(stderr, "tablesrv %s: expected one data directory\n", args[0])
			return "", false
		}
		return pos[0], true
	}
	switch args[0] {
	case "run":
		if *data == "" || len(pos) > 0 {
			fmt.Fprintln(stderr, "tablesrv run: --data DIR is required, and nothing else")
			return 2
		}
		closing, err := parseClosing(*closingAt, *zone)
		if err != nil {
			fmt.Fprintf(stderr, "tablesrv run: %v\n", err)
			return 2
		}
		return serve(*data, boardOf(*board, *data), *listen, tables, *tableDir, *pause, *apiToken, closing, stderr)
	case "tables":
		list := func(ids []string, load func(string) (*tabledef.Certified, error), note string) {
			for _, id := range ids {
				c, err := load(id)
				if err != nil {
					fmt.Fprintf(stdout, "%s: %v\n", id, err)
					continue
				}
				fmt.Fprintf(stdout, "%s v%d (%s, key %s%s): %s\n  %s\n", c.ID, c.Version, c.Game, c.KeyID, note, c.Title.PT, strings.Join(c.Card("pt"), "\n  "))
			}
		}
		list(assets.PokerTables(), assets.LoadPokerTable, "")
		list(assets.CheminTables(), assets.LoadCheminTable, "; runs when named: --table ID")
		return 0
	case "verify", "report":
		dir, ok := oneDir()
		if !ok {
			return 2
		}
		if *lang != "pt" && *lang != "en" {
			fmt.Fprintf(stderr, "tablesrv: --lang %q: pt or en\n", *lang)
			return 2
		}
		var pub ed25519.PublicKey
		if *pubFile != "" {
			if pub, err = book.ReadPublicKey(*pubFile); err != nil {
				fmt.Fprintf(stderr, "tablesrv: %v\n", err)
				return 2
			}
		}
		if args[0] == "verify" {
			return verify(dir, pub, *asJSON, stdout, stderr)
		}
		return report(dir, pub, *asJSON, *lang, *keyFile, *outFile, stdout, stderr)
	case "hands":
		dir, ok := oneDir()
		if !ok {
			return 2
		}
		var table string
		if len(tables) > 1 {
			fmt.Fprintln(stderr, "tablesrv hands: one --table at a time")
			return 2
		} else if len(tables) == 1 {
			table = tables[0]
		}
		return hands(dir, table, *last, *asJSON, stdout, stderr)
	}
	fmt.Fprintf(stderr, "tablesrv: unknown command %q (see tablesrv --help)\n", args[0])
	return 2
}

// boardOf is the board directory: given, or beside the data (DATA.board).
func boardOf(board, data string) string {
	if board != "" {
		return board
	}
	return filepath.Clean(data) + ".board"
}

// loadTables loads the definitions to run: embedded by ID, or signed in a
// directory; each signed by a key this program trusts.
func loadTables(ids []string, dir string) ([]*tabledef.Certified, error) {
	var out []*tabledef.Certified
	if dir != "" {
		names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		sort.Strings(names)
		for _, n := range names {
			data, err := os.ReadFile(n)
			if err != nil {
				return nil, err
			}
			sig, _ := os.ReadFile(n + ".sig")
			c, err := tabledef.LoadCertified(n, data, sig, assets.TrustedKeys())
			if err != nil {
				return nil, err
			}
			if want := strings.TrimSuffix(filepath.Base(n), ".json"); c.ID != want {
				return nil, fmt.Errorf("%s: its id is %q: a signed definition is not run under another name", n, c.ID)
			}
			out = append(out, c)
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("--table-dir %s: no definition (ID.json with ID.json.sig)", dir)
		}
	}
	if len(ids) == 0 && dir == "" {
		ids = assets.PokerTables()
	}
	for _, id := range ids {
		load := assets.LoadPokerTable
		if slices.Contains(assets.CheminTables(), id) {
			// A chemin de fer table runs when it is named: the default is
			// every poker table.
			load = assets.LoadCheminTable
		}
		c, err := load(id)
		if err != nil {
			return nil, fmt.Errorf("--table %s: %w", id, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// secret reads a secret file of the board, creating it (random, mode
// 0600) the first time.
func secret(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		s := strings.TrimSpace(string(b))
		if len(s) < 32 {
			return nil, fmt.Errorf("%s: a secret of at least 32 characters", path)
		}
		return []byte(s), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	s := hex.EncodeToString(raw)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	return []byte(s), atomicfile.Write(path, []byte(s+"\n"), 0o600)
}

// parseClosing reads --closing HH:MM in the zone --tz names ("" : no
// closing hour).
func parseClosing(hhmm, zone string) (func(time.Time) time.Time, error) {
	if hhmm == "" {
		return nil, nil
	}
	var hh, mm int
	if n, err := fmt.Sscanf(hhmm, "%d:%d", &hh, &mm); n != 2 || err != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 || len(hhmm) != 5 {
		return nil, fmt.Errorf("--closing %q: the hour as HH:MM, 00:00 to 23:59", hhmm)
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil, fmt.Errorf("--tz %q: %v", zone, err)
	}
	return tableserver.DailyClosing(hh, mm, loc), nil
}

func serve(data, board, listen string, ids []string, tableDir string, pause time.Duration, tokenFile string, closing func(time.Time) time.Time, stderr io.Writer) int {
	log := slog.New(slog.NewTextHandler(stderr, nil))
	fail := func(what string, err error) int {
		log.Error(what, "err", err)
		return 1
	}
	certs, err := loadTables(ids, tableDir)
	if err != nil {
		return fail("tables refused", err)
	}
	if err := rng.SelfTest(); err != nil {
		return fail("RNG self-test", err)
	}
	r, err := rng.New()
	if err != nil {
		return fail("RNG", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	r.StartCycling(ctx, time.Millisecond)
	if err := os.MkdirAll(board, 0o700); err != nil {
		return fail("board", err)
	}
	if tokenFile == "" {
		tokenFile = filepath.Join(board, "api.token")
	}
	token, err := secret(tokenFile)
	if err != nil {
		return fail("API token", err)
	}
	seatKey, err := secret(filepath.Join(board, "seat.key"))
	if err != nil {
		return fail("seat key", err)
	}
	w, err := book.OpenFileWitness(filepath.Join(board, "witness"))
	if err != nil {
		return fail("the board's witness", err)
	}
	defer w.Close()
	led, info, err := tableledger.Open(data, tableledger.Options{Keys: book.FileKeys{Dir: board}, Witness: w})
	if err != nil {
		return fail("ledger", err)
	}
	defer led.Close()
	// Evidence of tampering refuses the ledger: no table plays on money
	// changed behind the server's back.
	evidence := append([]string{}, info.Tampered...)
	if info.Witness.Tampered() {
		evidence = append(evidence, info.Witness.Detail)
	}
	if len(evidence) > 0 {
		return fail("evidence of tampering, the ledger is not used", errors.New(strings.Join(evidence, "; ")))
	}
	now := time.Now().UTC().Round(0)
	if s := info.Witness.Status; s == book.WitnessEmpty || s == book.WitnessBehind {
		log.Warn("the board's witness does not know this ledger's head (a new board?): it is written from now on", "detail", info.Witness.Detail)
	}
	if info.Repaired != "" {
		if _, err := led.Commit(tableledger.ServerEvent{At: now, Code: tableledger.EventLogRepaired, Detail: info.Repaired}); err != nil {
			return fail("ledger", err)
		}
	}
	var names []string
	for _, c := range certs {
		names = append(names, c.ID+" "+c.Digest[:16])
	}
	if _, err := led.Commit(tableledger.ServerEvent{At: now, Code: tableledger.EventStart, Detail: strings.Join(names, ", ")}); err != nil {
		return fail("ledger", err)
	}
	srv, err := tableserver.Open(led, tableserver.Options{Tables: certs, RNG: r, HandPause: pause, SeatKey: seatKey, Log: log, Closing: closing})
	if err != nil {
		return fail("tables", err)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fail("listen", err)
	}
	addr := ln.Addr().String()
	if err := atomicfile.Write(filepath.Join(data, "tablesrv.addr"), []byte(addr+"\n"), 0o644); err != nil {
		return fail("address file", err)
	}
	hs := &http.Server{Handler: srv.Handler(string(token)), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	log.Info("serving", "url", "http://"+addr, "tables", strings.Join(names, "; "), "key", reels.KeyID(led.PublicKey()))
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			hs.Shutdown(sctx)
			cancel()
			srv.Close()
			log.Info("stopped")
			return 0
		case <-tick.C:
			srv.Pump()
			if err := srv.Fault(); err != nil {
				log.Error("out of service", "err", err)
			}
		}
	}
}

func verify(dir string, pub ed25519.PublicKey, asJSON bool, stdout, stderr io.Writer) int {
	v, err := tableledger.Verify(dir, pub, assets.TrustedKeys())
	if err != nil {
		fmt.Fprintf(stderr, "tablesrv verify: %v\n", err)
		return 1
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(v)
	} else {
		verdict := "VERIFIED"
		if !v.OK {
			verdict = "NOT VERIFIED"
		}
		fmt.Fprintf(stdout, "%s: %d records (%d folded), %d checkpoints, %d seals, key %s; %d sessions, %d steps re-run by the engines\n",
			verdict, v.Records, v.Folded, v.Checkpoints, v.Seals, v.KeyID, v.Sessions, v.Steps)
		for _, s := range v.Snapshots {
			fmt.Fprintf(stdout, "  %s\n", s)
		}
		for _, p := range v.Problems {
			fmt.Fprintf(stdout, "  PROBLEM: %s\n", p)
		}
	}
	if !v.OK {
		return 1
	}
	return 0
}

func report(dir string, pub ed25519.PublicKey, asJSON bool, lang, keyFile, outFile string, stdout, stderr io.Writer) int {
	rep, err := tableledger.MakeReport(dir, pub, assets.TrustedKeys())
	if err != nil {
		fmt.Fprintf(stderr, "tablesrv report: %v\n", err)
		return 1
	}
	var doc strings.Builder
	if asJSON {
		enc := json.NewEncoder(&doc)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		rep.WriteText(&doc, lang)
	}
	if keyFile == "" {
		io.WriteString(stdout, doc.String())
		return 0
	}
	if outFile == "" {
		fmt.Fprintln(stderr, "tablesrv report: --key needs --out FILE")
		return 2
	}
	kd, err := os.ReadFile(keyFile)
	if err != nil {
		fmt.Fprintf(stderr, "tablesrv report: %v\n", err)
		return 1
	}
	priv, err := reels.ParsePrivateKey(keyFile, kd)
	if err != nil {
		fmt.Fprintf(stderr, "tablesrv report: %v\n", err)
		return 1
	}
	sig, err := book.SignDocument(priv, []byte(doc.String()))
	if err == nil {
		err = os.WriteFile(outFile, []byte(doc.String()), 0o644)
	}
	if err == nil {
		err = os.WriteFile(outFile+".sig", sig, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "tablesrv report: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s and %s.sig written (key %s)\n", outFile, outFile, reels.KeyID(priv.Public().(ed25519.PublicKey)))
	return 0
}

// hands prints the last hands of a table from the log.
func hands(dir, table string, last int, asJSON bool, stdout, stderr io.Writer) int {
	type hand struct {
		Table   string         `json:"table"`
		Session int            `json:"session"`
		Records []poker.Record `json:"records"`
	}
	var all []hand
	cur := map[string]*hand{}
	err := tableledger.Records(dir, func(seq uint64, r tableledger.Record) error {
		st, ok := r.(tableledger.Step)
		if !ok || (table != "" && st.Table != table) {
			return nil
		}
		for _, rec := range st.Records {
			if rec.Hand == 0 {
				continue
			}
			if rec.Kind == poker.KindHandStart {
				cur[st.Table] = &hand{Table: st.Table, Session: st.Session}
			}
			h := cur[st.Table]
			if h == nil {
				continue
			}
			h.Records = append(h.Records, rec)
			if rec.Kind == poker.KindHandEnd || rec.Kind == poker.KindVoid {
				all = append(all, *h)
				cur[st.Table] = nil
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintf(stderr, "tablesrv hands: %v\n", err)
		return 1
	}
	if last > 0 && len(all) > last {
		all = all[len(all)-last:]
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(all)
		return 0
	}
	for _, h := range all {
		fmt.Fprintf(stdout, "%s session %d hand %d\n", h.Table, h.Session, h.Records[0].Hand)
		for _, r := range h.Records {
			b, _ := json.Marshal(r)
			fmt.Fprintf(stdout, "  %s\n", b)
			if r.Kind == chemin.KindAnnounce {
				fmt.Fprintf(stdout, "    «%s» / «%s»\n", chemin.Text("pt", r), chemin.Text("en", r))
			}
		}
	}
	return 0
}
