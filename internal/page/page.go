// Package page implements the keyset pagination shared by REST lists (List<T>, next.page) and
// GraphQL connections (after/endCursor): the same opaque cursor in both.
//
// A cursor names the last row of a page by its sort key and id, so the next page is
// "rows after (key, id)" in the sort order, which an index answers without skipping rows:
// deep pages cost the same as the first.
package page

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/internal/apperr"
)

// DefaultLimit is the page size when the caller names none; MaxLimit is the largest allowed (spec/03).
const (
	DefaultLimit = 100
	MaxLimit     = 1000
)

// Args are the pagination arguments of one list: a page size and the cursor of the previous page.
type Args struct {
	Limit int
	After *Cursor
	// Count says whether to count all the matching rows (Page.Count, a connection's totalCount):
	// true unless the caller knows nobody reads the count.
	Count bool
	// Columns are the columns to read of each row of a nested list's page (the loader's), comma-
	// separated, when the caller knows nobody reads the others (a GraphQL selection asking few
	// fields of many rows); the page reads the columns it needs itself anyway (ReadColumns).
	// Empty: every column.
	Columns string
}

// ReadColumns narrows a query to the columns named (comma-separated, Args.Columns) and keep, the
// columns the page itself reads (the id, the order's, a parent's); nil when columns is empty:
// every column. It must run before TopPerParent or LimitPerParent, which read what the query
// selects.
func ReadColumns(columns string, keep ...string) func(*sql.Selector) {
	if columns == "" {
		return nil
	}
	names := slices.Concat(keep, strings.Split(columns, ","))
	slices.Sort(names)
	names = slices.Compact(names)
	return func(s *sql.Selector) {
		qualified := make([]string, len(names))
		for i, c := range names {
			qualified[i] = s.C(c)
		}
		s.Select(qualified...)
	}
}

// Cursor is the position after which a page starts: the sort key of the last row seen and its id.
// Key holds a string, a number or a time (as RFC 3339 text, see Time).
type Cursor struct {
	Key any    `json:"k,omitempty"`
	ID  string `json:"i"`
}

// NewArgs validates a page size and an opaque cursor. A nil limit means DefaultLimit.
// Returns INVALID when the limit is outside 0..1000 or the cursor is not one this server made.
func NewArgs(limit *int, after *string) (Args, error) {
	a := Args{Limit: DefaultLimit, Count: true}
	if limit != nil {
		if *limit < 0 || *limit > MaxLimit {
			return a, apperr.Invalidf("limit (first in GraphQL): must be between 0 and %d (got %d)", MaxLimit, *limit)
		}
		a.Limit = *limit
	}
	if after != nil && *after != "" {
		c, err := Decode(*after)
		if err != nil {
			return a, err
		}
		a.After = c
	}
	return a, nil
}

// Encode makes the opaque text of a cursor: the base64 of its JSON.
func (c Cursor) Encode() string {
	return base64.RawURLEncoding.EncodeToString(c.appendJSON(make([]byte, 0, 64)))
}

// appendJSON appends the cursor as json.Marshal writes it. A time key is written here because
// json.Marshal would call the time's MarshalJSON and then re-scan its output, a cost every edge
// of every connection paid (a page of 500 change requests: 3% of the request).
func (c Cursor) appendJSON(b []byte) []byte {
	b = append(b, '{')
	switch key := c.Key.(type) {
	case nil:
	case time.Time:
		b = append(b, `"k":"`...)
		b = append(key.AppendFormat(b, time.RFC3339Nano), `",`...)
	default:
		k, _ := json.Marshal(key)
		b = append(append(append(b, `"k":`...), k...), ',')
	}
	id, _ := json.Marshal(c.ID)
	return append(append(append(b, `"i":`...), id...), '}')
}

// Decode reads an opaque cursor. Returns INVALID when the text is not a cursor.
func Decode(s string) (*Cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	var c Cursor
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	key, _ := c.Key.(string)
	// A forged token could carry NUL characters, which PostgreSQL text parameters cannot hold.
	if err != nil || c.ID == "" || strings.ContainsRune(c.ID+key, 0) {
		return nil, apperr.Invalidf("page: %q is not a page token returned by this server", truncate(s, 64))
	}
	return &c, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Time returns the cursor's key as a time, for lists sorted by a timestamp.
// Returns INVALID when the key is not a time.
func (c *Cursor) Time() (time.Time, error) {
	s, _ := c.Key.(string)
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return t, apperr.Invalidf("page: the page token does not belong to this list")
	}
	return t, nil
}

// String returns the cursor's key as text, for lists sorted by a text column.
// Returns INVALID when the key is not text.
func (c *Cursor) String() (string, error) {
	s, ok := c.Key.(string)
	if !ok {
		return "", apperr.Invalidf("page: the page token does not belong to this list")
	}
	return s, nil
}

// Order is a sort of a list: a column of the listed table and a direction; ties are broken by id.
type Order struct {
	Column string
	Desc   bool
}

// Apply sorts the selector by the order, then by id in the same direction.
func (o Order) Apply(s *sql.Selector) {
	dir := sql.Asc
	if o.Desc {
		dir = sql.Desc
	}
	s.OrderBy(dir(s.C(o.Column)), dir(s.C("id")))
}

// After restricts the selector to rows that come after the cursor in the order; key is the
// cursor's sort key converted to the column's Go type. A nil key (rows whose sort key is NULL are
// excluded from such lists) compares by id alone.
func (o Order) After(s *sql.Selector, key any, id string) {
	col, idc := s.C(o.Column), s.C("id")
	cmp := sql.GT
	if o.Desc {
		cmp = sql.LT
	}
	if key == nil {
		s.Where(cmp(idc, id))
		return
	}
	s.Where(sql.Or(cmp(col, key), sql.And(sql.EQ(col, key), cmp(idc, id))))
}

// Page is one page of a list: the items, the total count of matching rows, and the cursor of the
// next page (nil on the last page).
type Page[T any] struct {
	Items []T
	Count int
	Next  *Cursor
}

// Trim cuts rows fetched with Limit+1 down to a page, with a next cursor when a row was left over.
// cursorOf returns the cursor of a row.
func Trim[T any](rows []T, limit, count int, cursorOf func(T) Cursor) Page[T] {
	p := Page[T]{Items: rows, Count: count}
	if len(rows) > limit {
		p.Items = rows[:limit]
		if limit > 0 {
			c := cursorOf(rows[limit-1])
			p.Next = &c
		}
	}
	return p
}

// LimitPerParent rewrites a query over the children of several parents so it returns, for each
// parent, only the first limit rows in the order: one statement for any number of parents. A
// parent is named by one column or by several (a membership: organization and user). The rows
// come back grouped by parent, each group in the order. It numbers the rows of each parent with
// ROW_NUMBER() over the filtered query (privacy filters included) and keeps the first ones.
func (o Order) LimitPerParent(limit int, parentCols ...string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		d := sql.Dialect(s.Dialect())
		dir := o.direction()
		partition := make([]string, len(parentCols))
		grouped := make([]string, len(parentCols))
		for i, c := range parentCols {
			partition[i] = fmt.Sprintf("%q", c)
			grouped[i] = fmt.Sprintf("%q.%q", s.TableName(), c)
		}
		number := fmt.Sprintf(`ROW_NUMBER() OVER (PARTITION BY %s ORDER BY %q %s, "id" %s)`,
			strings.Join(partition, ", "), o.Column, dir, dir)
		with := d.With("src_query").As(s.Clone()).
			With("limited_query").As(d.Select("*").AppendSelectExprAs(sql.Expr(number), "row_number").From(d.Table("src_query")))
		t := d.Table("limited_query").As(s.TableName())
		*s = *d.Select(s.UnqualifiedColumns()...).From(t).
			Where(sql.LTE(t.C("row_number"), limit)).
			OrderExpr(sql.Expr(fmt.Sprintf(`%s, %q.%q %s, %q.%q %s`,
				strings.Join(grouped, ", "), s.TableName(), o.Column, dir, s.TableName(), "id", dir))).
			Prefix(with)
	}
}

// TopPerParent rewrites a query over the children of any parent so it returns, for each of the
// parents named (by the values of one column), only its first limit rows in the order: one
// statement for any number of parents, which reads limit rows per parent from an index on
// (parent column, order column, id), where LimitPerParent's numbering reads every child of every
// parent. The parents are a VALUES list; each one's rows are the filtered query (privacy filters
// included) narrowed to it, in the order, cut at limit. The rows come back grouped by parent, each
// group in the order. The query must not name the parents itself: a list of them inside the
// subquery is built again for each parent (decision 330). onParent returns the conditions a
// parent must meet for its rows to be read, stated on ParentRef (rule.ParentScope): the join
// checks them once per parent rather than once per row.
func (o Order) TopPerParent(limit int, parentCol string, parents []string, onParent func() []*sql.Predicate) func(*sql.Selector) {
	return func(s *sql.Selector) {
		ofParent := sql.ExprP(fmt.Sprintf(`%s = %s`, s.C(parentCol), ParentRef))
		top := s.Clone().SetP(andWrapped(s.P(), ofParent)).
			OrderExpr(sql.Expr(fmt.Sprintf("%s %s, %s %s", s.C(o.Column), o.direction(), s.C("id"), o.direction()))).
			Limit(limit)
		parentConds := onParent()
		if s.Dialect() == dialect.Postgres {
			*s = *o.topRows(s, lateralJoin(top, parents, parentConds), parentCol)
			return
		}
		*s = *o.topRows(s, rowidJoin(s.TableName(), top.Select(s.C("rowid")), parents, parentConds), parentCol)
	}
}

// ParentRef names, in TopPerParent's statement, the parent whose rows are being read.
const ParentRef = `"p"."column1"`

// andWrapped is "(where) AND p", or p alone when where is nil. Adding p with Where to a clone of
// the selector would not do: ent's clone of a predicate loses what makes a top-level OR write its
// parentheses once another condition joins it, and "a OR b AND p" reads "a OR (b AND p)" (which
// let a member page take rows of every organization the viewer reads, decision 340).
func andWrapped(where, p *sql.Predicate) *sql.Predicate {
	if where == nil {
		return p
	}
	return sql.And(sql.P(func(b *sql.Builder) { b.Wrap(func(b *sql.Builder) { b.Join(where) }) }), p)
}

// lateralJoin is the parents joined to their rows on PostgreSQL: each parent's rows, whole, from a
// LATERAL subquery (each one an index walk, then the rows' heap reads). Reading only their ids
// there and the rows by id afterwards took twice as long, a semi-join and a second lookup of every
// row (decision 341).
func lateralJoin(top *sql.Selector, parents []string, parentConds []*sql.Predicate) sql.Querier {
	return sql.P(func(b *sql.Builder) {
		parentValues(b, parents)
		b.WriteString(" JOIN LATERAL ").Wrap(func(b *sql.Builder) { b.Join(top) }).WriteString(` AS "top" ON `)
		joinConds(b, parentConds)
		b.WriteString("TRUE")
	})
}

// rowidJoin is the parents joined to their rows on SQLite, which has no LATERAL: the rows of
// table whose rowid is among each parent's first rowids (a correlated `rowid IN (…)` subquery run
// once per parent), read whole by the join. Reading them by id again outside the join, through a
// list of every parent's ids, cost a fifth more (decision 349); by id inside it, a search of the
// id's index before each row's, 8–30 % more than by rowid, which the index walked for the
// order holds (decision 359). Every table of Bindery's schema has a rowid (ent makes none WITHOUT
// ROWID).
func rowidJoin(table string, topRowids *sql.Selector, parents []string, parentConds []*sql.Predicate) sql.Querier {
	return sql.P(func(b *sql.Builder) {
		parentValues(b, parents)
		b.WriteString(" JOIN ").Ident(table).WriteString(` AS "top" ON `)
		joinConds(b, parentConds)
		b.WriteString(`"top"."rowid" IN `).Wrap(func(b *sql.Builder) { b.Join(topRowids) })
	})
}

// joinConds writes each condition, in parentheses, followed by AND. In a join's ON clause,
// conditions on the parent alone are checked as each parent is read: SQLite checked one inside
// the subquery of a parent's rows once for every row it walked.
func joinConds(b *sql.Builder, conds []*sql.Predicate) {
	for _, c := range conds {
		b.Wrap(func(b *sql.Builder) { b.Join(c) }).WriteString(" AND ")
	}
}

// topRows selects the rows of join (the parents joined to their rows, named "top") grouped by
// parent. They are read under the table's name, as LimitPerParent's are: the query's predicates
// name their columns through s when the statement is written, so they still name them within the
// subquery that reads the table.
func (o Order) topRows(s *sql.Selector, join sql.Querier, parentCol string) *sql.Selector {
	d := sql.Dialect(s.Dialect())
	columns := s.UnqualifiedColumns()
	topColumns := make([]string, len(columns))
	for i, c := range columns {
		topColumns[i] = d.Table("top").C(c)
	}
	with := sql.With("top_rows", columns...).As(d.Select(topColumns...).FromExpr(join))
	with.SetDialect(s.Dialect())
	t := d.Table("top_rows").As(s.TableName())
	return d.Select(columns...).From(t).OrderExpr(sql.Expr(o.groupedOrder(t, parentCol))).Prefix(with)
}

// parentValues writes the parents as the one-column VALUES list "p".
func parentValues(b *sql.Builder, parents []string) {
	b.WriteString("(VALUES ")
	for i, p := range parents {
		if i > 0 {
			b.Comma()
		}
		b.Wrap(func(b *sql.Builder) { b.Arg(p) })
	}
	b.WriteString(`) AS "p"`)
}

// groupedOrder orders the rows of t by parent, then each parent's in the order.
func (o Order) groupedOrder(t *sql.SelectTable, parentCol string) string {
	dir := o.direction()
	return fmt.Sprintf("%s, %s %s, %s %s", t.C(parentCol), t.C(o.Column), dir, t.C("id"), dir)
}

func (o Order) direction() string {
	if o.Desc {
		return "DESC"
	}
	return "ASC"
}
