package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// writePages inserts pages into a space through a merged change request, as a, and returns their
// ids in order.
func writePages(t *testing.T, e *testenv.Env, a testenv.Actor, spaceID string, changes ...map[string]any) []string {
	t.Helper()
	base := "/v1/spaces/" + spaceID + "/change-requests"
	cr := fmt.Sprintf("%s/%d", base, int(e.Do(a, "POST", base, map[string]any{"subject": "Pages"}).Map(t)["number"].(float64)))
	answer := e.Do(a, "POST", cr+"/content?compat=false", map[string]any{"changes": changes})
	if answer.Status != http.StatusOK {
		t.Fatalf("content: %d %s", answer.Status, answer.Body)
	}
	if r := e.Do(a, "POST", cr+"/merge", nil); r.Status != http.StatusOK {
		t.Fatalf("merge: %d %s", r.Status, r.Body)
	}
	ids := make([]string, len(changes))
	for i := range changes {
		ids[i] = createdID(t, answer.Map(t), i)
	}
	return ids
}

// TestSiteSpaceFields: a site space's title, home page (pageId) and hidden flag (decision 178),
// and a PATCH of its space; `draft` true is refused (decision 179).
func TestSiteSpaceFields(t *testing.T) {
	f := newSitesFixture(t)
	docsPages := writePages(t, f.e, f.admin, f.docs, insert("Welcome", "Hi."), insert("Guides", "All guides."))
	apiPages := writePages(t, f.e, f.admin, f.api, insert("Endpoints", "GET /."))
	id := f.siteWithSpaces(t, f.docs)
	docs := f.siteSpaces(t, f.admin, id, "")[0]
	at := f.path(id, "site-spaces", docs.ID)
	patch := func(t *testing.T, body map[string]any) siteSpaceWire {
		t.Helper()
		resp := f.e.Do(f.admin, "PATCH", at, body)
		if resp.Status != http.StatusOK {
			t.Fatalf("patch %v: %d %s", body, resp.Status, resp.Body)
		}
		var ss siteSpaceWire
		resp.JSON(t, &ss)
		return ss
	}
	t.Run("OKAddWithTitleAndHome", func(t *testing.T) {
		ss := f.addSiteSpace(t, id, map[string]any{"spaceId": f.api, "title": "  Reference  ", "pageId": apiPages[0], "draft": false})
		if ss.Title != "Reference" || deref(ss.PageID) != apiPages[0] || ss.Hidden || ss.Space.Title != "API Reference" {
			t.Fatalf("added %+v", ss)
		}
		fresh := f.addSiteSpace(t, id, map[string]any{"spaceId": nil, "title": "Changelog"})
		if fresh.Title != "Changelog" || fresh.Space.Title != "Changelog" || fresh.PageID != nil {
			t.Fatalf("a new space titled by title: %+v", fresh)
		}
	})
	t.Run("OKPatch", func(t *testing.T) {
		if ss := patch(t, map[string]any{"hidden": true, "pageId": docsPages[1], "title": "Handbook"}); !ss.Hidden ||
			deref(ss.PageID) != docsPages[1] || ss.Title != "Handbook" {
			t.Fatalf("patched %+v", ss)
		}
		if ss := patch(t, map[string]any{"path": "handbook"}); !ss.Hidden || deref(ss.PageID) != docsPages[1] || ss.Title != "Handbook" {
			t.Fatalf("fields not given changed: %+v", ss)
		}
		if ss := patch(t, map[string]any{"hidden": false, "pageId": nil, "title": nil}); ss.Hidden || ss.PageID != nil || ss.Title != "Docs" {
			t.Fatalf("cleared %+v", ss)
		}
	})
	t.Run("OKPatchSpace", func(t *testing.T) {
		patch(t, map[string]any{"pageId": docsPages[0]})
		other := f.space(t, f.admin, f.org, "Other")
		if ss := patch(t, map[string]any{"spaceId": other}); ss.Space.ID != other || ss.PageID != nil || ss.Title != "Other" {
			t.Fatalf("pointed at another space: %+v", ss)
		}
		if ss := patch(t, map[string]any{"spaceId": f.docs, "pageId": docsPages[1]}); ss.Space.ID != f.docs || deref(ss.PageID) != docsPages[1] {
			t.Fatalf("pointed back with a home page: %+v", ss)
		}
	})
	list := func() string { return string(f.e.Do(f.admin, "GET", f.path(id, "site-spaces"), nil).Body) }
	before := list()
	refused := []struct {
		name, method, path string
		body               map[string]any
		status             int
		field              string
	}{
		{"ErrAddDraft", "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": nil, "draft": true}, 400, "draft"},
		{"ErrAddShortTitle", "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": nil, "title": " x "}, 400, "title"},
		{"ErrAddHomeOfNewSpace", "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": nil, "pageId": docsPages[0]}, 400, "pageId"},
		{"ErrAddHomeOfAnotherSpace", "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": f.space(t, f.admin, f.org, "Empty"), "pageId": docsPages[0]}, 404, "pageId"},
		{"ErrPatchDraft", "PATCH", at, map[string]any{"draft": true}, 400, "draft"},
		{"ErrPatchUnknownPage", "PATCH", at, map[string]any{"pageId": "nope"}, 404, "pageId"},
		{"ErrPatchPageOfTheOldSpace", "PATCH", at, map[string]any{"spaceId": f.api, "pageId": docsPages[0]}, 404, "pageId"},
		{"ErrPatchSpaceInTheLevel", "PATCH", at, map[string]any{"spaceId": f.api, "hidden": true}, 409, "spaceId"},
		{"ErrPatchAlienSpace", "PATCH", at, map[string]any{"spaceId": f.alien}, 404, "spaceId"},
		{"ErrPatchNullHidden", "PATCH", at, map[string]any{"hidden": nil}, 400, "hidden"},
		{"ErrPatchNullSpace", "PATCH", at, map[string]any{"spaceId": nil}, 400, "spaceId"},
		{"ErrPatchLongTitle", "PATCH", at, map[string]any{"title": strings.Repeat("t", 129)}, 400, "title"},
		{"ErrPatchTitleWithBadPath", "PATCH", at, map[string]any{"title": "Fine", "path": "Bad Path"}, 400, "path"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) { wantError(t, f.e.Do(f.admin, c.method, c.path, c.body), c.status, c.field) })
	}
	t.Run("NothingChanged", func(t *testing.T) {
		if after := list(); after != before {
			t.Fatalf("before %s\nafter %s", before, after)
		}
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		var d struct {
			UpdateSiteSpace struct {
				Hidden bool
				Title  string
				PageID *string
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $ss: ID!) { updateSiteSpace(organizationId: $o, siteId: $s,
			siteSpaceId: $ss, input: {hidden: true, title: "Manual", pageId: null}) { hidden title pageId } }`,
			map[string]any{"o": f.org, "s": id, "ss": docs.ID}), &d)
		if u := d.UpdateSiteSpace; !u.Hidden || u.Title != "Manual" || u.PageID != nil {
			t.Fatalf("updateSiteSpace %+v", u)
		}
	})
}
