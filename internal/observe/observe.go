// Package observe is what an operator sees of a running server: Prometheus metrics (HTTP
// requests by route pattern, GraphQL operations, database pools and statements, background jobs,
// the Go runtime), one structured access log line per request, and request ids that tie a
// request's log lines together.
//
// An Observer belongs to one server (its own registry, so tests may run several servers in one
// process). Every label's values are bounded: routes are the router's patterns, never raw paths;
// methods, statuses, statement verbs and job kinds come from fixed sets; GraphQL operation names
// are kept up to a bound and fold into "other" past it.
package observe

import (
	"database/sql"
	"errors"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/readcache"
)

// Observer holds a server's metrics.
type Observer struct {
	registry   *prometheus.Registry
	http       httpMetrics
	graphql    graphqlMetrics
	statements *prometheus.HistogramVec
	jobRuns    *prometheus.CounterVec
	jobTime    *prometheus.HistogramVec
}

// Latency buckets in seconds, from a point read (under a millisecond) to the 30 s deadline.
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// Job durations run from milliseconds to the minutes of a large import.
var jobBuckets = []float64{.01, .05, .1, .5, 1, 5, 10, 30, 60, 300, 900}

// New returns an observer whose registry holds the Go runtime's and the process's metrics, the
// build's version, and Bindery's own families.
func New(version string) *Observer {
	reg := prometheus.NewRegistry()
	f := factory{reg}
	o := &Observer{
		registry: reg,
		http:     newHTTPMetrics(f),
		graphql:  newGraphQLMetrics(f),
		statements: f.histogram("bindery_db_statement_duration_seconds",
			"Time of the SQL statements sent, by verb (select, insert, update, delete, other); an ent query until its rows are closed.",
			latencyBuckets, "verb"),
		jobRuns: f.counter("bindery_job_runs_total",
			"Background job runs by kind and outcome (ok, failed, lease_lost).", "kind", "outcome"),
		jobTime: f.histogram("bindery_job_duration_seconds", "Time of background job runs by kind.", jobBuckets, "kind"),
	}
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "bindery_build_info", Help: "The running build: always 1, with its version.",
			ConstLabels: prometheus.Labels{"version": version},
		}, func() float64 { return 1 }),
	)
	return o
}

// factory makes metric families registered in one registry.
type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) histogram(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
	f.reg.MustRegister(h)
	return h
}

// Handler serves the metrics in the Prometheus text format (or OpenMetrics when asked).
func (o *Observer) Handler() http.Handler {
	return promhttp.HandlerFor(o.registry, promhttp.HandlerOpts{EnableOpenMetrics: true})
}

// WatchPool adds the statistics of a connection pool (open, in use, idle, waits) as go_sql_*
// metrics labelled db_name=name. Watching the same name twice keeps the first.
func (o *Observer) WatchPool(name string, db *sql.DB) {
	err := o.registry.Register(collectors.NewDBStatsCollector(db, name))
	if are := (prometheus.AlreadyRegisteredError{}); err != nil && !errors.As(err, &are) {
		panic(err) // the collector's descriptors are fixed: only a bug here gets this far
	}
}

// WatchReadCache adds what the read cache did (decision 366): reads answered with a kept answer
// or computed, answers kept, and the bytes they hold.
func (o *Observer) WatchReadCache(c *readcache.Cache) {
	answers := func(result string, n func(readcache.Stats) uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "bindery_read_cache_reads_total", Help: "API reads by whether a kept answer was taken or the answer computed.",
			ConstLabels: prometheus.Labels{"result": result},
		}, func() float64 { return float64(n(c.Stats())) })
	}
	o.registry.MustRegister(
		answers("taken", func(s readcache.Stats) uint64 { return s.Taken }),
		answers("computed", func(s readcache.Stats) uint64 { return s.Computed }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "bindery_read_cache_kept_total", Help: "Answers the read cache kept."},
			func() float64 { return float64(c.Stats().Kept) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "bindery_read_cache_bytes", Help: "Bytes the read cache's answers hold."},
			func() float64 { return float64(c.Stats().Bytes) }),
	)
}

// Statement records the time of one SQL statement (store.Hooks.After).
func (o *Observer) Statement(query string, took time.Duration) {
	o.statements.WithLabelValues(verb(query)).Observe(took.Seconds())
}

// verb is the first word of a statement, lower-cased, among a fixed few; WITH counts as select.
func verb(query string) string {
	i := 0
	for i < len(query) && (query[i] == ' ' || query[i] == '\n' || query[i] == '\t' || query[i] == '(') {
		i++
	}
	if len(query)-i < 6 {
		return "other"
	}
	switch w := query[i : i+6]; {
	case equalFold(w, "select"), equalFold(w[:4], "with"):
		return "select"
	case equalFold(w, "insert"):
		return "insert"
	case equalFold(w, "update"):
		return "update"
	case equalFold(w, "delete"):
		return "delete"
	}
	return "other"
}

// equalFold compares ASCII letters case-insensitively (strings.EqualFold also folds Unicode).
func equalFold(s, lower string) bool {
	for i := range len(lower) {
		if s[i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// Job records a background job's run (jobs.Options.Done): its kind, time and outcome.
func (o *Observer) Job(kind string, took time.Duration, err error) {
	outcome := "ok"
	switch {
	case err == nil:
	case errors.Is(err, jobs.ErrLeaseLost):
		outcome = "lease_lost"
	default:
		outcome = "failed"
	}
	o.jobRuns.WithLabelValues(kind, outcome).Inc()
	o.jobTime.WithLabelValues(kind).Observe(took.Seconds())
}
