// Package sizedlru is a least-recently-used cache bounded by the sizes of its values rather than
// their number: values of very different sizes (parsed documents, highlighted code) share one
// memory budget. It is safe for concurrent use.
package sizedlru

import (
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Cache keeps values by key within a budget of their sizes (as the caller counts them).
type Cache[K comparable, V any] struct {
	mu     sync.Mutex
	items  *lru.Cache[K, V]
	sizes  map[K]int
	bytes  int
	budget int
}

// New returns an empty cache of budget.
func New[K comparable, V any](budget int) *Cache[K, V] {
	c := &Cache[K, V]{sizes: map[K]int{}, budget: budget}
	// The count bound is never the one reached first: the budget is.
	c.items, _ = lru.NewWithEvict(1<<20, func(k K, _ V) {
		c.bytes -= c.sizes[k]
		delete(c.sizes, k)
	})
	return c
}

// Get returns the value kept under k, marking it recently used.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.items.Get(k)
}

// Add keeps v of size under k, evicting the least recently used values past the budget. A value
// larger than a quarter of the budget is not kept: one value must not empty the cache.
func (c *Cache[K, V]) Add(k K, v V, size int) {
	if size > c.budget/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, kept := c.items.Peek(k); kept {
		return
	}
	c.sizes[k] = size
	c.bytes += size
	c.items.Add(k, v)
	for c.bytes > c.budget {
		c.items.RemoveOldest()
	}
}

// Bytes is the size of the values kept.
func (c *Cache[K, V]) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
