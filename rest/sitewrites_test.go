package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitesectiongroup"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// patchSite patches a site as the admin and returns its wire form.
func (f *sitesFixture) patchSite(t *testing.T, id string, body map[string]any) map[string]any {
	t.Helper()
	resp := f.e.Do(f.admin, "PATCH", f.path(id), body)
	if resp.Status != http.StatusOK {
		t.Fatalf("patch %v: %d %s", body, resp.Status, resp.Body)
	}
	return resp.Map(t)
}

func TestUpdateSite(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs, f.api)
	t.Run("OK", func(t *testing.T) {
		s := f.patchSite(t, id, map[string]any{"title": "  Handbook ", "visibility": "unlisted", "basename": "handbook",
			"adaptiveContent": map[string]any{"enabled": true}, "proxy": "example.com/docs"})
		proxy, _ := s["proxy"].(map[string]any)
		if s["title"] != "Handbook" || s["visibility"] != "unlisted" || s["basename"] != "handbook" ||
			s["adaptiveContent"].(map[string]any)["enabled"] != true || proxy["origin"] != "example.com/docs" ||
			proxy["target"] != s["urls"].(map[string]any)["preview"] || !strings.HasSuffix(proxy["target"].(string), "/sites/handbook") {
			t.Fatalf("patched %v", s)
		}
	})
	t.Run("OmittedUnchanged", func(t *testing.T) {
		s := f.patchSite(t, id, map[string]any{})
		if s["title"] != "Handbook" || s["basename"] != "handbook" || s["proxy"] == nil {
			t.Fatalf("an empty patch changed %v", s)
		}
	})
	t.Run("ProxyNullRemovesIt", func(t *testing.T) {
		if s := f.patchSite(t, id, map[string]any{"proxy": nil}); s["proxy"] != nil || s["title"] != "Handbook" {
			t.Fatalf("patched %v", s)
		}
	})
	t.Run("DefaultSiteSpace", func(t *testing.T) {
		all := f.siteSpaces(t, f.admin, id, "")
		f.patchSite(t, id, map[string]any{"defaultSiteSpace": all[1].ID})
		if d := f.siteSpaces(t, f.admin, id, "?default=true"); len(d) != 1 || d[0].ID != all[1].ID {
			t.Fatalf("defaults %+v", d)
		}
	})
	t.Run("DefaultSiteSection", func(t *testing.T) {
		root := f.siteSpaces(t, f.admin, id, "")[0].ID
		guides := f.section(t, id, "guides")
		in := f.addSiteSpace(t, id, map[string]any{"spaceId": f.docs, "sectionId": guides})
		other := f.addSiteSpace(t, id, map[string]any{"spaceId": f.api, "sectionId": guides})
		f.patchSite(t, id, map[string]any{"defaultSiteSection": guides, "defaultSiteSpace": other.ID})
		var d struct {
			Organization struct {
				Site struct{ DefaultSiteSpace struct{ ID string } }
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { defaultSiteSpace { id } } } }`,
			map[string]any{"o": f.org, "s": id}), &d)
		if d.Organization.Site.DefaultSiteSpace.ID != other.ID {
			t.Fatalf("default site space %v, want %s (not %s)", d, other.ID, in.ID)
		}
		msg := testenv.CheckError(t, f.e.Do(f.admin, "PATCH", f.path(id), map[string]any{"defaultSiteSpace": root}), 400)
		if !strings.Contains(msg, "defaultSiteSpace") {
			t.Fatalf("message %q", msg)
		}
	})
}

func TestUpdateSiteRefusesBadInput(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs)
	other := f.siteWithSpaces(t, f.api)
	f.patchSite(t, other, map[string]any{"basename": "taken"})
	alien := f.e.Do(f.outsider, "POST", "/v1/orgs/"+f.otherOrg+"/sites", map[string]any{"title": "Alien"}).Map(t)["id"].(string)
	f.e.Do(f.outsider, "PATCH", "/v1/orgs/"+f.otherOrg+"/sites/"+alien, map[string]any{"basename": "alien"})
	otherSpace := f.siteSpaces(t, f.admin, other, "")[0].ID
	if _, err := f.e.Store.Client.Site.Create().SetID("lowercaseid").SetOrganizationID(f.otherOrg).SetTitle("Lower").Save(system()); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"ErrTitleShort", map[string]any{"title": " A "}, 400, "title"},
		{"ErrTitleLong", map[string]any{"title": strings.Repeat("x", 129)}, 400, "title"},
		{"ErrTitleNull", map[string]any{"title": nil}, 400, "title"},
		{"ErrTitleNumber", map[string]any{"title": 12}, 400, "title"},
		{"ErrVisibilityOfSpaces", map[string]any{"visibility": "private"}, 400, "visibility"},
		{"ErrVisibilityNull", map[string]any{"visibility": nil}, 400, "visibility"},
		{"ErrBasenameEmpty", map[string]any{"basename": ""}, 400, "basename"},
		{"ErrBasenameLong", map[string]any{"basename": strings.Repeat("b", 101)}, 400, "basename"},
		{"ErrBasenameUpper", map[string]any{"basename": "Docs"}, 400, "basename"},
		{"ErrBasenameSlash", map[string]any{"basename": "docs/v2"}, 400, "basename"},
		{"ErrBasenameNull", map[string]any{"basename": nil}, 400, "basename"},
		{"ErrBasenameTaken", map[string]any{"basename": "taken"}, 409, "basename"},
		{"ErrBasenameTakenInAnotherOrganization", map[string]any{"basename": "alien"}, 409, "basename"},
		{"ErrBasenameIsAnotherSitesID", map[string]any{"basename": "lowercaseid"}, 409, "basename"},
		{"ErrAdaptiveContentNull", map[string]any{"adaptiveContent": nil}, 400, "adaptiveContent"},
		{"ErrAdaptiveContentEmpty", map[string]any{"adaptiveContent": map[string]any{}}, 400, "adaptiveContent.enabled"},
		{"ErrAdaptiveContentNotBoolean", map[string]any{"adaptiveContent": map[string]any{"enabled": "yes"}}, 400, "adaptiveContent.enabled"},
		{"ErrProxyNoPath", map[string]any{"proxy": "example.com"}, 400, "proxy"},
		{"ErrProxyScheme", map[string]any{"proxy": "https://example.com/docs"}, 400, "proxy"},
		{"ErrProxyLong", map[string]any{"proxy": "example.com/" + strings.Repeat("d", 512)}, 400, "proxy"},
		{"ErrProxyNumber", map[string]any{"proxy": 5}, 400, "proxy"},
		{"ErrDefaultSiteSpaceNull", map[string]any{"defaultSiteSpace": nil}, 400, "defaultSiteSpace"},
		{"ErrDefaultSiteSpaceUnknown", map[string]any{"defaultSiteSpace": "nope"}, 404, "defaultSiteSpace"},
		{"ErrDefaultSiteSpaceOfAnotherSite", map[string]any{"defaultSiteSpace": otherSpace}, 404, "defaultSiteSpace"},
		{"ErrDefaultSiteSectionNull", map[string]any{"defaultSiteSection": nil}, 400, "defaultSiteSection"},
		{"ErrDefaultSiteSectionUnknown", map[string]any{"defaultSiteSection": "nope"}, 404, "defaultSiteSection"},
		{"ErrGoodTitleThenBadProxy", map[string]any{"title": "Changed", "proxy": "nope"}, 400, "proxy"},
		{"ErrGoodTitleThenTakenBasename", map[string]any{"title": "Changed", "basename": "taken"}, 409, "basename"},
	}
	before := string(f.e.Do(f.admin, "GET", f.path(id), nil).Body)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := testenv.CheckError(t, f.e.Do(f.admin, "PATCH", f.path(id), c.body), c.status)
			if !strings.Contains(msg, c.field) {
				t.Fatalf("message %q does not name %s", msg, c.field)
			}
		})
	}
	if after := string(f.e.Do(f.admin, "GET", f.path(id), nil).Body); after != before {
		t.Fatalf("failed patches changed the site:\n%s\n%s", before, after)
	}
	t.Run("OwnBasenameAgain", func(t *testing.T) {
		f.patchSite(t, other, map[string]any{"basename": "taken", "title": "Other"})
	})
}

func TestDeleteSite(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs, f.api)
	keep := f.siteWithSpaces(t, f.docs)
	guides := f.section(t, id, "guides")
	f.addSiteSpace(t, id, map[string]any{"spaceId": f.docs, "sectionId": guides})
	f.patchSite(t, id, map[string]any{"defaultSiteSection": guides})
	if _, err := f.e.Store.Client.SiteSectionGroup.Create().SetOrganizationID(f.org).SetSiteID(id).SetTitle("Group").Save(system()); err != nil {
		t.Fatal(err)
	}
	f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, map[string]any{"defaultContent": map[string]any{"type": "site", "site": id}})
	if resp := f.e.Do(f.admin, "DELETE", f.path(id), nil); resp.Status != http.StatusResetContent {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path(id), nil), 404)
	testenv.CheckError(t, f.e.Do(f.admin, "DELETE", f.path(id), nil), 404)
	c := f.e.Store.Client
	spaces, _ := c.SiteSpace.Query().Where(sitespace.SiteID(id)).Count(system())
	sections, _ := c.SiteSection.Query().Where(sitesection.SiteID(id)).Count(system())
	groups, _ := c.SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(id)).Count(system())
	if spaces+sections+groups != 0 {
		t.Fatalf("left %d site spaces, %d sections, %d groups", spaces, sections, groups)
	}
	if o := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org, nil).Map(t); o["defaultContent"] != nil {
		t.Fatalf("defaultContent %v", o["defaultContent"])
	}
	f.checkCounter(t, keep, 1)
	if resp := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.docs, nil); resp.Status != http.StatusOK {
		t.Fatalf("the space went with the site: %d", resp.Status)
	}
}

func TestPublishSite(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs)
	s := f.e.Do(f.admin, "POST", f.path(id, "publish"), nil).Map(t)
	urls := s["urls"].(map[string]any)
	if s["published"] != true || urls["published"] != urls["preview"] {
		t.Fatalf("published %v", s)
	}
	var l struct{ Count int }
	f.e.Do(f.admin, "GET", f.path()+"?published=true", nil).JSON(t, &l)
	if l.Count != 1 {
		t.Fatalf("%d published sites", l.Count)
	}
	s = f.e.Do(f.admin, "POST", f.path(id, "unpublish"), nil).Map(t)
	if s["published"] != false || s["urls"].(map[string]any)["published"] != nil {
		t.Fatalf("unpublished %v", s)
	}
	f.e.Do(f.admin, "POST", f.path(id, "unpublish"), nil) // again: still unpublished
}

func TestSiteWritesAccess(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs)
	reader, editor, creator := f.roles()
	writes := []struct {
		method, path string
		body         any
		status       int
	}{
		{"PATCH", f.path(id), map[string]any{"title": "Mine"}, 200},
		{"POST", f.path(id, "publish"), nil, 200},
		{"POST", f.path(id, "unpublish"), nil, 200},
		{"DELETE", f.path(id), nil, 205},
	}
	before := string(f.e.Do(f.admin, "GET", f.path(id), nil).Body)
	for _, w := range writes {
		testenv.CheckError(t, f.e.Do(reader, w.method, w.path, w.body), 403)
		testenv.CheckError(t, f.e.Do(editor, w.method, w.path, w.body), 403)
		testenv.CheckError(t, f.e.Do(f.outsider, w.method, w.path, w.body), 404)
		testenv.CheckError(t, f.e.Do(f.outsider, w.method, "/v1/orgs/"+f.otherOrg+"/sites/"+id+strings.TrimPrefix(w.path, f.path(id)), w.body), 404)
		testenv.CheckError(t, f.e.Do(testenv.Actor{}, w.method, w.path, w.body), 401)
	}
	if after := string(f.e.Do(f.admin, "GET", f.path(id), nil).Body); after != before {
		t.Fatalf("refused writes changed the site:\n%s\n%s", before, after)
	}
	for _, w := range writes {
		if resp := f.e.Do(creator, w.method, w.path, w.body); resp.Status != w.status {
			t.Fatalf("a creator %s %s: %d %s", w.method, w.path, resp.Status, resp.Body)
		}
	}
}

func TestCreateSiteWithNewSpace(t *testing.T) {
	f := newSitesFixture(t)
	s := f.createSite(t, map[string]any{"title": "Fresh docs", "spaces": "new"})
	all := f.siteSpaces(t, f.admin, s["id"].(string), "")
	if s["siteSpaces"] != 1.0 || len(all) != 1 || all[0].Space.Title != "Fresh docs" || !all[0].Default {
		t.Fatalf("site %v, site spaces %+v", s, all)
	}
	if resp := f.e.Do(f.admin, "GET", "/v1/spaces/"+all[0].Space.ID, nil); resp.Status != http.StatusOK {
		t.Fatalf("the new space: %d", resp.Status)
	}
	msg := testenv.CheckError(t, f.e.Do(f.admin, "POST", f.path(), map[string]any{"spaces": "old"}), 400)
	if !strings.Contains(msg, "spaces") {
		t.Fatalf("message %q", msg)
	}
	g := f.e.GraphQL(f.admin, `mutation($o: ID!, $sp: [ID!]) { createSite(organizationId: $o, input: {spaces: $sp, newSpace: true}) { id } }`,
		map[string]any{"o": f.org, "sp": []string{f.docs}})
	wantGQLError(t, g, "BAD_REQUEST", "spaces")
	var d struct {
		CreateSite struct {
			SiteSpaceCount int
			SiteSpaces     struct {
				Edges []struct{ Node struct{ Title string } }
			}
		}
	}
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!) { createSite(organizationId: $o, input: {title: "Graph docs", newSpace: true}) {
		siteSpaceCount siteSpaces { edges { node { title } } } } }`, map[string]any{"o": f.org}), &d)
	if d.CreateSite.SiteSpaceCount != 1 || d.CreateSite.SiteSpaces.Edges[0].Node.Title != "Graph docs" {
		t.Fatalf("created %+v", d)
	}
}

func TestGraphQLSiteWrites(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs)
	vars := map[string]any{"o": f.org, "s": id}
	var d struct {
		UpdateSite struct {
			Title, Basename, URL string
			Proxy                *struct{ Origin, Target string }
		}
	}
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { updateSite(organizationId: $o, siteId: $s, input: {title: "Graph", basename: "graph", proxy: "example.com/graph"}) {
		title basename url proxy { origin target } } }`, vars), &d)
	if u := d.UpdateSite; u.Title != "Graph" || u.Basename != "graph" || u.Proxy == nil || u.Proxy.Target != u.URL {
		t.Fatalf("updated %+v", u)
	}
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { updateSite(organizationId: $o, siteId: $s, input: {proxy: null}) { title basename url proxy { origin } } }`, vars), &d)
	if d.UpdateSite.Proxy != nil || d.UpdateSite.Basename != "graph" {
		t.Fatalf("proxy null: %+v", d.UpdateSite)
	}
	wantGQLError(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { updateSite(organizationId: $o, siteId: $s, input: {basename: "Nope!"}) { id } }`, vars),
		"BAD_REQUEST", "basename")
	var p struct{ PublishSite struct{ Published bool } }
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { publishSite(organizationId: $o, siteId: $s) { published } }`, vars), &p)
	if !p.PublishSite.Published {
		t.Fatal("not published")
	}
	var u struct{ UnpublishSite struct{ Published bool } }
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { unpublishSite(organizationId: $o, siteId: $s) { published } }`, vars), &u)
	if u.UnpublishSite.Published {
		t.Fatal("still published")
	}
	editor := f.e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
	wantGQLError(t, f.e.GraphQL(editor, `mutation($o: ID!, $s: ID!) { deleteSite(organizationId: $o, siteId: $s) }`, vars), "FORBIDDEN")
	wantGQLError(t, f.e.GraphQL(f.outsider, `mutation($o: ID!, $s: ID!) { deleteSite(organizationId: $o, siteId: $s) }`, vars), "NOT_FOUND")
	var del struct{ DeleteSite bool }
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!) { deleteSite(organizationId: $o, siteId: $s) }`, vars), &del)
	testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path(id), nil), 404)
}
