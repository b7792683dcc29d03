package search

import (
	"math"
	"strconv"
	"strings"

	entsql "entgo.io/ent/dialect/sql"
)

// Holding is a condition on a query of the spaces table (an ent predicate of Space): the spaces
// of an organization whose indexed content holds a match of t. It reads the index's matches once
// and the spaces they fall in, so an organization's search asks ent which of the spaces that hold
// matches the viewer may read (its privacy filter applied), at the cost of the matches rather
// than of the spaces the organization holds. The organization is checked on each matching
// space's row, so a space moved to another organization is found there at once. Written so that
// SQLite, which keeps no statistics, reads the matching spaces by their keys and never the
// organization's spaces by its index: the query holds no condition on the organization of its
// own rows, and CROSS JOIN keeps the index's spaces the outer loop (PostgreSQL plans it as a join).
func (x *sqlIndex) Holding(orgID string, t Terms) func(*entsql.Selector) {
	matches := x.d.matches(false, anyTier) // with the widest bounds: every section
	stmt := `SELECT hs.space_id FROM search_spaces hs CROSS JOIN spaces hsp
	WHERE hsp.id = hs.space_id AND hsp.organization_id = ? AND hs.key IN (SELECT m.id >> ` + strconv.Itoa(spaceShift) +
		" FROM (" + matches + ") m)"
	args := []any{orgID, x.d.match(t, anyTier), int64(0), int64(math.MaxInt64)}
	return func(s *entsql.Selector) {
		s.Where(entsql.P(func(b *entsql.Builder) {
			b.WriteString(s.C("id") + " IN (")
			writeArgs(b, stmt, args)
			b.WriteByte(')')
		}))
	}
}

// writeArgs writes a statement written with ? placeholders to an ent builder, each argument in
// the builder's own placeholder (numbered on PostgreSQL, after the arguments before it).
func writeArgs(b *entsql.Builder, stmt string, args []any) {
	parts := strings.Split(stmt, "?")
	for i, part := range parts {
		b.WriteString(part)
		if i < len(args) && i < len(parts)-1 {
			b.Arg(args[i])
		}
	}
}
