// Package graph holds the resolvers: the one implementation of every read and write, called by the
// GraphQL executor and by the REST handlers alike. Resolvers never call GraphQL-only context
// helpers, return ent entities or small models, and report failures as apperr errors.
package graph

import (
	"context"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/crawl"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/readcache"
	"github.com/binderyhq/bindery/internal/search"
	"github.com/binderyhq/bindery/internal/serverkey"
	"github.com/binderyhq/bindery/internal/sites"
	"github.com/binderyhq/bindery/internal/slots"
)

// Resolver carries the dependencies of every resolver.
type Resolver struct {
	Client  *ent.Client
	Clock   func() time.Time
	Version string // release of this server
	Build   string // build date, ISO 8601
	BaseURL string // absolute URL of this server, for urls.location
	Blobs   blobs.Store
	Search  search.Index // the full-text index of the spaces' main content
	// Fetcher makes the outbound requests of website imports (SSRF-guarded); ImportLimits bound
	// them (crawl.DefaultLimits when zero).
	Fetcher      *fetch.Client
	ImportLimits crawl.Limits
	// GitAllowLocal lets Git Sync reach file:// URLs and absolute paths, the server's own disk
	// (--git-allow-local).
	GitAllowLocal bool
	// GitPoll is how often Git Sync looks at every linked branch for pushes; 0 for never.
	GitPoll time.Duration
	// Jobs is this process's job runner, woken when a write asks for background work (nil: the
	// work waits for a runner's next look at the jobs table). OpenAPILimits bound the processing
	// of OpenAPI documents (server.New fills in the defaults and the gate); OpenAPIRefresh is how often a spec
	// with a URL source is fetched again (0: only when asked).
	Jobs           *jobs.Runner
	OpenAPILimits  openapi.Limits
	OpenAPIRefresh time.Duration
	// DNS answers the lookups of custom hostnames' checks (nil: the system's resolver);
	// HostnameTLS is where their TLS checks connect (443) and what they trust (the system's roots).
	DNS         sites.Resolver
	HostnameTLS sites.TLSTarget
	// WebhookTimeout is a webhook delivery attempt's deadline (0: webhooks' default, 10 s).
	WebhookTimeout time.Duration
	// Outbox finds the events the webhooks' dispatcher has not handed on yet.
	Outbox *events.Outbox
	// Feed hands the events every process commits to this process's subscriptions (nil: none
	// are served).
	Feed *events.Feed
	// SubscriptionSlots count the subscriptions of each credentials on every server of the
	// database, against Limits.Subscriptions.PerCredential (nil: only those of a connection are
	// counted).
	SubscriptionSlots *slots.Table
	// Insights records readers' events on published sites (nil: none are recorded).
	Insights *insights.Recorder

	subscriptions *subscriptionSlots // set by NewHandler

	keys   serverkey.Keys
	openID openIDState
	contentState
	readSpecsState
	readerState
}

// now returns the current time from the injectable clock, as stored (UTC, microseconds). A
// request that reads it has an answer of its moment, which the read cache does not keep.
func (r *Resolver) now(ctx context.Context) time.Time {
	readcache.DependsOnTime(ctx)
	clock := r.Clock
	if clock == nil {
		clock = time.Now
	}
	return clock().UTC().Truncate(time.Microsecond)
}
