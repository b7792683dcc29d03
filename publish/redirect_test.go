package publish_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/site"
)

// redirect creates a site redirect through the API.
func (f *siteFixture) redirect(t *testing.T, body map[string]any) {
	t.Helper()
	if r := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites/"+f.site+"/redirects", body); r.Status != http.StatusCreated {
		t.Fatalf("redirect %v: %d %s", body, r.Status, r.Body)
	}
}

// wantRedirect asserts that a site path answers status with Location want.
func (f *siteFixture) wantRedirect(t *testing.T, path string, status int, want string) http.Header {
	t.Helper()
	got, h, body := f.get(t, path)
	if got != status || h.Get("Location") != want {
		t.Fatalf("%s: %d to %q, want %d to %q (%.200s)", path, got, h.Get("Location"), status, want, body)
	}
	return h
}

func TestSiteRedirectsServed(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	var siteSpaces struct{ Items []struct{ ID string } }
	f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/sites/"+f.site+"/site-spaces", nil).JSON(t, &siteSpaces)
	ss := siteSpaces.Items[0].ID
	install := f.pageID(t, "guides/install")
	f.redirect(t, map[string]any{"source": "/old", "permanent": true,
		"destination": map[string]any{"kind": "site-page", "siteSpaceId": ss, "pageId": install}})
	f.redirect(t, map[string]any{"source": "/temp", "destination": map[string]any{"kind": "external", "url": "https://example.com/x?a=1#top"}})
	f.redirect(t, map[string]any{"source": "/v1/*", "captureWildcard": true, "destination": map[string]any{"kind": "site-space", "siteSpaceId": ss}})
	f.redirect(t, map[string]any{"source": "/v1/guides/*", "destination": map[string]any{"kind": "external", "url": "https://example.com/guides"}})
	f.redirect(t, map[string]any{"source": "/guides", "permanent": true, "destination": map[string]any{"kind": "external", "url": "https://example.com/"}})
	f.redirect(t, map[string]any{"source": "/draft", "draft": true, "destination": map[string]any{"kind": "external", "url": "https://example.com/"}})

	t.Run("OKPermanent", func(t *testing.T) {
		h := f.wantRedirect(t, "/sites/acme/old", http.StatusPermanentRedirect, "/sites/acme/guides/install")
		if h.Get("Cache-Control") != "public, max-age=60" {
			t.Errorf("Cache-Control %q", h.Get("Cache-Control"))
		}
		f.wantRedirect(t, "/sites/acme/old/?x=1&y=%C3%A9", http.StatusPermanentRedirect, "/sites/acme/guides/install?x=1&y=%C3%A9")
	})
	t.Run("OKTemporaryExternal", func(t *testing.T) {
		f.wantRedirect(t, "/sites/acme/temp?b=2&shareKey=k&jwt_token=t", http.StatusTemporaryRedirect, "https://example.com/x?a=1&b=2#top")
	})
	t.Run("OKWildcard", func(t *testing.T) {
		f.wantRedirect(t, "/sites/acme/v1/welcome", http.StatusTemporaryRedirect, "/sites/acme/welcome")
		f.wantRedirect(t, "/sites/acme/v1", http.StatusTemporaryRedirect, "/sites/acme/")
		f.wantRedirect(t, "/sites/acme/v1/guides/install", http.StatusTemporaryRedirect, "https://example.com/guides") // the longest prefix
	})
	t.Run("OKPageWins", func(t *testing.T) {
		if status, _, body := f.get(t, "/sites/acme/guides"); status != 200 || !strings.Contains(body, "<h1>Guides</h1>") {
			t.Fatalf("a page's path is redirected: %d", status)
		}
	})
	t.Run("ErrDraftNotServed", func(t *testing.T) {
		if status, _, _ := f.get(t, "/sites/acme/draft"); status != 404 {
			t.Fatalf("a draft redirect is served: %d", status)
		}
	})
	t.Run("OKCustomHostname", func(t *testing.T) {
		f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetHostname("docs.acme.test") })
		req, _ := http.NewRequest("GET", f.e.Server.URL+"/old", nil)
		req.Host = "docs.acme.test"
		client := f.e.Server.Client()
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusPermanentRedirect || res.Header.Get("Location") != "/guides/install" {
			t.Fatalf("on the hostname: %d %q", res.StatusCode, res.Header.Get("Location"))
		}
	})
	t.Run("OKShareLinkSiteAfterAdmission", func(t *testing.T) {
		f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetVisibility(site.VisibilityShareLink) })
		_, _, unknown := f.get(t, "/sites/acme/no-such-page")
		if status, _, body := f.get(t, "/sites/acme/old"); status != 404 || body != unknown {
			t.Fatalf("a reader without a key learns of a redirect: %d %s", status, body)
		}
		created := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites/"+f.site+"/share-links", map[string]any{"name": "Partners"}).Map(t)
		published, _ := url.Parse(created["urls"].(map[string]any)["published"].(string))
		key := published.Query().Get("shareKey")
		jar, _ := cookiejar.New(nil)
		browser := &http.Client{Jar: jar}
		if res := f.fetch(t, browser, "/sites/acme/?shareKey="+key); res.StatusCode != 200 {
			t.Fatalf("admission: %d", res.StatusCode)
		}
		// A permanent redirect is temporary where the audience is not everyone.
		res := f.fetch(t, browser, "/sites/acme/old")
		if res.StatusCode != http.StatusTemporaryRedirect || res.Header.Get("Location") != "/sites/acme/guides/install" ||
			res.Header.Get("Cache-Control") != "private, no-cache" {
			t.Fatalf("admitted reader: %d %q %q", res.StatusCode, res.Header.Get("Location"), res.Header.Get("Cache-Control"))
		}
	})
}

// fetch gets a site URL with a client's cookies, without following redirects.
func (f *siteFixture) fetch(t *testing.T, client *http.Client, path string) *http.Response {
	t.Helper()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := client.Get(f.e.Server.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

func TestMovedPagesRedirect(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	guides, install := f.pageID(t, "guides"), f.pageID(t, "guides/install")
	rename := func(id, slug string) map[string]any {
		return map[string]any{"operation": "update_page", "page": id, "slug": slug}
	}
	f.write(t, rename(guides, "manual"))
	t.Run("OKRenamed", func(t *testing.T) {
		f.wantRedirect(t, "/sites/acme/guides", http.StatusPermanentRedirect, "/sites/acme/manual")
		f.wantRedirect(t, "/sites/acme/guides/install?ref=old", http.StatusPermanentRedirect, "/sites/acme/manual/install?ref=old")
		f.wantRedirect(t, "/sites/acme/guides/install.md", http.StatusPermanentRedirect, "/sites/acme/manual/install.md")
		if status, _, body := f.get(t, "/sites/acme/manual/install"); status != 200 || !strings.Contains(body, "<h1>Install</h1>") {
			t.Fatalf("the new path: %d", status)
		}
	})
	f.write(t, rename(guides, "handbook"))
	t.Run("OKChainInOneHop", func(t *testing.T) {
		f.wantRedirect(t, "/sites/acme/guides/install", http.StatusPermanentRedirect, "/sites/acme/handbook/install")
		f.wantRedirect(t, "/sites/acme/manual/install", http.StatusPermanentRedirect, "/sites/acme/handbook/install")
	})
	f.write(t, map[string]any{"operation": "update_page", "page": install, "into": nil})
	t.Run("OKMovedOut", func(t *testing.T) {
		f.wantRedirect(t, "/sites/acme/guides/install", http.StatusPermanentRedirect, "/sites/acme/install")
		f.wantRedirect(t, "/sites/acme/handbook/install", http.StatusPermanentRedirect, "/sites/acme/install")
	})
	f.write(t, page("Manual", "A new page where the old one was.", "slug", "manual"))
	t.Run("OKReusedPathWins", func(t *testing.T) {
		if status, _, body := f.get(t, "/sites/acme/manual"); status != 200 || !strings.Contains(body, "A new page where the old one was.") {
			t.Fatalf("a path a page holds again: %d", status)
		}
		f.wantRedirect(t, "/sites/acme/guides", http.StatusPermanentRedirect, "/sites/acme/handbook")
	})
	t.Run("OKUnlisted", func(t *testing.T) {
		f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetVisibility(site.VisibilityUnlisted) })
		f.wantRedirect(t, "/sites/acme/guides", http.StatusPermanentRedirect, "/sites/acme/handbook")
	})
}

// TestRedirectLookupStatements: a path that names no page costs the same statements whatever the
// number of the site's redirects and of the space's moved pages, and so does following one.
func TestRedirectLookupStatements(t *testing.T) {
	count := func(n int) (missing, moved, redirected int64) {
		f := newSiteFixture(t)
		f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
		guides := f.pageID(t, "guides")
		var pages []map[string]any
		for i := range n {
			pages = append(pages, page(fmt.Sprintf("Step %d", i), "Text.", "into", guides))
		}
		f.write(t, pages...)
		f.write(t, map[string]any{"operation": "update_page", "page": guides, "slug": "manual"})
		var items []any
		for i := range n {
			items = append(items, map[string]any{"source": fmt.Sprintf("/old-%d/*", i), "destination": map[string]any{"kind": "external", "url": "https://example.com/"}})
		}
		f.e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/sites/"+f.site+"/redirects", map[string]any{"redirects": items})
		measure := func(path string, status int) int64 {
			f.get(t, path) // warms the content caches
			return f.e.Statements(func() {
				if got, _, _ := f.get(t, path); got != status {
					t.Fatalf("%s: %d", path, got)
				}
			})
		}
		return measure("/sites/acme/no/such/page", 404), measure("/sites/acme/guides/install", 308),
			measure("/sites/acme/old-1/a/b", 307)
	}
	fewMissing, fewMoved, fewRedirected := count(2)
	manyMissing, manyMoved, manyRedirected := count(40)
	t.Logf("statements: missing %d/%d, moved %d/%d, redirected %d/%d", fewMissing, manyMissing, fewMoved, manyMoved, fewRedirected, manyRedirected)
	if fewMissing != manyMissing || fewMoved != manyMoved || fewRedirected != manyRedirected {
		t.Fatal("statements grow with the redirects or the moved pages")
	}
}

// TestRenamesKeepURLs: renaming a section or a site space keeps every URL under its old path,
// with a permanent redirect recorded with the rename (listed with the site's redirects); a path
// taken back drops the redirect that led from it; the default section's path is in no URL.
func TestRenamesKeepURLs(t *testing.T) {
	f := newSiteFixture(t)
	base := "/v1/orgs/" + f.org + "/sites/" + f.site
	api := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "API"}))
	f.writeTo(t, api, page("Endpoints", "All of them.", "ref", "endpoints"), page("Auth", "Tokens.", "into", "endpoints"))
	f.created(t, f.e.Do(f.admin, "POST", base+"/sections", map[string]any{"spaceId": f.space, "title": "Docs"}))
	section := f.created(t, f.e.Do(f.admin, "POST", base+"/sections", map[string]any{"spaceId": api, "title": "Beta"}))
	extra := f.created(t, f.e.Do(f.admin, "POST", base+"/site-spaces", map[string]any{"spaceId": f.space, "sectionId": section}))
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	patch := func(path string, body map[string]any) {
		t.Helper()
		if r := f.e.Do(f.admin, "PATCH", base+path, body); r.Status != 200 {
			t.Fatalf("PATCH %s: %d %s", path, r.Status, r.Body)
		}
	}
	patch("/site-spaces/"+extra, map[string]any{"path": "guide"})
	status, _, _ := f.get(t, "/sites/acme/beta/guide/guides/install")
	if status != 200 {
		t.Fatalf("the renamed site space's page: %d", status)
	}
	patch("/sections/"+section, map[string]any{"path": "gamma"})
	patch("/site-spaces/"+extra, map[string]any{"path": "manual"})

	f.wantRedirect(t, "/sites/acme/beta", http.StatusPermanentRedirect, "/sites/acme/gamma/")
	f.wantRedirect(t, "/sites/acme/beta/endpoints/auth?x=1", http.StatusPermanentRedirect, "/sites/acme/gamma/endpoints/auth?x=1")
	f.wantRedirect(t, "/sites/acme/gamma/guide/guides/install", http.StatusPermanentRedirect, "/sites/acme/gamma/manual/guides/install")
	var listed struct {
		Items []struct {
			Source                     string
			Permanent, CaptureWildcard bool
		}
	}
	f.e.Do(f.admin, "GET", base+"/redirects?orderBy=source", nil).JSON(t, &listed)
	if fmt.Sprint(listed.Items) != "[{/beta/* true true} {/beta/docs/* true true} {/gamma/guide/* true true}]" {
		t.Errorf("recorded redirects: %v", listed.Items)
	}

	patch("/sections/"+section, map[string]any{"path": "beta"})
	f.e.Do(f.admin, "GET", base+"/redirects?orderBy=source", nil).JSON(t, &listed)
	if fmt.Sprint(listed.Items) != "[{/beta/docs/* true true} {/gamma/* true true} {/gamma/guide/* true true}]" {
		t.Errorf("after taking the old path back: %v", listed.Items)
	}
	if status, _, body := f.get(t, "/sites/acme/beta/endpoints/auth"); status != 200 || !strings.Contains(body, "<h1>Auth</h1>") {
		t.Errorf("the path taken back: %d", status)
	}
}
