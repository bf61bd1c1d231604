// Command parsheet is the certification tool: it computes the exact
// mathematics of a paytable (the PAR sheet), checks the 80% rule, simulates
// play, and signs and verifies paytable files.
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/poker/tabledef"
	"github.com/openegm/cabinet/reels"
	"golang.org/x/crypto/blake2b"
)

const usage = `parsheet — certification of slot machine paytables and table-game definitions

Every command that takes a FILE takes a paytable or a Makccarat table
definition ("game": "makccarat"), told apart by the file's content. check,
sign and verify also take a poker table definition ("game": "holdem" or
"synthetic_poker", docs/tablesrv.md): it has no PAR sheet, the players play
against each other and the house takes its commission. They take a chemin
de fer definition too ("game": "chemin_de_fer"), and so does par.

Usage:
  parsheet par FILE [--json] [--workers N]
      The PAR sheet: exact base RTP at every bet level (as a fraction and a
      percentage), each combination's hits and share of the RTP, free-game
      figures, hit frequency, volatility, 90%% confidence bands and the largest
      win. Exits 1 if the paytable breaks the 80%%-100%% rule at any level.
      For a table definition: the probability of a player win, a banker win
      and a tie (also by winning total), of each pair, and each bet's RTP and
      house edge, as exact fractions and percentages to six decimals, by exact
      enumeration. Exits 1 if a bet returns less than 80%%.

  parsheet par CHEMIN_DE_FER_DEFINITION [--json] [--lang pt|en]
      For the definition's sabot, the banker's expectation per unit at stake
      for each of the 8 strategy pairs (the ponto on 5 × the banker with 3
      against a 9 and with 5 against a 4), before and after the cagnotte, the
      probabilities of a banker win, a ponto win and a void, as exact
      fractions and percentages to six decimals; the value and optimal
      strategies of the 2 × 4 game; and the check (every choice "draw",
      8 decks: punto banco's 1.2351%%). In English, or Portuguese with --lang pt.

  parsheet check FILE [--require-signature] [--pub KEY.pub]...
      Validates the file strictly, recomputes the exact RTP at every bet level
      and applies the 80%%-100%% rule (Portaria 817/2005, Title III, rule 2).
      If FILE.sig exists it is verified too. Exit status 0 = valid, 1 = refused
      (the reason names the field or the bet level and figure), 2 = usage.
      A table definition is refused when any bet returns less than 80%%,
      naming the bet and its figure.

  parsheet sim FILE --spins N [--seed S] [--level L] [--workers N] [--json]
      Plays N whole games (each with its free games) with the certified RNG in
      seeded mode and the cabinet's own evaluation, on all cores. Reports the
      RTP with its 99.9%% confidence interval, hit frequency, free-game rate,
      and whether the exact RTP lies inside the interval. The same seed gives
      the same result on any machine and number of cores.

  parsheet sim DEFINITION --hands N [--seed S] [--workers N] [--json]
      Deals N hands with the certified RNG in seeded mode and the game's own
      deal, evaluation and payouts, one bet unit on every spot, and shows
      every exact figure beside its simulated interval (the intervals hold
      together with 99.9%% confidence). Exits 1 if a figure lies outside.

  parsheet keygen --out PREFIX
      Creates an Ed25519 key pair: PREFIX.key (private, mode 0600; keep it
      offline) and PREFIX.pub (give it to the cabinet build).

  parsheet sign --key KEY FILE...
      Checks each paytable or definition (as 'check') and writes FILE.sig, the base64
      Ed25519 signature of the exact bytes. A refused file is not signed.

  parsheet approve --key KEY --out LIST PROGRAM...
      Writes LIST, the approved-program list (the BLAKE2b-256 of each program
      image, named by its file name), and LIST.sig, its signature. A cabinet
      plays only a program whose hash is in a list signed by a built-in key
      (DATA/approved-programs.json; required by a production build).

  parsheet verify FILE... [--pub KEY.pub]...
      Verifies FILE.sig against the certification keys built into this program
      (and any --pub given). A single changed byte is refused.

Bet levels are numbered from 1 (the lowest credits-per-line choice).
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run returns the exit status: 0 ok, 1 refused or failed, 2 usage.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintf(stdout, usage)
		return 0
	}
	cmds := map[string]func([]string, io.Writer) error{
		"par": cmdPar, "check": cmdCheck, "sim": cmdSim,
		"keygen": cmdKeygen, "sign": cmdSign, "verify": cmdVerify, "approve": cmdApprove,
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "parsheet: unknown command %q\n\n%s", args[0], fmt.Sprintf(usage))
		return 2
	}
	if err := cmd(args[1:], stdout); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "parsheet %s: %v (see parsheet --help)\n", args[0], err)
			return 2
		}
		fmt.Fprintf(stderr, "parsheet %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

type usageError struct{ error }

// flags parses flags that may come before or after the positional arguments,
// as lab technicians type them.
func flags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageError{err}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func onlyFile(pos []string) (string, error) {
	if len(pos) != 1 {
		return "", usageError{fmt.Errorf("expected one paytable FILE, got %d arguments", len(pos))}
	}
	return pos[0], nil
}

func load(name string) (*reels.Paytable, []byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, nil, err
	}
	p, err := reels.Parse(name, data)
	return p, data, err
}

func trusted(pubs []string) ([]ed25519.PublicKey, error) {
	keys := assets.TrustedKeys()
	for _, f := range pubs {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		k, err := reels.ParsePublicKey(f, data)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, nil
}

func cmdPar(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("par", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	workers := fs.Int("workers", 0, "")
	lang := fs.String("lang", "", "")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	name, err := onlyFile(pos)
	if err != nil {
		return err
	}
	data, rerr := os.ReadFile(name)
	if rerr == nil && tabledef.IsChemin(data) {
		if *lang != "" && *lang != "pt" && *lang != "en" {
			return usageError{fmt.Errorf("--lang %q: pt or en", *lang)}
		}
		return cheminPar(name, data, *asJSON, *lang, out)
	}
	if *lang != "" {
		return usageError{fmt.Errorf("--lang is for a chemin de fer definition's PAR sheet; the others are in English")}
	}
	if rerr == nil && tabledef.IsPoker(data) {
		return errNoPokerFigures
	} else if rerr == nil && isTable(data) {
		return tablePar(name, data, *asJSON, out)
	}
	p, data, err := load(name)
	if err != nil {
		return err
	}
	ps, err := p.Par(*workers)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ps); err != nil {
			return err
		}
	} else {
		writePar(out, p, ps, data)
	}
	return ps.Check(p)
}

func cmdCheck(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	requireSig := fs.Bool("require-signature", false, "")
	var pubs multi
	fs.Var(&pubs, "pub", "")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	name, err := onlyFile(pos)
	if err != nil {
		return err
	}
	if data, err := os.ReadFile(name); err == nil && (tabledef.IsPoker(data) || tabledef.IsChemin(data)) {
		return pokerCheck(name, data, *requireSig, pubs, out)
	} else if err == nil && isTable(data) {
		return tableCheck(name, data, *requireSig, pubs, out)
	}
	p, data, err := load(name)
	if err != nil {
		return err
	}
	rtps, err := p.RTP()
	if err != nil {
		return err
	}
	for i, r := range rtps {
		fmt.Fprintf(out, "level %d (%d credits per line): base RTP %s = %s\n", i+1, p.CreditsPerLine[i], reels.Exact{Rat: r}.Percent(4), r.RatString())
	}
	if err := p.CheckRTP(); err != nil {
		return err
	}
	return checkSignature(name, data, *requireSig, pubs, out)
}

func cmdSim(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	spins := fs.Int64("spins", 0, "")
	hands := fs.Int64("hands", 0, "")
	seed := fs.Uint64("seed", 0, "")
	level := fs.Int("level", 0, "")
	workers := fs.Int("workers", 0, "")
	asJSON := fs.Bool("json", false, "")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	name, err := onlyFile(pos)
	if err != nil {
		return err
	}
	if *seed == 0 {
		if *seed, err = randomSeed(); err != nil {
			return err
		}
	}
	if data, err := os.ReadFile(name); err == nil && tabledef.IsChemin(data) {
		return errNoCheminSim
	} else if err == nil && tabledef.IsPoker(data) {
		return errNoPokerFigures
	} else if err == nil && isTable(data) {
		if *hands < 2 || *spins != 0 || *level != 0 {
			return usageError{fmt.Errorf("a table definition plays --hands N (at least 2); --spins and --level are for paytables")}
		}
		return tableSim(name, data, *hands, *seed, *workers, *asJSON, out)
	}
	if *spins < 2 || *hands != 0 {
		return usageError{fmt.Errorf("--spins N is required (at least 2); --hands is for table definitions")}
	}
	p, _, err := load(name)
	if err != nil {
		return err
	}
	lv := *level - 1
	if *level == 0 {
		lv = 0
	}
	if lv < 0 || lv >= len(p.CreditsPerLine) {
		return usageError{fmt.Errorf("--level %d: the paytable has levels 1 to %d", *level, len(p.CreditsPerLine))}
	}
	rtps, err := p.RTP()
	if err != nil {
		return err
	}
	r, err := p.Simulate(*spins, lv, *seed, *workers)
	if err != nil {
		return err
	}
	exact, _ := rtps[lv].Float64()
	lo, hi := r.Interval(3.2905)
	inside := exact >= lo && exact <= hi
	if *asJSON {
		return json.NewEncoder(out).Encode(map[string]any{
			"paytable": p.ID, "level": lv + 1, "games": r.Games, "seed": r.Seed, "bet": r.Bet,
			"won": r.Won, "rtp": r.RTP(), "ci999_low": lo, "ci999_high": hi,
			"exact_rtp": rtps[lv].RatString(), "exact_inside": inside,
			"hit_frequency": float64(r.Hits) / float64(r.Games),
			"trigger_rate":  float64(r.Triggers) / float64(r.Games), "free_games": r.FreeGames,
			"progressive_hits": r.Progressives, "max_game_win": r.MaxGameWin,
		})
	}
	fmt.Fprintf(out, "paytable %s, level %d (%d credits per line, bet %d), %d games, seed %d\n",
		p.ID, lv+1, p.CreditsPerLine[lv], r.Bet, r.Games, r.Seed)
	fmt.Fprintf(out, "  RTP (simulated)       %.4f%%   99.9%% interval [%.4f%%, %.4f%%]\n", 100*r.RTP(), 100*lo, 100*hi)
	fmt.Fprintf(out, "  RTP (exact)           %s   %s\n", reels.Exact{Rat: rtps[lv]}.Percent(4), map[bool]string{true: "inside the interval", false: "OUTSIDE the interval"}[inside])
	fmt.Fprintf(out, "  hit frequency         %.4f%%  (1 in %.2f)\n", 100*float64(r.Hits)/float64(r.Games), float64(r.Games)/float64(max(r.Hits, 1)))
	fmt.Fprintf(out, "  free-game triggers    %.4f%%  (1 in %.1f), %d free games played\n", 100*float64(r.Triggers)/float64(r.Games), float64(r.Games)/float64(max(r.Triggers, 1)), r.FreeGames)
	fmt.Fprintf(out, "  progressive awards    %d\n", r.Progressives)
	fmt.Fprintf(out, "  largest game win      %d credits\n", r.MaxGameWin)
	if !inside {
		return fmt.Errorf("the exact RTP lies outside the simulated 99.9%% interval")
	}
	return nil
}

// randomSeed picks a seed when none is given; the report prints it so the
// run can be repeated.
func randomSeed() (uint64, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, err
	}
	var seed uint64
	for _, x := range b {
		seed = seed<<8 | uint64(x)
	}
	return seed, nil
}

func cmdKeygen(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("keygen", flag.ContinueOnError)
	prefix := fs.String("out", "", "")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if *prefix == "" || len(pos) != 0 {
		return usageError{fmt.Errorf("--out PREFIX is required")}
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	// O_EXCL: never overwrite a key, which would orphan every signature made with it.
	f, err := os.OpenFile(*prefix+".key", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(reels.EncodeKey(priv)); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(*prefix+".pub", reels.EncodeKey(pub), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(out, "key %s: private %s.key, public %s.pub\n", reels.KeyID(pub), *prefix, *prefix)
	return nil
}

func cmdSign(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("sign", flag.ContinueOnError)
	keyFile := fs.String("key", "", "")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if *keyFile == "" || len(pos) == 0 {
		return usageError{fmt.Errorf("--key KEY and at least one FILE are required")}
	}
	kd, err := os.ReadFile(*keyFile)
	if err != nil {
		return err
	}
	priv, err := reels.ParsePrivateKey(*keyFile, kd)
	if err != nil {
		return err
	}
	for _, name := range pos {
		if data, err := os.ReadFile(name); err == nil && (tabledef.IsPoker(data) || tabledef.IsChemin(data)) {
			if err := pokerSign(name, data, priv, out); err != nil {
				return err
			}
			continue
		} else if err == nil && isTable(data) {
			if err := tableSign(name, data, priv, out); err != nil {
				return err
			}
			continue
		}
		p, data, err := load(name)
		if err != nil {
			return err
		}
		if err := p.CheckRTP(); err != nil {
			return fmt.Errorf("not signed: %w", err)
		}
		if err := os.WriteFile(name+".sig", reels.Sign(priv, data), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: signed with key %s\n", name, reels.KeyID(priv.Public().(ed25519.PublicKey)))
	}
	return nil
}

func cmdVerify(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	var pubs multi
	fs.Var(&pubs, "pub", "")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{fmt.Errorf("at least one FILE is required")}
	}
	keys, err := trusted(pubs)
	if err != nil {
		return err
	}
	var failed []string
	for _, name := range pos {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		sig, _ := os.ReadFile(name + ".sig")
		id, err := reels.Verify(name, data, sig, keys)
		if err != nil {
			fmt.Fprintln(out, err)
			failed = append(failed, name)
			continue
		}
		fmt.Fprintf(out, "%s: signature valid, key %s\n", name, id)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d files refused: %s", len(failed), len(pos), strings.Join(failed, ", "))
	}
	return nil
}

func cmdApprove(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("approve", flag.ContinueOnError)
	keyFile := fs.String("key", "", "")
	list := fs.String("out", "", "")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if *keyFile == "" || *list == "" || len(pos) == 0 {
		return usageError{fmt.Errorf("--key KEY, --out LIST and at least one PROGRAM are required")}
	}
	kd, err := os.ReadFile(*keyFile)
	if err != nil {
		return err
	}
	priv, err := reels.ParsePrivateKey(*keyFile, kd)
	if err != nil {
		return err
	}
	var a assets.Approved
	for _, name := range pos {
		img, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		sum := blake2b.Sum256(img)
		a.Programs = append(a.Programs, assets.ApprovedProgram{Hash: hex.EncodeToString(sum[:]), Name: filepath.Base(name)})
	}
	data, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if err := os.WriteFile(*list, data, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(*list+".sig", reels.Sign(priv, data), 0o644); err != nil {
		return err
	}
	for _, p := range a.Programs {
		fmt.Fprintf(out, "%s  %s\n", p.Hash, p.Name)
	}
	fmt.Fprintf(out, "%s: %d programs approved, signed with key %s\n", *list, len(a.Programs), reels.KeyID(priv.Public().(ed25519.PublicKey)))
	return nil
}
