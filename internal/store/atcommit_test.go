package store_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/internal/txn"
)

// TestAtCommitOnPostgres: in a transaction, a statement run under txn.AtCommit is sent with the
// COMMIT (decision 586): not before it, not at all when the transaction rolls back, and when it
// fails nothing of the transaction is committed and the pool's connections go on working.
// Outside a transaction it runs at once; the isolation and access mode asked for are kept.
func TestAtCommitOnPostgres(t *testing.T) {
	dsn := testenv.MigratedPostgresDSN(t)
	if dsn == "" {
		t.Skip("PostgreSQL only (BINDERY_TEST_DB)")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{DataDir: t.TempDir(), DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c := st.Client
	if _, err := c.ExecContext(ctx, "CREATE TABLE at_commit_test (n integer PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	defer c.ExecContext(ctx, "DROP TABLE at_commit_test")
	later := txn.AtCommit(ctx)
	count := func(q interface {
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	}, n int) int {
		t.Helper()
		rows, err := q.QueryContext(ctx, "SELECT count(*) FROM at_commit_test WHERE n = $1", n)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var found int
		for rows.Next() {
			if err := rows.Scan(&found); err != nil {
				t.Fatal(err)
			}
		}
		return found
	}

	t.Run("OKSentWithTheCommit", func(t *testing.T) {
		err := txn.Run(ctx, c, func(tx *ent.Tx) error {
			if _, err := tx.Client().ExecContext(later, "INSERT INTO at_commit_test (n) VALUES ($1)", 1); err != nil {
				return err
			}
			if n := count(tx.Client(), 1); n != 0 {
				t.Errorf("the kept statement ran before the commit: %d rows", n)
			}
			return nil
		})
		if err != nil || count(c, 1) != 1 {
			t.Fatalf("commit: %v, rows %d", err, count(c, 1))
		}
	})

	t.Run("OKRolledBackNeverSent", func(t *testing.T) {
		failed := errors.New("the write failed")
		err := txn.Run(ctx, c, func(tx *ent.Tx) error {
			if _, err := tx.Client().ExecContext(later, "INSERT INTO at_commit_test (n) VALUES ($1)", 2); err != nil {
				return err
			}
			return failed
		})
		if !errors.Is(err, failed) || count(c, 2) != 0 {
			t.Fatalf("rollback: %v, rows %d", err, count(c, 2))
		}
	})

	t.Run("ErrKeptStatementFailsTheCommit", func(t *testing.T) {
		for range 20 { // more than the pool's connections: each must be left usable
			err := txn.Run(ctx, c, func(tx *ent.Tx) error {
				if _, err := tx.Client().ExecContext(ctx, "INSERT INTO at_commit_test (n) VALUES ($1)", 3); err != nil {
					return err
				}
				_, err := tx.Client().ExecContext(later, "INSERT INTO at_commit_test (n) VALUES ($1)", 1) // taken
				return err
			})
			if err == nil || count(c, 3) != 0 {
				t.Fatalf("a failing kept statement: %v, rows of the transaction %d", err, count(c, 3))
			}
		}
		if err := txn.Run(ctx, c, func(tx *ent.Tx) error {
			_, err := tx.Client().ExecContext(later, "INSERT INTO at_commit_test (n) VALUES ($1)", 4)
			return err
		}); err != nil || count(c, 4) != 1 {
			t.Fatalf("after failed commits: %v, rows %d", err, count(c, 4))
		}
	})

	t.Run("OKOutsideTransactionAtOnce", func(t *testing.T) {
		if _, err := c.ExecContext(later, "INSERT INTO at_commit_test (n) VALUES ($1)", 5); err != nil || count(c, 5) != 1 {
			t.Fatalf("outside a transaction: %v, rows %d", err, count(c, 5))
		}
	})

	t.Run("OKTransactionOptions", func(t *testing.T) {
		tx, err := c.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		rows, err := tx.Client().QueryContext(ctx, "SELECT current_setting('transaction_isolation'), current_setting('transaction_read_only')")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var isolation, readOnly string
		for rows.Next() {
			if err := rows.Scan(&isolation, &readOnly); err != nil {
				t.Fatal(err)
			}
		}
		if isolation != "serializable" || readOnly != "on" {
			t.Fatalf("transaction_isolation %s, transaction_read_only %s", isolation, readOnly)
		}
	})
}
