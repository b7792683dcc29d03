package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/binderyhq/bindery/internal/txn"
)

// A connection of the PostgreSQL pools is pgx's database/sql connection (stdlib.Conn) with its
// transactions made here, so that a statement run in one under txn.AtCommit is kept and sent with
// the COMMIT in one pipelined batch (pgx's SendBatch: the statements and the COMMIT go in one
// write and their answers come back together) instead of in a round trip of its own
// (decision 586). Everything else is stdlib.Conn's. The transactions are pgx's own (BEGIN with the
// options database/sql asks for; COMMIT answered ROLLBACK is an error; a connection whose
// transaction could not be ended is closed, so the pool discards it).

// atCommitConnector makes the pool's connections atCommitConns.
type atCommitConnector struct{ driver.Connector }

// Connect opens a connection.
func (c atCommitConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	pc, ok := conn.(*stdlib.Conn)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: the driver's connection is a %T", conn)
	}
	return &atCommitConn{Conn: pc}, nil
}

// atCommitConn is a pool's connection; tx is its transaction in progress.
type atCommitConn struct {
	*stdlib.Conn
	tx *atCommitTx
}

// atCommitTx is a transaction and the statements it sends with its COMMIT.
type atCommitTx struct {
	conn    *atCommitConn
	ctx     context.Context // the BEGIN's, which database/sql ends the transaction with, as stdlib does
	pending []keptStatement
}

// keptStatement is a statement to send with the COMMIT.
type keptStatement struct {
	query string
	args  []any
}

// Begin starts a transaction with the default options.
func (c *atCommitConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx starts a transaction as stdlib.Conn does, with the isolation level and access mode asked.
func (c *atCommitConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	pc := c.Conn.Conn()
	if pc.IsClosed() {
		return nil, driver.ErrBadConn
	}
	begin, err := beginStatement(opts)
	if err != nil {
		return nil, err
	}
	if _, err := pc.Exec(ctx, begin); err != nil {
		// As pgx's own BeginTx: a BEGIN fails only with the connection or the context, and the
		// connection's state is then unknown.
		pc.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	c.tx = &atCommitTx{conn: c, ctx: ctx}
	return c.tx, nil
}

// beginStatement is the BEGIN of a transaction with opts.
func beginStatement(opts driver.TxOptions) (string, error) {
	begin := "begin"
	switch sql.IsolationLevel(opts.Isolation) {
	case sql.LevelDefault:
	case sql.LevelReadUncommitted:
		begin += " isolation level read uncommitted"
	case sql.LevelReadCommitted:
		begin += " isolation level read committed"
	case sql.LevelRepeatableRead, sql.LevelSnapshot:
		begin += " isolation level repeatable read"
	case sql.LevelSerializable:
		begin += " isolation level serializable"
	default:
		return "", fmt.Errorf("unsupported isolation: %v", opts.Isolation)
	}
	if opts.ReadOnly {
		begin += " read only"
	}
	return begin, nil
}

// ExecContext runs a statement, or, in a transaction and under txn.AtCommit, keeps it for the
// COMMIT: its result then has no count of rows.
func (c *atCommitConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.tx == nil || !txn.IsAtCommit(ctx) {
		return c.Conn.ExecContext(ctx, query, args)
	}
	if c.Conn.Conn().IsClosed() {
		return nil, driver.ErrBadConn
	}
	values := make([]any, len(args))
	for i, a := range args {
		if b, ok := a.Value.([]byte); ok {
			a.Value = slices.Clone(b) // the caller's bytes are its own once the call returns
		}
		values[i] = a.Value
	}
	c.tx.pending = append(c.tx.pending, keptStatement{query, values})
	return driver.ResultNoRows, nil
}

// Commit sends the kept statements and the COMMIT in one batch, or the COMMIT alone. When a kept
// statement fails, the transaction is rolled back and its error returned.
func (t *atCommitTx) Commit() error {
	t.conn.tx = nil
	pc := t.conn.Conn.Conn()
	if len(t.pending) == 0 {
		tag, err := pc.Exec(t.ctx, "commit")
		return t.ended(tag.String(), err)
	}
	b := &pgx.Batch{}
	for _, s := range t.pending {
		b.Queue(s.query, s.args...)
	}
	b.Queue("commit")
	results := pc.SendBatch(t.ctx, b)
	var err error
	for range t.pending {
		if _, err = results.Exec(); err != nil {
			break
		}
	}
	var tag string
	if err == nil {
		ct, cerr := results.Exec()
		tag, err = ct.String(), cerr
	}
	if cerr := results.Close(); err == nil {
		err = cerr
	}
	return t.ended(tag, err)
}

// ended answers a COMMIT that said tag or failed with err, ending the transaction if it is not.
func (t *atCommitTx) ended(tag string, err error) error {
	pc := t.conn.Conn.Conn()
	if err != nil {
		if pc.PgConn().TxStatus() != 'I' { // a kept statement failed: nothing was committed
			if _, rerr := pc.Exec(t.ctx, "rollback"); rerr != nil {
				pc.Close(context.WithoutCancel(t.ctx))
			}
		}
		return err
	}
	if tag == "ROLLBACK" {
		return pgx.ErrTxCommitRollback
	}
	return nil
}

// Rollback forgets the kept statements and rolls the transaction back; a connection whose
// ROLLBACK failed is closed.
func (t *atCommitTx) Rollback() error {
	t.conn.tx = nil
	pc := t.conn.Conn.Conn()
	if _, err := pc.Exec(t.ctx, "rollback"); err != nil {
		pc.Close(context.WithoutCancel(t.ctx))
		return fmt.Errorf("rollback failed: %w", err)
	}
	return nil
}
