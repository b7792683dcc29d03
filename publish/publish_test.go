package publish_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/net/html"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// siteFixture is a published site over one space with a small page tree:
// Welcome (landing), Guides (with Install), a hidden Secret page, and a page linking the others.
type siteFixture struct {
	e     *testenv.Env
	admin testenv.Actor
	org   string
	space string
	site  string
}

func newSiteFixture(t *testing.T, opts ...func(*server.Options)) *siteFixture {
	t.Helper()
	e := testenv.New(t, opts...)
	f := &siteFixture{e: e}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.space = f.created(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "Docs"}))
	f.write(t,
		page("Welcome", "Hello **readers**. Read [Install](./guides/install.md).", "ref", "welcome"),
		page("Guides", "## Overview\n\nAll guides.\n\n### Details\n\nMore.", "ref", "guides"),
		page("Install", "```go\nfunc main() {}\n```\n<script>alert(1)</script>", "into", "guides"),
		page("Secret", "Hidden page.", "hidden", true),
	)
	f.site = f.created(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites", map[string]any{"title": "Acme Docs", "spaces": []string{f.space}}))
	return f
}

func page(title, markdown string, extra ...any) map[string]any {
	c := map[string]any{"operation": "insert_page", "title": title, "document": map[string]any{"markdown": markdown}}
	for i := 0; i+1 < len(extra); i += 2 {
		c[extra[i].(string)] = extra[i+1]
	}
	return c
}

func (f *siteFixture) created(t *testing.T, r testenv.Response) string {
	t.Helper()
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	return r.Map(t)["id"].(string)
}

// write adds pages to the site's space through a change request and merges it.
func (f *siteFixture) write(t *testing.T, changes ...map[string]any) {
	t.Helper()
	f.writeTo(t, f.space, changes...)
}

// writeTo adds pages to a space through a change request and merges it.
func (f *siteFixture) writeTo(t *testing.T, spaceID string, changes ...map[string]any) {
	t.Helper()
	f.merge(t, f.changeRequest(t, spaceID, changes...))
}

// setSite changes the site below the API (publishing has its own endpoints).
func (f *siteFixture) setSite(t *testing.T, change func(*ent.SiteUpdateOne)) {
	t.Helper()
	upd := f.e.Store.Client.Site.UpdateOneID(f.site)
	change(upd)
	if err := upd.Exec(accounts.System(context.Background())); err != nil {
		t.Fatal(err)
	}
}

// addSiteSpace adds a space to the site at the root level, after the others.
func (f *siteFixture) addSiteSpace(t *testing.T, spaceID string) {
	t.Helper()
	ctx := accounts.System(context.Background())
	f.e.Store.Client.SiteSpace.Create().SetOrganizationID(f.org).SetSiteID(f.site).SetSpaceID(spaceID).
		SetPath("api").SetPosition("z").ExecX(ctx)
}

// get fetches a site URL without a token.
func (f *siteFixture) get(t *testing.T, path string) (int, http.Header, string) {
	t.Helper()
	client := f.e.Server.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := client.Get(f.e.Server.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

func TestUnpublishedSiteIsNotFound(t *testing.T) {
	f := newSiteFixture(t)
	status, h, body := f.get(t, "/sites/"+f.site+"/")
	if status != 404 || !strings.HasPrefix(h.Get("Content-Type"), "text/html") || !strings.Contains(body, "404") {
		t.Fatalf("unpublished site: %d %s %q", status, h.Get("Content-Type"), body)
	}
}

func TestPublishedSitePages(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	for _, ref := range []string{f.site, "acme"} {
		status, h, body := f.get(t, "/sites/"+ref+"/")
		if status != 200 || !strings.Contains(body, "<h1>Welcome</h1>") || !strings.Contains(body, "<strong>readers</strong>") {
			t.Fatalf("landing page of %s: %d %s", ref, status, body)
		}
		if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
			t.Fatalf("CSP %q", csp)
		}
	}
	_, _, landing := f.get(t, "/sites/acme/")
	for _, want := range []string{`href="/sites/acme/guides/install"`, `<title>Welcome · Acme Docs</title>`,
		`class="skip"`, `rel="canonical"`, `property="og:title"`, `href="/sites/acme/guides"`, `rel="next"`} {
		if !strings.Contains(landing, want) {
			t.Errorf("landing page lacks %s", want)
		}
	}
	if strings.Contains(landing, "Secret") {
		t.Error("the sidebar lists a hidden page")
	}
	status, _, install := f.get(t, "/sites/acme/guides/install")
	if status != 200 || !strings.Contains(install, `<span class="kd">func</span>`) || strings.Contains(install, "<script>") {
		t.Fatalf("install page: %d %s", status, install)
	}
	if _, _, guides := f.get(t, "/sites/acme/guides"); !strings.Contains(guides, `href="#overview"`) || !strings.Contains(guides, `class="h3"`) {
		t.Errorf("guides page has no outline: %s", guides)
	}
	if status, _, _ := f.get(t, "/sites/acme/secret"); status != 200 {
		t.Errorf("a hidden page is still served at its URL: %d", status)
	}
	if status, _, _ := f.get(t, "/sites/acme/nope"); status != 404 {
		t.Errorf("unknown page: %d", status)
	}
	checkHTML(t, landing)
}

func TestPublishedSiteTextFiles(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	status, h, md := f.get(t, "/sites/acme/guides/install.md")
	if status != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/markdown") || !strings.HasPrefix(md, "# Install\n") {
		t.Fatalf("markdown: %d %s %q", status, h.Get("Content-Type"), md)
	}
	_, _, llms := f.get(t, "/sites/acme/llms.txt")
	if !strings.HasPrefix(llms, "# Acme Docs\n") || !strings.Contains(llms, "/sites/acme/guides/install.md)") || strings.Contains(llms, "Secret") {
		t.Fatalf("llms.txt: %q", llms)
	}
	_, _, sitemap := f.get(t, "/sites/acme/sitemap.xml")
	if !strings.Contains(sitemap, "/sites/acme/guides/install</loc>") || strings.Contains(sitemap, "secret") {
		t.Fatalf("sitemap: %s", sitemap)
	}
	if _, _, robots := f.get(t, "/sites/acme/robots.txt"); !strings.Contains(robots, "Allow: /") {
		t.Fatalf("robots.txt of a public site: %q", robots)
	}
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetVisibility(site.VisibilityUnlisted) })
	if _, _, robots := f.get(t, "/sites/acme/robots.txt"); !strings.Contains(robots, "Disallow: /") {
		t.Fatalf("robots.txt of an unlisted site: %q", robots)
	}
	if _, h, page := f.get(t, "/sites/acme/"); h.Get("X-Robots-Tag") != "noindex" || !strings.Contains(page, `content="noindex"`) {
		t.Fatal("an unlisted site's pages are indexable")
	}
}

// checkHTML parses a page and checks its landmarks.
func checkHTML(t *testing.T, page string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			seen[n.Data] = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, el := range []string{"header", "nav", "main", "article", "title"} {
		if !seen[el] {
			t.Errorf("the page has no <%s>", el)
		}
	}
}

// TestPublishedSectionTabsFollowTheStructure: section tabs come in the order of the site's
// structure, a group's sections in the group's place.
func TestPublishedSectionTabsFollowTheStructure(t *testing.T) {
	f := newSiteFixture(t)
	base := "/v1/orgs/" + f.org + "/sites/" + f.site
	var ids []string
	for _, title := range []string{"Alpha", "Beta", "Gamma"} {
		ids = append(ids, f.created(t, f.e.Do(f.admin, "POST", base+"/sections", map[string]any{"spaceId": f.space, "title": title})))
	}
	group := f.created(t, f.e.Do(f.admin, "POST", base+"/section-groups", map[string]any{"title": "Group", "sections": []string{ids[2]}}))
	if r := f.e.Do(f.admin, "POST", base+"/section-groups/"+group+"/move",
		map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": ids[0]}}}); r.Status != 200 {
		t.Fatalf("move: %d %s", r.Status, r.Body)
	}
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true) })
	status, _, body := f.get(t, "/sites/"+f.site+"/")
	gamma, alpha, beta := strings.Index(body, ">Gamma</a>"), strings.Index(body, ">Alpha</a>"), strings.Index(body, ">Beta</a>")
	if status != 200 || gamma < 0 || !(gamma < alpha && alpha < beta) {
		t.Fatalf("tabs out of the structure's order (Gamma, Alpha, Beta): %d %s", status, body)
	}
}

func TestPublishedSiteSearch(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	_, _, landing := f.get(t, "/sites/acme/")
	if !strings.Contains(landing, `action="/sites/acme/~search"`) {
		t.Fatal("no search box on the page")
	}
	status, _, results := f.get(t, "/sites/acme/~search?q=guides")
	if status != 200 || !strings.Contains(results, `href="/sites/acme/guides"`) || !strings.Contains(results, "for “guides”") {
		t.Fatalf("search results: %d %s", status, results)
	}
	if _, _, none := f.get(t, "/sites/acme/~search?q=secret"); strings.Contains(none, `href="/sites/acme/secret"`) {
		t.Error("search lists a hidden page")
	}
	if status, _, bad := f.get(t, "/sites/acme/~search?q="+strings.Repeat("x", 600)); status != 200 || !strings.Contains(bad, `class="problem"`) {
		t.Errorf("an over-long query: %d", status)
	}
	if _, _, guides := f.get(t, "/sites/acme/guides"); !strings.Contains(guides, `id="overview"`) {
		t.Error("headings lack the anchors search results link to")
	}
}

func TestSiteOnItsHostname(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetHostname("docs.acme.test") })
	get := func(host, path string) (int, string) {
		req, _ := http.NewRequest("GET", f.e.Server.URL+path, nil)
		req.Host = host
		res, err := f.e.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if status, body := get("docs.acme.test", "/guides/install"); status != 200 || !strings.Contains(body, "<h1>Install</h1>") ||
		!strings.Contains(body, `href="/guides"`) {
		t.Fatalf("page on the custom hostname: %d %s", status, body)
	}
	if status, body := get("DOCS.acme.test:8080", "/"); status != 200 || !strings.Contains(body, "<h1>Welcome</h1>") {
		t.Fatalf("landing page on the custom hostname: %d", status)
	}
	if status, body := get("docs.acme.test", "/welcome.md"); status != 200 || !strings.Contains(body, "[Install](http://docs.acme.test/guides/install.md)") {
		t.Fatalf("Markdown on the custom hostname: %d %s", status, body)
	}
	if _, body := get("docs.acme.test", "/llms.txt"); !strings.Contains(body, "(http://docs.acme.test/guides/install.md)") {
		t.Fatalf("llms.txt on the custom hostname: %s", body)
	}
	if status, body := get("other.acme.test", "/v1/"); status != 401 || !strings.Contains(body, `"code":401`) {
		t.Fatalf("a host no site has reaches the API: %d %s", status, body)
	}
}

func TestPublishedPagesRevalidate(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	_, h, _ := f.get(t, "/sites/acme/guides")
	tag := h.Get("ETag")
	if tag == "" || h.Get("Cache-Control") != "public, max-age=60" {
		t.Fatalf("headers: %v", h)
	}
	revalidate := func() int {
		req, _ := http.NewRequest("GET", f.e.Server.URL+"/sites/acme/guides", nil)
		req.Header.Set("If-None-Match", tag)
		res, err := f.e.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if status := revalidate(); status != http.StatusNotModified {
		t.Fatalf("revalidation: %d", status)
	}
	f.write(t, page("Changelog", "New page."))
	if status := revalidate(); status != http.StatusOK {
		t.Fatalf("after a merge, revalidation answers %d", status)
	}
	if _, _, body := f.get(t, "/sites/acme/guides"); !strings.Contains(body, "Changelog") {
		t.Fatal("a merge does not show at the next request")
	}
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetVisibility(site.VisibilityUnlisted) })
	if _, h, _ := f.get(t, "/sites/acme/guides"); h.Get("ETag") == tag {
		t.Fatal("a changed site keeps its pages' tags")
	}
}

// TestPublishedPagesKept: a reader's page read again from an unchanged database is the page the
// first read rendered, at the cost of reading the database's version; unpublishing the
// site is obeyed at the next request (decision 367).
func TestPublishedPagesKept(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	_, _, first := f.get(t, "/sites/acme/guides")
	var again string
	kept := false
	for range 50 { // on PostgreSQL other test processes' commits move the version too
		if f.e.StatementsKeeping(func() { _, _, again = f.get(t, "/sites/acme/guides") }) == f.e.VersionStatements() {
			kept = true
			break
		}
	}
	if !kept || again != first {
		t.Fatalf("the page read again: kept %v, same %v", kept, again == first)
	}
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(false) })
	if status, _, _ := f.get(t, "/sites/acme/guides"); status != http.StatusNotFound {
		t.Fatalf("after unpublishing, the page answers %d", status)
	}
}

// TestPublishedPagesReadNoRows: on a server that keeps no answers, a reader's view of an
// unchanged database reads the database's version and no row: the site's structure and the
// space's content read by an earlier view are kept under that version (decision 400). A merge
// and a change of the site are obeyed at the next view.
func TestPublishedPagesReadNoRows(t *testing.T) {
	f := newSiteFixture(t, testenv.KeepingNoAnswers)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	f.get(t, "/sites/acme/guides")
	rowsRead := true
	for range 50 { // on PostgreSQL other test processes' commits move the version too
		if f.e.StatementsKeeping(func() { f.get(t, "/sites/acme/guides/install") }) == f.e.VersionStatements() {
			rowsRead = false
			break
		}
	}
	if rowsRead {
		t.Fatal("a view of an unchanged database reads rows")
	}
	f.write(t, page("Changelog", "New page."))
	if _, _, body := f.get(t, "/sites/acme/guides"); !strings.Contains(body, "Changelog") {
		t.Fatal("a merge does not show at the next view")
	}
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetTitle("Renamed Docs") })
	if _, _, body := f.get(t, "/sites/acme/guides"); !strings.Contains(body, "Renamed Docs") {
		t.Fatal("a change of the site does not show at the next view")
	}
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(false) })
	if status, _, _ := f.get(t, "/sites/acme/guides"); status != http.StatusNotFound {
		t.Fatalf("after unpublishing, the page answers %d", status)
	}
}

// TestPagesOnItsHostnameKept: a page of a site at its own hostname read again from an unchanged
// database is the one kept, at the cost of reading the database's version; the API reached through a hostname no
// site has still answers as the API (its own cache, authentication and charging); a change of
// the hostname is obeyed at the next request.
func TestPagesOnItsHostnameKept(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetHostname("docs.acme.test") })
	get := func(host, path, token string) (int, string) {
		req, _ := http.NewRequest("GET", f.e.Server.URL+path, nil)
		req.Host = host
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		r := f.e.Send(req)
		return r.Status, string(r.Body)
	}
	_, first := get("docs.acme.test", "/guides", "")
	var again string
	kept := false
	for range 50 { // on PostgreSQL other test processes' commits move the version too
		if f.e.StatementsKeeping(func() { _, again = get("docs.acme.test", "/guides", "") }) == f.e.VersionStatements() {
			kept = true
			break
		}
	}
	if !kept || again != first || !strings.Contains(first, "<h1>Guides</h1>") {
		t.Fatalf("the page read again: kept %v, same %v", kept, again == first)
	}
	for i := range 2 {
		var status int
		var body string
		// Always the site's lookup besides the version: the site layer keeps no answer of the API's.
		if n := f.e.StatementsKeeping(func() { status, body = get("api.acme.test", "/v1/orgs/"+f.org, f.admin.Token) }); n <= f.e.VersionStatements() ||
			status != 200 || !strings.Contains(body, `"object":"organization"`) {
			t.Fatalf("the API through a hostname no site has (read %d): %d statements, %d %s", i+1, n, status, body)
		}
		if status, _ := get("api.acme.test", "/v1/orgs/"+f.org, ""); status != 401 {
			t.Fatalf("the API without a token through that hostname: %d", status)
		}
	}
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetHostname("help.acme.test") })
	if status, body := get("docs.acme.test", "/guides", ""); strings.Contains(body, "<h1>Guides</h1>") {
		t.Fatalf("after the site left the hostname, its page is still served there: %d", status)
	}
}

// TestAdaptiveContentFromUnsignedClaims: a site space whose condition reads an unsigned claim is
// shown to readers who set it in the URL, and stays shown through the cookie; a claim the schema
// does not declare, or one set at the top level, changes nothing.
func TestAdaptiveContentFromUnsignedClaims(t *testing.T) {
	f := newSiteFixture(t)
	beta := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "Beta"}))
	f.writeTo(t, beta, page("Beta features", "Try them."))
	f.addSiteSpace(t, beta)
	setBetaCondition(t, f, beta)

	if _, _, body := f.get(t, "/sites/acme/"); strings.Contains(body, ">Beta<") {
		t.Fatal("a reader without the claim sees the beta variant")
	}
	if status, _, body := f.get(t, "/sites/acme/api/"); status != 404 {
		t.Fatalf("the hidden variant answers %d %s", status, body)
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	read := func(path string) string {
		res, err := client.Get(f.e.Server.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	if body := read("/sites/acme/?visitor.beta=true&visitor.other=1"); !strings.Contains(body, ">Beta<") {
		t.Fatal("a reader with visitor.beta=true does not see the beta variant")
	}
	if body := read("/sites/acme/api/"); !strings.Contains(body, "<h1>Beta features</h1>") {
		t.Fatal("the claim is not kept for the next page")
	}
	if _, _, body := f.get(t, "/sites/acme/?beta=true&visitor.unsigned.beta=true"); strings.Contains(body, ">Beta<") {
		t.Fatal("claims outside visitor.<name> reach conditions")
	}
}

// setBetaCondition shows the site space of a space only to readers with the unsigned claim
// beta=true, and publishes the site as acme.
func setBetaCondition(t *testing.T, f *siteFixture, spaceID string) {
	t.Helper()
	ctx := accounts.System(context.Background())
	f.e.Store.Client.SiteSpace.Update().Where(sitespace.SpaceID(spaceID)).SetCondition("visitor.claims.unsigned.beta").ExecX(ctx)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme").SetAdaptiveSchema(betaSchema()) })
}

// betaSchema is a visitor schema with one unsigned claim, beta (a boolean).
func betaSchema() map[string]any {
	return map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
		"unsigned": map[string]any{"type": "object", "description": "Unsigned claims of the site visitor.", "additionalProperties": false,
			"properties": map[string]any{"beta": map[string]any{"type": "boolean", "description": "Wants beta features."}}}}}
}

// reader is a browser with its cookies.
func (f *siteFixture) reader(t *testing.T) func(path string) (int, string) {
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return func(path string) (int, string) {
		res, err := client.Get(f.e.Server.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode == http.StatusFound {
			return res.StatusCode, res.Header.Get("Location")
		}
		return res.StatusCode, string(b)
	}
}

func TestShareLinkSite(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) {
		u.SetPublished(true).SetBasename("acme").SetVisibility(site.VisibilityShareLink)
	})
	links := "/v1/orgs/" + f.org + "/sites/" + f.site + "/share-links"
	created := f.e.Do(f.admin, "POST", links, map[string]any{"name": "Partners"}).Map(t)
	published, _ := url.Parse(created["urls"].(map[string]any)["published"].(string))
	key := published.Query().Get("shareKey")
	read := f.reader(t)
	if status, _ := read("/sites/acme/"); status != 404 {
		t.Fatalf("without a key: %d", status)
	}
	if status, _ := read("/sites/acme/?shareKey=wrong"); status != 404 {
		t.Fatalf("with a wrong key: %d", status)
	}
	if status, body := read(published.Path + "?" + published.RawQuery); status != 200 || !strings.Contains(body, "<h1>Welcome</h1>") {
		t.Fatalf("the link's published URL: %d %s", status, body)
	}
	if status, _ := read("/sites/acme/guides"); status != 200 {
		t.Fatalf("the key is not kept for the next page: %d", status)
	}
	if _, h, _ := f.get(t, "/sites/acme/?share="+key); h.Get("Cache-Control") != "private, no-cache" {
		t.Errorf("a share-link page is cached publicly: %q", h.Get("Cache-Control"))
	}
	f.e.Do(f.admin, "DELETE", links+"/"+created["id"].(string), nil)
	if status, _ := read("/sites/acme/guides"); status != 404 {
		t.Fatalf("a revoked link still opens the site: %d", status)
	}
}

func TestVisitorAuthSite(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) {
		u.SetPublished(true).SetBasename("acme").SetVisibility(site.VisibilityVisitorAuth)
	})
	authURL := "/v1/orgs/" + f.org + "/sites/" + f.site + "/publishing/auth"
	key := f.e.Do(f.admin, "GET", authURL, nil).Map(t)["privateKey"].(string)
	sign := func(secret string, exp time.Time) string {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": exp.Unix(), "plan": "pro"}).SignedString([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	read := f.reader(t)
	if status, body := read("/sites/acme/"); status != 401 || !strings.Contains(body, "jwt_token") {
		t.Fatalf("without a token: %d %s", status, body)
	}
	if status, _ := read("/sites/acme/?jwt_token=" + sign("not the key", time.Now().Add(time.Hour))); status != 401 {
		t.Fatalf("a token signed with another key: %d", status)
	}
	if status, body := read("/sites/acme/?jwt_token=" + sign(key, time.Now().Add(-time.Minute))); status != 401 || !strings.Contains(body, "expired") {
		t.Fatalf("an expired token: %d %s", status, body)
	}
	if status, body := read("/sites/acme/?jwt_token=" + sign(key, time.Now().Add(time.Hour))); status != 200 || !strings.Contains(body, "<h1>Welcome</h1>") {
		t.Fatalf("a valid token: %d %s", status, body)
	}
	if status, _ := read("/sites/acme/guides"); status != 200 {
		t.Fatalf("the token is not kept for the next page: %d", status)
	}
	f.e.Do(f.admin, "PATCH", authURL, map[string]any{"fallbackURL": "https://auth.example.com/login"})
	if status, location := f.reader(t)("/sites/acme/guides"); status != http.StatusFound || location != "https://auth.example.com/login" {
		t.Fatalf("a reader without a token is not sent to the fallback URL: %d %s", status, location)
	}
}
