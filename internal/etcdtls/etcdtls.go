// Package etcdtls loads what an etcd client of the casino needs to reach
// the cluster as production runs it: TLS with the cluster's CA and a client
// certificate whose common name is the client's etcd user. The link
// controller and the ticket system share it.
package etcdtls

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
)

// Load reads the CA certificate and the client's certificate and key, and
// returns the client's TLS configuration and its etcd user (the
// certificate's common name). Every error names the file.
func Load(caFile, certFile, keyFile string) (*tls.Config, string, error) {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, "", fmt.Errorf("tls ca: %w", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		return nil, "", fmt.Errorf("tls ca: %s holds no PEM certificate", caFile)
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, "", fmt.Errorf("tls cert %s, key %s: %w", certFile, keyFile, err)
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		return nil, "", fmt.Errorf("tls cert %s: %w", certFile, err)
	}
	return &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, leaf.Subject.CommonName, nil
}
