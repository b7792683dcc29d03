package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// sitesFixture is an organization with its admin and two spaces, and an outsider of another
// organization with a space of their own.
type sitesFixture struct {
	e                *testenv.Env
	admin, outsider  testenv.Actor
	org, otherOrg    string
	docs, api, alien string // space ids: two of org, one of otherOrg
}

func newSitesFixture(t *testing.T) *sitesFixture {
	t.Helper()
	e := testenv.New(t)
	f := &sitesFixture{e: e}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.outsider, f.otherOrg = e.Bootstrap("oscar@other.example", "Other")
	f.docs = f.space(t, f.admin, f.org, "Docs")
	f.api = f.space(t, f.admin, f.org, "API Reference")
	f.alien = f.space(t, f.outsider, f.otherOrg, "Alien")
	return f
}

func (f *sitesFixture) space(t *testing.T, a testenv.Actor, org, title string) string {
	t.Helper()
	resp := f.e.Do(a, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": title})
	if resp.Status != http.StatusCreated {
		t.Fatalf("create space %q: %d %s", title, resp.Status, resp.Body)
	}
	return resp.Map(t)["id"].(string)
}

// path is /v1/orgs/{org}/sites followed by the given segments.
func (f *sitesFixture) path(segments ...string) string {
	return "/v1/orgs/" + f.org + "/sites" + teamsJoin(segments)
}

// createSite creates a site as the admin and returns its wire form.
func (f *sitesFixture) createSite(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	resp := f.e.Do(f.admin, "POST", f.path(), body)
	if resp.Status != http.StatusCreated {
		t.Fatalf("create site %v: %d %s", body, resp.Status, resp.Body)
	}
	return resp.Map(t)
}

func TestCreateSite(t *testing.T) {
	f := newSitesFixture(t)
	s := f.createSite(t, map[string]any{"title": "Docs site", "spaces": []string{f.docs, f.api}})
	want := map[string]any{"object": "site", "title": "Docs site", "type": "basic", "visibility": "public",
		"published": false, "siteSpaces": float64(2), "defaultLevel": "inherit"}
	for k, v := range want {
		if s[k] != v {
			t.Errorf("%s: want %v, got %v", k, v, s[k])
		}
	}
	perms := s["permissions"].(map[string]any)
	if perms["admin"] != true || perms["editAdaptiveSchema"] != true {
		t.Errorf("admin's permissions: %v", perms)
	}
	got := f.e.Do(f.admin, "GET", f.path(s["id"].(string)), nil).Map(t)
	if fmt.Sprint(got) != fmt.Sprint(s) {
		t.Errorf("GET answers %v, POST answered %v", got, s)
	}
}

func TestCreateSiteDefaults(t *testing.T) {
	f := newSitesFixture(t)
	s := f.createSite(t, map[string]any{"type": "premium", "visibility": "unlisted"})
	if s["title"] != "Acme" || s["type"] != "premium" || s["visibility"] != "unlisted" || s["siteSpaces"] != float64(0) {
		t.Fatalf("unexpected site %v", s)
	}
}

func TestCreateSiteRefusesBadInput(t *testing.T) {
	f := newSitesFixture(t)
	cases := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"TitleShort", map[string]any{"title": "A"}, 400, "title"},
		{"TitleLong", map[string]any{"title": strings.Repeat("x", 129)}, 400, "title"},
		{"TitleNull", map[string]any{"title": nil}, 400, "title"},
		{"TypeUnknown", map[string]any{"type": "gold"}, 400, "type"},
		{"VisibilityOfSpaces", map[string]any{"visibility": "private"}, 400, "visibility"},
		{"SpacesNotArray", map[string]any{"spaces": 42}, 400, "spaces"},
		{"SpaceTwice", map[string]any{"spaces": []string{f.docs, f.docs}}, 400, "spaces[1]"},
		{"SpaceOfAnotherOrg", map[string]any{"spaces": []string{f.docs, f.alien}}, 404, "spaces[1]"},
		{"SpaceUnknown", map[string]any{"spaces": []string{"nope"}}, 404, "spaces[0]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := f.e.Do(f.admin, "POST", f.path(), c.body)
			msg := testenv.CheckError(t, resp, c.status)
			if !strings.Contains(msg, c.field) {
				t.Fatalf("message %q does not name %s", msg, c.field)
			}
		})
	}
	if n := len(f.e.Do(f.admin, "GET", f.path(), nil).Map(t)["items"].([]any)); n != 0 {
		t.Fatalf("failed creates left %d sites", n)
	}
}

func TestSiteAccess(t *testing.T) {
	f := newSitesFixture(t)
	id := f.createSite(t, map[string]any{"title": "Docs site"})["id"].(string)
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	editor := f.e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
	creator := f.e.User("cy@example.com", f.org, testenv.Role(viewer.RoleCreate))
	guest := f.e.User("gus@example.com", f.org, nil)

	s := f.e.Do(reader, "GET", f.path(id), nil).Map(t)
	if perms := s["permissions"].(map[string]any); perms["view"] != true || perms["admin"] != false {
		t.Fatalf("reader's permissions: %v", perms)
	}
	testenv.CheckError(t, f.e.Do(editor, "POST", f.path(), map[string]any{"title": "Mine"}), 403)
	if resp := f.e.Do(creator, "POST", f.path(), map[string]any{"title": "Mine"}); resp.Status != 201 {
		t.Fatalf("a creator creates sites: %d %s", resp.Status, resp.Body)
	}
	testenv.CheckError(t, f.e.Do(guest, "GET", f.path(), nil), 403)
	testenv.CheckError(t, f.e.Do(f.outsider, "GET", f.path(id), nil), 404)
	testenv.CheckError(t, f.e.Do(f.outsider, "GET", f.path(), nil), 404)
	testenv.CheckError(t, f.e.Do(testenv.Actor{}, "GET", f.path(id), nil), 401)
	other := "/v1/orgs/" + f.otherOrg + "/sites/" + id
	testenv.CheckError(t, f.e.Do(f.outsider, "GET", other, nil), 404)
}

func TestListSitesFilters(t *testing.T) {
	f := newSitesFixture(t)
	withDocs := f.createSite(t, map[string]any{"title": "Handbook", "spaces": []string{f.docs}})["id"].(string)
	withAPI := f.createSite(t, map[string]any{"title": "Developers", "spaces": []string{f.api}})["id"].(string)
	cases := []struct {
		query string
		want  []string
	}{
		{"", []string{withAPI, withDocs}}, // by title
		{"?space=" + f.docs, []string{withDocs}},
		{"?title=DEVELOP", []string{withAPI}},
		{"?published=false", []string{withAPI, withDocs}},
		{"?published=true", nil},
	}
	for _, c := range cases {
		var l struct {
			Items []struct{ ID string }
			Count int
		}
		f.e.Do(f.admin, "GET", f.path()+c.query, nil).JSON(t, &l)
		var got []string
		for _, s := range l.Items {
			got = append(got, s.ID)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) || l.Count != len(c.want) {
			t.Errorf("%q: want %v, got %v (count %d)", c.query, c.want, got, l.Count)
		}
	}
	testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path()+"?published=yes", nil), 400)
}
