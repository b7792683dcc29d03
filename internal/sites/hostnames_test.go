package sites

import (
	"context"
	"net/netip"
	"testing"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/testkit/dnstest"
)

// TestHostnameStatus checks hostnames against a server known by name: through a CNAME to it or
// to its own canonical name, by its addresses, or elsewhere.
func TestHostnameStatus(t *testing.T) {
	dns := dnstest.Resolver(t, dnstest.Zone{
		Addrs: map[string][]netip.Addr{
			"lb.bindery.test":     {netip.MustParseAddr("192.0.2.10"), netip.MustParseAddr("2001:db8::10")},
			"byaddr.acme.test":    {netip.MustParseAddr("2001:db8::10")},
			"elsewhere.acme.test": {netip.MustParseAddr("192.0.2.99")},
			"other.lb.test":       {netip.MustParseAddr("192.0.2.77")},
		},
		CNAME: map[string]string{
			"docs.bindery.test":  "lb.bindery.test", // this server's public host
			"docs.acme.test":     "docs.bindery.test",
			"viacanon.acme.test": "lb.bindery.test",
			"wrong.acme.test":    "other.lb.test",
		},
		Fail: map[string]bool{"broken.acme.test": true},
	})
	for host, want := range map[string]string{
		"docs.acme.test":      HostnameDNSPassed,
		"viacanon.acme.test":  HostnameDNSPassed,
		"byaddr.acme.test":    HostnameDNSPassed,
		"elsewhere.acme.test": HostnameWrongTarget,
		"wrong.acme.test":     HostnameWrongTarget,
		"missing.acme.test":   HostnameNoRecord,
		"broken.acme.test":    HostnameLookupError,
	} {
		got, addrs := hostnameStatus(context.Background(), dns, host, "docs.bindery.test")
		if got != want || (got == HostnameDNSPassed) != (len(addrs) > 0) {
			t.Errorf("%s: %s %v, want %s", host, got, addrs, want)
		}
	}
}

// TestCheckHostname: no site may take the server's own host name.
func TestCheckHostname(t *testing.T) {
	svc := &Service{PublicHost: "docs.bindery.test"}
	if e := apperr.As(svc.checkHostname("docs.bindery.test")); e == nil || e.Kind != apperr.Invalid {
		t.Fatalf("the server's own host: %v", e)
	}
	if err := svc.checkHostname("docs.acme.test"); err != nil {
		t.Fatalf("a hostname: %v", err)
	}
}
