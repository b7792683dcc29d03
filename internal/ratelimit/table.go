package ratelimit

import (
	"context"
	"math"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"
)

// DB runs raw statements (the store's driver, or a *sql.DB).
type DB = entsql.ExecQuerier

// Table is the Counter of a database: one row per key, its window's start (Unix microseconds)
// and points, updated by one upsert. On PostgreSQL the table is UNLOGGED: counters need no
// crash safety, and a commit that wrote no WAL does not wait for a flush to disk.
type Table struct {
	db         DB
	add, sweep string // the statements, in the database's placeholders
}

// NewTable returns the counters of db; postgres says which database it is.
func NewTable(db DB, postgres bool) *Table {
	inDialect := func(q string) string {
		if postgres {
			return q
		}
		return strings.ReplaceAll(q, "$", "?") // SQLite's numbered parameters are ?N
	}
	return &Table{db: db, add: inDialect(addPoints), sweep: inDialect(sweepWindows)}
}

// The window restarts when the stored one began a window or longer ago ($4); the points are
// added only if the window then holds at most $5 (else no row is returned). SET and WHERE read
// the row as it was before the statement on both databases.
const addPoints = `INSERT INTO rate_limits (key, window_start, used) VALUES ($1, $2, $3)
ON CONFLICT (key) DO UPDATE SET
	window_start = CASE WHEN rate_limits.window_start <= $4 THEN excluded.window_start ELSE rate_limits.window_start END,
	used = CASE WHEN rate_limits.window_start <= $4 THEN excluded.used ELSE rate_limits.used + excluded.used END
WHERE rate_limits.window_start <= $4 OR rate_limits.used + excluded.used <= $5
RETURNING window_start, used`

const sweepWindows = `DELETE FROM rate_limits WHERE window_start <= $1`

// Migrate creates the table when it does not exist.
func Migrate(ctx context.Context, db DB, postgres bool) error {
	create := `CREATE TABLE IF NOT EXISTS rate_limits (key BLOB PRIMARY KEY, window_start INTEGER NOT NULL, used INTEGER NOT NULL) WITHOUT ROWID`
	if postgres {
		create = `CREATE UNLOGGED TABLE IF NOT EXISTS rate_limits (key bytea PRIMARY KEY, window_start bigint NOT NULL, used bigint NOT NULL)`
	}
	_, err := db.ExecContext(ctx, create)
	return err
}

// Add implements Counter.
func (t *Table) Add(ctx context.Context, key []byte, now time.Time, window time.Duration, points, ceiling int) (time.Time, int, error) {
	limit := int64(math.MaxInt64)
	if ceiling > 0 {
		limit = int64(ceiling)
	}
	rows, err := t.db.QueryContext(ctx, t.add, key, now.UnixMicro(), points, now.Add(-window).UnixMicro(), limit)
	if err != nil {
		return time.Time{}, 0, err
	}
	defer rows.Close()
	var start int64
	var used int
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return time.Time{}, 0, err
		}
		return time.Time{}, 0, ErrOverCeiling
	}
	if err := rows.Scan(&start, &used); err != nil {
		return time.Time{}, 0, err
	}
	return time.UnixMicro(start).UTC(), used, rows.Close()
}

// Sweep deletes the windows that ended before now: a scan of one row per client active in the
// last window, so run every few minutes (SweepHandler) it costs little (the table has no index to keep but its
// key, so counting updates stay cheap).
func (t *Table) Sweep(ctx context.Context, now time.Time, window time.Duration) (int64, error) {
	res, err := t.db.ExecContext(ctx, t.sweep, now.Add(-window).UnixMicro())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
