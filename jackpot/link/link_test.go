package link

import (
	"context"
	"github.com/openegm/cabinet/book"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/jackpot/ledger"
)

const sample = `{"controller": "casino-1", "group": 3,
 "levels": [{"id": "mega", "sas_level": 1, "reset_cents": 100000, "rate_ppm": 10000, "second_hit": "split"}],
 "channels": [{"name": "bank-a", "pty": "/dev/null", "cabinets": [
   {"id": "egm-1", "addr": 1, "levels": ["mega"], "award": "addressed"}, {"id": "egm-2", "addr": 2, "levels": ["mega"], "award": "addressed"}]}]}`

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig("linkctl.json", []byte(sample))
	if err != nil || c.Group != 3 || c.BroadcastEvery() != DefaultBroadcast || len(c.Channels[0].Cabinets) != 2 {
		t.Fatalf("%+v %v", c, err)
	}
	for name, bad := range map[string]struct{ from, to, want string }{
		"unknown field":    {`"group": 3,`, `"group": 3, "colour": 1,`, "unknown field"},
		"group 0":          {`"group": 3`, `"group": 0`, "group 0"},
		"slow broadcast":   {`"group": 3,`, `"group": 3, "broadcast_ms": 4000,`, "at least every 2 s"},
		"bad rule":         {`"split"`, `"halves"`, "second_hit"},
		"bad rate":         {`"rate_ppm": 10000`, `"rate_ppm": 0`, "rate 0 ppm"},
		"level twice":      {`"sas_level": 1`, `"sas_level": 40`, "sas_level 40"},
		"address twice":    {`"addr": 2`, `"addr": 1`, "address 1"},
		"unknown level":    {`"addr": 2, "levels": ["mega"]`, `"addr": 2, "levels": ["giga"]`, `unknown level "giga"`},
		"unknown award":    {`"addr": 2, "levels": ["mega"], "award": "addressed"`, `"addr": 2, "levels": ["mega"], "award": "poll"`, `award "poll"`},
		"split broadcast":  {`"addr": 2, "levels": ["mega"], "award": "addressed"`, `"addr": 2, "levels": ["mega"]`, `level "mega" splits`},
		"two line kinds":   {`"pty": "/dev/null",`, `"pty": "/dev/null", "tcp": "h:1",`, "exactly one of"},
		"trailing garbage": {`"bank-a"`, `"bank-a"`, "data after"},
	} {
		text := strings.Replace(sample, bad.from, bad.to, 1)
		if name == "trailing garbage" {
			text += " {}"
		}
		_, err := ParseConfig("linkctl.json", []byte(text))
		if err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(err.Error(), "linkctl.json") {
			t.Errorf("%s: got %v, want an error naming the file with %q", name, err, bad.want)
		}
	}
}

// Hits on one level that arrive within the settle time are recorded in one
// Hit, in arrival order, so the level's rule applies between them: under
// "split" both share the value. A claim that arrives again is not paid
// twice.
func TestNearSimultaneousHitsShareUnderSplit(t *testing.T) {
	cfg, err := ParseConfig("linkctl.json", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	cfg.SettleMS = 50
	l, c := newTestController(t, cfg)
	for _, m := range []string{"egm-1", "egm-2"} {
		for _, coin := range []int64{0, 10_000_00} { // baseline, then 10,000 € of bets each
			if _, err := l.Commit(ledger.Meters{At: 1, Machine: m, CoinIn: coin, GamesPlayed: uint64(coin/100 + 1)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	value, _ := l.State().Level("mega")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.collect(ctx)
	now := time.Now()
	c.hits <- hitClaim{level: "mega", at: now, claim: ledger.Claim{Machine: "egm-2", Game: 10001, Bet: 20, Claimed: 1200_00}}
	c.hits <- hitClaim{level: "mega", at: now, claim: ledger.Claim{Machine: "egm-1", Game: 10001, Bet: 20, Claimed: 1200_00}}
	c.hits <- hitClaim{level: "mega", at: now, claim: ledger.Claim{Machine: "egm-2", Game: 10001, Bet: 20, Claimed: 1200_00}}
	var payouts []ledger.Payout
	for deadline := time.Now().Add(5 * time.Second); len(payouts) < 2; {
		if time.Now().After(deadline) {
			t.Fatalf("payouts %v", payouts)
		}
		time.Sleep(10 * time.Millisecond)
		payouts = l.State().PendingPayouts()
	}
	half := value.Meters.Current / 1000 / 2 // cents
	order := map[string]int64{}
	for _, p := range payouts {
		if p.Amount != half {
			t.Fatalf("payouts %+v, want two of %d cents (half of %d millicents)", payouts, half, value.Meters.Current)
		}
		order[p.Machine] = p.Order
	}
	if order["egm-2"] != 1 || order["egm-1"] != 2 {
		t.Fatalf("hits recorded in the order %v, want egm-2 (first to arrive) then egm-1", order)
	}
	// The same claims again later (the cabinets report until paid): no new award.
	c.hits <- hitClaim{level: "mega", at: time.Now(), claim: ledger.Claim{Machine: "egm-1", Game: 10001, Bet: 20, Claimed: 1200_00}}
	time.Sleep(200 * time.Millisecond)
	if lv, _ := l.State().Level("mega"); lv.Meters.Hits != 2 {
		t.Fatalf("%d hits after a repeated claim, want 2", lv.Meters.Hits)
	}
	if c.Stats().Hits != 2 {
		t.Fatalf("stats %+v", c.Stats())
	}
}

// newTestController opens a fresh ledger, closed at the test's end, and a
// controller on it for cfg.
func newTestController(t *testing.T, cfg *Config) (*ledger.Ledger, *Controller) {
	t.Helper()
	l, _, err := ledger.Open(t.TempDir(), ledger.Options{Keys: book.FileKeys{Dir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	c, err := New(cfg, l, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return l, c
}
