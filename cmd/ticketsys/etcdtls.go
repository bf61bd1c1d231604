package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
)

// etcdTLS is the client's TLS configuration from --etcd-ca, --etcd-cert
// and --etcd-key: nil when none is given (a cluster without TLS), an
// error naming the file when one is missing or unreadable. A casino's
// cluster authenticates its clients by certificate (the superjackpot's
// etcd does), so the ticket system must present one.
func (c *config) etcdTLS() (*tls.Config, error) {
	if c.etcdCA == "" && c.etcdCert == "" && c.etcdKey == "" {
		return nil, nil
	}
	if c.etcdCA == "" || c.etcdCert == "" || c.etcdKey == "" {
		return nil, fmt.Errorf("%w: --etcd-ca, --etcd-cert and --etcd-key go together", errUsage)
	}
	ca, err := os.ReadFile(c.etcdCA)
	if err != nil {
		return nil, fmt.Errorf("--etcd-ca: %w", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		return nil, fmt.Errorf("--etcd-ca: %s holds no PEM certificate", c.etcdCA)
	}
	cert, err := tls.LoadX509KeyPair(c.etcdCert, c.etcdKey)
	if err != nil {
		return nil, fmt.Errorf("--etcd-cert %s, --etcd-key %s: %w", c.etcdCert, c.etcdKey, err)
	}
	return &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}
