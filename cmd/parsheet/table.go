package main

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/reels"
	"golang.org/x/crypto/blake2b"
)

// isTable tells a table-game definition from a paytable by its content: a
// definition says which game it is ("game": "makccarat"), a paytable has no
// such field. A file that is not JSON goes to the paytable loader, which
// reports it.
func isTable(data []byte) bool {
	var probe struct {
		Game json.RawMessage `json:"game"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.Game != nil
}

// loadTable parses a definition and computes its exact figures.
func loadTable(name string, data []byte) (*baccarat.Definition, *baccarat.Figures, error) {
	d, err := baccarat.Parse(name, data)
	if err != nil {
		return nil, nil, err
	}
	f, err := d.Exact()
	if err != nil {
		return nil, nil, err
	}
	return d, f, nil
}

func tablePar(name string, data []byte, asJSON bool, out io.Writer) error {
	d, f, err := loadTable(name, data)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{
			"id": d.ID, "version": d.Version, "game": baccarat.Game, "title": d.Title, "decks": d.Decks,
			"alternative": d.Alternative, "commission": d.Commission.String(), "bet_unit_cents": d.BetUnit,
			"figures": f,
		}); err != nil {
			return err
		}
	} else {
		writeTablePar(out, d, f, data)
	}
	return f.Check(d)
}

var commissionText = map[baccarat.Commission]string{
	baccarat.FivePercent789: "5% of the prize of a player or banker bet that wins with 7, 8 or 9 points",
	baccarat.HalfOnFour:     "half the prize of a player or banker bet that wins with 4 points",
}

// writeTablePar prints a table definition's PAR sheet: every certified
// figure as an exact fraction with its percentage to six decimals.
func writeTablePar(out io.Writer, d *baccarat.Definition, f *baccarat.Figures, data []byte) {
	sum := blake2b.Sum256(data)
	fmt.Fprintf(out, "PAR SHEET  %s v%d  %q / %q\n", d.ID, d.Version, d.Title.PT, d.Title.EN)
	fmt.Fprintf(out, "file BLAKE2b-256 %x\n", sum)
	fmt.Fprintf(out, "game makccarat: %d decks of 52 cards (%d cards), a fresh shoe every hand, drawing alternative %d\n",
		d.Decks, f.Cards, d.Alternative)
	fmt.Fprintf(out, "commission %s: the house keeps %s\n", d.Commission, commissionText[d.Commission])
	fmt.Fprintf(out, "bet unit %s; every probability is a count of ordered six-card sequences over %s\n\n", euros(d.BetUnit), f.Sequences)

	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "outcome\tprobability\texact")
	names := [3]string{"player wins", "banker wins", "tie"}
	for w := range 3 {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", names[w], pct(f.Win[w]), f.Win[w].RatString())
	}
	for w := range 3 {
		for pts := range 10 {
			label := fmt.Sprintf("  %s with %d", names[w], pts)
			if w == 2 {
				label = fmt.Sprintf("  tie at %d", pts)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", label, pct(f.ByPoints[w][pts]), f.ByPoints[w][pts].RatString())
		}
	}
	fmt.Fprintf(tw, "player pair\t%s\t%s\n", pct(f.PlayerPair), f.PlayerPair.RatString())
	fmt.Fprintf(tw, "banker pair\t%s\t%s\n", pct(f.BankerPair), f.BankerPair.RatString())
	fmt.Fprintf(tw, "both pairs\t%s\t%s\n", pct(f.BothPairs), f.BothPairs.RatString())
	tw.Flush()

	fmt.Fprintln(out, "\nbets (per unit staked; a tie returns the player and banker stakes):")
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bet\tpays\tlimits\twon\treturned\tlost\tRTP\thouse edge\tSD\t")
	for s, b := range f.Bets {
		l := d.Limits.Spots[s]
		v, _ := b.Variance.Float64()
		fmt.Fprintf(tw, "%s\t%d:1\t%s – %s\t%s\t%s\t%s\t%s\t%s\t%.4f\t\n", b.Spot, b.Odds, euros(l.Min), euros(l.Max),
			pct(b.Won), pct(b.Returned), pct(b.Lost), pct(b.RTP), pct(b.HouseEdge), math.Sqrt(v))
	}
	tw.Flush()
	fmt.Fprintf(out, "a hand's stakes: %s – %s\n", euros(d.Limits.Hand.Min), euros(d.Limits.Hand.Max))
	fmt.Fprintln(out, "\nexact RTP and house edge (certified figures):")
	for _, b := range f.Bets {
		fmt.Fprintf(out, "  %-12s RTP %s   house edge %s\n", b.Spot, b.RTP.RatString(), b.HouseEdge.RatString())
	}
	if err := f.Check(d); err != nil {
		fmt.Fprintf(out, "\nREFUSED:\n%s\n", err)
	}
}

func pct(x reels.Exact) string { return x.Percent(6) }

// euros renders cents as the PAR sheet, which is in English, shows money.
func euros(c int64) string { return money.Euro("en", c) }

func tableCheck(name string, data []byte, requireSig bool, pubs []string, out io.Writer) error {
	d, f, err := loadTable(name, data)
	if err != nil {
		return err
	}
	for _, b := range f.Bets {
		fmt.Fprintf(out, "bet %s (%d:1): RTP %s = %s\n", b.Spot, b.Odds, pct(b.RTP), b.RTP.RatString())
	}
	if err := f.Check(d); err != nil {
		return err
	}
	return checkSignature(name, data, requireSig, pubs, out)
}

// checkSignature verifies FILE.sig when it exists (always when required).
func checkSignature(name string, data []byte, requireSig bool, pubs []string, out io.Writer) error {
	sig, sigErr := os.ReadFile(name + ".sig")
	switch {
	case sigErr == nil:
		keys, err := trusted(pubs)
		if err != nil {
			return err
		}
		id, err := reels.Verify(name, data, sig, keys)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "signature: valid, key %s\n", id)
	case requireSig:
		return fmt.Errorf("%s: no signature file %s.sig", name, name)
	default:
		fmt.Fprintf(out, "signature: none (%s.sig absent)\n", name)
	}
	fmt.Fprintf(out, "%s: valid\n", name)
	return nil
}

func tableSim(name string, data []byte, hands int64, seed uint64, workers int, asJSON bool, out io.Writer) error {
	d, f, err := loadTable(name, data)
	if err != nil {
		return err
	}
	r, err := d.Simulate(hands, seed, workers)
	if err != nil {
		return err
	}
	figs, z := r.Compare(f)
	var outside []string
	for _, g := range figs {
		if !g.Inside {
			outside = append(outside, g.Name)
		}
	}
	if asJSON {
		type row struct {
			baccarat.SimFigure
			Exact string `json:"exact"`
		}
		var rows []row
		for _, g := range figs {
			rows = append(rows, row{g, g.Exact.RatString()})
		}
		if err := json.NewEncoder(out).Encode(map[string]any{
			"table": d.ID, "hands": r.Hands, "seed": r.Seed, "unit_cents": r.Unit, "z": z,
			"family_confidence": baccarat.FamilyConfidence, "figures": rows, "all_inside": len(outside) == 0,
		}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(out, "table %s, %d hands, seed %d, one unit (%s) on every spot of every hand\n", d.ID, r.Hands, r.Seed, euros(r.Unit))
		fmt.Fprintf(out, "intervals: z = %.4f each, so that all %d hold at once with %.1f%% confidence\n\n", z, len(figs), 100*baccarat.FamilyConfidence)
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "figure\texact\tsimulated\tinterval\t\t")
		for _, g := range figs {
			mark := "inside"
			if !g.Inside {
				mark = "OUTSIDE"
			}
			fmt.Fprintf(tw, "%s\t%s\t%.6f%%\t[%.6f%%, %.6f%%]\t%s\t\n", g.Name, reels.Exact{Rat: g.Exact}.Percent(6), 100*g.Measured, 100*g.Low, 100*g.High, mark)
		}
		tw.Flush()
	}
	if len(outside) > 0 {
		return fmt.Errorf("%d exact figures lie outside their simulated intervals: %s", len(outside), strings.Join(outside, ", "))
	}
	return nil
}

func tableSign(name string, data []byte, priv ed25519.PrivateKey, out io.Writer) error {
	d, f, err := loadTable(name, data)
	if err != nil {
		return err
	}
	if err := f.Check(d); err != nil {
		return fmt.Errorf("not signed: %w", err)
	}
	if err := os.WriteFile(name+".sig", reels.Sign(priv, data), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: signed with key %s\n", name, reels.KeyID(priv.Public().(ed25519.PublicKey)))
	return nil
}
