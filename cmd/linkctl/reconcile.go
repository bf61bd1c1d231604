package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/openegm/cabinet/jackpot/reconcile"
	"github.com/openegm/cabinet/jackpot/super"
)

// cabinetDirs is the repeatable --cabinet ID=DIR flag.
type cabinetDirs [][2]string

func (c *cabinetDirs) String() string { return fmt.Sprint(*c) }

func (c *cabinetDirs) Set(v string) error {
	id, dir, ok := strings.Cut(v, "=")
	if !ok || id == "" || dir == "" {
		return fmt.Errorf("%q: want ID=DIR (the cabinet's ID in the configuration, its ledger directory)", v)
	}
	*c = append(*c, [2]string{id, dir})
	return nil
}

// reconcileLedgers compares the cabinets' ledgers, the controller's ledger
// in dir and, with a superjackpot section and not noEtcd, etcd's claims;
// it prints every disagreement in cents. Exit status 0: they agree; 1: they
// disagree, or a source could not be read.
func reconcileLedgers(configFile, dir string, cabinets cabinetDirs, noEtcd, asJSON bool, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintln(stderr, "linkctl reconcile:", err)
		return 1
	}
	if configFile == "" || len(cabinets) == 0 {
		fmt.Fprintln(stderr, "linkctl reconcile: --config and at least one --cabinet ID=DIR are required")
		return 2
	}
	cfg, err := readConfig(configFile)
	if err != nil {
		return fail(err)
	}
	levels := map[int]string{}
	for _, l := range cfg.Levels {
		levels[l.SAS] = l.ID
	}
	var known []string
	for _, ch := range cfg.Channels {
		for _, cab := range ch.Cabinets {
			known = append(known, cab.ID)
		}
	}
	src := reconcile.Sources{}
	for _, c := range cabinets {
		if !slices.Contains(known, c[0]) {
			return fail(fmt.Errorf("cabinet %q is not in %s (cabinets: %v)", c[0], configFile, known))
		}
		if slices.Contains(src.Cabinets, c[0]) {
			return fail(fmt.Errorf("cabinet %q given twice", c[0]))
		}
		paid, reported, err := reconcile.Cabinet(c[1], c[0], levels)
		if err != nil {
			return fail(err)
		}
		src.Cabinets = append(src.Cabinets, c[0])
		src.Paid = append(src.Paid, paid...)
		src.Reported = append(src.Reported, reported...)
	}
	if src.Awarded, err = reconcile.Controller(dir); err != nil {
		return fail(err)
	}
	if cfg.Super != nil && !noEtcd {
		err := inGroup(cfg, nil, func(ctx context.Context, store *super.Store) (err error) {
			src.Claims, err = reconcile.Etcd(ctx, store, cfg.Controller)
			return err
		})
		if err != nil {
			return fail(fmt.Errorf("etcd %v: %w (--no-etcd compares the ledgers alone)", cfg.Super.Etcd, err))
		}
		src.Etcd = true
	}
	r := reconcile.Compare(src)
	if asJSON {
		b, _ := json.MarshalIndent(r, "", "  ")
		fmt.Fprintln(stdout, string(b))
	} else {
		r.WriteText(stdout)
		for _, id := range known {
			if !slices.Contains(src.Cabinets, id) {
				fmt.Fprintf(stdout, "  not compared: cabinet %s (no --cabinet %s=DIR)\n", id, id)
			}
		}
	}
	if !r.Agree() {
		return 1
	}
	return 0
}
