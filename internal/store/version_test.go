package store_test

import (
	"context"
	"testing"

	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestDataVersion: the version of the database changes with every commit, of this store or of
// another one on the same database (another process): a write through either is seen by both at
// their next read of it. On SQLite it stays while only reads run; on PostgreSQL the snapshot
// moves with any transaction that writes in the whole cluster (the other test processes').
func TestDataVersion(t *testing.T) {
	ctx := context.Background()
	o := store.Options{DataDir: t.TempDir(), DSN: testenv.MigratedPostgresDSN(t)}
	one, two := open(t, o), open(t, o)
	version := func(st *store.Store) string {
		t.Helper()
		v, err := st.DataVersion(ctx)
		if err != nil || v == "" {
			t.Fatalf("DataVersion: %q, %v", v, err)
		}
		return v
	}
	exec := func(st *store.Store, stmt string) {
		t.Helper()
		if _, err := st.Client.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	exec(one, "CREATE TABLE version_probe (n integer)")
	before1, before2 := version(one), version(two)
	if rows, err := one.Client.QueryContext(ctx, "SELECT count(*) FROM version_probe"); err != nil {
		t.Fatal(err)
	} else {
		rows.Close()
	}
	if !store.IsPostgres(o.DSN) && (version(one) != before1 || version(two) != before2) {
		t.Fatal("a read changed the version")
	}
	for i, writer := range []*store.Store{one, two, one, two} {
		if i == 2 && !store.IsPostgres(o.DSN) {
			// The log emptied and restarted from its first frame, as after a quiet moment.
			exec(writer, "PRAGMA wal_checkpoint(TRUNCATE)")
			before1, before2 = version(one), version(two)
		}
		exec(writer, "INSERT INTO version_probe (n) VALUES (1)")
		after1, after2 := version(one), version(two)
		if after1 == before1 || after2 == before2 {
			t.Fatalf("after commit %d, the versions stayed: %q → %q, %q → %q", i+1, before1, after1, before2, after2)
		}
		before1, before2 = after1, after2
	}
}

// TestVersionAfterClose: a request still running when the store closes gets an error.
func TestVersionAfterClose(t *testing.T) {
	st, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir(), DSN: testenv.MigratedPostgresDSN(t)})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if v, err := st.DataVersion(context.Background()); err == nil {
		t.Fatalf("DataVersion after Close: %q, no error", v)
	}
}

func open(t *testing.T, o store.Options) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// BenchmarkDataVersion is the cost of one read of the version, one at a time.
func BenchmarkDataVersion(b *testing.B) {
	st, err := store.Open(context.Background(), store.Options{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for b.Loop() {
		if _, err := st.DataVersion(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
