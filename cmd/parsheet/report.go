package main

import (
	"fmt"
	"io"
	"math/big"
	"strings"
	"text/tabwriter"

	"github.com/openegm/cabinet/reels"
	"golang.org/x/crypto/blake2b"
)

// writePar prints the PAR sheet for a lab technician: the certified figures
// as exact fractions, with decimals beside them for reading.
func writePar(out io.Writer, p *reels.Paytable, ps *reels.ParSheet, data []byte) {
	sum := blake2b.Sum256(data)
	fmt.Fprintf(out, "PAR SHEET  %s v%d  %q / %q\n", ps.ID, ps.Version, ps.Title.PT, ps.Title.EN)
	fmt.Fprintf(out, "file BLAKE2b-256 %x\n", sum)
	fmt.Fprintf(out, "%d reels × %d rows, %d lines, strips %v, cycle %d stop combinations\n\n",
		ps.Reels, ps.Rows, ps.Lines, ps.StripLengths, ps.Cycle)

	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "level\tcredits/line\tbet\tbase RTP\tlines\tscatter\tfree games\tvolatility\tspin SD\tmax spin win\t")
	for _, l := range ps.Levels {
		top := ""
		if l.Top {
			top = "*"
		}
		fmt.Fprintf(tw, "%d%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t\n", l.Level+1, top, l.CreditsPerLine, l.Bet,
			l.RTP.Percent(4), l.LineRTP.Percent(4), l.ScatterRTP.Percent(4), l.FreeRTP.Percent(4), l.Volatility, l.SpinSD, l.MaxSpinWin)
	}
	tw.Flush()
	fmt.Fprintln(out, "* top level: progressive combinations award their jackpot level; their pays are excluded from the RTP")
	fmt.Fprintln(out, "\nexact base RTP (certified figures):")
	for _, l := range ps.Levels {
		fmt.Fprintf(out, "  level %d: %s\n", l.Level+1, l.RTP.RatString())
	}
	if bad := problems(ps); bad != "" {
		fmt.Fprintf(out, "\nREFUSED: %s\n", bad)
	}

	fmt.Fprintf(out, "\nhit frequency %s (1 in %s) — %d of %d combinations pay or award free games\n",
		ps.HitFrequency.Percent(4), oneIn(ps.HitFrequency.Rat), ps.HitHits, ps.Cycle)

	fmt.Fprintln(out, "\n90% confidence band of the measured RTP (normal approximation):")
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "games\t")
	for _, l := range ps.Levels {
		fmt.Fprintf(tw, "level %d\t", l.Level+1)
	}
	fmt.Fprintln(tw)
	for i := range ps.Levels[0].Bands {
		fmt.Fprintf(tw, "%d\t", ps.Levels[0].Bands[i].Games)
		for _, l := range ps.Levels {
			fmt.Fprintf(tw, "%s – %s\t", l.Bands[i].Low, l.Bands[i].High)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()

	fmt.Fprintln(out, "\ncombinations (base game, ordinary levels; line hits are per line):")
	writeCombos(out, p, ps.Combinations)
	if f := ps.Free; f != nil {
		fmt.Fprintf(out, "\nfree games: multiplier ×%d, retrigger %v, %s strips\n", f.Multiplier, f.Retrigger,
			map[bool]string{true: "own", false: "base-game"}[f.OwnReels])
		fmt.Fprintf(out, "  trigger probability   %s (1 in %s), %d combinations\n", f.TriggerProbability.Percent(4), oneIn(f.TriggerProbability.Rat), f.TriggerHits)
		fmt.Fprintf(out, "  games per trigger     %s (initial award)\n", f.GamesPerTrigger.FloatString(4))
		fmt.Fprintf(out, "  games per feature     %s (with retriggers)\n", f.GamesPerFeature.FloatString(4))
		fmt.Fprintf(out, "  retrigger rate        %s games awarded per free game\n", f.RetriggerRate.FloatString(6))
		fmt.Fprintln(out, "  one free game, before the multiplier:")
		writeCombos(out, p, f.Combinations)
	}
}

func writeCombos(out io.Writer, p *reels.Paytable, combos []reels.Combination) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\tsymbol\tcount\tpays\tjackpot\thits\tprobability\t1 in\tRTP share\t")
	for _, c := range combos {
		jp := ""
		if c.Progressive > 0 {
			jp = fmt.Sprintf("level %d", c.Progressive)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%s\t%s\t%s\t\n", c.Kind, symbolName(p, c.Symbol), c.Count, c.Pays, jp, c.Hits,
			c.Probability.FloatString(8), oneIn(c.Probability.Rat), c.RTP.Percent(4))
	}
	tw.Flush()
}

func symbolName(p *reels.Paytable, id string) string {
	for _, s := range p.Symbols {
		if s.ID == id {
			return fmt.Sprintf("%s (%s)", id, s.Name.PT)
		}
	}
	return id
}

func oneIn(r *big.Rat) string {
	if r.Sign() == 0 {
		return "never"
	}
	return new(big.Rat).Inv(r).FloatString(2)
}

func problems(ps *reels.ParSheet) string {
	var bad []string
	for _, l := range ps.Levels {
		if l.Problem != "" {
			bad = append(bad, fmt.Sprintf("level %d: %s %s", l.Level+1, l.RTP.Percent(4), l.Problem))
		}
	}
	return strings.Join(bad, "; ")
}
