// Package txn runs a function in one ent transaction: every write happens, or none.
package txn

import (
	"context"
	stdsql "database/sql"
	"errors"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
)

// Run runs fn in a transaction of the client, committing when fn succeeds and rolling back when
// it fails. On SQLite the transaction takes the write lock at once (immediate), so concurrent
// writers queue instead of failing to upgrade a read lock.
func Run(ctx context.Context, client *ent.Client, fn func(tx *ent.Tx) error) error {
	tx, err := client.Tx(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// ForUpdate locks the selected rows until the transaction ends, on PostgreSQL; SQLite has no row
// locks and needs none (its one writer serializes write transactions).
func ForUpdate(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForUpdate()
	}
}

// SkippedUpsert reports whether err is the "no rows" an upsert that wrote nothing answers
// (PostgreSQL's ON CONFLICT DO NOTHING returns no row): nothing failed.
func SkippedUpsert(err error) bool { return errors.Is(err, stdsql.ErrNoRows) }

type atCommit struct{}

// AtCommit marks ctx: a statement run under it in a transaction, whose answer its caller does not
// read (an insert of a row nothing reads before the commit), may be sent with the transaction's
// commit rather than on its own. On PostgreSQL the store sends such statements and the COMMIT in
// one round trip (a pipelined batch), where each would otherwise cost one; an error of theirs is
// then the commit's, and the transaction rolls back as it would had the statement failed when
// it ran. SQLite, and a statement outside a transaction, run it at once.
func AtCommit(ctx context.Context) context.Context { return context.WithValue(ctx, atCommit{}, true) }

// IsAtCommit reports whether ctx was marked by AtCommit.
func IsAtCommit(ctx context.Context) bool {
	marked, _ := ctx.Value(atCommit{}).(bool)
	return marked
}
