// Package testenv runs a real Bindery server for tests: a fresh database per test (SQLite by
// default, PostgreSQL when BINDERY_TEST_DB names one), real HTTP through httptest, a statement
// counter on the ent driver, and every successful REST response checked against the reference
// client's schemas.
package testenv

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/store"
)

// OpenStore opens a fresh, migrated database for one test, its statements counted by counter.
func OpenStore(tb testing.TB, counter *atomic.Int64) *store.Store {
	tb.Helper()
	st, _ := openStore(tb, store.Options{DataDir: tb.TempDir(), DSN: MigratedPostgresDSN(tb)}, store.Hooks{Before: (&sentStatements{n: counter}).send})
	return st
}

// openStore opens the database o names with hooks on its statements, and returns it with the
// options that open it again (without the hooks).
func openStore(tb testing.TB, o store.Options, hooks store.Hooks) (*store.Store, store.Options) {
	tb.Helper()
	again := o
	o.Hooks = hooks
	return mustOpen(tb, o), again
}

// mustOpen opens a store, closed when the test ends.
func mustOpen(tb testing.TB, o store.Options) *store.Store {
	tb.Helper()
	st, err := store.Open(context.Background(), o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// sentStatements counts the statements sent to the database, inside transactions too, and holds
// one when asked (Env.HoldStatement).
type sentStatements struct {
	n      *atomic.Int64
	byKey  atomic.Int64 // those marked sqlplan.ByKey
	hold   atomic.Pointer[heldStatement]
	record atomic.Pointer[recordedStatements]
}

// recordedStatements is the SQL of the statements sent while a test records them.
type recordedStatements struct {
	mu  sync.Mutex
	sql []string
}

// heldStatement is a statement to hold: the first whose SQL match accepts.
type heldStatement struct {
	match func(query string) bool
	held  chan struct{} // closed once the statement waits
}

// send counts a statement about to run; the statement to hold waits until its context is done,
// then runs, failing as a statement cut short by its request does.
func (s *sentStatements) send(ctx context.Context, query string) {
	s.n.Add(1)
	if sqlplan.IsByKey(ctx) {
		s.byKey.Add(1)
	}
	if r := s.record.Load(); r != nil {
		r.mu.Lock()
		r.sql = append(r.sql, query)
		r.mu.Unlock()
	}
	h := s.hold.Load()
	if h == nil || !h.match(query) || !s.hold.CompareAndSwap(h, nil) {
		return
	}
	close(h.held)
	<-ctx.Done()
}

// Count runs a statement answering one number (SELECT count(*) …) on st and returns it.
func Count(tb testing.TB, st *store.Store, query string, args ...any) int {
	tb.Helper()
	rows, err := st.Client.QueryContext(context.Background(), query, args...)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var n int
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			tb.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return n
}
