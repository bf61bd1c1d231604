package super

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

func mustNew(t testing.TB, cli *clientv3.Client, p string, keys Keyring, id string, signer crypto.Signer, opts ...Option) *Store {
	t.Helper()
	s, err := New(cli, p, keys, id, signer, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// heard collects what OnRejected hands over.
type heard struct {
	mu sync.Mutex
	rs []Rejection
}

func (h *heard) add(r Rejection) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rs = append(h.rs, r)
}

func (h *heard) keys() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.rs {
		out = append(out, r.Key)
	}
	return out
}

// forger is someone who can write any key of etcd (its root user: the
// cluster's administrator, a stolen root certificate) and runs this very
// package as controller id, but signs with a key of its own, not the one
// the operators registered for id (New would refuse it: it is set behind
// its back).
func forger(t *testing.T, c *cluster, p, id string) *Store {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s := mustNew(t, c.Client(t), p, testKeyring{}, id, nil)
	s.signer = priv
	return s
}

// A controller's etcd user may write its own keys and the pools, and
// nothing of another controller's: etcd refuses it (permission denied)
// before any signature is looked at, even if it held the other's signing
// key.
func TestControllerCannotWriteAnothersKeys(t *testing.T) {
	c := sharedCluster(t)
	p := prefix(t)
	root := c.Client(t)
	for _, id := range []string{"casino-a", "casino-b"} {
		if err := Grant(opCtx(t), root, p, id, []string{"grand"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := Grant(opCtx(t), root, p, "casino-a", []string{"grand"}); err != nil {
		t.Fatalf("granting again: %v", err)
	}
	asA := c.UserClient(t, "casino-a")
	a := mustNew(t, asA, p, testKeyring{}, "casino-a", testKey("casino-a"))
	b := mustNew(t, c.UserClient(t, "casino-b"), p, testKeyring{}, "casino-b", testKey("casino-b"))
	for _, s := range []*Store{a, b} {
		if err := s.Publish(opCtx(t)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Init(opCtx(t), "grand", grandCfg, 0, "op", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 1, Bet: 100, Level: "grand", At: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Contribute(opCtx(t), Batch{Seq: 1, Bet: 200, Level: "grand", At: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Claim(opCtx(t), HitID{Machine: "egm-1", Game: 7, Level: "grand", Bet: 400, At: 4}, 0); err != nil {
		t.Fatal(err)
	}

	// casino-a's user, with casino-b's signing key in hand.
	asB := mustNew(t, asA, p, testKeyring{}, "casino-b", testKey("casino-b"))
	if _, err := asB.Contribute(opCtx(t), Batch{Seq: 2, Bet: 100, Level: "grand", At: 5}); !errors.Is(err, rpctypes.ErrPermissionDenied) {
		t.Fatalf("casino-a's user writing casino-b's batch: %v, want permission denied", err)
	} else {
		t.Logf("refused as expected: %v", err)
	}
	if _, err := asB.Claim(opCtx(t), HitID{Machine: "egm-9", Game: 1, Level: "grand", Bet: 400, At: 6}, 0); !errors.Is(err, rpctypes.ErrPermissionDenied) {
		t.Fatalf("casino-a's user writing casino-b's claim: %v, want permission denied", err)
	}
	for _, key := range []string{p + "batches/casino-b/" + fmtSeq(2), p + "heads/casino-b", p + "claims/grand/casino-b/egm-9/" + fmtSeq(1),
		p + "keys/casino-b", p + "rejected/casino-b/x", p + "claims/grand/casino-bb/egm-9/" + fmtSeq(1), "/elsewhere"} {
		if _, err := asA.Put(opCtx(t), key, "x"); !errors.Is(err, rpctypes.ErrPermissionDenied) {
			t.Fatalf("casino-a's user put %s: %v, want permission denied", key, err)
		}
		if _, err := asA.Delete(opCtx(t), key); !errors.Is(err, rpctypes.ErrPermissionDenied) {
			t.Fatalf("casino-a's user deleted %s: %v, want permission denied", key, err)
		}
	}
	// It reads the whole group, and nothing else.
	if log, err := a.Batches(opCtx(t), "casino-b"); err != nil || log.Last != 1 {
		t.Fatalf("casino-a reading casino-b's batches: %+v %v", log, err)
	}
	if _, err := asA.Get(opCtx(t), "/elsewhere"); !errors.Is(err, rpctypes.ErrPermissionDenied) {
		t.Fatalf("casino-a's user read outside the group: %v", err)
	}
	if m := meters(t, mustPools(t, a), "grand"); m.QualifyingBets != 300 || m.Hits != 1 {
		t.Fatalf("pools %+v", m)
	}
}

// A batch forged in casino-b's name (by someone with etcd's root, who
// wrote it exactly as this package would, with the pools counting it, but
// signed with a key that is not casino-b's) is rejected by every reader:
// not counted in the value, named (OnRejected, Audit, the watch), and
// casino-b's own next batch takes its place. The evidence stays.
func TestForgedBatchRejected(t *testing.T) {
	c := sharedCluster(t)
	p := prefix(t)
	var seenA, seenObs heard
	a := mustNew(t, c.Client(t), p, testKeyring{}, "casino-a", testKey("casino-a"), OnRejected(seenA.add))
	b := mustNew(t, c.Client(t), p, testKeyring{}, "casino-b", testKey("casino-b"))
	obs := mustNew(t, c.Client(t), p, testKeyring{}, "inspector", nil, OnRejected(seenObs.add))
	for _, s := range []*Store{a, b} {
		if err := s.Publish(opCtx(t)); err != nil {
			t.Fatal(err)
		}
	}
	initLevels(t, a, levelDef{"grand", grandCfg, 0})
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 1, Bet: 1000, Level: "grand", At: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Contribute(opCtx(t), Batch{Seq: 1, Bet: 2000, Level: "grand", At: 2}); err != nil {
		t.Fatal(err)
	}
	before, err := obs.Current(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	watchCtx := opCtx(t)
	snaps := obs.Watch(watchCtx)
	next(t, snaps, "the watch's first snapshot", func(Snapshot) bool { return true })

	forged, err := forger(t, c, p, "casino-b").Contribute(opCtx(t), Batch{Seq: 2, Bet: 5_000_000, Level: "grand", At: 3})
	if err != nil {
		t.Fatal(err)
	}
	bk := p + "batches/casino-b/" + fmtSeq(2)
	// The watch delivers the genuine pools as of the forgery's revision, and
	// has named the forged batch on its way.
	next(t, snaps, "the watch after the forgery", func(s Snapshot) bool { return s.Revision == forged.Revision })
	if !slices.Contains(seenObs.keys(), bk) {
		t.Fatalf("the watch did not report the forged batch: %v", seenObs.keys())
	}

	// Not counted: every reader sees the pools as they were.
	now, err := obs.Current(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	lv, _ := now.Level("grand")
	was, _ := before.Level("grand")
	if lv.Meters != was.Meters {
		t.Fatalf("after the forgery the pools read %+v, before %+v", lv.Meters, was.Meters)
	}
	if log, err := a.Batches(opCtx(t), "casino-b"); err != nil || log.Last != 1 || len(log.Records) != 1 {
		t.Fatalf("casino-b's batches after the forgery: %+v %v", log, err)
	}
	audit, err := obs.Audit(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	var what []string
	for _, r := range audit.Rejected {
		what = append(what, r.Key)
		if r.Key == bk && (!strings.Contains(r.What, `batch 2 of controller "casino-b": 5000000 cents of bets`) || !strings.Contains(r.Reason, "does not verify with controller \"casino-b\"'s registered key")) {
			t.Fatalf("the forged batch named as %s", r)
		}
	}
	slices.Sort(what)
	if want := []string{bk, p + "heads/casino-b", p + "pool"}; !slices.Equal(what, want) {
		t.Fatalf("audit rejected %v, want %v", what, want)
	}
	if ap, _ := audit.Pools.Level("grand"); ap.Meters != was.Meters || audit.Heads["casino-b"] != 1 {
		t.Fatalf("audit counts %+v (heads %v), want %+v", ap.Meters, audit.Heads, was.Meters)
	}
	t.Logf("rejected: %s", audit.Rejected[0])

	// casino-a's next batch is counted on the genuine pools and replaces
	// the forged ones; casino-b's next batch takes the forged one's place.
	ra, err := a.Contribute(opCtx(t), Batch{Seq: 2, Bet: 300, Level: "grand", At: 4})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.Contribute(opCtx(t), Batch{Seq: 2, Bet: 400, Level: "grand", At: 5})
	if err != nil || rb.Replayed {
		t.Fatalf("casino-b's batch 2 after the forged one: %+v %v", rb, err)
	}
	if !slices.Contains(seenA.keys(), p+"pool") {
		t.Fatalf("casino-a replaced the forged pools without reporting them: %v", seenA.keys())
	}
	if m := meters(t, mustPools(t, obs), "grand"); m.QualifyingBets != 1000+2000+300+400 || m.Contributions != was.Meters.Contributions+ra.Contribution+rb.Contribution {
		t.Fatalf("pools %+v: the forged bet counted?", m)
	}
	if r, err := b.Contribute(opCtx(t), Batch{Seq: 2, Bet: 400, Level: "grand", At: 5}); err != nil || !r.Replayed {
		t.Fatalf("casino-b's batch 2 sent again: %+v %v", r, err)
	}
	audit, err = obs.Audit(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	var replaced []string
	for _, e := range audit.Replaced {
		replaced = append(replaced, e.ReplacedBy+" "+e.Key)
	}
	slices.Sort(replaced)
	if want := []string{"casino-a " + p + "pool", "casino-b " + bk, "casino-b " + p + "heads/casino-b"}; len(audit.Rejected) != 0 || !slices.Equal(replaced, want) {
		t.Fatalf("audit after the replacement: rejected %v, replaced %v; want none and %v", audit.Rejected, replaced, want)
	}
}

// A claim forged in casino-b's name pays nothing: the level's value is not
// reset by it, the history does not list it, the next genuine hit wins
// the full value.
func TestForgedClaimPaysNothing(t *testing.T) {
	c := sharedCluster(t)
	p := prefix(t)
	a := mustNew(t, c.Client(t), p, testKeyring{}, "casino-a", testKey("casino-a"))
	b := mustNew(t, c.Client(t), p, testKeyring{}, "casino-b", testKey("casino-b"))
	for _, s := range []*Store{a, b} {
		if err := s.Publish(opCtx(t)); err != nil {
			t.Fatal(err)
		}
	}
	initLevels(t, a, levelDef{"grand", grandCfg, 0})
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 1, Bet: 100_000, Level: "grand", At: 1}); err != nil {
		t.Fatal(err)
	}
	full := meters(t, mustPools(t, a), "grand").Current
	fake, err := forger(t, c, p, "casino-b").Claim(opCtx(t), HitID{Machine: "egm-x", Game: 9, Level: "grand", Bet: 400, At: 2}, 0)
	if err != nil || fake.Amount != full {
		t.Fatalf("forged claim %+v %v", fake, err)
	}
	if h, err := a.History(opCtx(t)); err != nil || len(h) != 0 {
		t.Fatalf("history after a forged claim: %+v %v", h, err)
	}
	won, err := b.Claim(opCtx(t), HitID{Machine: "egm-1", Game: 3, Level: "grand", Bet: 400, At: 3}, 0)
	if err != nil || won.Amount != full || won.Order != 1 {
		t.Fatalf("casino-b's genuine hit after the forged claim: %+v %v; want the full value %d, order 1", won, err, full)
	}
	audit, err := a.Audit(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	fk := p + "claims/grand/casino-b/egm-x/" + fmtSeq(9)
	if len(audit.Claims) != 1 || audit.Claims[0].Machine != "egm-1" || len(audit.Rejected) != 1 || audit.Rejected[0].Key != fk ||
		!strings.Contains(audit.Rejected[0].What, "won") {
		t.Fatalf("audit: claims %+v, rejected %v", audit.Claims, audit.Rejected)
	}
	if m := meters(t, mustPools(t, a), "grand"); m.Hits != 1 || m.Awarded != full {
		t.Fatalf("pools %+v", m)
	}
}

// A signature is good for one payload at one key, version and group:
// etcd's administrator copying a genuine value elsewhere, or writing an
// older genuine value back, makes a rejected version; the readers keep the
// latest genuine one.
func TestSignatureBoundToKeyAndVersion(t *testing.T) {
	c := sharedCluster(t)
	p := prefix(t)
	root := c.Client(t)
	a := mustNew(t, root, p, testKeyring{}, "casino-a", testKey("casino-a"))
	if err := a.Publish(opCtx(t)); err != nil {
		t.Fatal(err)
	}
	initLevels(t, a, levelDef{"grand", grandCfg, 0})
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 1, Bet: 100, Level: "grand", At: 1}); err != nil {
		t.Fatal(err)
	}
	old, err := root.Get(opCtx(t), p+"pool")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 2, Bet: 200, Level: "grand", At: 2}); err != nil {
		t.Fatal(err)
	}
	rec, err := root.Get(opCtx(t), p+"batches/casino-a/"+fmtSeq(1))
	if err != nil {
		t.Fatal(err)
	}
	for key, val := range map[string][]byte{
		p + "pool":                          old.Kvs[0].Value, // the pools of one batch ago
		p + "batches/casino-a/" + fmtSeq(3): rec.Kvs[0].Value, // batch 1 as batch 3
		"/other-group/pool":                 old.Kvs[0].Value, // another group
	} {
		if _, err := root.Put(opCtx(t), key, string(val)); err != nil {
			t.Fatal(err)
		}
	}
	if m := meters(t, mustPools(t, a), "grand"); m.QualifyingBets != 300 {
		t.Fatalf("the pools read after an old version was written back: %+v", m)
	}
	audit, err := a.Audit(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	var what []string
	for _, r := range audit.Rejected {
		what = append(what, r.Key)
	}
	slices.Sort(what)
	if want := []string{p + "batches/casino-a/" + fmtSeq(3), p + "pool"}; !slices.Equal(what, want) {
		t.Fatalf("rejected %v, want %v", what, want)
	}
	other := mustNew(t, root, "/other-group/", testKeyring{}, "casino-a", testKey("casino-a"))
	if err := other.Publish(opCtx(t)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := other.Pools(opCtx(t)); !errors.Is(err, ErrNotInitialized) {
		t.Fatalf("a group's pools copied into another: %v, want them rejected (no genuine pools)", err)
	}
}

// A value that does not verify with the key registered for its signer is
// rejected only when that controller published that very key in the
// group: otherwise the registration itself may be wrong, and the readers
// stop (ErrUnverified) rather than replace what may be genuine.
func TestUnconfirmedKeyStopsRatherThanRejects(t *testing.T) {
	c := sharedCluster(t)
	p := prefix(t)
	a := mustNew(t, c.Client(t), p, testKeyring{}, "casino-a", testKey("casino-a"))
	initLevels(t, a, levelDef{"grand", grandCfg, 0})
	// casino-c writes with a key other than the one registered here (a
	// registration gone wrong, or a forgery: nobody can tell yet).
	if _, err := forger(t, c, p, "casino-c").Contribute(opCtx(t), Batch{Seq: 1, Bet: 100, Level: "grand", At: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 1, Bet: 100, Level: "grand", At: 2}); !errors.Is(err, ErrUnverified) {
		t.Fatalf("a batch on pools signed with an unconfirmed key: %v, want ErrUnverified", err)
	} else {
		t.Logf("stopped as expected: %v", err)
	}
	if snap, err := a.Current(opCtx(t)); !errors.Is(err, ErrUnverified) || snap.Err == nil {
		t.Fatalf("current: %v", err)
	}
	// casino-c publishes its registered key: the value is now a forgery.
	cc := mustNew(t, c.Client(t), p, testKeyring{}, "casino-c", testKey("casino-c"))
	if err := cc.Publish(opCtx(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 1, Bet: 100, Level: "grand", At: 2}); err != nil {
		t.Fatalf("after casino-c published its key: %v", err)
	}
	if m := meters(t, mustPools(t, a), "grand"); m.QualifyingBets != 100 {
		t.Fatalf("pools %+v", m)
	}
	// Unregistered signers stop the readers too.
	only := mustNew(t, c.Client(t), p, Keys{"casino-c": testKey("casino-c").Public().(ed25519.PublicKey)}, "x", nil)
	if _, _, err := only.Pools(opCtx(t)); !errors.Is(err, ErrUnverified) || !strings.Contains(err.Error(), `"casino-a", whose key is not registered`) {
		t.Fatalf("pools signed by an unregistered controller: %v", err)
	}
}

// A Store writes only with the key registered for its controller, and a
// Store without a key only reads.
func TestStoreKeys(t *testing.T) {
	c := sharedCluster(t)
	other := testKey("someone else")
	if _, err := New(c.Client(t), prefix(t), testKeyring{}, "casino-a", other); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "not the key registered for controller") {
		t.Fatalf("a store signing with another key: %v", err)
	}
	if _, err := New(c.Client(t), prefix(t), Keys{}, "casino-a", testKey("casino-a")); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a store of an unregistered controller: %v", err)
	}
	ro := mustNew(t, c.Client(t), prefix(t), testKeyring{}, "casino-a", nil)
	if _, err := ro.Init(opCtx(t), "grand", grandCfg, 0, "op", 1); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "only reads") {
		t.Fatalf("init by a read-only store: %v", err)
	}
}

// The signed message separates every field: moving bytes between the
// prefix, the key, the signer, the create revision and the version, or
// changing the payload, changes it.
func TestMessageFields(t *testing.T) {
	base := message("/g/", "heads/a", "a", 0, 1, []byte("x"))
	for name, m := range map[string][]byte{
		"prefix/key boundary": message("/g/heads/", "a", "a", 0, 1, []byte("x")),
		"key":                 message("/g/", "heads/b", "a", 0, 1, []byte("x")),
		"signer":              message("/g/", "heads/a", "b", 0, 1, []byte("x")),
		"create":              message("/g/", "heads/a", "a", 5, 1, []byte("x")),
		"version":             message("/g/", "heads/a", "a", 0, 2, []byte("x")),
		"payload":             message("/g/", "heads/a", "a", 0, 1, []byte("y")),
	} {
		if string(m) == string(base) {
			t.Errorf("%s: the same message", name)
		}
	}
	if !strings.HasPrefix(string(base), signLabel) {
		t.Fatal("no label")
	}
}

// Pools deleted by etcd's administrator are not created afresh (which
// would wipe what they held), and pools rolled back to their first,
// genuine, version (deleted and written back) are not built upon: each
// stops the group with an error that says so.
// newGroupPools is a new group whose pools casino-a created, with the
// etcd root's client and the pools' first version as etcd holds it.
func newGroupPools(t *testing.T) (root *clientv3.Client, p string, a *Store, first *clientv3.GetResponse) {
	t.Helper()
	root, p = sharedCluster(t).Client(t), prefix(t)
	a = mustNew(t, root, p, testKeyring{}, "casino-a", testKey("casino-a"))
	initLevels(t, a, levelDef{"grand", grandCfg, 0})
	first, err := root.Get(opCtx(t), p+"pool")
	if err != nil {
		t.Fatal(err)
	}
	return root, p, a, first
}

// watchRefuses waits for the watch to refuse pools with an error saying
// says, failing if it shows grand with other bets than bets first.
func watchRefuses(t *testing.T, snaps <-chan Snapshot, bets int64, says string) {
	t.Helper()
	for deadline := time.After(20 * time.Second); ; {
		select {
		case s := <-snaps:
			if s.Err == nil && grandOf(s).QualifyingBets != bets {
				t.Fatalf("the watch delivered pools rolled back: %+v", grandOf(s))
			}
			if errors.Is(s.Err, ErrCorrupt) && strings.Contains(s.Err.Error(), says) {
				t.Logf("the watch: %v", s.Err)
				return
			}
		case <-deadline:
			t.Fatalf("the watch never refused the pools with %q", says)
		}
	}
}

func TestPoolsDeletedOrRolledBackStop(t *testing.T) {
	root, p, a, first := newGroupPools(t)
	display := mustNew(t, root, p, testKeyring{}, "display", nil, WatchResync(200*time.Millisecond))
	snaps := display.Watch(opCtx(t))
	for seq := uint64(1); seq <= 2; seq++ {
		if _, err := a.Contribute(opCtx(t), Batch{Seq: seq, Bet: 100_000, Level: "grand", At: int64(seq)}); err != nil {
			t.Fatal(err)
		}
	}
	next(t, snaps, "the pools after two batches", func(s Snapshot) bool { return grandOf(s).QualifyingBets == 200_000 })
	if _, err := root.Delete(opCtx(t), p+"pool"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Init(opCtx(t), "grand", grandCfg, 0, "test", 9); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "not created again") {
		t.Fatalf("init after the pools were deleted: %v, want them not created again", err)
	} else {
		t.Logf("refused as expected: %v", err)
	}
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 3, Bet: 100, Level: "grand", At: 3}); !errors.Is(err, ErrNotInitialized) {
		t.Fatalf("contribute without pools: %v", err)
	}
	// The first genuine version written back: it verifies (version 1 of a
	// key created by that write), but it is behind the batches applied.
	if _, err := root.Put(opCtx(t), p+"pool", string(first.Kvs[0].Value)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 3, Bet: 100, Level: "grand", At: 3}); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "rolled back") {
		t.Fatalf("contribute on pools rolled back to their creation: %v", err)
	} else {
		t.Logf("refused as expected: %v", err)
	}
	// The display's watch does not show them.
	watchRefuses(t, snaps, 200_000, "rolled back")
}

// The first version of the pools is the one old version whose signature
// still holds after etcd's administrator deletes the key and writes it
// back. Written back over a group's history (a batch, or a claim only), it
// is refused by every reader, a store that never saw the newer pools too:
// no claim is paid from it, no level added to it, no display shows it, and
// the inspector's audit says so.
func TestRolledBackPoolsRefusedByEveryReader(t *testing.T) {
	for _, history := range []string{"batch", "claim"} {
		t.Run(history, func(t *testing.T) {
			root, p, a, first := newGroupPools(t)
			b := mustNew(t, root, p, testKeyring{}, "casino-b", testKey("casino-b"))
			var err error
			switch history {
			case "batch":
				_, err = a.Contribute(opCtx(t), Batch{Seq: 1, Bet: 100_000, Level: "grand", At: 1})
			case "claim":
				_, err = a.Claim(opCtx(t), HitID{Machine: "egm-1", Game: 1, Level: "grand", Bet: 400, At: 1}, 0)
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := root.Delete(opCtx(t), p+"pool"); err != nil {
				t.Fatal(err)
			}
			if _, err := root.Put(opCtx(t), p+"pool", string(first.Kvs[0].Value)); err != nil {
				t.Fatal(err)
			}
			rolledBack := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "rolled back") {
					t.Fatalf("%s on pools rolled back to their creation: %v, want them refused as rolled back", what, err)
				}
			}
			won, err := b.Claim(opCtx(t), HitID{Machine: "egm-2", Game: 7, Level: "grand", Bet: 400, At: 2}, 0)
			if err == nil {
				t.Fatalf("casino-b was paid %d cents from pools rolled back to their creation", won.Cents())
			}
			rolledBack("a claim", err)
			_, err = b.Init(opCtx(t), "major", majorCfg, 0, "test", 2)
			rolledBack("adding a level", err)
			_, _, err = b.Pools(opCtx(t))
			rolledBack("reading the pools", err)
			_, err = a.Audit(opCtx(t))
			rolledBack("the audit", err)
			display := mustNew(t, root, p, testKeyring{}, "display", nil)
			_, err = display.Current(opCtx(t))
			rolledBack("a new display's read", err)
			select {
			case snap := <-display.Watch(opCtx(t)):
				rolledBack("a new display's watch", snap.Err)
			case <-time.After(20 * time.Second):
				t.Fatal("a new display's watch delivered nothing in 20 s")
			}
		})
	}
}

// Pools and a head both rolled back to their first versions, the head
// written back after the pools (so no record of the group is older than
// the pools' key): the previous batch's record and a running display's
// watch still see the pools go back.
func TestPoolsAndHeadRolledBackTogether(t *testing.T) {
	root, p, a, firstPools := newGroupPools(t)
	display := mustNew(t, root, p, testKeyring{}, "display", nil, WatchResync(200*time.Millisecond))
	snaps := display.Watch(opCtx(t))
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 1, Bet: 100_000, Level: "grand", At: 1}); err != nil {
		t.Fatal(err)
	}
	next(t, snaps, "the pools after batch 1", func(s Snapshot) bool { return grandOf(s).QualifyingBets == 100_000 })
	firstHead, err := root.Get(opCtx(t), p+"heads/casino-a")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"pool", "heads/casino-a"} {
		if _, err := root.Delete(opCtx(t), p+k); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range []*clientv3.GetResponse{firstPools, firstHead} {
		if _, err := root.Put(opCtx(t), string(kv.Kvs[0].Key), string(kv.Kvs[0].Value)); err != nil {
			t.Fatal(err)
		}
	}
	_, err = a.Contribute(opCtx(t), Batch{Seq: 2, Bet: 100, Level: "grand", At: 2})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "older than batch 1") {
		t.Fatalf("batch 2 on pools rolled back behind batch 1: %v", err)
	}
	watchRefuses(t, snaps, 100_000, "after op 2 was delivered")
}

// A controller knows its own key (New checked it against its
// registration), so it judges a value signed as itself with another key a
// forgery, and writes on, before it has published its key; another
// controller cannot tell yet and stops.
func TestOwnForgeryKnownWithoutPublishing(t *testing.T) {
	c := sharedCluster(t)
	p := prefix(t)
	a := mustNew(t, c.Client(t), p, testKeyring{}, "casino-a", testKey("casino-a"))
	b := mustNew(t, c.Client(t), p, testKeyring{}, "casino-b", testKey("casino-b"))
	initLevels(t, a, levelDef{"grand", grandCfg, 0})
	if _, err := forger(t, c, p, "casino-a").Contribute(opCtx(t), Batch{Seq: 1, Bet: 100, Level: "grand", At: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Contribute(opCtx(t), Batch{Seq: 1, Bet: 100, Level: "grand", At: 2}); !errors.Is(err, ErrUnverified) {
		t.Fatalf("casino-b on pools signed as casino-a, whose key is not published: %v, want ErrUnverified", err)
	}
	if _, err := a.Contribute(opCtx(t), Batch{Seq: 1, Bet: 100, Level: "grand", At: 2}); err != nil {
		t.Fatalf("casino-a on pools forged in its name: %v", err)
	}
	if m := meters(t, mustPools(t, a), "grand"); m.QualifyingBets != 100 {
		t.Fatalf("pools %+v: want casino-a's batch only", m)
	}
}
