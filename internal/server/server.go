// Package server assembles the HTTP handler of Bindery from an open store: resolvers, the GraphQL
// endpoint, the REST router and authentication. `bindery serve` and the tests build it the same way.
package server

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/binderyhq/bindery/dashboard"

	"github.com/99designs/gqlgen/graphql"
	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/crawl"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/gitsync"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/observe"
	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/openapispecs"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/readcache"
	"github.com/binderyhq/bindery/internal/search"
	"github.com/binderyhq/bindery/internal/sites"
	"github.com/binderyhq/bindery/internal/slots"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/publish"
	"github.com/binderyhq/bindery/rest"
)

// Version is the release of this server; Build the date it was built (set with -ldflags -X).
var (
	Version = "0.1.0-dev"
	Build   = "2026-11-21"
)

// Options configure the handler.
type Options struct {
	BaseURL        string // absolute URL clients reach this server at
	Limits         graph.Limits
	MaxBody        int64
	MaxUploadBody  int64 // body limit of content batches, which carry file bytes
	RequestTimeout time.Duration
	Clock          func() time.Time
	CORSOrigins    []string      // browser origins allowed to call the API; "*" for any
	FetchAllow     fetch.Allow   // hosts and networks imports and OpenAPI sources may be fetched from besides public addresses
	GitAllowLocal  bool          // Git Sync may reach file:// URLs and absolute paths (the server's own disk)
	GitPoll        time.Duration // how often Git Sync looks at linked branches for pushes; 0: never
	ImportLimits   crawl.Limits  // bounds of a website import
	OpenAPILimits  openapi.Limits
	OpenAPIRefresh time.Duration // how often specs with a URL source are fetched again; 0: never
	Jobs           jobs.Options  // the background job runner
	WebhookTimeout time.Duration // a webhook delivery attempt's deadline; 0: 10 s (tests shorten it)
	// AuditRetention is how long the audit log keeps an action (the hourly purge removes older
	// ones); 0 or less keeps them all. Defaults sets audit.DefaultRetention.
	AuditRetention time.Duration
	// Observer counts, times and logs requests, GraphQL operations, jobs and the store's pools;
	// nil observes nothing (the benchmarks' baseline). ServeMetrics serves its metrics at
	// /metrics of the handler (else `serve` puts them on their own listener).
	Observer       *observe.Observer
	ServeMetrics   bool
	RateLimits     ratelimit.Limits
	TrustedProxies ratelimit.Proxies // reverse proxies whose X-Forwarded-For names the client
	// ReadCache keeps the answers of API reads while the database is unchanged (decision 366);
	// nil keeps none.
	ReadCache *readcache.Cache
	// EventPoll is how often the events feed looks at the table when no notification woke it
	// (events.DefaultPoll when zero).
	EventPoll time.Duration
	// GraphQLExtensions are added to the GraphQL handler after Bindery's own: per-field tracing,
	// for one, as a field interceptor (graphql.FieldInterceptor) sees every field resolved.
	GraphQLExtensions []graphql.HandlerExtension
	// DNS answers the lookups of custom hostnames' checks; nil: the system's resolver.
	DNS sites.Resolver
	// HostnameTLS is where custom hostnames' TLS checks connect and what they trust: port 443
	// and the system's roots when zero (tests point them at a TLS server of their own).
	HostnameTLS sites.TLSTarget
	// Insights records readers' events on published sites, flushed while the job runner runs;
	// nil records none. InsightsRetention is how long they are kept (insights.DefaultRetention
	// when zero).
	Insights          *insights.Recorder
	InsightsRetention time.Duration
}

// Defaults are the options of a server started without flags.
func Defaults(baseURL string) Options {
	return Options{BaseURL: baseURL, Limits: graph.DefaultLimits, MaxBody: 1 << 20, MaxUploadBody: 32 << 20, RequestTimeout: 30 * time.Second,
		ImportLimits: crawl.DefaultLimits, RateLimits: ratelimit.DefaultLimits, AuditRetention: audit.DefaultRetention}
}

// New returns the server's HTTP handler over an open store, and the runner of its background jobs
// (not started: `serve` runs it until it stops).
func New(st *store.Store, o Options) (http.Handler, *jobs.Runner) {
	if o.Observer != nil {
		o.Jobs.Done = o.Observer.Job
	}
	runner := jobs.New(st.Client, o.Jobs)
	a := authenticators(st, o.Clock)
	r := &graph.Resolver{Client: st.Client, Clock: o.Clock, Version: Version, Build: Build, BaseURL: o.BaseURL,
		Blobs: st.Blobs, Search: search.New(st.Postgres()), Fetcher: fetch.New(o.FetchAllow), ImportLimits: o.ImportLimits,
		Jobs: runner, OpenAPILimits: openAPILimits(o.OpenAPILimits), OpenAPIRefresh: o.OpenAPIRefresh, DNS: o.DNS, HostnameTLS: o.HostnameTLS,
		WebhookTimeout: o.WebhookTimeout, Feed: events.NewFeed(st.Client, st.Postgres(), o.EventPoll, st.ListenEvents()),
		Outbox:            events.NewOutbox(st.Client, st.Postgres()),
		SubscriptionSlots: slots.New(st.Client, st.Postgres(), o.Limits.Subscriptions.Lease),
		GitAllowLocal:     o.GitAllowLocal, GitPoll: o.GitPoll, Insights: o.Insights}
	if o.Insights != nil {
		runner.Beside(o.Insights.Run)
	}
	gitsync.UseHTTPClient(r.Fetcher.HTTP(gitsync.HTTPTimeout, gitsync.MaxTransfer))
	r.HandleGitSyncJobs(runner)
	runner.Handle(openapispecs.Job, r.ProcessOpenAPISpec)
	r.HandleWebhookJobs(runner)
	runner.Handle(sweep.Job, sweep.Handler(st.Client, orNow(o.Clock),
		sweep.Retentions{Audit: o.AuditRetention, Insights: cmp.Or(o.InsightsRetention, insights.DefaultRetention)}))
	runner.Handle(blobs.CollectJob, blobCollector(st, o.Clock).Run)
	if o.RateLimits.On() { // a process without limits must not sweep the windows of those with them
		runner.Handle(ratelimit.SweepJob, st.RateCounters.SweepHandler(o.RateLimits.Window, orNow(o.Clock)))
	}
	sites := publish.New(r, o.BaseURL, o.ReadCache)
	gql := graph.NewHandler(r, o.Limits)
	for _, ext := range o.GraphQLExtensions {
		gql.Use(ext)
	}
	router := rest.NewRouter(rest.Config{
		Resolver:            r,
		GraphQL:             gql,
		Authenticate:        a.token,
		AuthenticateSession: a.session,
		MaxBody:             o.MaxBody,
		MaxUploadBody:       o.MaxUploadBody,
		RequestTimeout:      o.RequestTimeout,
		BaseURL:             o.BaseURL,
		CORSOrigins:         o.CORSOrigins,
		Sites:               sites.Routes,
		Dashboard:           dashboard.New(r).Routes,
		Ready:               st.Ready,
		Metrics:             metricsHandler(o),
		SitesByHost:         sites.ByHost,
		ReadCache:           o.ReadCache,
		RateLimit: rest.RateLimit{
			Limiter:  ratelimit.New(o.RateLimits, st.RateCounters, o.Clock),
			Proxies:  o.TrustedProxies,
			SiteHost: sites.IsSiteHost,
		},
	})
	h := http.Handler(router)
	if o.Observer != nil {
		gql.Use(o.Observer.GraphQL())
		for _, p := range st.Pools() {
			o.Observer.WatchPool(p.Name, p.DB)
		}
		if o.ReadCache != nil {
			o.Observer.WatchReadCache(o.ReadCache)
		}
		h = o.Observer.Middleware(h, router.(chi.Routes))
	}
	return h, runner
}

// metricsHandler is the handler of /metrics on the main listener, or nil when it is not there.
func metricsHandler(o Options) http.Handler {
	if o.Observer == nil || !o.ServeMetrics {
		return nil
	}
	return o.Observer.Handler()
}

// blobCollector removes the blobs of the store that no file references, a day after their last write.
func blobCollector(st *store.Store, clock func() time.Time) *blobs.Collector {
	if clock == nil {
		clock = time.Now
	}
	return &blobs.Collector{Client: st.Client, Store: st.Blobs, Grace: blobs.DefaultGrace, Interval: blobs.DefaultInterval, Clock: clock}
}

// openAPILimits are the bounds of processing OpenAPI documents: l, or the defaults when zero, with
// a gate shared by the server's processings when l has none. The gate holds twice the bytes one
// document and its files may have: two of the largest documents at once, or many small ones,
// however many workers run (decision 190).
func openAPILimits(l openapi.Limits) openapi.Limits {
	if l == (openapi.Limits{}) {
		l = openapi.DefaultLimits
	}
	if l.Gate == nil {
		l.Gate = openapi.NewGate(2 * l.MaxBytes)
	}
	return l
}

// auth turns bearer tokens and session cookies into viewers, with one membership cache.
type auth struct {
	a     *accounts.Authenticator
	clock func() time.Time
}

func authenticators(st *store.Store, clock func() time.Time) auth {
	return auth{a: accounts.NewAuthenticator(st.Client), clock: orNow(clock)}
}

// orNow is clock, or time.Now when it is nil.
func orNow(clock func() time.Time) func() time.Time {
	if clock == nil {
		return time.Now
	}
	return clock
}

func (a auth) token(ctx context.Context, token string) (*viewer.Viewer, error) {
	v, err := a.a.Authenticate(ctx, token)
	if errors.Is(err, accounts.ErrInvalidToken) {
		return nil, apperr.Unauthenticatedf("the bearer token is invalid or was revoked")
	}
	return v, err
}

func (a auth) session(ctx context.Context, secret string) (*viewer.Viewer, error) {
	v, err := a.a.AuthenticateSession(ctx, secret, a.clock())
	if errors.Is(err, accounts.ErrInvalidSession) {
		return nil, apperr.Unauthenticatedf("the session expired or ended: sign in again")
	}
	return v, err
}
