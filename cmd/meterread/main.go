// Command meterread is the gaming inspector's offline readout of a cabinet's
// ledger (regulation rules 9 and 14). It works on a copy of the cabinet's
// data directory and never writes to the directory it reads.
package main

import (
	"crypto/ed25519"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/meters/inspect"
	"github.com/openegm/cabinet/reels"
)

const usage = `meterread — inspector's readout of a cabinet ledger (read-only)

Usage:
  meterread verify  DIR --pub FILE [--lang pt|en]
      Checks every record's checksum, the hash chain, the signed checkpoints
      and seals with the machine public key registered at commissioning
      (FILE; a key found beside the ledger proves nothing, so none is taken
      from DIR), folds the meters from the first record, checking the
      credit equation, monotonic meters, game numbering and one end per
      game, and compares the fold with every seal and snapshot.
      Prints a verdict; exit status 0 = verified, 1 = not verified.
      Without --pub: NÃO VERIFICADO (NOT VERIFIED), the signatures are
      not checked.

  meterread meters   DIR [--json] [--lang pt|en]
      Every meter with its name and SAS code, in cents and euros, folded
      from the log's first record, and the local jackpot's liability held
      in trust.

  meterread games    DIR [--last N] [--since T] [--until T] [--json] [--lang pt|en]
      Games from the log (all of them, not only what the machine keeps for
      recall): the game's name, bet, stops or cards, and every amount it
      paid (the spin's win, each free game's, each jackpot it won:
      mystery, linked, progressive), with the total; the last N (default
      10) of those started between --since and --until (RFC 3339 times,
      UTC).

  meterread events   DIR [--last N] [--since T] [--until T] [--json] [--lang pt|en]
      The event log in words (doors, power, tilts, service actions,
      settings with their units, and the money outside the games: notes,
      coins, tickets, transfers, cash-outs, handpays and who paid them,
      jackpot hits and awards), each with who did it (technician,
      attendant, host, self-test …): the last N (default 50) between
      --since and --until.

  meterread handpays DIR [--since T] [--until T] [--json] [--lang pt|en]
      Every handpay: kind, amount, game or AFT transaction, when and by
      whom it was paid, its validation number and receipt.

  meterread bills    DIR [--since T] [--until T] [--json] [--lang pt|en]
      The money in: notes, coins and tickets credited, with their references.

  meterread tickets  DIR [--since T] [--until T] [--json] [--lang pt|en]
      Every ticket printed (or voided, or not yet printed), with its
      validation number and how it was validated.

  meterread aft | promo | poker | tickets-in | bill-orders | validation | test-mode
                     DIR [--since T] [--until T] [--json] [--lang pt|en]
      One money path of the report, from the whole log: AFT transfers;
      promotional credits; poker table transfers; tickets taken in; bill
      orders (escrow); the host's validation settings; test-mode sessions.
      Each is followed by its checks against the meters.

  meterread checks   DIR [--since T] [--until T] [--json] [--lang pt|en]
      Whether every section of the report adds up to the meters (the
      whole ledger: the meters; a period: what they moved in it), naming
      each that does not. Exit status 0 = all hold, 1 = not.

  meterread jackpot  DIR [--json] [--lang pt|en]
      The local jackpot levels, exact to the millicent: current value,
      reserve, overflow, the liability held in trust, seed funding,
      contributions, awards and hits, with the accounting identity checked.

  meterread report   DIR [--json] [--lang pt|en] [--since T] [--until T] [--key INSPECTOR.key] [--out FILE]
      The inspector's report of the machine: the verdict, the program and
      its approval, the paytable with its certified RTP per level and the
      actual RTP, the meters, whether the money paths add up to them, the
      local jackpot, the money paths (handpays, money in, bill orders,
      tickets in and out, AFT, promotional credits, poker tables, the
      host's validation settings, test mode) over the period asked (the
      whole log by default; a period also has the meters read at its
      start and end, with both times, and what they moved), the RAM clears
      (with the meters just before each), the games with every amount each
      paid, and the event log in words. In Portuguese (the default) or
      English, or as JSON. With --key (a parsheet keygen key) FILE.sig
      holds its Ed25519 signature, base64, so the report itself is
      tamper-evident. Exit status 1 when the ledger is not verified or a
      section does not add up to the meters.

  meterread report verify FILE [--pub KEY]
      Checks a report's signature (FILE.sig): with the machine key
      registered at commissioning for a report the cabinet exported, or
      the inspector's public key for one meterread signed. KEY may be hex
      or base64 (machine.pub, parsheet keys).

DIR is a copy of the cabinet's data directory (or of its ledger directory);
it is never modified. No command needs the machine's private key. Every
command writes Portuguese by default, English with --lang en (money too:
1.234,50 € or €1,234.50); --json is the same in any language.
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
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
	since := fs.String("since", "", "")
	until := fs.String("until", "", "")
	lang := fs.String("lang", "pt", "")
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
	if *lang != "pt" && *lang != "en" {
		fmt.Fprintf(stderr, "meterread: --lang %q: want pt or en\n", *lang)
		return 2
	}
	if args[0] == "report" && len(pos) == 2 && pos[0] == "verify" {
		return verifyReport(pos[1], *pubFile, *lang, stdout, stderr)
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "meterread %s: expected one data directory (see meterread --help)\n", args[0])
		return 2
	}
	dir := pos[0]
	pub, err := inspect.ReadPub(*pubFile)
	if err != nil {
		fmt.Fprintf(stderr, "meterread: %v\n", err)
		return 2
	}
	switch args[0] {
	case "verify":
		v, _ := inspect.Verify(dir, pub)
		v.Problems = problemsText(v.Problems, *lang)
		inspect.WriteVerdict(stdout, v, *lang)
		if !v.OK {
			return 1
		}
		return 0
	case "meters", "games", "events", "jackpot", "report", "handpays", "bills", "tickets", "checks",
		"aft", "promo", "poker", "tickets-in", "bill-orders", "validation", "test-mode":
	default:
		fmt.Fprintf(stderr, "meterread: unknown command %q (see meterread --help)\n", args[0])
		return 2
	}
	from, to, err := window(*since, *until)
	if err != nil {
		fmt.Fprintf(stderr, "meterread %s: %v\n", args[0], err)
		return 2
	}
	if args[0] == "games" || args[0] == "events" {
		h, err := inspect.ReadHistory(dir, from, to)
		if err != nil {
			fmt.Fprintf(stderr, "meterread: %s\n", errText(err, *lang))
			return 1
		}
		if args[0] == "games" {
			g := lastN(h.Games, *last, 10)
			if *asJSON {
				return emit(stdout, stderr, g)
			}
			inspect.WriteGames(stdout, inspect.GameRows(g, h), *lang)
			return 0
		}
		// The event log in words: the ledger's events and the money that
		// moved outside the games (notes, handpays, jackpots …).
		e := lastN(h.Log, *last, 50)
		if *asJSON {
			return emit(stdout, stderr, e)
		}
		inspect.WriteEvents(stdout, e, *lang)
		return 0
	}
	st, err := inspect.ReadState(dir)
	if err != nil {
		fmt.Fprintf(stderr, "meterread: %s\n", errText(err, *lang))
		return 1
	}
	switch args[0] {
	case "meters":
		if *asJSON {
			return emit(stdout, stderr, inspect.MeterRows(st))
		}
		inspect.WriteMeters(stdout, st, *lang)
		inspect.WriteLiability(stdout, inspect.JackpotRows(st), *lang)
	case "jackpot":
		rows := inspect.JackpotRows(st)
		if *asJSON {
			return emit(stdout, stderr, rows)
		}
		inspect.WriteJackpot(stdout, rows, *lang, true)
	case "report":
		return report(dir, pub, st, from, to, *asJSON, *lang, *keyFile, *outFile, stdout, stderr)
	default:
		return section(dir, st, args[0], from, to, *asJSON, *lang, stdout, stderr)
	}
	return 0
}

// section prints one section of the report over the period, as text or
// JSON; checks exits 1 when a section does not add up to the meters.
func section(dir string, st *meters.State, name string, from, to time.Time, asJSON bool, lang string, stdout, stderr io.Writer) int {
	h, err := inspect.ReadHistory(dir, from, to)
	if err != nil {
		fmt.Fprintf(stderr, "meterread: %s\n", errText(err, lang))
		return 1
	}
	r := inspect.BuildReport(st, inspect.Verdict{}, h, inspect.Issuer{})
	list := map[string]any{"handpays": r.Handpays, "bills": r.MoneyIn, "tickets": r.Tickets, "aft": r.AFT, "promo": r.Promo,
		"poker": r.Poker, "tickets-in": r.TicketsIn, "bill-orders": r.BillOrders, "validation": r.ValidationSettings,
		"test-mode": r.TestModes, "checks": r.Checks}[name]
	code := 0
	if name == "checks" && !r.Checks.Hold {
		code = 1
	}
	if asJSON {
		if c := emit(stdout, stderr, list); c != 0 {
			return c
		}
		return code
	}
	inspect.WriteSection(stdout, r, name, lang)
	return code
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

// window parses --since and --until (RFC 3339); zero times are open ends.
func window(since, until string) (from, to time.Time, err error) {
	parse := func(s string) (time.Time, error) {
		if s == "" {
			return time.Time{}, nil
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return t, fmt.Errorf("%q is not an RFC 3339 time (2026-12-01T09:00:00Z)", s)
		}
		return t, nil
	}
	if from, err = parse(since); err == nil {
		to, err = parse(until)
	}
	return from, to, err
}

func report(dir string, pub ed25519.PublicKey, st *meters.State, from, to time.Time, asJSON bool, lang, keyFile, outFile string, stdout, stderr io.Writer) int {
	v, _ := inspect.Verify(dir, pub)
	if !asJSON {
		v.Problems = problemsText(v.Problems, lang) // JSON keeps the log's own words
	}
	h, err := inspect.ReadHistory(dir, from, to)
	if err != nil {
		fmt.Fprintf(stderr, "meterread: %s\n", errText(err, lang))
		return 1
	}
	// The program's approval is checked at the cabinet, against its signed
	// list; offline the report says it was not checked.
	r := inspect.BuildReport(st, v, h, inspect.Issuer{At: time.Now()})
	data := r.Text(lang)
	if asJSON {
		data = r.JSON()
	}
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
		sig, err := inspect.Sign(data, priv)
		if err == nil {
			err = os.WriteFile(outFile+".sig", sig, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if !v.OK || !r.Checks.Hold {
		return 1
	}
	return 0
}

// verifyReport checks a report against its .sig with a public key: the
// machine's registered key, or the inspector's.
func verifyReport(file, pubFile, lang string, stdout, stderr io.Writer) int {
	if pubFile == "" {
		fmt.Fprintln(stderr, "meterread report verify: --pub KEY is needed (the machine key registered at commissioning, or the inspector's public key)")
		return 2
	}
	pub, err := meters.ReadPublicKey(pubFile)
	if err != nil {
		fmt.Fprintf(stderr, "meterread: %v\n", err)
		return 1
	}
	if err := inspect.VerifySigned(file, pub); err != nil {
		if lang == "pt" {
			fmt.Fprintf(stdout, "NÃO VERIFICADO: %s\n", problemText(err.Error(), lang))
		} else {
			fmt.Fprintf(stdout, "NOT VERIFIED: %v\n", err)
		}
		return 1
	}
	if lang == "pt" {
		fmt.Fprintf(stdout, "VERIFICADO: %s está assinado pela chave %s\n", file, meters.KeyID(pub))
	} else {
		fmt.Fprintf(stdout, "VERIFIED: %s is signed by key %s\n", file, meters.KeyID(pub))
	}
	return 0
}
