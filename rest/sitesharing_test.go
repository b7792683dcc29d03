package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// sharingFixture is a site of the sites fixture with members of each kind that matters to it.
type sharingFixture struct {
	*sitesFixture
	site                    string
	reader, editor, creator testenv.Actor
	siteSpaces              []string // the site's site spaces: Docs, API Reference
}

func newSharingFixture(t *testing.T) *sharingFixture {
	t.Helper()
	f := &sharingFixture{sitesFixture: newSitesFixture(t)}
	f.site = f.createSite(t, map[string]any{"title": "Docs site", "spaces": []string{f.docs, f.api}})["id"].(string)
	f.reader = f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	f.editor = f.e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
	f.creator = f.e.User("cy@example.com", f.org, testenv.Role(viewer.RoleCreate))
	var l struct{ Items []struct{ ID string } }
	f.e.Do(f.admin, "GET", f.at("site-spaces"), nil).JSON(t, &l)
	for _, ss := range l.Items {
		f.siteSpaces = append(f.siteSpaces, ss.ID)
	}
	if len(f.siteSpaces) != 2 {
		t.Fatalf("site spaces %v", l.Items)
	}
	return f
}

// at is the site's path followed by the given segments.
func (f *sharingFixture) at(segments ...string) string {
	return f.path(append([]string{f.site}, segments...)...)
}

// wantError asserts a failure with status whose message names field.
func wantError(t *testing.T, resp testenv.Response, status int, field string) {
	t.Helper()
	if msg := testenv.CheckError(t, resp, status); !strings.Contains(msg, field) {
		t.Fatalf("message %q does not name %s", msg, field)
	}
}

type wireShareLink struct {
	ID, Name  string
	Active    bool
	CreatedAt string
	URLs      struct{ Published string }
}

func (f *sharingFixture) createLink(t *testing.T, name string) wireShareLink {
	t.Helper()
	resp := f.e.Do(f.admin, "POST", f.at("share-links"), map[string]any{"name": name})
	if resp.Status != http.StatusCreated {
		t.Fatalf("create share link: %d %s", resp.Status, resp.Body)
	}
	var l wireShareLink
	resp.JSON(t, &l)
	return l
}

// keyOf is the key a share link's published URL carries.
func keyOf(t *testing.T, l wireShareLink) string {
	t.Helper()
	u, err := url.Parse(l.URLs.Published)
	if err != nil || u.Query().Get("shareKey") == "" {
		t.Fatalf("urls.published %q carries no key", l.URLs.Published)
	}
	return u.Query().Get("shareKey")
}

func (f *sharingFixture) links(t *testing.T, query string) []wireShareLink {
	t.Helper()
	var l struct{ Items []wireShareLink }
	f.e.Do(f.admin, "GET", f.at("share-links")+query, nil).JSON(t, &l)
	return l.Items
}

func linkNames(links []wireShareLink) string {
	var names []string
	for _, l := range links {
		names = append(names, fmt.Sprintf("%s:%v", l.Name, l.Active))
	}
	return strings.Join(names, ",")
}

func TestSiteShareLinks(t *testing.T) {
	f := newSharingFixture(t)
	first := f.createLink(t, " Reviewers ")
	second := f.createLink(t, "")
	key := keyOf(t, first)
	t.Run("OKCreated", func(t *testing.T) {
		if first.Name != "Reviewers" || !first.Active || second.Name != "" || len(key) < 32 {
			t.Fatalf("created %+v and %+v", first, second)
		}
		if !strings.HasPrefix(first.URLs.Published, f.e.Server.URL+"/sites/"+f.site+"?") || keyOf(t, second) == key {
			t.Fatalf("urls %q, %q", first.URLs.Published, second.URLs.Published)
		}
	})
	t.Run("OKListedWithoutKeys", func(t *testing.T) {
		links := f.links(t, "")
		if linkNames(links) != ":true,Reviewers:true" {
			t.Fatalf("newest first: %s", linkNames(links))
		}
		for _, l := range links {
			if l.URLs.Published != "" {
				t.Fatalf("a listed link shows its key: %+v", l)
			}
		}
	})
	t.Run("OKSearch", func(t *testing.T) {
		for query, want := range map[string]string{"?search=REVIEW": "Reviewers:true", "?search=" + key: "Reviewers:true",
			"?search=" + key[:10]: "", "?search=nobody": ""} {
			if got := linkNames(f.links(t, query)); got != want {
				t.Errorf("%s: got %q, want %q", query, got, want)
			}
		}
	})
	t.Run("OKUpdate", func(t *testing.T) {
		var l wireShareLink
		f.e.Do(f.admin, "PATCH", f.at("share-links", first.ID), map[string]any{"active": false}).JSON(t, &l)
		if l.Active || l.Name != "Reviewers" || l.URLs.Published != "" {
			t.Fatalf("deactivated: %+v", l)
		}
		f.e.Do(f.admin, "PATCH", f.at("share-links", first.ID), map[string]any{"name": "Board"}).JSON(t, &l)
		if l.Active || l.Name != "Board" {
			t.Fatalf("renamed: %+v", l)
		}
	})
	t.Run("OKDelete", func(t *testing.T) {
		if r := f.e.Do(f.creator, "DELETE", f.at("share-links", second.ID), nil); r.Status != http.StatusResetContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		if r := f.e.Do(f.creator, "DELETE", f.at("share-links", second.ID), nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete again: %d %s", r.Status, r.Body)
		}
		if got := linkNames(f.links(t, "")); got != "Board:false" {
			t.Fatalf("after delete: %s", got)
		}
	})
}

func TestSiteShareLinkErrors(t *testing.T) {
	f := newSharingFixture(t)
	l := f.createLink(t, "Kept")
	cases := []struct {
		name, method, path string
		body               any
		status             int
		field              string
	}{
		{"ErrNameMissing", "POST", f.at("share-links"), map[string]any{}, 400, "name"},
		{"ErrNameNull", "POST", f.at("share-links"), map[string]any{"name": nil}, 400, "name"},
		{"ErrNameLong", "POST", f.at("share-links"), map[string]any{"name": strings.Repeat("n", 51)}, 400, "name"},
		{"ErrNameNumber", "POST", f.at("share-links"), map[string]any{"name": 7}, 400, "name"},
		{"ErrPatchNameNull", "PATCH", f.at("share-links", l.ID), map[string]any{"name": nil}, 400, "name"},
		{"ErrPatchNameLong", "PATCH", f.at("share-links", l.ID), map[string]any{"name": strings.Repeat("n", 51)}, 400, "name"},
		{"ErrPatchActiveString", "PATCH", f.at("share-links", l.ID), map[string]any{"active": "no", "name": "Changed"}, 400, "active"},
		{"ErrSearchLong", "GET", f.at("share-links") + "?search=" + strings.Repeat("s", 101), nil, 400, "search"},
		{"ErrUnknownLink", "PATCH", f.at("share-links", "nope"), map[string]any{"name": "x"}, 404, "share link"},
		{"ErrUnknownSite", "POST", f.path("nope", "share-links"), map[string]any{"name": "x"}, 404, "site"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantError(t, f.e.Do(f.admin, c.method, c.path, c.body), c.status, c.field) })
	}
	if got := linkNames(f.links(t, "")); got != "Kept:true" {
		t.Fatalf("failed writes changed the links: %s", got)
	}
}

func TestSiteShareLinkRoles(t *testing.T) {
	f := newSharingFixture(t)
	l := f.createLink(t, "Kept")
	for name, a := range map[string]testenv.Actor{"Reader": f.reader, "Editor": f.editor} {
		t.Run("Err"+name, func(t *testing.T) {
			testenv.CheckError(t, f.e.Do(a, "GET", f.at("share-links"), nil), 403)
			testenv.CheckError(t, f.e.Do(a, "POST", f.at("share-links"), map[string]any{"name": "x"}), 403)
			testenv.CheckError(t, f.e.Do(a, "PATCH", f.at("share-links", l.ID), map[string]any{"active": false}), 403)
			testenv.CheckError(t, f.e.Do(a, "DELETE", f.at("share-links", l.ID), nil), 403)
		})
	}
	t.Run("OKCreator", func(t *testing.T) {
		if r := f.e.Do(f.creator, "POST", f.at("share-links"), map[string]any{"name": "Mine"}); r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrOtherOrganizationsSite", func(t *testing.T) {
		theirs := f.e.Do(f.outsider, "POST", "/v1/orgs/"+f.otherOrg+"/sites", map[string]any{"title": "Theirs"}).Map(t)["id"].(string)
		testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path(theirs, "share-links"), nil), 404)
		testenv.CheckError(t, f.e.Do(f.outsider, "PATCH", "/v1/orgs/"+f.otherOrg+"/sites/"+theirs+"/share-links/"+l.ID,
			map[string]any{"active": false}), 404)
	})
	if got := linkNames(f.links(t, "")); got != "Mine:true,Kept:true" {
		t.Fatalf("links %s", got)
	}
}

// rawRows returns every column of every row of a table, as text.
func rawRows(t *testing.T, e *testenv.Env, table string) string {
	t.Helper()
	return strings.Join(authRawRows(t, e, table), "\n")
}

func TestSiteSecretsStored(t *testing.T) {
	f := newSharingFixture(t)
	key := keyOf(t, f.createLink(t, "Reviewers"))
	auth := f.e.Do(f.admin, "GET", f.at("publishing", "auth"), nil).Map(t)
	private := auth["privateKey"].(string)
	t.Run("OKShareKeyHashed", func(t *testing.T) {
		rows := rawRows(t, f.e, "site_share_links")
		if strings.Contains(rows, key) || !strings.Contains(rows, "Reviewers") {
			t.Fatalf("the share link's row holds its key in clear: %s", rows)
		}
		if !strings.Contains(rows, string(accounts.HashSecret(key))) {
			t.Fatal("the row does not hold the key's hash")
		}
	})
	t.Run("OKSigningKeySealed", func(t *testing.T) {
		if rows := rawRows(t, f.e, "site_publishing_auths"); strings.Contains(rows, private) || len(private) != 43 {
			t.Fatalf("the signing key %q is in clear in %s", private, rows)
		}
	})
}

func TestSitePublishingAuth(t *testing.T) {
	f := newSharingFixture(t)
	get := func(a testenv.Actor) map[string]any { return f.e.Do(a, "GET", f.at("publishing", "auth"), nil).Map(t) }
	first := get(f.admin)
	key := first["privateKey"].(string)
	t.Run("OKMadeOnce", func(t *testing.T) {
		if first["object"] != "publishing-auth" || first["backend"] != "custom" || first["fallbackURL"] != nil {
			t.Fatalf("first read %v", first)
		}
		if again := get(f.creator); again["privateKey"] != key {
			t.Fatalf("a second read made another key: %v", again)
		}
	})
	t.Run("OKPatch", func(t *testing.T) {
		body := map[string]any{"backend": "custom", "fallbackURL": "https://auth.example.com/login", "logoutURL": "http://auth.example.com/out"}
		got := f.e.Do(f.admin, "PATCH", f.at("publishing", "auth"), body).Map(t)
		if got["fallbackURL"] != body["fallbackURL"] || got["logoutURL"] != body["logoutURL"] || got["privateKey"] != key {
			t.Fatalf("patched %v", got)
		}
		got = f.e.Do(f.admin, "PATCH", f.at("publishing", "auth"), map[string]any{"logoutURL": nil}).Map(t)
		if got["fallbackURL"] != body["fallbackURL"] || got["logoutURL"] != nil {
			t.Fatalf("null removes, absent keeps: %v", got)
		}
	})
	t.Run("OKRegenerate", func(t *testing.T) {
		got := f.e.Do(f.admin, "POST", f.at("publishing", "auth", "regenerate"), nil).Map(t)
		if got["privateKey"] == key || got["fallbackURL"] != "https://auth.example.com/login" || get(f.admin)["privateKey"] != got["privateKey"] {
			t.Fatalf("regenerated %v (old key %s)", got, key)
		}
	})
	before := get(f.admin)
	cases := []struct {
		name  string
		body  any
		field string
	}{
		{"ErrRelative", map[string]any{"fallbackURL": "/login"}, "fallbackURL"},
		{"ErrScheme", map[string]any{"fallbackURL": "https://ok.example.com", "logoutURL": "javascript:alert(1)"}, "logoutURL"},
		{"ErrLong", map[string]any{"logoutURL": "https://example.com/" + strings.Repeat("a", 2048)}, "logoutURL"},
		{"ErrNumber", map[string]any{"fallbackURL": 3}, "fallbackURL"},
		{"ErrBackend", map[string]any{"backend": "integration", "fallbackURL": "https://ok.example.com"}, "backend"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, f.e.Do(f.admin, "PATCH", f.at("publishing", "auth"), c.body), 400, c.field)
		})
	}
	t.Run("ErrRoles", func(t *testing.T) {
		for _, a := range []testenv.Actor{f.reader, f.editor} {
			testenv.CheckError(t, f.e.Do(a, "GET", f.at("publishing", "auth"), nil), 403)
			testenv.CheckError(t, f.e.Do(a, "PATCH", f.at("publishing", "auth"), map[string]any{"logoutURL": nil}), 403)
			testenv.CheckError(t, f.e.Do(a, "POST", f.at("publishing", "auth", "regenerate"), nil), 403)
		}
	})
	if after := get(f.admin); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("failed writes changed the settings: %v, then %v", before, after)
	}
}

func TestSiteCustomization(t *testing.T) {
	f := newSharingFixture(t)
	get := func(a testenv.Actor, path string) map[string]any { return f.e.Do(a, "GET", path, nil).Map(t) }
	styling := func(m map[string]any) map[string]any { return m["styling"].(map[string]any) }
	t.Run("OKDefaults", func(t *testing.T) {
		got := get(f.reader, f.at("customization"))
		if styling(got)["theme"] != "clean" || got["updatedAt"] != nil || got["title"] != nil {
			t.Fatalf("defaults %v", got)
		}
	})
	settings := map[string]any{
		"title":   "Acme Docs",
		"styling": map[string]any{"theme": "bold", "primaryColor": map[string]any{"light": "#112233", "dark": "#445566"}},
		"favicon": map[string]any{"emoji": "📘"},
		"ai":      map[string]any{"mode": "search", "instructions": "Be brief."},
		"header": map[string]any{"links": []any{map[string]any{"title": "Blog", "links": []any{},
			"to": map[string]any{"kind": "url", "url": "https://example.com/blog"}}}},
	}
	t.Run("OKPut", func(t *testing.T) {
		got := f.e.Do(f.creator, "PUT", f.at("customization"), settings).Map(t)
		if got["title"] != "Acme Docs" || styling(got)["theme"] != "bold" || styling(got)["corners"] != "rounded" ||
			got["updatedAt"] == nil || got["ai"].(map[string]any)["instructions"] != "Be brief." {
			t.Fatalf("put answered %v", got)
		}
		if again := get(f.admin, f.at("customization")); fmt.Sprint(again) != fmt.Sprint(got) {
			t.Fatalf("GET %v after PUT %v", again, got)
		}
	})
	t.Run("OKReadersSeeNoInstructions", func(t *testing.T) {
		got := get(f.reader, f.at("customization"))
		if _, ok := got["ai"].(map[string]any)["instructions"]; ok || got["title"] != "Acme Docs" {
			t.Fatalf("a reader reads %v", got["ai"])
		}
	})
	t.Run("OKSiteSpaceInherits", func(t *testing.T) {
		got := get(f.reader, f.at("site-spaces", f.siteSpaces[0], "customization"))
		if got["title"] != "Acme Docs" || styling(got)["theme"] != "bold" {
			t.Fatalf("site space reads %v", got)
		}
	})
	override := f.at("site-spaces", f.siteSpaces[0], "customization")
	t.Run("OKOverride", func(t *testing.T) {
		got := f.e.Do(f.admin, "PATCH", override, map[string]any{"title": "API", "styling": map[string]any{"icons": "solid"},
			"ai": map[string]any{"mode": "none"}}).Map(t)
		if got["title"] != "API" || styling(got)["icons"] != "solid" || styling(got)["theme"] != "bold" ||
			got["ai"].(map[string]any)["mode"] != "search" {
			t.Fatalf("overridden %v", got)
		}
		got = f.e.Do(f.admin, "PATCH", override, map[string]any{"styling": map[string]any{"theme": "muted", "icons": nil}}).Map(t)
		if got["title"] != "API" || styling(got)["icons"] != "regular" || styling(got)["theme"] != "muted" {
			t.Fatalf("patched again %v", got)
		}
		if other := get(f.admin, f.at("site-spaces", f.siteSpaces[1], "customization")); other["title"] != "Acme Docs" {
			t.Fatalf("another site space changed: %v", other)
		}
	})
	t.Run("OKDeleteOverride", func(t *testing.T) {
		if r := f.e.Do(f.admin, "DELETE", override, nil); r.Status != http.StatusResetContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		if r := f.e.Do(f.admin, "DELETE", override, nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete again: %d %s", r.Status, r.Body)
		}
		if got := get(f.admin, override); got["title"] != "Acme Docs" || styling(got)["theme"] != "bold" {
			t.Fatalf("after delete %v", got)
		}
	})
	t.Run("OKPutReplacesWhole", func(t *testing.T) {
		got := f.e.Do(f.admin, "PUT", f.at("customization"), map[string]any{"styling": map[string]any{"corners": "straight"}}).Map(t)
		if got["title"] != nil || styling(got)["theme"] != "clean" || styling(got)["corners"] != "straight" {
			t.Fatalf("a second PUT kept fields it did not give: %v", got)
		}
	})
}

func TestSiteCustomizationErrors(t *testing.T) {
	f := newSharingFixture(t)
	f.e.Do(f.admin, "PUT", f.at("customization"), map[string]any{"title": "Kept"})
	f.e.Do(f.admin, "PATCH", f.at("site-spaces", f.siteSpaces[0], "customization"), map[string]any{"title": "Kept too"})
	other := f.createSite(t, map[string]any{"title": "Other site"})["id"].(string)
	before := rawRows(t, f.e, "sites") + rawRows(t, f.e, "site_spaces")
	override := f.at("site-spaces", f.siteSpaces[0], "customization")
	cases := []struct {
		name, method, path string
		body               any
		status             int
		field              string
	}{
		{"ErrColor", "PUT", f.at("customization"), map[string]any{"styling": map[string]any{"primaryColor": map[string]any{"light": "blue", "dark": "#000"}}}, 400, "styling.primaryColor.light"},
		{"ErrTheme", "PUT", f.at("customization"), map[string]any{"styling": map[string]any{"theme": 1}}, 400, "styling.theme"},
		{"ErrTitleLong", "PUT", f.at("customization"), map[string]any{"title": strings.Repeat("t", 129)}, 400, "title"},
		{"ErrFaviconURL", "PUT", f.at("customization"), map[string]any{"favicon": map[string]any{"icon": map[string]any{"light": "ftp://x.io/a", "dark": "https://x.io/b"}}}, 400, "favicon.icon.light"},
		{"ErrLinkRef", "PUT", f.at("customization"), map[string]any{"header": map[string]any{"links": []any{map[string]any{"title": "X", "links": []any{}, "to": map[string]any{"kind": "page"}}}}}, 400, "header.links[0].to.page"},
		{"ErrNotObject", "PUT", f.at("customization"), []any{1}, 400, "request body"},
		{"ErrOverrideEnum", "PATCH", override, map[string]any{"styling": map[string]any{"sidebar": map[string]any{"list": "zigzag"}}}, 400, "styling.sidebar.list"},
		{"ErrOverrideTitle", "PATCH", override, map[string]any{"title": "x"}, 400, "title"},
		{"ErrUnknownSiteSpace", "PATCH", f.at("site-spaces", "nope", "customization"), map[string]any{"title": "Nope"}, 404, "site space"},
		{"ErrUnknownSiteSpaceGet", "GET", f.at("site-spaces", "nope", "customization"), nil, 404, "site space"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantError(t, f.e.Do(f.admin, c.method, c.path, c.body), c.status, c.field) })
	}
	t.Run("ErrRoles", func(t *testing.T) {
		for _, a := range []testenv.Actor{f.reader, f.editor} {
			testenv.CheckError(t, f.e.Do(a, "PUT", f.at("customization"), map[string]any{}), 403)
			testenv.CheckError(t, f.e.Do(a, "PATCH", override, map[string]any{"title": "Mine"}), 403)
			testenv.CheckError(t, f.e.Do(a, "DELETE", override, nil), 403)
		}
	})
	t.Run("ErrSiteSpaceOfAnotherSite", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path(other, "site-spaces", f.siteSpaces[0], "customization"), nil), 404)
		testenv.CheckError(t, f.e.Do(f.admin, "DELETE", f.path(other, "site-spaces", f.siteSpaces[0], "customization"), nil), 404)
	})
	if after := rawRows(t, f.e, "sites") + rawRows(t, f.e, "site_spaces"); after != before {
		t.Fatalf("failed writes changed the settings:\nbefore %s\nafter  %s", before, after)
	}
}

func TestSiteSharingGraphQL(t *testing.T) {
	f := newSharingFixture(t)
	vars := map[string]any{"o": f.org, "s": f.site}
	var created struct {
		CreateSiteShareLink struct {
			Key       string
			ShareLink struct{ ID, Name string }
		}
	}
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { createSiteShareLink(organizationId: $o, siteId: $s,
		input: {name: "Board"}) { key shareLink { id name } } }`, vars), &created)
	link := created.CreateSiteShareLink
	t.Run("OKShareLinks", func(t *testing.T) {
		if len(link.Key) != 32 || link.ShareLink.Name != "Board" {
			t.Fatalf("created %+v", link)
		}
		var d struct {
			Organization struct {
				Site struct {
					ShareLinks struct {
						TotalCount int
						Edges      []struct{ Node struct{ ID string } }
					}
				}
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, `query($o: ID!, $s: ID!, $k: String) { organization(id: $o) { site(id: $s) {
			shareLinks(search: $k) { totalCount edges { node { id } } } } } }`, map[string]any{"o": f.org, "s": f.site, "k": link.Key}), &d)
		if got := d.Organization.Site.ShareLinks; got.TotalCount != 1 || got.Edges[0].Node.ID != link.ShareLink.ID {
			t.Fatalf("found by key: %+v", got)
		}
	})
	t.Run("OKUpdateAndDelete", func(t *testing.T) {
		var d struct {
			UpdateSiteShareLink struct{ Active bool }
			Deleted             bool
			Again               bool
		}
		gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $l: ID!) {
			updateSiteShareLink(organizationId: $o, siteId: $s, shareLinkId: $l, input: {active: false}) { active }
			deleted: deleteSiteShareLink(organizationId: $o, siteId: $s, shareLinkId: $l)
			again: deleteSiteShareLink(organizationId: $o, siteId: $s, shareLinkId: $l) }`,
			map[string]any{"o": f.org, "s": f.site, "l": link.ShareLink.ID}), &d)
		if d.UpdateSiteShareLink.Active || !d.Deleted || d.Again {
			t.Fatalf("got %+v", d)
		}
	})
	authQuery := `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { publishingAuth { privateKey fallbackURL } } } }`
	t.Run("OKPublishingAuth", func(t *testing.T) {
		var d struct {
			Organization struct {
				Site struct{ PublishingAuth struct{ PrivateKey string } }
			}
		}
		gqlOK(t, f.e.GraphQL(f.creator, authQuery, vars), &d)
		var r struct {
			RegenerateSitePublishingAuth struct{ PrivateKey string }
			UpdateSitePublishingAuth     struct{ FallbackURL string }
		}
		gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { regenerateSitePublishingAuth(organizationId: $o, siteId: $s) { privateKey }
			updateSitePublishingAuth(organizationId: $o, siteId: $s, input: {fallbackURL: "https://login.example.com"}) { fallbackURL } }`, vars), &r)
		old := d.Organization.Site.PublishingAuth.PrivateKey
		if len(old) != 43 || r.RegenerateSitePublishingAuth.PrivateKey == old || r.UpdateSitePublishingAuth.FallbackURL != "https://login.example.com" {
			t.Fatalf("key %q, then %+v", old, r)
		}
	})
	t.Run("ErrReaders", func(t *testing.T) {
		gqlExpectError(t, f.e.GraphQL(f.reader, authQuery, vars), "FORBIDDEN")
		gqlExpectError(t, f.e.GraphQL(f.editor, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) {
			shareLinks { totalCount } } } }`, vars), "FORBIDDEN")
		gqlExpectError(t, f.e.GraphQL(f.outsider, `mutation($o: ID!, $s: ID!) { regenerateSitePublishingAuth(organizationId: $o, siteId: $s) { privateKey } }`, vars), "NOT_FOUND")
	})
	t.Run("OKAdaptiveSchema", func(t *testing.T) {
		q := `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { adaptiveSchema { jsonSchema updatedAt } } } }`
		var before struct {
			Organization struct {
				Site struct{ AdaptiveSchema *struct{ UpdatedAt string } }
			}
		}
		gqlOK(t, f.e.GraphQL(f.reader, q, vars), &before)
		var d struct {
			UpdateSiteAdaptiveSchema struct{ JSONSchema map[string]any }
		}
		gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $j: JSON!) { updateSiteAdaptiveSchema(organizationId: $o, siteId: $s,
			jsonSchema: $j) { jsonSchema } }`, map[string]any{"o": f.org, "s": f.site, "j": visitorSchema("isBetaUser")}), &d)
		var after struct {
			Organization struct {
				Site struct{ AdaptiveSchema *struct{ UpdatedAt string } }
			}
		}
		gqlOK(t, f.e.GraphQL(f.reader, q, vars), &after)
		if before.Organization.Site.AdaptiveSchema != nil || after.Organization.Site.AdaptiveSchema == nil ||
			d.UpdateSiteAdaptiveSchema.JSONSchema["properties"] == nil {
			t.Fatalf("before %+v, after %+v, answer %v", before, after, d)
		}
		gqlExpectError(t, f.e.GraphQL(f.editor, `mutation($o: ID!, $s: ID!) { updateSiteAdaptiveSchema(organizationId: $o, siteId: $s,
			jsonSchema: {type: "object"}) { updatedAt } }`, vars), "FORBIDDEN")
	})
	t.Run("OKCustomization", func(t *testing.T) {
		var d struct{ UpdateSiteCustomization map[string]any }
		gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $c: JSON!) { updateSiteCustomization(organizationId: $o, siteId: $s, settings: $c) }`,
			map[string]any{"o": f.org, "s": f.site, "c": map[string]any{"styling": map[string]any{"theme": "gradient"}}}), &d)
		var q struct {
			Organization struct {
				Site struct{ Customization map[string]any }
			}
		}
		gqlOK(t, f.e.GraphQL(f.reader, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { customization } } }`, vars), &q)
		if theme := q.Organization.Site.Customization["styling"].(map[string]any)["theme"]; theme != "gradient" ||
			fmt.Sprint(q.Organization.Site.Customization) != fmt.Sprint(d.UpdateSiteCustomization) {
			t.Fatalf("read %v after writing %v", q.Organization.Site.Customization, d.UpdateSiteCustomization)
		}
		var o struct{ OverrideSiteSpaceCustomization map[string]any }
		defer func() {
			var q struct {
				Organization struct {
					Site struct {
						SiteSpace struct{ Customization map[string]any }
					}
				}
			}
			gqlOK(t, f.e.GraphQL(f.reader, `query($o: ID!, $s: ID!, $ss: ID!) { organization(id: $o) { site(id: $s) {
				siteSpace(id: $ss) { customization } } } }`, map[string]any{"o": f.org, "s": f.site, "ss": f.siteSpaces[1]}), &q)
			if got := q.Organization.Site.SiteSpace.Customization; got["title"] != "API" {
				t.Fatalf("SiteSpace.customization %v", got)
			}
		}()
		gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $ss: ID!) { overrideSiteSpaceCustomization(organizationId: $o, siteId: $s,
			siteSpaceId: $ss, override: {title: "API"}) }`, map[string]any{"o": f.org, "s": f.site, "ss": f.siteSpaces[1]}), &o)
		if o.OverrideSiteSpaceCustomization["title"] != "API" {
			t.Fatalf("override answered %v", o.OverrideSiteSpaceCustomization)
		}
		g := f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { updateSiteCustomization(organizationId: $o, siteId: $s,
			settings: {styling: {corners: "sharp"}}) }`, vars)
		gqlExpectError(t, g, "BAD_REQUEST")
		if !strings.HasPrefix(g.Errors[0].Message, "styling.corners: ") {
			t.Fatalf("message %q", g.Errors[0].Message)
		}
	})
}

// TestShareLinkStatements: a page of sites with their share links costs the same statements for
// 2 sites as for 8.
func TestShareLinkStatements(t *testing.T) {
	count := func(n int) int64 {
		e := testenv.New(t, batchingOptions)
		admin, org := e.Bootstrap("ada@example.com", "Acme")
		for i := range n {
			s := e.Do(admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": fmt.Sprintf("Site %d", i)}).Map(t)["id"].(string)
			for j := range 3 {
				e.Do(admin, "POST", "/v1/orgs/"+org+"/sites/"+s+"/share-links", map[string]any{"name": fmt.Sprint(j)})
			}
		}
		q := `query($o: ID!) { organization(id: $o) { sites(first: 50) { edges { node { title
			shareLinks(first: 2) { totalCount pageInfo { hasNextPage } edges { node { id name active createdAt } } } } } } } }`
		return gqlStatements(t, e, func() { gqlOK(t, e.GraphQL(admin, q, map[string]any{"o": org}), &struct{}{}) })
	}
	few, many := count(2), count(8)
	t.Logf("statements: %d for 2 sites, %d for 8", few, many)
	if few != many {
		t.Fatalf("statements grow with the sites: %d for 2, %d for 8", few, many)
	}
}

// TestSiteSharingCascade: a deleted site's share links and visitor authentication settings go
// with it (ON DELETE CASCADE).
func TestSiteSharingCascade(t *testing.T) {
	f := newSharingFixture(t)
	f.createLink(t, "Gone")
	f.e.Do(f.admin, "GET", f.at("publishing", "auth"), nil)
	kept := f.createSite(t, map[string]any{"title": "Kept"})["id"].(string)
	f.e.Do(f.admin, "POST", f.path(kept, "share-links"), map[string]any{"name": "Kept"})
	if r := f.e.Do(f.admin, "DELETE", f.at(), nil); r.Status != http.StatusResetContent {
		t.Fatalf("delete the site: %d %s", r.Status, r.Body)
	}
	if rows := rawRows(t, f.e, "site_share_links"); strings.Contains(rows, f.site) || !strings.Contains(rows, kept) {
		t.Fatalf("share links after the delete: %s", rows)
	}
	if rows := rawRows(t, f.e, "site_publishing_auths"); rows != "" {
		t.Fatalf("settings after the delete: %s", rows)
	}
}

// visitorSchema is a visitor schema with boolean claims of the given names.
func visitorSchema(claims ...string) map[string]any {
	props := map[string]any{}
	for _, c := range claims {
		props[c] = map[string]any{"type": "boolean", "description": "d"}
	}
	return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
}

func TestSiteAdaptiveSchema(t *testing.T) {
	f := newSharingFixture(t)
	path := f.at("adaptive-schema")
	t.Run("ErrNoneYet", func(t *testing.T) { wantError(t, f.e.Do(f.reader, "GET", path, nil), 404, "adaptive schema") })
	t.Run("OKPut", func(t *testing.T) {
		got := f.e.Do(f.creator, "PUT", path, map[string]any{"jsonSchema": visitorSchema("isBetaUser")}).Map(t)
		if got["object"] != "site-adaptive-schema" || got["updatedAt"] == nil ||
			got["jsonSchema"].(map[string]any)["properties"].(map[string]any)["isBetaUser"] == nil {
			t.Fatalf("put answered %v", got)
		}
		if again := f.e.Do(f.reader, "GET", path, nil).Map(t); fmt.Sprint(again) != fmt.Sprint(got) {
			t.Fatalf("GET %v after PUT %v", again, got)
		}
	})
	before := f.e.Do(f.admin, "GET", path, nil).Map(t)
	cases := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"ErrMissing", map[string]any{}, 400, "jsonSchema"},
		{"ErrNull", map[string]any{"jsonSchema": nil}, 400, "jsonSchema"},
		{"ErrNotObject", map[string]any{"jsonSchema": 3}, 400, "jsonSchema"},
		{"ErrClaimType", map[string]any{"jsonSchema": map[string]any{"type": "object", "additionalProperties": false,
			"properties": map[string]any{"plan": map[string]any{"type": "date", "description": "d"}}}}, 400, "jsonSchema.properties.plan.type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantError(t, f.e.Do(f.admin, "PUT", path, c.body), c.status, c.field) })
	}
	t.Run("ErrRoles", func(t *testing.T) {
		for _, a := range []testenv.Actor{f.reader, f.editor} {
			testenv.CheckError(t, f.e.Do(a, "PUT", path, map[string]any{"jsonSchema": visitorSchema()}), 403)
		}
	})
	if after := f.e.Do(f.admin, "GET", path, nil).Map(t); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("failed writes changed the schema: %v, then %v", before, after)
	}
}

// TestSiteConditionsFollowTheSchema: conditions are checked against the site's visitor schema when
// written, and a schema that a condition of the site does not compile against is refused (409).
func TestSiteConditionsFollowTheSchema(t *testing.T) {
	f := newSharingFixture(t)
	header := map[string]any{"header": map[string]any{"links": []any{map[string]any{"title": "Beta", "links": []any{},
		"to": map[string]any{"kind": "url", "url": "https://example.com/beta"}, "condition": "visitor.claims.isBetaUser"}}}}
	put := func(claims ...string) testenv.Response {
		return f.e.Do(f.admin, "PUT", f.at("adaptive-schema"), map[string]any{"jsonSchema": visitorSchema(claims...)})
	}
	t.Run("ErrUnknownClaim", func(t *testing.T) {
		wantError(t, f.e.Do(f.admin, "PUT", f.at("customization"), header), 400, "header.links[0].condition: column ")
		wantError(t, f.e.Do(f.admin, "PATCH", f.at("site-spaces", f.siteSpaces[0], "customization"), header), 400,
			"header.links[0].condition: column ")
	})
	t.Run("OKKnownClaim", func(t *testing.T) {
		if r := put("isBetaUser", "isAdmin"); r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		f.e.Do(f.admin, "PUT", f.at("customization"), header)
		f.e.Do(f.admin, "PATCH", f.at("site-spaces", f.siteSpaces[1], "customization"), header)
	})
	t.Run("ErrSchemaDropsAClaimInUse", func(t *testing.T) {
		wantError(t, put("isAdmin"), 409, "the site's customization")
		f.e.Do(f.admin, "PUT", f.at("customization"), map[string]any{})
		wantError(t, put("isAdmin"), 409, "site space "+f.siteSpaces[1]+" (path api-reference)")
		f.e.Do(f.admin, "DELETE", f.at("site-spaces", f.siteSpaces[1], "customization"), nil)
		cond := "visitor.claims.isBetaUser && visitor.claims.isAdmin"
		f.e.Store.Client.SiteSpace.UpdateOneID(f.siteSpaces[0]).SetCondition(cond).ExecX(accounts.System(context.Background()))
		msg := testenv.CheckError(t, put("isAdmin"), 409)
		if !strings.Contains(msg, "site space "+f.siteSpaces[0]) || !strings.Contains(msg, "condition: column 16") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("OKNoConditionLeft", func(t *testing.T) {
		f.e.Store.Client.SiteSpace.UpdateOneID(f.siteSpaces[0]).ClearCondition().ExecX(accounts.System(context.Background()))
		if r := put("isAdmin"); r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
}

// TestSiteShareKey: `shareKey` on a site's reads makes their published URLs carry it; a key that
// opens nothing is 404.
func TestSiteShareKey(t *testing.T) {
	f := newSharingFixture(t)
	f.e.Do(f.admin, "POST", f.at("publish"), nil)
	key := keyOf(t, f.createLink(t, "Reviewers"))
	off := f.createLink(t, "Off")
	f.e.Do(f.admin, "PATCH", f.at("share-links", off.ID), map[string]any{"active": false})
	other := f.createSite(t, map[string]any{"title": "Other site"})["id"].(string)
	var theirs wireShareLink
	f.e.Do(f.admin, "POST", f.path(other, "share-links"), map[string]any{"name": "Theirs"}).JSON(t, &theirs)
	published := func(query string) []string {
		var l struct {
			Items []struct{ URLs struct{ Published string } }
		}
		f.e.Do(f.reader, "GET", f.at("site-spaces")+query, nil).JSON(t, &l)
		var out []string
		for _, ss := range l.Items {
			out = append(out, ss.URLs.Published)
		}
		return out
	}
	plain := published("")
	t.Run("OKKeyed", func(t *testing.T) {
		got := published("?shareKey=" + url.QueryEscape(key))
		for i, u := range got {
			if plain[i] == "" || u != plain[i]+"?shareKey="+key {
				t.Fatalf("keyed %v, plain %v", got, plain)
			}
		}
	})
	cases := []struct {
		name, key string
		status    int
	}{
		{"ErrUnknown", key + "x", 404}, {"ErrInactive", keyOf(t, off), 404}, {"ErrOtherSite", keyOf(t, theirs), 404},
		{"ErrEmpty", "", 400}, {"ErrLong", strings.Repeat("k", 101), 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, f.e.Do(f.reader, "GET", f.at("site-spaces")+"?shareKey="+url.QueryEscape(c.key), nil), c.status, "shareKey")
		})
	}
}
