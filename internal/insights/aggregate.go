package insights

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/siteinsightrollup"
	"github.com/binderyhq/bindery/ent/siteinsightvisitor"
	"github.com/binderyhq/bindery/ent/viewer"
)

// countRow is a sum of daily counts, by the columns the query groups by.
type countRow struct {
	Day     int    `sql:"day"`
	Type    string `sql:"type"`
	Value   string `sql:"value"`
	Results int    `sql:"results"`
	N       int    `sql:"n"`
}

// answerRow is a row of the answer: its groups' values and its metrics'.
type answerRow struct {
	key     string // the groups' values in JSON, which orders rows of equal values
	groups  []any
	metrics []any
}

// Aggregate answers q over the daily counts of a site. The caller has checked that the viewer
// may read the site's insights: the counts are read as the system.
func Aggregate(ctx context.Context, client *ent.Client, siteID string, q Query) ([]Values, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	from, to := Day(q.From), Day(q.To)
	for _, f := range q.Where {
		if f.Column != colDatetime {
			continue
		}
		var err error
		if from, to, err = narrowDays(f, from, to); err != nil {
			return nil, err
		}
	}
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	rows := map[string]*answerRow{}
	for i, m := range q.Select {
		counts, dim, err := q.read(sys, client, siteID, m.Name, from, to)
		if err != nil {
			return nil, err
		}
		q.fold(rows, counts, dim, i)
	}
	return q.answer(rows), nil
}

// read sums the daily counts metric reads, by the columns q groups by, and returns them with the
// dimension they are of.
func (q *Query) read(ctx context.Context, client *ent.Client, siteID, metric string, from, to int) ([]countRow, string, error) {
	if metric == colVisitors {
		counts, err := q.readVisitors(ctx, client, siteID, from, to)
		return counts, dimVisitors, err
	}
	cols := q.dimensionColumns()
	if metric == colRatings {
		cols = append(cols, dimRating)
	}
	dim, err := dimensionFor(cols)
	if err != nil {
		return nil, "", err
	}
	query := client.SiteInsightRollup.Query().Where(siteinsightrollup.SiteID(siteID), siteinsightrollup.Dimension(dim),
		siteinsightrollup.DayGTE(from), siteinsightrollup.DayLTE(to))
	types, _ := q.typeFilter(metric)
	for _, f := range types {
		query.Where(typeIs(f))
	}
	byResults := false // the searches' result counts are read only when filtered by
	for _, f := range q.Where {
		if f.Column == colResultsCount {
			query.Where(resultsAre(f))
			byResults = true
		}
	}
	var counts []countRow
	err = query.Modify(func(s *sql.Selector) {
		group := append(q.timeAndType(s), s.C(siteinsightrollup.FieldValue))
		if byResults {
			group = append(group, s.C(siteinsightrollup.FieldResults))
		}
		s.Select(append(slices.Clone(group), sql.As(sql.Sum(s.C(siteinsightrollup.FieldEvents)), "n"))...).GroupBy(group...)
	}).Scan(ctx, &counts)
	return counts, dim, err
}

// readVisitors reads the daily visitor counts, by day (visitors are counted once a day, then
// added up) and by type when q groups by it. Without a filter on the type, the counts of
// anyType; with one type, its counts; with several types and not grouped by type, a visitor of
// several of them is counted once a day: then the day's visitors of those types are counted.
func (q *Query) readVisitors(ctx context.Context, client *ent.Client, siteID string, from, to int) ([]countRow, error) {
	types, typed := q.typeFilter(colVisitors)
	var counts []countRow
	if typed && !q.groups(colEventType) && !oneType(types) {
		query := client.SiteInsightVisitor.Query().Where(siteinsightvisitor.SiteID(siteID),
			siteinsightvisitor.DayGTE(from), siteinsightvisitor.DayLTE(to), siteinsightvisitor.TypeNEQ(anyType))
		for _, f := range types {
			query.Where(typeIs(f))
		}
		err := query.Modify(func(s *sql.Selector) {
			day := s.C(siteinsightvisitor.FieldDay)
			s.Select(day, sql.As("COUNT(DISTINCT "+s.C(siteinsightvisitor.FieldVisitor)+")", "n")).GroupBy(day)
		}).Scan(ctx, &counts)
		return counts, err
	}
	query := client.SiteInsightRollup.Query().Where(siteinsightrollup.SiteID(siteID), siteinsightrollup.Dimension(dimVisitors),
		siteinsightrollup.DayGTE(from), siteinsightrollup.DayLTE(to))
	if typed {
		query.Where(siteinsightrollup.TypeNEQ(anyType))
		for _, f := range types {
			query.Where(typeIs(f))
		}
	} else {
		query.Where(siteinsightrollup.Type(anyType))
	}
	err := query.Modify(func(s *sql.Selector) {
		group := q.timeAndType(s)
		if !q.groups(colDatetime) {
			group = append(group, s.C(siteinsightrollup.FieldDay))
		}
		s.Select(append(slices.Clone(group), sql.As(sql.Sum(s.C(siteinsightrollup.FieldEvents)), "n"))...).GroupBy(group...)
	}).Scan(ctx, &counts)
	return counts, err
}

// oneType reports whether the type filters keep one type: one filter "in" of one value.
func oneType(types []Filter) bool {
	return len(types) == 1 && (types[0].Operator == "" || types[0].Operator == "in") && len(types[0].Values) == 1
}

// typeIs is the predicate of a filter on the event type, on a table with a type column.
func typeIs(f Filter) func(*sql.Selector) {
	values := stringValues(f.Values)
	return func(s *sql.Selector) {
		args := make([]any, len(values))
		for i, v := range values {
			args[i] = v
		}
		if f.Operator == "notIn" {
			s.Where(sql.NotIn(s.C(siteinsightrollup.FieldType), args...))
		} else {
			s.Where(sql.In(s.C(siteinsightrollup.FieldType), args...))
		}
	}
}

// resultsAre is the predicate of a filter on the searches' result counts, when its values are
// numbers (the counts are filtered again in Go, as every column, by keeps).
func resultsAre(f Filter) func(*sql.Selector) {
	return func(s *sql.Selector) {
		var values []any
		for _, v := range f.Values {
			if n, ok := v.(float64); ok {
				values = append(values, n)
			}
		}
		if len(values) == 0 || len(values) < len(f.Values) {
			return
		}
		c := s.C(siteinsightrollup.FieldResults)
		switch f.Operator {
		case "", "in":
			s.Where(sql.In(c, values...))
		case "notIn":
			s.Where(sql.NotIn(c, values...))
		case "greaterThan":
			s.Where(sql.GT(c, values[0]))
		case "greaterThanOrEqual":
			s.Where(sql.GTE(c, values[0]))
		case "lessThan":
			s.Where(sql.LT(c, values[0]))
		default:
			s.Where(sql.LTE(c, values[0]))
		}
	}
}

// typeFilter is the filters on the event type of q, with the feedback types for the ratings, and
// whether the metric's rows are grouped or filtered by type.
func (q *Query) typeFilter(metric string) ([]Filter, bool) {
	var fs []Filter
	for _, f := range q.Where {
		if f.Column == colEventType {
			fs = append(fs, f)
		}
	}
	if metric == colRatings {
		fs = append(fs, Filter{Column: colEventType, Values: []any{Feedback, FeedbackComment}})
	}
	return fs, len(fs) > 0 || q.groups(colEventType)
}

// timeAndType are the columns of the day and the type when q groups by them.
func (q *Query) timeAndType(s *sql.Selector) []string {
	var group []string
	if q.groups(colDatetime) {
		group = append(group, s.C(siteinsightrollup.FieldDay))
	}
	if q.groups(colEventType) {
		group = append(group, s.C(siteinsightrollup.FieldType))
	}
	return group
}

// groups reports whether q groups by the column name.
func (q *Query) groups(name string) bool {
	return slices.ContainsFunc(q.GroupBy, func(c Column) bool { return c.Name == name })
}

// fold adds the counts of the i-th metric, of dimension dim, to the answer's rows, leaving out
// those the filters do not keep.
func (q *Query) fold(rows map[string]*answerRow, counts []countRow, dim string, i int) {
	for _, c := range counts {
		values := valuesOf(c, dim)
		if !q.keeps(values) {
			continue
		}
		groups := make([]any, len(q.GroupBy))
		for j, g := range q.GroupBy {
			if g.Name == colDatetime {
				groups[j] = bucket(c.Day, g.Interval)
			} else {
				groups[j] = values[g.Name]
			}
		}
		key, _ := json.Marshal(groups)
		row := rows[string(key)]
		if row == nil {
			row = &answerRow{key: string(key), groups: groups, metrics: make([]any, len(q.Select))}
			for k, m := range q.Select {
				row.metrics[k] = zero(m.Name)
			}
			rows[string(key)] = row
		}
		row.metrics[i] = add(row.metrics[i], c, values)
	}
}

// valuesOf are the values of the columns a count of dim has.
func valuesOf(c countRow, dim string) map[string]any {
	values := map[string]any{colEventType: c.Type}
	if dim == dimVisitors || dim == dimTotal {
		return values
	}
	for k, name := range strings.Split(dim, valueSeparator) {
		parts := splitValue(c.Value)
		if k < len(parts) {
			values[name] = parts[k]
		}
	}
	switch dim {
	case dimPage:
		space, page, _ := strings.Cut(c.Value, valueSeparator)
		values[dimPage] = map[string]any{"space": space, "page": page}
	case dimQuery:
		values[colResultsCount] = c.Results
	}
	return values
}

// keeps reports whether the values of a count pass q's filters (but on datetime and the event
// type, which the statement applied).
func (q *Query) keeps(values map[string]any) bool {
	for _, f := range q.Where {
		if f.Column == colDatetime || f.Column == colEventType {
			continue
		}
		if !matches(f, values[f.Column]) {
			return false
		}
	}
	return true
}

// zero is a metric's value before any count.
func zero(metric string) any {
	if metric == colRatings {
		return map[string]int{"ok": 0, "good": 0, "bad": 0}
	}
	return 0
}

// add adds a count to a metric's value.
func add(v any, c countRow, values map[string]any) any {
	if ratings, ok := v.(map[string]int); ok {
		if r, ok := values[dimRating].(string); ok {
			ratings[r] += c.N
		}
		return ratings
	}
	return v.(int) + c.N
}

// answer orders the rows, keeps the first Limit, and turns them into columns.
func (q *Query) answer(rows map[string]*answerRow) []Values {
	list := make([]*answerRow, 0, len(rows))
	for _, r := range rows {
		list = append(list, r)
	}
	by, desc := q.order()
	slices.SortFunc(list, func(a, b *answerRow) int {
		c := compareValues(q.cell(a, by), q.cell(b, by))
		if desc {
			c = -c
		}
		if c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	list = list[:min(len(list), q.Limit)]
	cols := q.columns()
	out := make([]Values, len(cols))
	for i, c := range cols {
		out[i] = Values{Column: c.Name, Values: make([]any, len(list))}
		for j, r := range list {
			out[i].Values[j] = q.cell(r, i)
		}
	}
	return out
}

// order is the index (in columns) of the column the rows are ordered by, and whether downwards:
// q's order, else by datetime upwards, else by the first metric downwards.
func (q *Query) order() (int, bool) {
	cols := q.columns()
	if q.OrderBy != nil {
		return slices.IndexFunc(cols, func(c Column) bool { return c.Name == q.OrderBy.Name }), q.Desc
	}
	if i := slices.IndexFunc(cols, func(c Column) bool { return c.Name == colDatetime }); i >= 0 {
		return i, false
	}
	return len(q.GroupBy), true
}

// cell is the value of a row in the i-th column.
func (q *Query) cell(r *answerRow, i int) any {
	if i < len(r.groups) {
		return r.groups[i]
	}
	return r.metrics[i-len(r.groups)]
}

// compareValues orders the values of one column: numbers, strings, or ratings by their total.
func compareValues(a, b any) int {
	switch a := a.(type) {
	case int:
		b, _ := b.(int)
		return cmp.Compare(a, b)
	case string:
		if b, ok := b.(string); ok {
			return strings.Compare(a, b)
		}
	case map[string]int:
		b, _ := b.(map[string]int)
		return cmp.Compare(a["ok"]+a["good"]+a["bad"], b["ok"]+b["good"]+b["bad"])
	}
	as, _ := json.Marshal(a)
	bs, _ := json.Marshal(b)
	return strings.Compare(string(as), string(bs))
}

// stringValues are the string values of a filter.
func stringValues(values []any) []string {
	out := make([]string, 0, len(values))
	for _, v := range values {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
