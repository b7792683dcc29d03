package rest_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"math/big"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/sites"
	"github.com/binderyhq/bindery/internal/testkit/dnstest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// hostnameZone is the DNS of TestCustomHostnames: this server is at 127.0.0.1 (the test
// server's base URL); docs points at it, alias through a CNAME, elsewhere at another address.
var hostnameZone = dnstest.Zone{
	Addrs: map[string][]netip.Addr{
		"docs.acme.test":      {netip.MustParseAddr("127.0.0.1")},
		"elsewhere.acme.test": {netip.MustParseAddr("127.0.0.9"), netip.MustParseAddr("::9")},
		"lb.acme.test":        {netip.MustParseAddr("127.0.0.1")},
	},
	CNAME: map[string]string{"alias.acme.test": "lb.acme.test"},
	Fail:  map[string]bool{"broken.acme.test": true},
}

type customHostnameWire struct {
	Object, Hostname, Status string
	IsActive                 bool
	Target                   struct{ Type, Site string }
	URLs                     struct{ Location string }
}

func TestCustomHostnames(t *testing.T) {
	e := testenv.New(t, func(o *server.Options) { o.DNS = dnstest.Resolver(t, hostnameZone) })
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	space := authCreated(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Docs"}))
	siteID := authCreated(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs", "spaces": []string{space}}))
	other := authCreated(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Other", "spaces": []string{space}}))
	site := "/v1/orgs/" + org + "/sites/" + siteID
	setHostname := func(t *testing.T, siteURL string, h any) testenv.Response {
		t.Helper()
		return e.Do(admin, "PATCH", siteURL, map[string]any{"hostname": h})
	}
	get := func(t *testing.T, h string) customHostnameWire {
		t.Helper()
		var w customHostnameWire
		if r := e.Do(admin, "GET", "/v1/custom-hostnames/"+h, nil); r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", h, r.Status, r.Body)
		} else {
			r.JSON(t, &w)
		}
		return w
	}
	check := func(t *testing.T, h, status string, active bool) {
		t.Helper()
		if r := e.Do(admin, "PATCH", "/v1/custom-hostnames/"+h, nil); r.Status != http.StatusNoContent {
			t.Fatalf("check %s: %d %s", h, r.Status, r.Body)
		}
		if w := get(t, h); w.Status != status || w.IsActive != active {
			t.Fatalf("after the check of %s: status %q active %v, want %q %v", h, w.Status, w.IsActive, status, active)
		}
	}

	t.Run("SetThenCheck", func(t *testing.T) {
		if r := setHostname(t, site, "Docs.Acme.test"); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"hostname":"docs.acme.test"`) {
			t.Fatalf("set: %d %s", r.Status, r.Body)
		}
		w := get(t, "docs.acme.test")
		if w.Object != "custom-hostname" || w.Target.Type != "site" || w.Target.Site != siteID || w.IsActive || w.Status != "" ||
			!strings.HasSuffix(w.URLs.Location, "/v1/custom-hostnames/docs.acme.test") {
			t.Fatalf("before a check: %+v", w)
		}
		// The DNS leads here; the TLS check's address, loopback, is one the SSRF guard forbids
		// (no --fetch-allow here): TestCustomHostnameTLS checks TLS itself.
		check(t, "docs.acme.test", "ssl_unknown", false)
	})
	t.Run("Statuses", func(t *testing.T) {
		for _, c := range []struct{ host, status string }{
			{"alias.acme.test", "ssl_unknown"}, {"elsewhere.acme.test", "dns_wrong_cname"},
			{"nowhere.acme.test", "dns_no_cname"}, {"broken.acme.test", "internal_error"},
		} {
			if r := setHostname(t, site, c.host); r.Status != http.StatusOK {
				t.Fatalf("set %s: %d %s", c.host, r.Status, r.Body)
			}
			check(t, c.host, c.status, false)
		}
	})
	t.Run("ChangeForgetsTheCheck", func(t *testing.T) {
		setHostname(t, site, "docs.acme.test")
		check(t, "docs.acme.test", "ssl_unknown", false)
		setHostname(t, site, "alias.acme.test")
		if w := get(t, "alias.acme.test"); w.Status != "" || w.IsActive {
			t.Fatalf("a new hostname kept the old check: %+v", w)
		}
	})
	t.Run("GraphQL", func(t *testing.T) {
		g := e.GraphQL(admin, `mutation { checkCustomHostname(hostname: "alias.acme.test") { hostname isActive status site { id } } }`, nil)
		var d struct {
			CheckCustomHostname struct {
				Hostname, Status string
				IsActive         bool
				Site             struct{ ID string }
			}
		}
		if err := json.Unmarshal(g.Data, &d); err != nil || len(g.Errors) > 0 {
			t.Fatalf("checkCustomHostname: %s %v", g.Data, g.Errors)
		}
		if c := d.CheckCustomHostname; c.Status != "SSL_UNKNOWN" || c.IsActive || c.Site.ID != siteID {
			t.Fatalf("checkCustomHostname: %+v", c)
		}
		if g := e.GraphQL(admin, `{ customHostname(hostname: "unknown.acme.test") { hostname } }`, nil); string(g.Data) != `{"customHostname":null}` {
			t.Fatalf("an unknown hostname: %s %v", g.Data, g.Errors)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		for _, h := range []string{"acme.test", "docs_acme.test", "docs..acme.test", "-docs.acme.test", "10.0.0.10",
			"127.0.0.1", strings.Repeat("a", 64) + ".acme.test", "docs.acme.test:8080", "", strings.Repeat("ab.", 200) + "test"} {
			testenv.CheckError(t, setHostname(t, site, h), http.StatusBadRequest)
		}
		testenv.CheckError(t, setHostname(t, site, 42), http.StatusBadRequest)
	})
	t.Run("ErrTaken", func(t *testing.T) {
		setHostname(t, site, "docs.acme.test")
		r := setHostname(t, "/v1/orgs/"+org+"/sites/"+other, "DOCS.acme.test")
		testenv.CheckError(t, r, http.StatusConflict)
		if !strings.Contains(string(r.Body), "hostname") {
			t.Fatalf("the conflict does not name the hostname: %s", r.Body)
		}
	})
	t.Run("OthersSeeNothing", func(t *testing.T) {
		setHostname(t, site, "docs.acme.test")
		outsider, _ := e.Bootstrap("eve@example.com", "Evil")
		read := viewer.RoleRead
		reader := e.User("rita@example.com", org, &read)
		testenv.CheckError(t, e.Do(outsider, "GET", "/v1/custom-hostnames/docs.acme.test", nil), http.StatusNotFound)
		testenv.CheckError(t, e.Do(outsider, "PATCH", "/v1/custom-hostnames/docs.acme.test", nil), http.StatusNotFound)
		if r := e.Do(outsider, "DELETE", "/v1/custom-hostnames/docs.acme.test", nil); r.Status != http.StatusNoContent {
			t.Fatalf("an outsider's delete: %d %s", r.Status, r.Body)
		}
		testenv.CheckError(t, e.Do(reader, "GET", "/v1/custom-hostnames/docs.acme.test", nil), http.StatusForbidden)
		testenv.CheckError(t, e.Do(reader, "DELETE", "/v1/custom-hostnames/docs.acme.test", nil), http.StatusForbidden)
		if w := get(t, "docs.acme.test"); w.Target.Site != siteID {
			t.Fatalf("the hostname moved: %+v", w)
		}
	})
	t.Run("Remove", func(t *testing.T) {
		setHostname(t, site, "docs.acme.test")
		if r := e.Do(admin, "DELETE", "/v1/custom-hostnames/docs.acme.test", nil); r.Status != http.StatusResetContent {
			t.Fatalf("remove: %d %s", r.Status, r.Body)
		}
		if r := e.Do(admin, "DELETE", "/v1/custom-hostnames/docs.acme.test", nil); r.Status != http.StatusNoContent {
			t.Fatalf("remove again: %d %s", r.Status, r.Body)
		}
		testenv.CheckError(t, e.Do(admin, "GET", "/v1/custom-hostnames/docs.acme.test", nil), http.StatusNotFound)
		var s struct{ Hostname *string }
		e.Do(admin, "GET", site, nil).JSON(t, &s)
		if s.Hostname != nil {
			t.Fatalf("the site kept hostname %q", *s.Hostname)
		}
		setHostname(t, site, "docs.acme.test")
		if r := setHostname(t, site, nil); r.Status != http.StatusOK || strings.Contains(string(r.Body), "docs.acme.test") {
			t.Fatalf("null removes the hostname: %d %s", r.Status, r.Body)
		}
	})
}

// certFor makes a certificate for host signed by ca, or self-signed (and an authority) when ca
// is nil.
func certFor(t *testing.T, host string, ca *tls.Certificate) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: host},
		DNSNames: []string{host}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: ca == nil}
	parent, signer := tmpl, any(key)
	if ca != nil {
		parent, signer = ca.Leaf, ca.PrivateKey
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, signer)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}
}

// TestCustomHostnameTLS checks a hostname whose DNS leads here over TLS on loopback: a certificate
// for it that the trusted roots verify is live (active); another name or an untrusted
// certificate fails; nothing listening is pending; an address the SSRF guard forbids is unknown.
func TestCustomHostnameTLS(t *testing.T) {
	ca := certFor(t, "Test CA", nil)
	roots := x509.NewCertPool()
	roots.AddCert(ca.Leaf)
	var serving atomic.Pointer[tls.Certificate]
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		return serving.Load(), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conn.(*tls.Conn).Handshake()
			conn.Close()
		}
	}()
	allow, err := fetch.ParseAllow("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	e := testenv.New(t, func(o *server.Options) {
		o.DNS = dnstest.Resolver(t, hostnameZone)
		o.FetchAllow = allow
		o.HostnameTLS = sites.TLSTarget{Port: ln.Addr().(*net.TCPAddr).Port, Roots: roots}
	})
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	space := authCreated(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Docs"}))
	siteID := authCreated(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs", "spaces": []string{space}}))
	crWant(t, e.Do(admin, "PATCH", "/v1/orgs/"+org+"/sites/"+siteID, map[string]any{"hostname": "docs.acme.test"}), http.StatusOK)
	check := func(t *testing.T, status string, active bool) {
		t.Helper()
		crWant(t, e.Do(admin, "PATCH", "/v1/custom-hostnames/docs.acme.test", nil), http.StatusNoContent)
		var w customHostnameWire
		e.Do(admin, "GET", "/v1/custom-hostnames/docs.acme.test", nil).JSON(t, &w)
		if w.Status != status || w.IsActive != active {
			t.Fatalf("status %q active %v, want %q %v", w.Status, w.IsActive, status, active)
		}
	}

	t.Run("Live", func(t *testing.T) {
		serving.Store(ptr(certFor(t, "docs.acme.test", &ca)))
		check(t, sites.HostnameLive, true)
		g := e.GraphQL(admin, `mutation { checkCustomHostname(hostname: "docs.acme.test") { isActive status } }`, nil)
		if string(g.Data) != `{"checkCustomHostname":{"isActive":true,"status":"LIVE"}}` {
			t.Fatalf("GraphQL: %s %v", g.Data, g.Errors)
		}
	})
	t.Run("ErrAnotherName", func(t *testing.T) {
		serving.Store(ptr(certFor(t, "other.acme.test", &ca)))
		check(t, sites.HostnameTLSFailed, false)
	})
	t.Run("ErrUntrusted", func(t *testing.T) {
		serving.Store(ptr(certFor(t, "docs.acme.test", nil)))
		check(t, sites.HostnameTLSFailed, false)
	})
	t.Run("ErrNothingListening", func(t *testing.T) {
		ln.Close()
		check(t, sites.HostnameTLSPending, false)
	})
}

func ptr[T any](v T) *T { return &v }
