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

// hookedDriver runs the hooks around every statement.
type hookedDriver struct {
	dialect.Driver
	h Hooks
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

func (d *hookedDriver) Exec(ctx context.Context, query string, args, v any) error {
	_, err := exec(d.h, ctx, query, func() (any, error) { return nil, d.Driver.Exec(ctx, query, args, v) })
	return err
}

func (d *hookedDriver) Query(ctx context.Context, query string, args, v any) error {
	return d.h.query(ctx, query, v, func() error { return d.Driver.Query(ctx, query, args, v) })
}

func (d *hookedDriver) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return exec(d.h, ctx, query, func() (sql.Result, error) {
		return d.Driver.(entsql.ExecQuerier).ExecContext(ctx, query, args...)
	})
}

func (d *hookedDriver) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return exec(d.h, ctx, query, func() (*sql.Rows, error) {
		return d.Driver.(entsql.ExecQuerier).QueryContext(ctx, query, args...)
	})
}

func (d *hookedDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return &hookedTx{Tx: tx, h: d.h}, nil
}

// hookedTx runs the hooks around the statements of a transaction.
type hookedTx struct {
	dialect.Tx
	h Hooks
}

func (t *hookedTx) Exec(ctx context.Context, query string, args, v any) error {
	_, err := exec(t.h, ctx, query, func() (any, error) { return nil, t.Tx.Exec(ctx, query, args, v) })
	return err
}

func (t *hookedTx) Query(ctx context.Context, query string, args, v any) error {
	return t.h.query(ctx, query, v, func() error { return t.Tx.Query(ctx, query, args, v) })
}

func (t *hookedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return exec(t.h, ctx, query, func() (sql.Result, error) {
		return t.Tx.(entsql.ExecQuerier).ExecContext(ctx, query, args...)
	})
}

func (t *hookedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return exec(t.h, ctx, query, func() (*sql.Rows, error) {
		return t.Tx.(entsql.ExecQuerier).QueryContext(ctx, query, args...)
	})
}
