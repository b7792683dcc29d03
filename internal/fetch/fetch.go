// Package fetch makes the server's outbound HTTP requests (website imports) safe from server-side
// request forgery: every connection goes through a dialer that refuses loopback, private,
// link-local, shared (CGNAT), metadata, unspecified, multicast and other special-purpose addresses
// after DNS resolution, so a host name that resolves to one, a redirect to one and a DNS answer
// that changes between two lookups are all refused. An operator allow-list opens listed hosts or
// networks (a local test server, an intranet wiki).
package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
)

// ErrRefused is returned (wrapped) when a request is refused before it is sent: a destination
// address the guard forbids, a scheme other than http and https, too many redirects.
var ErrRefused = errors.New("refused")

// ErrTooLarge is returned (wrapped) when a response body is longer than the caller allows.
var ErrTooLarge = errors.New("response too large")

// Bounds of one request.
// Agent is the product token of Bindery's requests, which a site's robots.txt names to address them.
const Agent = "Bindery-Import"

const (
	maxRedirects  = 5
	dialTimeout   = 5 * time.Second
	headerTimeout = 10 * time.Second
	userAgent     = Agent + "/1 (+https://github.com/binderyhq/bindery)"
)

// Allow is the operator's allow-list: host names (exact, case-insensitive) whose every address is
// allowed, and networks (an address is a network of one) allowed whatever name leads there.
type Allow struct {
	hosts    map[string]bool
	prefixes []netip.Prefix
}

// ParseAllow reads a comma-separated allow-list of host names, IP addresses and CIDR networks
// ("wiki.internal,10.1.0.0/16,127.0.0.2"). An address allows that address only: "127.0.0.2"
// does not allow 127.0.0.1.
func ParseAllow(list string) (Allow, error) {
	a := Allow{hosts: map[string]bool{}}
	for _, item := range strings.Split(list, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		switch {
		case item == "":
		case strings.Contains(item, "/"):
			p, err := netip.ParsePrefix(item)
			if err != nil {
				return Allow{}, fmt.Errorf("fetch allow-list: %q is not a CIDR network: %v", item, err)
			}
			a.prefixes = append(a.prefixes, p.Masked())
		default:
			if addr, err := netip.ParseAddr(strings.Trim(item, "[]")); err == nil {
				a.prefixes = append(a.prefixes, netip.PrefixFrom(addr, addr.BitLen()))
			} else if validHost(item) {
				a.hosts[item] = true
			} else {
				return Allow{}, fmt.Errorf("fetch allow-list: %q is neither a host name, an address nor a CIDR network", item)
			}
		}
	}
	return a, nil
}

// validHost reports whether s can be a DNS host name.
func validHost(s string) bool {
	if len(s) > 253 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// guardian is the address check: the special-purpose registries of IANA (code.dny.dev/ssrf)
// refused, the allowed networks checked first. Any port is allowed: the address is the boundary,
// and documentation sites on :8080 exist.
func (a Allow) guardian() *ssrf.Guardian {
	var v4, v6 []netip.Prefix
	for _, p := range a.prefixes {
		if p.Addr().Is4() {
			v4 = append(v4, p)
		} else {
			v6 = append(v6, p)
		}
	}
	return ssrf.New(ssrf.WithAnyPort(), ssrf.WithAllowedV4Prefixes(v4...), ssrf.WithAllowedV6Prefixes(v6...))
}

// Client sends guarded requests. It is safe for concurrent use.
type Client struct {
	http  *http.Client
	post  *http.Client // follows no redirect
	dial  func(ctx context.Context, network, address string) (net.Conn, error)
	guard *ssrf.Guardian
	allow Allow
}

// New returns a client whose connections reach only public addresses and those allow allows. It
// never uses a proxy from the environment: the proxy, not the guard, would choose the address.
func New(allow Allow) *Client {
	guard := allow.guardian()
	guarded := &net.Dialer{Timeout: dialTimeout, Control: func(network, address string, c syscall.RawConn) error {
		if err := guard.Safe(network, address, c); err != nil {
			return fmt.Errorf("%w: %v", ErrRefused, err)
		}
		return nil
	}}
	open := &net.Dialer{Timeout: dialTimeout}
	dial := func(ctx context.Context, network, address string) (net.Conn, error) {
		if host, _, err := net.SplitHostPort(address); err == nil && allow.hosts[strings.ToLower(host)] {
			return open.DialContext(ctx, network, address)
		}
		return guarded.DialContext(ctx, network, address)
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dial,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   dialTimeout,
		ResponseHeaderTimeout: headerTimeout,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       30 * time.Second,
	}
	c := &Client{dial: dial, guard: guard, allow: allow}
	c.http = &http.Client{Transport: transport, CheckRedirect: c.checkRedirect}
	c.post = &http.Client{Transport: transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return c
}

// Allowed reports whether the operator's allow-list names host: a listed host name, or an address
// of a listed network. (A name that merely resolves into a listed network is not: the answer must
// not depend on DNS.)
func (c *Client) Allowed(host string) bool {
	host = strings.ToLower(strings.Trim(host, "[]"))
	if addr, err := netip.ParseAddr(host); err == nil {
		for _, p := range c.allow.prefixes {
			if p.Contains(addr.WithZone("")) {
				return true
			}
		}
		return false
	}
	return c.allow.hosts[host]
}

// Dial connects to address ("host:port") as the client's requests do: to public addresses and
// those the allow-list allows, within 5 seconds. A refused address is an error wrapping
// ErrRefused.
func (c *Client) Dial(ctx context.Context, network, address string) (net.Conn, error) {
	return c.dial(ctx, network, address)
}

// HTTP returns a standard client over the same guarded connections, for libraries that take an
// *http.Client: its redirects are checked as Get's, each request ends within timeout, and an
// answer's body is cut after max bytes (the reader then fails with ErrTooLarge).
func (c *Client) HTTP(timeout time.Duration, max int64) *http.Client {
	return &http.Client{Transport: limitedBodies{c.http.Transport, max}, CheckRedirect: c.checkRedirect, Timeout: timeout}
}

// limitedBodies cuts the answers' bodies of a transport after max bytes.
type limitedBodies struct {
	next http.RoundTripper
	max  int64
}

func (l limitedBodies) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := CheckURL(req.URL); err != nil {
		return nil, err
	}
	res, err := l.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	res.Body = &limitedBody{ReadCloser: res.Body, left: l.max, url: req.URL}
	return res, nil
}

// limitedBody fails with ErrTooLarge once more than its bytes were read.
type limitedBody struct {
	io.ReadCloser
	left int64
	url  *url.URL
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, fmt.Errorf("%w: %s is too long", ErrTooLarge, b.url.Redacted())
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, fmt.Errorf("%w: %s is too long", ErrTooLarge, b.url.Redacted())
	}
	return n, err
}

// checkRedirect follows at most maxRedirects redirects, to URLs check accepts; the dialer
// checks the address each connects to.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("%w: more than %d redirects", ErrRefused, maxRedirects)
	}
	return c.check(req.URL)
}

// check refuses a URL before any connection: CheckURL's, and a host that is a refused address
// (the dialer would refuse it too, but a host without IPv6 could fail to open the socket first).
func (c *Client) check(u *url.URL) error {
	if err := CheckURL(u); err != nil {
		return err
	}
	if addr, err := netip.ParseAddr(u.Hostname()); err == nil {
		if err := c.guard.SafeAddr(addr.WithZone("")); err != nil {
			return fmt.Errorf("%w: %v", ErrRefused, err)
		}
	}
	return nil
}

// CheckURL refuses a URL the client would not fetch: another scheme than http or https, no host.
func CheckURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: only http and https URLs are fetched, not %q", ErrRefused, u.Scheme)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("%w: the URL has no host", ErrRefused)
	}
	return nil
}

// Response is a fetched resource.
type Response struct {
	URL         *url.URL // where it was found, after redirects
	Status      int
	ContentType string // the media type, without parameters, in lower case
	Body        []byte
	// Cut (Post only): the body stopped before its end and before the bytes asked for — the
	// request's deadline passed or the connection closed while it was read.
	Cut bool
}

// Get fetches u, reading at most max bytes of body (a longer one is ErrTooLarge). A refused
// destination, on the first request or a redirect, is ErrRefused.
func (c *Client) Get(ctx context.Context, u *url.URL, max int64) (*Response, error) {
	if err := c.check(u); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", userAgent)
	res, err := c.http.Do(req)
	if err != nil {
		return nil, requestError(u, err)
	}
	defer res.Body.Close()
	if res.ContentLength > max {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than %d", ErrTooLarge, res.Request.URL.Redacted(), res.ContentLength, max)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > max {
		return nil, fmt.Errorf("%w: %s is more than %d bytes", ErrTooLarge, res.Request.URL.Redacted(), max)
	}
	return &Response{URL: res.Request.URL, Status: res.StatusCode, ContentType: mediaType(res.Header.Get("Content-Type")), Body: body}, nil
}

// Post sends body to u with header, and reads at most max bytes of the answer, leaving the rest
// unread (a webhook receiver's answer is kept only as an excerpt). The status decides: a body that
// stops short (ctx's deadline, a closed connection) is the answer with what came of it, Cut. It
// follows no redirect: a 3xx is the answer. A refused destination is ErrRefused.
func (c *Client) Post(ctx context.Context, u *url.URL, header http.Header, body []byte, max int64) (*Response, error) {
	if err := c.check(u); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = header.Clone()
	req.Header.Set("User-Agent", userAgent)
	res, err := c.post.Do(req)
	if err != nil {
		return nil, requestError(u, err)
	}
	defer res.Body.Close()
	excerpt, err := io.ReadAll(io.LimitReader(res.Body, max))
	return &Response{URL: u, Status: res.StatusCode, ContentType: mediaType(res.Header.Get("Content-Type")), Body: excerpt, Cut: err != nil}, nil
}

// requestError is what a caller learns of a request that got no answer. A refused destination says
// why (with no address: which address a name resolves to is the server's network's business); any
// other failure — DNS, a closed or filtered port, TLS, an answer that is not HTTP — is "could not
// connect to HOST", so that nobody learns through an import which ports of a host are open or
// which DNS server this server asks. Only the request's own deadline stays visible to errors.Is.
func requestError(u *url.URL, err error) error {
	host := u.Host
	var ue *url.Error
	if errors.As(err, &ue) {
		if at, perr := url.Parse(ue.URL); perr == nil {
			host = at.Host // a redirect's destination
		}
	}
	var op *net.OpError
	switch {
	case errors.Is(err, ErrRefused) && errors.As(err, &op):
		return fmt.Errorf("%w: %s is not a public address", ErrRefused, host)
	case errors.Is(err, ErrRefused) && ue != nil:
		return ue.Err // the redirect check's own words
	}
	return &unreachableError{host: host, deadline: errors.Is(err, context.DeadlineExceeded)}
}

// unreachableError is a request that got no answer from host.
type unreachableError struct {
	host string
	// deadline: the request's deadline passed (the caller's own bound; the dialer's and the
	// header timeouts, shorter, are not it).
	deadline bool
}

func (e *unreachableError) Error() string {
	if e.deadline {
		return "could not connect to " + e.host + " in the time allowed"
	}
	return "could not connect to " + e.host
}

func (e *unreachableError) Unwrap() error {
	if e.deadline {
		return context.DeadlineExceeded
	}
	return nil
}

// mediaType is the lower-case media type of a Content-Type header ("text/html").
func mediaType(header string) string {
	t, _, _ := strings.Cut(header, ";")
	return strings.ToLower(strings.TrimSpace(t))
}
