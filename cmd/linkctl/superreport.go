package main

import (
	"context"
	"crypto"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/jackpot/link"
	"github.com/openegm/cabinet/jackpot/super"
	"github.com/openegm/cabinet/reels"
)

// superReport reads the superjackpot group of the configuration from etcd
// and prints (or writes, signed) what it holds in trust. Exit status 0:
// every identity holds and the claims add up to the awards.
func superReport(configFile string, asJSON bool, keyFile, outFile string, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintln(stderr, "linkctl super-report:", err)
		return 1
	}
	if configFile == "" {
		fmt.Fprintln(stderr, "linkctl super-report: --config is required (its superjackpot section names etcd and the group)")
		return 2
	}
	cfg, err := readSuperConfig(configFile)
	if err != nil {
		return fail(err)
	}
	var audit super.Audit
	err = inGroup(cfg, nil, func(ctx context.Context, store *super.Store) (err error) {
		audit, err = store.Audit(ctx)
		return err
	})
	if err != nil {
		return fail(err)
	}
	r, err := link.BuildSuperReport(cfg.Super.Prefix, audit)
	if err != nil {
		return fail(err)
	}
	var doc, sig []byte
	switch {
	case keyFile != "":
		if outFile == "" {
			fmt.Fprintln(stderr, "linkctl super-report: --key needs --out FILE (the signature goes to FILE.sig)")
			return 2
		}
		kd, err := os.ReadFile(keyFile)
		if err != nil {
			return fail(err)
		}
		priv, err := reels.ParsePrivateKey(keyFile, kd)
		if err != nil {
			return fail(err)
		}
		if doc, sig, err = link.SignSuperReport(r, priv); err != nil {
			return fail(err)
		}
	case asJSON:
		if doc, err = r.MarshalDocument(); err != nil {
			return fail(err)
		}
	default:
		r.WriteText(stdout)
	}
	if outFile != "" {
		if err := os.WriteFile(outFile, doc, 0o644); err != nil {
			return fail(err)
		}
		if sig != nil {
			if err := os.WriteFile(outFile+".sig", sig, 0o644); err != nil {
				return fail(err)
			}
		}
	} else if doc != nil {
		stdout.Write(doc)
	}
	if !r.Holds {
		return 1
	}
	return 0
}

// readSuperConfig reads a configuration that must have a superjackpot
// section.
func readSuperConfig(file string) (*link.Config, error) {
	cfg, err := readConfig(file)
	if err == nil && cfg.Super == nil {
		err = fmt.Errorf("%s has no superjackpot section", file)
	}
	return cfg, err
}

func readConfig(file string) (*link.Config, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return link.ParseConfig(file, raw)
}

// inGroup runs fn, within 20 s, on the configuration's superjackpot group
// in etcd, as this controller (its etcd user): it verifies what it reads
// with the configuration's registered keys, and writes signed by signer
// (nil: it only reads).
func inGroup(cfg *link.Config, signer crypto.Signer, fn func(context.Context, *super.Store) error) error {
	keys, err := cfg.Super.Keyring()
	if err != nil {
		return err
	}
	cli, err := link.DialEtcd(cfg)
	if err != nil {
		return err
	}
	defer cli.Close()
	store, err := super.New(cli, cfg.Super.Prefix, keys, cfg.Controller, signer)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return fn(ctx, store)
}

// superTransfer moves value between two levels of the configuration's
// superjackpot group in etcd (regulation rule 6), once: id names it, and
// running the command again with the same id finds it made. It signs with
// the controller's key, from its board.
func superTransfer(configFile, board, id string, t jackpot.Transfer, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintln(stderr, "linkctl super-transfer:", err)
		return 1
	}
	if configFile == "" || id == "" || board == "" {
		fmt.Fprintln(stderr, "linkctl super-transfer: --config, --id and the controller's board (--board DIR, or --data DIR for DIR.board) are required")
		return 2
	}
	cfg, err := readSuperConfig(configFile)
	if err != nil {
		return fail(err)
	}
	signer, err := book.FileKeys{Dir: board}.Signer(ledger.KeyName, false)
	if err != nil {
		return fail(fmt.Errorf("the controller's signing key: %w", err))
	}
	var done super.Transferred
	err = inGroup(cfg, signer, func(ctx context.Context, store *super.Store) (err error) {
		done, err = store.Transfer(ctx, id, t)
		return err
	})
	if err != nil {
		return fail(err)
	}
	again := ""
	if done.Replayed {
		again = " (made before under this ID)"
	}
	fmt.Fprintf(stdout, "transfer %s%s: moved %d millicents from %s to %s (to its current value %d, to its reserve %d), by %s: %s; etcd revision %d\n",
		done.ID, again, done.Amount(), done.From, done.To, done.ToCurrent, done.ToReserve, done.Who, done.Why, done.Revision)
	return 0
}
