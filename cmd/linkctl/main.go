// Command linkctl is the link controller of one casino (regulation rule 4):
// it speaks SAS as the progressive host to the cabinets, keeps the linked
// levels in its own ledger (jackpot/ledger, on the same write-ahead log as
// the cabinets'), broadcasts their values and awards hits exactly once. Its
// other commands are the operator's and the inspector's: the report of what
// is held in trust, verification of the ledger, funding and transfers.
package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/openegm/cabinet/book"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/jackpot/link"
	"github.com/openegm/cabinet/reels"
)

const usage = `linkctl — link controller of the jackpot levels of one casino

Usage:
  linkctl run --config FILE --data DIR
      Serve the cabinets listed in FILE (JSON: controller, group, levels,
      channels with their cabinets) with the ledger in DIR, until SIGTERM.
      With a "superjackpot" section (etcd endpoints, key prefix, levels,
      batch_ms, tls files, the group's registered keys), the levels listed
      there are shared with the controllers of other casinos through that
      etcd cluster, reached over TLS as the etcd user of the controller's
      client certificate; every value it writes there is signed by the key
      on its board, every value it reads verified with the registered keys
      (a forged one is not counted, logged as an ERROR and recorded in the
      ledger). Without the section nothing touches etcd.

  linkctl report DIR [--json] [--key INSPECTOR.key --out FILE]
      What is held in trust, per level and in total: liability (current +
      reserve + overflow), contributions, seed funding, awards, transfers
      and the identity seed funding + contributions = awards + current +
      reserve + overflow, to the millicent, from a full verification of the
      ledger. With --key, FILE.sig holds the report's Ed25519 signature.

  linkctl super-report --config FILE [--json] [--key INSPECTOR.key --out FILE]
      What the superjackpot group of FILE's superjackpot section holds in
      trust, read from etcd at one revision: per shared level and in total
      the liability (current + reserve + overflow), seed funding,
      contributions, awards and the identity, to the millicent; the claims
      paid, which must add up to the awards; each controller's last batch;
      every value that does not verify with its controller's registered key
      (forged), listed as REJECTED and counted nowhere. With --key,
      FILE.sig holds the report's Ed25519 signature. Exit status 0 =
      everything adds up and nothing was rejected.

  linkctl super-transfer --config FILE (--board DIR | --data DIR) --id ID --from LEVEL --to LEVEL --who NAME --why TEXT [--all | --current MC --reserve MC --overflow MC] [--close]
      Moves value between two levels of the superjackpot group in etcd
      (regulation rule 6): one transaction, nothing created or lost, who
      and why recorded with it under ID, signed by the controller's key
      (from its board). Running it again with the same ID finds it made;
      the same ID with anything else changed is refused.

  linkctl verify DIR --pub controller.pub
      Checks every record, the hash chain, the signed checkpoints and seals
      with the key registered at commissioning (none is taken from DIR),
      and folds every record from the first with every invariant, compared
      with every seal and snapshot. Exit status 0 = verified.

  linkctl reconcile DIR --config FILE --cabinet ID=LEDGER [--cabinet ...] [--no-etcd] [--json]
      Compares, award by award (cabinet, level, game), what each cabinet
      paid (LEDGER: its ledger directory, DATA/ledger or an inspector's
      copy), what the controller awarded and saw confirmed (DIR) and, for
      a shared level, what etcd paid (the configuration's superjackpot
      section), and prints every disagreement in cents. Ledgers that each
      verify can still disagree with each other. Exit status 0 = they agree.

  linkctl transfer DIR --from LEVEL --to LEVEL --who NAME --why TEXT [--all | --current MC --reserve MC --overflow MC] [--close]
  linkctl fund DIR --level LEVEL --cents N --who NAME --why TEXT
  linkctl rebase DIR --machine ID --coin-in CENTS --games N --who NAME --why TEXT
      Operator actions on a stopped controller's ledger (regulation rule 6:
      value that cannot be awarded goes to another level; nothing is
      created or lost). Each is a ledger record with who, when and why.
      rebase sets a cabinet's meter baseline without contributing: after
      a RAM clear, or when its coin_in source changes (linked or total).

DIR is the controller's data directory; its signing key and the witness of
its head are on the board (--board, default DIR.board). report, verify and
reconcile never modify it (nor the cabinets' ledgers) and need no private
key.
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmd, args := args[0], args[1:]
	fs := flag.NewFlagSet("linkctl "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		config  = fs.String("config", "", "configuration file (run)")
		data    = fs.String("data", "", "data directory (run)")
		asJSON  = fs.Bool("json", false, "JSON output")
		keyFile = fs.String("key", "", "inspector's signing key (report)")
		outFile = fs.String("out", "", "write the report here (report)")
		pubFile = fs.String("pub", "", "controller public key registered at commissioning (verify, report); none is taken from DIR")
		board   = fs.String("board", "", "what the controller keeps apart from its data: its signing key and the witness of its ledger's head (default DATA.board)")
		from    = fs.String("from", "", "source level (transfer)")
		to      = fs.String("to", "", "destination level (transfer)")
		level   = fs.String("level", "", "level (fund)")
		who     = fs.String("who", "", "operator")
		why     = fs.String("why", "", "reason")
		all     = fs.Bool("all", false, "transfer everything the source holds")
		closeLv = fs.Bool("close", false, "close the source level (with --all)")
		current = fs.Int64("current", 0, "millicents of the current value to transfer")
		reserve = fs.Int64("reserve", 0, "millicents of the reserve to transfer")
		overf   = fs.Int64("overflow", 0, "millicents of the overflow to transfer")
		cents   = fs.Int64("cents", 0, "whole cents to fund")
		noEtcd  = fs.Bool("no-etcd", false, "do not read etcd's claims (reconcile)")
		id      = fs.String("id", "", "the transfer's ID, kept for a retry (super-transfer)")
		machine = fs.String("machine", "", "cabinet ID (rebase)")
		coinIn  = fs.Int64("coin-in", 0, "the cabinet's coin-in meter now, cents (rebase)")
		games   = fs.Uint64("games", 0, "the cabinet's games-played meter now (rebase)")
		cabs    cabinetDirs
	)
	fs.Var(&cabs, "cabinet", "ID=DIR: a cabinet's ID in the configuration and its ledger directory (reconcile; repeat for each)")
	// The directory may come first, before the flags.
	dir := ""
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		dir, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if dir == "" && fs.NArg() > 0 {
		dir = fs.Arg(0)
	}
	switch cmd {
	case "super-report":
		return superReport(*config, *asJSON, *keyFile, *outFile, stdout, stderr)
	case "super-transfer":
		t := jackpot.Transfer{At: time.Now().UnixNano(), From: *from, To: *to, All: *all, Close: *closeLv,
			Current: *current, Reserve: *reserve, Overflow: *overf, Who: *who, Why: *why}
		b := *board
		if b == "" && *data != "" {
			b = boardOf("", *data)
		}
		return superTransfer(*config, b, *id, t, stdout, stderr)
	case "run":
		if *config == "" || *data == "" {
			fmt.Fprintln(stderr, "linkctl run: --config and --data are required")
			return 2
		}
		return serve(*config, *data, boardOf(*board, *data), stderr)
	case "report", "verify", "transfer", "fund", "reconcile", "rebase":
		if dir == "" {
			fmt.Fprintf(stderr, "linkctl %s: the data directory is required\n", cmd)
			return 2
		}
	default:
		fmt.Fprintf(stderr, "linkctl: unknown command %q (see linkctl --help)\n", cmd)
		return 2
	}
	switch cmd {
	case "verify":
		v, err := verify(dir, *pubFile)
		if err != nil {
			fmt.Fprintln(stderr, "linkctl verify:", err)
			return 1
		}
		if *asJSON {
			b, _ := json.MarshalIndent(v, "", "  ")
			fmt.Fprintln(stdout, string(b))
		} else {
			writeVerdict(stdout, v)
		}
		if !v.OK {
			return 1
		}
		return 0
	case "report":
		return report(dir, *pubFile, *asJSON, *keyFile, *outFile, stdout, stderr)
	case "reconcile":
		return reconcileLedgers(*config, dir, cabs, *noEtcd, *asJSON, stdout, stderr)
	case "transfer":
		t := ledger.Transfer{At: time.Now().UnixNano(), From: *from, To: *to, All: *all, Close: *closeLv,
			CurrentMC: *current, ReserveMC: *reserve, OverflowMC: *overf, Who: *who, Why: *why}
		return operate(dir, boardOf(*board, dir), t, stdout, stderr)
	case "fund":
		f := ledger.Fund{At: time.Now().UnixNano(), Level: *level, AmountMC: *cents * jackpot.MillicentsPerCent, Who: *who, Why: *why}
		return operate(dir, boardOf(*board, dir), f, stdout, stderr)
	case "rebase":
		r := ledger.Rebase{At: time.Now().UnixNano(), Machine: *machine, CoinIn: *coinIn, GamesPlayed: *games, Who: *who, Why: *why}
		return operate(dir, boardOf(*board, dir), r, stdout, stderr)
	}
	return 0
}

// boardOf is the board directory: given, or beside the data (DATA.board).
func boardOf(board, data string) string {
	if board != "" {
		return board
	}
	return filepath.Clean(data) + ".board"
}

// openLedger opens the controller's ledger with its key and witness from
// the board. Evidence of tampering (a snapshot the log does not vouch for,
// a ledger older than or other than its witness) refuses it: a controller
// must not award jackpots from data changed behind its back. A witness
// that is empty (a new board) is reported and written from here on.
func openLedger(data, board string, log *slog.Logger) (*ledger.Ledger, ledger.OpenInfo, func(), error) {
	w, err := book.OpenFileWitness(filepath.Join(board, "witness"))
	if err != nil {
		return nil, ledger.OpenInfo{}, nil, fmt.Errorf("the board's witness: %w", err)
	}
	l, info, err := ledger.Open(data, ledger.Options{Keys: book.FileKeys{Dir: board}, Witness: w})
	if err != nil {
		w.Close()
		return nil, info, nil, err
	}
	closeAll := func() { l.Close(); w.Close() }
	var evidence []string
	evidence = append(evidence, info.Tampered...)
	if info.Witness.Tampered() {
		evidence = append(evidence, info.Witness.Detail)
	}
	if len(evidence) > 0 {
		closeAll()
		return nil, info, nil, fmt.Errorf("evidence of tampering, the ledger is not used: %s", strings.Join(evidence, "; "))
	}
	if s := info.Witness.Status; s == book.WitnessEmpty || s == book.WitnessBehind {
		log.Warn("the board's witness does not know this ledger's head (a new board?): it is written from now on", "detail", info.Witness.Detail)
	}
	return l, info, closeAll, nil
}

func serve(configFile, data, board string, stderr io.Writer) int {
	log := slog.New(slog.NewTextHandler(stderr, nil))
	raw, err := os.ReadFile(configFile)
	if err != nil {
		log.Error("configuration", "err", err)
		return 1
	}
	cfg, err := link.ParseConfig(configFile, raw)
	if err != nil {
		log.Error("configuration refused", "err", err)
		return 1
	}
	l, info, closeLedger, err := openLedger(data, board, log)
	if err != nil {
		log.Error("ledger", "err", err)
		return 1
	}
	defer closeLedger()
	log.Info("ledger open", "last_seq", info.LastSeq, "controller_key", ledger.KeyID(l.PublicKey()))
	c, err := link.New(cfg, l, log)
	if err != nil {
		log.Error("setup", "err", err)
		return 1
	}
	if cfg.Super != nil {
		// What it writes to the superjackpot's etcd group is signed by the
		// key that signs its ledger.
		signer, err := book.FileKeys{Dir: board}.Signer(ledger.KeyName, false)
		if err == nil {
			err = c.UseSigner(signer)
		}
		if err != nil {
			log.Error("setup", "err", err)
			return 1
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	err = c.Run(ctx)
	l.Commit(ledger.Event{At: time.Now().UnixNano(), Code: ledger.EventStop})
	s := c.Stats()
	log.Info("stopped", "broadcasts", s.Broadcasts, "max_broadcast_gap", s.MaxGap, "readings", s.Readings, "hits", s.Hits, "confirmed", s.Confirmed,
		"super_batches", s.SuperBatches, "super_replayed", s.SuperReplayed, "super_errors", s.SuperErrors)
	if err != nil {
		log.Error("link", "err", err)
		return 1
	}
	return 0
}

func verify(dir, pubFile string) (*ledger.Verdict, error) {
	var pub ed25519.PublicKey
	if pubFile != "" {
		var err error
		if pub, err = ledger.ReadPublicKey(pubFile); err != nil {
			return nil, err
		}
	}
	return ledger.Verify(dir, pub)
}

func writeVerdict(w io.Writer, v *ledger.Verdict) {
	verdict := "VERIFIED"
	if !v.OK {
		verdict = "NOT VERIFIED"
	}
	fmt.Fprintf(w, "%s: %d log records, %d checkpoints signed by controller key %s, %d ledger records folded, last hash %s\n",
		verdict, v.Records, v.Checkpoints, v.KeyID, v.Folded, v.LastHash)
	for _, p := range v.Problems {
		fmt.Fprintln(w, "  problem:", p)
	}
}

func report(dir, pubFile string, asJSON bool, keyFile, outFile string, stdout, stderr io.Writer) int {
	v, err := verify(dir, pubFile)
	if err != nil {
		fmt.Fprintln(stderr, "linkctl report:", err)
		return 1
	}
	if v.State == nil {
		writeVerdict(stderr, v)
		return 1
	}
	r, err := v.State.Report()
	if err != nil {
		fmt.Fprintln(stderr, "linkctl report:", err)
		return 1
	}
	var doc, sig []byte
	switch {
	case keyFile != "":
		if outFile == "" {
			fmt.Fprintln(stderr, "linkctl report: --key needs --out FILE (the signature goes to FILE.sig)")
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
		if doc, sig, err = ledger.SignReport(r, priv); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	case asJSON:
		if doc, err = r.MarshalDocument(); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	default:
		var b bytes.Buffer
		writeVerdict(&b, v)
		fmt.Fprintln(&b)
		if err := r.WriteText(&b); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		doc = b.Bytes()
	}
	if outFile == "" {
		stdout.Write(doc)
	} else {
		if err := os.WriteFile(outFile, doc, 0o644); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		if sig != nil {
			if err := os.WriteFile(outFile+".sig", sig, 0o644); err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
		}
	}
	if !v.OK {
		return 1
	}
	return 0
}

// operate commits one operator record to a stopped controller's ledger
// (the ledger's lock refuses a running controller's directory).
func operate(dir, board string, r ledger.Record, stdout, stderr io.Writer) int {
	if _, err := os.Stat(filepath.Join(dir, ledger.LogDir)); err != nil {
		fmt.Fprintf(stderr, "linkctl: %s is not a controller data directory: %v\n", dir, err)
		return 1
	}
	l, _, closeLedger, err := openLedger(dir, board, slog.New(slog.NewTextHandler(stderr, nil)))
	if err != nil {
		fmt.Fprintln(stderr, "linkctl:", err)
		return 1
	}
	defer closeLedger()
	res, err := l.Commit(r)
	if err != nil {
		var refused *ledger.Refused
		if errors.As(err, &refused) {
			fmt.Fprintln(stderr, "linkctl: refused:", err)
			return 1
		}
		fmt.Fprintln(stderr, "linkctl:", err)
		return 1
	}
	fmt.Fprintf(stdout, "recorded as ledger record %d\n", res.Seq)
	if res.Moved != nil {
		m := res.Moved
		fmt.Fprintf(stdout, "moved %d millicents from %s to %s (to its current value %d, to its reserve %d), by %s: %s\n",
			m.Amount(), m.From, m.To, m.ToCurrent, m.ToReserve, m.Who, m.Why)
	}
	return 0
}
