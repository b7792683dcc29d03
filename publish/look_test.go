package publish_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
)

// customization is a site's settings that set something of every kind a page shows.
func (f *siteFixture) customization(t *testing.T) map[string]any {
	install := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/content/path/guides/install", nil).Map(t)["id"].(string)
	link := func(u string) map[string]any { return map[string]any{"kind": "url", "url": u} }
	return map[string]any{
		"title": "Acme Handbook",
		"styling": map[string]any{
			"primaryColor": map[string]any{"light": "#ff0000", "dark": "#00ff00"},
			"tint":         map[string]any{"color": map[string]any{"light": "#123456", "dark": "#654321"}},
			"corners":      "straight",
		},
		"themes":  map[string]any{"default": "dark", "toggeable": true},
		"favicon": map[string]any{"icon": map[string]any{"light": "https://img.example.org/f.png", "dark": "https://img.example.org/f.png"}},
		"header": map[string]any{
			"logo":        map[string]any{"light": "https://cdn.example.com/light.png", "dark": "https://cdn.example.com/dark.png"},
			"primaryLink": link("https://acme.example.com"),
			"links": []any{
				map[string]any{"title": "Status", "to": link("https://status.example.com"), "links": []any{}},
				map[string]any{"title": "Setup", "to": map[string]any{"kind": "page", "page": install}, "links": []any{}},
			},
		},
		"footer": map[string]any{"copyright": "© Acme Inc.", "groups": []any{
			map[string]any{"title": "Community", "links": []any{map[string]any{"title": "Blog", "to": link("https://blog.example.com")}}},
		}},
		"announcement":  map[string]any{"enabled": true, "message": "Version 2 is out", "style": "warning"},
		"pagination":    map[string]any{"enabled": false},
		"socialPreview": map[string]any{"url": "https://cdn.example.com/card.png"},
	}
}

func (f *siteFixture) customize(t *testing.T, settings map[string]any) {
	t.Helper()
	if r := f.e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/sites/"+f.site+"/customization", settings); r.Status != 200 {
		t.Fatalf("customization: %d %s", r.Status, r.Body)
	}
}

var styleElement = regexp.MustCompile(`<style>([^<]*)</style>`)

// checkStyleAdmitted checks that the page's <style> is the one its CSP admits, by its hash, and
// returns its text.
func checkStyleAdmitted(t *testing.T, h http.Header, body string) string {
	t.Helper()
	m := styleElement.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the page has no <style>: %s", body)
	}
	sum := sha256.Sum256([]byte(m[1]))
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "style-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"';") {
		t.Errorf("the CSP %q does not admit the page's style %q", csp, m[1])
	}
	return m[1]
}

func TestSiteCustomizationInPages(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	f.customize(t, f.customization(t))

	status, h, body := f.get(t, "/sites/acme/")
	if status != 200 {
		t.Fatalf("landing page: %d %s", status, body)
	}
	style := checkStyleAdmitted(t, h, body)
	if !strings.Contains(style, "--primary-light:#ff0000;--primary-dark:#00ff00;") || !strings.Contains(style, "--tint-light:#123456;") {
		t.Errorf("the colors are not in the page's style: %q", style)
	}
	for _, want := range []string{
		`<title>Welcome · Acme Handbook</title>`, `data-mode="dark"`, `data-corners="straight"`, `data-tinted`, `data-toggle>`, `<script src="/sites/~assets/theme.js?v=`,
		`<link rel="icon" href="https://img.example.org/f.png">`,
		`<img class="logo logo-light" src="https://cdn.example.com/light.png" alt="">`,
		`<img class="logo logo-dark" src="https://cdn.example.com/dark.png" alt="">`,
		`<a class="brand" href="https://acme.example.com">`, `<a href="https://status.example.com">Status</a>`, `<a href="/sites/acme/guides/install">Setup</a>`,
		`<a href="https://blog.example.com">Blog</a>`, `© Acme Inc.`,
		`data-style="warning"`, `Version 2 is out`, `<meta property="og:image" content="https://cdn.example.com/card.png">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(body, `rel="next"`) {
		t.Error("pagination is off but the page links to the next one")
	}
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "img-src 'self' data: https://cdn.example.com https://img.example.org;") ||
		!strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q", csp)
	}
	checkHTML(t, body)
}

// TestSiteSpaceCustomizationOverrides: a site space's override applies to its pages only, and
// its removal gives them the site's settings again.
func TestSiteSpaceCustomizationOverrides(t *testing.T) {
	f := newSiteFixture(t)
	api := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "API"}))
	f.writeTo(t, api, page("Reference", "All the endpoints."))
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	f.addSiteSpace(t, api)
	f.customize(t, map[string]any{"title": "Acme Docs", "styling": map[string]any{"primaryColor": map[string]any{"light": "#ff0000", "dark": "#ff0000"}}})
	siteSpaces := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/sites/"+f.site+"/site-spaces", nil).Map(t)["items"].([]any)
	apiSiteSpace := siteSpaces[1].(map[string]any)["id"].(string)
	override := "/v1/orgs/" + f.org + "/sites/" + f.site + "/site-spaces/" + apiSiteSpace + "/customization"
	if r := f.e.Do(f.admin, "PATCH", override, map[string]any{"title": "Acme API",
		"styling": map[string]any{"primaryColor": map[string]any{"light": "#0000ff", "dark": "#0000ff"}}}); r.Status != 200 {
		t.Fatalf("override: %d %s", r.Status, r.Body)
	}
	_, h, body := f.get(t, "/sites/acme/api/")
	if style := checkStyleAdmitted(t, h, body); !strings.Contains(style, "--primary-light:#0000ff;") || !strings.Contains(body, "<title>Reference · Acme API</title>") {
		t.Errorf("the overridden site space's page: %q %s", style, body)
	}
	_, h, body = f.get(t, "/sites/acme/")
	if style := checkStyleAdmitted(t, h, body); !strings.Contains(style, "--primary-light:#ff0000;") || !strings.Contains(body, "<title>Welcome · Acme Docs</title>") {
		t.Errorf("the other site space's page: %q", style)
	}
	if r := f.e.Do(f.admin, "DELETE", override, nil); r.Status != 205 {
		t.Fatalf("delete override: %d %s", r.Status, r.Body)
	}
	if _, h, body = f.get(t, "/sites/acme/api/"); !strings.Contains(checkStyleAdmitted(t, h, body), "--primary-light:#ff0000;") {
		t.Error("the site's settings do not apply again once the override is gone")
	}
}

// TestCustomizationChangeShowsAtNextRequest: a page's tag changes with the customization, so a
// reader revalidating gets the new page, and the rendered-page cache does not answer the old one.
func TestCustomizationChangeShowsAtNextRequest(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	_, h, before := f.get(t, "/sites/acme/guides")
	f.customize(t, map[string]any{"styling": map[string]any{"primaryColor": map[string]any{"light": "#abcdef", "dark": "#abcdef"}}})
	req, _ := http.NewRequest("GET", f.e.Server.URL+"/sites/acme/guides", nil)
	req.Header.Set("If-None-Match", h.Get("ETag"))
	res, err := f.e.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("ETag") == h.Get("ETag") {
		t.Fatalf("after a customization change, revalidation answers %d with tag %s", res.StatusCode, res.Header.Get("ETag"))
	}
	_, h, after := f.get(t, "/sites/acme/guides")
	if strings.Contains(before, "#abcdef") || !strings.Contains(checkStyleAdmitted(t, h, after), "--primary-light:#abcdef;") {
		t.Fatal("the new color does not show at the next request")
	}
}

// TestCustomizationCannotInject: hostile settings are refused when written; written past the
// API, they reach the page as nothing worse than defaults and escaped text.
func TestCustomizationCannotInject(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	for _, hostile := range []map[string]any{
		{"styling": map[string]any{"primaryColor": map[string]any{"light": "red;}</style><script>alert(1)</script>", "dark": "#fff"}}},
		{"header": map[string]any{"logo": map[string]any{"light": "javascript:alert(1)", "dark": "https://cdn.example.com/x.png"}}},
		{"header": map[string]any{"links": []any{map[string]any{"title": "x", "to": map[string]any{"kind": "url", "url": "javascript:alert(1)"}, "links": []any{}}}}},
	} {
		if r := f.e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/sites/"+f.site+"/customization", hostile); r.Status != 400 {
			t.Errorf("hostile settings %v: %d %s", hostile, r.Status, r.Body)
		}
	}
	script := "<script>alert(1)</script>"
	f.setSite(t, func(u *ent.SiteUpdateOne) {
		u.SetCustomization(map[string]any{
			"title": "</title>" + script,
			"styling": map[string]any{
				"primaryColor": map[string]any{"light": "red;}</style>" + script, "dark": "#fff"},
				"tint":         map[string]any{"color": map[string]any{"light": "#000", "dark": "#000;background:url(https://evil.example/)"}},
				"theme":        `bold"><script>`, "corners": 7,
			},
			"themes": map[string]any{"default": `dark" onload="alert(1)`},
			"header": map[string]any{
				"logo":  map[string]any{"light": "javascript:alert(1)", "dark": "https://evil.example;script-src *"},
				"links": []any{map[string]any{"title": script, "to": map[string]any{"kind": "url", "url": "javascript:alert(1)"}, "links": "no"}},
			},
			"favicon":       map[string]any{"emoji": `"><script>alert(1)</script>`},
			"footer":        map[string]any{"copyright": script, "logo": "https://evil.example/"},
			"announcement":  map[string]any{"enabled": true, "message": `<img src=x onerror=alert(1)>`, "style": "info"},
			"socialPreview": map[string]any{"url": `javascript:alert(1)`},
		})
	})
	status, h, body := f.get(t, "/sites/acme/")
	if status != 200 {
		t.Fatalf("a page of a site with hostile settings: %d %s", status, body)
	}
	for _, bad := range []string{"<script>alert", "javascript:", "evil.example", "<img src=x", `onload="`, "red;"} {
		if strings.Contains(body, bad) {
			t.Errorf("the page holds %q: %s", bad, body)
		}
	}
	if csp := h.Get("Content-Security-Policy"); strings.Contains(csp, "evil") || strings.Contains(csp, "*") {
		t.Errorf("CSP %q", csp)
	}
	style := checkStyleAdmitted(t, h, body)
	if strings.Contains(style, "primary") || strings.Contains(style, "tint") {
		t.Errorf("invalid colors reach the style: %q", style)
	}
	for _, want := range []string{`data-mode="system"`, `data-theme="clean"`, `data-corners="rounded"`, "&lt;script&gt;alert(1)&lt;/script&gt;"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// suggest asks search as you type.
func (f *siteFixture) suggest(t *testing.T, read func(string) (int, string), path string) (int, map[string]any) {
	t.Helper()
	status, body := read(path)
	var answer map[string]any
	if err := json.Unmarshal([]byte(body), &answer); err != nil {
		t.Fatalf("%s: %d %s", path, status, body)
	}
	return status, answer
}

func resultURLs(answer map[string]any) []string {
	var urls []string
	results, _ := answer["results"].([]any)
	for _, r := range results {
		urls = append(urls, r.(map[string]any)["url"].(string))
	}
	return urls
}

func TestSearchAsYouType(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	_, h, _ := f.get(t, "/sites/acme/~search.json?q=guides")
	if h.Get("Content-Type") != "application/json; charset=utf-8" || h.Get("Cache-Control") != "public, max-age=60" {
		t.Errorf("headers %v", h)
	}
	read := f.reader(t)
	status, answer := f.suggest(t, read, "/sites/acme/~search.json?q=guides")
	if status != 200 || answer["query"] != "guides" || !strings.Contains(strings.Join(resultURLs(answer), " "), "/sites/acme/guides") {
		t.Fatalf("search as you type: %d %v", status, answer)
	}
	first := answer["results"].([]any)[0].(map[string]any)
	if first["title"] == nil || first["sections"] == nil || first["ancestors"] == nil {
		t.Errorf("a result lacks fields: %v", first)
	}
	if _, answer := f.suggest(t, read, "/sites/acme/~search.json?q=hidden"); len(resultURLs(answer)) != 0 {
		t.Errorf("a hidden page is suggested: %v", answer)
	}
	if _, answer := f.suggest(t, read, "/sites/acme/~search.json"); answer["results"] == nil || len(resultURLs(answer)) != 0 {
		t.Errorf("no query: %v", answer)
	}
	status, answer = f.suggest(t, read, "/sites/acme/~search.json?q="+strings.Repeat("x", 600))
	if e, _ := answer["error"].(map[string]any); status != 400 || e["code"] != float64(400) || !strings.Contains(e["message"].(string), "at most 512") {
		t.Errorf("an over-long query: %d %v", status, answer)
	}
	if status, answer := f.suggest(t, read, "/sites/acme/nope/~search.json?q=guides"); status != 404 || answer["error"] == nil {
		t.Errorf("under no site space: %d %v", status, answer)
	}
}

func TestSearchAsYouTypeOnAShareLinkSite(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) {
		u.SetPublished(true).SetBasename("acme").SetVisibility("share-link")
	})
	links := "/v1/orgs/" + f.org + "/sites/" + f.site + "/share-links"
	created := f.e.Do(f.admin, "POST", links, map[string]any{"name": "Partners"}).Map(t)
	published, _ := url.Parse(created["urls"].(map[string]any)["published"].(string))
	key := published.Query().Get("shareKey")
	read := f.reader(t)
	if status, answer := f.suggest(t, read, "/sites/acme/~search.json?q=guides"); status != 404 || answer["error"].(map[string]any)["code"] != float64(404) {
		t.Fatalf("without a key: %d %v", status, answer)
	}
	if status, _ := read("/sites/acme/?shareKey=" + key); status != 200 {
		t.Fatalf("with the link's key: %d", status)
	}
	status, answer := f.suggest(t, read, "/sites/acme/~search.json?q=guides")
	if status != 200 || len(resultURLs(answer)) == 0 {
		t.Fatalf("with the key kept: %d %v", status, answer)
	}
	if _, h, _ := f.get(t, "/sites/acme/~search.json?q=guides&shareKey="+key); h.Get("Cache-Control") != "private, no-cache" {
		t.Errorf("share-link results are cached publicly: %q", h.Get("Cache-Control"))
	}
	f.e.Do(f.admin, "DELETE", links+"/"+created["id"].(string), nil)
	if status, _ := f.suggest(t, read, "/sites/acme/~search.json?q=guides"); status != 404 {
		t.Fatalf("a revoked link still searches: %d", status)
	}
}

// TestSearchAsYouTypeFollowsConditions: the site space a condition hides cannot be searched;
// once the reader's claims show it, it can.
func TestSearchAsYouTypeFollowsConditions(t *testing.T) {
	f := newSiteFixture(t)
	beta := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "Beta"}))
	f.writeTo(t, beta, page("Beta features", "Try them."))
	f.addSiteSpace(t, beta)
	setBetaCondition(t, f, beta)
	read := f.reader(t)
	if status, answer := f.suggest(t, read, "/sites/acme/api/~search.json?q=beta"); status != 404 {
		t.Fatalf("the hidden site space answers %d %v", status, answer)
	}
	if _, answer := f.suggest(t, read, "/sites/acme/~search.json?q=beta"); len(resultURLs(answer)) != 0 {
		t.Fatalf("the visible site space suggests the hidden one's pages: %v", answer)
	}
	status, answer := f.suggest(t, read, "/sites/acme/api/~search.json?q=beta&visitor.beta=true")
	if status != 200 || strings.Join(resultURLs(answer), " ") != "/sites/acme/api/" {
		t.Fatalf("with the claim: %d %v", status, answer)
	}
}

// TestCustomizationCostsNoStatement: a customized page is read with the statements of a plain
// one (the settings come with the site's and the site space's rows, header links resolve in the
// tree read), and search as you type with those of the results page.
func TestCustomizationCostsNoStatement(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	statements := func(path string) int64 {
		f.get(t, path) // the rendered page is cached: each read costs the same afterwards
		return f.e.Statements(func() { f.get(t, path) })
	}
	plain := statements("/sites/acme/guides")
	t.Logf("a page: %d statements", plain)
	f.customize(t, f.customization(t))
	if customized := statements("/sites/acme/guides"); customized != plain {
		t.Errorf("a customized page costs %d statements, a plain one %d", customized, plain)
	}
	if results, suggestions := statements("/sites/acme/~search?q=guides"), statements("/sites/acme/~search.json?q=guides"); suggestions != results {
		t.Errorf("search as you type costs %d statements, the results page %d", suggestions, results)
	}
}

// TestSearchAsYouTypeOnAVisitorAuthSite: without a token, search as you type answers 401 as JSON,
// even when the site has a fallback URL (a script cannot follow a sign-in redirect).
func TestSearchAsYouTypeOnAVisitorAuthSite(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) {
		u.SetPublished(true).SetBasename("acme").SetVisibility("visitor-auth")
	})
	authURL := "/v1/orgs/" + f.org + "/sites/" + f.site + "/publishing/auth"
	f.e.Do(f.admin, "PATCH", authURL, map[string]any{"fallbackURL": "https://auth.example.com/login"})
	status, answer := f.suggest(t, f.reader(t), "/sites/acme/~search.json?q=guides")
	if e, _ := answer["error"].(map[string]any); status != 401 || e["code"] != float64(401) {
		t.Fatalf("without a token: %d %v", status, answer)
	}
}

// TestHeaderLinksFollowConditions: a header link whose condition the reader's claims do not
// satisfy is left out, and readers with and without the claim never share a cached page.
func TestHeaderLinksFollowConditions(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme").SetAdaptiveSchema(betaSchema()) })
	f.customize(t, map[string]any{"header": map[string]any{"links": []any{map[string]any{
		"title": "Beta program", "condition": "visitor.claims.unsigned.beta",
		"to": map[string]any{"kind": "url", "url": "https://beta.example.com"}, "links": []any{}}}}})
	_, plainHeaders, plain := f.get(t, "/sites/acme/guides")
	_, betaHeaders, beta := f.get(t, "/sites/acme/guides?visitor.beta=true")
	if strings.Contains(plain, "Beta program") || !strings.Contains(beta, `<a href="https://beta.example.com">Beta program</a>`) {
		t.Fatalf("the conditional link: without the claim %v, with it %v", strings.Contains(plain, "Beta program"), strings.Contains(beta, "Beta program"))
	}
	if plainHeaders.Get("ETag") == betaHeaders.Get("ETag") {
		t.Error("readers with and without the claim share a tag")
	}
	if _, _, again := f.get(t, "/sites/acme/guides"); strings.Contains(again, "Beta program") {
		t.Error("the cache answers a reader without the claim with the page of one who has it")
	}
}
