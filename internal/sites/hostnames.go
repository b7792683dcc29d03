package sites

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"regexp"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/txn"
)

// The statuses of a custom hostname's DNS check: the reference's CustomHostnameDnsStatus and
// CustomHostnameErrorStatus values that a check without a CDN in front can reach.
const (
	HostnameDNSPassed   = "dns_passed"      // its CNAME or addresses are this server's
	HostnameWrongTarget = "dns_wrong_cname" // it resolves, elsewhere
	HostnameNoRecord    = "dns_no_cname"    // it does not resolve
	HostnameLookupError = "internal_error"  // the resolver failed (not a "no such host")
)

const (
	hostnameMax = 512
	// dnsTimeout bounds a check's lookups together.
	dnsTimeout = 5 * time.Second
)

// hostnamePattern is the reference's SiteHostname: lower-case labels, at least three of them.
var hostnamePattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$`)

// Resolver is the DNS a hostname check asks: net.Resolver's methods, so a test can point one at
// a DNS server of its own.
type Resolver interface {
	LookupCNAME(ctx context.Context, host string) (string, error)
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// CustomHostname is a site's custom hostname as its organization's managers read it.
type CustomHostname struct {
	Hostname string
	Site     *ent.Site
	// Status is the last check's outcome (a Hostname* constant: a DNS status, else, once the DNS
	// passed, a TLS status), nil before a check.
	Status    *string
	CheckedAt *time.Time
}

// Active reports whether the last check found the hostname pointing at this server and served
// with a valid certificate for it.
func (h *CustomHostname) Active() bool {
	return h.Status != nil && *h.Status == HostnameLive
}

// checkHostname validates a custom hostname for a site: the reference's SiteHostname pattern,
// not an address, and not the server's own host (whose requests would all go to the site).
// Returns INVALID naming the field.
func (svc *Service) checkHostname(h string) error {
	if err := check.Text("hostname", h, 1, hostnameMax); err != nil {
		return err
	}
	if !hostnamePattern.MatchString(h) {
		return apperr.Invalidf("hostname: must be a lower-case domain name of at least three labels, like docs.example.com (got %q)", check.Truncate(h, 80))
	}
	if _, err := netip.ParseAddr(h); err == nil {
		return apperr.Invalidf("hostname: must be a domain name, not an address (got %q)", h)
	}
	if h == svc.PublicHost {
		return apperr.Invalidf("hostname: %q is this server's own host name", h)
	}
	return nil
}

// setHostname puts hostname h (nil: none; lower-cased) on upd, forgetting the last check, unless
// another site has it. Returns INVALID or CONFLICT naming hostname.
func (svc *Service) setHostname(ctx context.Context, tx *ent.Tx, upd *ent.SiteUpdateOne, s *ent.Site, h check.Nullable[string]) error {
	if !h.Set {
		return nil
	}
	if h.Value == nil {
		upd.ClearHostname().ClearHostnameStatus().ClearHostnameCheckedAt()
		return nil
	}
	name := strings.ToLower(*h.Value)
	if err := svc.checkHostname(name); err != nil || (s.Hostname != nil && *s.Hostname == name) {
		return err
	}
	taken, err := tx.Site.Query().Where(site.Hostname(name)).Exist(privacy.DecisionContext(ctx, privacy.Allow))
	if err != nil {
		return err
	}
	if taken {
		return hostnameTaken(name)
	}
	upd.SetHostname(name).ClearHostnameStatus().ClearHostnameCheckedAt()
	return nil
}

func hostnameTaken(h string) error {
	return apperr.Conflictf("hostname: %q is taken by another site", h)
}

// CustomHostname returns the custom hostname name and its site, for a viewer who may change the
// site. Returns NOT_FOUND when no site has it or the viewer is not of its organization,
// FORBIDDEN to a member who may not change sites.
func (svc *Service) CustomHostname(ctx context.Context, name string) (*CustomHostname, error) {
	s, err := svc.hostnameSite(ctx, name)
	if err != nil {
		return nil, err
	}
	return &CustomHostname{Hostname: *s.Hostname, Site: s, Status: s.HostnameStatus, CheckedAt: s.HostnameCheckedAt}, nil
}

// hostnameSite returns the site that has hostname name, which the viewer may change.
func (svc *Service) hostnameSite(ctx context.Context, name string) (*ent.Site, error) {
	name = strings.ToLower(name)
	s, err := svc.Client.Site.Query().Where(site.Hostname(name)).Only(privacy.DecisionContext(ctx, privacy.Allow))
	if err == nil {
		s, err = svc.ManageableSite(ctx, s.OrganizationID, s.ID, "manage custom hostnames")
	}
	if ent.IsNotFound(err) || apperr.IsNotFound(err) {
		return nil, apperr.NotFoundf("custom hostname %q not found", check.Truncate(name, 80))
	}
	return s, err
}

// CheckCustomHostname checks custom hostname name now — its DNS, then, when that leads to this
// server, its TLS (TLSCheck) —, keeps the outcome on its site and returns the hostname. The same
// access as CustomHostname.
func (svc *Service) CheckCustomHostname(ctx context.Context, name string) (*CustomHostname, error) {
	s, err := svc.hostnameSite(ctx, name)
	if err != nil {
		return nil, err
	}
	lookup, cancel := context.WithTimeout(ctx, dnsTimeout)
	status, addrs := hostnameStatus(lookup, svc.DNS, *s.Hostname, svc.PublicHost)
	cancel()
	if status == HostnameDNSPassed {
		handshake, cancel := context.WithTimeout(ctx, tlsTimeout)
		status = svc.TLS.status(handshake, *s.Hostname, addrs)
		cancel()
	}
	now := svc.Now(ctx)
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		// Only if the site still has the hostname: a change meanwhile forgot the last check.
		n, err := tx.Site.Update().Where(site.ID(s.ID), site.Hostname(*s.Hostname)).
			SetHostnameStatus(status).SetHostnameCheckedAt(now).Save(ctx)
		if err != nil || n == 0 {
			return err
		}
		return events.Record(ctx, tx.Client(), siteEvent(events.SiteUpdated, s, map[string]any{"fields": []string{"hostname_status"}}))
	})
	if err != nil {
		return nil, err
	}
	return svc.CustomHostname(ctx, name)
}

// RemoveCustomHostname takes custom hostname name off its site and reports whether a site had
// it. A hostname the viewer may not manage is as one no site has.
func (svc *Service) RemoveCustomHostname(ctx context.Context, name string) (bool, error) {
	s, err := svc.hostnameSite(ctx, name)
	if apperr.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, err = svc.Update(ctx, s.OrganizationID, s.ID, Settings{Hostname: check.Nullable[string]{Set: true}})
	return err == nil, err
}

// hostnameStatus checks that name points at this server's host public: its canonical name is
// public's, or it resolves to one of public's addresses (public itself, when an address).
// Returns the status and name's addresses.
func hostnameStatus(ctx context.Context, dns Resolver, name, public string) (string, []net.IPAddr) {
	addrs, err := dns.LookupIPAddr(ctx, name)
	if isNoSuchHost(err) || (err == nil && len(addrs) == 0) {
		return HostnameNoRecord, nil
	}
	if err != nil {
		return HostnameLookupError, nil
	}
	if canonical, err := dns.LookupCNAME(ctx, name); err == nil && !sameHost(canonical, name) {
		if publicCanonical, err := dns.LookupCNAME(ctx, public); sameHost(canonical, public) || (err == nil && sameHost(canonical, publicCanonical)) {
			return HostnameDNSPassed, addrs
		}
	}
	want, err := publicAddresses(ctx, dns, public)
	if err != nil {
		return HostnameLookupError, nil
	}
	for _, a := range addrs {
		if ip, ok := netip.AddrFromSlice(a.IP); ok && want[ip.Unmap()] {
			return HostnameDNSPassed, addrs
		}
	}
	return HostnameWrongTarget, nil
}

// publicAddresses returns the addresses of this server's host: itself when it is an address.
func publicAddresses(ctx context.Context, dns Resolver, public string) (map[netip.Addr]bool, error) {
	if a, err := netip.ParseAddr(public); err == nil {
		return map[netip.Addr]bool{a.Unmap(): true}, nil
	}
	addrs, err := dns.LookupIPAddr(ctx, public)
	if err != nil {
		return nil, err
	}
	want := make(map[netip.Addr]bool, len(addrs))
	for _, a := range addrs {
		if ip, ok := netip.AddrFromSlice(a.IP); ok {
			want[ip.Unmap()] = true
		}
	}
	return want, nil
}

func sameHost(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "."), strings.TrimSuffix(b, "."))
}

func isNoSuchHost(err error) bool {
	var dnsErr *net.DNSError
	return errors.As(err, &dnsErr) && dnsErr.IsNotFound
}
