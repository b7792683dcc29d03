package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestStmtCacheUnderChurn runs more distinct statements than the cache keeps, from several
// goroutines at once, so it empties itself while others use it: every query must still answer.
func TestStmtCacheUnderChurn(t *testing.T) {
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "c.db")+"?mode=rwc")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(3)
	c := newStmtCache(db)
	defer c.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 3 * maxStatements / 2 {
				n := g*10_000 + i
				var got int
				rows, err := c.QueryContext(context.Background(), fmt.Sprintf("SELECT %d + ?", n), 1)
				if err == nil {
					for rows.Next() {
						err = rows.Scan(&got)
					}
					err = errors.Join(err, rows.Close())
				}
				if err != nil || got != n+1 {
					errs <- fmt.Errorf("query %d: got %d, %v", n, got, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(c.stmts) > maxStatements {
		t.Errorf("the cache keeps %d statements, more than %d", len(c.stmts), maxStatements)
	}
}
