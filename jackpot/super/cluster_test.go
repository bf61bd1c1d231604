package super

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// A real three-member etcd cluster on loopback, each member in its own
// directory, on free ports. SUPER_ETCD_LOG=1 shows the members' error logs;
// by default they are silent (a killed member makes the others complain).

type cluster struct {
	mu        sync.Mutex
	members   []*embed.Etcd
	closed    []bool
	endpoints []string
	dirs      []string
	closing   sync.WaitGroup
}

const clusterMembers = 3

// freePorts reserves n distinct free loopback ports. They are released
// just before use, so another process could take one in between; start
// retries on that.
func freePorts(n int) ([]int, error) {
	ls := make([]net.Listener, 0, n)
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// startCluster starts a cluster; fsync false makes the members skip fsync
// (faster tests; benchmarks keep it).
func startCluster(fsync bool) (*cluster, error) {
	var err error
	for range 3 {
		var c *cluster
		if c, err = tryStartCluster(fsync); err == nil {
			return c, nil
		}
	}
	return nil, err
}

func tryStartCluster(fsync bool) (*cluster, error) {
	ports, err := freePorts(2 * clusterMembers)
	if err != nil {
		return nil, err
	}
	c := &cluster{}
	var initial []string
	for i := range clusterMembers {
		initial = append(initial, fmt.Sprintf("m%d=http://127.0.0.1:%d", i, ports[2*i]))
		c.endpoints = append(c.endpoints, fmt.Sprintf("127.0.0.1:%d", ports[2*i+1]))
	}
	token := fmt.Sprintf("super-test-%d-%d", os.Getpid(), ports[0])
	cfgs := make([]*embed.Config, clusterMembers)
	for i := range clusterMembers {
		dir, err := os.MkdirTemp("", fmt.Sprintf("super-etcd-m%d-", i))
		if err != nil {
			c.stop()
			return nil, err
		}
		c.dirs = append(c.dirs, dir)
		peer, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", ports[2*i]))
		client, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", ports[2*i+1]))
		cfg := embed.NewConfig()
		cfg.Name = fmt.Sprintf("m%d", i)
		cfg.Dir = dir
		cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{*peer}, []url.URL{*peer}
		cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{*client}, []url.URL{*client}
		cfg.InitialCluster = strings.Join(initial, ",")
		cfg.InitialClusterToken = token
		cfg.ClusterState = embed.ClusterStateFlagNew
		cfg.TickMs, cfg.ElectionMs = 50, 500
		cfg.UnsafeNoFsync = !fsync
		cfg.Logger, cfg.LogLevel = "zap", "error"
		if os.Getenv("SUPER_ETCD_LOG") == "" {
			cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
		}
		cfgs[i] = cfg
	}
	c.members = make([]*embed.Etcd, clusterMembers)
	c.closed = make([]bool, clusterMembers)
	errs := make([]error, clusterMembers)
	var wg sync.WaitGroup
	for i := range clusterMembers {
		wg.Go(func() { c.members[i], errs[i] = embed.StartEtcd(cfgs[i]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		c.stop()
		return nil, fmt.Errorf("start etcd: %w", err)
	}
	timeout := time.After(60 * time.Second)
	for i, e := range c.members {
		select {
		case <-e.Server.ReadyNotify():
		case err := <-e.Err():
			c.stop()
			return nil, fmt.Errorf("etcd member m%d: %w", i, err)
		case <-timeout:
			c.stop()
			return nil, fmt.Errorf("etcd member m%d not ready after 60 s", i)
		}
	}
	return c, nil
}

// newCluster starts a cluster for one test and stops it when the test ends.
func newCluster(t testing.TB) *cluster {
	t.Helper()
	c, err := startCluster(false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.stop)
	return c
}

// kill stops member i at once, as a crash would (raft stops, no leadership
// transfer), then closes the embed server in the background: its client
// listeners go away after open streams end or its request timeout passes.
// stop waits for that.
func (c *cluster) kill(i int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.members[i] != nil && !c.closed[i] {
		e := c.members[i]
		e.Server.HardStop()
		c.closing.Go(e.Close)
		c.closed[i] = true
	}
}

// leader is the index of the member that is leader now (-1 if unknown).
func (c *cluster) leader() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.members {
		if !c.closed[i] && e.Server.Leader() == e.Server.MemberID() {
			return i
		}
	}
	return -1
}

func (c *cluster) stop() {
	for i := range c.members {
		c.kill(i)
	}
	c.closing.Wait()
	for _, d := range c.dirs {
		os.RemoveAll(d)
	}
}

// client returns a new client of all members, closed when the test ends.
func (c *cluster) client(t testing.TB) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   c.endpoints,
		DialTimeout: 5 * time.Second,
		Logger:      zap.NewNop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

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
	sharedOnce.Do(func() { sharedC, sharedErr = startCluster(false) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedC
}

func benchCluster(b *testing.B) *cluster {
	b.Helper()
	benchOnce.Do(func() { benchC, benchErr = startCluster(os.Getenv("SUPER_BENCH_NOFSYNC") == "") })
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchC
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedC != nil {
		sharedC.stop()
	}
	if benchC != nil {
		benchC.stop()
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

// proxy forwards loopback TCP connections to one member. Its mode decides
// what becomes of the bytes: passed on, or dropped one way, to cut a
// controller off in the middle of a request: with dropRequests the request
// never reaches etcd, with dropReplies it is applied and the answer is lost.
type proxy struct {
	l      net.Listener
	target string
	mode   atomic.Int32
	mu     sync.Mutex
	conns  []net.Conn
}

const (
	pass int32 = iota
	dropRequests
	dropReplies
)

func newProxy(t testing.TB, target string) *proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{l: l, target: target}
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *proxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go p.pipe(s, c, dropRequests)
		go p.pipe(c, s, dropReplies)
	}
}

func (p *proxy) pipe(dst, src net.Conn, drop int32) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && p.mode.Load() != drop {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *proxy) close() {
	p.l.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

// proxiedClient is a client that reaches every member through a proxy.
func (c *cluster) proxiedClient(t testing.TB) (*clientv3.Client, []*proxy) {
	t.Helper()
	var ps []*proxy
	var eps []string
	for _, ep := range c.endpoints {
		p := newProxy(t, ep)
		ps = append(ps, p)
		eps = append(eps, p.l.Addr().String())
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: eps, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli, ps
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
