package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// wireSection is the part of a SiteSection the tests read.
type wireSection struct {
	ID           string
	Title        string
	Path         string
	Default      bool
	Condition    *string
	Icon         *string
	Description  *string
	SectionGroup *string
	SiteSpaces   []struct {
		ID      string
		Path    string
		Default bool
		Space   struct{ ID string }
	}
}

// spaceIDs are the ids of the spaces of a section's site spaces, in order.
func (s wireSection) spaceIDs() []string {
	var ids []string
	for _, ss := range s.SiteSpaces {
		ids = append(ids, ss.Space.ID)
	}
	return ids
}

// siteSpaceID returns the id of the section's site space showing space.
func (s wireSection) siteSpaceID(space string) string {
	for _, ss := range s.SiteSpaces {
		if ss.Space.ID == space {
			return ss.ID
		}
	}
	return ""
}

// sectionsFixture is a sites fixture with a site whose only site space shows the docs space.
type sectionsFixture struct {
	*sitesFixture
	site  string
	guide string // a third space of the organization
}

func newSectionsFixture(t *testing.T) *sectionsFixture {
	t.Helper()
	f := &sectionsFixture{sitesFixture: newSitesFixture(t)}
	f.site = f.createSite(t, map[string]any{"title": "Docs site", "spaces": []string{f.docs}})["id"].(string)
	f.guide = f.space(t, f.admin, f.org, "Guide")
	return f
}

// sec is the path of the site's sections, followed by the given segments.
func (f *sectionsFixture) sec(segments ...string) string {
	return f.path(append([]string{f.site, "sections"}, segments...)...)
}

// add creates a section as the admin and returns it.
func (f *sectionsFixture) add(t *testing.T, body map[string]any) wireSection {
	t.Helper()
	resp := f.e.Do(f.admin, "POST", f.sec(), body)
	if resp.Status != http.StatusCreated {
		t.Fatalf("add section %v: %d %s", body, resp.Status, resp.Body)
	}
	var s wireSection
	resp.JSON(t, &s)
	return s
}

// list returns the site's sections as the admin, in list order.
func (f *sectionsFixture) list(t *testing.T) []wireSection {
	t.Helper()
	var l struct{ Items []wireSection }
	f.e.Do(f.admin, "GET", f.sec(), nil).JSON(t, &l)
	return l.Items
}

// structure returns the titles of the site's structure (a group's as "Group[A B]"), its type
// first.
func (f *sectionsFixture) structure(t *testing.T) string {
	t.Helper()
	var st struct {
		Type      string
		Structure []struct {
			Object   string
			Title    string
			Path     string
			Sections []struct{ Title string }
		}
	}
	f.e.Do(f.admin, "GET", f.path(f.site, "structure"), nil).JSON(t, &st)
	parts := []string{st.Type + ":"}
	for _, it := range st.Structure {
		switch it.Object {
		case "site-section-group":
			var inner []string
			for _, s := range it.Sections {
				inner = append(inner, s.Title)
			}
			parts = append(parts, it.Title+"["+strings.Join(inner, " ")+"]")
		case "site-section":
			parts = append(parts, it.Title)
		default:
			parts = append(parts, it.Path)
		}
	}
	return strings.Join(parts, " ")
}

// schemaJSON is an adaptive-content schema with a claim isBetaUser and an unsigned claim
// fromNewsletter, both booleans.
const schemaJSON = `{"type": "object", "additionalProperties": false, "properties": {
	"isBetaUser": {"type": "boolean", "description": "Beta tester"},
	"unsigned": {"type": "object", "description": "Unsigned claims of the site visitor.", "additionalProperties": false,
		"properties": {"fromNewsletter": {"type": "boolean", "description": "Came from the newsletter"}}}}}`

// setSchema stores schemaJSON as the site's adaptive-content schema, below the API.
func (f *sectionsFixture) setSchema(t *testing.T) {
	t.Helper()
	var schema map[string]any
	if err := json.Unmarshal([]byte(schemaJSON), &schema); err != nil {
		t.Fatal(err)
	}
	if err := f.e.Store.Client.Site.UpdateOneID(f.site).SetAdaptiveSchema(schema).Exec(accounts.System(context.Background())); err != nil {
		t.Fatal(err)
	}
}

// siteSpaces returns the site's siteSpaces counter.
func (f *sectionsFixture) siteSpaces(t *testing.T) float64 {
	t.Helper()
	return f.e.Do(f.admin, "GET", f.path(f.site), nil).Map(t)["siteSpaces"].(float64)
}

// defaults returns the default section and site space ids of a site ("" for none), read through
// GraphQL (Site.defaultSection, Site.defaultSiteSpace).
func (f *sectionsFixture) defaults(t *testing.T, site ...string) (section, siteSpace string) {
	t.Helper()
	id := f.site
	if len(site) > 0 {
		id = site[0]
	}
	var g struct {
		Organization struct {
			Site struct{ DefaultSection, DefaultSiteSpace *struct{ ID string } }
		}
	}
	gqlOK(t, f.e.GraphQL(f.admin, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) {
		defaultSection { id } defaultSiteSpace { id } } } }`, map[string]any{"o": f.org, "s": id}), &g)
	if d := g.Organization.Site.DefaultSection; d != nil {
		section = d.ID
	}
	if d := g.Organization.Site.DefaultSiteSpace; d != nil {
		siteSpace = d.ID
	}
	return section, siteSpace
}

// postLocation POSTs a JSON body as a and returns the status and the Location header.
func postLocation(t *testing.T, e *testenv.Env, a testenv.Actor, path, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", e.Server.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+a.Token)
	res, err := e.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Location")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// refusal is a request body that must fail with status, its message naming field.
type refusal struct {
	name   string
	body   any
	status int
	field  string
}

// wantRefused sends each refusal to path with method as the admin, then checks that none of them
// changed anything.
func (f *sectionsFixture) wantRefused(t *testing.T, method, path string, cases []refusal) {
	t.Helper()
	before := f.snapshot(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := testenv.CheckError(t, f.e.Do(f.admin, method, path, c.body), c.status)
			if !strings.Contains(msg, c.field) {
				t.Fatalf("message %q does not name %s", msg, c.field)
			}
		})
	}
	t.Run("NothingChanged", func(t *testing.T) { f.wantUnchanged(t, before) })
}

// wantUnchanged fails unless the snapshot is still before.
func (f *sectionsFixture) wantUnchanged(t *testing.T, before string) {
	t.Helper()
	if after := f.snapshot(t); after != before {
		t.Fatalf("before %s\nafter %s", before, after)
	}
}

// snapshot reads everything a failed write must leave as it was.
func (f *sectionsFixture) snapshot(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, p := range []string{f.sec(), f.path(f.site, "structure"), f.path(f.site, "section-groups"), f.path(f.site)} {
		b.Write(f.e.Do(f.admin, "GET", p, nil).Body)
	}
	return b.String()
}

func TestSiteSectionCreate(t *testing.T) {
	f := newSectionsFixture(t)
	t.Run("OKFirstTakesTheSiteSpaces", func(t *testing.T) {
		resp := f.e.Do(f.admin, "POST", f.sec(), map[string]any{"spaceId": f.api})
		if resp.Status != http.StatusCreated {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		var s wireSection
		resp.JSON(t, &s)
		if s.Title != "API Reference" || s.Path != "api-reference" || !s.Default {
			t.Fatalf("section %+v", s)
		}
		if got := s.spaceIDs(); !slices.Equal(got, []string{f.docs, f.api}) {
			t.Fatalf("site spaces %v, want docs then api", got)
		}
		if !s.SiteSpaces[0].Default || s.SiteSpaces[1].Default {
			t.Fatalf("the site's default site space stays the default: %+v", s.SiteSpaces)
		}
		if n := f.siteSpaces(t); n != 2 {
			t.Fatalf("siteSpaces %v, want 2", n)
		}
		section, siteSpace := f.defaults(t)
		if section != s.ID || siteSpace != s.SiteSpaces[0].ID {
			t.Fatalf("site defaults %s %s", section, siteSpace)
		}
	})
	t.Run("OKNextIsNotDefault", func(t *testing.T) {
		s := f.add(t, map[string]any{"spaceId": f.docs, "title": "  Guides  ", "icon": "book"})
		if s.Title != "Guides" || s.Path != "guides" || s.Default || deref(s.Icon) != "book" {
			t.Fatalf("section %+v", s)
		}
		if len(s.SiteSpaces) != 1 || !s.SiteSpaces[0].Default || s.SiteSpaces[0].Space.ID != f.docs {
			t.Fatalf("its one site space is its default: %+v", s.SiteSpaces)
		}
		if n := f.siteSpaces(t); n != 3 {
			t.Fatalf("siteSpaces %v, want 3", n)
		}
	})
	t.Run("OKPathsDoNotClash", func(t *testing.T) {
		if s := f.add(t, map[string]any{"spaceId": f.guide, "title": "Guides"}); s.Path != "guides-2" {
			t.Fatalf("path %q, want guides-2", s.Path)
		}
		if got := f.structure(t); got != "sections: API Reference Guides Guides" {
			t.Fatalf("structure %q", got)
		}
	})
	t.Run("OKLocationHeader", func(t *testing.T) {
		status, loc := postLocation(t, f.e, f.admin, f.sec(), `{"spaceId": "`+f.guide+`"}`)
		if status != http.StatusCreated || !strings.HasPrefix(loc, f.e.Server.URL+f.sec()+"/") {
			t.Fatalf("%d, Location %q", status, loc)
		}
	})
	t.Run("OKFirstWithASpaceTheSiteShows", func(t *testing.T) {
		id := f.createSite(t, map[string]any{"title": "Again", "spaces": []string{f.docs}})["id"].(string)
		var s wireSection
		f.e.Do(f.admin, "POST", f.path(id, "sections"), map[string]any{"spaceId": f.docs}).JSON(t, &s)
		if got := s.spaceIDs(); !slices.Equal(got, []string{f.docs}) || !s.SiteSpaces[0].Default {
			t.Fatalf("the space is shown once, as the default: %+v", s.SiteSpaces)
		}
		if n := f.e.Do(f.admin, "GET", f.path(id), nil).Map(t)["siteSpaces"]; n != float64(1) {
			t.Fatalf("siteSpaces %v, want 1", n)
		}
	})
	t.Run("OKNewSpace", func(t *testing.T) {
		s := f.add(t, map[string]any{"spaceId": nil, "title": " Changelog "})
		if s.Title != "Changelog" || len(s.SiteSpaces) != 1 || s.SiteSpaces[0].Space.ID == "" {
			t.Fatalf("section %+v", s)
		}
		space := f.e.Do(f.admin, "GET", "/v1/spaces/"+s.SiteSpaces[0].Space.ID, nil).Map(t)
		if space["title"] != "Changelog" || space["organization"] != f.org {
			t.Fatalf("new space %v", space)
		}
		if s := f.add(t, map[string]any{"spaceId": nil}); s.Title != "Docs site" {
			t.Fatalf("a new space and its section without a title take the site's: %+v", s)
		}
	})
	t.Run("OKEmptySite", func(t *testing.T) {
		empty := f.createSite(t, map[string]any{"title": "Empty"})["id"].(string)
		var s wireSection
		f.e.Do(f.admin, "POST", f.path(empty, "sections"), map[string]any{"spaceId": f.guide, "title": nil}).JSON(t, &s)
		if s.Title != "Guide" || !s.Default || len(s.SiteSpaces) != 1 || !s.SiteSpaces[0].Default {
			t.Fatalf("section %+v", s)
		}
		if section, siteSpace := f.defaults(t, empty); section != s.ID || siteSpace != s.SiteSpaces[0].ID {
			t.Fatalf("site defaults %s %s", section, siteSpace)
		}
	})
}

func TestSiteSectionCreateRefusesBadInput(t *testing.T) {
	f := newSectionsFixture(t)
	f.wantRefused(t, "POST", f.sec(), []refusal{
		{"ErrSpaceMissing", map[string]any{"title": "Guides"}, 400, "spaceId"},
		{"ErrSpaceNotString", map[string]any{"spaceId": 42}, 400, "spaceId"},
		{"ErrSpaceUnknown", map[string]any{"spaceId": "nope"}, 404, "spaceId"},
		{"ErrSpaceOfAnotherOrg", map[string]any{"spaceId": f.alien}, 404, "spaceId"},
		{"ErrTitleShort", map[string]any{"spaceId": f.api, "title": " A "}, 400, "title"},
		{"ErrTitleLong", map[string]any{"spaceId": f.api, "title": strings.Repeat("x", 65)}, 400, "title"},
		{"ErrTitleNotString", map[string]any{"spaceId": f.api, "title": true}, 400, "title"},
		{"ErrIconLong", map[string]any{"spaceId": f.api, "icon": strings.Repeat("x", 51)}, 400, "icon"},
		{"ErrIconEmpty", map[string]any{"spaceId": f.api, "icon": ""}, 400, "icon"},
		{"ErrGroupUnknown", map[string]any{"spaceId": f.api, "siteSectionGroupId": "nope"}, 404, "sectionGroupId"},
		{"ErrGroupNull", map[string]any{"spaceId": f.api, "siteSectionGroupId": nil}, 400, "siteSectionGroupId"},
		{"ErrBodyNotObject", []any{}, 400, "request body"},
	})
	t.Run("OKTitleAtBounds", func(t *testing.T) {
		f.add(t, map[string]any{"spaceId": f.api, "title": strings.Repeat("é", 64)})
		f.add(t, map[string]any{"spaceId": f.api, "title": "ab"})
	})
}

func TestSiteSectionUpdate(t *testing.T) {
	f := newSectionsFixture(t)
	first := f.add(t, map[string]any{"spaceId": f.api})
	other := f.add(t, map[string]any{"spaceId": f.guide, "title": "Guides"})
	patch := func(t *testing.T, id string, body any) testenv.Response {
		t.Helper()
		return f.e.Do(f.admin, "PATCH", f.sec(id), body)
	}
	t.Run("ErrConditionWithoutSchema", func(t *testing.T) {
		msg := testenv.CheckError(t, patch(t, first.ID, map[string]any{"condition": "visitor.claims.isBetaUser"}), 400)
		if !strings.Contains(msg, "condition: column") {
			t.Fatalf("message %q", msg)
		}
	})
	f.setSchema(t)
	t.Run("OKEveryField", func(t *testing.T) {
		var s wireSection
		resp := patch(t, first.ID, map[string]any{"title": " Reference ", "path": "ref_1.0", "condition": "visitor.claims.isBetaUser",
			"icon": "gear", "description": "All of the API"})
		if resp.Status != 200 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		resp.JSON(t, &s)
		if s.Title != "Reference" || s.Path != "ref_1.0" || deref(s.Condition) != "visitor.claims.isBetaUser" ||
			deref(s.Icon) != "gear" || deref(s.Description) != "All of the API" {
			t.Fatalf("section %+v", s)
		}
	})
	t.Run("OKOmittedStays", func(t *testing.T) {
		var s wireSection
		patch(t, first.ID, map[string]any{}).JSON(t, &s)
		if s.Title != "Reference" || deref(s.Icon) != "gear" || deref(s.Condition) == "" {
			t.Fatalf("section %+v", s)
		}
	})
	t.Run("OKNullRemoves", func(t *testing.T) {
		var s wireSection
		patch(t, first.ID, map[string]any{"condition": nil, "icon": nil, "description": nil}).JSON(t, &s)
		if s.Condition != nil || s.Icon != nil || s.Description != nil || s.Title != "Reference" {
			t.Fatalf("section %+v", s)
		}
	})
	t.Run("OKBounds", func(t *testing.T) {
		body := map[string]any{"title": strings.Repeat("t", 128), "path": strings.Repeat("p", 100),
			"condition": "!visitor.claims.unsigned.fromNewsletter" + strings.Repeat(" ", 1024-39), "icon": strings.Repeat("i", 50), "description": strings.Repeat("d", 256)}
		if resp := patch(t, first.ID, body); resp.Status != 200 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		if resp := patch(t, first.ID, map[string]any{"description": "", "path": "ref"}); resp.Status != 200 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
	})
	t.Run("OKDefaultSiteSpace", func(t *testing.T) {
		var s wireSection
		patch(t, first.ID, map[string]any{"defaultSiteSpace": first.siteSpaceID(f.api)}).JSON(t, &s)
		if s.SiteSpaces[0].Default || !s.SiteSpaces[1].Default {
			t.Fatalf("site spaces %+v", s.SiteSpaces)
		}
		if _, ss := f.defaults(t); ss != first.siteSpaceID(f.api) {
			t.Fatalf("the site's default site space is %s, want the default section's", ss)
		}
		patch(t, other.ID, map[string]any{"defaultSiteSpace": other.siteSpaceID(f.guide)})
		if _, ss := f.defaults(t); ss != first.siteSpaceID(f.api) {
			t.Fatalf("another section's default changed the site's to %s", ss)
		}
	})
	f.wantRefused(t, "PATCH", f.sec(first.ID), []refusal{
		{"ErrTitleShort", map[string]any{"title": "A"}, 400, "title"},
		{"ErrTitleLong", map[string]any{"title": strings.Repeat("x", 129)}, 400, "title"},
		{"ErrTitleNull", map[string]any{"title": nil}, 400, "title"},
		{"ErrPathEmpty", map[string]any{"path": ""}, 400, "path"},
		{"ErrPathLong", map[string]any{"path": strings.Repeat("p", 101)}, 400, "path"},
		{"ErrPathSlash", map[string]any{"path": "a/b"}, 400, "path"},
		{"ErrPathUpperCase", map[string]any{"path": "Ref"}, 400, "path"},
		{"ErrPathDot", map[string]any{"path": ".."}, 400, "path"},
		{"ErrPathNotString", map[string]any{"path": 7}, 400, "path"},
		{"ErrPathTaken", map[string]any{"path": "guides"}, 409, "path"},
		{"ErrConditionEmpty", map[string]any{"condition": ""}, 400, "condition"},
		{"ErrConditionLong", map[string]any{"condition": "visitor.claims.isBetaUser" + strings.Repeat(" ", 1000)}, 400, "condition"},
		{"ErrConditionUnknownClaim", map[string]any{"condition": "visitor.claims.isBetaUser || visitor.claims.plan"}, 400, "condition: column 45: unknown claim visitor.claims.plan"},
		{"ErrConditionSyntax", map[string]any{"condition": "visitor.claims.isBetaUser &&"}, 400, "condition: column"},
		{"ErrConditionNotBoolean", map[string]any{"condition": "1 + 2"}, 400, "condition"},
		{"ErrConditionNotString", map[string]any{"condition": false}, 400, "condition"},
		{"ErrIconLong", map[string]any{"icon": strings.Repeat("i", 51)}, 400, "icon"},
		{"ErrDescriptionLong", map[string]any{"description": strings.Repeat("d", 257)}, 400, "description"},
		{"ErrDefaultOfAnotherSection", map[string]any{"defaultSiteSpace": other.SiteSpaces[0].ID}, 404, "defaultSiteSpace"},
		{"ErrDefaultNull", map[string]any{"defaultSiteSpace": nil}, 400, "defaultSiteSpace"},
		{"ErrGroupUnknown", map[string]any{"siteSectionGroupId": "nope"}, 404, "sectionGroupId"},
		// A valid field with an invalid one changes nothing.
		{"ErrTitleWithBadIcon", map[string]any{"title": "Changed", "icon": strings.Repeat("i", 51)}, 400, "icon"},
		{"ErrTitleWithTakenPath", map[string]any{"title": "Changed", "path": "guides"}, 409, "path"},
	})
	t.Run("ErrUnknownSection", func(t *testing.T) {
		testenv.CheckError(t, patch(t, "nope", map[string]any{"title": "Changed"}), 404)
	})
}

// TestSiteSectionDefaultAndURLs: the site's defaultSiteSection moves the sections' default, and a
// published site's sections answer where publish serves them.
func TestSiteSectionDefaultAndURLs(t *testing.T) {
	f := newSectionsFixture(t)
	first := f.add(t, map[string]any{"spaceId": f.api})
	second := f.add(t, map[string]any{"spaceId": f.guide, "title": "Guides"})
	if resp := f.e.Do(f.admin, "PATCH", f.path(f.site), map[string]any{"defaultSiteSection": second.ID}); resp.Status != 200 {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	list := f.list(t)
	if list[0].ID != first.ID || list[0].Default || !list[1].Default {
		t.Fatalf("sections %+v", list)
	}
	if section, siteSpace := f.defaults(t); section != second.ID || siteSpace != second.SiteSpaces[0].ID {
		t.Fatalf("site defaults %s %s", section, siteSpace)
	}
	var urls struct {
		Items []struct {
			URLs       struct{ Published string }
			SiteSpaces []struct{ URLs struct{ Published string } }
		}
	}
	f.e.Do(f.admin, "GET", f.sec(), nil).JSON(t, &urls)
	if urls.Items[0].URLs.Published != "" {
		t.Fatalf("an unpublished site's section has a published URL: %+v", urls.Items[0])
	}
	f.e.Do(f.admin, "POST", f.path(f.site, "publish"), nil)
	f.e.Do(f.admin, "GET", f.sec(), nil).JSON(t, &urls)
	site := f.e.Server.URL + "/sites/" + f.site + "/"
	if got := urls.Items[0].URLs.Published; got != site+"api-reference/" {
		t.Fatalf("section URL %q", got)
	}
	if got := urls.Items[1].URLs.Published; got != site {
		t.Fatalf("the default section's URL %q, want the site's", got)
	}
	if got := urls.Items[0].SiteSpaces[1].URLs.Published; got != site+"api-reference/api-reference/" {
		t.Fatalf("site space URL %q", got)
	}
	var g struct {
		Organization struct {
			Site struct {
				Sections struct {
					Edges []struct{ Node struct{ URL string } }
				}
			}
		}
	}
	gqlOK(t, f.e.GraphQL(f.admin, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { sections { edges { node { url } } } } } }`,
		map[string]any{"o": f.org, "s": f.site}), &g)
	if got := g.Organization.Site.Sections.Edges[0].Node.URL; got != site+"api-reference/" {
		t.Fatalf("SiteSection.url %q", got)
	}
}

// TestSiteSectionShareKey: `shareKey` on the sections and the structure makes their published URLs
// carry it (decision 161); a key that opens nothing is 404.
func TestSiteSectionShareKey(t *testing.T) {
	f := newSectionsFixture(t)
	f.add(t, map[string]any{"spaceId": f.api})
	f.add(t, map[string]any{"spaceId": f.guide})
	f.e.Do(f.admin, "POST", f.path(f.site, "publish"), nil)
	var link wireShareLink
	f.e.Do(f.admin, "POST", f.path(f.site, "share-links"), map[string]any{"name": "Reviewers"}).JSON(t, &link)
	key := keyOf(t, link)
	var l struct {
		Items []struct {
			URLs       struct{ Published string }
			SiteSpaces []struct{ URLs struct{ Published string } }
		}
	}
	f.e.Do(f.admin, "GET", f.sec()+"?shareKey="+url.QueryEscape(key), nil).JSON(t, &l)
	for _, s := range l.Items {
		if !strings.HasSuffix(s.URLs.Published, "/?shareKey="+key) || !strings.HasSuffix(s.SiteSpaces[0].URLs.Published, "?shareKey="+key) {
			t.Fatalf("unkeyed URLs in %+v", s)
		}
	}
	var st struct {
		Structure []struct{ URLs struct{ Published string } }
	}
	f.e.Do(f.admin, "GET", f.path(f.site, "structure")+"?shareKey="+url.QueryEscape(key), nil).JSON(t, &st)
	if len(st.Structure) != 2 || !strings.HasSuffix(st.Structure[1].URLs.Published, "?shareKey="+key) {
		t.Fatalf("structure %+v", st)
	}
	for _, p := range []string{f.sec(), f.path(f.site, "structure")} {
		if msg := testenv.CheckError(t, f.e.Do(f.admin, "GET", p+"?shareKey=nope", nil), 404); !strings.Contains(msg, "shareKey") {
			t.Fatalf("message %q", msg)
		}
	}
}

// sectionPtr is a SiteSectionPointer.
func sectionPtr(id string) map[string]any {
	return map[string]any{"type": "site-section", "siteSection": id}
}

// titles returns the titles of the site's sections in list order.
func (f *sectionsFixture) titles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, s := range f.list(t) {
		out = append(out, s.Title)
	}
	return out
}

func TestSiteSectionMove(t *testing.T) {
	f := newSectionsFixture(t)
	a := f.add(t, map[string]any{"spaceId": f.api, "title": "AA"})
	b := f.add(t, map[string]any{"spaceId": f.api, "title": "BB"})
	c := f.add(t, map[string]any{"spaceId": f.api, "title": "CC"})
	move := func(t *testing.T, id string, body any) testenv.Response {
		t.Helper()
		return f.e.Do(f.admin, "POST", f.sec(id, "move"), body)
	}
	ok := func(t *testing.T, id string, body any, want ...string) {
		t.Helper()
		if resp := move(t, id, body); resp.Status != 200 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		if got := f.titles(t); !slices.Equal(got, want) {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
	t.Run("OKBefore", func(t *testing.T) {
		ok(t, c.ID, map[string]any{"position": map[string]any{"before": sectionPtr(a.ID)}}, "CC", "AA", "BB")
	})
	t.Run("OKAfter", func(t *testing.T) {
		ok(t, c.ID, map[string]any{"position": map[string]any{"after": sectionPtr(a.ID)}}, "AA", "CC", "BB")
	})
	t.Run("OKBetween", func(t *testing.T) {
		ok(t, a.ID, map[string]any{"position": map[string]any{"after": sectionPtr(c.ID), "before": sectionPtr(b.ID)}}, "CC", "AA", "BB")
	})
	t.Run("OKToTheEnd", func(t *testing.T) {
		ok(t, c.ID, map[string]any{}, "AA", "BB", "CC")
		ok(t, a.ID, nil, "BB", "CC", "AA")
	})
	t.Run("OKManyMovesKeepOrder", func(t *testing.T) {
		for i := range 60 {
			mover := a.ID
			if i%2 == 1 {
				mover = c.ID
			}
			if resp := move(t, mover, map[string]any{"position": map[string]any{"after": sectionPtr(b.ID)}}); resp.Status != 200 {
				t.Fatalf("%d %s", resp.Status, resp.Body)
			}
		}
		if got := f.titles(t); !slices.Equal(got, []string{"BB", "CC", "AA"}) {
			t.Fatalf("order %v", got)
		}
	})
	f.wantRefused(t, "POST", f.sec(a.ID, "move"), []refusal{
		{"ErrPointerType", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "siteSpace": b.ID}}}, 400, "position.before"},
		{"ErrPointerShape", map[string]any{"position": map[string]any{"after": "x"}}, 400, "position.after"},
		{"ErrPointerUnknown", map[string]any{"position": map[string]any{"before": sectionPtr("nope")}}, 400, "position.before"},
		{"ErrPointerSelf", map[string]any{"position": map[string]any{"after": sectionPtr(a.ID)}}, 400, "position.after"},
		{"ErrNotNeighbours", map[string]any{"position": map[string]any{"after": sectionPtr(b.ID), "before": sectionPtr(b.ID)}}, 400, "position"},
		{"ErrPositionNotObject", map[string]any{"position": 3}, 400, "position"},
	})
	t.Run("ErrUnknownSection", func(t *testing.T) {
		testenv.CheckError(t, move(t, "nope", nil), 404)
	})
}

// TestSiteSectionMovesConcurrent: moves racing into the same gap of one site's sections leave
// every section once, each with a key of its own (a total order without ties).
func TestSiteSectionMovesConcurrent(t *testing.T) {
	f := newSectionsFixture(t)
	var ids []string
	for i := range 9 {
		ids = append(ids, f.add(t, map[string]any{"spaceId": f.api, "title": fmt.Sprintf("S%d", i)}).ID)
	}
	var wg sync.WaitGroup
	for w, mover := range ids[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 4 {
				side := []string{"before", "after"}[(w+i)%2]
				resp := f.e.Do(f.admin, "POST", f.sec(mover, "move"), map[string]any{"position": map[string]any{side: sectionPtr(ids[0])}})
				if resp.Status != 200 {
					t.Errorf("move: %d %s", resp.Status, resp.Body)
				}
			}
		}()
	}
	wg.Wait()
	listed := f.list(t)
	var got []string
	for _, s := range listed {
		got = append(got, s.ID)
	}
	if !slices.Equal(sorted(got), sorted(ids)) {
		t.Fatalf("listed %v, want each of %v once", got, ids)
	}
	rows, err := f.e.Store.Client.SiteSection.Query().Where(sitesection.SiteID(f.site)).All(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, r := range rows {
		if keys[r.Position] {
			t.Fatalf("two sections share the key %q", r.Position)
		}
		keys[r.Position] = true
	}
}

func TestSiteSectionDelete(t *testing.T) {
	f := newSectionsFixture(t)
	a := f.add(t, map[string]any{"spaceId": f.api, "title": "AA"}) // default, with docs and api
	b := f.add(t, map[string]any{"spaceId": f.guide, "title": "BB"})
	c := f.add(t, map[string]any{"spaceId": f.api, "title": "CC"})
	del := func(t *testing.T, id string) testenv.Response {
		t.Helper()
		return f.e.Do(f.admin, "DELETE", f.sec(id), nil)
	}
	t.Run("OKCascades", func(t *testing.T) {
		if resp := del(t, b.ID); resp.Status != http.StatusResetContent || len(resp.Body) != 0 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		if n := f.siteSpaces(t); n != 3 {
			t.Fatalf("siteSpaces %v, want 3", n)
		}
		n, err := f.e.Store.Client.SiteSpace.Query().Count(accounts.System(context.Background()))
		if err != nil || n != 3 {
			t.Fatalf("%d site spaces left (%v), want 3", n, err)
		}
	})
	t.Run("ErrGone", func(t *testing.T) {
		testenv.CheckError(t, del(t, b.ID), 404)
	})
	t.Run("OKDefaultPassesToTheNext", func(t *testing.T) {
		del(t, a.ID)
		section, siteSpace := f.defaults(t)
		if section != c.ID || siteSpace != c.SiteSpaces[0].ID {
			t.Fatalf("defaults %s %s, want %s %s", section, siteSpace, c.ID, c.SiteSpaces[0].ID)
		}
		if s := f.list(t); len(s) != 1 || !s[0].Default {
			t.Fatalf("sections %+v", s)
		}
		if n := f.siteSpaces(t); n != 1 {
			t.Fatalf("siteSpaces %v, want 1", n)
		}
	})
	t.Run("OKLastLeavesNone", func(t *testing.T) {
		del(t, c.ID)
		if got := f.structure(t); got != "siteSpaces:" {
			t.Fatalf("structure %q", got)
		}
		if section, siteSpace := f.defaults(t); section != "" || siteSpace != "" || f.siteSpaces(t) != 0 {
			t.Fatalf("defaults %q %q, siteSpaces %v", section, siteSpace, f.siteSpaces(t))
		}
	})
}

func TestSiteSectionAccess(t *testing.T) {
	f := newSectionsFixture(t)
	s := f.add(t, map[string]any{"spaceId": f.api})
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	editor := f.e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
	creator := f.e.User("cy@example.com", f.org, testenv.Role(viewer.RoleCreate))
	for _, p := range []string{f.sec(), f.path(f.site, "structure")} {
		if resp := f.e.Do(reader, "GET", p, nil); resp.Status != 200 {
			t.Fatalf("a reader reads %s: %d %s", p, resp.Status, resp.Body)
		}
	}
	writes := []struct{ method, path string }{{"POST", f.sec()}, {"PATCH", f.sec(s.ID)}, {"POST", f.sec(s.ID, "move")}, {"DELETE", f.sec(s.ID)}}
	body := map[string]any{"spaceId": f.guide}
	for _, w := range writes {
		testenv.CheckError(t, f.e.Do(reader, w.method, w.path, body), 403)
		testenv.CheckError(t, f.e.Do(editor, w.method, w.path, body), 403)
	}
	if resp := f.e.Do(creator, "POST", f.sec(), body); resp.Status != 201 {
		t.Fatalf("a creator adds sections: %d %s", resp.Status, resp.Body)
	}
	if resp := f.e.Do(creator, "PATCH", f.sec(s.ID), map[string]any{"title": "Mine"}); resp.Status != 200 {
		t.Fatalf("a creator changes sections: %d %s", resp.Status, resp.Body)
	}
	t.Run("ErrOtherOrganization", func(t *testing.T) {
		// The outsider names the site under their own organization, and a section under a site
		// of theirs.
		theirs := "/v1/orgs/" + f.otherOrg + "/sites/"
		own := f.e.Do(f.outsider, "POST", strings.TrimSuffix(theirs, "/"), map[string]any{"title": "Theirs"}).Map(t)["id"].(string)
		for _, p := range []string{theirs + f.site + "/sections", theirs + f.site + "/structure"} {
			testenv.CheckError(t, f.e.Do(f.outsider, "GET", p, nil), 404)
		}
		testenv.CheckError(t, f.e.Do(f.outsider, "PATCH", theirs+own+"/sections/"+s.ID, map[string]any{"title": "Evil"}), 404)
		testenv.CheckError(t, f.e.Do(f.outsider, "DELETE", theirs+own+"/sections/"+s.ID, nil), 404)
		testenv.CheckError(t, f.e.Do(f.admin, "POST", f.sec(), map[string]any{"spaceId": f.alien}), 404)
	})
}

// TestSiteSectionListStatements: a list of sections with their site spaces and spaces costs the
// same statements for 2 sections as for 12.
func TestSiteSectionListStatements(t *testing.T) {
	f := newSectionsFixture(t)
	count := func(n int) int64 {
		for range n - len(f.list(t)) {
			f.add(t, map[string]any{"spaceId": f.api})
		}
		return gqlStatements(t, f.e, func() { f.list(t) })
	}
	if few, many := count(2), count(12); few != many {
		t.Fatalf("%d statements for 2 sections, %d for 12", few, many)
	}
	structure := func() { f.structure(t) }
	few := gqlStatements(t, f.e, structure)
	f.add(t, map[string]any{"spaceId": f.guide})
	if many := gqlStatements(t, f.e, structure); few != many {
		t.Fatalf("structure: %d statements, then %d with one more section", few, many)
	}
}
