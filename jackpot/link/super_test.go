package link

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/internal/etcdtest"
	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/jackpot/super"
)

// testKey is controller id's signing key in these tests, derived from its
// name (the key store of its ledger is given it before the ledger opens).
func testKey(id string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("link test key " + id))
	return ed25519.NewKeyFromSeed(seed[:])
}

// testKeys registers the keys of the tests' two controllers.
var testKeys = super.Keys{"casino-a": testKey("casino-a").Public().(ed25519.PublicKey), "casino-b": testKey("casino-b").Public().(ed25519.PublicKey)}

func testPub(id string) string {
	return base64.StdEncoding.EncodeToString(testKey(id).Public().(ed25519.PublicKey))
}

var superSample = `{"controller": "casino-a", "group": 3,
 "levels": [{"id": "super", "sas_level": 1, "reset_cents": 100000, "rate_ppm": 10000, "second_hit": "wins-reset"},
            {"id": "mega", "sas_level": 2, "reset_cents": 5000, "rate_ppm": 10000, "second_hit": "split"}],
 "channels": [{"name": "bank-a", "pty": "/dev/null", "cabinets": [
   {"id": "egm-1", "addr": 1, "levels": ["super", "mega"], "award": "addressed"}, {"id": "egm-2", "addr": 2, "levels": ["super"]}]}],
 "superjackpot": {"etcd": ["10.0.0.1:2379", "10.0.0.2:2379"], "prefix": "/superjackpot/g1/", "levels": ["super"], "batch_ms": 200,
   "tls": {"ca": "etcd/ca.pem", "cert": "etcd/casino-a.pem", "key": "/etc/linkctl/casino-a-key.pem"},
   "keys": {"casino-a": "` + testPub("casino-a") + `", "casino-b": "` + testPub("casino-b") + `"}}}`

func TestParseConfigSuper(t *testing.T) {
	c, err := ParseConfig("/etc/linkctl/linkctl.json", []byte(superSample))
	if err != nil || c.Super == nil || c.Super.BatchEvery() != 200*time.Millisecond || !c.shared("super") || c.shared("mega") {
		t.Fatalf("%+v %v", c, err)
	}
	if tl := c.Super.TLS; tl.CA != "/etc/linkctl/etcd/ca.pem" || tl.Cert != "/etc/linkctl/etcd/casino-a.pem" || tl.Key != "/etc/linkctl/casino-a-key.pem" {
		t.Fatalf("TLS files not resolved against the configuration's directory: %+v", tl)
	}
	if keys, err := c.Super.Keyring(); err != nil || len(keys) != 2 || !keys["casino-b"].Equal(testKey("casino-b").Public()) {
		t.Fatalf("keys %v %v", keys, err)
	}
	if c, err := ParseConfig("linkctl.json", []byte(sample)); err != nil || c.Super != nil {
		t.Fatalf("without the section: %+v %v", c, err)
	}
	for name, bad := range map[string]struct{ from, to, want string }{
		"unknown field":     {`"batch_ms": 200`, `"batch_ms": 200, "ttl": 1`, "unknown field"},
		"no endpoints":      {`["10.0.0.1:2379", "10.0.0.2:2379"]`, `[]`, "superjackpot: etcd: no endpoints"},
		"endpoint no port":  {`"10.0.0.2:2379"`, `"10.0.0.2"`, `superjackpot: etcd[1] "10.0.0.2": want host:port`},
		"endpoint bad port": {`"10.0.0.2:2379"`, `"10.0.0.2:99999"`, `etcd[1] "10.0.0.2:99999": port`},
		"endpoint twice":    {`"10.0.0.2:2379"`, `"10.0.0.1:2379"`, "listed twice"},
		"prefix no slash":   {`"/superjackpot/g1/"`, `"/superjackpot/g1"`, `prefix "/superjackpot/g1"`},
		"prefix space":      {`"/superjackpot/g1/"`, `"/super jackpot/"`, "no spaces"},
		"batch too fast":    {`"batch_ms": 200`, `"batch_ms": 5`, "batch_ms 5"},
		"no level":          {`"levels": ["super"], "batch_ms"`, `"levels": [], "batch_ms"`, "none shared"},
		"unknown level":     {`"levels": ["super"], "batch_ms"`, `"levels": ["giga"], "batch_ms"`, "levels[0] (giga): not one of the configured levels"},
		"two levels":        {`"levels": ["super"], "batch_ms"`, `"levels": ["super", "mega"], "batch_ms"`, "one shared level per controller"},
		"split":             {`"second_hit": "wins-reset"`, `"second_hit": "split"`, `levels[0] (super): second_hit "split"`},
		"controller slash":  {`"casino-a"`, `"casino/a"`, `controller "casino/a"`},
		"ids too long":      {`"egm-2"`, `"` + strings.Repeat("e", 60) + `"`, "controller and cabinet IDs are 68 bytes together, at most 63"},
		"no tls":            {`"tls": {"ca": "etcd/ca.pem",`, `"tlz": {"ca": "etcd/ca.pem",`, "unknown field"},
		"no tls key":        {`, "key": "/etc/linkctl/casino-a-key.pem"`, ``, "tls: ca, cert and key are required"},
		"no keys":           {`"keys": {"casino-a"`, `"kees": {"casino-a"`, "unknown field"},
		"own key missing":   {`"keys": {"casino-a"`, `"keys": {"casino-c"`, `keys: no key for this controller "casino-a"`},
		"key not base64":    {`"casino-b": "`, `"casino-b": "!!`, `keys: controller "casino-b": want the base64 of a 32-byte Ed25519 public key`},
		"key too short":     {`"casino-b": "`, `"casino-b": "AAAA`, `keys: controller "casino-b": want the base64`},
	} {
		_, err := ParseConfig("linkctl.json", []byte(strings.Replace(superSample, bad.from, bad.to, 1)))
		if err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(err.Error(), "linkctl.json") {
			t.Errorf("%s: got %v, want an error naming the file with %q", name, err, bad.want)
		}
	}
}

// A level that changes from local to shared, or back, is refused: its
// money is in one place or the other.
func TestSharedLevelChangeRefused(t *testing.T) {
	dir := t.TempDir()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg, err := ParseConfig("linkctl.json", []byte(superSample))
	if err != nil {
		t.Fatal(err)
	}
	noSuper := *cfg
	noSuper.Super = nil
	l, _, err := ledger.Open(dir, ledger.Options{Keys: book.FileKeys{Dir: dir + ".keys"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(&noSuper, l, quiet); err != nil {
		t.Fatal(err)
	}
	if _, err := New(cfg, l, quiet); err == nil || !strings.Contains(err.Error(), "level super: configured shared") {
		t.Fatalf("a local level made shared: %v", err)
	}
	l.Close()
	l, _, err = ledger.Open(t.TempDir(), ledger.Options{Keys: book.FileKeys{Dir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := New(cfg, l, quiet); err != nil {
		t.Fatal(err)
	}
	if _, ok := l.State().SharedLevel("super"); !ok {
		t.Fatal("no SetupShared for the shared level")
	}
	if _, err := New(cfg, l, quiet); err != nil {
		t.Fatalf("the same configuration again: %v", err)
	}
	if _, err := New(&noSuper, l, quiet); err == nil || !strings.Contains(err.Error(), "configured local") {
		t.Fatalf("a shared level made local: %v", err)
	}
}

// The cluster shared by the tests of this file that kill no member; each
// test works under a prefix of its own.
var (
	clusterOnce sync.Once
	clusterC    *etcdtest.Cluster
	clusterErr  error
	prefixes    atomic.Int64
)

func testCluster(t *testing.T) *etcdtest.Cluster {
	t.Helper()
	clusterOnce.Do(func() { clusterC, clusterErr = etcdtest.Start(etcdtest.Options{}) })
	if clusterErr != nil {
		t.Fatal(clusterErr)
	}
	return clusterC
}

func TestMain(m *testing.M) {
	code := m.Run()
	if clusterC != nil {
		clusterC.Stop()
	}
	os.Exit(code)
}

// casinoCfg is controller id's configuration on the group under prefix:
// cabinets egm-1 and egm-2 feed the shared level "super" (reset 1,000 €,
// 1 %) and egm-1 also the local level "mega". Its etcd client files are
// written beside it, and its etcd user is granted its keys of the group.
func casinoCfg(t *testing.T, cl *etcdtest.Cluster, id, prefix string) *Config {
	t.Helper()
	dir := t.TempDir()
	if _, _, _, err := cl.ClientFiles(dir, id); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := super.Grant(ctx, cl.Client(t), prefix, id, []string{"super"}); err != nil {
		t.Fatal(err)
	}
	eps := `"` + strings.Join(cl.Endpoints(), `", "`) + `"`
	text := strings.Replace(superSample, `"10.0.0.1:2379", "10.0.0.2:2379"`, eps, 1)
	text = strings.Replace(text, `"/superjackpot/g1/"`, `"`+prefix+`"`, 1)
	text = strings.Replace(text, `"batch_ms": 200`, `"batch_ms": 50`, 1)
	text = strings.Replace(text, `"controller": "casino-a"`, `"controller": "`+id+`"`, 1)
	text = strings.Replace(text, `"tls": {"ca": "etcd/ca.pem", "cert": "etcd/casino-a.pem", "key": "/etc/linkctl/casino-a-key.pem"}`,
		`"tls": {"ca": "etcd-ca.pem", "cert": "`+id+`.pem", "key": "`+id+`-key.pem"}`, 1)
	cfg, err := ParseConfig(filepath.Join(dir, "linkctl.json"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// casino is a controller's ledger and its superjackpot worker (no SAS
// lines: the tests commit readings and hand hits to the collector).
type casino struct {
	t      *testing.T
	cfg    *Config
	dir    string
	l      *ledger.Ledger
	c      *Controller
	cli    *clientv3.Client
	cancel context.CancelFunc
	done   chan error
}

func newCasino(t *testing.T, cfg *Config, dir string, cli *clientv3.Client) *casino {
	t.Helper()
	cs := &casino{t: t, cfg: cfg, dir: dir, cli: cli}
	keys := dir + ".keys"
	if err := os.MkdirAll(keys, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keys, ledger.KeyName+".key"), testKey(cfg.Controller).Seed(), 0o600); err != nil {
		t.Fatal(err)
	}
	var err error
	if cs.l, _, err = ledger.Open(dir, ledger.Options{Keys: book.FileKeys{Dir: keys}}); err != nil {
		t.Fatal(err)
	}
	if cs.c, err = New(cfg, cs.l, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	if err := cs.c.UseSigner(testKey(cfg.Controller)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cs.stop)
	return cs
}

// start runs the collector and the superjackpot worker.
func (cs *casino) start() {
	ctx, cancel := context.WithCancel(context.Background())
	cs.cancel, cs.done = cancel, make(chan error, 1)
	go cs.c.collect(ctx)
	go func() { cs.done <- cs.c.sup.run(ctx, cs.cli) }()
}

// stop stops the worker and closes the ledger, as a crash would leave it
// (nothing is written at a stop).
func (cs *casino) stop() {
	if cs.cancel != nil {
		cs.cancel()
		<-cs.done
		cs.cancel = nil
	}
	if cs.l != nil {
		cs.l.Close()
		cs.l = nil
	}
}

func (cs *casino) commit(r ledger.Record) ledger.Result {
	cs.t.Helper()
	res, err := cs.l.Commit(r)
	if err != nil {
		cs.t.Fatal(err)
	}
	return res
}

// play commits a reading of machine m with coin-in meter coin.
func (cs *casino) play(m string, coin int64, games uint64) {
	cs.t.Helper()
	cs.commit(ledger.Meters{At: time.Now().UnixNano(), Machine: m, CoinIn: coin, GamesPlayed: games})
}

func (cs *casino) shared() ledger.Shared {
	sh, _ := cs.l.State().SharedLevel("super")
	return sh
}

// hit hands the collector a claim whose machine showed more than the level
// can hold in these tests: the award is the level's value, never held back.
func (cs *casino) hit(m string, game uint64, bet int64) {
	cs.c.hits <- hitClaim{level: "super", at: time.Now(), claim: ledger.Claim{Machine: m, Game: game, Bet: bet, Claimed: 1_000_000_00}}
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func observer(t *testing.T, cli *clientv3.Client, prefix string) *super.Store {
	t.Helper()
	s, err := super.New(cli, prefix, testKeys, "observer", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func pool(t *testing.T, s *super.Store) jackpot.Meters {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	snap, err := s.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lv, ok := snap.Level("super")
	if !ok {
		t.Fatal("no level super in etcd")
	}
	return lv.Meters
}

// Two casinos on one group: every cent of coin-in reaches the pool once,
// both broadcast etcd's value, and two hits claimed at the same time from
// both casinos are paid one after the other: exactly one wins the full
// value, the other the reset value, each pending for its cabinet.
func TestSuperjackpotTwoCasinos(t *testing.T) {
	cl := testCluster(t)
	prefix := fmt.Sprintf("/superjackpot/%s-%d/", t.Name(), prefixes.Add(1))
	obs := observer(t, cl.Client(t), prefix)
	a := newCasino(t, casinoCfg(t, cl, "casino-a", prefix), t.TempDir(), cl.UserClient(t, "casino-a"))
	b := newCasino(t, casinoCfg(t, cl, "casino-b", prefix), t.TempDir(), cl.UserClient(t, "casino-b"))
	if vs := a.c.values(); len(vs) != 1 || vs[0].Level != 2 {
		t.Fatalf("broadcast before etcd's first snapshot: %+v, want the local level alone", vs)
	}
	a.start()
	b.start()
	eventually(t, "both controllers to show the shared level", func() bool {
		return len(a.c.values()) == 2 && len(b.c.values()) == 2
	})
	var coin int64
	for k, cs := range []*casino{a, b} {
		for _, m := range []string{"egm-1", "egm-2"} {
			cs.play(m, 0, 1) // baseline
			meter := int64(0)
			for g := range uint64(20) {
				meter += int64(100*(k+1)) + int64(g)
				cs.play(m, meter, g+2)
			}
			coin += meter
		}
	}
	eventually(t, "every cent of coin-in in etcd", func() bool { return pool(t, obs).QualifyingBets == coin })
	m := pool(t, obs)
	full := jackpot.Cents(m.Current)
	for _, cs := range []*casino{a, b} {
		// etcd may have applied the last batch before the ledger records
		// its answer: wait for the ledger too.
		eventually(t, cs.cfg.Controller+"'s ledger to record every batch applied", func() bool {
			sh := cs.shared()
			return sh.Unbatched == 0 && len(sh.Pending) == 0 && sh.AppliedBet == sh.Fed && sh.Fed != 0
		})
		eventually(t, "the value broadcast", func() bool {
			for _, v := range cs.c.values() {
				if v.Level == 1 && int64(v.Amount) == full {
					return true
				}
			}
			return false
		})
	}

	// The same hit reported again and again, and a hit from each casino.
	a.hit("egm-1", 21, 400)
	b.hit("egm-2", 21, 400)
	a.hit("egm-1", 21, 400)
	b.hit("egm-2", 21, 400)
	var pa, pb []ledger.Payout
	eventually(t, "both claims answered", func() bool {
		pa, pb = a.l.State().PendingPayouts(), b.l.State().PendingPayouts()
		return len(pa) == 1 && len(pb) == 1
	})
	first, second := pa[0], pb[0]
	if first.Order > second.Order {
		first, second = second, first
	}
	t.Logf("%s won %d cents (order %d, revision %d); %s won %d cents (order %d, revision %d); the level held %d cents",
		first.Machine, first.Amount, first.Order, first.Revision, second.Machine, second.Amount, second.Order, second.Revision, full)
	if first.Order != 1 || second.Order != 2 || first.Amount != full || second.Amount != 1000_00 || second.Revision <= first.Revision {
		t.Fatalf("payouts %+v and %+v; want the full value %d cents, then the reset value", first, second, full)
	}
	m = pool(t, obs)
	if m.Hits != 2 || m.Awarded != (first.Amount+second.Amount)*jackpot.MillicentsPerCent {
		t.Fatalf("etcd: %d hits, %d millicents awarded", m.Hits, m.Awarded)
	}
	time.Sleep(300 * time.Millisecond) // the repeated reports: nothing more
	if m := pool(t, obs); m.Hits != 2 {
		t.Fatalf("a repeated report was claimed again: %d hits", m.Hits)
	}
	// The cabinet confirms: the award leaves the pending list, the tally
	// counts it.
	a.commit(ledger.Confirmed{At: 1, Machine: pa[0].Machine, Level: "super", Game: 21})
	if sh := a.shared(); sh.ConfirmedAwards != 1 || sh.ConfirmedCents != pa[0].Amount || len(a.l.State().PendingPayouts()) != 0 {
		t.Fatalf("after the confirmation: %+v", sh)
	}
	if st := a.c.Stats(); st.SuperBatches == 0 || st.Hits != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// A controller that crashed between recording and sending: a batch
// recorded and never sent, a batch etcd applied whose answer was lost, and
// a claim etcd paid whose answer was lost. Restarted, it sends them again,
// unchanged: each counts once.
func TestSuperjackpotResendAfterCrash(t *testing.T) {
	cl := testCluster(t)
	prefix := fmt.Sprintf("/superjackpot/%s-%d/", t.Name(), prefixes.Add(1))
	obs := observer(t, cl.Client(t), prefix)
	cfg := casinoCfg(t, cl, "casino-a", prefix)
	cli := cl.UserClient(t, "casino-a")
	dir := t.TempDir()
	a := newCasino(t, cfg, dir, cli)
	a.start()
	a.play("egm-1", 0, 1)
	a.play("egm-1", 5000, 2)
	eventually(t, "the first batch applied", func() bool { return a.shared().Applied == 1 })
	a.stop()

	// What the crashed controller left: batch 2 recorded and applied in
	// etcd without its answer; batch 3 recorded, never sent; a claim paid
	// in etcd without its answer.
	a = newCasino(t, cfg, dir, cli)
	a.play("egm-1", 12000, 3)
	b2 := *a.commit(ledger.SuperBatch{At: 2, Level: "super", Seq: 2, Bet: 7000}).Batch
	sameID, err := super.New(cli, prefix, testKeys, "casino-a", testKey("casino-a"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := sameID.Contribute(ctx, super.Batch{Seq: b2.Seq, Bet: b2.Bet, At: b2.At, Level: "super"}); err != nil {
		t.Fatal(err)
	}
	a.play("egm-1", 12500, 4)
	a.commit(ledger.SuperBatch{At: 3, Level: "super", Seq: 3, Bet: 500})
	sc := *a.commit(ledger.SuperClaim{At: 4, Level: "super", Machine: "egm-1", Game: 4, Bet: 400, Claimed: 1000_00}).SuperClaim
	paid, err := sameID.Claim(ctx, super.HitID{Machine: sc.Machine, Game: sc.Game, Level: sc.Level, Bet: sc.Bet, At: sc.At}, 0)
	if err != nil {
		t.Fatal(err)
	}
	a.play("egm-2", 0, 1)
	a.play("egm-2", 800, 2) // fed after the crash, not batched yet

	a.start()
	eventually(t, "the batches resent and the claim answered", func() bool {
		sh := a.shared()
		return sh.Applied == 4 && sh.Answered == 1
	})
	m := pool(t, obs)
	if m.QualifyingBets != 13300 || m.Hits != 1 {
		t.Fatalf("etcd: %d cents of bets (want 13300, each once), %d hits", m.QualifyingBets, m.Hits)
	}
	p := a.l.State().PendingPayouts()
	if len(p) != 1 || p[0].Amount != paid.Cents() || p[0].Revision != paid.Revision || p[0].Order != 1 {
		t.Fatalf("payout %+v, etcd paid %+v", p, paid)
	}
	if st := a.c.Stats(); st.SuperReplayed != 1 {
		t.Fatalf("stats %+v: want one batch found applied", st)
	}
}

// A partitioned controller keeps recording coin-in and claims nothing; it
// rejoins and sends it all, once.
func TestSuperjackpotPartition(t *testing.T) {
	cl := testCluster(t)
	prefix := fmt.Sprintf("/superjackpot/%s-%d/", t.Name(), prefixes.Add(1))
	obs := observer(t, cl.Client(t), prefix)
	proxies := cl.Proxies(t)
	a := newCasino(t, casinoCfg(t, cl, "casino-a", prefix), t.TempDir(), cl.UserClient(t, "casino-a", proxies.Addrs()...))
	a.c.sup.op = time.Second
	a.start()
	a.play("egm-1", 0, 1)
	a.play("egm-1", 1000, 2)
	eventually(t, "the first batch applied", func() bool { return a.shared().Applied == 1 })
	proxies.SetMode(etcdtest.Refuse)
	var coin int64 = 1000
	for g := range uint64(30) {
		coin += 100 + int64(g)
		a.play("egm-1", coin, g+3)
		time.Sleep(20 * time.Millisecond)
	}
	a.hit("egm-1", 32, 400)
	time.Sleep(500 * time.Millisecond)
	if sh := a.shared(); sh.Applied != 1 || sh.Claims != 0 {
		t.Fatalf("partitioned: %+v", sh)
	}
	proxies.SetMode(etcdtest.Pass)
	a.hit("egm-1", 32, 400)
	eventually(t, "the coin-in and the claim through", func() bool {
		sh := a.shared()
		return sh.Unbatched == 0 && len(sh.Pending) == 0 && sh.Answered == 1
	})
	if m := pool(t, obs); m.QualifyingBets != coin || m.Hits != 1 {
		t.Fatalf("etcd: %d cents of bets, want %d; %d hits", m.QualifyingBets, coin, m.Hits)
	}
}

// startedCasino is casino-a, running, on the shared cluster under a prefix
// of the test's own.
func startedCasino(t *testing.T) (*etcdtest.Cluster, string, *clientv3.Client, *casino) {
	cl := testCluster(t)
	prefix := fmt.Sprintf("/superjackpot/%s-%d/", t.Name(), prefixes.Add(1))
	cli := cl.Client(t)
	a := newCasino(t, casinoCfg(t, cl, "casino-a", prefix), t.TempDir(), cl.UserClient(t, "casino-a"))
	a.start()
	return cl, prefix, cli, a
}

// A shared level configured differently from etcd's stops the controller
// with an error that says so; so does a ledger that does not know the
// batches etcd applied for its controller ID.
func TestSuperjackpotMismatchRefused(t *testing.T) {
	cl, prefix, cli, a := startedCasino(t)
	a.play("egm-1", 0, 1)
	a.play("egm-1", 1000, 2)
	eventually(t, "a batch applied", func() bool { return a.shared().Applied == 1 })
	a.stop()

	run := func(cfg *Config) error {
		cs := newCasino(t, cfg, t.TempDir(), cli)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		err := cs.c.Run(ctx)
		if ctx.Err() != nil {
			t.Fatalf("still running after 20 s: %v", err)
		}
		return err
	}
	other := casinoCfg(t, cl, "casino-b", prefix)
	other.Levels[0].RatePPM++
	err := run(other)
	if !errors.Is(err, super.ErrConfigMismatch) || !strings.Contains(err.Error(), "every controller of the group must configure it alike") {
		t.Fatalf("another rate: %v", err)
	}
	t.Logf("refused as expected: %v", err)
	err = run(casinoCfg(t, cl, "casino-a", prefix)) // a new ledger, the same ID
	if !errors.Is(err, errFatal) || !strings.Contains(err.Error(), "this ledger recorded 1-0") {
		t.Fatalf("a new ledger under a used controller ID: %v", err)
	}
	t.Logf("refused as expected: %v", err)
}

// A controller cut off from etcd (a silent partition: nothing answers)
// stops broadcasting the shared level once etcd has not confirmed its value
// for the configured bound, and broadcasts it again once etcd does: a value
// another casino may have won meanwhile is never shown for longer.
func TestSharedValueWithdrawnWhenUnconfirmed(t *testing.T) {
	cl := testCluster(t)
	prefix := fmt.Sprintf("/superjackpot/%s-%d/", t.Name(), prefixes.Add(1))
	proxies := cl.Proxies(t)
	cli := cl.UserClient(t, "casino-a", proxies.Addrs()...)
	cfg := casinoCfg(t, cl, "casino-a", prefix)
	cfg.Super.ConfirmMS = 1500
	a := newCasino(t, cfg, t.TempDir(), cli)
	a.c.sup.op = time.Second
	a.start()
	shown := func() bool { _, ok := a.c.sup.value("super"); return ok }
	eventually(t, "etcd's value broadcast", shown)
	for _, mode := range []etcdtest.Mode{etcdtest.Blackhole, etcdtest.Refuse} {
		cut := time.Now()
		proxies.SetMode(mode)
		eventually(t, "the value withdrawn", func() bool { return !shown() })
		t.Logf("mode %d: withdrawn %v after the cut (bound 1.5 s since etcd's last confirmation)", mode, time.Since(cut).Round(time.Millisecond))
		time.Sleep(time.Second)
		if shown() {
			t.Fatalf("mode %d: broadcast again while cut off", mode)
		}
		proxies.SetMode(etcdtest.Pass)
		eventually(t, "the value broadcast again", shown)
	}
}

// The superjackpot's report, read from etcd at one revision: per level the
// liability, seed funding, contributions and awards with the identity to
// the millicent, the claims adding up to the awards, per controller; signed
// by an inspector's key, it verifies, and a changed figure does not.
func TestSuperReportSignedAgainstEtcd(t *testing.T) {
	_, prefix, cli, a := startedCasino(t)
	a.play("egm-1", 0, 1)
	a.play("egm-1", 12_345_00, 2)
	a.hit("egm-1", 2, 400)
	eventually(t, "the batch applied and the claim answered", func() bool { sh := a.shared(); return sh.Unbatched == 0 && sh.Answered == 1 })
	store, err := super.New(cli, prefix, testKeys, "inspector", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	audit, err := store.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r, err := BuildSuperReport(prefix, audit)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Holds || len(r.Levels) != 1 || r.Levels[0].Claims != 1 || r.Levels[0].Hits != 1 || r.Levels[0].QualifyingBets != 12_345_00 ||
		r.Total.SeedFunding != r.Levels[0].SeedFunding || r.Total.Liability != r.Levels[0].Current+r.Levels[0].Reserve+r.Levels[0].Overflow {
		t.Fatalf("report %+v", r)
	}
	if len(r.Controllers) != 1 || r.Controllers[0].Controller != "casino-a" || r.Controllers[0].LastBatch != a.shared().Applied {
		t.Fatalf("controllers %+v", r.Controllers)
	}
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	doc, sig, err := SignSuperReport(r, priv)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := VerifySuperReport(doc, sig, pub); err != nil {
		t.Fatal(err)
	}
	changed := bytes.Replace(doc, []byte(fmt.Sprintf(`"seed_funding_mc": %d`, r.Total.SeedFunding)), []byte(`"seed_funding_mc": 1`), 1)
	if _, err := VerifySuperReport(changed, sig, pub); err == nil {
		t.Fatal("a changed report verified")
	}
	var text bytes.Buffer
	r.WriteText(&text)
	t.Logf("\n%s", text.String())
}
