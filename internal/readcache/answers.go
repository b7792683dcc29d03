package readcache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// MaxAnswer is the longest body kept: a longer answer is sent as it is written and not kept.
const MaxAnswer = 1 << 20

// Key names a request by everything a handler may read of it.
type Key [sha256.Size]byte

// KeyOf is the key of a request with the body it sent: its method, host, URL, every header (the
// credentials among them) but X-Request-Id, which only names the request in logs, and the body;
// and the scope of the handler that keeps its answers, so that two layers never take each
// other's (Router, SiteHost). Two requests of one key are the same request to the same handler:
// sent again to an unchanged database, it gets the same answer.
func KeyOf(scope Scope, r *http.Request, body []byte) Key {
	h := sha256.New()
	length := func(n int) {
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], uint64(n))
		h.Write(b[:])
	}
	field := func(s string) { // its length first
		length(len(s))
		h.Write([]byte(s))
	}
	field(string(scope))
	field(r.Method)
	field(r.Host)
	field(r.URL.RequestURI())
	names := make([]string, 0, len(r.Header))
	for name := range r.Header {
		if name != "X-Request-Id" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	length(len(names)) // counts too, so the bytes read back in one way only
	for _, name := range names {
		field(name)
		values := r.Header[name]
		length(len(values))
		for _, v := range values {
			field(v)
		}
	}
	field(string(body))
	var k Key
	h.Sum(k[:0])
	return k
}

// Scope names a handler that keeps answers.
type Scope string

// The scopes: the router's reads (the API's and those of /sites/), and publish.ByHost's pages of
// sites at their own hostnames, which it answers before the router.
const (
	Router   Scope = "router"
	SiteHost Scope = "site-host"
)

// Serve answers a tracked request with the answer kept for key at its version, which take writes,
// or else runs compute, which writes the answer and returns the route that served it, and keeps
// that answer when the request allows (Keep).
func (c *Cache) Serve(w http.ResponseWriter, r *http.Request, key Key, take func(*Answer), compute func(http.ResponseWriter) (route string)) {
	if a, ok := c.answer(r.Context(), key); ok {
		take(a)
		return
	}
	rec := record(w)
	route := compute(rec)
	c.keepRecorded(r.Context(), key, rec, route)
}

// Answer is a kept answer (always a 200): what the handler wrote, and what taking it again must
// repeat.
type Answer struct {
	version string
	Header  http.Header // the headers the handler set (not those set before it ran)
	Body    []byte
	Route   string // the route pattern that served it, for metrics
	Cost    int    // rate-limit points the request spent beyond its own (Charged)
	effects []func(context.Context)
}

// Repeat does again, for the request of ctx taking the answer, what computing it did beyond
// answering (Repeat).
func (a *Answer) Repeat(ctx context.Context) {
	for _, effect := range a.effects {
		effect(ctx)
	}
}

// size is what an answer holds in memory, roughly: its body, its headers and its bookkeeping.
func (a *Answer) size() int64 {
	n := len(a.Body) + len(a.version) + len(a.Route) + 256
	for k, vs := range a.Header {
		n += len(k)
		for _, v := range vs {
			n += len(v)
		}
	}
	return int64(n)
}

// answers are the kept answers, the least recently taken dropped first beyond maxBytes.
type answers struct {
	mu       sync.Mutex
	kept     *simplelru.LRU[Key, *Answer]
	bytes    int64
	maxBytes int64
}

func newAnswers(maxBytes int64) *answers {
	a := &answers{maxBytes: maxBytes}
	// The count is bounded by the bytes; the LRU only needs a size it never reaches.
	a.kept, _ = simplelru.NewLRU[Key, *Answer](1<<30, func(_ Key, old *Answer) { a.bytes -= old.size() })
	return a
}

// answer returns the answer kept for k at the version the request reads at.
func (c *Cache) answer(ctx context.Context, k Key) (*Answer, bool) {
	q := requestOf(ctx)
	if q == nil {
		return nil, false
	}
	version := q.currentVersion(ctx)
	if version == "" {
		return nil, false
	}
	a, ok := c.answerAt(k, version)
	if ok {
		c.stats.taken.Add(1)
	} else {
		c.stats.computed.Add(1)
	}
	return a, ok
}

// answerAt returns the answer kept for k at version.
func (c *Cache) answerAt(k Key, version string) (*Answer, bool) {
	c.answers.mu.Lock()
	defer c.answers.mu.Unlock()
	a, ok := c.answers.kept.Get(k)
	if !ok {
		return nil, false
	}
	if a.version != version {
		c.answers.kept.Remove(k) // never valid again: versions do not come back
		return nil, false
	}
	return a, true
}

// keep keeps a, replacing any answer of k.
func (c *Cache) keep(k Key, a *Answer) {
	size := a.size()
	if size > c.answers.maxBytes {
		return
	}
	c.answers.mu.Lock()
	defer c.answers.mu.Unlock()
	c.answers.kept.Remove(k)
	c.answers.kept.Add(k, a)
	c.answers.bytes += size
	c.stats.kept.Add(1)
	for c.answers.bytes > c.answers.maxBytes {
		c.answers.kept.RemoveOldest()
	}
}

// Replay writes a kept answer to w, its headers over those set before.
func (a *Answer) Replay(w http.ResponseWriter) {
	h := w.Header()
	for k, vs := range a.Header {
		h[k] = slices.Clip(vs) // an Add to the header afterwards copies instead of writing into the kept answer
	}
	w.WriteHeader(http.StatusOK)
	w.Write(a.Body)
}

// recorder passes a handler's answer through to the client and records it, to keep it when the
// request allows (keepRecorded).
type recorder struct {
	http.ResponseWriter
	before   http.Header // the headers set before the handler ran
	status   int
	header   http.Header
	body     bytes.Buffer
	overflow bool
}

// record returns a recorder of what the handler writes to w.
func record(w http.ResponseWriter) *recorder {
	return &recorder{ResponseWriter: w, before: w.Header().Clone()}
}

// Unwrap lets http.ResponseController reach the writer beneath.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// WriteHeader records the status and the headers the handler set.
func (rec *recorder) WriteHeader(status int) {
	if rec.status == 0 {
		rec.status = status
		rec.header = setSince(rec.before, rec.ResponseWriter.Header())
	}
	rec.ResponseWriter.WriteHeader(status)
}

func (rec *recorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.WriteHeader(http.StatusOK)
	}
	if !rec.overflow && rec.body.Len()+len(b) <= MaxAnswer {
		rec.body.Write(b)
	} else {
		rec.overflow = true
		rec.body = bytes.Buffer{}
	}
	return rec.ResponseWriter.Write(b)
}

// setSince are the headers of now that differ from before, but those the rate limiter sets for
// each request (its budget is not part of an answer).
func setSince(before, now http.Header) http.Header {
	set := http.Header{}
	for k, vs := range now {
		if strings.HasPrefix(k, "X-Ratelimit-") || k == "Retry-After" || slices.Equal(before[k], vs) {
			continue
		}
		set[k] = slices.Clone(vs)
	}
	return set
}

// keepRecorded keeps the recorded answer for k, served by route, unless the request forbids it:
// only a whole 200 answer that sets no cookie, of a request that read the version before anything
// else and was not marked (DoNotKeep, DependsOnTime).
func (c *Cache) keepRecorded(ctx context.Context, k Key, rec *recorder, route string) {
	q := requestOf(ctx)
	if q == nil || q.unkept.Load() || rec.status != http.StatusOK || rec.overflow || rec.header.Get("Set-Cookie") != "" {
		return
	}
	version := q.keptVersion()
	if version == "" || ctx.Err() != nil {
		return
	}
	q.mu.Lock()
	effects := q.effects
	q.mu.Unlock()
	c.keep(k, &Answer{version: version, Header: rec.header, Body: bytes.Clone(rec.body.Bytes()), Route: route, Cost: int(q.cost.Load()),
		effects: effects})
}
