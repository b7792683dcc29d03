package testenv

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"testing"

	"github.com/binderyhq/bindery/internal/store"
)

// TestPostgresSchemas: a migrated schema is this test's alone, holds no rows but its fingerprint
// and restarted sequences whatever the test before it wrote, and goes when a test changed its
// tables; its lock goes with its test; an empty schema has no tables and goes after its test.
func TestPostgresSchemas(t *testing.T) {
	if os.Getenv("BINDERY_TEST_DB") == "" {
		t.Skip("PostgreSQL only (BINDERY_TEST_DB)")
	}
	admin := openDB(t, os.Getenv("BINDERY_TEST_DB"))
	for i := range 3 {
		t.Run(fmt.Sprint("write ", i), func(t *testing.T) {
			e := New(t)
			checkClean(t, e.Store)
			e.Bootstrap("ada@example.com", "Acme")
			_, err := e.Store.Client.ExecContext(context.Background(), "SELECT nextval(pg_get_serial_sequence('search_spaces', 'key'))")
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	var released string
	t.Run("release", func(t *testing.T) { released = schemaOf(t, MigratedPostgresDSN(t)) })
	var held int
	if err := admin.QueryRow(`SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid = hashtext($2)::oid AND a.application_name = $3`,
		lockSpace, released, adminName()).Scan(&held); err != nil || held != 0 {
		t.Errorf("the schema %s went back to the pool locked %d times (%v)", released, held, err)
	}
	var altered string
	t.Run("alter", func(t *testing.T) {
		dsn := MigratedPostgresDSN(t)
		altered = schemaOf(t, dsn)
		if _, err := openDB(t, dsn).Exec("ALTER TABLE users ADD COLUMN extra integer"); err != nil {
			t.Fatal(err)
		}
	})
	if exists(t, admin, altered) {
		t.Errorf("the schema %s, whose table a test changed, went back to the pool", altered)
	}
	var empty string
	t.Run("empty", func(t *testing.T) {
		one, two := MigratedPostgresDSN(t), MigratedPostgresDSN(t)
		if one == two {
			t.Fatalf("one test was given the schema %s twice", schemaOf(t, one))
		}
		dsn := PostgresDSN(t)
		empty = schemaOf(t, dsn)
		var tables int
		if err := openDB(t, dsn).QueryRow("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()").Scan(&tables); err != nil || tables != 0 {
			t.Fatalf("an empty schema has %d tables (%v)", tables, err)
		}
	})
	if exists(t, admin, empty) {
		t.Errorf("the empty schema %s stayed after its test", empty)
	}
}

// checkClean fails unless every table of the store's schema is empty, but the fingerprint's
// single row, and every sequence is at its start.
func checkClean(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	rows, err := st.Client.QueryContext(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var table string
		if err := rows.Scan(&table); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, table)
	}
	rows.Close()
	if len(tables) < 40 {
		t.Fatalf("the schema has %d tables: %q", len(tables), tables)
	}
	for _, table := range tables {
		want := 0
		if table == store.SchemaTable {
			want = 1
		}
		if n := Count(t, st, "SELECT count(*) FROM "+table); n != want {
			t.Errorf("%s holds %d rows, want %d", table, n, want)
		}
	}
	if n := Count(t, st, "SELECT count(*) FROM pg_sequences WHERE schemaname = current_schema() AND last_value IS NOT NULL"); n != 0 {
		t.Errorf("%d sequences were used", n)
	}
}

func openDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func schemaOf(t *testing.T, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("search_path")
}

func exists(t *testing.T, db *sql.DB, schema string) bool {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM pg_namespace WHERE nspname = $1", schema).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}
