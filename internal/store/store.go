// Package store opens the database behind the ent client: embedded SQLite by default, PostgreSQL
// for scale-out, and migrates its schema.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	_ "github.com/mattn/go-sqlite3" // the "sqlite3" database/sql driver

	"github.com/binderyhq/bindery/ent"
	_ "github.com/binderyhq/bindery/ent/runtime" // privacy policies and defaults
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/ratelimit"
)

// Options say where the data lives and how durable SQLite writes are.
type Options struct {
	DataDir string // directory of the SQLite database and of file bytes (blobs/)
	DSN     string // postgres://… to use PostgreSQL; empty for the embedded SQLite default
	// FullSync makes SQLite fsync every commit (synchronous=FULL), durable against power loss;
	// the default (NORMAL) is durable against a crashed process.
	FullSync bool
	Readers  int   // SQLite read-only connections; 0 means 3
	Hooks    Hooks // watch the statements sent (metrics time them, tests count and hold them)
	// Blobs says where file bytes live (BlobsDB, BlobsDir, an absolute directory or
	// s3://bucket/prefix); empty for the default: the database on PostgreSQL, <DataDir>/blobs on
	// SQLite.
	Blobs string
	S3    blobs.S3Options // how to reach the object store when Blobs is s3://… (its URL is Blobs)
}

// Store is an open database, the ent client and the driver behind it, and the blob store of file
// bytes. Several servers sharing one PostgreSQL database share its blobs too, unless they were
// told to keep them in a directory.
type Store struct {
	Client *ent.Client
	Driver dialect.Driver
	Blobs  blobs.Store
	o      Options
	raw    dialect.Driver // the driver before Options.Hooks, for the DB blob store's pools
	pools  []Pool
	// RateCounters are the rate limits' counters, shared by every server of the database.
	RateCounters *ratelimit.Table
}

// Open opens (creating if needed) and migrates the database.
func Open(ctx context.Context, o Options) (*Store, error) {
	drv, err := openDriver(o)
	if err != nil {
		return nil, err
	}
	if err := migrateSchema(ctx, drv); err != nil {
		drv.Close()
		return nil, err
	}
	st := &Store{Driver: drv, o: o, raw: drv, pools: poolsOf(drv)}
	if !o.Hooks.empty() {
		st.Driver = newHookedDriver(drv, o.Hooks)
	}
	st.Client = ent.NewClient(ent.Driver(st.Driver))
	st.Client.Use(storableText)
	if st.Blobs, err = st.OpenBlobs(ctx, o.Blobs); err != nil {
		drv.Close()
		return nil, err
	}
	raw, ok := st.Driver.(ratelimit.DB)
	if !ok {
		drv.Close()
		return nil, fmt.Errorf("open: the driver %T runs no raw statements", st.Driver)
	}
	st.RateCounters = ratelimit.NewTable(raw, drv.Dialect() == dialect.Postgres)
	return st, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.Client.Close() }

// Postgres reports whether the database is PostgreSQL (else it is the embedded SQLite one).
func (s *Store) Postgres() bool { return s.raw.Dialect() == dialect.Postgres }

// IsPostgres reports whether a DSN names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

func openDriver(o Options) (dialect.Driver, error) {
	if IsPostgres(o.DSN) {
		return openPostgres(o.DSN)
	}
	if o.DSN != "" {
		return nil, fmt.Errorf("--db: %q is not a postgres:// URL (leave it empty for the embedded SQLite database)", o.DSN)
	}
	return openSQLite(o)
}

// sqliteCacheKiB is the page cache of each SQLite connection. SQLite's default, 2 MiB, held
// little of bench-peer's 14 MB database: the nested query's page of 550 change requests, spread
// over the table, read ~790 pages from the operating system per request (pread, a system call
// and a copy each); with 32 MiB it reads none once warm (decision 358). Four connections may
// hold 128 MiB at most, and only of a database that large.
const sqliteCacheKiB = 32 << 10

// openSQLite opens one writer connection (immediate transactions, so writers queue on the lock
// instead of failing to upgrade it) and a small pool of read-only connections; WAL lets them read
// while the writer writes, and lets other processes (the CLI) use the same file.
func openSQLite(o Options) (dialect.Driver, error) {
	if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	path := filepath.Join(o.DataDir, "bindery.db")
	sync := "NORMAL"
	if o.FullSync {
		sync = "FULL"
	}
	params := url.Values{
		"_journal_mode": {"WAL"}, "_foreign_keys": {"on"}, "_busy_timeout": {"10000"}, "_synchronous": {sync}, "_stmt_cache_size": {"64"},
		"_cache_size": {strconv.Itoa(-sqliteCacheKiB)},
	}
	writer, err := openSQLiteDB(path, params, "_txlock", "immediate", 1)
	if err != nil {
		return nil, err
	}
	if err := requireFTS5(writer); err != nil {
		writer.Close()
		return nil, err
	}
	readers := o.Readers
	if readers <= 0 {
		readers = 3
	}
	reader, err := openSQLiteDB(path, params, "mode", "ro", readers)
	if err != nil {
		writer.Close()
		return nil, err
	}
	watch, err := openVersionWatch(path, params)
	if err != nil {
		writer.Close()
		reader.Close()
		return nil, err
	}
	stmts := newStmtCache(reader)
	return &splitDriver{
		Driver:      entsql.OpenDB(dialect.SQLite, writer),
		reader:      entsql.NewDriver(dialect.SQLite, entsql.Conn{ExecQuerier: stmts}),
		readerStmts: stmts,
		watch:       watch,
	}, nil
}

func openSQLiteDB(path string, params url.Values, key, value string, conns int) (*sql.DB, error) {
	p := url.Values{}
	for k, v := range params {
		p[k] = v
	}
	p.Set(key, value)
	db, err := sql.Open("sqlite3", "file:"+path+"?"+p.Encode())
	if err != nil {
		return nil, fmt.Errorf("open SQLite: %w", err)
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	db.SetConnMaxLifetime(0)
	if err := pingWithin(db, 10*time.Second); err != nil {
		db.Close()
		return nil, fmt.Errorf("open SQLite database %s: %w", path, err)
	}
	return db, nil
}

// ErrNoFTS5 is the error of a binary whose SQLite has no FTS5, which the search index needs: go
// build without the sqlite_fts5 tag makes one, and it would fail later with "no such module: fts5".
var ErrNoFTS5 = errors.New("this binary was built without SQLite's full-text search (FTS5), which the search index needs: " +
	"build it with `make build`, or give -tags sqlite_fts5 to go build, go run and go test (GOFLAGS=-tags=sqlite_fts5)")

// requireFTS5 returns ErrNoFTS5 when the SQLite linked in was compiled without FTS5.
func requireFTS5(db *sql.DB) error {
	var used bool
	if err := db.QueryRow("SELECT sqlite_compileoption_used('ENABLE_FTS5')").Scan(&used); err != nil {
		return fmt.Errorf("open SQLite: %w", err)
	}
	if !used {
		return ErrNoFTS5
	}
	return nil
}

func pingWithin(db *sql.DB, d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return db.PingContext(ctx)
}
