package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openegm/cabinet/assets"
)

func TestLoadJackpotConfiguration(t *testing.T) {
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	levels, err := loadJackpot("embedded", pt)
	if err != nil || len(levels) != 2 || levels[0].Level != 1 || levels[0].Mystery || !levels[1].Mystery {
		t.Fatalf("embedded configuration: %+v, %v", levels, err)
	}
	if levels, err := loadJackpot("off", pt); err != nil || levels != nil {
		t.Fatalf("off: %+v, %v", levels, err)
	}
	for name, c := range map[string]struct{ json, want string }{
		"unknown field":  {`{"levels":[{"level":1,"reset_cents":100,"rate_ppm":10,"colour":"red"}]}`, "unknown field"},
		"level twice":    {`{"levels":[{"level":1,"reset_cents":100,"rate_ppm":10},{"level":1,"reset_cents":100,"rate_ppm":10}]}`, "levels[1] (level 1): level configured twice"},
		"level 33":       {`{"levels":[{"level":33,"reset_cents":100,"rate_ppm":10}]}`, "outside 1-32"},
		"rate too high":  {`{"levels":[{"level":2,"reset_cents":100,"rate_ppm":2000000}]}`, "rate 2000000 ppm"},
		"mystery no cap": {`{"levels":[{"level":9,"mystery":true,"reset_cents":100,"rate_ppm":10}]}`, "needs a cap"},
		"named mystery":  {`{"levels":[{"level":1,"mystery":true,"reset_cents":100,"cap_cents":200,"rate_ppm":10}]}`, "cannot be a mystery level"},
		"trailing data":  {`{"levels":[]} {}`, "data after"},
	} {
		f := filepath.Join(t.TempDir(), "jackpot.json")
		os.WriteFile(f, []byte(c.json), 0o600)
		_, err := loadJackpot(f, pt)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), f) {
			t.Errorf("%s: got %v, want an error naming %s with %q", name, err, f, c.want)
		}
	}
}
