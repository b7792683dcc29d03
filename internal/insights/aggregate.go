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
	cols := q.dimensionColumns()
	if metric == colRatings {
		cols = append(cols, dimRating)
	}
	dim, err := dimensionFor(cols)
	if metric == colVisitors {
		dim = dimVisitor
	}
	if err != nil {
		return nil, "", err
	}
	query := client.SiteInsightRollup.Query().Where(siteinsightrollup.SiteID(siteID), siteinsightrollup.Dimension(dim),
		siteinsightrollup.DayGTE(from), siteinsightrollup.DayLTE(to))
	types, typed := q.typeFilter(metric)
	for _, f := range types {
		if f.Operator == "notIn" {
			query.Where(siteinsightrollup.TypeNotIn(stringValues(f.Values)...))
		} else {
			query.Where(siteinsightrollup.TypeIn(stringValues(f.Values)...))
		}
	}
	if metric == colVisitors && !typed {
		query.Where(siteinsightrollup.Type(anyType))
	}
	var counts []countRow
	err = query.Modify(func(s *sql.Selector) { q.selectCounts(s, metric, typed) }).Scan(ctx, &counts)
	return counts, dim, err
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

// selectCounts selects the sums of the counts, grouped by what q groups by. Visitors are counted
// as their rows: one per visitor, day and type, and one per visitor and day of the type anyType;
// over several types a visitor is counted once a day.
func (q *Query) selectCounts(s *sql.Selector, metric string, typed bool) {
	var group []string
	if q.groups(colDatetime) {
		group = append(group, s.C(siteinsightrollup.FieldDay))
	}
	if q.groups(colEventType) {
		group = append(group, s.C(siteinsightrollup.FieldType))
	}
	if metric == colVisitors {
		if !q.groups(colDatetime) { // visitors are counted once a day, then added up
			group = append(group, s.C(siteinsightrollup.FieldDay))
		}
		n := "COUNT(*)"
		if typed && !q.groups(colEventType) {
			n = "COUNT(DISTINCT " + s.C(siteinsightrollup.FieldValue) + ")"
		}
		s.Select(append(slices.Clone(group), sql.As(n, "n"))...).GroupBy(group...)
		return
	}
	group = append(group, s.C(siteinsightrollup.FieldValue), s.C(siteinsightrollup.FieldResults))
	s.Select(append(slices.Clone(group), sql.As(sql.Sum(s.C(siteinsightrollup.FieldEvents)), "n"))...).GroupBy(group...)
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
			row = &answerRow{groups: groups, metrics: make([]any, len(q.Select))}
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
	if dim == dimVisitor || dim == dimTotal {
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
		ka, _ := json.Marshal(a.groups)
		kb, _ := json.Marshal(b.groups)
		return strings.Compare(string(ka), string(kb))
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
