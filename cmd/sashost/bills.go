package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// euroNotes are the face values "all" enables.
var euroNotes = []int64{5, 10, 20, 50, 100, 200, 500}

// parseNotes reads "5,10,20", "all" or "none" as face values.
func parseNotes(s string) ([]int64, error) {
	switch s {
	case "all":
		return slices.Clone(euroNotes), nil
	case "none":
		return []int64{}, nil
	}
	var out []int64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a face value", f)
		}
		if _, ok := sas.BillCode(v); !ok {
			return nil, fmt.Errorf("SAS has no bill denomination code for %d", v)
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out, nil
}

// bills runs "bills set NOTES": 0x08 with the notes enabled (face values)
// and the action flag (--disable-after-bill clears it).
func (c *config) bills(cl *host.Client, o *out, rest []string) error {
	if len(rest) != 2 || rest[0] != "set" {
		return fmt.Errorf("%w: bills set NOTES (face values: 5,10,20 | all | none) [--disable-after-bill]", errUsage)
	}
	notes, err := parseNotes(rest[1])
	if err != nil {
		return fmt.Errorf("%w: bills set: %v", errUsage, err)
	}
	b := sas.BillDenominationsFor(notes, !c.disableAfterBill)
	if err := cl.ConfigureBills(b); err != nil {
		return fmt.Errorf("0x08: %w", err)
	}
	res := struct {
		Notes       []int64 `json:"notes"`
		Mask        string  `json:"mask"`
		KeepEnabled bool    `json:"keep_enabled"`
		Ack         bool    `json:"ack"`
	}{notes, fmt.Sprintf("%08X", b.Mask), b.KeepEnabled, true}
	return o.emit(res, func(w io.Writer) {
		after := "the acceptor stays enabled after each bill"
		if !b.KeepEnabled {
			after = "the acceptor is disabled after each bill until 0x06"
		}
		fmt.Fprintf(w, "bill denominations set (mask %08X): %v; %s: acknowledged\n", b.Mask, notes, after)
	})
}

// realtime runs "realtime on|off": 0x0E.
func (c *config) realtime(cl *host.Client, o *out, rest []string) error {
	if len(rest) != 1 || rest[0] != "on" && rest[0] != "off" {
		return fmt.Errorf("%w: realtime on | realtime off", errUsage)
	}
	on := rest[0] == "on"
	if err := cl.SetRealTime(on); err != nil {
		return fmt.Errorf("0x0E: %w", err)
	}
	return o.emit(map[string]any{"real_time": on, "ack": true}, func(w io.Writer) {
		fmt.Fprintf(w, "real-time event reporting %s: acknowledged\n", rest[0])
	})
}

// lastBill runs "lastbill": 0x48.
func lastBill(cl *host.Client, o *out) error {
	b, err := cl.LastBill()
	if err != nil {
		return fmt.Errorf("0x48: %w", err)
	}
	face, _ := sas.BillCodeValue(b.Code)
	res := struct {
		Country byte   `json:"country"`
		Code    byte   `json:"denomination_code"`
		Face    int64  `json:"face_value"`
		Count   uint64 `json:"count"`
	}{b.Country, b.Code, face, b.Count}
	if b == (sas.LastBill{}) {
		res.Face = 0
	}
	return o.emit(res, func(w io.Writer) {
		if b == (sas.LastBill{}) {
			fmt.Fprintln(w, "last accepted bill: none")
			return
		}
		country := fmt.Sprint(b.Country)
		if b.Country == sas.CountryEuro {
			country += " (euro)"
		}
		fmt.Fprintf(w, "last accepted bill: country %s, denomination code %d (%d), %d accepted of that denomination\n",
			country, b.Code, face, b.Count)
	})
}

// features runs "features [--game N]": 0xA0.
func (c *config) features(cl *host.Client, o *out) error {
	if c.game > 9999 {
		return fmt.Errorf("%w: --game %d: want 0-9999", errUsage, c.game)
	}
	f, err := cl.Features(uint16(c.game))
	if err != nil {
		return fmt.Errorf("0xA0: %w", err)
	}
	names := f.Names()
	if names == nil {
		names = []string{}
	}
	res := struct {
		Game     uint16   `json:"game"`
		Bits     string   `json:"features"`
		Features []string `json:"enabled"`
	}{f.Game, fmt.Sprintf("% X", f.Bits[:]), names}
	return o.emit(res, func(w io.Writer) {
		fmt.Fprintf(w, "enabled features of game %d (features 1-4: % X):\n", f.Game, f.Bits[:])
		for _, n := range names {
			fmt.Fprintf(w, "  %s\n", n)
		}
	})
}
