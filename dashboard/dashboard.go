// Package dashboard serves the pages site owners read in a browser: a site's insights
// (/o/{org}/sites/{site}/insights), their charts drawn on the server as SVG, with no script. It
// is an adapter like rest/: it reads through the resolvers, signed in by session or token.
package dashboard

import (
	"embed"
	"html/template"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/insights"
)

//go:embed insights.html
var files embed.FS

var pages = template.Must(template.ParseFS(files, "insights.html"))

// Handler serves the dashboard's pages.
type Handler struct{ r *graph.Resolver }

// New returns the dashboard over the resolvers.
func New(r *graph.Resolver) *Handler { return &Handler{r: r} }

// Routes adds the dashboard's routes to an authenticated router.
func (h *Handler) Routes(r chi.Router) {
	r.Get("/o/{organizationId}/sites/{siteId}/insights", h.serveInsights)
}

// ranges are the ranges the page offers, the first the default.
var ranges = []string{"last30Days", "last7Days", "last3Months", "lastYear"}

// insightsView is what the insights page shows.
type insightsView struct {
	Range         string
	Ranges        []string
	Views         template.HTML
	TotalViews    int
	Visitors      int
	TopPages      template.HTML
	TopSearches   template.HTML
	EmptySearches template.HTML
	Feedback      []pageFeedback
	Comments      []insights.Comment
}

// pageFeedback is the ratings of one page.
type pageFeedback struct {
	Page          string
	Good, Ok, Bad int
}

func (h *Handler) serveInsights(w http.ResponseWriter, req *http.Request) {
	ctx := req.Context()
	org, site := chi.URLParam(req, "organizationId"), chi.URLParam(req, "siteId")
	v := insightsView{Range: ranges[0], Ranges: ranges}
	if r := req.URL.Query().Get("range"); r != "" {
		v.Range = r
	}
	from, to, err := insights.PresetRange(v.Range, h.r.Now(ctx))
	if err == nil {
		err = h.read(req, org, site, from, to, &v)
	}
	if err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
	w.Header().Set("Cache-Control", "no-store")
	_ = pages.ExecuteTemplate(w, "insights.html", v)
}

// read fills the page's charts.
func (h *Handler) read(req *http.Request, org, site string, from, to time.Time, v *insightsView) error {
	ask := func(q insights.Query) (map[string][]any, error) {
		q.From, q.To = from, to
		cols, err := h.r.SiteInsights(req.Context(), org, site, q)
		out := map[string][]any{}
		for _, c := range cols {
			out[c.Column] = c.Values
		}
		return out, err
	}
	views := insights.Filter{Column: "eventType", Values: []any{insights.PageView}}
	searches := insights.Filter{Column: "eventType", Values: []any{insights.SearchQuery}}
	daily, err := ask(insights.Query{Select: []insights.Column{{Name: "eventsCount"}, {Name: "visitorsCount"}},
		GroupBy: []insights.Column{{Name: "datetime", Interval: "day"}}, Where: []insights.Filter{views}})
	if err != nil {
		return err
	}
	days := perDay(daily, from, to)
	v.Views = columnChart("Page views per day", days)
	for i, n := range daily["visitorsCount"] {
		v.TotalViews += daily["eventsCount"][i].(int)
		v.Visitors += n.(int)
	}
	top := func(target *template.HTML, caption, by string, where ...insights.Filter) error {
		got, err := ask(insights.Query{GroupBy: []insights.Column{{Name: by}}, Where: where, Limit: 10})
		*target = barList(caption, bars(got, by))
		return err
	}
	if err := top(&v.TopPages, "Most viewed pages", "urlPath", views); err != nil {
		return err
	}
	if err := top(&v.TopSearches, "Top searches", "eventSearchQuery", searches); err != nil {
		return err
	}
	noResults := insights.Filter{Column: "eventSearchResultsCount", Values: []any{0.0}}
	if err := top(&v.EmptySearches, "Searches without results", "eventSearchQuery", searches, noResults); err != nil {
		return err
	}
	if v.Feedback, err = h.feedback(ask); err != nil {
		return err
	}
	v.Comments, err = h.r.RecentFeedback(req.Context(), org, site, 20)
	return err
}

// feedback is the ratings of the pages most rated.
func (h *Handler) feedback(ask func(insights.Query) (map[string][]any, error)) ([]pageFeedback, error) {
	got, err := ask(insights.Query{Select: []insights.Column{{Name: "pageFeedbackRating"}}, GroupBy: []insights.Column{{Name: "urlPath"}}, Limit: 10})
	var out []pageFeedback
	for i, p := range got["urlPath"] {
		r := got["pageFeedbackRating"][i].(map[string]int)
		out = append(out, pageFeedback{Page: p.(string), Good: r["good"], Ok: r["ok"], Bad: r["bad"]})
	}
	return out, err
}

// perDay is a count by day over from to to, the days without events at 0.
func perDay(got map[string][]any, from, to time.Time) []bar {
	counts := map[string]int{}
	for i, d := range got["datetime"] {
		counts[d.(string)] = got["eventsCount"][i].(int)
	}
	var out []bar
	for d := from.UTC().Truncate(24 * time.Hour); !d.After(to); d = d.AddDate(0, 0, 1) {
		out = append(out, bar{Label: d.Format("2006-01-02"), Value: counts[d.Format(time.RFC3339)]})
	}
	return out
}

// bars are the rows of an answer grouped by the column by, with their counts.
func bars(got map[string][]any, by string) []bar {
	out := make([]bar, len(got[by]))
	for i, label := range got[by] {
		out[i] = bar{Label: label.(string), Value: got["eventsCount"][i].(int)}
	}
	return out
}

// fail answers an error as a page saying what went wrong.
func fail(w http.ResponseWriter, err error) {
	status, text := http.StatusInternalServerError, "Something went wrong."
	if e := apperr.As(err); e != nil {
		status, text = e.Kind.Status(), e.Message
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = pages.ExecuteTemplate(w, "error", struct {
		Status int
		Text   string
	}{status, text})
}
