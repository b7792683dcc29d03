package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"strconv"
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
// writes: the value of a connection changes only with other connections' commits. The statement
// is run on the driver's connection itself: database/sql's rows, locks and conversions cost more
// than SQLite's answer (decision 366).
type versionWatch struct {
	db   *sql.DB
	conn *sql.Conn
	stmt driver.StmtQueryContext
	row  []driver.Value
}

func openVersionWatch(path string, params url.Values) (*versionWatch, error) {
	db, err := openSQLiteDB(path, params, "mode", "ro", 1)
	if err != nil {
		return nil, err
	}
	w := &versionWatch{db: db, row: make([]driver.Value, 1)}
	if w.conn, err = db.Conn(context.Background()); err == nil {
		err = w.conn.Raw(func(c any) error {
			stmt, err := c.(driver.Conn).Prepare(sqliteVersion)
			if err != nil {
				return err
			}
			var ok bool
			if w.stmt, ok = stmt.(driver.StmtQueryContext); !ok {
				return fmt.Errorf("the driver's statement %T takes no context", stmt)
			}
			return nil
		})
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open SQLite: %w", err)
	}
	return w, nil
}

// version reads data_version; calls are serialized by the connection.
func (w *versionWatch) version(ctx context.Context) (v string, err error) {
	err = w.conn.Raw(func(any) error {
		rows, err := w.stmt.QueryContext(ctx, nil)
		if err != nil {
			return err
		}
		defer rows.Close()
		if err := rows.Next(w.row); err != nil {
			return err
		}
		n, ok := w.row[0].(int64)
		if !ok {
			return fmt.Errorf("%s answered %T", sqliteVersion, w.row[0])
		}
		v = strconv.FormatInt(n, 10)
		return nil
	})
	return v, err
}

func (w *versionWatch) Close() error {
	w.conn.Raw(func(any) error { return w.stmt.(driver.Stmt).Close() })
	w.conn.Close()
	return w.db.Close()
}

// DataVersion reads the version of the database: a readcache.Versioner. A statement like any
// other for the hooks.
func (s *Store) DataVersion(ctx context.Context) (string, error) {
	query, read := postgresVersion, s.readSnapshot
	if d, ok := s.raw.(*splitDriver); ok {
		query, read = sqliteVersion, d.watch.version
	}
	start := s.o.Hooks.start(ctx, query)
	defer s.o.Hooks.done(query, start)
	return read(ctx)
}

// readSnapshot reads PostgreSQL's current snapshot.
func (s *Store) readSnapshot(ctx context.Context) (string, error) {
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
