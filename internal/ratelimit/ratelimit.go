// Package ratelimit counts what each client spends of its budget of points per window (an hour
// by default), as GitHub's API does: per API token or browser session, and per client address
// for requests without valid credentials, separately for each resource (REST, GraphQL, published
// sites). Counters live in the database, so several servers on one PostgreSQL share one budget;
// each process adds its points to the database in batches of a hundredth of the limit, so a
// request rarely costs a statement (decision 200).
package ratelimit

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Resource is a budget of its own, named in X-RateLimit-Resource.
type Resource string

// The resources: REST and everything but GraphQL and sites, GraphQL, published sites.
const (
	Core    Resource = "core"
	GraphQL Resource = "graphql"
	Sites   Resource = "sites"
)

// What requests cost, in points.
const (
	ReadCost       = 1   // a REST read, any request outside the API, a GraphQL request on arrival
	WriteCost      = 5   // a REST write (POST, PUT, PATCH, DELETE), and at least a GraphQL mutation
	FailedAuthCost = 10  // a request whose token or session is refused: guessing runs out fast
	PointsPer      = 100 // GraphQL: one point per this much complexity, rounded up
)

// GraphQLCost is what a GraphQL operation of the given complexity costs: a point per PointsPer
// of complexity, rounded up, at least ReadCost, at least WriteCost for a mutation.
func GraphQLCost(complexity int, mutation bool) int {
	cost := max(ReadCost, (max(complexity, 0)+PointsPer-1)/PointsPer)
	if mutation {
		cost = max(cost, WriteCost)
	}
	return cost
}

// Limits are the budgets per window; a zero budget does not limit its kind of client.
type Limits struct {
	Token     int           // an API token or a browser session, per resource (core, graphql)
	Anonymous int           // a client address without valid credentials, per resource (core, graphql)
	Sites     int           // a client address reading published sites
	Window    time.Duration // how long a budget lasts from its first request
}

// DefaultLimits are the budgets of a server started without flags.
var DefaultLimits = Limits{Token: 5000, Anonymous: 1000, Sites: 10000, Window: time.Hour}

// Off is a server without rate limits.
var Off = Limits{}

// On reports whether any budget is limited.
func (l Limits) On() bool { return l.Window > 0 && (l.Token > 0 || l.Anonymous > 0 || l.Sites > 0) }

// Subject is who spends a budget: a token, a session or a client address.
type Subject struct {
	kind string // "token", "session" or "address": named in messages
	id   string // the secret or the address; only its hash leaves the process
}

// Token is the subject of an API token.
func Token(token string) Subject { return Subject{kind: "token", id: token} }

// Session is the subject of a browser session (its cookie's secret).
func Session(secret string) Subject { return Subject{kind: "session", id: secret} }

// Address is the subject of a client address without valid credentials (Addresses.Of).
func Address(addr string) Subject { return Subject{kind: "address", id: addr} }

// IsAddress reports whether s is a client address.
func (s Subject) IsAddress() bool { return s.kind == "address" }

// key is the counter's key: a hash, so that the table reveals no token or session.
func (s Subject) key(r Resource) [sha256.Size]byte {
	return sha256.Sum256([]byte("bindery rate limit\x00" + string(r) + "\x00" + s.kind + "\x00" + s.id))
}

// Counter adds points to the counters shared by every server of a database (Table).
type Counter interface {
	// Add adds points to key's window, starting a new window at now when the stored one began
	// window or longer ago, and returns the window's start and its points. With a ceiling above
	// 0 it adds nothing and returns ErrOverCeiling when the window would then hold more.
	Add(ctx context.Context, key []byte, now time.Time, window time.Duration, points, ceiling int) (start time.Time, used int, err error)
}

// ErrOverCeiling is returned by Counter.Add when the points would exceed the ceiling.
var ErrOverCeiling = errors.New("rate limit: the window has no room for these points")

// maxKeys bounds the windows a process keeps in memory; one evicted loses its unwritten points
// (less than a batch).
const maxKeys = 1 << 16

// Limiter decides whether a subject may spend points, and counts them.
type Limiter struct {
	limits  Limits
	counter Counter
	clock   func() time.Time
	windows *lru.Cache[[sha256.Size]byte, *window]
}

// New returns a limiter over counter; clock nil is time.Now. It returns nil when limits are off.
func New(limits Limits, counter Counter, clock func() time.Time) *Limiter {
	if !limits.On() {
		return nil
	}
	if clock == nil {
		clock = time.Now
	}
	windows, _ := lru.New[[sha256.Size]byte, *window](maxKeys) // only fails for a size below 1
	return &Limiter{limits: limits, counter: counter, clock: clock, windows: windows}
}

// Window is the length of a budget's window.
func (l *Limiter) Window() time.Duration { return l.limits.Window }

// limit is the budget of subject s for resource r; 0 is unlimited.
func (l *Limiter) limit(s Subject, r Resource) int {
	switch {
	case !s.IsAddress():
		return l.limits.Token
	case r == Sites:
		return l.limits.Sites
	default:
		return l.limits.Anonymous
	}
}

// Decision is the state of a budget after a request asked for points.
type Decision struct {
	Subject  Subject
	Resource Resource
	Limit    int       // points per window; 0: unlimited (no headers)
	Used     int       // points spent in the window, this request's included when allowed
	Cost     int       // what this request asked for
	Reset    time.Time // when the window ends
	Allowed  bool
}

// Remaining is what the window has left.
func (d Decision) Remaining() int { return max(d.Limit-d.Used, 0) }

// window is a process's view of one budget: the points known to be in the database (known),
// on their way there (inflight), and spent here but not yet written (pending).
type window struct {
	mu                       sync.Mutex
	start                    time.Time
	known, inflight, pending int
	generation               int // counts local restarts, so a late write of an old window is ignored
}

func (w *window) used() int { return w.known + w.inflight + w.pending }

// Take spends cost points of s's budget for r, unless that would exceed it. The points are
// written to the database once a hundredth of the limit is pending here (decision 200).
func (l *Limiter) Take(ctx context.Context, s Subject, r Resource, cost int) Decision {
	d := Decision{Subject: s, Resource: r, Limit: l.limit(s, r), Cost: cost, Allowed: true}
	if d.Limit <= 0 {
		return d
	}
	key := s.key(r)
	w := l.window(key)
	now := l.clock().UTC().Truncate(time.Microsecond) // the database's precision
	w.mu.Lock()
	if !now.Before(w.start.Add(l.limits.Window)) {
		w.start, w.known, w.inflight, w.pending = now, 0, 0, 0
		w.generation++
	}
	if w.used()+cost > d.Limit {
		d.Used, d.Reset, d.Allowed = w.used(), w.start.Add(l.limits.Window), false
		w.mu.Unlock()
		return d
	}
	w.pending += cost
	// In the last batch of the budget every request is decided by the database, which adds its
	// points only if they fit: the servers of one database then end the budget together.
	lastBatch := d.Limit-w.used() < batchOf(d.Limit)
	if (w.pending >= batchOf(d.Limit) || lastBatch) && !l.write(ctx, key, w, now, lastBatch, d.Limit) {
		w.known = max(w.known, d.Limit-cost+1)
		d.Allowed = false
	}
	d.Used, d.Reset = min(w.used(), d.Limit), w.start.Add(l.limits.Window)
	w.mu.Unlock()
	return d
}

// batchOf is how many points a process spends before writing them: a hundredth of the limit.
func batchOf(limit int) int { return max(limit/100, 1) }

// window is the process's window of key, made when it has none.
func (l *Limiter) window(key [sha256.Size]byte) *window {
	if w, found := l.windows.Get(key); found { // Get, not Peek: a busy key stays recent
		return w
	}
	w := &window{}
	if other, found, _ := l.windows.PeekOrAdd(key, w); found {
		return other // added by a concurrent request
	}
	return w
}

// write adds w's pending points to the database, without holding w's lock during the statement,
// and takes the database's window and total as its own; when fit, only if the window can hold
// them within limit. It reports false when they did not fit (and were not added). Called and
// returns with w.mu held.
func (l *Limiter) write(ctx context.Context, key [sha256.Size]byte, w *window, now time.Time, fit bool, limit int) bool {
	points, generation := w.pending, w.generation
	w.pending, w.inflight = 0, w.inflight+points
	ceiling := 0
	if fit {
		ceiling = limit
	}
	w.mu.Unlock()
	start, used, err := l.counter.Add(context.WithoutCancel(ctx), key[:], now, l.limits.Window, points, ceiling)
	w.mu.Lock()
	if generation != w.generation {
		return true // the window ended while the points were written
	}
	w.inflight -= points
	switch {
	case errors.Is(err, ErrOverCeiling):
		return false
	case err != nil:
		// Counting must not take the API down with it: the points are lost, the request goes on.
		slog.WarnContext(ctx, "rate limit: counting failed", "err", err)
	case start.Equal(w.start):
		w.known = max(w.known, used)
	default:
		w.start, w.known = start, used // the database's window (begun by another server, or anew)
	}
	return true
}
