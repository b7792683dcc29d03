package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/gitsync"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/readcache"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/slots"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/internal/webhooks"
)

func serve(ctx context.Context, args []string) error {
	collectGarbageLessOften()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var sf storeFlags
	sf.register(fs)
	addr := fs.String("addr", envOr("BINDERY_ADDR", "127.0.0.1:8080"), "address to listen on (env BINDERY_ADDR)")
	baseURL := fs.String("base-url", envOr("BINDERY_BASE_URL", ""), "absolute URL clients reach the server at (default http://ADDR)")
	opts := server.Defaults("")
	fs.IntVar(&opts.Limits.Depth, "graphql-depth", opts.Limits.Depth, "GraphQL: maximum selection depth")
	fs.IntVar(&opts.Limits.Complexity, "graphql-complexity", opts.Limits.Complexity, "GraphQL: maximum complexity")
	fs.IntVar(&opts.Limits.Aliases, "graphql-aliases", opts.Limits.Aliases, "GraphQL: maximum aliases per operation")
	fs.IntVar(&opts.Limits.Tokens, "graphql-tokens", opts.Limits.Tokens, "GraphQL: maximum parser tokens")
	fs.IntVar(&opts.Limits.Subscriptions.PerCredential, "graphql-subscriptions-per-token", opts.Limits.Subscriptions.PerCredential,
		"GraphQL: subscriptions one token or session may hold at once on all the servers of the database")
	fs.DurationVar(&opts.Limits.Subscriptions.Lease, "graphql-subscription-lease", slots.DefaultLease,
		"GraphQL: how long the subscriptions of a server that died still count against their token's limit (1s or more)")
	noIntro := fs.Bool("no-introspection", false, "GraphQL: turn schema introspection off")
	jobLease := fs.String("job-lease", envOr("BINDERY_JOB_LEASE", "1m"),
		"how long a background job of a server that died waits before another server takes it over, 5s or more (env BINDERY_JOB_LEASE)")
	cors := fs.String("cors-origins", envOr("BINDERY_CORS_ORIGINS", ""),
		"comma-separated browser origins allowed to call the API, or * (env BINDERY_CORS_ORIGINS)")
	fs.Int64Var(&opts.MaxBody, "max-body", opts.MaxBody, "maximum request body in bytes")
	fetchAllow := fs.String("fetch-allow", envOr("BINDERY_FETCH_ALLOW", ""),
		"comma-separated hosts, addresses or CIDR networks imports may fetch from besides public addresses (env BINDERY_FETCH_ALLOW)")
	gitAllowLocal := fs.Bool("git-allow-local", envOr("BINDERY_GIT_ALLOW_LOCAL", "") == "1",
		"Git Sync may reach file:// URLs and absolute paths, the server's own disk (env BINDERY_GIT_ALLOW_LOCAL=1)")
	gitPoll := fs.String("git-poll", envOr("BINDERY_GIT_POLL", "0"),
		"how often Git Sync looks at every linked branch for pushes to import, e.g. 5m; 0 for never (env BINDERY_GIT_POLL)")
	var of opsFlags
	of.register(fs)
	refresh := fs.String("openapi-refresh", envOr("BINDERY_OPENAPI_REFRESH", "0"),
		"how often OpenAPI specs with a URL source are fetched again, e.g. 6h; 0 turns it off (env BINDERY_OPENAPI_REFRESH)")
	openAPIMax := fs.String("openapi-max-mb", envOr("BINDERY_OPENAPI_MAX_MB", "32"),
		"MiB an OpenAPI document and the files it references may have together (env BINDERY_OPENAPI_MAX_MB)")
	var rf rateFlags
	rf.register(fs)
	readCache := fs.String("read-cache-mb", envOr("BINDERY_READ_CACHE_MB", "64"),
		"MiB of API answers kept while the database is unchanged, taken again by repeated reads; 0 keeps none (env BINDERY_READ_CACHE_MB)")
	auditRetention := fs.String("audit-retention", envOr("BINDERY_AUDIT_RETENTION", opts.AuditRetention.String()),
		"how long the audit log keeps an action, e.g. 2160h; 0 keeps them all (env BINDERY_AUDIT_RETENTION)")
	retention := fs.String("insights-retention", envOr("BINDERY_INSIGHTS_RETENTION", insights.DefaultRetention.String()),
		"how long readers' events on published sites are kept, e.g. 2160h for 90 days (env BINDERY_INSIGHTS_RETENTION)")
	noInsights := fs.Bool("no-insights", false, "record no readers' events on published sites")
	err := parse(fs, args)
	if err != nil {
		return err
	}
	if opts.Limits.Subscriptions.Lease < time.Second {
		return fmt.Errorf("--graphql-subscription-lease: %s is shorter than a second", opts.Limits.Subscriptions.Lease)
	}
	if opts.Jobs.Lease, err = time.ParseDuration(*jobLease); err != nil || opts.Jobs.Lease < 5*time.Second {
		return fmt.Errorf("--job-lease: %q is not a duration of 5s or more (e.g. 1m)", *jobLease)
	}
	if opts.InsightsRetention, err = time.ParseDuration(*retention); err != nil || opts.InsightsRetention < time.Hour {
		return fmt.Errorf("--insights-retention: %q is not a duration of an hour or more (e.g. 2160h)", *retention)
	}
	o, err := of.apply(&opts, &sf)
	if err != nil {
		return err
	}
	if err := rf.apply(&opts); err != nil {
		return err
	}
	readCacheMB, err := strconv.Atoi(*readCache)
	if err != nil || readCacheMB < 0 {
		return fmt.Errorf("--read-cache-mb: %q is not a number of MiB, 0 or more", *readCache)
	}
	if opts.OpenAPIRefresh, err = time.ParseDuration(*refresh); err != nil || opts.OpenAPIRefresh < 0 {
		return fmt.Errorf("--openapi-refresh: %q is not a duration of 0 or more (e.g. 6h)", *refresh)
	}
	if opts.AuditRetention, err = time.ParseDuration(*auditRetention); err != nil || opts.AuditRetention < 0 {
		return fmt.Errorf("--audit-retention: %q is not a duration of 0 or more (e.g. 2160h)", *auditRetention)
	}
	maxMB, err := strconv.Atoi(*openAPIMax)
	if err != nil || maxMB < 1 || maxMB > 1024 {
		return fmt.Errorf("--openapi-max-mb: %q is not a number of MiB from 1 to 1024", *openAPIMax)
	}
	opts.OpenAPILimits = openapi.DefaultLimits
	opts.OpenAPILimits.MaxBytes = int64(maxMB) << 20
	allow, err := fetch.ParseAllow(*fetchAllow)
	if err != nil {
		return err
	}
	opts.FetchAllow = allow
	opts.GitAllowLocal = *gitAllowLocal
	if opts.GitPoll, err = time.ParseDuration(*gitPoll); err != nil || (opts.GitPoll != 0 && opts.GitPoll < time.Second) {
		return fmt.Errorf("--git-poll: %q is not 0 or a duration of a second or more (e.g. 5m)", *gitPoll)
	}
	opts.Limits.Introspection = !*noIntro
	if *cors != "" {
		opts.CORSOrigins = strings.Split(*cors, ",")
	}
	opts.BaseURL = *baseURL
	if opts.BaseURL == "" {
		opts.BaseURL = "http://" + *addr
	}
	listeners, err := bindListeners(*addr, o)
	if err != nil {
		return err
	}
	defer closeListeners(listeners) // when the start fails; after a shutdown, a no-op
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer closeStore(st)
	if err := firstStart(ctx, st, opts.BaseURL); err != nil {
		return err
	}
	// The purge of spaces deleted more than 7 days ago is a job that recurs hourly (internal/sweep).
	if err := sweep.Schedule(ctx, st.Client, time.Now()); err != nil {
		return err
	}
	// Linked git branches are looked at for pushes by a job that recurs at --git-poll (decision 497).
	if opts.GitPoll > 0 {
		if err := gitsync.SchedulePoll(ctx, st.Client, time.Now()); err != nil {
			return err
		}
	}
	// Commits synced before pages had git blobs get them from a job per space (decision 584).
	if err := gitsync.ScheduleBackfills(ctx, st.Client, time.Now()); err != nil {
		return err
	}
	// Recorded events are handed to webhooks by a job that looks every second (internal/webhooks).
	if err := webhooks.EnsureDispatcher(ctx, st.Client, time.Now()); err != nil {
		return err
	}
	// Ended rate limit windows are swept by a job that recurs every 10 minutes (decision 303).
	if opts.RateLimits.On() {
		if err := ratelimit.ScheduleSweep(ctx, st.Client, time.Now()); err != nil {
			return err
		}
	}
	// With no MiB for answers, the rows authentication reads are still kept under the version.
	opts.ReadCache = readcache.New(st.DataVersion, int64(readCacheMB)<<20)
	if !*noInsights {
		opts.Insights = insights.NewRecorder(st.Client, st.Driver.Dialect(), nil)
	}
	handler, runner := server.New(st, opts)
	if err := blobs.Schedule(ctx, st.Client, time.Now()); err != nil {
		return err
	}
	// The job runner processes OpenAPI specs, purges deleted spaces, collects unreferenced blobs
	// and sweeps rate limit windows in the background; it stops before the database closes.
	jobsCtx, stopJobs := context.WithCancel(ctx)
	ran := make(chan struct{})
	go func() { defer close(ran); runner.Run(jobsCtx) }()
	defer func() { stopJobs(); <-ran }()
	return listen(ctx, listeners, handler, o)
}

// collectGarbageLessOften lets the heap grow to five times the live data between collections
// (GOGC 400 instead of Go's 100) unless the operator set GOGC: a nested GraphQL query allocates
// ~5 MB against ~15 MB live, and under load the collector competes with the requests for the
// same cores (decisions 198, 337: +18% nested req/s for ~80 MB more resident memory than at 200).
// GOGC and GOMEMLIMIT still rule when set.
func collectGarbageLessOften() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
	}
}

// firstStart creates an admin, an organization and a token in an empty database, and prints the
// token once.
func firstStart(ctx context.Context, st *store.Store, baseURL string) error {
	empty, err := accounts.IsEmpty(ctx, st.Client)
	if err != nil || !empty {
		return err
	}
	_, org, token, err := accounts.Bootstrap(ctx, st.Client, "admin@bindery.local", "Admin", "My organization")
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "First start: created the user admin@bindery.local, the organization %s and this API token (shown once):\n\n    %s\n\n"+
		"Use it as a bearer token, e.g.:\n    curl -H 'Authorization: Bearer %s' %s/v1/orgs\n\n", org.ID, token, token, baseURL)
	return nil
}
