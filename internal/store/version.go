package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
)

// The versions of the database, which name its state: two reads of the same version see the same
// data (internal/readcache, decision 366).
const (
	// sqliteVersion changes when a connection other than the one asking commits, in any process:
	// asked on a connection that never writes, it changes on every commit.
	sqliteVersion = "PRAGMA data_version"
	// postgresVersion is the current snapshot (xmin:xmax:transactions in progress): it changes
	// when a transaction that wrote, in any session, ends, and two reads under equal snapshots
	// see the same rows.
	postgresVersion = "SELECT pg_current_snapshot()::text"
)

// versionWatch asks SQLite's data_version on a read-only connection of its own, which never
// writes: the value of a connection changes only with other connections' commits.
type versionWatch struct {
	db   *sql.DB
	stmt *sql.Stmt
}

func openVersionWatch(path string, params url.Values) (*versionWatch, error) {
	db, err := openSQLiteDB(path, params, "mode", "ro", 1)
	if err != nil {
		return nil, err
	}
	stmt, err := db.Prepare(sqliteVersion)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open SQLite: %w", err)
	}
	return &versionWatch{db: db, stmt: stmt}, nil
}

func (w *versionWatch) version(ctx context.Context) (string, error) {
	var v string
	err := w.stmt.QueryRowContext(ctx).Scan(&v)
	return v, err
}

func (w *versionWatch) Close() error {
	w.stmt.Close()
	return w.db.Close()
}

// DataVersion reads the version of the database: a readcache.Versioner. A statement like any
// other for the hooks.
func (s *Store) DataVersion(ctx context.Context) (string, error) {
	start := s.o.Hooks.start(ctx, s.versionQuery())
	defer s.o.Hooks.done(s.versionQuery(), start)
	if d, ok := s.raw.(*splitDriver); ok {
		return d.watch.version(ctx)
	}
	rows, err := s.raw.(*postgresDriver).QueryContext(ctx, postgresVersion)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var v string
	if !rows.Next() {
		return "", fmt.Errorf("%s answered no row: %w", postgresVersion, rows.Err())
	}
	err = rows.Scan(&v)
	return v, err
}

func (s *Store) versionQuery() string {
	if _, ok := s.raw.(*splitDriver); ok {
		return sqliteVersion
	}
	return postgresVersion
}
