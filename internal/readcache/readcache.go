// Package readcache keeps what reads found and hands it out again while the database has not
// changed: everything is kept with the version of the database it was read at, and a request
// that finds the same version takes it without reading (decision 366).
//
// The version is the database's own: SQLite's data_version on a connection that never writes
// (it changes with every commit of any other connection, in any process), PostgreSQL's current
// snapshot (it changes when any transaction that wrote ends). So whichever process wrote, the next request of
// every process reads a new version and reads the data again: no message between processes, no
// timer, no lifetime to choose.
//
// A request reads the version once, before it reads anything else, so a write that commits while
// it runs leaves what it found under an older version than the data it saw: it is never handed
// out. What a request's answer depends on besides the database and the request itself is marked
// by the code that reads it (DependsOnTime, DoNotKeep).
package readcache

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Versioner reads the version of the database.
type Versioner func(ctx context.Context) (string, error)

// Cache keeps the answers of one server's reads (Serve) and hands out the version of the database
// each request reads at.
type Cache struct {
	versions versions
	answers  *answers
	paused   atomic.Bool
	stats    struct{ taken, computed, kept atomic.Uint64 }
}

// Stats are what a cache did since it started, for metrics.
type Stats struct {
	Taken    uint64 // reads answered with a kept answer
	Computed uint64 // reads that found none at their version and ran their handler
	Kept     uint64 // answers kept
	Bytes    int64  // what the kept answers hold now
}

// Stats returns what the cache did so far.
func (c *Cache) Stats() Stats {
	c.answers.mu.Lock()
	bytes := c.answers.bytes
	c.answers.mu.Unlock()
	return Stats{Taken: c.stats.taken.Load(), Computed: c.stats.computed.Load(), Kept: c.stats.kept.Load(), Bytes: bytes}
}

// New returns a cache of answers of at most maxBytes in all, over the database that version
// reads the version of. With maxBytes 0 it keeps no answers, only the rows of its Tables.
func New(version Versioner, maxBytes int64) *Cache {
	return &Cache{versions: versions{read: version}, answers: newAnswers(maxBytes)}
}

// KeepsAnswers reports whether the cache keeps answers (Serve); a nil cache keeps none. One that
// keeps none still hands out versions, under which Tables keep rows.
func (c *Cache) KeepsAnswers() bool { return c != nil && c.answers.maxBytes > 0 }

// Versioner is what reads the version of the cache's database.
func (c *Cache) Versioner() Versioner { return c.versions.read }

// Pause stops (true) or resumes (false) keeping and taking anything: requests meanwhile read
// everything, as with no cache. Tests that count what the computation of an answer sends pause it.
func (c *Cache) Pause(paused bool) { c.paused.Store(paused) }

// request is what one request knows of the cache: the version it reads at, read once, and what
// forbids keeping its answer.
type request struct {
	c       *Cache
	ticket  uint64 // its arrival among the requests that read the version
	once    sync.Once
	read    atomic.Bool // the version was read (known or not)
	version string      // "" when it could not be read: nothing is kept or taken
	unkept  atomic.Bool // the answer depends on more than the database and the request
	cost    atomic.Int64
	mu      sync.Mutex
	effects []func(context.Context) // what taking the answer again must do again (Repeat)
}

type requestKey struct{}

// Track returns ctx carrying a request that may take what was kept, and keep what it reads; with
// no cache, or a paused one, ctx itself.
func (c *Cache) Track(ctx context.Context) context.Context {
	if c == nil || c.paused.Load() {
		return ctx
	}
	return context.WithValue(ctx, requestKey{}, &request{c: c, ticket: c.versions.arrive()})
}

// Tracked reports whether ctx is a request's that Track let take and keep (none when the cache is
// paused).
func Tracked(ctx context.Context) bool { return requestOf(ctx) != nil }

func requestOf(ctx context.Context) *request {
	q, _ := ctx.Value(requestKey{}).(*request)
	return q
}

// currentVersion is the version the request reads at: read from the database at its first use,
// or taken from a read that began after the request arrived (Track).
func (q *request) currentVersion(ctx context.Context) string {
	q.once.Do(func() {
		if v, err := q.c.versions.get(ctx, q.ticket); err == nil {
			q.version = v
		}
		q.read.Store(true)
	})
	return q.version
}

// keptVersion is the version to keep what the request read under: the one read before it read
// anything, or "" when there is none (it was never read, so it might be newer than the data).
func (q *request) keptVersion() string {
	if !q.read.Load() {
		return ""
	}
	return q.version
}

// DependsOnTime marks the request's answer as depending on the time it was computed at (a
// clock read: an expiry decided, a signed link): it is not kept.
func DependsOnTime(ctx context.Context) { DoNotKeep(ctx) }

// DoNotKeep marks the request's answer as one that must not be handed out again: an operation
// that writes, or one that failed for a reason of its own (an internal error, a client gone).
func DoNotKeep(ctx context.Context) {
	if q := requestOf(ctx); q != nil {
		q.unkept.Store(true)
	}
}

// Charged records that the request's answer cost points of the rate limit beyond the request's
// own, which taking the answer again costs too.
func Charged(ctx context.Context, points int) {
	if q := requestOf(ctx); q != nil {
		q.cost.Add(int64(points))
	}
}

// Repeat records an effect of computing the request's answer that taking it again must repeat
// (a reader's page view recorded), with the context of the request that takes it. The caller has
// done it once for this request.
func Repeat(ctx context.Context, effect func(context.Context)) {
	if q := requestOf(ctx); q != nil {
		q.mu.Lock()
		q.effects = append(q.effects, effect)
		q.mu.Unlock()
	}
}

// Table keeps values read from the database by key (a token's row, by its hash), each with the
// version it was read at; a request takes a value only at that version.
type Table[K comparable, V any] struct {
	kept *lru.Cache[K, versioned[V]]

	mu      sync.Mutex
	reading map[versionedKey[K]]*tableRead[V] // Read's reads in progress
}

type versionedKey[K comparable] struct {
	key     K
	version string
}

// tableRead is one read of a value, which the requests asking for it at its version share.
type tableRead[V any] struct {
	done  chan struct{}
	value V
	err   error
}

type versioned[V any] struct {
	version string
	value   V
}

// NewTable returns a table of at most size values.
func NewTable[K comparable, V any](size int) *Table[K, V] {
	kept, err := lru.New[K, versioned[V]](size)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return &Table[K, V]{kept: kept, reading: map[versionedKey[K]]*tableRead[V]{}}
}

// Get returns the value kept for k when it was read at the version the request reads at. Call it
// before reading the value from the database, so that Put keeps it under a version no newer.
func (t *Table[K, V]) Get(ctx context.Context, k K) (V, bool) {
	var zero V
	q := requestOf(ctx)
	if q == nil {
		return zero, false
	}
	version := q.currentVersion(ctx)
	e, ok := t.kept.Get(k)
	if !ok || version == "" || e.version != version {
		return zero, false
	}
	return e.value, true
}

// Put keeps v, read for k by the request after Get.
func (t *Table[K, V]) Put(ctx context.Context, k K, v V) {
	if q := requestOf(ctx); q != nil {
		if version := q.keptVersion(); version != "" {
			t.kept.Add(k, versioned[V]{version: version, value: v})
		}
	}
}

// Read returns the value kept for k at the version the request reads at, or else the one read
// returns, which it keeps when read succeeds. Requests that ask for k at one version while it is
// being read take that read's value rather than read it again each (after a write, every reader
// of a page asks at once); should that read fail, each reads its own. A nil table keeps nothing.
func (t *Table[K, V]) Read(ctx context.Context, k K, read func() (V, error)) (V, error) {
	if t == nil {
		return read()
	}
	if v, ok := t.Get(ctx, k); ok {
		return v, nil
	}
	q := requestOf(ctx)
	if q == nil || q.keptVersion() == "" {
		return read()
	}
	key := versionedKey[K]{key: k, version: q.keptVersion()}
	t.mu.Lock()
	if r, ok := t.reading[key]; ok {
		t.mu.Unlock()
		select {
		case <-r.done:
			if r.err == nil {
				return r.value, nil
			}
		case <-ctx.Done():
		}
		return read()
	}
	r := &tableRead[V]{done: make(chan struct{})}
	t.reading[key] = r
	t.mu.Unlock()
	defer func() { // a panic too lets the others go, to read their own
		t.mu.Lock()
		delete(t.reading, key)
		t.mu.Unlock()
		close(r.done)
	}()
	r.err = errReadFailed
	r.value, r.err = read()
	if r.err == nil {
		t.Put(ctx, k, r.value)
	}
	return r.value, r.err
}

// errReadFailed is a shared read's error until it returns.
var errReadFailed = errors.New("readcache: the shared read did not return")
