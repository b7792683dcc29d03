package store_test

import (
	"context"
	"testing"

	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testenv"
)

// TestReopen opens one database twice: the second migration, ent's and the search index's raw
// tables (an FTS5 table among them on SQLite), finds everything in place.
func TestReopen(t *testing.T) {
	o := store.Options{DataDir: t.TempDir(), DSN: testenv.PostgresDSN(t)}
	for range 2 {
		st, err := store.Open(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := st.Client.QueryContext(context.Background(), "SELECT count(*) FROM search_sections")
		if err != nil {
			t.Fatalf("the search index's table: %v", err)
		}
		rows.Close()
		st.Close()
	}
}
