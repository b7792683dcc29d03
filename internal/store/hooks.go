package store

import (
	"context"
	"database/sql"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// Hooks watch the statements the ent client sends, inside transactions and raw ones (the search
// index's) too. Either may be nil.
type Hooks struct {
	// Before is called as a statement is about to be sent. It may block: tests hold a statement
	// there until its request is cut short.
	Before func(ctx context.Context, query string)
	// After is called once a statement is done: for a query read through ent, when its rows are
	// closed (SQLite reads rows as they are scanned); for a raw query, when the driver returns its
	// rows.
	After func(query string, took time.Duration)
}

func (h Hooks) empty() bool { return h.Before == nil && h.After == nil }

// hookedConn runs the hooks around the statements of a driver or a transaction.
type hookedConn struct {
	conn dialect.ExecQuerier
	h    Hooks
}

// hookedDriver runs the hooks around every statement, in transactions too.
type hookedDriver struct {
	hookedConn
	drv dialect.Driver
}

func newHookedDriver(drv dialect.Driver, h Hooks) *hookedDriver {
	return &hookedDriver{hookedConn{drv, h}, drv}
}

// start calls Before and returns the statement's start time.
func (h Hooks) start(ctx context.Context, query string) time.Time {
	if h.Before != nil {
		h.Before(ctx, query)
	}
	return time.Now()
}

// done calls After for a statement that started at start.
func (h Hooks) done(query string, start time.Time) {
	if h.After != nil {
		h.After(query, time.Since(start))
	}
}

// query runs an ent query; After is called when its rows close.
func (h Hooks) query(ctx context.Context, query string, v any, run func() error) error {
	start := h.start(ctx, query)
	err := run()
	if rows, ok := v.(*entsql.Rows); ok && err == nil && h.After != nil {
		rows.ColumnScanner = &timedRows{ColumnScanner: rows.ColumnScanner, h: h, query: query, start: start}
		return nil
	}
	h.done(query, start)
	return err
}

// exec runs a statement that answers no rows to scan later.
func exec[T any](h Hooks, ctx context.Context, query string, run func() (T, error)) (T, error) {
	start := h.start(ctx, query)
	res, err := run()
	h.done(query, start)
	return res, err
}

// timedRows reports a query's time when its rows are closed.
type timedRows struct {
	entsql.ColumnScanner
	h      Hooks
	query  string
	start  time.Time
	closed bool
}

func (r *timedRows) Close() error {
	err := r.ColumnScanner.Close()
	if !r.closed {
		r.closed = true
		r.h.done(r.query, r.start)
	}
	return err
}

func (c hookedConn) Exec(ctx context.Context, query string, args, v any) error {
	_, err := exec(c.h, ctx, query, func() (any, error) { return nil, c.conn.Exec(ctx, query, args, v) })
	return err
}

func (c hookedConn) Query(ctx context.Context, query string, args, v any) error {
	return c.h.query(ctx, query, v, func() error { return c.conn.Query(ctx, query, args, v) })
}

// ExecContext and QueryContext run raw statements (ent's sql/execquery, the search index's).

func (c hookedConn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return exec(c.h, ctx, query, func() (sql.Result, error) {
		return c.conn.(entsql.ExecQuerier).ExecContext(ctx, query, args...)
	})
}

func (c hookedConn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return exec(c.h, ctx, query, func() (*sql.Rows, error) {
		return c.conn.(entsql.ExecQuerier).QueryContext(ctx, query, args...)
	})
}

func (d *hookedDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.drv.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return &hookedTx{hookedConn{tx, d.h}, tx}, nil
}

func (d *hookedDriver) Close() error    { return d.drv.Close() }
func (d *hookedDriver) Dialect() string { return d.drv.Dialect() }

// hookedTx runs the hooks around the statements of a transaction.
type hookedTx struct {
	hookedConn
	tx dialect.Tx
}

func (t *hookedTx) Commit() error   { return t.tx.Commit() }
func (t *hookedTx) Rollback() error { return t.tx.Rollback() }
