package rest

import (
	"net/http"
	"strings"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/ratelimit"
)

// RateLimit says how requests are metered (decisions 200–205).
type RateLimit struct {
	Limiter *ratelimit.Limiter // nil: no limits, no headers
	Proxies ratelimit.Proxies  // reverse proxies whose X-Forwarded-For names the client
	// SiteHost reports whether a request is to a published site's own hostname (resource sites).
	SiteHost func(*http.Request) bool
}

// unmetered are the paths of static assets and health checks: serving them costs less than
// counting them, and a probe must never be refused.
var unmetered = []string{"/graphql/assets/", "/sites/~assets/", "/healthz", "/readyz", "/metrics"}

// meter charges every request but the unmetered ones to a budget, and sets the X-RateLimit-*
// headers: a request without API credentials to its client address, here; an API request with
// a token or session cookie in authenticate, to those credentials when they are valid (else to
// its address, a failed authentication costing more); a GraphQL request's cost beyond its first
// point in graph, once its complexity is known.
func meter(c RateLimit) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if c.Limiter == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if isUnmetered(r.URL.Path) {
				next.ServeHTTP(w, r)
				return
			}
			m := c.Limiter.Meter(w.Header(), ratelimit.Address(c.Proxies.ClientAddress(r)), resourceOf(r, c.SiteHost))
			r = r.WithContext(ratelimit.NewContext(r.Context(), m))
			if !chargedByCredentials(r) {
				if err := m.Charge(r.Context(), requestCost(r)); err != nil {
					writeError(w, r, err)
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// chargeAddress charges an API route that takes no credentials to the client address, also
// when the request carries some (meter left it to authenticate, which does not run there).
func chargeAddress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m := ratelimit.FromContext(r.Context()); !m.Charged() {
			if err := m.Charge(r.Context(), requestCost(r)); err != nil {
				writeError(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// chargeCredentials charges a request whose credentials authenticate accepted to them.
func chargeCredentials(r *http.Request, who ratelimit.Subject) error {
	m := ratelimit.FromContext(r.Context())
	m.Identify(who)
	return m.Charge(r.Context(), requestCost(r))
}

// chargeRefused charges a request authenticate refuses with err to its client address (a
// failed authentication FailedAuthCost), unless meter did, and returns what to answer: err, or
// the rate limit's refusal once the address has spent its budget.
func chargeRefused(r *http.Request, err error) error {
	m := ratelimit.FromContext(r.Context())
	if m.Charged() {
		return err
	}
	cost := requestCost(r)
	if e := apperr.As(err); e != nil && e.Kind == apperr.Unauthenticated {
		cost = ratelimit.FailedAuthCost
	}
	if lerr := m.Charge(r.Context(), cost); lerr != nil {
		return lerr
	}
	return err
}

// refuseOverBudget answers 429 with the error body, as other refusals before GraphQL runs, when
// graph refused a GraphQL operation's cost: gqlgen's own answer is dropped.
func refuseOverBudget(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := ratelimit.FromContext(r.Context())
		if m == nil {
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(&refusalWriter{ResponseWriter: w, r: r, m: m}, r)
	})
}

// refusalWriter passes an answer through, or replaces it by the meter's refusal.
type refusalWriter struct {
	http.ResponseWriter
	r       *http.Request
	m       *ratelimit.Meter
	refused bool
}

// Unwrap lets http.ResponseController reach the connection's writer (a stream of events flushes).
func (w *refusalWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *refusalWriter) WriteHeader(code int) {
	if !w.refuse() {
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *refusalWriter) Write(b []byte) (int, error) {
	if w.refuse() {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// refuse writes the refusal once, and reports whether the answer is the refusal.
func (w *refusalWriter) refuse() bool {
	err := w.m.Refusal()
	if err != nil && !w.refused {
		w.refused = true
		writeError(w.ResponseWriter, w.r, err)
	}
	return err != nil
}

// requestCost is what a request costs on arrival: a write more than a read; a GraphQL request
// one point, the rest once its complexity is known.
func requestCost(r *http.Request) int {
	if isRead(r.Method) || isGraphQL(r) {
		return ratelimit.ReadCost
	}
	return ratelimit.WriteCost
}

func isGraphQL(r *http.Request) bool { return r.Method == http.MethodPost && r.URL.Path == "/graphql" }

// isAPI reports whether a request is to the authenticated API (REST /v1 and POST /graphql).
func isAPI(r *http.Request) bool {
	return isGraphQL(r) || r.URL.Path == "/v1" || strings.HasPrefix(r.URL.Path, "/v1/")
}

// chargedByCredentials reports whether a request is charged by authenticate (to its credentials,
// or to its address when they are refused) rather than by meter: an API request with credentials.
func chargedByCredentials(r *http.Request) bool { return isAPI(r) && hasCredentials(r) }

// hasCredentials reports whether a request carries what authenticate checks: a bearer token or
// a session cookie.
func hasCredentials(r *http.Request) bool {
	if _, ok := bearer(r.Header.Get("Authorization")); ok {
		return true
	}
	c, err := r.Cookie(SessionCookie)
	return err == nil && c.Value != ""
}

// resourceOf is the budget a request draws on.
func resourceOf(r *http.Request, siteHost func(*http.Request) bool) ratelimit.Resource {
	switch {
	case isGraphQL(r):
		return ratelimit.GraphQL
	case isAPI(r):
		return ratelimit.Core
	case strings.HasPrefix(r.URL.Path, "/sites/") || siteHost != nil && siteHost(r):
		return ratelimit.Sites
	}
	return ratelimit.Core
}

func isUnmetered(path string) bool {
	for _, p := range unmetered {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// knowReader puts in the request's context who sends it, as insights records readers' events:
// their address (as the rate limits see it) and whether they asked not to be tracked.
func knowReader(proxies ratelimit.Proxies) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reader := insights.ReaderOf(r, proxies.ClientAddress(r))
			next.ServeHTTP(w, r.WithContext(insights.WithReader(r.Context(), reader)))
		})
	}
}
