package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/internal/etcdtest"
	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/jackpot/link"
	"github.com/openegm/cabinet/jackpot/super"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
)

// superCasino is one casino of a superjackpot group: one cabinet, feeding
// the shared level "super" (SAS level 1), and its own controller, which
// reaches the etcd members through proxies of its own (to cut it off).
type superCasino struct {
	*casino
	id      string // controller
	cabID   string
	proxies etcdtest.Proxies
}

const (
	superPrefix = "/superjackpot/e2e/"
	superReset  = 1000_00 // cents
)

// superGroup is what the operators of a group set up before the
// controllers start: each controller's signing key (on its board), its
// public key registered in every configuration, and its etcd user, granted
// its keys of the group by etcd's administrator.
type superGroup struct {
	cl   *etcdtest.Cluster
	keys map[string]ed25519.PrivateKey
}

func newSuperGroup(t *testing.T, cl *etcdtest.Cluster, ids ...string) *superGroup {
	t.Helper()
	g := &superGroup{cl: cl, keys: map[string]ed25519.PrivateKey{}}
	for _, id := range ids {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		g.keys[id] = priv
		if err := super.Grant(opCtx(t), cl.Client(t), superPrefix, id, []string{"super"}); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// ring is the group's registered keys.
func (g *superGroup) ring() super.Keys {
	out := super.Keys{}
	for id, k := range g.keys {
		out[id] = k.Public().(ed25519.PublicKey)
	}
	return out
}

// keysJSON is the configuration's "keys" field.
func (g *superGroup) keysJSON() string {
	var fields []string
	for id, k := range g.keys {
		fields = append(fields, fmt.Sprintf("%q: %q", id, base64.StdEncoding.EncodeToString(k.Public().(ed25519.PublicKey))))
	}
	slices.Sort(fields)
	return `"keys": {` + strings.Join(fields, ", ") + `}`
}

// observer is an inspector's read-only view of the group (as etcd's root).
func (g *superGroup) observer(t *testing.T) *super.Store {
	t.Helper()
	s, err := super.New(g.cl.Client(t), superPrefix, g.ring(), "observer", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newSuperCasino starts a casino of the group; superOpts are more fields
// of its superjackpot section (`"confirm_ms": 2000`). Its board holds the
// key the group registered for it; its configuration names its etcd
// client files (a certificate of the cluster's CA with its ID as common
// name) and the group's registered keys.
func newSuperCasino(t *testing.T, g *superGroup, id, cabID, award string, superOpts ...string) *superCasino {
	cl := g.cl
	cs := &superCasino{casino: &casino{t: t, ctlData: t.TempDir()}, id: id, cabID: cabID, proxies: cl.Proxies(t)}
	board := cs.ctlData + ".board"
	if err := os.MkdirAll(board, 0o700); err != nil {
		t.Fatal(err)
	}
	pub := base64.StdEncoding.EncodeToString(g.keys[id].Public().(ed25519.PublicKey)) + "\n"
	if err := os.WriteFile(filepath.Join(board, ledger.KeyName+".key"), g.keys[id].Seed(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(board, ledger.KeyName+".pub"), []byte(pub), 0o644); err != nil {
		t.Fatal(err)
	}
	cs.cabArgs = []string{"--paytable-dir", cabinettest.LinkPaytableDir(t, "../.."), "--paytable", "t-link", "--jackpot", "off",
		"--sas-addr", "1", "--sas-pty", "--link-group", fmt.Sprint(group), "--link-levels", "1", "--spin-time", "5ms", "--handpay-limit", "10000000",
		"--link-award", award}
	data := t.TempDir()
	cs.cabData = []string{data}
	cs.cabs = []*cabinettest.Cabinet{cabinettest.Start(t, filepath.Join(binDir, "cabinet"), data, cs.cabArgs...)}
	cfgDir := t.TempDir()
	if _, _, _, err := cl.ClientFiles(cfgDir, id); err != nil {
		t.Fatal(err)
	}
	cs.config = filepath.Join(cfgDir, "linkctl.json")
	cfg := fmt.Sprintf(`{"controller": %q, "group": %d, "broadcast_ms": 200, "meter_ms": 300,
  "levels": [{"id": "super", "sas_level": 1, "reset_cents": %d, "rate_ppm": 50000, "second_hit": "wins-reset"}],
  "channels": [{"name": "line", "pty": %q, "cabinets": [{"id": %q, "addr": 1, "levels": ["super"], "award": %q}]}],
  "superjackpot": {"etcd": ["%s"], "prefix": %q, "levels": ["super"], "batch_ms": 200,
    "tls": {"ca": "etcd-ca.pem", "cert": "%s.pem", "key": "%s-key.pem"}, %s%s}}`,
		id, group, superReset, cs.cabs[0].SASTTY(), cabID, award, strings.Join(cs.proxies.Addrs(), `", "`), superPrefix,
		id, id, g.keysJSON(), strings.Join(append([]string{""}, superOpts...), ", "))
	if err := os.WriteFile(cs.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cs.startController()
	t.Cleanup(func() {
		cs.stopController(syscall.SIGTERM)
		cs.cab().Stop()
	})
	return cs
}

func (cs *superCasino) cab() *cabinettest.Cabinet { return cs.cabs[0] }

// waitAnswered waits until the controller has every claim answered by etcd
// and every award confirmed by its cabinet.
func (cs *superCasino) waitAnswered() {
	cs.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := ledgerState(cs.t, cs.ctlData)
		if len(st.PendingSuperClaims()) == 0 && len(st.PendingPayouts()) == 0 {
			return
		}
		if time.Now().After(deadline) {
			cs.t.Fatalf("%s: claims %v unanswered, payouts %v unconfirmed", cs.id, st.PendingSuperClaims(), st.PendingPayouts())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitPaid waits until the cabinet has no hit pending and plays the
// linked bet.
func (cs *superCasino) waitPaid() {
	cs.t.Helper()
	cs.cab().WaitFor(cs.cabID+": the award paid and the link up", func(v machine.View) bool {
		return len(v.Jackpots) == 1 && !v.Jackpots[0].Pending && !v.LinkDown && v.TopOffered == 1
	})
}

// waitShown waits until the controller has broadcast etcd's value n times
// since the test began (once per start), and the cabinet plays the linked
// bet.
func (cs *superCasino) waitShown(n int) {
	cs.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(cs.ctlData, "linkctl.log"))
		if strings.Count(string(b), "superjackpot value from etcd broadcast") >= n {
			break
		}
		if time.Now().After(deadline) {
			cs.t.Fatalf("%s never broadcast etcd's value (start %d):\n%s", cs.id, n, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cs.waitPaid()
}

// ledgerState folds a copy of a controller's ledger (stopped or killed).
func ledgerState(t *testing.T, data string) *ledger.State {
	t.Helper()
	v, err := ledger.Verify(data, nil)
	if err != nil || v.State == nil {
		t.Fatalf("folding the controller's ledger: %v %+v", err, v)
	}
	return v.State
}

func opCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Two casinos share the superjackpot through a real three-member etcd
// cluster, each with its own linkctl process, ledger and cabinet. While
// they play: the etcd leader is killed; one controller is cut off from
// etcd, SIGKILLed with batches recorded and not confirmed, restarted and
// let back; then both are cut off, each cabinet wins the superjackpot,
// and both come back at once, so their claims race in etcd. At the end
// the pool in etcd holds every cent of both cabinets' coin-in exactly
// once, what it awarded is what the cabinets paid, both cabinets show its
// value, and both ledgers verify and agree with etcd.
func TestSuperjackpotTwoCasinos(t *testing.T) {
	if testing.Short() {
		// Four minutes under the race detector; the plain pass of make test
		// runs it, and jackpot/super's own tests run under -race.
		t.Skip("long end-to-end run: not in -short")
	}
	t.Parallel()
	for _, award := range []string{"addressed", "broadcast"} {
		t.Run(award, func(t *testing.T) { superjackpotTwoCasinos(t, award) })
	}
}

func superjackpotTwoCasinos(t *testing.T, award string) {
	began := time.Now()
	cl := etcdtest.New(t)
	g := newSuperGroup(t, cl, "casino-a", "casino-b")
	obs := g.observer(t)
	// Cut off from etcd, each cabinet must be able to play until it wins:
	// a bound on the value's age (confirm_ms) well above the time that takes,
	// even on a loaded machine: past it the cabinet refuses every game. The
	// configuration allows at most 120000 (a longer bound is refused).
	a := newSuperCasino(t, g, "casino-a", "egm-a", award, `"confirm_ms": 120000`)
	b := newSuperCasino(t, g, "casino-b", "egm-b", award, `"confirm_ms": 120000`)
	both := []*superCasino{a, b}
	for _, cs := range both {
		cs.waitShown(1)
		cs.cab().WaitFor(cs.cabID+" to show the shared value", func(v machine.View) bool {
			return len(v.Jackpots) == 1 && v.Jackpots[0].Linked && v.Jackpots[0].Cents >= superReset && !v.LinkDown && v.TopOffered == 1
		})
	}
	t.Logf("cluster, cabinets and controllers up in %s", time.Since(began).Round(time.Millisecond))

	// 1. The etcd leader killed during play: the controllers carry on,
	// and a hit after it is claimed and paid.
	leader := max(0, cl.WaitLeader(10*time.Second)) // m0 if no leader is known
	killed, hits, games := false, 0, 0
	for hits == 0 {
		for i, cs := range both {
			if play(t, cs.cab(), i, 2) {
				cs.waitPaid()
				if killed {
					hits++
					t.Logf("hit on %s after etcd member m%d was killed", cs.cabID, leader)
				}
			}
		}
		if games += 4; !killed && games >= 24 {
			cl.Kill(leader)
			killed = true
		}
		if games > 2000 {
			t.Fatal("no hit in 2000 games at 1 in 64")
		}
	}

	// 2. Casino A cut off from etcd while its cabinet plays: its batches
	// are recorded and not confirmed when it is SIGKILLed. Restarted (still
	// cut off), then let back, it sends them again, unchanged.
	a.proxies.SetMode(etcdtest.Refuse)
	play(t, a.cab(), 0, 20) // a hit waits until casino-a is back (or, paid by the cabinet, its claim does)
	// A reading after the last game, then a batch round: the worker may
	// first spend its etcd timeout on a claim it cannot send.
	for deadline := time.Now().Add(20 * time.Second); len(ledgerState(t, a.ctlData).Unsent()) == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("casino-a, cut off, recorded no batch in 20 s")
		}
	}
	a.stopController(syscall.SIGKILL)
	unsent := ledgerState(t, a.ctlData).Unsent()
	if len(unsent) == 0 {
		t.Fatal("casino-a was killed with no batch recorded and unconfirmed")
	}
	t.Logf("casino-a killed with batches %+v recorded and not confirmed", unsent)
	a.startController()
	time.Sleep(time.Second)
	a.proxies.SetMode(etcdtest.Pass)
	a.waitShown(2)

	// 3. Both cut off; each cabinet wins the superjackpot meanwhile (its
	// hit waits, locked, or is paid what it showed); both let back at once:
	// the claims race in etcd.
	for _, cs := range both {
		cs.waitAnswered()
	}
	a.proxies.SetMode(etcdtest.Refuse)
	b.proxies.SetMode(etcdtest.Refuse)
	won := []bool{false, false}
	for round := 0; !won[0] || !won[1]; round++ {
		for i, cs := range both {
			if !won[i] && play(t, cs.cab(), i, 2) {
				won[i] = true
			}
		}
		if round > 500 {
			t.Fatal("no hit on both cabinets in 1000 games each")
		}
	}
	before, err := obs.Current(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	history, err := obs.History(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	a.proxies.SetMode(etcdtest.Pass)
	b.proxies.SetMode(etcdtest.Pass)
	for _, cs := range both {
		cs.waitPaid()
	}
	var after []super.Claimed
	for deadline := time.Now().Add(30 * time.Second); len(after) < len(history)+2; time.Sleep(50 * time.Millisecond) {
		if after, err = obs.History(opCtx(t)); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("claims in etcd: %d before the race, %d now", len(history), len(after))
		}
	}
	race := after[len(history):]
	if len(race) != 2 || race[0].Machine == race[1].Machine || race[1].Order != race[0].Order+1 {
		t.Fatalf("claims paid after both came back: %+v", race)
	}
	// Each award is what the level held when etcd committed it, held to
	// what the cabinet showed (addressed mode: the first takes the value
	// before the race plus what came in until its claim, its own casino's
	// coin-in sent first; the second only the reset value plus what came in
	// between the two), or exactly what the cabinet showed and paid
	// (broadcast mode).
	var batches []super.Contributed
	for _, cs := range both {
		bl, err := obs.Batches(opCtx(t), cs.id)
		if err != nil {
			t.Fatal(err)
		}
		batches = append(batches, bl.Records...)
	}
	between := func(from, to int64) (mc int64) {
		for _, r := range batches {
			if r.Revision > from && r.Revision < to {
				mc += r.Contribution - r.Hidden
			}
		}
		return mc
	}
	lv, _ := before.Level("super")
	want1 := jackpot.ShownAward(jackpot.Cents(lv.Meters.Current+between(before.Revision, race[0].Revision))*jackpot.MillicentsPerCent,
		race[0].Shown, award == "broadcast")
	want2 := jackpot.ShownAward(jackpot.Cents(superReset*jackpot.MillicentsPerCent+between(race[0].Revision, race[1].Revision))*jackpot.MillicentsPerCent,
		race[1].Shown, award == "broadcast")
	if race[0].Shown == 0 || race[1].Shown == 0 || race[0].Paid != (award == "broadcast") || race[0].Amount != want1 || race[1].Amount != want2 {
		t.Fatalf("the race paid %s %d and %s %d millicents, shown %d and %d cents; want %d and %d",
			race[0].Machine, race[0].Amount, race[1].Machine, race[1].Amount, race[0].Shown, race[1].Shown, want1, want2)
	}
	t.Logf("%s mode; both cut off with a hit each; back at once: %s claimed first, showed %d cents, won %d cents (order %d, revision %d); %s then showed %d cents, won %d cents (order %d, revision %d); the level held %d cents before",
		award, race[0].Machine, race[0].Shown, race[0].Cents(), race[0].Order, race[0].Revision, race[1].Machine, race[1].Shown, race[1].Cents(), race[1].Order, race[1].Revision, lv.Cents)

	// 4. The end: every cent of coin-in in etcd once, both cabinets show
	// etcd's value.
	var coin, paid [2]int64
	var pool jackpot.Meters
	deadline := time.Now().Add(30 * time.Second)
	for {
		for i, cs := range both {
			st := cabinetLedger(t, cs.cabData[0])
			coin[i], paid[i] = st.LinkedCoinIn, st.Get(meters.MachinePaidProgressive)
			if len(st.PendingHits) != 0 {
				t.Fatalf("%s still has hits pending: %v", cs.cabID, st.PendingHits)
			}
		}
		snap, err := obs.Current(opCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		lv, _ := snap.Level("super")
		pool = lv.Meters
		if pool.QualifyingBets == coin[0]+coin[1] || time.Now().After(deadline) {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	if pool.QualifyingBets != coin[0]+coin[1] {
		t.Fatalf("etcd's pool counted %d cents of bets; the cabinets' linked coin-in is %d + %d", pool.QualifyingBets, coin[0], coin[1])
	}
	for _, cs := range both {
		cs.cab().WaitFor(cs.cabID+" to show etcd's value", func(v machine.View) bool {
			return len(v.Jackpots) == 1 && v.Jackpots[0].Cents == jackpot.Cents(pool.Current)
		})
	}
	for _, cs := range both {
		cs.stopController(syscall.SIGTERM)
	}

	// Every award paid once, by the cabinet that won it; each ledger
	// verifies and agrees with etcd, batch by batch.
	history, err = obs.History(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if pool.Awarded != (paid[0]+paid[1])*jackpot.MillicentsPerCent || pool.Hits != int64(len(history)) {
		t.Fatalf("etcd awarded %d millicents in %d hits (%d claims); the cabinets paid %d + %d cents", pool.Awarded, pool.Hits, len(history), paid[0], paid[1])
	}
	var contributed, answered int64
	for i, cs := range both {
		v, r := cs.report()
		sh, ok := v.State.SharedLevel("super")
		if !ok || !r.Holds {
			t.Fatalf("%s: no shared level, or the report does not hold", cs.id)
		}
		if sh.Fed != coin[i] || sh.AppliedBet != sh.Fed || sh.Unbatched != 0 || len(sh.Pending) != 0 || len(sh.Unanswered) != 0 ||
			sh.ConfirmedAwards != sh.Answered || sh.ConfirmedCents != paid[i] || sh.AwardedCents != paid[i] || len(v.State.PendingPayouts()) != 0 {
			t.Fatalf("%s: shared level %+v; its cabinet's coin-in %d, paid %d", cs.id, sh, coin[i], paid[i])
		}
		bl, err := obs.Batches(opCtx(t), cs.id)
		if err != nil {
			t.Fatal(err)
		}
		var bet, mc int64
		for _, rec := range bl.Records {
			bet += rec.Bet
			mc += rec.Contribution
		}
		if bl.Last != sh.Applied || uint64(len(bl.Records)) != sh.Applied || bet != sh.AppliedBet || mc != sh.Contributed {
			t.Fatalf("%s: etcd holds %d batches (last %d) of %d cents, %d millicents; the ledger %d batches of %d cents, %d millicents",
				cs.id, len(bl.Records), bl.Last, bet, mc, sh.Applied, sh.AppliedBet, sh.Contributed)
		}
		if cs == a {
			for _, u := range unsent {
				k := slices.IndexFunc(bl.Records, func(r super.Contributed) bool { return r.Seq == u.Seq })
				if k < 0 {
					t.Fatalf("casino-a's batch %+v, recorded before the kill, is not in etcd", u)
				}
				if r := bl.Records[k]; r.Bet != u.Bet || r.At != u.At || r.Level != u.Level {
					t.Fatalf("casino-a's batch %+v, recorded before the kill, is in etcd as %+v", u, r)
				}
			}
		}
		for _, c := range history {
			if c.Controller == cs.id && c.Machine != cs.cabID {
				t.Fatalf("%s claimed for %s", cs.id, c.Machine)
			}
		}
		contributed += sh.Contributed
		answered += sh.Answered
	}
	if pool.Contributions != contributed || answered != pool.Hits {
		t.Fatalf("etcd: %d millicents contributed, %d hits; the ledgers: %d, %d", pool.Contributions, pool.Hits, contributed, answered)
	}
	t.Logf("%d + %d cents of coin-in, %d hits paid %d cents in all, in %s", coin[0], coin[1], pool.Hits, paid[0]+paid[1], time.Since(began).Round(time.Millisecond))
}

// A controller that cannot reach etcd (a silent partition) stops showing
// its cabinets a superjackpot value etcd has not confirmed within the bound
// (confirm_ms): the cabinet reports the link down and takes the bet that
// could win it away. Let back, the value returns and so does the bet.
// Before the bound, the cabinet showed the last value as long as the
// partition lasted, though another casino could have won it meanwhile.
// Then the operator's commands against etcd: the group's signed report
// (liability, seed funding, the identity), and a transfer to another level
// of the group, made once though run twice, that keeps the liability.
func TestSuperjackpotBoundReportAndTransfer(t *testing.T) {
	t.Parallel()
	cl := etcdtest.New(t)
	g := newSuperGroup(t, cl, "casino-a", "casino-z")
	a := newSuperCasino(t, g, "casino-a", "egm-a", "broadcast", `"confirm_ms": 2000`)
	a.waitShown(1)
	a.proxies.SetMode(etcdtest.Blackhole)
	cut := time.Now()
	a.cab().WaitFor("the link down", func(v machine.View) bool { return v.LinkDown && v.TopOffered == 0 })
	t.Logf("the cabinet took the superjackpot bet away %v after its controller was cut off (bound 2 s, then the cabinet's 5 s)",
		time.Since(cut).Round(time.Millisecond))
	if r := a.cab().Send(cabinettest.Command{Cmd: "press", Button: machine.BtnMaxBet}); r.Refused == "" && r.View.Level != 0 {
		t.Fatalf("the superjackpot bet played with the value unconfirmed: %+v", r.View)
	}
	a.cab().WaitIdle()
	a.proxies.SetMode(etcdtest.Pass)
	a.waitPaid()

	// The group's signed report, read from etcd by an operator's linkctl.
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	key, doc := filepath.Join(t.TempDir(), "inspector.key"), filepath.Join(t.TempDir(), "super.json")
	os.WriteFile(key, reels.EncodeKey(priv), 0o600)
	if code, out := linkctl(t, "super-report", "--config", a.config, "--key", key, "--out", doc); code != 0 {
		t.Fatalf("super-report: %d %s", code, out)
	}
	body, _ := os.ReadFile(doc)
	sig, _ := os.ReadFile(doc + ".sig")
	r, err := link.VerifySuperReport(body, sig, pub)
	if err != nil || !r.Holds || len(r.Levels) != 1 || r.Levels[0].SeedFunding < superReset*jackpot.MillicentsPerCent {
		t.Fatalf("signed superjackpot report: %+v %v", r, err)
	}
	if code, out := linkctl(t, "super-report", "--config", a.config); code != 0 || !strings.Contains(out, "HOLDS") {
		t.Fatalf("super-report: %d %s", code, out)
	}

	// Rule 6: 300.00 € of the level's value moved to another level of the
	// group (fed by other machines), once though the command runs twice,
	// nothing created or lost: the signed report before and after.
	z, err := super.New(cl.UserClient(t, "casino-z"), superPrefix, g.ring(), "casino-z", g.keys["casino-z"])
	if err != nil {
		t.Fatal(err)
	}
	zcfg := jackpot.Config{ResetValue: superReset * jackpot.MillicentsPerCent, Rate: 50_000, Trigger: jackpot.TriggerPaytable, SecondHit: jackpot.SecondHitWinsReset}
	if _, err := z.Init(opCtx(t), "super-z", zcfg, 0, "casino-z", 1); err != nil {
		t.Fatal(err)
	}
	transfer := []string{"super-transfer", "--config", a.config, "--data", a.ctlData, "--id", "rule6-1", "--from", "super", "--to", "super-z",
		"--current", "30000000", "--who", "op-1", "--why", "machines moved to the other group"}
	for range 2 {
		if code, out := linkctl(t, transfer...); code != 0 || !strings.Contains(out, "moved 30000000 millicents from super to super-z") {
			t.Fatalf("super-transfer: %d %s", code, out)
		}
	}
	if code, out := linkctl(t, "super-report", "--config", a.config, "--key", key, "--out", doc); code != 0 {
		t.Fatalf("super-report after the transfer: %d %s", code, out)
	}
	body, _ = os.ReadFile(doc)
	sig, _ = os.ReadFile(doc + ".sig")
	after, err := link.VerifySuperReport(body, sig, pub)
	if err != nil || !after.Holds || len(after.Levels) != 2 {
		t.Fatalf("report after the transfer: %+v %v", after, err)
	}
	if after.Total.Liability != r.Total.Liability+superReset*jackpot.MillicentsPerCent || after.Levels[0].TransferredOut != 300_00*jackpot.MillicentsPerCent ||
		after.Levels[1].TransferredIn != 300_00*jackpot.MillicentsPerCent || after.Levels[0].Current != r.Levels[0].Current-300_00*jackpot.MillicentsPerCent {
		t.Fatalf("after the transfer: %+v; before %+v (the new level was seeded with %d cents)", after, r, superReset)
	}
}
