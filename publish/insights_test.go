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

	"github.com/golang-jwt/jwt/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/serverkey"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/siteinsightevent"
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

// TestTrackSiteEventsAudience: on a share-link or visitor-auth site, events are taken only from
// whoever may read the site (its link's key, a valid visitor token, in REST and GraphQL, even from
// the organization's admin); anyone else is answered as for an unpublished site or one that is not there: 404, recording nothing.
func TestTrackSiteEventsAudience(t *testing.T) {
	f := newInsightsFixture(t)
	event := map[string]any{"type": "page_view", "session": map[string]any{},
		"location": map[string]any{"url": f.e.Server.URL + "/sites/acme/guides/install"}}
	track := func(query string) testenv.Response {
		return f.e.Do(testenv.Actor{}, "POST", f.base+"/events"+query, map[string]any{"events": []any{event}})
	}
	notFound := func(name string, r testenv.Response) {
		t.Helper()
		if r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), "site not found") {
			t.Errorf("%s: %d %s, want 404 as for a site not there", name, r.Status, r.Body)
		}
	}
	notFound("a site not there", f.e.Do(testenv.Actor{}, "POST", "/v1/orgs/"+f.org+"/sites/nosuchsite/insights/events",
		map[string]any{"events": []any{event}}))

	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetVisibility(site.VisibilityShareLink) })
	links := "/v1/orgs/" + f.org + "/sites/" + f.site + "/share-links"
	created := f.e.Do(f.admin, "POST", links, map[string]any{"name": "Partners"}).Map(t)
	published, _ := url.Parse(created["urls"].(map[string]any)["published"].(string))
	key := published.Query().Get("shareKey")
	notFound("a share-link site without a key", track(""))
	notFound("a share-link site with a wrong key", track("?shareKey=wrong"))
	if r := track("?shareKey=" + url.QueryEscape(key)); r.Status != http.StatusNoContent {
		t.Errorf("a share-link site with its link's key: %d %s", r.Status, r.Body)
	}
	gql := func(shareKey, token any) testenv.GQLResponse { // the organization's admin too needs the key
		return f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $e: [JSON!]!, $k: String, $t: String) {
			trackSiteEvents(organizationId: $o, siteId: $s, events: $e, shareKey: $k, visitorToken: $t) }`,
			map[string]any{"o": f.org, "s": f.site, "e": []any{event}, "k": shareKey, "t": token})
	}
	if g := gql(nil, nil); len(g.Errors) == 0 || !strings.Contains(fmt.Sprint(g.Errors), "site not found") {
		t.Errorf("GraphQL, a share-link site without a key: %s %v", g.Data, g.Errors)
	}
	if g := gql(key, nil); len(g.Errors) > 0 {
		t.Errorf("GraphQL, a share-link site with its link's key: %v", g.Errors)
	}

	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetVisibility(site.VisibilityVisitorAuth) })
	secret := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/sites/"+f.site+"/publishing/auth", nil).Map(t)["privateKey"].(string)
	sign := func(secret string, exp time.Time) string {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": exp.Unix()}).SignedString([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	notFound("a visitor-auth site without a token", track(""))
	notFound("a visitor-auth site with a share key", track("?shareKey="+url.QueryEscape(key)))
	notFound("a visitor-auth site with a forged token", track("?jwt_token="+sign("not the key", time.Now().Add(time.Hour))))
	notFound("a visitor-auth site with an expired token", track("?jwt_token="+sign(secret, time.Now().Add(-time.Minute))))
	if r := track("?jwt_token=" + sign(secret, time.Now().Add(time.Hour))); r.Status != http.StatusNoContent {
		t.Errorf("a visitor-auth site with a valid token: %d %s", r.Status, r.Body)
	}
	f.flush(t)
	if got := f.aggregate(t, f.admin, map[string]any{}); !slices.Equal(got["eventsCount"], []any{3.0}) {
		t.Errorf("events recorded (only the three admitted): %v", got)
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

// TestLinkClicksInBrowser follows a page's link out of the site in headless Chromium (to another
// origin: the same server as localhost rather than 127.0.0.1): the link keeps its href, the page's script reports
// the click to the page's /~click (its CSP allowing it), and the click is counted with where it
// led.
func TestLinkClicksInBrowser(t *testing.T) {
	f := newInsightsFixture(t)
	elsewhere := strings.Replace(f.e.Server.URL, "127.0.0.1", "localhost", 1) + "/sites/acme/guides/install"
	f.write(t, page("Links", "See [the other site]("+elsewhere+") or [Install](./guides/install.md)."))
	out := testenv.RunBrowser(t, "testdata/insights.js", "clicks", f.e.Server.URL+"/sites/acme/links")
	for _, want := range []string{"href: " + elsewhere, "at: /sites/acme/guides/install", "console: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("the browser did not see %q:\n%s", want, out)
		}
	}
	// The report is sent as the page unloads: it may arrive after the browser is done.
	var links []string
	for deadline := time.Now().Add(10 * time.Second); len(links) == 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		f.flush(t)
		links = f.clickedLinks(t)
	}
	if !slices.Equal(links, []string{elsewhere + " content"}) {
		t.Errorf("the clicks' links: %v", links)
	}
	clicks := f.aggregate(t, f.admin, map[string]any{"groupBy": []any{col("urlPath")},
		"where": []any{map[string]any{"column": "eventType", "values": []any{"link_click"}}}})
	if !slices.Equal(clicks["urlPath"], []any{"/links"}) || !slices.Equal(clicks["eventsCount"], []any{1.0}) {
		t.Errorf("link clicks by page: %v", clicks)
	}
}

// clickedLinks are the links of the site's recorded clicks, with their positions.
func (f *insightsFixture) clickedLinks(t *testing.T) []string {
	t.Helper()
	events, err := f.e.Store.Client.SiteInsightEvent.Query().Where(siteinsightevent.Type(insights.LinkClick)).
		Order(ent.Asc(siteinsightevent.FieldID)).All(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, e := range events {
		links = append(links, e.Link+" "+e.LinkPosition)
	}
	return links
}

// TestLinkClickReports posts clicks as a page's script does, and hostile ones: from another
// origin or none, a link not an absolute http(s) URL or too long, a position not one, a page
// not there, a body too large, a reader over their cap; a reader asking not to be tracked is
// counted without a visitor.
func TestLinkClickReports(t *testing.T) {
	f := newInsightsFixture(t)
	origin := f.e.Server.URL
	click := func(href, position string) url.Values { return url.Values{"href": {href}, "position": {position}} }
	path := "/sites/acme/guides/install/~click"
	if status, body := f.read(t, "POST", path, click("https://go.example/doc", "content"), "Origin", origin); status != http.StatusNoContent {
		t.Fatalf("a click: %d %s", status, body)
	}
	if status, body := f.read(t, "POST", path, click("http://other.example/", "footer"), "Origin", origin, "Sec-GPC", "1"); status != http.StatusNoContent {
		t.Fatalf("a click of a reader asking not to be tracked: %d %s", status, body)
	}
	for _, c := range []struct {
		name    string
		path    string
		form    url.Values
		headers []string
		status  int
		message string
	}{
		{"another origin", path, click("https://go.example/", "content"), []string{"Origin", "https://evil.example"}, 403, "site's own pages"},
		{"no origin", path, click("https://go.example/", "content"), nil, 403, "site's own pages"},
		{"a relative link", path, click("/elsewhere", "content"), []string{"Origin", origin}, 400, "href"},
		{"a javascript: link", path, click("javascript:alert(1)", "content"), []string{"Origin", origin}, 400, "href"},
		{"a link too long", path, click("https://go.example/"+strings.Repeat("a", 2048), "content"), []string{"Origin", origin}, 400, "href"},
		{"no position", path, url.Values{"href": {"https://go.example/"}}, []string{"Origin", origin}, 400, "position"},
		{"a position not one", path, click("https://go.example/", "middle"), []string{"Origin", origin}, 400, "position"},
		{"a body too large", path, url.Values{"href": {"https://go.example/"}, "x": {strings.Repeat("a", 9000)}}, []string{"Origin", origin}, 400, "8 KiB"},
		{"no page", "/sites/acme/nowhere/~click", click("https://go.example/", "content"), []string{"Origin", origin}, 404, "Not Found"},
	} {
		status, body := f.read(t, "POST", c.path, c.form, c.headers...)
		if status != c.status || !strings.Contains(body, `"error":{"code":`) || !strings.Contains(body, c.message) {
			t.Errorf("%s: %d %s, want %d naming %q", c.name, status, body, c.status, c.message)
		}
	}
	f.flush(t)
	if links := f.clickedLinks(t); !slices.Equal(links, []string{"https://go.example/doc content", "http://other.example/ footer"}) {
		t.Errorf("the clicks' links: %v", links)
	}
	visitors := f.aggregate(t, f.admin, map[string]any{"select": []any{col("eventsCount"), col("visitorsCount")},
		"where": []any{map[string]any{"column": "eventType", "values": []any{"link_click"}}}})
	if !slices.Equal(visitors["eventsCount"], []any{2.0}) || !slices.Equal(visitors["visitorsCount"], []any{1.0}) {
		t.Errorf("clicks and their visitors (the Sec-GPC one counted, not its reader): %v", visitors)
	}
	for i := 2; ; i++ { // 2 clicks counted this minute; the cap is 120
		status, body := f.read(t, "POST", path, click("https://go.example/", "content"), "Origin", origin)
		if status == http.StatusTooManyRequests && strings.Contains(body, "too many events") && i >= 119 {
			break
		}
		if status != http.StatusNoContent || i > 240 { // a new minute may start on the way
			t.Fatalf("click %d from one address: %d %s, want 204 up to the cap of 120, then 429", i+1, status, body)
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
