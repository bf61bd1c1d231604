package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/openegm/cabinet/internal/etcdtest"
	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/jackpot/link"
	"github.com/openegm/cabinet/jackpot/super"
	"github.com/openegm/cabinet/machine"
)

// forgedBet is the forged batch's bet: 50,000.00 €.
const forgedBet = 5_000_000

// Someone with etcd's root credentials (its administrator, a stolen root
// certificate) forges a batch in casino-b's name: the next batch casino-b
// would send, 50,000.00 € of bets, written where and as casino-b writes
// it, its head moved on and the pools counting it, all in one transaction,
// but signed with a key that is not the one registered for casino-b. (With
// casino-a's own credentials etcd refuses the write outright.) The real
// controllers and the operator's linkctl detect it, name it, and count it
// nowhere: the inspector's report lists it as rejected with the figures
// without it, each controller logs an ERROR and records an event naming it
// in its ledger, the cabinets show the genuine value, casino-b's next batch
// takes its place, and at the end etcd's pool holds exactly the cabinets'
// coin-in.
func TestSuperjackpotForgedBatch(t *testing.T) {
	t.Parallel()
	cl := etcdtest.New(t)
	g := newSuperGroup(t, cl, "casino-a", "casino-b")
	obs := g.observer(t)
	a := newSuperCasino(t, g, "casino-a", "egm-a", "broadcast")
	b := newSuperCasino(t, g, "casino-b", "egm-b", "broadcast")
	both := []*superCasino{a, b}
	for i, cs := range both {
		cs.waitShown(1)
		if play(t, cs.cab(), i, 6) {
			cs.waitPaid()
		}
	}
	genuine := settled(t, obs, both)

	// casino-a's etcd user may not write casino-b's next batch: etcd says
	// so before any signature is looked at.
	log, err := obs.Batches(opCtx(t), "casino-b")
	if err != nil {
		t.Fatal(err)
	}
	key := fmt.Sprintf("%sbatches/casino-b/%020d", superPrefix, log.Last+1)
	if _, err := cl.UserClient(t, "casino-a").Put(opCtx(t), key, "{}"); !errors.Is(err, rpctypes.ErrPermissionDenied) {
		t.Fatalf("casino-a's etcd user wrote casino-b's batch: %v, want permission denied", err)
	}

	forgeBatch(t, cl.Client(t), obs, "casino-b", log.Last+1)
	t.Logf("forged %s: %d cents of bets in casino-b's name", key, forgedBet)

	// The inspector's report, at once: the forgery rejected, not money.
	code, out := linkctl(t, "super-report", "--config", a.config)
	for _, want := range []string{"DOES NOT HOLD", "FORGED VALUES REJECTED", "REJECTED, not counted: " + key, `signed as "casino-b"`,
		fmt.Sprintf("%d cents of bets", forgedBet)} {
		if code != 1 || !strings.Contains(out, want) {
			t.Fatalf("super-report after the forgery: exit %d, want 1 and %q in:\n%s", code, want, out)
		}
	}
	t.Logf("super-report after the forgery:\n%s", out)
	r := superReportJSON(t, a.config)
	if r.Holds || r.Levels[0].QualifyingBets != genuine.QualifyingBets || r.Levels[0].Contributions != genuine.Contributions || !rejects(r, key) {
		t.Fatalf("the report after the forgery counts %+v, rejects %+v; etcd's genuine pool %+v", r.Levels[0].Figures, r.Rejected, genuine)
	}

	// Both controllers name it: an ERROR in the log, an event in the ledger.
	for _, cs := range both {
		deadline := time.Now().Add(30 * time.Second)
		for !forgedEvent(ledgerState(t, cs.ctlData).Events(), key) {
			if time.Now().After(deadline) {
				t.Fatalf("%s recorded no event naming %s: %+v", cs.id, key, ledgerState(t, cs.ctlData).Events())
			}
			time.Sleep(100 * time.Millisecond)
		}
		logText, _ := os.ReadFile(filepath.Join(cs.ctlData, "linkctl.log"))
		line := slices.IndexFunc(strings.Split(string(logText), "\n"), func(l string) bool {
			return strings.Contains(l, "level=ERROR") && strings.Contains(l, "does not verify") && strings.Contains(l, "key="+key)
		})
		if line < 0 {
			t.Fatalf("%s logged no ERROR naming %s:\n%s", cs.id, key, logText)
		}
		// Its cabinet shows the genuine value, not one with the forged bet.
		cs.cab().WaitFor(cs.cabID+" to show the genuine value", func(v machine.View) bool {
			return len(v.Jackpots) == 1 && v.Jackpots[0].Cents == jackpot.Cents(genuine.Current) && !v.LinkDown
		})
	}

	// Play on: casino-b's next batch takes the forged one's place, and the
	// pool holds the cabinets' coin-in, the forged bet not in it.
	for i, cs := range both {
		if play(t, cs.cab(), i, 4) {
			cs.waitPaid()
		}
	}
	end := settled(t, obs, both)
	bl, err := obs.Batches(opCtx(t), "casino-b")
	if err != nil {
		t.Fatal(err)
	}
	if k := slices.IndexFunc(bl.Records, func(r super.Contributed) bool { return r.Seq == log.Last+1 }); k < 0 || bl.Records[k].Bet == forgedBet {
		t.Fatalf("casino-b's batch %d after the forgery: %+v", log.Last+1, bl.Records)
	}
	r = superReportJSON(t, a.config)
	for _, x := range r.Rejected {
		if x.ReplacedBy == "" {
			t.Fatalf("after play went on, %s is still in etcd", x.Key)
		}
	}
	if r.Holds || !r.Levels[0].Figures.Holds || r.Levels[0].QualifyingBets != end.QualifyingBets || !rejects(r, key) {
		t.Fatalf("the report after play went on: %+v, rejected %+v; etcd's pool %+v", r.Levels[0], r.Rejected, end)
	}

	// Both ledgers verify, hold, and keep the event.
	for _, cs := range both {
		cs.stopController(syscall.SIGTERM)
		v, lr := cs.report()
		if !lr.Holds || !forgedEvent(v.State.Events(), key) {
			t.Fatalf("%s: report holds %v, events %+v", cs.id, lr.Holds, v.State.Events())
		}
	}
	t.Logf("%d cents of bets in etcd's pool, every one a cabinet's; the forged %d cents rejected by both controllers", end.QualifyingBets, forgedBet)
}

// settled waits until both controllers have sent and etcd applied every
// cent of their cabinets' linked coin-in, and every claim is answered; it
// returns etcd's (genuine) pool then.
func settled(t *testing.T, obs *super.Store, casinos []*superCasino) jackpot.Meters {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var coin int64
		quiet := true
		for _, cs := range casinos {
			coin += cabinetLedger(t, cs.cabData[0]).LinkedCoinIn
			st := ledgerState(t, cs.ctlData)
			sh, _ := st.SharedLevel("super")
			quiet = quiet && sh.Unbatched == 0 && len(sh.Pending) == 0 && len(st.PendingSuperClaims()) == 0 && len(st.PendingPayouts()) == 0
		}
		snap, err := obs.Current(opCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		lv, _ := snap.Level("super")
		if quiet && lv.Meters.QualifyingBets == coin {
			return lv.Meters
		}
		if time.Now().After(deadline) {
			t.Fatalf("etcd's pool counts %d cents of bets, the cabinets' linked coin-in is %d (controllers quiet: %v)", lv.Meters.QualifyingBets, coin, quiet)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// forgeBatch writes, with etcd's root client, batch seq of controller id
// as the controller would (its record, its head, the pools counting it, in
// one transaction on the pools as they are), each value in the group's
// envelope but signed with a key of the forger's own.
func forgeBatch(t *testing.T, root *clientv3.Client, obs *super.Store, id string, seq uint64) {
	t.Helper()
	pk := superPrefix + "pool"
	cur, err := root.Get(opCtx(t), pk)
	if err != nil || len(cur.Kvs) != 1 {
		t.Fatalf("the pools: %v", err)
	}
	p, _, err := obs.Pools(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().UnixNano()
	res, err := p.Apply(jackpot.Contribute{Levels: []string{"super"}, Bet: forgedBet, Where: id, Game: seq, At: at})
	if err != nil {
		t.Fatal(err)
	}
	state, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	ch := res.Changes[0]
	rec, err := json.Marshal(super.Contributed{Batch: super.Batch{Controller: id, Seq: seq, Bet: forgedBet, At: at, Level: "super"},
		PoolSeq: res.Seq, Contribution: ch.After.Contributions - ch.Before.Contributions, Hidden: ch.After.HiddenContributions - ch.Before.HiddenContributions})
	if err != nil {
		t.Fatal(err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	seal := func(data []byte) string {
		env, err := json.Marshal(map[string]any{"by": id, "data": data, "sig": ed25519.Sign(priv, data)})
		if err != nil {
			t.Fatal(err)
		}
		return string(env)
	}
	resp, err := root.Txn(opCtx(t)).If(clientv3.Compare(clientv3.ModRevision(pk), "=", cur.Kvs[0].ModRevision)).Then(
		clientv3.OpPut(pk, seal(state)),
		clientv3.OpPut(fmt.Sprintf("%sbatches/%s/%020d", superPrefix, id, seq), seal(rec)),
		clientv3.OpPut(superPrefix+"heads/"+id, seal(fmt.Appendf(nil, "%020d", seq))),
	).Commit()
	if err != nil || !resp.Succeeded {
		t.Fatalf("forging: the pools changed meanwhile, or %v", err)
	}
}

// superReportJSON runs the operator's super-report with --json.
func superReportJSON(t *testing.T, config string) *link.SuperReport {
	t.Helper()
	code, out := linkctl(t, "super-report", "--config", config, "--json")
	var r link.SuperReport
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Levels) != 1 || (code == 0) != r.Holds {
		t.Fatalf("super-report --json: exit %d, %v:\n%s", code, err, out)
	}
	return &r
}

func rejects(r *link.SuperReport, key string) bool {
	return slices.ContainsFunc(r.Rejected, func(x link.SuperRejected) bool {
		return x.Key == key && x.SignedAs == "casino-b" && strings.Contains(x.Claimed, fmt.Sprintf("%d cents of bets", forgedBet))
	})
}

func forgedEvent(events []ledger.Event, key string) bool {
	return slices.ContainsFunc(events, func(e ledger.Event) bool {
		return e.Code == ledger.EventSuperForged && strings.Contains(e.Detail, key) && strings.Contains(e.Detail, fmt.Sprintf("%d cents of bets", forgedBet))
	})
}
