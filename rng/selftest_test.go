package rng

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestSelfTestPasses(t *testing.T) {
	start := time.Now()
	if err := SelfTest(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		// The budget is 50 ms on the cabinet; this only catches gross
		// regressions without flaking under the race detector.
		t.Errorf("SelfTest took %v", d)
	}
}

func TestKATDetectsWrongAnswer(t *testing.T) {
	for _, v := range katVectors {
		if err := checkKAT(v); err != nil {
			t.Errorf("correct vector rejected: %v", err)
		}
		bad := v
		// Flip one bit in the last byte.
		last := bad.want[len(bad.want)-2:]
		flipped := map[string]string{"86": "87", "6f": "6e", "4e": "4f"}[last]
		if flipped == "" {
			t.Fatalf("%s: no flip for %q", v.name, last)
		}
		bad.want = bad.want[:len(bad.want)-2] + flipped
		if err := checkKAT(bad); err == nil || !strings.Contains(err.Error(), "known-answer") {
			t.Errorf("%s: corrupted expectation accepted (err %v)", v.name, err)
		}
		bad = v
		bad.counter++
		if err := checkKAT(bad); err == nil {
			t.Errorf("%s: wrong counter accepted", v.name)
		}
	}
}

func TestHealthCheck(t *testing.T) {
	good := make([]byte, healthBytes)
	NewSeeded(2).Read(good)
	if err := healthCheck(good); err != nil {
		t.Fatalf("good sample rejected: %v", err)
	}

	biased := bytes.Clone(good)
	for i := 0; i < len(biased); i += 5 {
		biased[i] |= 0x81 // about 4000 extra ones, 20 sd
	}
	run := bytes.Clone(good)
	copy(run[777:], bytes.Repeat([]byte{0x3c}, repCutoff))
	apt := bytes.Clone(good)
	for i := 0; i < aptCutoff; i++ {
		apt[5*aptWindow+i*25] = apt[5*aptWindow]
	}
	for name, c := range map[string]struct {
		sample []byte
		want   string
	}{
		"all zero":            {make([]byte, healthBytes), "monobit"},
		"biased bits":         {biased, "monobit"},
		"run of equal bytes":  {run, "repetition"},
		"over-frequent value": {apt, "adaptive proportion"},
	} {
		err := healthCheck(c.sample)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a %s failure", name, err, c.want)
		}
	}

	// A run one short of the cutoff is legitimate output.
	short := bytes.Clone(good)
	copy(short[777:], []byte{0x00, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x01})
	if err := healthCheck(short); err != nil {
		t.Errorf("run of %d rejected: %v", repCutoff-1, err)
	}
}

func TestCheckMapperPasses(t *testing.T) {
	if err := checkMapper(); err != nil {
		t.Fatal(err)
	}
}

func TestSelfTestFailsClosedWithoutEntropy(t *testing.T) {
	withEntropy(t, failingReader{})
	if err := SelfTest(); err == nil || !strings.Contains(err.Error(), "entropy") {
		t.Errorf("SelfTest without entropy: %v", err)
	}
}
