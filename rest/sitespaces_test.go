package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// siteSpaceWire is the part of a SiteSpace the tests read.
type siteSpaceWire struct {
	ID, Path, Title string
	Section         *string
	Default         bool
	Draft           bool
	Condition       *string
	Hidden          bool
	PageID          *string
	Space           struct{ ID, Title string }
	URLs            struct{ Published string }
}

// sendMinimal sends a write as a with `Prefer: return=minimal`, and fails unless it answers 204
// saying the preference was applied.
func sendMinimal(t *testing.T, e *testenv.Env, a testenv.Actor, method, path, body string) {
	t.Helper()
	req, _ := http.NewRequest(method, e.Server.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+a.Token)
	req.Header.Set("Prefer", "return=minimal")
	res, err := e.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent || res.Header.Get("Preference-Applied") != "return=minimal" {
		t.Fatalf("%d %v", res.StatusCode, res.Header)
	}
}

// roles adds a reader, an editor and a creator to the organization.
func (f *sitesFixture) roles() (reader, editor, creator testenv.Actor) {
	return f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead)),
		f.e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit)),
		f.e.User("cy@example.com", f.org, testenv.Role(viewer.RoleCreate))
}

// siteWithSpaces creates a site showing the given spaces and returns its id.
func (f *sitesFixture) siteWithSpaces(t *testing.T, spaces ...string) string {
	t.Helper()
	return f.createSite(t, map[string]any{"title": "Docs site", "spaces": spaces})["id"].(string)
}

// siteSpaces lists a site's site spaces as a, with query (e.g. "?default=true").
func (f *sitesFixture) siteSpaces(t *testing.T, a testenv.Actor, siteID, query string) []siteSpaceWire {
	t.Helper()
	var l struct {
		Items []siteSpaceWire
		Count int
	}
	resp := f.e.Do(a, "GET", f.path(siteID, "site-spaces")+query, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("list site spaces: %d %s", resp.Status, resp.Body)
	}
	resp.JSON(t, &l)
	if l.Count != len(l.Items) {
		t.Fatalf("count %d for %d items", l.Count, len(l.Items))
	}
	return l.Items
}

// counter is the site's siteSpaces.
func (f *sitesFixture) counter(t *testing.T, siteID string) int {
	t.Helper()
	return int(f.e.Do(f.admin, "GET", f.path(siteID), nil).Map(t)["siteSpaces"].(float64))
}

// checkCounter fails unless the site's counter and its rows both say want.
func (f *sitesFixture) checkCounter(t *testing.T, siteID string, want int) {
	t.Helper()
	rows, err := f.e.Store.Client.SiteSpace.Query().Where(sitespace.SiteID(siteID)).Count(system())
	if err != nil {
		t.Fatal(err)
	}
	if got := f.counter(t, siteID); got != want || rows != want {
		t.Fatalf("siteSpaces %d, %d rows; want %d", got, rows, want)
	}
}

// addSiteSpace adds a space to a site as the admin and returns the new site space.
func (f *sitesFixture) addSiteSpace(t *testing.T, siteID string, body map[string]any) siteSpaceWire {
	t.Helper()
	resp := f.e.Do(f.admin, "POST", f.path(siteID, "site-spaces"), body)
	if resp.Status != http.StatusCreated {
		t.Fatalf("add site space %v: %d %s", body, resp.Status, resp.Body)
	}
	var ss siteSpaceWire
	resp.JSON(t, &ss)
	return ss
}

// section adds a section to a site, straight in the database (sections have their own API).
func (f *sitesFixture) section(t *testing.T, siteID, path string) string {
	t.Helper()
	s, err := f.e.Store.Client.SiteSection.Create().SetOrganizationID(f.org).SetSiteID(siteID).
		SetTitle("Section " + path).SetPath(path).Save(system())
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

func ids(items []siteSpaceWire) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

func TestListSiteSpaces(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs, f.api)
	all := f.siteSpaces(t, f.admin, id, "")
	if len(all) != 2 || all[0].Space.ID != f.docs || all[1].Space.ID != f.api {
		t.Fatalf("site spaces %+v", all)
	}
	first := all[0]
	if first.Path != "docs" || first.Title != "Docs" || !first.Default || first.Draft || first.Section != nil ||
		first.URLs.Published != "" || all[1].Path != "api-reference" || all[1].Default {
		t.Fatalf("site spaces %+v", all)
	}
	t.Run("Default", func(t *testing.T) {
		if got := ids(f.siteSpaces(t, f.admin, id, "?default=true")); fmt.Sprint(got) != fmt.Sprint([]string{first.ID}) {
			t.Fatalf("default=true: %v", got)
		}
		if got := ids(f.siteSpaces(t, f.admin, id, "?default=false")); fmt.Sprint(got) != fmt.Sprint([]string{all[1].ID}) {
			t.Fatalf("default=false: %v", got)
		}
		testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path(id, "site-spaces")+"?default=yes", nil), 400)
	})
	t.Run("Pages", func(t *testing.T) {
		var l struct {
			Items []siteSpaceWire
			Next  *struct{ Page string }
		}
		f.e.Do(f.admin, "GET", f.path(id, "site-spaces")+"?limit=1", nil).JSON(t, &l)
		if len(l.Items) != 1 || l.Next == nil || l.Items[0].ID != first.ID {
			t.Fatalf("first page %+v", l)
		}
		var next struct {
			Items []siteSpaceWire
			Next  *struct{ Page string }
		}
		f.e.Do(f.admin, "GET", f.path(id, "site-spaces")+"?limit=1&page="+l.Next.Page, nil).JSON(t, &next)
		if len(next.Items) != 1 || next.Next != nil || next.Items[0].ID != all[1].ID {
			t.Fatalf("second page %+v", next)
		}
	})
	t.Run("PublishedURL", func(t *testing.T) {
		f.e.Do(f.admin, "POST", f.path(id, "publish"), nil)
		got := f.siteSpaces(t, f.admin, id, "")
		if !strings.HasSuffix(got[0].URLs.Published, "/sites/"+id+"/") || !strings.HasSuffix(got[1].URLs.Published, "/sites/"+id+"/api-reference/") {
			t.Fatalf("urls.published %q and %q", got[0].URLs.Published, got[1].URLs.Published)
		}
		f.e.Do(f.admin, "PATCH", f.path(id), map[string]any{"basename": "handbook"})
		guides := f.section(t, id, "guides")
		in := f.addSiteSpace(t, id, map[string]any{"spaceId": f.api, "sectionId": guides})
		if !strings.HasSuffix(in.URLs.Published, "/sites/handbook/guides/") {
			t.Fatalf("urls.published of a section's default %q", in.URLs.Published)
		}
	})
}

func TestAddSiteSpace(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs)
	t.Run("OK", func(t *testing.T) {
		resp := f.e.Do(f.admin, "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": f.api})
		if resp.Status != http.StatusCreated {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		var ss siteSpaceWire
		resp.JSON(t, &ss)
		if ss.Space.ID != f.api || ss.Path != "api-reference" || ss.Default || ss.Title != "API Reference" {
			t.Fatalf("added %+v", ss)
		}
		f.checkCounter(t, id, 2)
		if got := ids(f.siteSpaces(t, f.admin, id, "")); got[1] != ss.ID {
			t.Fatalf("the new site space is not last: %v", got)
		}
	})
	t.Run("NewSpace", func(t *testing.T) {
		ss := f.addSiteSpace(t, id, map[string]any{"spaceId": nil})
		if ss.Space.Title != "Docs site" || ss.Path != "docs-site" {
			t.Fatalf("added %+v", ss)
		}
		f.checkCounter(t, id, 3)
	})
	t.Run("PathsStayFree", func(t *testing.T) {
		other := f.space(t, f.admin, f.org, "Docs")
		if ss := f.addSiteSpace(t, id, map[string]any{"spaceId": other}); ss.Path != "docs-2" {
			t.Fatalf("path %q, want docs-2", ss.Path)
		}
		f.checkCounter(t, id, 4)
	})
	t.Run("PreferMinimal", func(t *testing.T) {
		other := f.space(t, f.admin, f.org, "Quiet")
		sendMinimal(t, f.e, f.admin, "POST", f.path(id, "site-spaces"), `{"spaceId":"`+other+`"}`)
		f.checkCounter(t, id, 5)
	})
	cases := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"ErrSpaceMissing", map[string]any{}, 400, "spaceId"},
		{"ErrSpaceNotString", map[string]any{"spaceId": 42}, 400, "spaceId"},
		{"ErrSpaceUnknown", map[string]any{"spaceId": "nope"}, 404, "spaceId"},
		{"ErrSpaceOfAnotherOrg", map[string]any{"spaceId": f.alien}, 404, "spaceId"},
		{"ErrSpaceTwice", map[string]any{"spaceId": f.docs}, 409, "spaceId"},
		{"ErrSectionUnknown", map[string]any{"spaceId": f.docs, "sectionId": "nope"}, 404, "sectionId"},
		{"ErrSectionNull", map[string]any{"spaceId": f.docs, "sectionId": nil}, 400, "sectionId"},
		{"ErrBodyNotObject", []string{f.docs}, 400, "request body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := testenv.CheckError(t, f.e.Do(f.admin, "POST", f.path(id, "site-spaces"), c.body), c.status)
			if !strings.Contains(msg, c.field) {
				t.Fatalf("message %q does not name %s", msg, c.field)
			}
		})
	}
	f.checkCounter(t, id, 5)
}

func TestAddSiteSpaceToSections(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs)
	guides := f.section(t, id, "guides")
	ss := f.addSiteSpace(t, id, map[string]any{"spaceId": f.api, "sectionId": guides})
	if ss.Section == nil || *ss.Section != guides || !ss.Default {
		t.Fatalf("the first site space of a section is its default: %+v", ss)
	}
	t.Run("SameSpaceInAnotherLevel", func(t *testing.T) {
		if ss := f.addSiteSpace(t, id, map[string]any{"spaceId": f.docs, "sectionId": guides}); ss.Default || ss.Path != "docs" {
			t.Fatalf("added %+v", ss)
		}
	})
	t.Run("RootPathsAvoidSections", func(t *testing.T) {
		other := f.space(t, f.admin, f.org, "Guides")
		if ss := f.addSiteSpace(t, id, map[string]any{"spaceId": other}); ss.Section != nil || ss.Path != "guides-2" {
			t.Fatalf("added %+v", ss)
		}
	})
	t.Run("IntoTheDefaultSection", func(t *testing.T) {
		reference := f.section(t, id, "reference")
		f.e.Do(f.admin, "PATCH", f.path(id), map[string]any{"defaultSiteSection": reference})
		ss := f.addSiteSpace(t, id, map[string]any{"spaceId": f.api})
		if ss.Section == nil || *ss.Section != reference || !ss.Default {
			t.Fatalf("added %+v", ss)
		}
	})
	f.checkCounter(t, id, 5)
}

func TestUpdateSiteSpace(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs, f.api)
	all := f.siteSpaces(t, f.admin, id, "")
	docs, api := all[0], all[1]
	patch := func(ssID string, body any) testenv.Response {
		return f.e.Do(f.admin, "PATCH", f.path(id, "site-spaces", ssID), body)
	}
	t.Run("OK", func(t *testing.T) {
		var ss siteSpaceWire
		patch(docs.ID, map[string]any{"path": "guide_v2.0", "condition": "true"}).JSON(t, &ss)
		if ss.Path != "guide_v2.0" || ss.Condition == nil || *ss.Condition != "true" {
			t.Fatalf("patched %+v", ss)
		}
		patch(docs.ID, map[string]any{}).JSON(t, &ss)
		if ss.Path != "guide_v2.0" || ss.Condition == nil {
			t.Fatalf("an empty patch changed %+v", ss)
		}
		ss = siteSpaceWire{}
		patch(docs.ID, map[string]any{"condition": nil}).JSON(t, &ss)
		if ss.Condition != nil || ss.Path != "guide_v2.0" {
			t.Fatalf("null condition: %+v", ss)
		}
		patch(docs.ID, map[string]any{"path": "guide_v2.0"}).JSON(t, &ss) // its own path is no clash
		sendMinimal(t, f.e, f.admin, "PATCH", f.path(id, "site-spaces", docs.ID), `{"path":"guide"}`)
		patch(docs.ID, map[string]any{"path": "guide_v2.0"})
	})
	t.Run("ConditionOfTheSchema", func(t *testing.T) {
		schema := map[string]any{"type": "object", "additionalProperties": false,
			"properties": map[string]any{"isBetaUser": map[string]any{"type": "boolean", "description": "In the beta."}}}
		if err := f.e.Store.Client.Site.UpdateOneID(id).SetAdaptiveSchema(schema).Exec(system()); err != nil {
			t.Fatal(err)
		}
		var ss siteSpaceWire
		patch(api.ID, map[string]any{"condition": "visitor.claims.isBetaUser"}).JSON(t, &ss)
		if ss.Condition == nil || *ss.Condition != "visitor.claims.isBetaUser" {
			t.Fatalf("patched %+v", ss)
		}
	})
	before := f.siteSpaces(t, f.admin, id, "")
	listed := func() string { return string(f.e.Do(f.admin, "GET", f.path(id, "site-spaces"), nil).Body) }
	unchanged := listed()
	cases := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"ErrPathClash", map[string]any{"path": before[0].Path}, 409, "path"},
		{"ErrPathEmpty", map[string]any{"path": ""}, 400, "path"},
		{"ErrPathLong", map[string]any{"path": strings.Repeat("a", 101)}, 400, "path"},
		{"ErrPathUpper", map[string]any{"path": "Guide"}, 400, "path"},
		{"ErrPathSlash", map[string]any{"path": "a/b"}, 400, "path"},
		{"ErrPathDashEnd", map[string]any{"path": "guide-"}, 400, "path"},
		{"ErrPathDot", map[string]any{"path": ".."}, 400, "path"},
		{"ErrPathNull", map[string]any{"path": nil}, 400, "path"},
		{"ErrPathNumber", map[string]any{"path": 7}, 400, "path"},
		{"ErrConditionEmpty", map[string]any{"condition": ""}, 400, "condition"},
		{"ErrConditionLong", map[string]any{"condition": strings.Repeat("a", 1025)}, 400, "condition"},
		{"ErrConditionSyntax", map[string]any{"condition": "visitor.claims.isBetaUser &&"}, 400, "condition: column"},
		{"ErrConditionUnknownClaim", map[string]any{"condition": "visitor.claims.isAdmin"}, 400, "condition: column 16"},
		{"ErrConditionNotBoolean", map[string]any{"condition": "1 + 2"}, 400, "condition"},
		{"ErrConditionNumber", map[string]any{"condition": 1}, 400, "condition"},
		{"ErrPathThenBadCondition", map[string]any{"path": "fresh", "condition": "nope("}, 400, "condition"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := testenv.CheckError(t, patch(api.ID, c.body), c.status)
			if !strings.Contains(msg, c.field) {
				t.Fatalf("message %q does not name %s", msg, c.field)
			}
		})
	}
	if after := listed(); after != unchanged {
		t.Fatalf("failed patches changed the site spaces:\n%s\n%s", unchanged, after)
	}
	t.Run("ErrNotFound", func(t *testing.T) {
		testenv.CheckError(t, patch("nope", map[string]any{"path": "x"}), 404)
		other := f.siteWithSpaces(t, f.api)
		testenv.CheckError(t, f.e.Do(f.admin, "PATCH", f.path(other, "site-spaces", docs.ID), map[string]any{"path": "x"}), 404)
	})
	t.Run("PathsAreUniquePerLevel", func(t *testing.T) {
		guides := f.section(t, id, "guides")
		in := f.addSiteSpace(t, id, map[string]any{"spaceId": f.api, "sectionId": guides})
		var ss siteSpaceWire
		patch(in.ID, map[string]any{"path": before[0].Path}).JSON(t, &ss) // another level: no clash
		msg := testenv.CheckError(t, patch(api.ID, map[string]any{"path": "guides"}), 409)
		if !strings.Contains(msg, "path") {
			t.Fatalf("message %q", msg)
		}
	})
}

func TestMoveSiteSpace(t *testing.T) {
	f := newSitesFixture(t)
	spaces := []string{f.docs, f.api}
	for _, title := range []string{"Three", "Four"} {
		spaces = append(spaces, f.space(t, f.admin, f.org, title))
	}
	id := f.siteWithSpaces(t, spaces...)
	ss := ids(f.siteSpaces(t, f.admin, id, ""))
	move := func(ssID string, body any) testenv.Response {
		return f.e.Do(f.admin, "POST", f.path(id, "site-spaces", ssID, "move"), body)
	}
	pointer := func(ssID string) map[string]any { return map[string]any{"type": "site-space", "siteSpace": ssID} }
	order := func(t *testing.T, want ...string) {
		t.Helper()
		if got := ids(f.siteSpaces(t, f.admin, id, "")); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
	t.Run("Before", func(t *testing.T) {
		var moved siteSpaceWire
		move(ss[3], map[string]any{"position": map[string]any{"before": pointer(ss[0])}}).JSON(t, &moved)
		if moved.ID != ss[3] {
			t.Fatalf("moved %+v", moved)
		}
		order(t, ss[3], ss[0], ss[1], ss[2])
	})
	t.Run("After", func(t *testing.T) {
		move(ss[3], map[string]any{"position": map[string]any{"after": pointer(ss[1])}})
		order(t, ss[0], ss[1], ss[3], ss[2])
	})
	t.Run("Between", func(t *testing.T) {
		move(ss[2], map[string]any{"position": map[string]any{"after": pointer(ss[0]), "before": pointer(ss[1])}})
		order(t, ss[0], ss[2], ss[1], ss[3])
	})
	t.Run("ToTheEnd", func(t *testing.T) {
		move(ss[0], map[string]any{})
		order(t, ss[2], ss[1], ss[3], ss[0])
	})
	cases := []struct {
		name  string
		body  any
		field string
	}{
		{"ErrNotNeighbours", map[string]any{"position": map[string]any{"after": pointer(ss[2]), "before": pointer(ss[0])}}, "position"},
		{"ErrSelf", map[string]any{"position": map[string]any{"before": pointer(ss[1])}}, "position.before"},
		{"ErrUnknown", map[string]any{"position": map[string]any{"after": pointer("nope")}}, "position.after"},
		{"ErrPointerType", map[string]any{"position": map[string]any{"after": map[string]any{"type": "space", "space": ss[0]}}}, "position.after"},
		{"ErrPointerString", map[string]any{"position": map[string]any{"before": ss[0]}}, "position.before"},
		{"ErrPositionNull", map[string]any{"position": nil}, "position"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := testenv.CheckError(t, move(ss[1], c.body), 400)
			if !strings.Contains(msg, c.field) {
				t.Fatalf("message %q does not name %s", msg, c.field)
			}
		})
	}
	order(t, ss[2], ss[1], ss[3], ss[0])
	t.Run("ErrOtherLevel", func(t *testing.T) {
		guides := f.section(t, id, "guides")
		in := f.addSiteSpace(t, id, map[string]any{"spaceId": f.docs, "sectionId": guides})
		testenv.CheckError(t, move(in.ID, map[string]any{"position": map[string]any{"before": pointer(ss[0])}}), 400)
	})
}

// TestMoveSiteSpacesConcurrent: 40 moves racing over real HTTP, each before or after another site
// space, leave every site space listed once, at a position key of its own.
func TestMoveSiteSpacesConcurrent(t *testing.T) {
	f := newSitesFixture(t)
	spaces := []string{f.docs, f.api}
	for i := range 4 {
		spaces = append(spaces, f.space(t, f.admin, f.org, fmt.Sprint("Space ", i)))
	}
	id := f.siteWithSpaces(t, spaces...)
	ss := ids(f.siteSpaces(t, f.admin, id, ""))
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			moved, target := ss[i%len(ss)], ss[(i*7+3)%len(ss)]
			if moved == target {
				target = ss[(i+1)%len(ss)]
			}
			side := []string{"before", "after"}[i%2]
			body := map[string]any{"position": map[string]any{side: map[string]any{"type": "site-space", "siteSpace": target}}}
			if resp := f.e.Do(f.admin, "POST", f.path(id, "site-spaces", moved, "move"), body); resp.Status != http.StatusOK {
				t.Errorf("move: %d %s", resp.Status, resp.Body)
			}
		}()
	}
	wg.Wait()
	got := ids(f.siteSpaces(t, f.admin, id, ""))
	sorted := slices.Clone(got)
	slices.Sort(sorted)
	want := slices.Clone(ss)
	slices.Sort(want)
	if fmt.Sprint(sorted) != fmt.Sprint(want) {
		t.Fatalf("after the moves %v, want each of %v once", got, ss)
	}
	keys, err := f.e.Store.Client.SiteSpace.Query().Where(sitespace.SiteID(id)).
		Order(sitespace.ByPosition(), sitespace.ByID()).Select(sitespace.FieldPosition).Strings(system())
	if err != nil {
		t.Fatal(err)
	}
	if len(slices.Compact(slices.Clone(keys))) != len(keys) {
		t.Fatalf("position keys shared: %v", keys)
	}
}

func TestDeleteSiteSpace(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs, f.api)
	all := f.siteSpaces(t, f.admin, id, "")
	if resp := f.e.Do(f.admin, "DELETE", f.path(id, "site-spaces", all[0].ID), nil); resp.Status != http.StatusResetContent {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	f.checkCounter(t, id, 1)
	left := f.siteSpaces(t, f.admin, id, "")
	if len(left) != 1 || left[0].ID != all[1].ID || !left[0].Default {
		t.Fatalf("the next one becomes the default: %+v", left)
	}
	testenv.CheckError(t, f.e.Do(f.admin, "DELETE", f.path(id, "site-spaces", all[0].ID), nil), 404)
	f.e.Do(f.admin, "DELETE", f.path(id, "site-spaces", all[1].ID), nil)
	f.checkCounter(t, id, 0)
	if d := f.siteSpaces(t, f.admin, id, "?default=true"); len(d) != 0 {
		t.Fatalf("defaults of an empty site: %+v", d)
	}
	if resp := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.docs, nil); resp.Status != http.StatusOK {
		t.Fatalf("the space went with its site space: %d", resp.Status)
	}
}

// TestSpacesLeaveSites: a space deleted or transferred leaves every site of its old organization
// (counters and defaults kept right); restoring it does not bring it back.
func TestSpacesLeaveSites(t *testing.T) {
	f := newSitesFixture(t)
	one := f.siteWithSpaces(t, f.docs, f.api)
	two := f.siteWithSpaces(t, f.api, f.docs)
	t.Run("Deleted", func(t *testing.T) {
		f.e.Do(f.admin, "DELETE", "/v1/spaces/"+f.docs, nil)
		f.checkCounter(t, one, 1)
		f.checkCounter(t, two, 1)
		if d := f.siteSpaces(t, f.admin, one, "?default=true"); len(d) != 1 || d[0].Space.ID != f.api {
			t.Fatalf("the default left: %+v", d)
		}
		f.e.Do(f.admin, "POST", "/v1/spaces/"+f.docs+"/restore", nil)
		f.checkCounter(t, one, 1)
	})
	t.Run("Transferred", func(t *testing.T) {
		f.e.Store.Client.Member.Create().SetOrganizationID(f.otherOrg).SetUserID(f.admin.UserID).SetRole(viewer.RoleAdmin).ExecX(system())
		if resp := f.e.Do(f.admin, "POST", "/v1/spaces/"+f.api+"/transfer", map[string]any{"organization": f.otherOrg}); resp.Status != http.StatusOK {
			t.Fatalf("transfer: %d %s", resp.Status, resp.Body)
		}
		f.checkCounter(t, one, 0)
		f.checkCounter(t, two, 0)
	})
	t.Run("TransferredInACollection", func(t *testing.T) {
		col := authCreated(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/collections", map[string]any{"title": "Guides"}))
		inside := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Inside", "parent": col})["id"].(string)
		three := f.siteWithSpaces(t, inside, f.docs)
		f.e.Do(f.admin, "POST", "/v1/collections/"+col+"/transfer", map[string]any{"organization": f.otherOrg})
		f.checkCounter(t, three, 1)
	})
}

// TestSweptSpacesLeaveSites: a space deleted before deletions took spaces off their sites still
// shows on them until the sweeper removes it; then it leaves, counters and defaults kept right.
func TestSweptSpacesLeaveSites(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs, f.api)
	deleted := time.Now().Add(-8 * 24 * time.Hour)
	if err := f.e.Store.Client.Space.UpdateOneID(f.docs).SetDeletedAt(deleted).Exec(system()); err != nil {
		t.Fatal(err)
	}
	if n, err := sweep.Sweep(context.Background(), f.e.Store.Client, time.Now()); err != nil || n != 1 {
		t.Fatalf("swept %d: %v", n, err)
	}
	f.checkCounter(t, id, 1)
	if d := f.siteSpaces(t, f.admin, id, "?default=true"); len(d) != 1 || d[0].Space.ID != f.api {
		t.Fatalf("defaults %+v", d)
	}
}

func TestSiteSpaceAccess(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs)
	ss := f.siteSpaces(t, f.admin, id, "")[0].ID
	reader, editor, creator := f.roles()
	writes := []struct {
		method, path string
		body         any
	}{
		{"POST", f.path(id, "site-spaces"), map[string]any{"spaceId": f.api}},
		{"PATCH", f.path(id, "site-spaces", ss), map[string]any{"path": "mine"}},
		{"POST", f.path(id, "site-spaces", ss, "move"), map[string]any{}},
		{"DELETE", f.path(id, "site-spaces", ss), nil},
	}
	if got := f.siteSpaces(t, reader, id, ""); len(got) != 1 {
		t.Fatalf("a reader lists %+v", got)
	}
	for _, w := range writes {
		testenv.CheckError(t, f.e.Do(reader, w.method, w.path, w.body), 403)
		testenv.CheckError(t, f.e.Do(editor, w.method, w.path, w.body), 403)
		testenv.CheckError(t, f.e.Do(f.outsider, w.method, w.path, w.body), 404)
		testenv.CheckError(t, f.e.Do(testenv.Actor{}, w.method, w.path, w.body), 401)
	}
	testenv.CheckError(t, f.e.Do(f.outsider, "GET", f.path(id, "site-spaces"), nil), 404)
	f.checkCounter(t, id, 1)
	for _, w := range writes {
		if resp := f.e.Do(creator, w.method, w.path, w.body); resp.Status >= 300 {
			t.Fatalf("a creator %s %s: %d %s", w.method, w.path, resp.Status, resp.Body)
		}
	}
	t.Run("SpacesTheViewerCannotRead", func(t *testing.T) {
		hidden := f.space(t, f.admin, f.org, "Secret")
		f.e.Do(f.admin, "PATCH", "/v1/spaces/"+hidden, map[string]any{"defaultLevel": nil})
		f.addSiteSpace(t, id, map[string]any{"spaceId": hidden})
		for _, s := range f.siteSpaces(t, reader, id, "") {
			if s.Space.ID == hidden {
				t.Fatalf("a reader sees the site space of a space they cannot read")
			}
		}
		if got := f.siteSpaces(t, f.admin, id, ""); len(got) != 2 {
			t.Fatalf("the admin lists %+v", got)
		}
	})
}

// siteSpacesQuery is an organization's sites, with their site spaces and each one's space.
const siteSpacesQuery = `query($o: ID!) { organization(id: $o) { sites(first: 50) { edges { node { id siteSpaceCount
  defaultSiteSpace { id } siteSpaces(first: 10) { totalCount edges { node { id path title default url space { id title permissions { view } } } } } } } } } }`

// siteSpacesStatements is the statements of siteSpacesQuery for a reader, whatever the number of
// sites: the token with its user 1, the organization 1, the sites 1, their site spaces 1 and
// their count 1, the spaces 1, the reader's grants 1 (their roles on the spaces), the sites of
// the site spaces 1 (their URLs name them), the default site spaces 1.
const siteSpacesStatements = 9

// TestSiteSpacesStatements: a page of sites with their site spaces and each one's space costs as
// many statements for 50 sites as for 5 (GraphQL), and a REST list as many for 10 site spaces as
// for 2.
func TestSiteSpacesStatements(t *testing.T) {
	count := func(t *testing.T, sites int) (graphQL, rest int64) {
		t.Helper()
		f := newSitesFixture(t)
		var last string
		for i := range sites {
			last = f.siteWithSpaces(t, f.docs, f.api, f.space(t, f.admin, f.org, fmt.Sprint("Space ", i)))
		}
		reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
		var g testenv.GQLResponse
		graphQL = gqlStatements(t, f.e, func() { g = f.e.GraphQL(reader, siteSpacesQuery, map[string]any{"o": f.org}) })
		var d struct {
			Organization struct {
				Sites struct {
					Edges []struct {
						Node struct {
							DefaultSiteSpace *struct{ ID string }
							SiteSpaces       struct {
								TotalCount int
								Edges      []struct {
									Node struct{ Space struct{ Title string } }
								}
							}
						}
					}
				}
			}
		}
		gqlOK(t, g, &d)
		for _, s := range d.Organization.Sites.Edges {
			if s.Node.SiteSpaces.TotalCount != 3 || s.Node.SiteSpaces.Edges[2].Node.Space.Title == "" || s.Node.DefaultSiteSpace == nil {
				t.Fatalf("site %+v", s.Node)
			}
		}
		for range sites { // the last site gets more site spaces
			f.addSiteSpace(t, last, map[string]any{"spaceId": nil})
		}
		rest = gqlStatements(t, f.e, func() { f.siteSpaces(t, reader, last, "") })
		return graphQL, rest
	}
	smallGQL, smallREST := count(t, 2)
	largeGQL, largeREST := count(t, 20)
	t.Logf("statements: GraphQL %d for 2 sites, %d for 20; REST %d and %d", smallGQL, largeGQL, smallREST, largeREST)
	if smallGQL != largeGQL || largeGQL > siteSpacesStatements || smallREST != largeREST {
		t.Fatalf("GraphQL: %d and %d statements (at most %d); REST: %d and %d", smallGQL, largeGQL, siteSpacesStatements, smallREST, largeREST)
	}
}

func TestGraphQLSiteSpaces(t *testing.T) {
	f := newSitesFixture(t)
	id := f.siteWithSpaces(t, f.docs)
	vars := func(extra map[string]any) map[string]any {
		v := map[string]any{"o": f.org, "s": id}
		for k, x := range extra {
			v[k] = x
		}
		return v
	}
	var added struct {
		AddSiteSpace struct{ ID, Path, SectionID string }
	}
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $sp: ID) { addSiteSpace(organizationId: $o, siteId: $s, input: {spaceId: $sp}) { id path sectionId } }`,
		vars(map[string]any{"sp": f.api})), &added)
	ss := added.AddSiteSpace.ID
	var updated struct {
		UpdateSiteSpace struct {
			Path      string
			Condition *string
		}
	}
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $ss: ID!) { updateSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $ss, input: {path: "api", condition: "true"}) { path condition } }`,
		vars(map[string]any{"ss": ss})), &updated)
	if updated.UpdateSiteSpace.Path != "api" || updated.UpdateSiteSpace.Condition == nil {
		t.Fatalf("updated %+v", updated)
	}
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $ss: ID!) { updateSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $ss, input: {condition: null}) { path condition } }`,
		vars(map[string]any{"ss": ss})), &updated)
	if updated.UpdateSiteSpace.Path != "api" || updated.UpdateSiteSpace.Condition != nil {
		t.Fatalf("condition null: %+v", updated)
	}
	wantGQLError(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $ss: ID!) { updateSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $ss, input: {condition: "visitor.claims.nope"}) { path } }`,
		vars(map[string]any{"ss": ss})), "BAD_REQUEST", "condition: column")
	first := f.siteSpaces(t, f.admin, id, "")[0].ID
	var moved struct{ MoveSiteSpace struct{ ID string } }
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $ss: ID!, $b: ID) { moveSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $ss, input: {position: {before: $b}}) { id } }`,
		vars(map[string]any{"ss": ss, "b": first})), &moved)
	if got := ids(f.siteSpaces(t, f.admin, id, "")); got[0] != ss {
		t.Fatalf("order after the move %v", got)
	}
	var read struct {
		Organization struct {
			Site struct {
				SiteSpaces struct {
					Edges []struct{ Node struct{ ID, Title string } }
				}
			}
		}
	}
	gqlOK(t, f.e.GraphQL(f.admin, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { siteSpaces(default: false) { edges { node { id title } } } } } }`,
		vars(nil)), &read)
	if e := read.Organization.Site.SiteSpaces.Edges; len(e) != 1 || e[0].Node.ID != ss || e[0].Node.Title != "API Reference" {
		t.Fatalf("non-default site spaces %+v", e)
	}
	var deleted struct{ DeleteSiteSpace bool }
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $ss: ID!) { deleteSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $ss) }`,
		vars(map[string]any{"ss": ss})), &deleted)
	f.checkCounter(t, id, 1)
	wantGQLError(t, f.e.GraphQL(f.outsider, `mutation($o: ID!, $s: ID!, $sp: ID) { addSiteSpace(organizationId: $o, siteId: $s, input: {spaceId: $sp}) { id } }`,
		vars(map[string]any{"sp": f.alien})), "NOT_FOUND")
	wantGQLError(t, f.e.GraphQL(f.outsider, `query($o: ID!) { organization(id: $o) { id } }`, vars(nil)), "NOT_FOUND")
	if s, err := f.e.Store.Client.Site.Query().Where(site.ID(id)).Only(system()); err != nil || s.SiteSpacesCount != 1 {
		t.Fatalf("site %+v %v", s, err)
	}
}
