package insights

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/binderyhq/bindery/internal/apperr"
)

// Column is a column of an aggregation: the reference's SiteInsightsQueryEventsColumn, or
// Bindery's eventSearchResultsCount (how many results a search found). Interval groups datetime
// by hour, day, week or month; the daily counts answer day and longer.
type Column struct {
	Name     string
	Interval string
}

// Filter keeps the events whose column's value is (or is not, or is greater or less than) one
// of Values, decoded from JSON.
type Filter struct {
	Column   string
	Operator string // in when empty
	Values   []any
}

// Query is an aggregation of a site's events over the days From to To (UTC, both included).
type Query struct {
	Select  []Column // eventsCount when empty
	Where   []Filter
	GroupBy []Column
	OrderBy *Column
	Desc    bool
	From    time.Time
	To      time.Time
	Limit   int // 1 to MaxLimit; MaxLimit when 0
}

// Values are a column of the answer: its values in the answer's row order.
type Values struct {
	Column string `json:"column"`
	Values []any  `json:"values"`
}

// MaxLimit is the most rows an aggregation answers (the reference's maximum).
const MaxLimit = 1000

// The columns aggregations answer, besides the dimensions of the daily counts.
const (
	colDatetime     = "datetime"
	colEventType    = "eventType"
	colEvents       = "eventsCount"
	colVisitors     = "visitorsCount"
	colRatings      = "pageFeedbackRating"
	colResultsCount = "eventSearchResultsCount" // Bindery's: how many results a search found
)

// groupable are the columns an aggregation may group by.
var groupable = []string{colDatetime, colEventType, dimURLPath, dimPage, dimReferrer, dimContext, dimQuery, dimRating}

// filterable are the columns an aggregation may filter by: those it groups by, and Bindery's
// eventSearchResultsCount, which is no column of the reference's answers.
var filterable = append(slices.Clone(groupable), colResultsCount)

// metrics are the columns an aggregation may select.
var metrics = []string{colEvents, colVisitors, colRatings}

// operators are the reference's filter operators.
var operators = []string{"in", "notIn", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual"}

// Presets are the reference's named ranges, by how far back they start.
var Presets = map[string]time.Duration{
	"last24Hours": 24 * time.Hour, "last7Days": 7 * 24 * time.Hour, "last30Days": 30 * 24 * time.Hour,
	"last3Months": 91 * 24 * time.Hour, "lastYear": 365 * 24 * time.Hour,
}

// PresetRange is the range a preset names, ending now.
func PresetRange(preset string, now time.Time) (from, to time.Time, err error) {
	back, ok := Presets[preset]
	if !ok {
		return from, to, apperr.Invalidf("range: %q is not one of lastYear, last3Months, last30Days, last7Days, last24Hours, or {from, to}", preset)
	}
	return now.Add(-back), now, nil
}

// check refuses a query Bindery cannot answer, naming what is wrong, and fills its defaults.
func (q *Query) check() error {
	if len(q.Select) == 0 {
		q.Select = []Column{{Name: colEvents}}
	}
	if q.Limit == 0 {
		q.Limit = MaxLimit
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		return apperr.Invalidf("limit: %d is not from 1 to %d", q.Limit, MaxLimit)
	}
	if q.To.Before(q.From) {
		return apperr.Invalidf("range: to is before from")
	}
	for _, c := range q.Select {
		if !slices.Contains(metrics, c.Name) {
			return apperr.Invalidf("select: %q is not a column Bindery aggregates (%s)", c.Name, strings.Join(metrics, ", "))
		}
	}
	for _, c := range q.GroupBy {
		if err := checkGroup(c); err != nil {
			return err
		}
	}
	for _, f := range q.Where {
		if err := checkFilter(f); err != nil {
			return err
		}
	}
	if q.OrderBy != nil && !slices.ContainsFunc(q.columns(), func(c Column) bool { return c.Name == q.OrderBy.Name }) {
		return apperr.Invalidf("order.by: %q is neither selected nor grouped by", q.OrderBy.Name)
	}
	if slices.ContainsFunc(q.Select, func(c Column) bool { return c.Name == colVisitors }) && len(q.dimensionColumns()) > 0 {
		return apperr.Invalidf("select: visitorsCount is counted by day and event type only: group and filter it by datetime and eventType")
	}
	return nil
}

func checkGroup(c Column) error {
	if !slices.Contains(groupable, c.Name) {
		return apperr.Invalidf("groupBy: %q is not a column Bindery groups by (%s)", c.Name, strings.Join(groupable, ", "))
	}
	if c.Name == colDatetime && !slices.Contains([]string{"", "day", "week", "month"}, c.Interval) {
		return apperr.Invalidf("groupBy: datetime's interval %q is not day, week or month (events are counted by day)", c.Interval)
	}
	return nil
}

func checkFilter(f Filter) error {
	if !slices.Contains(filterable, f.Column) {
		return apperr.Invalidf("where: %q is not a column Bindery filters by (%s)", f.Column, strings.Join(filterable, ", "))
	}
	if f.Operator != "" && !slices.Contains(operators, f.Operator) {
		return apperr.Invalidf("where: operator %q is not one of %s", f.Operator, strings.Join(operators, ", "))
	}
	if f.Column == colDatetime && (f.Operator == "" || f.Operator == "in" || f.Operator == "notIn" || len(f.Values) != 1) {
		return apperr.Invalidf("where: datetime takes one value with greaterThan, greaterThanOrEqual, lessThan or lessThanOrEqual")
	}
	if len(f.Values) > MaxLimit {
		return apperr.Invalidf("where: %s has %d values, more than %d", f.Column, len(f.Values), MaxLimit)
	}
	return nil
}

// columns are the answer's columns: the grouped ones, then the selected ones.
func (q *Query) columns() []Column { return slices.Concat(q.GroupBy, q.Select) }

// dimensionColumns are the columns the query groups or filters by other than datetime and the
// event type, which every daily count has: the dimension read must have them all.
func (q *Query) dimensionColumns() []string {
	var cols []string
	add := func(name string) {
		if name == colResultsCount {
			name = dimQuery // the search query's counts keep the result counts
		}
		if name != colDatetime && name != colEventType && !slices.Contains(cols, name) {
			cols = append(cols, name)
		}
	}
	for _, c := range q.GroupBy {
		add(c.Name)
	}
	for _, f := range q.Where {
		add(f.Column)
	}
	return cols
}

// dimensions are the dimensions of the daily counts, the narrowest first.
var dimensions = []string{dimTotal, dimURLPath, dimPage, dimReferrer, dimContext, dimRating, dimQuery, dimPageRating}

// dimensionFor is the narrowest dimension that has every column of cols.
func dimensionFor(cols []string) (string, error) {
	for _, d := range dimensions {
		has := strings.Split(d, valueSeparator)
		if !slices.ContainsFunc(cols, func(c string) bool { return !slices.Contains(has, c) }) {
			return d, nil
		}
	}
	return "", apperr.Invalidf("groupBy and where: Bindery counts %s together only as urlPath with eventPageFeedbackRating; "+
		"ask for them one at a time", strings.Join(cols, " with "))
}

// bucket is the start of the interval of day, as a timestamp.
func bucket(day int, interval string) string {
	t := dayTime(day)
	switch interval {
	case "week": // ISO weeks start on Monday
		t = t.AddDate(0, 0, -((int(t.Weekday()) + 6) % 7))
	case "month":
		t = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return t.Format(time.RFC3339)
}

// narrowDays applies a datetime filter to the days of a query.
func narrowDays(f Filter, from, to int) (int, int, error) {
	s, ok := f.Values[0].(string)
	t, err := time.Parse(time.RFC3339, s)
	if !ok || err != nil {
		return from, to, apperr.Invalidf("where: datetime's value %v is not a date-time", f.Values[0])
	}
	day := Day(t)
	switch f.Operator {
	case "greaterThan", "greaterThanOrEqual":
		from = max(from, day)
	default:
		to = min(to, day)
	}
	return from, to, nil
}

// matches reports whether v passes f.
func matches(f Filter, v any) bool {
	switch f.Operator {
	case "", "in":
		return slices.ContainsFunc(f.Values, func(w any) bool { return same(v, w) })
	case "notIn":
		return !slices.ContainsFunc(f.Values, func(w any) bool { return same(v, w) })
	}
	n, ok := v.(int)
	if !ok || len(f.Values) == 0 {
		return false
	}
	w, ok := f.Values[0].(float64)
	if !ok {
		return false
	}
	switch f.Operator {
	case "greaterThan":
		return float64(n) > w
	case "greaterThanOrEqual":
		return float64(n) >= w
	case "lessThan":
		return float64(n) < w
	}
	return float64(n) <= w
}

// same compares a value of the counts with one of a filter, decoded from JSON.
func same(v, w any) bool {
	switch v := v.(type) {
	case int:
		f, ok := w.(float64)
		return ok && f == float64(v)
	case map[string]any: // a page: {space, page}
		m, ok := w.(map[string]any)
		return ok && m["space"] == v["space"] && m["page"] == v["page"]
	}
	return fmt.Sprint(v) == fmt.Sprint(w)
}
