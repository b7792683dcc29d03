package store_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestReopen opens one database again and again: a database whose fingerprint is this version's
// is not migrated; one without a fingerprint (migrated before they were stored) or with another
// is, and the migration, ent's and the search index's raw tables (an FTS5 table among them on
// SQLite), finds everything else in place.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	o := store.Options{DataDir: t.TempDir(), DSN: testenv.PostgresDSN(t)}
	reopen := func(statements ...string) *store.Store {
		t.Helper()
		st, err := store.Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		for _, stmt := range statements {
			if _, err := st.Client.ExecContext(ctx, stmt); err != nil {
				t.Fatal(err)
			}
		}
		return st
	}
	st := reopen("DROP TABLE rate_limits")
	want, err := store.Fingerprint(st.Driver.Dialect())
	if err != nil {
		t.Fatal(err)
	}
	checkFingerprint(t, st, want)
	st = reopen()
	if tableExists(st, "rate_limits") {
		t.Fatal("a database of this version's fingerprint was migrated again")
	}
	for _, older := range []string{"UPDATE bindery_schema SET fingerprint = 'older'", "DROP TABLE bindery_schema"} {
		st = reopen(older)
		st = reopen()
		if !tableExists(st, "rate_limits") || !tableExists(st, "search_sections") {
			t.Fatalf("after %q, the database was not migrated", older)
		}
		checkFingerprint(t, st, want)
		reopen("DROP TABLE rate_limits")
	}
}

// TestMigrationDropsOldIndexes: migrating a database drops the indexes of ent's tables that the
// schema no longer declares (the (organization, deleted_at, position, id) index on spaces before
// decision 333), and keeps those of the raw tables.
func TestMigrationDropsOldIndexes(t *testing.T) {
	ctx := context.Background()
	o := store.Options{DataDir: t.TempDir(), DSN: testenv.PostgresDSN(t)}
	st, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`CREATE INDEX space_organization_id_deleted_at_position_id ON spaces (organization_id, deleted_at, position, id)`,
		`UPDATE bindery_schema SET fingerprint = 'older'`,
	} {
		if _, err := st.Client.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	if st, err = store.Open(ctx, o); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for index, want := range map[string]bool{
		"space_organization_id_deleted_at_position_id": false,
		"space_organization_id_position_id":            true,
		"search_sections_page":                         true,
	} {
		if got := indexExists(t, st, index); got != want {
			t.Errorf("index %s exists: %v, want %v", index, got, want)
		}
	}
}

func indexExists(t *testing.T, st *store.Store, name string) bool {
	t.Helper()
	query := `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?`
	if st.Driver.Dialect() == dialect.Postgres {
		query = `SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1`
	}
	return testenv.Count(t, st, query, name) > 0
}

// checkFingerprint fails unless the database stores fingerprint want.
func checkFingerprint(t *testing.T, st *store.Store, want string) {
	t.Helper()
	rows, err := st.Client.QueryContext(context.Background(), "SELECT fingerprint FROM bindery_schema")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var fp string
		if err := rows.Scan(&fp); err != nil {
			t.Fatal(err)
		}
		got = append(got, fp)
	}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("stored fingerprints %q, want %q", got, want)
	}
}

func tableExists(st *store.Store, table string) bool {
	rows, err := st.Client.QueryContext(context.Background(), "SELECT count(*) FROM "+table)
	if err != nil {
		return false
	}
	rows.Close()
	return true
}

// TestFingerprint: each database's fingerprint is a SHA-256, the same every time, and the two
// databases' differ (their raw tables do).
func TestFingerprint(t *testing.T) {
	pg, err := store.Fingerprint("postgres")
	if err != nil {
		t.Fatal(err)
	}
	sqlite, err := store.Fingerprint("sqlite3")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := store.Fingerprint("postgres")
	if len(pg) != 64 || pg == sqlite || again != pg {
		t.Fatalf("fingerprints %s (PostgreSQL, then %s) and %s (SQLite)", pg, again, sqlite)
	}
}

// TestPostgresPlannerSettings: statements are planned for their parameters on every run, but
// those by key (sqlplan.ByKey), which keep PostgreSQL's default; every connection prices random
// reads as cached storage does; a DSN's own settings rule both (decisions 332, 334).
func TestPostgresPlannerSettings(t *testing.T) {
	dsn := testenv.PostgresDSN(t)
	if dsn == "" {
		t.Skip("PostgreSQL only (BINDERY_TEST_DB)")
	}
	byKey := sqlplan.ByKey(context.Background())
	for _, c := range []struct {
		dsn                                 string
		planCache, byKeyPlanCache, pageCost string
	}{
		{dsn, "force_custom_plan", "auto", "1.1"},
		{dsn + "&random_page_cost=3&plan_cache_mode=force_generic_plan", "force_generic_plan", "force_generic_plan", "3"},
	} {
		st, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir(), DSN: c.dsn})
		if err != nil {
			t.Fatal(err)
		}
		planCache, pageCost := plannerSettings(t, st.Client, context.Background())
		byKeyPlanCache, byKeyPageCost := plannerSettings(t, st.Client, byKey)
		st.Close()
		if planCache != c.planCache || byKeyPlanCache != c.byKeyPlanCache || pageCost != c.pageCost || byKeyPageCost != c.pageCost {
			t.Errorf("%s: plan_cache_mode %s (by key %s), random_page_cost %s (by key %s); want %s (%s), %s",
				c.dsn, planCache, byKeyPlanCache, pageCost, byKeyPageCost, c.planCache, c.byKeyPlanCache, c.pageCost)
		}
	}
}

// plannerSettings returns the plan_cache_mode and random_page_cost of the connection a statement
// run under ctx gets.
func plannerSettings(t *testing.T, client *ent.Client, ctx context.Context) (planCache, pageCost string) {
	t.Helper()
	rows, err := client.QueryContext(ctx, "SELECT current_setting('plan_cache_mode'), current_setting('random_page_cost')")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(&planCache, &pageCost); err != nil {
			t.Fatal(err)
		}
	}
	return planCache, pageCost
}

// TestBlobStores: the default follows the database, and a PostgreSQL server does not start over
// a data directory whose blobs an earlier version wrote.
func TestBlobStores(t *testing.T) {
	ctx := context.Background()
	o := store.Options{DataDir: t.TempDir(), DSN: testenv.PostgresDSN(t)}
	st, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, isDB := st.Blobs.(*blobs.DB)
	if isDB != (o.DSN != "") {
		t.Errorf("default blob store %T with DSN %q", st.Blobs, o.DSN)
	}
	for _, bad := range []string{"relative/dir", "s3:/bucket", "disk"} {
		if _, err := st.OpenBlobs(ctx, bad); err == nil {
			t.Errorf("OpenBlobs(%q) succeeded", bad)
		}
	}
	if o.DSN == "" {
		return
	}
	old, err := blobs.NewDir(filepath.Join(o.DataDir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Put(ctx, blobs.Hash([]byte("x")), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(ctx, o); err == nil || !strings.Contains(err.Error(), "bindery blobs migrate --blobs dir --to db") {
		t.Errorf("opened over an earlier version's blobs: %v", err)
	}
	o.Blobs = store.BlobsDir
	st2, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	st2.Close()
}

// TestStorableText: whatever path writes through the client (here the command line's bootstrap),
// a string that is not text is refused naming the field, before either database sees it, and
// nothing of the transaction stays.
func TestStorableText(t *testing.T) {
	st, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir(), DSN: testenv.PostgresDSN(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, c := range []struct{ name, org, want string }{
		{"Ada\x00", "Acme", "display_name: must not contain NUL characters (one at byte 3)"},
		{"Ada", "Ac\xffme", "title: must be valid UTF-8 (an invalid byte at 2)"},
	} {
		_, _, _, err := accounts.Bootstrap(context.Background(), st.Client, "ada@example.com", c.name, c.org)
		if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid || e.Message != c.want {
			t.Errorf("%q, %q: got %v, want %q", c.name, c.org, err, c.want)
		}
	}
	sys := accounts.System(context.Background())
	if n := st.Client.Organization.Query().CountX(sys); n != 0 {
		t.Fatalf("%d organizations stored", n)
	}
}

// TestSQLitePageCache: every SQLite connection, the readers' and the writer's, keeps a page cache
// of 32 MiB, not SQLite's 2 MiB (decision 358).
func TestSQLitePageCache(t *testing.T) {
	if testenv.PostgresDSN(t) != "" {
		t.Skip("SQLite only")
	}
	st, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, q := range []string{"SELECT cache_size FROM pragma_cache_size()", "PRAGMA cache_size"} { // a reader, the writer
		rows, err := st.Client.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var kib int
		for rows.Next() {
			if err := rows.Scan(&kib); err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
		if kib != -32<<10 {
			t.Errorf("%s: %d, want %d (32 MiB)", q, kib, -32<<10)
		}
	}
}
