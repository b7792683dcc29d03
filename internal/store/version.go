package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"strconv"
	"sync"
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

// versionWatch reads the version of a SQLite database: the header of its wal-index, which every
// commit of every process rewrites, read from shared memory without a statement (decision 368);
// or, while a writer is rewriting it or where it cannot be mapped, SQLite's data_version, asked
// on a read-only connection of its own that never writes (its value changes only with other
// connections' commits). The connection also holds the wal-index open while it is mapped. The
// statement is run on the driver's connection itself: database/sql's rows, locks and conversions
// cost more than SQLite's answer (decision 366).
type versionWatch struct {
	db    *sql.DB
	conn  *sql.Conn
	stmt  driver.StmtQueryContext
	row   []driver.Value
	mu    sync.RWMutex // held for reading while index is read: Close unmaps it under the lock
	index []byte       // the wal-index's headers, mapped; nil when they could not be, or closed
	unmap func() error // of index
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
	if err == nil {
		_, err = w.dataVersion(context.Background()) // opens the wal-index, if no connection had
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open SQLite: %w", err)
	}
	// Where it cannot be mapped, data_version serves alone: slower, as right.
	w.index, w.unmap, _ = mapWALIndex(path)
	return w, nil
}

// version returns "w" and the wal-index's header, or "d" and data_version (a statement the hooks
// see) while a writer rewrites the header; the prefixes keep the two kinds apart.
func (w *versionWatch) version(ctx context.Context, h Hooks) (string, error) {
	if header, ok := w.header(); ok {
		return "w" + string(header[:]), nil
	}
	start := h.start(ctx, sqliteVersion)
	defer h.done(sqliteVersion, start)
	v, err := w.dataVersion(ctx)
	return "d" + v, err
}

// header reads the wal-index's header, if it is mapped and whole.
func (w *versionWatch) header() (header [walIndexHeaderSize]byte, ok bool) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.index == nil {
		return header, false
	}
	return walIndexHeader(w.index)
}

// dataVersion reads data_version; calls are serialized by the connection.
func (w *versionWatch) dataVersion(ctx context.Context) (v string, err error) {
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
	w.mu.Lock() // a request still running reads data_version from now on, and fails
	if w.unmap != nil {
		w.unmap() // before the connection that holds the file open closes
		w.index, w.unmap = nil, nil
	}
	w.mu.Unlock()
	w.conn.Raw(func(any) error { return w.stmt.(driver.Stmt).Close() })
	w.conn.Close()
	return w.db.Close()
}

// DataVersion reads the version of the database: a readcache.Versioner. On PostgreSQL it is a
// statement like any other for the hooks; on SQLite, only when it is one.
func (s *Store) DataVersion(ctx context.Context) (string, error) {
	if d, ok := s.raw.(*splitDriver); ok {
		return d.watch.version(ctx, s.o.Hooks)
	}
	start := s.o.Hooks.start(ctx, postgresVersion)
	defer s.o.Hooks.done(postgresVersion, start)
	return s.readSnapshot(ctx)
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
