// Package link is the link controller's service (cmd/linkctl): it speaks
// SAS as the progressive host to the cabinets of one casino, feeds its
// levels from their coin-in meters, broadcasts the values, and awards hits
// exactly once, all through the controller's ledger (jackpot/ledger).
//
// The protocol with a cabinet, per channel (serial line, pseudo-terminal or
// TCP; several cabinets on one line by address):
//
//   - every BroadcastEvery, a global 0x86 with every level's value (cents);
//   - per cabinet, a general poll; every MeterEvery, and at once when the
//     cabinet raises 0x56, its coin-in and games-played meters (0x2F), which
//     the ledger turns into contributions by their delta (a lost or repeated
//     reading can neither lose nor double money);
//   - its reported hits (0x87): each is identified by cabinet, level and
//     games played (the cabinet is locked while a hit waits, so that meter
//     stands still), and hits arriving within Settle of each other on one
//     level are recorded in one Hit, in arrival order, under the level's
//     second-hit rule;
//   - the award confirmed by an addressed single-level 0x80 carrying the
//     amount, repeated until the cabinet no longer reports the hit (it has
//     committed the payment); then the ledger records the confirmation.
package link

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
)

// Config is the controller's configuration file.
type Config struct {
	Controller  string    `json:"controller"` // this controller's ID
	Group       int       `json:"group"`      // SAS progressive group, 1-255
	BroadcastMS int       `json:"broadcast_ms,omitempty"`
	MeterMS     int       `json:"meter_ms,omitempty"`
	SettleMS    int       `json:"settle_ms,omitempty"`
	Levels      []Level   `json:"levels"`
	Channels    []Channel `json:"channels"`
}

// Level is a linked level (won by the paytable's progressive combination
// at the top bet on the cabinets that feed it).
type Level struct {
	ID         string `json:"id"`
	SAS        int    `json:"sas_level"` // 1-32: the level number cabinets know it by
	ResetCents int64  `json:"reset_cents"`
	RatePPM    int64  `json:"rate_ppm"`
	HiddenPPM  int64  `json:"hidden_ppm,omitempty"`
	CapCents   int64  `json:"cap_cents,omitempty"`
	// SecondHit is the rule for a hit that arrives before the previous one
	// on the level is awarded: "wins-reset" (it wins the reset value) or
	// "split" (the value is shared equally). Shown to players.
	SecondHit string `json:"second_hit"`
}

// Channel is one SAS line: exactly one of PTY (the host end of a
// cabinet's pseudo-terminal), TCP (a serial server) or Serial (a device).
type Channel struct {
	Name     string    `json:"name"`
	PTY      string    `json:"pty,omitempty"`
	TCP      string    `json:"tcp,omitempty"`
	Serial   string    `json:"serial,omitempty"`
	Framing  string    `json:"framing,omitempty"` // pty: "content" (default) or "parmrk"
	Cabinets []Cabinet `json:"cabinets"`
}

// Cabinet is a machine on a channel and the levels it feeds.
type Cabinet struct {
	ID     string   `json:"id"`
	Addr   int      `json:"addr"`
	Levels []string `json:"levels"`
}

// Defaults.
const (
	DefaultBroadcast = 500 * time.Millisecond // well inside the cabinet's 5 s
	DefaultMeter     = time.Second
	DefaultSettle    = 300 * time.Millisecond
)

func ms(v int, def time.Duration) time.Duration {
	if v <= 0 {
		return def
	}
	return time.Duration(v) * time.Millisecond
}

// BroadcastEvery, MeterEvery and Settle are the configured intervals.
func (c Config) BroadcastEvery() time.Duration { return ms(c.BroadcastMS, DefaultBroadcast) }
func (c Config) MeterEvery() time.Duration     { return ms(c.MeterMS, DefaultMeter) }
func (c Config) Settle() time.Duration         { return ms(c.SettleMS, DefaultSettle) }

// ParseConfig reads a configuration strictly; every error names the file
// and the entry.
func ParseConfig(name string, data []byte) (*Config, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Config
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: data after the configuration", name)
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &c, nil
}

func (c Config) validate() error {
	if c.Controller == "" || len(c.Controller) > ledger.MaxIDLen {
		return fmt.Errorf("controller: an ID of 1-%d characters is required", ledger.MaxIDLen)
	}
	if c.Group < 1 || c.Group > 255 {
		return fmt.Errorf("group %d: want 1-255", c.Group)
	}
	if c.BroadcastEvery() > 2*time.Second {
		return fmt.Errorf("broadcast_ms %d: cabinets report the link down after 5 s without a value; broadcast at least every 2 s", c.BroadcastMS)
	}
	if len(c.Levels) == 0 {
		return fmt.Errorf("no levels")
	}
	ids, sasLevels := map[string]bool{}, map[int]bool{}
	for i, l := range c.Levels {
		where := fmt.Sprintf("levels[%d] (%s)", i, l.ID)
		if l.ID == "" || ids[l.ID] {
			return fmt.Errorf("%s: a unique ID is required", where)
		}
		if l.SAS < 1 || l.SAS > 32 || sasLevels[l.SAS] {
			return fmt.Errorf("%s: sas_level %d: want a unique level 1-32", where, l.SAS)
		}
		ids[l.ID], sasLevels[l.SAS] = true, true
		if _, err := l.setup(0, nil); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	cabinets, addrs := map[string]bool{}, map[string]bool{}
	for i, ch := range c.Channels {
		where := fmt.Sprintf("channels[%d] (%s)", i, ch.Name)
		n := 0
		for _, s := range []string{ch.PTY, ch.TCP, ch.Serial} {
			if s != "" {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("%s: exactly one of pty, tcp, serial", where)
		}
		if ch.Framing != "" && ch.Framing != "content" && ch.Framing != "parmrk" {
			return fmt.Errorf("%s: framing %q: want content or parmrk", where, ch.Framing)
		}
		if len(ch.Cabinets) == 0 {
			return fmt.Errorf("%s: no cabinets", where)
		}
		for j, cab := range ch.Cabinets {
			w := fmt.Sprintf("%s cabinets[%d] (%s)", where, j, cab.ID)
			if cab.ID == "" || cabinets[cab.ID] {
				return fmt.Errorf("%s: a unique ID is required", w)
			}
			cabinets[cab.ID] = true
			key := fmt.Sprintf("%d/%d", i, cab.Addr)
			if cab.Addr < 1 || cab.Addr > 127 || addrs[key] {
				return fmt.Errorf("%s: address %d: want a unique address 1-127 on its line", w, cab.Addr)
			}
			addrs[key] = true
			if len(cab.Levels) == 0 {
				return fmt.Errorf("%s: feeds no level", w)
			}
			for _, lv := range cab.Levels {
				if !ids[lv] {
					return fmt.Errorf("%s: unknown level %q", w, lv)
				}
			}
		}
	}
	return nil
}

// setup is the ledger record that opens the level.
func (l Level) setup(at int64, who []string) (ledger.SetupLevel, error) {
	rule := map[string]jackpot.SecondHitRule{"wins-reset": jackpot.SecondHitWinsReset, "split": jackpot.SplitAmount}[l.SecondHit]
	if rule == 0 {
		return ledger.SetupLevel{}, fmt.Errorf("second_hit %q: want wins-reset or split", l.SecondHit)
	}
	cfg := jackpot.Config{ResetValue: l.ResetCents * jackpot.MillicentsPerCent, Rate: l.RatePPM, HiddenRate: l.HiddenPPM,
		Cap: l.CapCents * jackpot.MillicentsPerCent, Trigger: jackpot.TriggerPaytable, SecondHit: rule}
	if err := cfg.Validate(); err != nil {
		return ledger.SetupLevel{}, err
	}
	w := "configuration"
	if len(who) > 0 {
		w = who[0]
	}
	return ledger.SetupLevel{At: at, Level: l.ID, ResetMC: cfg.ResetValue, RatePPM: l.RatePPM, HiddenPPM: l.HiddenPPM,
		CapMC: cfg.Cap, Trigger: jackpot.TriggerPaytable.String(), SecondHit: rule.String(), Who: w}, nil
}

// levelBySAS returns the level a cabinet knows by number n.
func (c Config) levelBySAS(n int) (Level, bool) {
	i := slices.IndexFunc(c.Levels, func(l Level) bool { return l.SAS == n })
	if i < 0 {
		return Level{}, false
	}
	return c.Levels[i], true
}
