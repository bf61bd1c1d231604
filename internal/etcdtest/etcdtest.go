// Package etcdtest runs a real etcd cluster for tests: three members
// embedded in the test process (go.etcd.io/etcd/server/v3/embed), each in
// its own temporary directory, on free loopback ports, and TCP proxies that
// cut a client off from the members on demand. Test code only: the etcd
// server must never be linked into a binary (the superjackpot's production
// code uses the etcd client alone).
//
// The cluster runs as production should: clients and peers speak TLS with
// certificates of the cluster's own CA (made at start, crypto/x509), every
// client must present one (client-cert-auth), and etcd's authentication is
// on, each client being the user named by its certificate's common name.
// Client is the root user's (the cluster's administrator); UserClient and
// ClientFiles are any other user's, whose permissions are what the test
// grants it (package jackpot/super's Grant for a controller).
//
// ETCDTEST_LOG=1 (or SUPER_ETCD_LOG=1) shows the members' error logs; by
// default they are silent (a killed member makes the others complain).
package etcdtest

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	"go.etcd.io/etcd/client/pkg/v3/transport"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// Members is the number of members of a cluster.
const Members = 3

// Cluster is a running cluster. Its methods are safe for concurrent use.
type Cluster struct {
	mu        sync.Mutex
	members   []*embed.Etcd
	closed    []bool
	endpoints []string
	dirs      []string
	closing   sync.WaitGroup
	pki       *pki
	rootTLS   *tls.Config
}

// Root is the name of etcd's administrator, whose certificate Client uses.
const Root = "root"

// Options configure a cluster.
type Options struct {
	// Fsync makes the members sync their logs as in production (benchmarks);
	// without it they skip fsync, which makes tests faster.
	Fsync bool
}

// freePorts reserves n distinct free loopback ports. They are released
// just before use, so another process could take one in between; Start
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

// Start starts a cluster and waits until every member is ready (up to
// 60 s); it tries three times (a port taken in between). Stop it with Stop.
func Start(opts Options) (*Cluster, error) {
	var err error
	for range 3 {
		var c *Cluster
		if c, err = tryStart(opts); err == nil {
			return c, nil
		}
	}
	return nil, err
}

// New starts a cluster for one test and stops it when the test ends.
func New(t testing.TB) *Cluster {
	t.Helper()
	c, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	return c
}

func tryStart(opts Options) (*Cluster, error) {
	ports, err := freePorts(2 * Members)
	if err != nil {
		return nil, err
	}
	c := &Cluster{}
	pkiDir, err := os.MkdirTemp("", "etcdtest-pki-")
	if err != nil {
		return nil, err
	}
	c.dirs = append(c.dirs, pkiDir)
	if c.pki, err = newPKI(pkiDir); err != nil {
		c.Stop()
		return nil, err
	}
	memberCert, memberKey, err := c.pki.writePair(pkiDir, "member", true)
	if err != nil {
		c.Stop()
		return nil, err
	}
	if c.rootTLS, err = c.pki.clientTLS(Root); err != nil {
		c.Stop()
		return nil, err
	}
	tlsInfo := transport.TLSInfo{CertFile: memberCert, KeyFile: memberKey, TrustedCAFile: c.pki.caFile(), ClientCertAuth: true}
	var initial []string
	for i := range Members {
		initial = append(initial, fmt.Sprintf("m%d=https://127.0.0.1:%d", i, ports[2*i]))
		c.endpoints = append(c.endpoints, fmt.Sprintf("127.0.0.1:%d", ports[2*i+1]))
	}
	token := fmt.Sprintf("etcdtest-%d-%d", os.Getpid(), ports[0])
	quiet := os.Getenv("ETCDTEST_LOG") == "" && os.Getenv("SUPER_ETCD_LOG") == ""
	cfgs := make([]*embed.Config, Members)
	for i := range Members {
		dir, err := os.MkdirTemp("", fmt.Sprintf("etcdtest-m%d-", i))
		if err != nil {
			c.Stop()
			return nil, err
		}
		c.dirs = append(c.dirs, dir)
		peer, _ := url.Parse(fmt.Sprintf("https://127.0.0.1:%d", ports[2*i]))
		client, _ := url.Parse(fmt.Sprintf("https://127.0.0.1:%d", ports[2*i+1]))
		cfg := embed.NewConfig()
		cfg.Name = fmt.Sprintf("m%d", i)
		cfg.Dir = dir
		cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{*peer}, []url.URL{*peer}
		cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{*client}, []url.URL{*client}
		cfg.ClientTLSInfo, cfg.PeerTLSInfo = tlsInfo, tlsInfo
		cfg.InitialCluster = strings.Join(initial, ",")
		cfg.InitialClusterToken = token
		cfg.ClusterState = embed.ClusterStateFlagNew
		cfg.TickMs, cfg.ElectionMs = 50, 500
		cfg.UnsafeNoFsync = !opts.Fsync
		cfg.Logger, cfg.LogLevel = "zap", "error"
		if quiet {
			cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
		}
		cfgs[i] = cfg
	}
	c.members = make([]*embed.Etcd, Members)
	c.closed = make([]bool, Members)
	errs := make([]error, Members)
	var wg sync.WaitGroup
	for i := range Members {
		wg.Go(func() { c.members[i], errs[i] = embed.StartEtcd(cfgs[i]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		c.Stop()
		return nil, fmt.Errorf("start etcd: %w", err)
	}
	timeout := time.After(60 * time.Second)
	for i, e := range c.members {
		select {
		case <-e.Server.ReadyNotify():
		case err := <-e.Err():
			c.Stop()
			return nil, fmt.Errorf("etcd member m%d: %w", i, err)
		case <-timeout:
			c.Stop()
			return nil, fmt.Errorf("etcd member m%d not ready after 60 s", i)
		}
	}
	if err := c.enableAuth(); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

// enableAuth creates the root user, authenticated by its certificate alone
// (no password), and turns etcd's authentication on: from then on a client
// may do only what its user's roles grant. On a loaded machine a young
// cluster may change leaders under these requests, so each is tried again
// until it holds (all three may be repeated: a root user found existing was
// made by an earlier try whose answer was lost) or a minute has passed.
func (c *Cluster) enableAuth() error {
	cli, err := c.dial(c.rootTLS, c.endpoints)
	if err != nil {
		return err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	steps := []struct {
		what string
		do   func() error
	}{
		{"etcd root user", func() error {
			_, err := cli.UserAddWithOptions(ctx, Root, "", &clientv3.UserAddOptions{NoPassword: true})
			if errors.Is(rpctypes.Error(err), rpctypes.ErrUserAlreadyExist) {
				return nil
			}
			return err
		}},
		{"etcd root role", func() error { _, err := cli.UserGrantRole(ctx, Root, "root"); return err }},
		{"etcd auth enable", func() error { _, err := cli.AuthEnable(ctx); return err }},
	}
	for _, st := range steps {
		for {
			err := st.do()
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				return fmt.Errorf("%s: %w", st.what, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}

// Endpoints are the members' client addresses (host:port), in member order.
func (c *Cluster) Endpoints() []string { return append([]string(nil), c.endpoints...) }

// Kill stops member i at once, as a crash would (raft stops, no leadership
// transfer), then closes the embed server in the background: its client
// listeners go away after open streams end or its request timeout passes.
// Stop waits for that. Killing a killed member does nothing.
func (c *Cluster) Kill(i int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.members[i] != nil && !c.closed[i] {
		e := c.members[i]
		e.Server.HardStop()
		c.closing.Go(e.Close)
		c.closed[i] = true
	}
}

// Leader is the index of the member that is leader now (-1 if unknown).
func (c *Cluster) Leader() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.members {
		if e != nil && !c.closed[i] && e.Server.Leader() == e.Server.MemberID() {
			return i
		}
	}
	return -1
}

// WaitLeader waits up to d for a leader and returns it (-1 if none).
func (c *Cluster) WaitLeader(d time.Duration) int {
	deadline := time.Now().Add(d)
	for {
		if l := c.Leader(); l >= 0 || time.Now().After(deadline) {
			return l
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Stop kills every member, waits until they are closed and removes their
// directories.
func (c *Cluster) Stop() {
	for i := range c.members {
		c.Kill(i)
	}
	c.closing.Wait()
	for _, d := range c.dirs {
		os.RemoveAll(d)
	}
}

// Client returns a new client of all members as the root user (the
// cluster's administrator: it may do anything), closed when the test ends.
func (c *Cluster) Client(t testing.TB) *clientv3.Client {
	t.Helper()
	return c.newClient(t, c.rootTLS, c.endpoints)
}

// UserClient returns a new client authenticated as user (by a certificate
// whose common name is user), closed when the test ends. It reaches
// endpoints, or every member if none are given. What it may do is what
// user's roles grant; a user etcd does not know may do nothing.
func (c *Cluster) UserClient(t testing.TB, user string, endpoints ...string) *clientv3.Client {
	t.Helper()
	cfg, err := c.TLS(user)
	if err != nil {
		t.Fatal(err)
	}
	if len(endpoints) == 0 {
		endpoints = c.endpoints
	}
	return c.newClient(t, cfg, endpoints)
}

// TLS is the TLS configuration of a client authenticated as user: a new
// certificate of the cluster's CA with common name user.
func (c *Cluster) TLS(user string) (*tls.Config, error) {
	if user == Root {
		return c.rootTLS.Clone(), nil
	}
	return c.pki.clientTLS(user)
}

// ClientFiles writes into dir what a client process needs to reach the
// cluster as user: the CA certificate (to check the members'), and a
// client certificate with common name user and its key (mode 0600).
func (c *Cluster) ClientFiles(dir, user string) (ca, cert, key string, err error) {
	ca = filepath.Join(dir, "etcd-ca.pem")
	if err = os.WriteFile(ca, c.pki.caPEM, 0o644); err != nil {
		return "", "", "", err
	}
	cert, key, err = c.pki.writePair(dir, user, false)
	return ca, cert, key, err
}

func (c *Cluster) dial(cfg *tls.Config, endpoints []string) (*clientv3.Client, error) {
	return clientv3.New(clientv3.Config{Endpoints: endpoints, TLS: cfg, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
}

func (c *Cluster) newClient(t testing.TB, cfg *tls.Config, endpoints []string) *clientv3.Client {
	t.Helper()
	cli, err := c.dial(cfg, endpoints)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

// Proxies starts one proxy to each member, closed when the test ends.
func (c *Cluster) Proxies(t testing.TB) Proxies {
	t.Helper()
	var ps Proxies
	for _, ep := range c.endpoints {
		ps = append(ps, NewProxy(t, ep))
	}
	return ps
}

// ProxiedClient is a root client that reaches every member through a
// proxy of its own (TLS passes through the proxies unchanged).
func (c *Cluster) ProxiedClient(t testing.TB) (*clientv3.Client, Proxies) {
	t.Helper()
	ps := c.Proxies(t)
	return c.newClient(t, c.rootTLS, ps.Addrs()), ps
}

// Mode is what a Proxy does with the bytes it carries.
type Mode int32

const (
	// Pass forwards everything.
	Pass Mode = iota
	// DropRequests drops what the client sends: a request never reaches
	// etcd.
	DropRequests
	// DropReplies drops what etcd sends: a request is applied and its
	// answer lost.
	DropReplies
	// Blackhole drops both ways, the connections left open (a silent
	// partition).
	Blackhole
	// Refuse closes every open connection and every new one at once (a
	// partition the client sees as lost connections).
	Refuse
)

// Proxy forwards loopback TCP connections to one member, to cut a client
// off (SetMode) in the middle of a request, or for a while (a partition).
type Proxy struct {
	l      net.Listener
	target string
	mode   atomic.Int32
	mu     sync.Mutex
	conns  []net.Conn
}

// NewProxy starts a proxy to target (host:port), closed when the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{l: l, target: target}
	go p.serve()
	t.Cleanup(p.Close)
	return p
}

// Addr is the proxy's address (host:port): the endpoint to give a client.
func (p *Proxy) Addr() string { return p.l.Addr().String() }

// SetMode changes what the proxy does from now on; Refuse also closes the
// connections open now.
func (p *Proxy) SetMode(m Mode) {
	p.mode.Store(int32(m))
	if m == Refuse {
		p.mu.Lock()
		conns := p.conns
		p.conns = nil
		p.mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}
}

func (p *Proxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		if Mode(p.mode.Load()) == Refuse {
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go p.pipe(s, c, DropRequests)
		go p.pipe(c, s, DropReplies)
	}
}

func (p *Proxy) pipe(dst, src net.Conn, drop Mode) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if m := Mode(p.mode.Load()); n > 0 && m != drop && m != Blackhole {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// Close stops the proxy and closes its connections.
func (p *Proxy) Close() {
	p.l.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// Proxies are one proxy per member.
type Proxies []*Proxy

// Addrs are the proxies' addresses, in member order.
func (ps Proxies) Addrs() []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Addr()
	}
	return out
}

// SetMode sets every proxy's mode: Refuse or Blackhole partitions the
// client from the whole cluster, Pass heals it.
func (ps Proxies) SetMode(m Mode) {
	for _, p := range ps {
		p.SetMode(m)
	}
}
