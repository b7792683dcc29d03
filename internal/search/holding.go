package search

import (
	"strconv"
	"strings"

	entsql "entgo.io/ent/dialect/sql"
)

// Holding is a condition on a query of the spaces table (an ent predicate of Space): the spaces
// of an organization whose indexed content holds a match of t. It reads the index's matches once
// and the spaces they fall in, so an organization's search asks ent which of the spaces that hold
// matches the viewer may read (its privacy filter applied), at the cost of the matches rather
// than of the spaces the organization holds. The organization is read from each matching space's
// row, so a space moved to another organization is found there at once. It is read by a scalar
// subquery, which neither database turns into a join, and the spaces holding matches are read
// before the query's own rows (inQuery): planned as joins, SQLite (which keeps no statistics) and
// PostgreSQL (before its statistics are gathered) read every space of the organization through
// an index and looked each up among the matches.
func (x *sqlIndex) Holding(orgID string, t Terms) func(*entsql.Selector) {
	holders := "SELECT hs.space_id FROM search_spaces hs WHERE " +
		x.d.inQuery("hs.key", "SELECT DISTINCT m.id >> "+strconv.Itoa(spaceShift)+" FROM ("+x.d.matches(false, anyTier)+") m") +
		" AND (SELECT hsp.organization_id FROM spaces hsp WHERE hsp.id = hs.space_id) = ?"
	args := []any{x.d.match(t, anyTier), orgID}
	return func(s *entsql.Selector) {
		s.Where(entsql.P(func(b *entsql.Builder) { writeArgs(b, x.d.inQuery(s.C("id"), holders), args) }))
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
