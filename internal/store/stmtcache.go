package store

import (
	"context"
	"database/sql"
	"sync"
)

// maxStatements bounds the statements a stmtCache keeps; past it, it starts again empty.
const maxStatements = 500

// stmtCache runs the reads of SQLite's reader pool through statements prepared once per text.
// SQLite parses and plans a statement anew on every call otherwise, and for a point read that
// costs more than reading the row: the access predicates hold subqueries and a recursive walk.
// database/sql prepares a statement on each pool connection as it first uses it there.
type stmtCache struct {
	db *sql.DB
	// mu is held for reading from taking a statement until its query has started, so emptying
	// the cache (for writing) never closes a statement between the two.
	mu    sync.RWMutex
	stmts map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache { return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}} }

// QueryContext runs a query through its prepared statement, preparing it first if needed.
func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	for {
		c.mu.RLock()
		if stmt := c.stmts[query]; stmt != nil {
			rows, err := stmt.QueryContext(ctx, args...)
			c.mu.RUnlock()
			return rows, err
		}
		c.mu.RUnlock()
		if err := c.prepare(ctx, query); err != nil {
			return nil, err
		}
	}
}

// ExecContext runs a statement unprepared (a reader runs none but PRAGMAs).
func (c *stmtCache) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.db.ExecContext(ctx, query, args...)
}

// prepare prepares a query and keeps it, emptying the cache first when it is full.
func (c *stmtCache) prepare(ctx context.Context, query string) error {
	stmt, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stmts[query] != nil { // prepared meanwhile by another request
		return stmt.Close()
	}
	if len(c.stmts) >= maxStatements {
		c.closeAll()
	}
	c.stmts[query] = stmt
	return nil
}

// closeAll closes the kept statements (one whose rows are open closes when they do) and
// forgets them. The caller holds mu for writing.
func (c *stmtCache) closeAll() {
	for _, s := range c.stmts {
		s.Close()
	}
	c.stmts = map[string]*sql.Stmt{}
}

// Close closes the statements and the pool.
func (c *stmtCache) Close() error {
	c.mu.Lock()
	c.closeAll()
	c.mu.Unlock()
	return c.db.Close()
}
