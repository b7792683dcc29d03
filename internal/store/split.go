package store

import (
	"context"
	"strings"

	"entgo.io/ent/dialect"
)

// splitDriver sends SQLite reads outside transactions to a pool of read-only connections and
// everything else (writes, transactions) to the single writer connection.
type splitDriver struct {
	dialect.Driver // the writer
	reader         dialect.Driver
}

// Query runs a plain SELECT on a reader; any other statement (INSERT … RETURNING) on the writer.
func (d *splitDriver) Query(ctx context.Context, query string, args, v any) error {
	if isSelect(query) {
		return d.reader.Query(ctx, query, args, v)
	}
	return d.Driver.Query(ctx, query, args, v)
}

// Close closes both pools.
func (d *splitDriver) Close() error {
	rerr := d.reader.Close()
	if err := d.Driver.Close(); err != nil {
		return err
	}
	return rerr
}

func isSelect(query string) bool {
	q := strings.TrimSpace(query)
	return len(q) >= 6 && (strings.EqualFold(q[:6], "SELECT") || strings.EqualFold(q[:4], "WITH"))
}

// writerOf returns the driver that may change the schema.
func writerOf(drv dialect.Driver) dialect.Driver {
	if s, ok := drv.(*splitDriver); ok {
		return s.Driver
	}
	return drv
}
