package limits

import (
	"context"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/vektah/gqlparser/v2/ast"

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
