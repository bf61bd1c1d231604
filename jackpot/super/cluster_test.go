package super

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/blake2b"

	"github.com/openegm/cabinet/internal/etcdtest"
)

// The tests run on a real three-member etcd cluster on loopback
// (internal/etcdtest). SUPER_ETCD_LOG=1 shows the members' error logs; by
// default they are silent (a killed member makes the others complain).

type cluster = etcdtest.Cluster

// newCluster starts a cluster for one test and stops it when the test ends.
func newCluster(t testing.TB) *cluster { return etcdtest.New(t) }

// One cluster shared by the tests that do not kill members (each test
// works under its own key prefix), and one with fsync for benchmarks.
var (
	sharedOnce sync.Once
	sharedC    *cluster
	sharedErr  error
	benchOnce  sync.Once
	benchC     *cluster
	benchErr   error
)

func sharedCluster(t testing.TB) *cluster {
	t.Helper()
	sharedOnce.Do(func() { sharedC, sharedErr = etcdtest.Start(etcdtest.Options{}) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedC
}

func benchCluster(b *testing.B) *cluster {
	b.Helper()
	benchOnce.Do(func() {
		benchC, benchErr = etcdtest.Start(etcdtest.Options{Fsync: os.Getenv("SUPER_BENCH_NOFSYNC") == ""})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchC
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedC != nil {
		sharedC.Stop()
	}
	if benchC != nil {
		benchC.Stop()
	}
	os.Exit(code)
}

var (
	prefixes sync.Map // testing.TB → string
	runs     atomic.Int64
)

// prefix is a key prefix of its own for test t (the same for all its calls,
// another for each run of it on the shared cluster).
func prefix(t testing.TB) string {
	p, _ := prefixes.LoadOrStore(t, fmt.Sprintf("/superjackpot/%s/%d/", t.Name(), runs.Add(1)))
	return p.(string)
}

// opCtx is a context for one operation of a test.
func opCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// soak is n, or long when SUPER_SOAK is set (longer runs, not by default):
//
//	SUPER_SOAK=1 go test -run . -timeout 30m ./jackpot/super/
func soak(n, long int) int {
	if os.Getenv("SUPER_SOAK") != "" {
		return long
	}
	return n
}

// testKey is controller's signing key in the tests, derived from its name:
// every Store of every test agrees on it.
func testKey(controller string) ed25519.PrivateKey {
	seed := blake2b.Sum256([]byte("super test key " + controller))
	return ed25519.NewKeyFromSeed(seed[:])
}

// testKeyring registers testKey for every controller.
type testKeyring struct{}

func (testKeyring) PublicKey(controller string) (ed25519.PublicKey, bool) {
	return testKey(controller).Public().(ed25519.PublicKey), true
}
