package sites

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strconv"
	"time"

	"github.com/binderyhq/bindery/internal/fetch"
)

// The statuses of a custom hostname's TLS check, made once its DNS check passed: the reference's
// CustomHostnameSslStatus values.
const (
	HostnameLive       = "live"        // it serves a certificate for the hostname that the trusted roots verify
	HostnameTLSFailed  = "ssl_failed"  // something answers on the port, without such a certificate (untrusted, another name, expired, not TLS)
	HostnameTLSPending = "ssl_pending" // nothing answers on the port (refused, unreachable, timed out): the proxy does not serve it yet
	HostnameTLSUnknown = "ssl_unknown" // the SSRF guard forbids connecting to its addresses (--fetch-allow opens them)
)

// tlsTimeout bounds a TLS check: its connections and its handshake together.
const tlsTimeout = 5 * time.Second

// TLSTarget is where a custom hostname's TLS check connects and what it trusts.
type TLSTarget struct {
	// Port is where the operator's proxy serves HTTPS; 443 when 0.
	Port int
	// Roots are the certificate authorities trusted; nil for the system's.
	Roots *x509.CertPool
}

// TLSCheck makes the TLS check of custom hostnames.
type TLSCheck struct {
	TLSTarget
	// Dial connects through the SSRF guard (fetch.Client.Dial): an address it forbids is an
	// error wrapping fetch.ErrRefused.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// status makes a TLS handshake with name (as the server name, SNI) at the first of its addresses
// that accepts a connection, verifying the certificate's chain against the roots and its name.
func (c TLSCheck) status(ctx context.Context, name string, addrs []net.IPAddr) string {
	port := strconv.Itoa(cmp.Or(c.Port, 443))
	status := HostnameTLSPending
	for _, a := range addrs {
		conn, err := c.Dial(ctx, "tcp", net.JoinHostPort(a.IP.String(), port))
		switch {
		case errors.Is(err, fetch.ErrRefused):
			status = HostnameTLSUnknown
		case err == nil:
			return handshake(ctx, conn, name, c.Roots)
		}
	}
	return status
}

// handshake is the status of a TLS handshake with name over conn, which it closes.
func handshake(ctx context.Context, conn net.Conn, name string, roots *x509.CertPool) string {
	defer conn.Close()
	tc := tls.Client(conn, &tls.Config{ServerName: name, RootCAs: roots, MinVersion: tls.VersionTLS12})
	if err := tc.HandshakeContext(ctx); err != nil {
		return HostnameTLSFailed
	}
	return HostnameLive
}
