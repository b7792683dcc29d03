package limits

import (
	"context"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/binderyhq/bindery/internal/sizedlru"

	"github.com/99designs/gqlgen/graphql"
)

// DocumentCache keeps validated query documents, least recently used first out, within a number
// of documents and a budget of query bytes: a cache bounded by count alone keeps a thousand
// 1 MiB documents (a comment pads a valid query to any size). A document larger than a tenth of
// the budget is not kept. A document's parsed form is bounded by the shape limits it passed, so
// the query bytes bound what the cache holds.
type DocumentCache struct {
	mu     sync.Mutex
	lru    *lru.Cache[string, *ast.QueryDocument]
	bytes  int // query bytes held
	budget int
}

var _ graphql.Cache[*ast.QueryDocument] = (*DocumentCache)(nil)

// NewDocumentCache returns a cache of at most size documents and budget bytes of query text.
func NewDocumentCache(size, budget int) *DocumentCache {
	c := &DocumentCache{budget: budget}
	c.lru, _ = lru.NewWithEvict(size, func(query string, _ *ast.QueryDocument) { c.bytes -= len(query) })
	return c
}

// Get implements graphql.Cache.
func (c *DocumentCache) Get(_ context.Context, query string) (*ast.QueryDocument, bool) {
	return c.lru.Get(query)
}

// Add implements graphql.Cache.
func (c *DocumentCache) Add(_ context.Context, query string, doc *ast.QueryDocument) {
	if len(query) > c.budget/10 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru.Contains(query) {
		return
	}
	c.bytes += len(query)
	c.lru.Add(query, doc) // may evict the oldest by count, which takes its bytes back
	for c.bytes > c.budget {
		c.lru.RemoveOldest()
	}
}

// Bytes returns the query bytes the cache holds.
func (c *DocumentCache) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// PersistedQueries is the cache of automatic persisted queries (gqlgen's
// extension.AutomaticPersistedQuery): query texts by their SHA-256, within budget bytes of
// hashes and texts, a text over a tenth of the budget not kept, as the document cache bounds its
// texts. A client whose hash was dropped is told PersistedQueryNotFound and sends the text again.
type PersistedQueries struct {
	texts  *sizedlru.Cache[string, string]
	budget int
}

var _ graphql.Cache[string] = (*PersistedQueries)(nil)

// NewPersistedQueries returns a cache of persisted queries within budget bytes.
func NewPersistedQueries(budget int) *PersistedQueries {
	return &PersistedQueries{texts: sizedlru.New[string, string](budget), budget: budget}
}

// Get implements graphql.Cache.
func (p *PersistedQueries) Get(_ context.Context, hash string) (string, bool) {
	return p.texts.Get(hash)
}

// Add implements graphql.Cache.
func (p *PersistedQueries) Add(_ context.Context, hash, query string) {
	if len(query) <= p.budget/10 {
		p.texts.Add(hash, query, len(hash)+len(query))
	}
}
