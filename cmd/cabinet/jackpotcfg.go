package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

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

// parseLinked reads --link-levels: level numbers the link controller awards,
// which need a SAS channel and group, and may not also be local levels.
func parseLinked(spec string, local []meters.JackpotLevel, o sasOptions) ([]int, error) {
	if spec == "" {
		return nil, nil
	}
	if o.addr == 0 || o.group < 1 || o.group > 255 {
		return nil, fmt.Errorf("--link-levels %s needs SAS (--sas-addr) and a progressive group (--link-group 1-255)", spec)
	}
	var out []int
	for _, f := range strings.Split(spec, ",") {
		lv, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || lv < 1 || lv > meters.MaxJackpotLevel {
			return nil, fmt.Errorf("--link-levels: %q is not a level 1-%d", f, meters.MaxJackpotLevel)
		}
		if slices.Contains(out, lv) {
			return nil, fmt.Errorf("--link-levels: level %d twice", lv)
		}
		if slices.ContainsFunc(local, func(l meters.JackpotLevel) bool { return l.Level == lv }) {
			return nil, fmt.Errorf("--link-levels: level %d is also a local jackpot level (see --jackpot)", lv)
		}
		out = append(out, lv)
	}
	return out, nil
}
