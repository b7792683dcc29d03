package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/siteredirect"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/redirects"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// redirectFixture is the sharing fixture's site with two pages in its Docs space.
type redirectFixture struct {
	*sharingFixture
	welcome, install string // page ids in the Docs space (the site's default site space)
}

func newRedirectFixture(t *testing.T) *redirectFixture {
	t.Helper()
	f := &redirectFixture{sharingFixture: newSharingFixture(t)}
	answer := mergeContent(t, f.e, f.admin, f.docs, insert("Welcome", "Hi."), insert("Install", "Steps."))
	f.welcome, f.install = createdID(t, answer, 0), createdID(t, answer, 1)
	return f
}

// mergeContent applies changes to a space through a change request it merges, and returns the
// content batch's compat=false answer.
func mergeContent(t *testing.T, e *testenv.Env, a testenv.Actor, spaceID string, changes ...map[string]any) map[string]any {
	t.Helper()
	base := "/v1/spaces/" + spaceID + "/change-requests"
	n := e.Do(a, "POST", base, map[string]any{"subject": "Pages"}).Map(t)["number"].(float64)
	cr := fmt.Sprintf("%s/%d", base, int(n))
	r := e.Do(a, "POST", cr+"/content?compat=false", map[string]any{"changes": changes})
	if r.Status != http.StatusOK {
		t.Fatalf("content: %d %s", r.Status, r.Body)
	}
	if m := e.Do(a, "POST", cr+"/merge", nil); m.Status != http.StatusOK {
		t.Fatalf("merge: %d %s", m.Status, m.Body)
	}
	return r.Map(t)
}

type wireRedirect struct {
	ID, Source                        string
	Draft, CaptureWildcard, Permanent bool
	Destination                       map[string]any
	CreatedAt                         string
	UpdatedAt                         *string
}

func (f *redirectFixture) create(t *testing.T, body map[string]any) wireRedirect {
	t.Helper()
	r := f.e.Do(f.admin, "POST", f.at("redirects"), body)
	if r.Status != http.StatusCreated {
		t.Fatalf("create redirect %v: %d %s", body, r.Status, r.Body)
	}
	var red wireRedirect
	r.JSON(t, &red)
	return red
}

func external(u string) map[string]any { return map[string]any{"kind": "external", "url": u} }

// sources lists the sources of a list of redirects, in order.
func (f *redirectFixture) sources(t *testing.T, query string) string {
	t.Helper()
	var l struct{ Items []wireRedirect }
	f.e.Do(f.admin, "GET", f.at("redirects")+query, nil).JSON(t, &l)
	var out []string
	for _, red := range l.Items {
		out = append(out, red.Source)
	}
	return strings.Join(out, ",")
}

func (f *redirectFixture) lookup(t *testing.T, a testenv.Actor, query string) (int, map[string]any) {
	t.Helper()
	r := f.e.Do(a, "GET", f.at("redirect")+query, nil)
	if r.Status != http.StatusOK {
		return r.Status, nil
	}
	return r.Status, r.Map(t)
}

func TestSiteRedirects(t *testing.T) {
	f := newRedirectFixture(t)
	siteURL := f.e.Server.URL + "/sites/" + f.site
	old := f.create(t, map[string]any{"source": "/old", "destination": external("https://example.com/new?from=docs"), "permanent": true})
	page := f.create(t, map[string]any{"source": "/setup", "destination": map[string]any{"kind": "site-page",
		"siteSpaceId": f.siteSpaces[0], "pageId": f.install}})
	byPath := f.create(t, map[string]any{"source": "/start", "destination": map[string]any{"kind": "path",
		"spaceId": f.docs, "path": "welcome"}})
	wild := f.create(t, map[string]any{"source": "/v1/*", "destination": map[string]any{"kind": "site-space",
		"siteSpaceId": f.siteSpaces[1]}, "captureWildcard": true})
	draft := f.create(t, map[string]any{"source": "/old", "destination": external("https://example.com/draft"), "draft": true})

	t.Run("OKCreated", func(t *testing.T) {
		if !old.Permanent || old.Draft || old.CaptureWildcard || old.UpdatedAt != nil || old.Destination["url"] != "https://example.com/new?from=docs" {
			t.Fatalf("external: %+v", old)
		}
		if byPath.Destination["kind"] != "site-page" || byPath.Destination["pageId"] != f.welcome || byPath.Destination["siteSpaceId"] != f.siteSpaces[0] {
			t.Fatalf("a path destination is stored as the page it names: %+v", byPath.Destination)
		}
		if !wild.CaptureWildcard || wild.Destination["kind"] != "site-space" || !draft.Draft {
			t.Fatalf("wildcard %+v, draft %+v", wild, draft)
		}
	})
	t.Run("OKListLiveNewestFirst", func(t *testing.T) {
		if got := f.sources(t, ""); got != "/v1/*,/start,/setup,/old" {
			t.Fatalf("live redirects: %s", got)
		}
		if got := f.sources(t, "?draft=true"); got != "/old" {
			t.Fatalf("drafts: %s", got)
		}
		if got := f.sources(t, "?orderBy=source"); got != "/old,/setup,/start,/v1/*" {
			t.Fatalf("by source: %s", got)
		}
		if got := f.sources(t, "?search=ST"); got != "/start" {
			t.Fatalf("search: %s", got)
		}
	})
	t.Run("OKPages", func(t *testing.T) {
		var first struct {
			Items []wireRedirect
			Next  struct{ Page string }
			Count int
		}
		f.e.Do(f.admin, "GET", f.at("redirects")+"?orderBy=source&limit=3", nil).JSON(t, &first)
		if len(first.Items) != 3 || first.Next.Page == "" || first.Count != 4 {
			t.Fatalf("first page: %+v", first)
		}
		if got := f.sources(t, "?orderBy=source&limit=3&page="+first.Next.Page); got != "/v1/*" {
			t.Fatalf("second page: %s", got)
		}
	})
	t.Run("OKLookup", func(t *testing.T) {
		cases := map[string]string{
			"/old":          "https://example.com/new?from=docs",
			"/setup":        siteURL + "/install",
			"/v1/a/b":       siteURL + "/api-reference/a/b", // the wildcard's match is captured
			"/v1":           siteURL + "/api-reference/",
			"/v1/*":         siteURL + "/api-reference/", // a wildcard source names its redirect
			"/st%61rt":      siteURL + "/welcome",        // sources compare in canonical form
			"/v1/caf%c3%a9": siteURL + "/api-reference/caf%C3%A9",
		}
		for source, want := range cases {
			status, got := f.lookup(t, f.reader, "?source="+url.QueryEscape(source))
			if status != 200 || got["target"] != want {
				t.Errorf("%s: %d %v, want target %s", source, status, got, want)
			}
		}
		if status, _ := f.lookup(t, f.reader, "?source=/nothing"); status != 404 {
			t.Errorf("no match: %d", status)
		}
	})
	t.Run("OKLookupWithShareKey", func(t *testing.T) {
		key := keyOf(t, f.createLink(t, "Partners"))
		_, got := f.lookup(t, f.admin, "?source=/setup&shareKey="+key)
		if got["target"] != siteURL+"/install?shareKey="+key {
			t.Fatalf("a target on the site does not carry the key: %v", got["target"])
		}
		if _, got := f.lookup(t, f.admin, "?source=/old&shareKey="+key); got["target"] != "https://example.com/new?from=docs" {
			t.Fatalf("an external target carries the key: %v", got["target"])
		}
		wantError(t, f.e.Do(f.admin, "GET", f.at("redirect")+"?source=/old&shareKey=wrong", nil), 404, "shareKey")
	})
	t.Run("OKUpdate", func(t *testing.T) {
		var red wireRedirect
		f.e.Do(f.admin, "PATCH", f.at("redirects", page.ID), map[string]any{"source": "/install-guide", "permanent": true}).JSON(t, &red)
		if red.Source != "/install-guide" || !red.Permanent || red.Destination["pageId"] != f.install || red.UpdatedAt == nil {
			t.Fatalf("updated: %+v", red)
		}
		var moved wireRedirect
		f.e.Do(f.admin, "PATCH", f.at("redirects", page.ID), map[string]any{"destination": external("https://example.com/x")}).JSON(t, &moved)
		if red = moved; red.Destination["kind"] != "external" || red.Destination["pageId"] != nil || red.Destination["siteSpaceId"] != nil {
			t.Fatalf("a new destination keeps fields of the old: %+v", red.Destination)
		}
		var renamed wireRedirect
		f.e.Do(f.admin, "PATCH", f.at("redirects", draft.ID), map[string]any{"source": "/draft-only"}).JSON(t, &renamed)
		if red = renamed; red.Source != "/draft-only" || !red.Draft {
			t.Fatalf("draft renamed: %+v", red)
		}
	})
	t.Run("OKDelete", func(t *testing.T) {
		if r := f.e.Do(f.creator, "DELETE", f.at("redirects", old.ID), nil); r.Status != http.StatusResetContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		if r := f.e.Do(f.creator, "DELETE", f.at("redirects", old.ID), nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete again: %d %s", r.Status, r.Body)
		}
		if status, got := f.lookup(t, f.admin, "?source=/draft-only"); status != 200 || got["redirect"].(map[string]any)["draft"] != true {
			t.Fatalf("a draft is found when no live redirect matches: %d %v", status, got)
		}
	})
}

func TestSiteRedirectErrors(t *testing.T) {
	f := newRedirectFixture(t)
	kept := f.create(t, map[string]any{"source": "/kept", "destination": external("https://example.com/")})
	f.create(t, map[string]any{"source": "/other", "destination": external("https://example.com/")})
	ss := f.siteSpaces[0]
	body := func(source, dest any) map[string]any {
		return map[string]any{"source": source, "destination": dest}
	}
	cases := []struct {
		name, method, path string
		body               any
		status             int
		field              string
	}{
		{"ErrSourceMissing", "POST", f.at("redirects"), map[string]any{"destination": external("https://a.example")}, 400, "source"},
		{"ErrSourceRelative", "POST", f.at("redirects"), body("old", external("https://a.example")), 400, "source"},
		{"ErrSourceRoot", "POST", f.at("redirects"), body("/", external("https://a.example")), 400, "source"},
		{"ErrSourceTrailingSlash", "POST", f.at("redirects"), body("/a/", external("https://a.example")), 400, "source"},
		{"ErrSourceInnerWildcard", "POST", f.at("redirects"), body("/a*/b", external("https://a.example")), 400, "source"},
		{"ErrSourceQuery", "POST", f.at("redirects"), body("/a?b=1", external("https://a.example")), 400, "source"},
		{"ErrSourceLong", "POST", f.at("redirects"), body("/"+strings.Repeat("a", 512), external("https://a.example")), 400, "source"},
		{"ErrSourceNumber", "POST", f.at("redirects"), body(7, external("https://a.example")), 400, "source"},
		{"ErrDestinationMissing", "POST", f.at("redirects"), map[string]any{"source": "/b"}, 400, "destination"},
		{"ErrKindMissing", "POST", f.at("redirects"), body("/b", map[string]any{"url": "https://a.example"}), 400, "destination.kind"},
		{"ErrKindUnknown", "POST", f.at("redirects"), body("/b", map[string]any{"kind": "EXTERNAL", "url": "https://a.example"}), 400, "destination.kind"},
		{"ErrURLMissing", "POST", f.at("redirects"), body("/b", map[string]any{"kind": "external"}), 400, "destination.url"},
		{"ErrURLJavascript", "POST", f.at("redirects"), body("/b", external("javascript:alert(1)")), 400, "destination.url"},
		{"ErrURLData", "POST", f.at("redirects"), body("/b", external("data:text/html,<script>")), 400, "destination.url"},
		{"ErrURLRelative", "POST", f.at("redirects"), body("/b", external("/elsewhere")), 400, "destination.url"},
		{"ErrURLSchemeless", "POST", f.at("redirects"), body("/b", external("//evil.example/x")), 400, "destination.url"},
		{"ErrURLUserInfo", "POST", f.at("redirects"), body("/b", external("https://docs.example.com@evil.example/")), 400, "destination.url"},
		{"ErrURLLong", "POST", f.at("redirects"), body("/b", external("https://a.example/"+strings.Repeat("x", 2048))), 400, "destination.url"},
		{"ErrSiteSpaceMissing", "POST", f.at("redirects"), body("/b", map[string]any{"kind": "site-space"}), 400, "destination.siteSpaceId"},
		{"ErrSiteSpaceUnknown", "POST", f.at("redirects"), body("/b", map[string]any{"kind": "site-space", "siteSpaceId": "nope"}), 404, "destination.siteSpaceId"},
		{"ErrSectionUnknown", "POST", f.at("redirects"), body("/b", map[string]any{"kind": "site-section", "siteSectionId": "nope"}), 404, "destination.siteSectionId"},
		{"ErrPageMissing", "POST", f.at("redirects"), body("/b", map[string]any{"kind": "site-page", "siteSpaceId": ss}), 400, "destination.pageId"},
		{"ErrPageUnknown", "POST", f.at("redirects"), body("/b", map[string]any{"kind": "site-page", "siteSpaceId": ss, "pageId": "nope"}), 404, "destination.pageId"},
		{"ErrPathUnknown", "POST", f.at("redirects"), body("/b", map[string]any{"kind": "path", "spaceId": f.docs, "path": "nope"}), 404, "destination.path"},
		{"ErrPathSpaceNotOnSite", "POST", f.at("redirects"), body("/b", map[string]any{"kind": "path", "spaceId": f.alien, "path": "x"}), 404, "destination.spaceId"},
		{"ErrDraftString", "POST", f.at("redirects"), map[string]any{"source": "/b", "destination": external("https://a.example"), "draft": "yes"}, 400, "draft"},
		{"ErrSourceTaken", "POST", f.at("redirects"), body("/kept", external("https://a.example")), 409, "source"},
		{"ErrPatchSourceTaken", "PATCH", f.at("redirects", kept.ID), map[string]any{"source": "/other"}, 409, "source"},
		{"ErrPatchSourceNull", "PATCH", f.at("redirects", kept.ID), map[string]any{"source": nil}, 400, "source"},
		{"ErrPatchSourceBad", "PATCH", f.at("redirects", kept.ID), map[string]any{"source": "/a b"}, 400, "source"},
		{"ErrPatchDestinationBad", "PATCH", f.at("redirects", kept.ID), map[string]any{"destination": external("ftp://a.example")}, 400, "destination.url"},
		{"ErrPatchUnknown", "PATCH", f.at("redirects", "nope"), map[string]any{"permanent": true}, 404, "site redirect"},
		{"ErrUnknownSite", "POST", f.path("nope", "redirects"), body("/b", external("https://a.example")), 404, "site"},
		{"ErrListOrder", "GET", f.at("redirects") + "?orderBy=title", nil, 400, "orderBy"},
		{"ErrListDraft", "GET", f.at("redirects") + "?draft=maybe", nil, 400, "draft"},
		{"ErrListSearchLong", "GET", f.at("redirects") + "?search=" + strings.Repeat("s", 513), nil, 400, "search"},
		{"ErrListPage", "GET", f.at("redirects") + "?page=forged", nil, 400, "page"},
		{"ErrLookupMissing", "GET", f.at("redirect"), nil, 400, "source"},
		{"ErrLookupBad", "GET", f.at("redirect") + "?source=nope", nil, 400, "source"},
		{"ErrBulkMissing", "PUT", f.at("redirects"), map[string]any{}, 400, "redirects"},
		{"ErrBulkEmpty", "PUT", f.at("redirects"), map[string]any{"redirects": []any{}}, 400, "redirects"},
		{"ErrBulkTooMany", "PUT", f.at("redirects"), map[string]any{"redirects": manyItems(501)}, 400, "redirects: must hold 1 to 500"},
		{"ErrBulkSource", "PUT", f.at("redirects"), map[string]any{"redirects": []any{body("/ok", external("https://a.example")),
			body("bad", external("https://a.example"))}}, 400, "redirects[1].source"},
		{"ErrBulkNoDestination", "PUT", f.at("redirects"), map[string]any{"redirects": []any{map[string]any{"source": "/x"}}}, 400, "redirects[0].destination"},
		{"ErrBulkIntent", "PUT", f.at("redirects"), map[string]any{"redirects": []any{map[string]any{"source": "/x", "intent": "later",
			"destination": nil}}}, 400, "intent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantError(t, f.e.Do(f.admin, c.method, c.path, c.body), c.status, c.field) })
	}
	if got := f.sources(t, ""); got != "/other,/kept" {
		t.Fatalf("failed writes changed the redirects: %s", got)
	}
}

func TestSiteRedirectRoles(t *testing.T) {
	f := newRedirectFixture(t)
	red := f.create(t, map[string]any{"source": "/kept", "destination": external("https://example.com/")})
	bulk := map[string]any{"redirects": []any{map[string]any{"source": "/x", "destination": external("https://a.example")}}}
	for name, a := range map[string]testenv.Actor{"Reader": f.reader, "Editor": f.editor} {
		t.Run("OK"+name+"Reads", func(t *testing.T) {
			if r := f.e.Do(a, "GET", f.at("redirects"), nil); r.Status != 200 {
				t.Fatalf("list: %d %s", r.Status, r.Body)
			}
			if status, _ := f.lookup(t, a, "?source=/kept"); status != 200 {
				t.Fatalf("lookup: %d", status)
			}
		})
		t.Run("Err"+name+"Writes", func(t *testing.T) {
			testenv.CheckError(t, f.e.Do(a, "POST", f.at("redirects"), map[string]any{"source": "/y", "destination": external("https://a.example")}), 403)
			testenv.CheckError(t, f.e.Do(a, "PUT", f.at("redirects"), bulk), 403)
			testenv.CheckError(t, f.e.Do(a, "PATCH", f.at("redirects", red.ID), map[string]any{"permanent": true}), 403)
			testenv.CheckError(t, f.e.Do(a, "DELETE", f.at("redirects", red.ID), nil), 403)
		})
	}
	t.Run("OKCreator", func(t *testing.T) {
		if r := f.e.Do(f.creator, "PUT", f.at("redirects"), bulk); r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrNoToken", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(testenv.Actor{}, "GET", f.at("redirects"), nil), 401)
	})
	t.Run("ErrOtherOrganization", func(t *testing.T) {
		create := map[string]any{"source": "/y", "destination": external("https://a.example")}
		for _, c := range []struct {
			method, path string
			body         any
		}{{"GET", f.at("redirects"), nil}, {"GET", f.at("redirect") + "?source=/kept", nil}, {"POST", f.at("redirects"), create},
			{"PUT", f.at("redirects"), bulk}, {"PATCH", f.at("redirects", red.ID), create}, {"DELETE", f.at("redirects", red.ID), nil}} {
			testenv.CheckError(t, f.e.Do(f.outsider, c.method, c.path, c.body), 404)
		}
		theirs := f.e.Do(f.outsider, "POST", "/v1/orgs/"+f.otherOrg+"/sites", map[string]any{"title": "Theirs"}).Map(t)["id"].(string)
		testenv.CheckError(t, f.e.Do(f.outsider, "PATCH", "/v1/orgs/"+f.otherOrg+"/sites/"+theirs+"/redirects/"+red.ID,
			map[string]any{"permanent": true}), 404)
		testenv.CheckError(t, f.e.Do(f.admin, "POST", f.at("redirects"), map[string]any{"source": "/z",
			"destination": map[string]any{"kind": "path", "spaceId": f.alien, "path": "x"}}), 404)
	})
	if got := f.sources(t, ""); got != "/x,/kept" {
		t.Fatalf("redirects %s", got)
	}
}

// manyItems is a bulk upsert's list of n valid items.
func manyItems(n int) []any {
	items := make([]any, n)
	for i := range items {
		items[i] = map[string]any{"source": fmt.Sprintf("/p%d", i), "destination": external("https://example.com/")}
	}
	return items
}

type bulkResult struct {
	Status, Source, ID, Error string
	Draft                     bool
}

func (f *redirectFixture) bulk(t *testing.T, items ...map[string]any) []bulkResult {
	t.Helper()
	r := f.e.Do(f.admin, "PUT", f.at("redirects"), map[string]any{"redirects": items})
	if r.Status != http.StatusOK {
		t.Fatalf("bulk: %d %s", r.Status, r.Body)
	}
	var out struct{ Results []bulkResult }
	r.JSON(t, &out)
	return out.Results
}

func statuses(results []bulkResult) string {
	var out []string
	for _, res := range results {
		out = append(out, fmt.Sprintf("%s:%s:%v", res.Source, res.Status, res.Draft))
	}
	return strings.Join(out, ",")
}

func TestSiteRedirectBulk(t *testing.T) {
	f := newRedirectFixture(t)
	first := f.bulk(t,
		map[string]any{"source": "/a", "destination": external("https://example.com/a")},
		map[string]any{"source": "/b", "intent": "draft", "destination": external("https://example.com/b"), "permanent": true},
		map[string]any{"source": "/a", "destination": external("https://example.com/a2"), "permanent": true},
		map[string]any{"source": "/c", "destination": map[string]any{"kind": "site-space", "siteSpaceId": "nope"}},
		map[string]any{"source": "/d", "destination": nil},
		map[string]any{"source": "/b", "intent": "publish"},
	)
	if got := statuses(first); got != "/a:created:false,/b:created:true,/a:updated:false,/c:error:false,/d:error:false,/b:published:false" {
		t.Fatalf("results: %s", got)
	}
	if first[0].ID != first[2].ID || first[1].ID != first[5].ID || !strings.Contains(first[3].Error, "redirects[3].destination.siteSpaceId") {
		t.Fatalf("results: %+v", first)
	}
	if got := f.sources(t, ""); got != "/b,/a" {
		t.Fatalf("live after the bulk: %s", got)
	}
	if got := f.sources(t, "?draft=true"); got != "" {
		t.Fatalf("a published draft stays a draft: %s", got)
	}
	second := f.bulk(t,
		map[string]any{"source": "/a", "destination": nil},
		map[string]any{"source": "/b", "intent": "draft", "destination": external("https://example.com/b2")},
		map[string]any{"source": "/b", "intent": "publish"},
		map[string]any{"source": "/b", "intent": "publish"},
	)
	if got := statuses(second); got != "/a:deleted:false,/b:created:true,/b:published:false,/b:error:false" {
		t.Fatalf("results: %s", got)
	}
	var l struct{ Items []wireRedirect }
	f.e.Do(f.admin, "GET", f.at("redirects"), nil).JSON(t, &l)
	if len(l.Items) != 1 || l.Items[0].Destination["url"] != "https://example.com/b2" || l.Items[0].ID != second[1].ID {
		t.Fatalf("publishing replaces the live redirect: %+v", l.Items)
	}
}

// TestSiteRedirectCascade: a redirect goes with the site space it leads to, and with its site.
func TestSiteRedirectCascade(t *testing.T) {
	f := newRedirectFixture(t)
	f.create(t, map[string]any{"source": "/api", "destination": map[string]any{"kind": "site-space", "siteSpaceId": f.siteSpaces[1]}})
	f.create(t, map[string]any{"source": "/kept", "destination": external("https://example.com/")})
	if r := f.e.Do(f.admin, "DELETE", f.at("site-spaces", f.siteSpaces[1]), nil); r.Status >= 300 {
		t.Fatalf("delete the site space: %d %s", r.Status, r.Body)
	}
	if got := f.sources(t, ""); got != "/kept" {
		t.Fatalf("after the site space went: %s", got)
	}
	if r := f.e.Do(f.admin, "DELETE", f.at(), nil); r.Status != http.StatusResetContent {
		t.Fatalf("delete the site: %d %s", r.Status, r.Body)
	}
	if rows := rawRows(t, f.e, "site_redirects"); rows != "" {
		t.Fatalf("redirects after the site went: %s", rows)
	}
}

func TestSiteRedirectGraphQL(t *testing.T) {
	f := newRedirectFixture(t)
	vars := map[string]any{"o": f.org, "s": f.site}
	var created struct {
		CreateSiteRedirect struct {
			ID          string
			Destination struct{ Kind, PageID, SiteSpaceID string }
			UpdatedAt   *string
		}
	}
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $ss: ID!, $p: ID!) { createSiteRedirect(organizationId: $o, siteId: $s,
		input: {source: "/setup", destination: {kind: SITE_PAGE, siteSpaceId: $ss, pageId: $p}, permanent: true}) {
		id destination { kind pageId siteSpaceId } updatedAt } }`,
		map[string]any{"o": f.org, "s": f.site, "ss": f.siteSpaces[0], "p": f.install}), &created)
	if d := created.CreateSiteRedirect.Destination; d.Kind != "SITE_PAGE" || d.PageID != f.install || created.CreateSiteRedirect.UpdatedAt != nil {
		t.Fatalf("created %+v", created)
	}
	var bulk struct {
		BulkUpsertSiteRedirects []struct{ Status, Source string }
	}
	gqlOK(t, f.e.GraphQL(f.creator, `mutation($o: ID!, $s: ID!) { bulkUpsertSiteRedirects(organizationId: $o, siteId: $s, redirects: [
		{source: "/a", destination: {kind: EXTERNAL, url: "https://example.com/a"}}, {source: "/setup", destination: null},
		{source: "/b", intent: PUBLISH}]) { status source } }`, vars), &bulk)
	if fmt.Sprint(bulk.BulkUpsertSiteRedirects) != "[{CREATED /a} {DELETED /setup} {ERROR /b}]" {
		t.Fatalf("bulk %v", bulk)
	}
	var read struct {
		Organization struct {
			Site struct {
				Redirects struct {
					TotalCount int
					Edges      []struct{ Node struct{ Source string } }
				}
				Redirect *struct{ Target string }
				None     *struct{ Target string }
			}
		}
	}
	gqlOK(t, f.e.GraphQL(f.reader, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) {
		redirects(first: 5, orderBy: SOURCE) { totalCount edges { node { source } } }
		redirect(source: "/a") { target } none: redirect(source: "/zzz") { target } } } }`, vars), &read)
	if s := read.Organization.Site; s.Redirects.TotalCount != 1 || s.Redirects.Edges[0].Node.Source != "/a" ||
		s.Redirect == nil || s.Redirect.Target != "https://example.com/a" || s.None != nil {
		t.Fatalf("read %+v", read)
	}
	g := f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { createSiteRedirect(organizationId: $o, siteId: $s,
		input: {source: "/x", destination: {kind: EXTERNAL, url: "javascript:alert(1)"}}) { id } }`, vars)
	gqlExpectError(t, g, "BAD_REQUEST")
	if !strings.HasPrefix(g.Errors[0].Message, "destination.url: ") {
		t.Fatalf("message %q", g.Errors[0].Message)
	}
	gqlExpectError(t, f.e.GraphQL(f.reader, `mutation($o: ID!, $s: ID!) { deleteSiteRedirect(organizationId: $o, siteId: $s, id: "x") }`, vars), "FORBIDDEN")
	var deleted struct{ DeleteSiteRedirect bool }
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { deleteSiteRedirect(organizationId: $o, siteId: $s, id: "x") }`, vars), &deleted)
	if deleted.DeleteSiteRedirect {
		t.Fatal("deleting nothing reports a deletion")
	}
}

// TestSiteRedirectStatements: a page of sites with their redirects costs the same statements for
// 2 sites as for 8.
func TestSiteRedirectStatements(t *testing.T) {
	count := func(n int) int64 {
		e := testenv.New(t, batchingOptions)
		admin, org := e.Bootstrap("ada@example.com", "Acme")
		for i := range n {
			s := e.Do(admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": fmt.Sprintf("Site %d", i)}).Map(t)["id"].(string)
			e.Do(admin, "PUT", "/v1/orgs/"+org+"/sites/"+s+"/redirects", map[string]any{"redirects": manyItems(3)})
		}
		q := `query($o: ID!) { organization(id: $o) { sites(first: 50) { edges { node { title
			redirects(first: 2) { totalCount pageInfo { hasNextPage } edges { node { id source destination { kind url } createdAt updatedAt } } } } } } } }`
		return gqlStatements(t, e, func() { gqlOK(t, e.GraphQL(admin, q, map[string]any{"o": org}), &struct{}{}) })
	}
	few, many := count(2), count(8)
	t.Logf("statements: %d for 2 sites, %d for 8", few, many)
	if few != many {
		t.Fatalf("statements grow with the sites: %d for 2, %d for 8", few, many)
	}
}

// TestSiteRedirectCap: a site holds at most redirects.SiteMax redirects. At the cap, a
// creation is 409 naming redirects, a bulk upsert's creation is an error item while its
// deletions and updates apply (making room for a later item), and a rename, which would record a
// redirect, is 409 and changes nothing.
func TestSiteRedirectCap(t *testing.T) {
	f := newRedirectFixture(t)
	ctx := accounts.System(context.Background())
	var rows []*ent.SiteRedirectCreate
	for i := range redirects.SiteMax {
		rows = append(rows, f.e.Store.Client.SiteRedirect.Create().SetOrganizationID(f.org).SetSiteID(f.site).
			SetSource(fmt.Sprintf("/r%d", i)).SetDestinationKind(siteredirect.DestinationKindExternal).SetDestinationURL("https://example.com/"))
	}
	for chunk := range slices.Chunk(rows, 500) {
		f.e.Store.Client.SiteRedirect.CreateBulk(chunk...).ExecX(ctx)
	}
	wantError(t, f.e.Do(f.admin, "POST", f.at("redirects"), map[string]any{"source": "/new", "destination": external("https://example.com/")}),
		http.StatusConflict, "redirects: the site has 10000 redirects, the most a site may have")
	results := f.bulk(t,
		map[string]any{"source": "/new", "destination": external("https://example.com/")},
		map[string]any{"source": "/r1", "destination": external("https://example.com/changed")},
		map[string]any{"source": "/r0", "destination": nil},
		map[string]any{"source": "/new", "destination": external("https://example.com/")},
	)
	if got := statuses(results); got != "/new:error:false,/r1:updated:false,/r0:deleted:false,/new:created:false" ||
		!strings.Contains(results[0].Error, "redirects[0]: the site has 10000 redirects") {
		t.Fatalf("bulk at the cap: %s %+v", got, results[0])
	}
	wantError(t, f.e.Do(f.admin, "PATCH", f.at("site-spaces", f.siteSpaces[1]), map[string]any{"path": "renamed"}),
		http.StatusConflict, "path: the site has 10000 redirects")
	var l struct{ Items []struct{ Path string } }
	f.e.Do(f.admin, "GET", f.at("site-spaces"), nil).JSON(t, &l)
	for _, ss := range l.Items {
		if ss.Path == "renamed" {
			t.Fatal("a rename refused at the cap changed the path")
		}
	}
}
