package store

import (
	"context"
	"database/sql"

	"entgo.io/ent/dialect"
)

// Pool is one of the store's connection pools, named for metrics: SQLite's "writer" and
// "reader", PostgreSQL's "postgres" and "postgres-by-key" (decision 334).
type Pool struct {
	Name string
	DB   *sql.DB
}

// Pools returns the store's connection pools.
func (s *Store) Pools() []Pool { return s.pools }

func poolsOf(drv dialect.Driver) []Pool {
	switch d := drv.(type) {
	case *splitDriver:
		return []Pool{{"writer", d.Driver.DB()}, {"reader", d.readerStmts.db}}
	case *postgresDriver:
		return []Pool{{"postgres", d.DB()}, {"postgres-by-key", d.byKey.DB()}}
	}
	return nil
}

// NotReady says which check of Ready failed, and why.
type NotReady struct {
	Check string // what failed, safe to show to anyone
	Err   error  // why, for the log
}

func (e *NotReady) Error() string  { return e.Check + ": " + e.Err.Error() }
func (e *NotReady) Unwrap() error  { return e.Err }
func (e *NotReady) Public() string { return e.Check }

// Ready reports whether the store can serve: every pool answers, and the search index's tables
// (created last by the migration that Open ran) can be read. It returns a *NotReady.
func (s *Store) Ready(ctx context.Context) error {
	for _, p := range s.pools {
		if err := p.DB.PingContext(ctx); err != nil {
			return &NotReady{"the database (" + p.Name + " connections) did not answer", err}
		}
	}
	if len(s.pools) == 0 {
		return nil
	}
	var found bool
	err := s.pools[len(s.pools)-1].DB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM search_sections)`).Scan(&found)
	if err != nil {
		return &NotReady{"the search index cannot be read", err}
	}
	return nil
}
