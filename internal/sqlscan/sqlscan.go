// Package sqlscan lets the rows of one ent query share their scan targets.
//
// ent's generated scanValues allocates a new target for every column of every row (a
// sql.NullString, sql.NullInt64, …), which assignValues copies into the entity right after
// the row is scanned: the 550 change requests of the peer's nested query were 8,800 allocations
// for that alone, an eighth of the request's (decision 343). The generated queries (template
// ent/template/sqlscan.tmpl) pass their scanValues through Reused.
package sqlscan

import "database/sql"

// Reused returns scanValues for the rows of one query: the targets of its first row, reused for
// every row after, when each of them is of a type whose value assignValues copies out (a
// database/sql Null type, or a byte slice, which database/sql fills with a new copy at every
// scan); otherwise scanValues's own, new for every row. It returns nil for
// nil. sqlgraph calls it once per row, scans the row into the targets and assigns them to the
// row's entity before the next row: one query's rows never hold the targets at once.
func Reused(scanValues func(columns []string) ([]any, error)) func(columns []string) ([]any, error) {
	if scanValues == nil {
		return nil
	}
	var kept []any
	return func(columns []string) ([]any, error) {
		if kept != nil && len(kept) == len(columns) {
			return kept, nil
		}
		values, err := scanValues(columns)
		if err == nil && allCopied(values) {
			kept = values
		}
		return values, err
	}
}

// allCopied reports whether every target is of a type whose value assignValues copies into the
// entity (rather than keeping the target, as it keeps sql.UnknownType's, or reading it later).
func allCopied(values []any) bool {
	for _, v := range values {
		switch v.(type) {
		case *sql.NullString, *sql.NullInt64, *sql.NullTime, *sql.NullBool, *sql.NullFloat64, *[]byte:
		default:
			return false
		}
	}
	return true
}
