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
	db    *sql.DB
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache { return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}} }

// QueryContext runs a query through its prepared statement.
func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	stmt, err := c.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	return stmt.QueryContext(ctx, args...)
}

// ExecContext runs a statement unprepared (a reader runs none but PRAGMAs).
func (c *stmtCache) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.db.ExecContext(ctx, query, args...)
}

func (c *stmtCache) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	stmt := c.stmts[query]
	c.mu.Unlock()
	if stmt != nil {
		return stmt, nil
	}
	stmt, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.stmts) >= maxStatements {
		c.closeAll()
	}
	if kept := c.stmts[query]; kept != nil { // prepared meanwhile by another request
		stmt.Close()
		return kept, nil
	}
	c.stmts[query] = stmt
	return stmt, nil
}

// closeAll closes the kept statements (one in use closes when its rows do) and forgets them.
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
