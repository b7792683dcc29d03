package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

type publishedWire struct {
	Organization, Site, SiteSection, SiteSpace, Space, Revision, Page string
	Pathname, BasePath, SiteBasePath, CanonicalURL, ShareKey          string
	Complete                                                          bool
}

// TestPublishedContentByURL resolves published pages' URLs (under /sites/, with and without a
// share key, at a custom hostname) to what they show their reader, and getContentByUrl to the
// space and page as the caller reads them.
func TestPublishedContentByURL(t *testing.T) {
	f := newContentFixture(t)
	e := f.e
	site := authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites", map[string]any{"title": "Docs", "spaces": []string{f.space}}))
	sitePath := "/v1/orgs/" + f.org + "/sites/" + site
	if r := e.Do(f.admin, "PATCH", sitePath, map[string]any{"visibility": "share-link", "hostname": "docs.acme.test"}); r.Status != http.StatusOK {
		t.Fatalf("site: %d %s", r.Status, r.Body)
	}
	if r := e.Do(f.admin, "POST", sitePath+"/publish", nil); r.Status >= 300 {
		t.Fatalf("publish: %d %s", r.Status, r.Body)
	}
	link := e.Do(f.admin, "POST", sitePath+"/share-links", map[string]any{"name": "Partners"}).Map(t)
	published, _ := url.Parse(link["urls"].(map[string]any)["published"].(string))
	key := published.Query().Get("shareKey")
	pageURL := e.Server.URL + "/sites/" + site + "/guides/getting-started"
	lookup := func(a testenv.Actor, raw string) testenv.Response {
		return e.Do(a, "GET", "/v1/urls/published?url="+url.QueryEscape(raw), nil)
	}
	resolve := func(t *testing.T, r testenv.Response) publishedWire {
		t.Helper()
		if r.Status != http.StatusOK {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		var w publishedWire
		r.JSON(t, &w)
		return w
	}
	wantPage := func(t *testing.T, w publishedWire, page string) {
		t.Helper()
		if w.Organization != f.org || w.Site != site || w.Space != f.space || w.Revision == "" || w.Page != f.pages[page] || w.SiteSpace == "" || !w.Complete {
			t.Fatalf("%+v, want page %s", w, page)
		}
	}

	t.Run("ShareKey", func(t *testing.T) {
		w := resolve(t, lookup(f.admin, pageURL+"?shareKey="+key))
		wantPage(t, w, "guides/getting-started")
		if w.Pathname != "guides/getting-started" || w.SiteBasePath != "/sites/"+site+"/" || w.BasePath != w.SiteBasePath ||
			w.CanonicalURL != pageURL || w.ShareKey != key {
			t.Fatalf("paths: %+v", w)
		}
		// Any member of another organization resolves it as a reader would: the key decides.
		wantPage(t, resolve(t, lookup(f.outsider, pageURL+"?share="+key)), "guides/getting-started")
	})
	t.Run("Landing", func(t *testing.T) {
		w := resolve(t, lookup(f.admin, e.Server.URL+"/sites/"+site+"?shareKey="+key))
		wantPage(t, w, "guides") // the space's first document
		if w.Pathname != "" || w.CanonicalURL != e.Server.URL+"/sites/"+site+"/" {
			t.Fatalf("the landing page: %+v", w)
		}
	})
	t.Run("CustomHostname", func(t *testing.T) {
		w := resolve(t, e.Do(f.admin, "POST", "/v1/urls/published", map[string]any{"url": "https://Docs.Acme.test/api.md?shareKey=" + key,
			"visitor": map[string]any{"type": "agent", "unsignedClaims": map[string]any{"plan": "pro"}}}))
		wantPage(t, w, "api")
		if w.SiteBasePath != "/" || w.CanonicalURL != "https://Docs.Acme.test/api" {
			t.Fatalf("at the hostname: %+v", w)
		}
	})
	t.Run("GraphQL", func(t *testing.T) {
		g := e.GraphQL(f.admin, `query($u: String!) { publishedContentByUrl(url: $u) { organizationId siteId spaceId revisionId pageId canonicalUrl } }`,
			map[string]any{"u": pageURL + "?shareKey=" + key})
		var d struct {
			P struct{ OrganizationID, SiteID, SpaceID, RevisionID, PageID, CanonicalURL string } `json:"publishedContentByUrl"`
		}
		if err := json.Unmarshal(g.Data, &d); err != nil || len(g.Errors) > 0 {
			t.Fatalf("%s %v", g.Data, g.Errors)
		}
		if d.P.OrganizationID != f.org || d.P.SiteID != site || d.P.SpaceID != f.space || d.P.PageID != f.pages["guides/getting-started"] || d.P.CanonicalURL != pageURL {
			t.Fatalf("%+v", d.P)
		}
	})
	t.Run("ContentByURLAsTheCaller", func(t *testing.T) {
		var got struct {
			Space *struct{ ID string }
			Page  *struct{ ID string }
		}
		r := e.Do(f.admin, "GET", "/v1/urls/content?url="+url.QueryEscape("https://docs.acme.test/guides/caf%C3%A9?shareKey="+key), nil)
		if r.Status != http.StatusOK {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		r.JSON(t, &got)
		if got.Space == nil || got.Space.ID != f.space || got.Page == nil || got.Page.ID != f.pages["guides/café"] {
			t.Fatalf("%+v", got)
		}
		// The reader's key finds the page; the caller must still read the space: another
		// organization's member does not.
		testenv.CheckError(t, e.Do(f.outsider, "GET", "/v1/urls/content?url="+url.QueryEscape(pageURL+"?shareKey="+key), nil), http.StatusNotFound)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, raw := range []string{
			pageURL,                                        // no key
			pageURL + "?shareKey=wrong",                    // a wrong key
			pageURL + "x?shareKey=" + key,                  // no such page
			e.Server.URL + "/sites/nosuch/guides",          // no such site
			"https://nosuch.acme.test/guides",              // no site at that hostname
			e.Server.URL + "/o/" + f.org + "/s/" + f.space, // an app URL
		} {
			testenv.CheckError(t, lookup(f.admin, raw), http.StatusNotFound)
		}
	})
	// A URL the site would redirect resolves to where the site sends its reader (decision 522).
	t.Run("SiteRedirects", func(t *testing.T) {
		var siteSpaces struct{ Items []struct{ ID string } }
		e.Do(f.admin, "GET", sitePath+"/site-spaces", nil).JSON(t, &siteSpaces)
		ss := siteSpaces.Items[0].ID
		for _, body := range []map[string]any{
			{"source": "/old", "permanent": true, "destination": map[string]any{"kind": "site-page", "siteSpaceId": ss, "pageId": f.pages["api"]}},
			{"source": "/v1/*", "captureWildcard": true, "destination": map[string]any{"kind": "site-space", "siteSpaceId": ss}},
			{"source": "/loop", "destination": map[string]any{"kind": "external", "url": "https://example.com/elsewhere"}},
		} {
			if r := e.Do(f.admin, "POST", sitePath+"/redirects", body); r.Status != http.StatusCreated {
				t.Fatalf("redirect %v: %d %s", body, r.Status, r.Body)
			}
		}
		root := e.Server.URL + "/sites/" + site
		wantPage(t, resolve(t, lookup(f.admin, root+"/old?shareKey="+key)), "api")
		w := resolve(t, lookup(f.admin, root+"/v1/guides/getting-started?shareKey="+key))
		wantPage(t, w, "guides/getting-started")
		if w.CanonicalURL != pageURL || w.ShareKey != key {
			t.Errorf("followed through a wildcard: %+v", w)
		}
		external := lookup(f.admin, root+"/loop?shareKey="+key).Map(t)
		if external["target"] != "external" || external["site"] != site || external["redirect"] != "https://example.com/elsewhere" {
			t.Errorf("an external redirect: %v", external)
		}
		g := e.GraphQL(f.admin, `query($u: String!) { publishedContentByUrl(url: $u) { pageId } }`, map[string]any{"u": root + "/loop?shareKey=" + key})
		if len(g.Errors) != 1 || !strings.Contains(g.Errors[0].Message, "outside") {
			t.Errorf("GraphQL, an external redirect: %v", g.Errors)
		}
		testenv.CheckError(t, lookup(f.admin, root+"/old"), http.StatusNotFound) // no key: the site shows nothing, nor its redirects
		g = e.GraphQL(f.admin, `query($u: String!) { publishedContentByUrl(url: $u) { pageId } }`, map[string]any{"u": root + "/old?shareKey=" + key})
		if len(g.Errors) > 0 || !strings.Contains(string(g.Data), f.pages["api"]) {
			t.Errorf("GraphQL: %v %s", g.Errors, g.Data)
		}
	})
	// A page's old path resolves to the page where it is now, as the site redirects its reader.
	t.Run("MovedPage", func(t *testing.T) {
		mergeContent(t, e, f.admin, f.space, map[string]any{"operation": "update_page", "page": f.pages["guides/getting-started"], "slug": "first-steps"})
		w := resolve(t, lookup(f.admin, pageURL+"?shareKey="+key))
		wantPage(t, w, "guides/getting-started")
		if w.Pathname != "guides/first-steps" || w.CanonicalURL != e.Server.URL+"/sites/"+site+"/guides/first-steps" {
			t.Fatalf("the page's old path: %+v", w)
		}
		testenv.CheckError(t, lookup(f.admin, pageURL), http.StatusNotFound) // without the key, nothing
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		testenv.CheckError(t, e.Do(f.admin, "GET", "/v1/urls/published", nil), http.StatusBadRequest)
		testenv.CheckError(t, e.Do(f.admin, "POST", "/v1/urls/published", map[string]any{}), http.StatusBadRequest)
		testenv.CheckError(t, e.Do(f.admin, "POST", "/v1/urls/published", map[string]any{"url": pageURL, "visitor": map[string]any{"type": "robot"}}), http.StatusBadRequest)
		testenv.CheckError(t, e.Do(f.admin, "GET", "/v1/urls/published?url=x&redirectOnError=maybe", nil), http.StatusBadRequest)
		for _, raw := range []string{"", "/sites/" + site, "ftp://docs.acme.test/", "::"} {
			testenv.CheckError(t, lookup(f.admin, raw), http.StatusBadRequest)
		}
	})
}
