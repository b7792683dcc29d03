// Package sqlcols keeps the SELECT list of each table's full row, and each of its columns,
// quoted and qualified for its dialect, so that ent does not build them again for every query.
//
// ent's query builder writes each selected column as `table`.`column` on every query (a builder,
// two quotings and a concatenation per column): for a space's 19 columns that was a fifth of a
// REST point read's CPU. The generated queries (template ent/template/qualifiedcolumns.tmpl) pass
// a full row's columns through Qualified, and the columns a query selects through QualifyEach;
// ent's builder writes already-qualified columns as they are (decision 338).
package sqlcols

import (
	"sync"

	"entgo.io/ent/dialect/sql"
)

type tableKey struct{ dialect, table string }

var (
	qualified       sync.Map // tableKey → []string
	qualifiedByName sync.Map // tableKey → map[string]string
)

// Qualified returns columns of table as ent's builder would write them for dialect: quoted and
// qualified by the table's name. It must be given the table's full, fixed column list (a
// package's Columns), which is what the result is remembered for, once per dialect and table.
func Qualified(dialect, table string, columns []string) []string {
	key := tableKey{dialect, table}
	if q, ok := qualified.Load(key); ok {
		return q.([]string)
	}
	t := sql.Dialect(dialect).Table(table)
	q := make([]string, len(columns)) // len == cap: an append by a caller copies, never writes here
	for i, c := range columns {
		q[i] = t.C(c)
	}
	qualified.Store(key, q)
	return q
}

// QualifyEach replaces, in place, each of columns that is one of table's (all, the table's full,
// fixed column list) by its Qualified form; others (foreign keys ent adds) stay as they are.
// columns must be the caller's own slice.
func QualifyEach(dialect, table string, all, columns []string) {
	key := tableKey{dialect, table}
	byName, ok := qualifiedByName.Load(key)
	if !ok {
		m := make(map[string]string, len(all))
		for i, q := range Qualified(dialect, table, all) {
			m[all[i]] = q
		}
		byName, _ = qualifiedByName.LoadOrStore(key, m)
	}
	for i, c := range columns {
		if q, ok := byName.(map[string]string)[c]; ok {
			columns[i] = q
		}
	}
}
