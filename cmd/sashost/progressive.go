package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// levelFlag collects --level L=CENTS, in the order given.
type levelFlag []sas.LevelValue

func (f *levelFlag) String() string {
	if f == nil {
		return ""
	}
	var parts []string
	for _, lv := range *f {
		parts = append(parts, fmt.Sprintf("%d=%d", lv.Level, lv.Amount))
	}
	return strings.Join(parts, ",")
}

func (f *levelFlag) Set(s string) error {
	l, amt, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("want L=CENTS, got %q", s)
	}
	level, err := strconv.ParseUint(strings.TrimSpace(l), 10, 8)
	if err != nil || level < 1 || level > sas.MaxProgressiveLevel {
		return fmt.Errorf("level %q: want 1-%d", l, sas.MaxProgressiveLevel)
	}
	cents, err := strconv.ParseUint(strings.TrimSpace(amt), 10, 64)
	if err != nil || cents > sas.MaxProgressiveAmount {
		return fmt.Errorf("amount %q: want whole cents, at most %d", amt, uint64(sas.MaxProgressiveAmount))
	}
	*f = append(*f, sas.LevelValue{Level: byte(level), Amount: cents})
	return nil
}

func (c *config) progressive(cl *host.Client, o *out, rest []string) error {
	if len(rest) != 1 {
		return fmt.Errorf("%w: progressive broadcast | wins | win | cumulative", errUsage)
	}
	switch rest[0] {
	case "broadcast":
		return c.broadcast(cl, o)
	case "wins":
		ws, err := cl.ProgressiveWins()
		if err != nil {
			return fmt.Errorf("0x87: %w", err)
		}
		if ws.Wins == nil {
			ws.Wins = []sas.LevelValue{}
		}
		return o.emit(ws, func(w io.Writer) {
			if len(ws.Wins) == 0 {
				fmt.Fprintf(w, "SAS progressive wins, group %d: none\n", ws.Group)
				return
			}
			fmt.Fprintf(w, "SAS progressive wins, group %d:\n", ws.Group)
			for _, lv := range ws.Wins {
				fmt.Fprintf(w, "  level %2d  %s\n", lv.Level, euros(lv.Amount))
			}
		})
	case "win":
		pw, err := cl.ProgressiveWin()
		if err != nil {
			return fmt.Errorf("0x85: %w", err)
		}
		return o.emit(pw, func(w io.Writer) {
			if pw.None() {
				fmt.Fprintln(w, "SAS progressive win: none")
				return
			}
			fmt.Fprintf(w, "SAS progressive win: group %d, level %d, %s\n", pw.Group, pw.Level, euros(pw.Amount))
		})
	case "cumulative":
		if c.game > 9999 {
			return fmt.Errorf("%w: --game %d: want 0-9999", errUsage, c.game)
		}
		cw, err := cl.CumulativeProgressiveWins(uint16(c.game))
		if err != nil {
			return fmt.Errorf("0x83: %w", err)
		}
		return o.emit(cw, func(w io.Writer) {
			fmt.Fprintf(w, "cumulative progressive wins of game %d: %s\n", cw.Game, euros(cw.Amount))
		})
	}
	return fmt.Errorf("%w: progressive %q: want broadcast, wins, win or cumulative", errUsage, rest[0])
}

func (c *config) broadcast(cl *host.Client, o *out) error {
	if c.group < 1 || c.group > 255 {
		return fmt.Errorf("%w: progressive broadcast needs --group 1-255", errUsage)
	}
	if len(c.levels) == 0 {
		return fmt.Errorf("%w: progressive broadcast needs --level L=CENTS", errUsage)
	}
	cmd, _, err := sas.ProgressiveBroadcastData(byte(c.group), c.levels)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := cl.Broadcast(byte(c.group), c.levels, c.global); err != nil {
		return fmt.Errorf("0x%02X: %w", cmd, err)
	}
	to := byte(cl.Addr())
	if c.global {
		to = sas.GlobalAddr
	}
	res := struct {
		Cmd    string           `json:"cmd"`
		Addr   byte             `json:"addr"`
		Global bool             `json:"global"`
		Group  uint             `json:"group"`
		Levels []sas.LevelValue `json:"levels"`
		Ack    bool             `json:"ack"`
	}{fmt.Sprintf("%02X", cmd), to, c.global, c.group, c.levels, !c.global}
	return o.emit(res, func(w io.Writer) {
		if c.global {
			fmt.Fprintf(w, "broadcast 0x%02X to every machine (no reply), group %d:\n", cmd, c.group)
		} else {
			fmt.Fprintf(w, "broadcast 0x%02X to machine %d, group %d: acknowledged\n", cmd, to, c.group)
		}
		for _, lv := range c.levels {
			fmt.Fprintf(w, "  level %2d  %s\n", lv.Level, euros(lv.Amount))
		}
	})
}
