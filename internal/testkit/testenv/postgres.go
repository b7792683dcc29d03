package testenv

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/store"
)

// Tests on PostgreSQL (BINDERY_TEST_DB) each get a schema of their own in that database, held
// with a session advisory lock for as long as the test runs, so that the test processes of one
// `go test ./...` (and of other runs on the same server) never share one.
//
// Migrating a new schema costs seconds under load (ent's DDL and Atlas's inspection), so the
// migrated schemas are pooled (decision 310): a test takes a clean one of this version's
// fingerprint (store.Fingerprint), or migrates a new one when none is free; when it ends its rows
// are deleted and its sequences restarted, and it goes back to the pool, unless its tables,
// columns, indexes or constraints changed, or its fingerprint did: then it is dropped. A schema
// left in use by a process that died (its lock went with its connection) is dropped by the next
// process, as are pooled schemas of another fingerprint that nobody used for an hour.
const (
	pooledPrefix = "tp_" // pooled, migrated: tp_<fingerprint's first 16 digits>_<random>
	emptyPrefix  = "te_" // empty, for tests that create their own tables: dropped after the test
	lockSpace    = 0x74707374
	inUse        = "in use"
	stalePool    = time.Hour
)

// PostgresDSN returns the DSN of a fresh, empty PostgreSQL schema, dropped when the test ends,
// or "" when BINDERY_TEST_DB is unset (the tests then run on SQLite). Tests that open a Bindery
// store take MigratedPostgresDSN, which is faster.
func PostgresDSN(tb testing.TB) string {
	tb.Helper()
	return claimSchema(tb, func(c *sql.Conn, _ func(string) string) (*heldSchema, error) {
		return newSchema(c, emptyPrefix+strings.ToLower(id.Random(12)))
	})
}

// MigratedPostgresDSN returns the DSN of a PostgreSQL schema migrated to this version, with no
// rows but its fingerprint's (store.Open does not migrate it again), used by this test alone, or
// "" when BINDERY_TEST_DB is unset.
func MigratedPostgresDSN(tb testing.TB) string {
	tb.Helper()
	fp, err := store.Fingerprint("postgres")
	if err != nil {
		tb.Fatal(err)
	}
	prefix := pooledPrefix + fp[:16] + "_"
	return claimSchema(tb, func(c *sql.Conn, dsnOf func(string) string) (*heldSchema, error) {
		if s, err := freeSchema(c, prefix); s != nil || err != nil {
			return s, err
		}
		return migratedSchema(tb, c, prefix+strings.ToLower(id.Random(10)), dsnOf)
	})
}

// heldSchema is a schema a test holds the lock of.
type heldSchema struct {
	name    string
	catalog string // catalogOf when it was taken: pooled schemas only
}

// claimSchema takes a schema with take on a connection of its own, which holds its lock until the
// test ends, and returns its DSN; a pooled schema then goes back to the pool, any other is dropped.
// take is given the DSN of a schema.
func claimSchema(tb testing.TB, take func(c *sql.Conn, dsnOf func(schema string) string) (*heldSchema, error)) string {
	tb.Helper()
	base := os.Getenv("BINDERY_TEST_DB")
	if base == "" {
		return ""
	}
	db, err := adminDB(base)
	if err != nil {
		tb.Fatalf("BINDERY_TEST_DB: %v", err)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		tb.Fatalf("BINDERY_TEST_DB: %v", err)
	}
	sweepOnce.Do(func() { sweep(conn) })
	dsnOf := func(schema string) string { return withSearchPath(tb, base, schema) }
	s, err := take(conn, dsnOf)
	if err != nil {
		conn.Close()
		tb.Fatalf("BINDERY_TEST_DB: a test schema: %v", err)
	}
	tb.Cleanup(func() {
		defer conn.Close()
		defer unlock(conn, s.name) // the session, and its locks, outlive conn in the pool
		if err := release(conn, s); err != nil {
			tb.Errorf("BINDERY_TEST_DB: release the test schema %s: %v", s.name, err)
		}
	})
	return dsnOf(s.name)
}

var (
	adminOnce   sync.Once
	admin       *sql.DB
	adminErr    error
	sweepOnce   sync.Once
	cleanFailed sync.Once
)

// adminDB is the process's pool of connections that create, lock, clean and drop test schemas.
// Their statements wait at most 20 s for a lock a test left held, then fail the test.
func adminDB(dsn string) (*sql.DB, error) {
	adminOnce.Do(func() {
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			adminErr = err
			return
		}
		cfg.RuntimeParams["lock_timeout"] = "20s"
		cfg.RuntimeParams["application_name"] = adminName()
		admin = stdlib.OpenDB(*cfg)
	})
	return admin, adminErr
}

// adminName names the sessions of this process's admin pool in pg_stat_activity.
func adminName() string { return fmt.Sprintf("bindery-testenv-%d", os.Getpid()) }

// freeSchema takes a clean pooled schema whose name starts with prefix that no test holds, or
// returns nil when there is none.
func freeSchema(c *sql.Conn, prefix string) (*heldSchema, error) {
	schemas, err := listSchemas(c, prefix)
	if err != nil {
		return nil, err
	}
	for name, comment := range schemas {
		if _, _, clean := parseClean(comment); !clean || !tryLock(c, name) {
			continue
		}
		now, _ := schemaComment(c, name)
		catalog, _, clean := parseClean(now)
		switch {
		case clean && bulkLoaded(c, name): // released so by an older version
			dropSchema(c, name)
		case clean: // not taken and changed meanwhile
			return &heldSchema{name: name, catalog: catalog}, markInUse(c, name)
		}
		unlock(c, name)
	}
	return nil, nil
}

// migratedSchema creates a schema and migrates it, for the pool.
func migratedSchema(tb testing.TB, c *sql.Conn, name string, dsnOf func(string) string) (*heldSchema, error) {
	s, err := newSchema(c, name)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(context.Background(), store.Options{DataDir: tb.TempDir(), DSN: dsnOf(name)})
	if err == nil {
		st.Close()
		s.catalog, err = catalogOf(c, name)
	}
	if err != nil {
		dropSchema(c, name)
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return s, nil
}

// parseClean reads the comment of a schema back in the pool: "clean <catalog> <released at>".
func parseClean(comment string) (catalog string, released time.Time, ok bool) {
	fields := strings.Fields(comment)
	if len(fields) != 3 || fields[0] != "clean" {
		return "", time.Time{}, false
	}
	unix, err := strconv.ParseInt(fields[2], 10, 64)
	return fields[1], time.Unix(unix, 0), err == nil
}

// newSchema locks and creates a schema, marked in use.
func newSchema(c *sql.Conn, name string) (*heldSchema, error) {
	if !tryLock(c, name) {
		return nil, fmt.Errorf("the new schema %s is locked", name)
	}
	if _, err := c.ExecContext(context.Background(), "CREATE SCHEMA "+quote(name)); err != nil {
		return nil, err
	}
	return &heldSchema{name: name}, markInUse(c, name)
}

// release returns a pooled schema to the pool, cleaned, if its catalog is the one it was taken
// with, else drops it; it drops any other schema.
func release(c *sql.Conn, s *heldSchema) error {
	if s.catalog == "" || !unchanged(c, s) || bulkLoaded(c, s.name) || !cleaned(c, s.name) {
		return dropSchema(c, s.name)
	}
	_, err := c.ExecContext(context.Background(), fmt.Sprintf("COMMENT ON SCHEMA %s IS 'clean %s %d'",
		quote(s.name), s.catalog, time.Now().Unix()))
	return err
}

func unchanged(c *sql.Conn, s *heldSchema) bool {
	catalog, err := catalogOf(c, s.name)
	return err == nil && catalog == s.catalog
}

// bulkLoaded reports whether a schema's tables take more than bulkLoadedBytes, as a benchmark's
// 100,000 spaces do. Deleting its rows would leave their pages and the statistics of a large
// table to the next test, whose planner then chose a scan of a whole index over the primary key
// for a table of one row (a point read 1 → 12 ms); dropping it costs one migration.
func bulkLoaded(c *sql.Conn, name string) bool {
	var bytes int64
	err := c.QueryRowContext(context.Background(), `SELECT coalesce(sum(pg_relation_size(oid)), 0)
		FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind = 'r'`, name).Scan(&bytes)
	return err != nil || bytes > bulkLoadedBytes
}

const bulkLoadedBytes = 16 << 20

// cleaned deletes a schema's rows, and says once when it cannot.
func cleaned(c *sql.Conn, name string) bool {
	err := deleteRows(c, name)
	if err != nil {
		cleanFailed.Do(func() {
			fmt.Fprintf(os.Stderr, "testenv: test schemas are dropped, not pooled (each test migrates a new one): %v\n", err)
		})
	}
	return err == nil
}

// sweep drops, of the schemas nobody holds, those left in use by a process that died, and pooled
// ones of another fingerprint released over stalePool ago.
func sweep(c *sql.Conn) {
	fp, err := store.Fingerprint("postgres")
	if err != nil {
		return
	}
	for _, prefix := range []string{pooledPrefix, emptyPrefix} {
		schemas, err := listSchemas(c, prefix)
		if err != nil {
			return
		}
		for name, comment := range schemas {
			if stale(name, comment, fp) && tryLock(c, name) {
				if comment, err := schemaComment(c, name); err == nil && stale(name, comment, fp) {
					dropSchema(c, name)
				}
				unlock(c, name)
			}
		}
	}
}

// stale says whether a schema nobody holds is to be dropped.
func stale(name, comment, fingerprint string) bool {
	_, released, clean := parseClean(comment)
	if !clean {
		return true // left in use, or an empty schema: its test is over
	}
	return !strings.HasPrefix(name, pooledPrefix+fingerprint[:16]+"_") && time.Since(released) > stalePool
}

// listSchemas returns the schemas whose names start with prefix, with their comments.
func listSchemas(c *sql.Conn, prefix string) (map[string]string, error) {
	rows, err := c.QueryContext(context.Background(), `SELECT nspname, coalesce(obj_description(oid, 'pg_namespace'), '')
		FROM pg_namespace WHERE starts_with(nspname, $1)`, prefix)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	schemas := map[string]string{}
	for rows.Next() {
		var name, comment string
		if err := rows.Scan(&name, &comment); err != nil {
			return nil, err
		}
		schemas[name] = comment
	}
	return schemas, rows.Err()
}

func schemaComment(c *sql.Conn, name string) (string, error) {
	var comment sql.NullString
	err := c.QueryRowContext(context.Background(), `SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = $1`, name).Scan(&comment)
	return comment.String, err
}

func markInUse(c *sql.Conn, name string) error {
	_, err := c.ExecContext(context.Background(), "COMMENT ON SCHEMA "+quote(name)+" IS '"+inUse+"'")
	return err
}

func tryLock(c *sql.Conn, name string) bool {
	var locked bool
	err := c.QueryRowContext(context.Background(), `SELECT pg_try_advisory_lock($1, hashtext($2))`, lockSpace, name).Scan(&locked)
	return err == nil && locked
}

func unlock(c *sql.Conn, name string) {
	c.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1, hashtext($2))`, lockSpace, name)
}

func dropSchema(c *sql.Conn, name string) error {
	_, err := c.ExecContext(context.Background(), "DROP SCHEMA IF EXISTS "+quote(name)+" CASCADE")
	return err
}

// catalogOf digests a schema's tables, views and sequences with their columns, types, defaults
// and persistence, its constraints, indexes, triggers and functions: two schemas of the same digest
// hold the same structure. The schema's name is left out.
func catalogOf(c *sql.Conn, name string) (string, error) {
	var digest string
	err := c.QueryRowContext(context.Background(), `SELECT md5(replace(string_agg(d, E'\n' ORDER BY d), $1::text, ''))
	FROM (
		SELECT concat_ws(' ', c.relkind, c.relpersistence, c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
			a.attnotnull, a.attidentity, a.attgenerated, pg_get_expr(ad.adbin, ad.adrelid))
		FROM pg_class c
		LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
		LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
		WHERE c.relnamespace = $2::regnamespace
		UNION ALL
		SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = $2::regnamespace
		UNION ALL
		SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		WHERE c.relnamespace = $2::regnamespace
		UNION ALL
		SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
		WHERE c.relnamespace = $2::regnamespace AND NOT t.tgisinternal
		UNION ALL
		SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.pronamespace = $2::regnamespace
	) AS catalog(d)`, name, name).Scan(&digest)
	return digest, err
}

// deleteRows empties a schema's tables but its fingerprint's and restarts its sequences, in one
// transaction: DELETE with the foreign keys' triggers off (their cycles order no table first),
// which takes a superuser or the right to set session_replication_role (TRUNCATE, which takes
// neither, costs 0.4–2 s: new files for every table and index).
func deleteRows(c *sql.Conn, name string) error {
	tables, err := tablesOf(c, name)
	if err != nil {
		return err
	}
	var script strings.Builder
	script.WriteString("SET LOCAL session_replication_role = replica;\n")
	for _, table := range tables {
		fmt.Fprintf(&script, "DELETE FROM %s;\n", table)
	}
	fmt.Fprintf(&script, `SELECT setval(s.seqrelid, s.seqstart, false) FROM pg_sequence s
		JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relnamespace = %s::regnamespace;`, quoteLiteral(name))
	return inTransaction(c, script.String())
}

// inTransaction runs statements (without arguments: in one message) in a transaction.
func inTransaction(c *sql.Conn, statements string) error {
	tx, err := c.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(statements); err != nil {
		return err
	}
	return tx.Commit()
}

// tablesOf lists a schema's tables but the fingerprint's, qualified and quoted.
func tablesOf(c *sql.Conn, name string) ([]string, error) {
	rows, err := c.QueryContext(context.Background(), `SELECT relname FROM pg_class
		WHERE relnamespace = $1::regnamespace AND relkind IN ('r', 'p') AND relname <> $2`, name, store.SchemaTable)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var table string
		if err := rows.Scan(&table); err != nil {
			return nil, err
		}
		tables = append(tables, pgx.Identifier{name, table}.Sanitize())
	}
	return tables, rows.Err()
}

func quote(name string) string { return pgx.Identifier{name}.Sanitize() }

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// withSearchPath returns dsn with search_path set to the schema.
func withSearchPath(tb testing.TB, dsn, schema string) string {
	tb.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
