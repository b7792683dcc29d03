package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/binderyhq/bindery/internal/sqlplan"
)

// postgresDriver sends statements outside transactions whose context is marked by sqlplan.ByKey
// to a second pool whose connections keep PostgreSQL's default plan_cache_mode (a statement pgx
// prepared may keep one plan for any parameters after five runs), and everything else to the
// main pool, which plans every statement for its parameters (decision 332). Planning the access
// predicates of a point read on every run cost ~200 µs of ~770 (decision 334).
type postgresDriver struct {
	*entsql.Driver // the main pool
	byKey          *entsql.Driver
}

// Query runs an ent query on the pool its context asks for.
func (d *postgresDriver) Query(ctx context.Context, query string, args, v any) error {
	return d.poolFor(ctx).Query(ctx, query, args, v)
}

// Exec runs an ent statement on the pool its context asks for.
func (d *postgresDriver) Exec(ctx context.Context, query string, args, v any) error {
	return d.poolFor(ctx).Exec(ctx, query, args, v)
}

// QueryContext runs a raw statement on the pool its context asks for.
func (d *postgresDriver) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return d.poolFor(ctx).QueryContext(ctx, query, args...)
}

// ExecContext runs a raw statement on the pool its context asks for.
func (d *postgresDriver) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return d.poolFor(ctx).ExecContext(ctx, query, args...)
}

func (d *postgresDriver) poolFor(ctx context.Context) *entsql.Driver {
	if sqlplan.IsByKey(ctx) {
		return d.byKey
	}
	return d.Driver
}

// Close closes both pools.
func (d *postgresDriver) Close() error {
	kerr := d.byKey.Close()
	if err := d.Driver.Close(); err != nil {
		return err
	}
	return kerr
}

// openPostgres opens the main pool and the by-key pool (postgresDriver), with two planner
// settings unless the DSN names its own (then both pools take the DSN's):
//   - plan_cache_mode=force_custom_plan on the main pool: pgx prepares and caches statements,
//     and after five runs PostgreSQL may plan one for any parameters, which for a text search is
//     a plan for no particular query (a scan of the whole space where the GIN index answers in a
//     millisecond), and for other statements was as much as 25× too slow (decision 332).
//   - random_page_cost=1.1 on both, PostgreSQL's advice for solid-state or cached storage: with
//     the default 4, counting the matches of a word in a fifth of a space's sections scanned the
//     whole table (55–65 ms) rather than the rows the GIN index names (20–25 ms).
func openPostgres(dsn string) (dialect.Driver, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	main, err := openPostgresPool(cfg, map[string]string{"plan_cache_mode": "force_custom_plan", "random_page_cost": "1.1"})
	if err != nil {
		return nil, err
	}
	byKey, err := openPostgresPool(cfg, map[string]string{"random_page_cost": "1.1"})
	if err != nil {
		main.Close()
		return nil, err
	}
	return &postgresDriver{Driver: entsql.OpenDB(dialect.Postgres, main), byKey: entsql.OpenDB(dialect.Postgres, byKey)}, nil
}

// eventsChannel is the PostgreSQL channel of committed events: a trigger on the events table
// notifies it (createEventsTrigger), and every process's events feed listens to it.
const eventsChannel = "bindery_events"

// createEventsTrigger creates, on PostgreSQL, the trigger that notifies eventsChannel once per
// statement that records events, in the recording transaction: PostgreSQL delivers the
// notification when that transaction commits, and never for one that rolls back. SQLite has none
// (feeds poll).
func createEventsTrigger(ctx context.Context, db entsql.ExecQuerier, postgres bool) error {
	if !postgres {
		return nil
	}
	for _, stmt := range []string{
		`CREATE OR REPLACE FUNCTION bindery_events_notify() RETURNS trigger LANGUAGE plpgsql AS
			$$ BEGIN PERFORM pg_notify('` + eventsChannel + `', ''); RETURN NULL; END $$`,
		`DROP TRIGGER IF EXISTS events_notify ON events`,
		`CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION bindery_events_notify()`,
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("create the events' notification trigger: %w", err)
		}
	}
	return nil
}

// ListenEvents opens a connection of its own to the PostgreSQL database that listens to the
// notifications of commits that recorded events (notifications come on the connection that
// listens, which no pool may hand to another statement); nil on SQLite.
func (s *Store) ListenEvents() func(context.Context) (*pgx.Conn, error) {
	if !s.Postgres() {
		return nil
	}
	return func(ctx context.Context) (*pgx.Conn, error) {
		cfg, err := pgx.ParseConfig(s.o.DSN)
		if err != nil {
			return nil, err
		}
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			return nil, err
		}
		if _, err := conn.Exec(ctx, "LISTEN "+eventsChannel); err != nil {
			conn.Close(context.WithoutCancel(ctx))
			return nil, err
		}
		return conn, nil
	}
}

// postgresConns bounds each pool's connections.
const postgresConns = 16

// openPostgresPool opens a pool with the given settings, unless the DSN names its own, whose
// transactions send the statements of txn.AtCommit with their COMMIT (atCommitConn).
func openPostgresPool(base *pgx.ConnConfig, settings map[string]string) (*sql.DB, error) {
	cfg := base.Copy()
	for name, value := range settings {
		if _, set := cfg.RuntimeParams[name]; !set {
			cfg.RuntimeParams[name] = value
		}
	}
	db := sql.OpenDB(atCommitConnector{stdlib.GetConnector(*cfg)})
	db.SetMaxOpenConns(postgresConns)
	// As many idle as open: database/sql keeps 2 by default, and under load every request past
	// them opened a new PostgreSQL connection (a backend process) and closed it again.
	db.SetMaxIdleConns(postgresConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := pingWithin(db, 5*time.Second); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	return db, nil
}
