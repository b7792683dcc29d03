package store

import (
	"context"
	"database/sql"
	"strings"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// splitDriver sends SQLite reads outside transactions to a pool of read-only connections and
// everything else (writes, transactions) to the single writer connection. Raw statements (ent's
// sql/execquery: the search index's) are split the same way.
type splitDriver struct {
	*entsql.Driver // the writer
	reader         *entsql.Driver
	readerStmts    *stmtCache    // the reader's pool
	watch          *versionWatch // DataVersion's connection
}

// Query runs a plain SELECT on a reader; any other statement (INSERT … RETURNING) on the writer.
func (d *splitDriver) Query(ctx context.Context, query string, args, v any) error {
	if isSelect(query) {
		return d.reader.Query(ctx, query, args, v)
	}
	return d.Driver.Query(ctx, query, args, v)
}

// QueryContext runs a raw plain SELECT on a reader, any other statement on the writer.
func (d *splitDriver) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if isSelect(query) {
		return d.reader.QueryContext(ctx, query, args...)
	}
	return d.Driver.QueryContext(ctx, query, args...)
}

// Close closes both pools and the version's connection.
func (d *splitDriver) Close() error {
	rerr, werr := d.readerStmts.Close(), d.watch.Close()
	if err := d.Driver.Close(); err != nil {
		return err
	}
	if rerr != nil {
		return rerr
	}
	return werr
}

func isSelect(query string) bool {
	q := strings.TrimSpace(query)
	return len(q) >= 6 && (strings.EqualFold(q[:6], "SELECT") || strings.EqualFold(q[:4], "WITH"))
}

// writerOf returns the driver that may change the schema.
func writerOf(drv dialect.Driver) dialect.Driver {
	switch d := drv.(type) {
	case *splitDriver:
		return d.Driver
	case *postgresDriver:
		return d.Driver
	}
	return drv
}
