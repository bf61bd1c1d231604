package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
)

// jackpotFile is the operator's configuration of the local jackpot.
type jackpotFile struct {
	Levels []struct {
		Level      int   `json:"level"`
		Mystery    bool  `json:"mystery"`
		ResetCents int64 `json:"reset_cents"`
		RatePPM    int64 `json:"rate_ppm"`
		HiddenPPM  int64 `json:"hidden_ppm"`
		CapCents   int64 `json:"cap_cents"`
	} `json:"levels"`
}

// loadJackpot reads the local jackpot configuration: "embedded" (the
// default), "off", or a file. Every level is checked with the pools' own
// rules, and against the paytable: a mystery level may not carry a number a
// paytable combination wins.
func loadJackpot(spec string, pt *reels.Certified) ([]meters.JackpotLevel, error) {
	var data []byte
	name := spec
	switch spec {
	case "off", "":
		return nil, nil
	case "embedded":
		data, name = assets.LocalJackpot, "embedded jackpot configuration"
	default:
		var err error
		if data, err = os.ReadFile(spec); err != nil {
			return nil, err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f jackpotFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: data after the configuration", name)
	}
	var out []meters.JackpotLevel
	for i, l := range f.Levels {
		r := meters.JackpotLevel{Level: l.Level, Mystery: l.Mystery, ResetCents: l.ResetCents, RatePPM: l.RatePPM,
			HiddenPPM: l.HiddenPPM, CapCents: l.CapCents, Who: "configuration"}
		where := fmt.Sprintf("%s: levels[%d] (level %d)", name, i, l.Level)
		if l.Level < 1 || l.Level > meters.MaxJackpotLevel {
			return nil, fmt.Errorf("%s: level number outside 1-%d", where, meters.MaxJackpotLevel)
		}
		if slices.ContainsFunc(out, func(o meters.JackpotLevel) bool { return o.Level == l.Level }) {
			return nil, fmt.Errorf("%s: level configured twice", where)
		}
		if _, err := r.JackpotConfig(); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if pt != nil && l.Mystery && slices.ContainsFunc(pt.LinePays, func(p reels.Pay) bool { return p.Progressive == l.Level }) {
			return nil, fmt.Errorf("%s: paytable %s wins level %d with a combination; it cannot be a mystery level", where, pt.ID, l.Level)
		}
		out = append(out, r)
	}
	return out, nil
}
