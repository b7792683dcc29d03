package insights

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/siteinsightrollup"
)

// The dimensions of the daily counts: each event adds one to the count of its value in every
// dimension it has a value in. A dimension of two columns joins their values with a newline.
const (
	dimTotal       = ""
	dimURLPath     = "urlPath"
	dimPage        = "page"
	dimReferrer    = "referrerDomain"
	dimContext     = "displayContext"
	dimQuery       = "eventSearchQuery" // with the searches' result counts
	dimRating      = "eventPageFeedbackRating"
	dimPageRating  = "urlPath\neventPageFeedbackRating"
	dimVisitors    = "visitors" // the day's visitors (of a type), counted as SiteInsightVisitor rows are added
	anyType        = "*"        // the type of a visitor's row counting them whatever they did
	noResults      = -1         // the results of a row that is not a search's
	valueSeparator = "\n"
)

// rollupKey names one daily count.
type rollupKey struct {
	site      string
	day       int
	typ       string
	dimension string
	value     string
	results   int
}

// rollupCount is what events add to one daily count.
type rollupCount struct {
	key rollupKey
	n   int
}

// rollupsOf are the daily counts events add to, each once.
func rollupsOf(events []Event) []rollupCount {
	counts := map[rollupKey]int{}
	for _, e := range events {
		key := rollupKey{site: e.SiteID, day: Day(e.Time), typ: e.Type, results: noResults}
		add := func(dimension, value string) {
			k := key
			k.dimension, k.value = dimension, cut(value, maxValue)
			counts[k]++
		}
		add(dimTotal, "")
		add(dimContext, e.DisplayContext)
		if e.URLPath != "" {
			add(dimURLPath, e.URLPath)
		}
		if e.PageID != "" {
			add(dimPage, e.SpaceID+valueSeparator+e.PageID)
		}
		if e.ReferrerDomain != "" {
			add(dimReferrer, e.ReferrerDomain)
		}
		if e.SearchResults != nil || e.SearchQuery != "" {
			k := key
			k.dimension, k.value, k.results = dimQuery, NormalizeQuery(e.SearchQuery), resultsOf(e)
			counts[k]++
		}
		if e.Rating != "" {
			add(dimRating, e.Rating)
			add(dimPageRating, cut(e.URLPath, maxValue-len(valueSeparator)-8)+valueSeparator+e.Rating)
		}
	}
	out := make([]rollupCount, 0, len(counts))
	for k, n := range counts {
		out = append(out, rollupCount{key: k, n: n})
	}
	return out
}

// sortRollups orders counts by their key, so that two processes adding to the same counts at
// once lock their rows in the same order (PostgreSQL would otherwise end one flush as a deadlock).
func sortRollups(counts []rollupCount) {
	slices.SortFunc(counts, func(a, b rollupCount) int {
		x, y := a.key, b.key
		return cmp.Or(cmp.Compare(x.site, y.site), cmp.Compare(x.dimension, y.dimension), cmp.Compare(x.day, y.day),
			cmp.Compare(x.typ, y.typ), cmp.Compare(x.value, y.value), cmp.Compare(x.results, y.results))
	})
}

// resultsOf is the result count a search's row keeps: noResults when the event did not say.
func resultsOf(e Event) int {
	if e.SearchResults == nil {
		return noResults
	}
	return max(*e.SearchResults, 0)
}

// addRollups adds counts to the daily counts in one statement: new keys are inserted, known
// ones added to.
func addRollups(ctx context.Context, tx *ent.Tx, counts []rollupCount) error {
	creates := make([]*ent.SiteInsightRollupCreate, 0, len(counts))
	for _, c := range counts {
		k, n := c.key, c.n
		creates = append(creates, tx.SiteInsightRollup.Create().SetSiteID(k.site).SetDay(k.day).SetType(k.typ).
			SetDimension(k.dimension).SetValue(k.value).SetResults(k.results).SetEvents(n))
	}
	return tx.SiteInsightRollup.CreateBulk(creates...).OnConflict(
		sql.ConflictColumns(siteinsightrollup.FieldSiteID, siteinsightrollup.FieldDimension, siteinsightrollup.FieldDay,
			siteinsightrollup.FieldType, siteinsightrollup.FieldValue, siteinsightrollup.FieldResults),
		sql.ResolveWith(func(u *sql.UpdateSet) {
			// excluded.events is the row's count in this batch.
			u.Set(siteinsightrollup.FieldEvents, sql.Expr(u.Table().C(siteinsightrollup.FieldEvents)+" + excluded."+siteinsightrollup.FieldEvents))
		}),
	).Exec(ctx)
}

// splitValue is the values of the columns of a two-column dimension's value.
func splitValue(v string) []string { return strings.Split(v, valueSeparator) }
