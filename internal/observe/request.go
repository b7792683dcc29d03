package observe

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/binderyhq/bindery/internal/id"
)

// httpMetrics are the request families. The series of a (route, method, status) are looked up
// once and kept, so a request adds no allocation for them.
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge

	mu     sync.RWMutex
	series map[seriesKey]series
}

// seriesKey names a request's series by chi's route patterns as they are (at most three: a
// pattern of each nested router), so that finding it joins nothing.
type seriesKey struct {
	patterns [3]string
	method   string
	status   int
}

type series struct {
	route    string // the label
	count    prometheus.Counter
	duration prometheus.Observer
}

func newHTTPMetrics(f factory) httpMetrics {
	inFlight := prometheus.NewGauge(prometheus.GaugeOpts{Name: "bindery_http_requests_in_flight", Help: "Requests being served."})
	f.reg.MustRegister(inFlight)
	return httpMetrics{
		requests: f.counter("bindery_http_requests_total",
			"HTTP requests by route pattern, method and status (499: the client went away first).", "route", "method", "status"),
		duration: f.histogram("bindery_http_request_duration_seconds",
			"Time to answer HTTP requests, by route pattern and method.", latencyBuckets, "route", "method"),
		inFlight: inFlight,
		series:   map[seriesKey]series{},
	}
}

// seriesOf returns the series of a request: k.patterns, or route when the patterns do not say it.
func (m *httpMetrics) seriesOf(k seriesKey, route func() string) series {
	m.mu.RLock()
	s, ok := m.series[k]
	m.mu.RUnlock()
	if ok {
		return s
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok = m.series[k]; !ok {
		r := route()
		s = series{r, m.requests.WithLabelValues(r, k.method, strconv.Itoa(k.status)), m.duration.WithLabelValues(r, k.method)}
		m.series[k] = s
	}
	return s
}

// Route labels of requests that no route pattern names (SetRoute).
const (
	RouteUnmatched = "unmatched"     // no route (404), or a method no route has (405)
	RouteSiteHost  = "site-hostname" // a published site at its custom hostname (publish.ByHost)
)

// methodLabel bounds the method label: a method the API does not know is "other".
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}

// statusClientClosedRequest is nginx's status for a request whose client went away before the
// answer began; it is only logged and counted, never sent.
const statusClientClosedRequest = 499

// request is what the middleware knows of one request; it is the request's context too, so that
// the router's route context and the request id cost no extra allocation.
type request struct {
	context.Context
	route      *chi.Context
	fixedRoute string // the route label a handler set (SetRoute)
	id         string
	userID     string
	header     [1]string // the X-Request-Id header's value
	rec        recorder
}

type requestKey struct{}

// Value answers the router's route context and the request itself.
func (q *request) Value(key any) any {
	switch key {
	case chi.RouteCtxKey:
		return q.route
	case requestKey{}:
		return q
	}
	return q.Context.Value(key)
}

func requestOf(ctx context.Context) *request {
	q, _ := ctx.Value(requestKey{}).(*request)
	return q
}

// RequestID returns the id of the request ctx belongs to, or "".
func RequestID(ctx context.Context) string {
	if q := requestOf(ctx); q != nil {
		return q.id
	}
	return ""
}

// SetUser records the user a request acts for, for its access line (authentication calls it).
func SetUser(ctx context.Context, userID string) {
	if q := requestOf(ctx); q != nil {
		q.userID = userID
	}
}

// SetRoute sets the route label of a request that no route pattern names: RouteUnmatched or
// RouteSiteHost.
func SetRoute(ctx context.Context, label string) {
	if q := requestOf(ctx); q != nil {
		q.fixedRoute = label
	}
}

// routeContexts recycles the router's route contexts, as chi does for its own.
var routeContexts = sync.Pool{New: func() any { return chi.NewRouteContext() }}

// Middleware observes every request to next: it gives it an id (echoed in X-Request-Id; an
// incoming one is kept when it is short and plain), counts and times it by route pattern, and
// logs one access line when it ends. The route pattern is read from chi's route context, which
// the middleware supplies so that it outlives the router's handling of the request; routes (the
// router, or nil) names the pattern of a request refused before routing.
func (o *Observer) Middleware(next http.Handler, routes chi.Routes) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		q := &request{Context: r.Context(), route: routeContexts.Get().(*chi.Context)}
		q.route.Reset()
		q.id = incomingID(r.Header.Get("X-Request-Id"))
		if q.id == "" {
			q.id = id.Random(16)
		}
		q.header[0] = q.id
		w.Header()["X-Request-Id"] = q.header[:]
		q.rec = recorder{ResponseWriter: w, ctx: r.Context(), status: http.StatusOK}
		o.http.inFlight.Inc()
		next.ServeHTTP(&q.rec, r.WithContext(q))
		o.http.inFlight.Dec()
		if !q.rec.started && clientGone(r.Context()) {
			q.rec.status = statusClientClosedRequest // the handler wrote nothing to a client that left
		}
		took := time.Since(start)
		q.nameMountedRoute(r, routes)
		s := o.http.seriesOf(q.seriesKey(r), func() string { return q.routeLabel(r, routes) })
		routeContexts.Put(q.route)
		s.count.Inc()
		s.duration.Observe(took.Seconds())
		logAccess(r, q, s.route, took)
	})
}

// seriesKey is the key of the request's series: its route patterns, or its fixed route
// (SetRoute) as the only one. Over three patterns, their join.
func (q *request) seriesKey(r *http.Request) seriesKey {
	k := seriesKey{method: methodLabel(r.Method), status: q.rec.status}
	switch p := q.route.RoutePatterns; {
	case q.fixedRoute != "":
		k.patterns[0] = q.fixedRoute
	case len(p) > len(k.patterns):
		k.patterns[0] = q.route.RoutePattern()
	default:
		copy(k.patterns[:], p)
	}
	return k
}

// routeLabel is the route label of a request: the pattern that served it, the fixed label its
// handler set, or for a request refused before routing (a body over the limit, a CORS
// preflight) the pattern it was meant for.
func (q *request) routeLabel(r *http.Request, routes chi.Routes) string {
	if q.fixedRoute != "" {
		return q.fixedRoute
	}
	if len(q.route.RoutePatterns) > 0 {
		return q.route.RoutePattern()
	}
	if routes != nil {
		if p := routes.Find(chi.NewRouteContext(), r.Method, requestPath(r)); p != "" {
			return p
		}
	}
	return RouteUnmatched
}

// nameMountedRoute gives a request refused by the middleware of a mounted router (its
// authentication, a spent budget, the body limit: before the mounted router chose a route) the
// route it was meant for, instead of the mount's pattern ("/v1/*"). A route of its own that ends
// in "/*" is found as itself.
func (q *request) nameMountedRoute(r *http.Request, routes chi.Routes) {
	p := q.route.RoutePatterns
	if q.fixedRoute != "" || routes == nil || len(p) == 0 || !strings.HasSuffix(p[len(p)-1], "/*") {
		return
	}
	if found := routes.Find(chi.NewRouteContext(), r.Method, requestPath(r)); found != "" {
		q.fixedRoute = found
	}
}

// requestPath is the path a router matches: the escaped one when the URL has it.
func requestPath(r *http.Request) string {
	if r.URL.RawPath != "" {
		return r.URL.RawPath
	}
	return r.URL.Path
}

// quietRoutes are polled by machines: their access lines are logged at debug level only.
var quietRoutes = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// logAccess writes the request's access line: never its query, headers or body, which may carry
// tokens, keys or cookies; the route pattern says what was asked without the ids in the path.
func logAccess(r *http.Request, q *request, route string, took time.Duration) {
	level := slog.LevelInfo
	if quietRoutes[route] {
		level = slog.LevelDebug
	}
	ctx := q.Context // the request id is an attribute of its own here
	log := slog.Default()
	if !log.Enabled(ctx, level) {
		return
	}
	attrs := [...]slog.Attr{
		slog.String("request_id", q.id),
		slog.String("method", r.Method),
		slog.String("route", route),
		slog.Int("status", q.rec.status),
		slog.Int64("bytes", q.rec.bytes),
		slog.Float64("duration_ms", float64(took.Microseconds())/1000),
		slog.String("user_id", q.userID),
	}
	n := len(attrs)
	if q.userID == "" {
		n-- // anonymous
	}
	// Handled as a record of no caller: Logger.LogAttrs walks the stack for the caller, which
	// for the access log is always this line, and which no handler of Bindery writes.
	rec := slog.NewRecord(time.Now(), level, "request", 0)
	rec.AddAttrs(attrs[:n]...)
	_ = log.Handler().Handle(ctx, rec) // as LogAttrs, which drops a handler's error
}

// incomingID returns a request id sent by a client or proxy when it is 1 to 64 letters, digits,
// '-', '_' or '.', else "" (anything else could forge or break log lines).
func incomingID(s string) string {
	if len(s) == 0 || len(s) > 64 {
		return ""
	}
	for i := range len(s) {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return ""
		}
	}
	return s
}

// clientGone reports whether the request's client went away (its context was cancelled), as
// graph.ClientGone does for the resolvers.
func clientGone(ctx context.Context) bool { return ctx.Err() == context.Canceled }

// recorder keeps the status and size of the answer, and drops an answer that begins after its
// client went away (GraphQL writes one whatever its fields did): nobody reads it.
type recorder struct {
	http.ResponseWriter
	ctx     context.Context // the request's, without the deadline
	status  int
	bytes   int64
	started bool
}

func (s *recorder) WriteHeader(code int) {
	if s.started {
		s.ResponseWriter.WriteHeader(code) // net/http warns of the superfluous call
		return
	}
	s.started, s.status = true, code
	if clientGone(s.ctx) {
		s.status = statusClientClosedRequest
		return
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *recorder) Write(b []byte) (int, error) {
	if !s.started {
		s.WriteHeader(http.StatusOK)
	}
	if s.status == statusClientClosedRequest {
		return len(b), nil
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer (flushes, deadlines).
func (s *recorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
