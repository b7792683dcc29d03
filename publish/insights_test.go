package publish_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/serverkey"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// insightsFixture is the site fixture published at /sites/acme, with helpers to read it as a
// reader and to ask its insights.
type insightsFixture struct {
	*siteFixture
	base string // /v1/orgs/{org}/sites/{site}/insights
}

func newInsightsFixture(t *testing.T) *insightsFixture {
	t.Helper()
	f := &insightsFixture{siteFixture: newSiteFixture(t)}
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	f.base = "/v1/orgs/" + f.org + "/sites/" + f.site + "/insights"
	return f
}

// read sends a reader's request with headers (name, value pairs), and returns its status.
func (f *insightsFixture) read(t *testing.T, method, path string, form url.Values, headers ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, f.e.Server.URL+path, strings.NewReader(form.Encode()))
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("User-Agent", "reader-1")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	client := f.e.Server.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// flush writes the events recorded so far.
func (f *insightsFixture) flush(t *testing.T) {
	t.Helper()
	if err := f.e.Insights.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// aggregate asks an aggregation as the actor and returns its columns by name.
func (f *insightsFixture) aggregate(t *testing.T, a testenv.Actor, query map[string]any) map[string][]any {
	t.Helper()
	if query["range"] == nil {
		query["range"] = "last7Days"
	}
	r := f.e.Do(a, "POST", f.base+"/events/aggregate", query)
	if r.Status != http.StatusOK {
		t.Fatalf("aggregate %v: %d %s", query, r.Status, r.Body)
	}
	var answer struct {
		Columns []struct {
			Column string `json:"column"`
			Values []any  `json:"values"`
		} `json:"columns"`
	}
	r.JSON(t, &answer)
	out := map[string][]any{}
	for _, c := range answer.Columns {
		out[c.Column] = c.Values
	}
	return out
}

func col(name string) map[string]any { return map[string]any{"column": name} }

// TestInsightsFromReaders reads the published site as readers do (pages, a page twice as the read
// cache keeps it, its Markdown, a search with results and one without, feedback with and without a
// comment, a reader asking not to be tracked) and reads the aggregations the dashboard shows.
func TestInsightsFromReaders(t *testing.T) {
	f := newInsightsFixture(t)
	for _, p := range []string{"/sites/acme/", "/sites/acme/guides/install", "/sites/acme/guides/install"} {
		if status, body := f.read(t, "GET", p, nil, "Referer", "https://search.example/?q=acme"); status != 200 {
			t.Fatalf("GET %s: %d %s", p, status, body)
		}
	}
	f.read(t, "GET", "/sites/acme/guides/install", nil, "DNT", "1")
	f.read(t, "GET", "/sites/acme/guides/install.md", nil)
	f.read(t, "GET", "/sites/acme/~search?q=install", nil)
	f.read(t, "GET", "/sites/acme/~search?q=Nothing+Here", nil)
	f.read(t, "GET", "/sites/acme/~search?q=nothing%20%20here", nil)
	origin := f.e.Server.URL
	if status, body := f.read(t, "POST", "/sites/acme/guides/install/~feedback", url.Values{"rating": {"good"}}, "Origin", origin); status != 200 || !strings.Contains(body, "Thank you") {
		t.Fatalf("feedback: %d %s", status, body)
	}
	f.read(t, "POST", "/sites/acme/guides/install/~feedback", url.Values{"rating": {"bad"}, "comment": {"Say which Go version."}},
		"Referer", origin+"/sites/acme/guides/install")
	f.flush(t)

	byPage := f.aggregate(t, f.admin, map[string]any{"groupBy": []any{col("urlPath")},
		"where": []any{map[string]any{"column": "eventType", "values": []any{"page_view"}}}})
	if !slices.Equal(byPage["urlPath"], []any{"/guides/install", "/"}) || !slices.Equal(byPage["eventsCount"], []any{3.0, 1.0}) {
		t.Errorf("views by page: %v", byPage)
	}
	visitors := f.aggregate(t, f.admin, map[string]any{"select": []any{col("eventsCount"), col("visitorsCount")},
		"groupBy": []any{map[string]any{"column": "datetime", "interval": "day"}},
		"where":   []any{map[string]any{"column": "eventType", "values": []any{"page_view"}}}})
	if !slices.Equal(visitors["eventsCount"], []any{4.0}) || !slices.Equal(visitors["visitorsCount"], []any{1.0}) {
		t.Errorf("views and visitors by day (the DNT view counted, not its reader): %v", visitors)
	}
	referrers := f.aggregate(t, f.admin, map[string]any{"groupBy": []any{col("referrerDomain")}})
	if !slices.Equal(referrers["referrerDomain"], []any{"search.example"}) || !slices.Equal(referrers["eventsCount"], []any{3.0}) {
		t.Errorf("referrers: %v", referrers)
	}
	searches := f.aggregate(t, f.admin, map[string]any{"groupBy": []any{col("eventSearchQuery")}})
	if !slices.Equal(searches["eventSearchQuery"], []any{"nothing here", "install"}) || !slices.Equal(searches["eventsCount"], []any{2.0, 1.0}) {
		t.Errorf("top searches: %v", searches)
	}
	empty := f.aggregate(t, f.admin, map[string]any{"groupBy": []any{col("eventSearchQuery")},
		"where": []any{map[string]any{"column": "eventSearchResultsCount", "values": []any{0}}}})
	if !slices.Equal(empty["eventSearchQuery"], []any{"nothing here"}) {
		t.Errorf("searches without results: %v", empty)
	}
	feedback := f.aggregate(t, f.admin, map[string]any{"select": []any{col("pageFeedbackRating")}, "groupBy": []any{col("urlPath")}})
	if want := []any{map[string]any{"bad": 1.0, "ok": 0.0, "good": 1.0}}; fmt.Sprint(feedback["pageFeedbackRating"]) != fmt.Sprint(want) ||
		!slices.Equal(feedback["urlPath"], []any{"/guides/install"}) {
		t.Errorf("feedback by page: %v", feedback)
	}
	markdown := f.aggregate(t, f.admin, map[string]any{"where": []any{map[string]any{"column": "eventType", "values": []any{"page_markdown_request"}}}})
	if !slices.Equal(markdown["eventsCount"], []any{1.0}) {
		t.Errorf("Markdown reads: %v", markdown)
	}
	segments := f.e.Do(f.admin, "GET", f.base+"/visitor-segments", nil)
	if segments.Status != 200 || !strings.Contains(string(segments.Body), `"visitors":1`) {
		t.Errorf("visitor segments: %d %s", segments.Status, segments.Body)
	}
	g := f.e.GraphQL(f.admin, `query($o: ID!, $s: ID!, $q: JSON!) { aggregateSiteEvents(organizationId: $o, siteId: $s, query: $q) { column values } }`,
		map[string]any{"o": f.org, "s": f.site, "q": map[string]any{"range": "last7Days", "groupBy": []any{col("eventType")}}})
	if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"page_view"`) {
		t.Errorf("GraphQL aggregateSiteEvents: %s %v", g.Data, g.Errors)
	}
}

// TestFeedbackFormRefusals: a form from another origin, or none, a rating that is not one, a
// comment too long, a page that is not there.
func TestFeedbackFormRefusals(t *testing.T) {
	f := newInsightsFixture(t)
	origin := f.e.Server.URL
	for _, c := range []struct {
		name    string
		path    string
		form    url.Values
		headers []string
		status  int
	}{
		{"another origin", "/sites/acme/guides/install/~feedback", url.Values{"rating": {"good"}}, []string{"Origin", "https://evil.example"}, 403},
		{"no origin", "/sites/acme/guides/install/~feedback", url.Values{"rating": {"good"}}, nil, 403},
		{"a referrer elsewhere", "/sites/acme/guides/install/~feedback", url.Values{"rating": {"good"}}, []string{"Referer", "https://evil.example/x"}, 403},
		{"no rating", "/sites/acme/guides/install/~feedback", url.Values{"comment": {"hi"}}, []string{"Origin", origin}, 400},
		{"a rating not one", "/sites/acme/guides/install/~feedback", url.Values{"rating": {"great"}}, []string{"Origin", origin}, 400},
		{"a comment too long", "/sites/acme/guides/install/~feedback", url.Values{"rating": {"ok"}, "comment": {strings.Repeat("é", 513)}}, []string{"Origin", origin}, 400},
		{"a form too large", "/sites/acme/guides/install/~feedback", url.Values{"rating": {"ok"}, "x": {strings.Repeat("a", 9000)}}, []string{"Origin", origin}, 400},
		{"no page", "/sites/acme/nowhere/~feedback", url.Values{"rating": {"ok"}}, []string{"Origin", origin}, 404},
		{"a page's URL", "/sites/acme/guides/install", url.Values{"rating": {"ok"}}, []string{"Origin", origin}, 405},
	} {
		if status, body := f.read(t, "POST", c.path, c.form, c.headers...); status != c.status {
			t.Errorf("%s: %d, want %d: %s", c.name, status, c.status, body)
		}
	}
	f.flush(t)
	if got := f.aggregate(t, f.admin, map[string]any{}); len(got["eventsCount"]) != 0 {
		t.Errorf("refused feedback was recorded: %v", got)
	}
}

// TestTrackSiteEvents sends events as a client of trackEventsInSiteById does, and hostile ones: a
// type not the reference's, a batch too large, a timestamp far off, a flood from one address, a
// site of another organization or unpublished; and asks aggregations of people who may not.
func TestTrackSiteEvents(t *testing.T) {
	f := newInsightsFixture(t)
	loc := map[string]any{"url": f.e.Server.URL + "/sites/acme/guides/install", "siteSection": nil, "siteSpace": nil,
		"siteShareKey": nil, "page": nil, "space": nil, "revision": nil}
	session := map[string]any{"sessionId": "s", "visitorId": "v", "cookies": map[string]any{}, "userAgent": "x", "language": nil, "referrer": "https://news.example/a"}
	event := func(typ string, extra ...any) map[string]any {
		e := map[string]any{"type": typ, "location": loc, "session": session}
		for i := 0; i+1 < len(extra); i += 2 {
			e[extra[i].(string)] = extra[i+1]
		}
		return e
	}
	anonymous := testenv.Actor{}
	track := func(events ...any) testenv.Response {
		return f.e.Do(anonymous, "POST", f.base+"/events", map[string]any{"events": events})
	}
	if r := track(event("link_click", "link", map[string]any{"target": map[string]any{"kind": "url", "url": "https://go.dev"}, "position": "content"}),
		event("page_post_feedback_comment", "feedback", map[string]any{"rating": "ok", "comment": "Fine."}),
		event("search_type_query", "query", "webhooks", "resultsCount", 0)); r.Status != http.StatusNoContent {
		t.Fatalf("track: %d %s", r.Status, r.Body)
	}
	for name, events := range map[string][]any{
		"a type not the reference's": {event("page_explode")},
		"no location":                {map[string]any{"type": "page_view", "session": session}},
		"a rating not one":           {event("page_post_feedback", "feedback", map[string]any{"rating": "meh"})},
		"a comment too long":         {event("page_post_feedback_comment", "feedback", map[string]any{"rating": "ok", "comment": strings.Repeat("x", 513)})},
		"a timestamp far off":        {event("page_view", "timestamp", "2001-01-01T00:00:00Z")},
		"a batch too large":          slices.Repeat([]any{event("page_view")}, 501),
	} {
		if r := track(events...); r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	// 3 events, then 60, then 60 more from one address: the cap of 120 a minute refuses the last.
	for i, want := range []int{http.StatusNoContent, http.StatusTooManyRequests, http.StatusTooManyRequests} {
		if r := track(slices.Repeat([]any{event("page_view")}, 60)...); r.Status != want {
			t.Errorf("a flood from one address, batch %d: %d, want %d", i, r.Status, want)
		}
	}
	other, otherOrg := f.e.Bootstrap("eve@example.com", "Other")
	if r := f.e.Do(anonymous, "POST", "/v1/orgs/"+otherOrg+"/sites/"+f.site+"/insights/events", map[string]any{"events": []any{event("page_view")}}); r.Status != http.StatusNotFound {
		t.Errorf("events sent under another organization: %d %s", r.Status, r.Body)
	}
	if r := f.e.Do(other, "POST", f.base+"/events/aggregate", map[string]any{"range": "last7Days"}); r.Status != http.StatusNotFound {
		t.Errorf("another organization's admin aggregates: %d %s", r.Status, r.Body)
	}
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	if r := f.e.Do(reader, "POST", f.base+"/events/aggregate", map[string]any{"range": "last7Days"}); r.Status != http.StatusForbidden {
		t.Errorf("a reader of the organization aggregates: %d %s", r.Status, r.Body)
	}
	for name, q := range map[string]map[string]any{
		"no range":           {},
		"a column not known": {"range": "last7Days", "groupBy": []any{col("visitorGeoPoint")}},
		"an hourly interval": {"range": "last7Days", "groupBy": []any{map[string]any{"column": "datetime", "interval": "hour"}}},
		"a limit too high":   {"range": "last7Days", "limit": 1001},
		"two dimensions":     {"range": "last7Days", "groupBy": []any{col("urlPath"), col("referrerDomain")}},
	} {
		if r := f.e.Do(f.admin, "POST", f.base+"/events/aggregate", q); r.Status != http.StatusBadRequest {
			t.Errorf("aggregate with %s: %d %s", name, r.Status, r.Body)
		}
	}
	f.flush(t)
	got := f.aggregate(t, f.admin, map[string]any{"groupBy": []any{col("eventType")}})
	if !slices.Equal(got["eventType"], []any{"page_view", "link_click", "page_post_feedback_comment", "search_type_query"}) ||
		!slices.Equal(got["eventsCount"], []any{60.0, 1.0, 1.0, 1.0}) {
		t.Errorf("events by type: %v", got)
	}
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(false) })
	if r := track(event("page_view")); r.Status != http.StatusNotFound {
		t.Errorf("events of an unpublished site: %d %s", r.Status, r.Body)
	}
}

// TestInsightsInBrowser sends a page's feedback from headless Chromium with JavaScript off, then
// reads the site's insights page signed in: its figures, its SVG charts of views per day, top
// pages, top searches and searches without results, its feedback table and comments, with no
// console error (its CSP refuses nothing it needs).
func TestInsightsInBrowser(t *testing.T) {
	f := newInsightsFixture(t)
	page := f.e.Server.URL + "/sites/acme/guides/install"
	out := testenv.RunBrowser(t, "testdata/insights.js", "feedback", page)
	for _, want := range []string{"legend: Was this page helpful?", "answer: Thank you", "back: /sites/acme/guides/install", "console: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("the feedback form: the browser did not see %q:\n%s", want, out)
		}
	}
	f.read(t, "GET", "/sites/acme/~search?q=install", nil)
	f.read(t, "GET", "/sites/acme/~search?q=kubernetes", nil)
	f.flush(t)
	out = testenv.RunBrowser(t, "testdata/insights.js", "dashboard", f.e.Server.URL+"/o/"+f.org+"/sites/"+f.site+"/insights", f.admin.Token)
	for _, want := range []string{"views: 1", "visitors: 1", "days: 31", "pages: /guides/install 1", "searches: install 1 kubernetes 1",
		"no results: kubernetes 1", "feedback: /guides/install 0 0 1", "comments: bad on /guides/install: Say which Go version.",
		"chart label: Page views per day", "console: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("the dashboard: the browser did not see %q:\n%s", want, out)
		}
	}
}

// TestInsightsDashboardAccess: the dashboard is its organization's editors' and admins', by token
// or session; another organization's site is not found, a bad range refused.
func TestInsightsDashboardAccess(t *testing.T) {
	f := newInsightsFixture(t)
	path := "/o/" + f.org + "/sites/" + f.site + "/insights"
	other, _ := f.e.Bootstrap("eve@example.com", "Other")
	editor := f.e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	for _, c := range []struct {
		name   string
		actor  testenv.Actor
		path   string
		status int
	}{
		{"the admin", f.admin, path, 200},
		{"an editor", editor, path + "?range=last7Days", 200},
		{"a reader", reader, path, 403},
		{"another organization's admin", other, path, 404},
		{"a range not one", f.admin, path + "?range=forever", 400},
	} {
		r := f.e.Raw(c.actor, "GET", c.path, "", nil)
		if r.Status != c.status || !strings.Contains(r.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %s, want %d: %.200s", c.name, r.Status, r.Header.Get("Content-Type"), c.status, r.Body)
		}
	}
}

// TestInsightsRetention: the sweep's purge removes the events and daily counts older than the
// retention, and the visitor salts of the days before yesterday.
func TestInsightsRetention(t *testing.T) {
	f := newInsightsFixture(t)
	f.read(t, "GET", "/sites/acme/guides/install", nil)
	f.flush(t)
	ctx := context.Background()
	if n, err := insights.Purge(ctx, f.e.Store.Client, time.Now(), insights.DefaultRetention); err != nil || n != 0 {
		t.Fatalf("purge within the retention: %d removed, %v", n, err)
	}
	if got := f.aggregate(t, f.admin, map[string]any{}); !slices.Equal(got["eventsCount"], []any{1.0}) {
		t.Fatalf("before the purge: %v", got)
	}
	n, err := insights.Purge(ctx, f.e.Store.Client, time.Now().Add(insights.DefaultRetention+48*time.Hour), insights.DefaultRetention)
	if err != nil || n == 0 {
		t.Fatalf("purge past the retention: %d removed, %v", n, err)
	}
	if got := f.aggregate(t, f.admin, map[string]any{}); len(got["eventsCount"]) != 0 {
		t.Errorf("after the purge: %v", got)
	}
	salts, err := f.e.Store.Client.ServerKey.Query().Where(serverkey.PurposeHasPrefix("insights-visitors-")).Count(accounts.System(ctx))
	if err != nil || salts != 0 {
		t.Errorf("visitor salts left: %d, %v", salts, err)
	}
}
