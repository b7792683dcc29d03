package ratelimit

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/binderyhq/bindery/internal/apperr"
)

// Meter charges one request's points: to its client address until Identify names its valid
// credentials. Each charge sets the X-RateLimit-* headers of the budget it drew on. A request is
// charged by the middleware that knows who sent it, and a GraphQL request once more when its
// cost is known; it is used by one goroutine at a time.
type Meter struct {
	l        *Limiter
	header   http.Header
	subject  Subject
	resource Resource
	charged  bool
	refusal  error // the refused charge's error
}

// Meter returns the meter of a request to resource r from address, writing headers to h.
func (l *Limiter) Meter(h http.Header, address Subject, r Resource) *Meter {
	return &Meter{l: l, header: h, subject: address, resource: r}
}

type meterKey struct{}

// NewContext returns ctx carrying m.
func NewContext(ctx context.Context, m *Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// FromContext returns the request's meter, or nil when rate limiting is off.
func FromContext(ctx context.Context) *Meter {
	m, _ := ctx.Value(meterKey{}).(*Meter)
	return m
}

// Identify charges the rest of the request to s, its valid token or session.
func (m *Meter) Identify(s Subject) {
	if m != nil {
		m.subject = s
	}
}

// Charged reports whether the request was charged; a nil meter charges nothing and is charged.
func (m *Meter) Charged() bool { return m == nil || m.charged }

// Refusal is the error of a refused charge, or nil.
func (m *Meter) Refusal() error {
	if m == nil {
		return nil
	}
	return m.refusal
}

// Charge spends cost points, or returns a RATE_LIMITED error that names the budget when they
// would exceed it (nothing is spent then). A nil meter allows everything.
func (m *Meter) Charge(ctx context.Context, cost int) error {
	if m == nil {
		return nil
	}
	m.charged = true
	d := m.l.Take(ctx, m.subject, m.resource, cost)
	if d.Limit <= 0 {
		return nil
	}
	setHeaders(m.header, d)
	if d.Allowed {
		return nil
	}
	wait := retryAfter(d.Reset, m.l.clock())
	m.header.Set("Retry-After", strconv.Itoa(wait))
	m.refusal = apperr.RateLimitedf("rate limit exceeded: %s has spent %d of its %d points per %s for %s requests, and this request costs %d; "+
		"the budget starts again in %d s, at %s", who(d.Subject), d.Used, d.Limit, per(m.l.limits.Window), d.Resource, d.Cost,
		wait, d.Reset.UTC().Format(time.RFC3339))
	return m.refusal
}

// setHeaders writes the state of a budget as GitHub does: X-RateLimit-Reset in Unix seconds.
func setHeaders(h http.Header, d Decision) {
	h[headerLimit] = []string{strconv.Itoa(d.Limit)}
	h[headerRemaining] = []string{strconv.Itoa(d.Remaining())}
	h[headerUsed] = []string{strconv.Itoa(min(d.Used, d.Limit))}
	h[headerReset] = []string{strconv.FormatInt(int64(math.Ceil(float64(d.Reset.UnixNano())/1e9)), 10)}
	h[headerResource] = []string{string(d.Resource)}
}

// The X-RateLimit-* headers' names as net/http writes them, set directly: Header.Set would
// canonicalize (allocate) each name again at every request.
var (
	headerLimit     = http.CanonicalHeaderKey("X-RateLimit-Limit")
	headerRemaining = http.CanonicalHeaderKey("X-RateLimit-Remaining")
	headerUsed      = http.CanonicalHeaderKey("X-RateLimit-Used")
	headerReset     = http.CanonicalHeaderKey("X-RateLimit-Reset")
	headerResource  = http.CanonicalHeaderKey("X-RateLimit-Resource")
)

// retryAfter is the whole seconds from now until reset, at least 1: a client that waits them
// finds a new window.
func retryAfter(reset, now time.Time) int {
	return max(int(math.Ceil(reset.Sub(now).Seconds())), 1)
}

func who(s Subject) string {
	if s.IsAddress() {
		return "this client address (no valid credentials)"
	}
	return "this " + s.kind
}

// per names a window: "hour", "minute", or a duration.
func per(window time.Duration) string {
	switch window {
	case time.Hour:
		return "hour"
	case time.Minute:
		return "minute"
	}
	return window.String()
}
