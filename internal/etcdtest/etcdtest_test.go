package etcdtest

import (
	"context"
	"crypto/tls"
	"errors"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// The cluster refuses what production must refuse: a client without a
// certificate of its CA, and a user that was granted nothing; the root
// user may do anything, also through a proxy.
func TestClusterTLSAndAuth(t *testing.T) {
	c := New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Client(t).Put(ctx, "/k", "v"); err != nil {
		t.Fatalf("root put: %v", err)
	}
	if _, err := c.UserClient(t, "nobody").Put(ctx, "/k", "w"); !errors.Is(err, rpctypes.ErrPermissionDenied) {
		t.Fatalf("put by a user granted nothing: %v, want permission denied", err)
	}
	if _, err := c.UserClient(t, "nobody").Get(ctx, "/k"); !errors.Is(err, rpctypes.ErrPermissionDenied) {
		t.Fatalf("get by a user granted nothing: %v, want permission denied", err)
	}
	proxied, _ := c.ProxiedClient(t)
	if r, err := proxied.Get(ctx, "/k"); err != nil || len(r.Kvs) != 1 || string(r.Kvs[0].Value) != "v" {
		t.Fatalf("root get through the proxies: %v %v", r, err)
	}

	// No client certificate: the TLS handshake fails, nothing is read.
	noCert, err := c.TLS("nobody")
	if err != nil {
		t.Fatal(err)
	}
	noCert.Certificates = nil
	for name, cfg := range map[string]*tls.Config{"no client certificate": noCert, "plain TCP": nil} {
		cli, err := clientv3.New(clientv3.Config{Endpoints: c.Endpoints(), TLS: cfg, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
		if err != nil {
			t.Fatal(err)
		}
		short, stop := context.WithTimeout(ctx, 3*time.Second)
		_, err = cli.Get(short, "/k")
		stop()
		cli.Close()
		if err == nil {
			t.Fatalf("%s: read the cluster", name)
		}
		t.Logf("%s: refused: %v", name, err)
	}
}
