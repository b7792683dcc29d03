package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// groupsFixture is a site with four sections, AA to DD, in that order.
type groupsFixture struct {
	*sectionsFixture
	a, b, c, d string // section ids
}

func newGroupsFixture(t *testing.T) *groupsFixture {
	t.Helper()
	f := &groupsFixture{sectionsFixture: newSectionsFixture(t)}
	for _, s := range []struct {
		id    *string
		title string
	}{{&f.a, "AA"}, {&f.b, "BB"}, {&f.c, "CC"}, {&f.d, "DD"}} {
		*s.id = f.add(t, map[string]any{"spaceId": f.api, "title": s.title}).ID
	}
	return f
}

// grp is the path of the site's section groups, followed by the given segments.
func (f *groupsFixture) grp(segments ...string) string {
	return f.path(append([]string{f.site, "section-groups"}, segments...)...)
}

// wireGroup is the part of a SiteSectionGroup the tests read.
type wireGroup struct {
	ID       string
	Title    string
	Icon     *string
	Sections []wireSection
	Children []wireSection
}

// group creates a section group as the admin and returns its id.
func (f *groupsFixture) group(t *testing.T, title string, sections ...string) string {
	t.Helper()
	resp := f.e.Do(f.admin, "POST", f.grp(), map[string]any{"title": title, "sections": sections})
	if resp.Status != http.StatusCreated {
		t.Fatalf("create group %q: %d %s", title, resp.Status, resp.Body)
	}
	return resp.Map(t)["id"].(string)
}

// want checks the site's structure.
func (f *groupsFixture) want(t *testing.T, structure string) {
	t.Helper()
	if got := f.structure(t); got != structure {
		t.Fatalf("structure %q, want %q", got, structure)
	}
}

// groupPtr is a SiteSectionGroupPointer.
func groupPtr(kind, id string) map[string]any { return map[string]any{"type": kind, "id": id} }

func TestSiteSectionGroupCreate(t *testing.T) {
	f := newGroupsFixture(t)
	t.Run("OK", func(t *testing.T) {
		resp := f.e.Do(f.admin, "POST", f.grp(), map[string]any{"title": " Products ", "icon": "box", "sections": []string{f.c, f.a}})
		if resp.Status != http.StatusCreated {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		var g wireGroup
		resp.JSON(t, &g)
		if g.Title != "Products" || deref(g.Icon) != "box" || len(g.Sections) != 2 || g.Sections[0].ID != f.c ||
			g.Sections[1].ID != f.a || len(g.Children) != 2 || deref(g.Sections[0].SectionGroup) != g.ID {
			t.Fatalf("group %+v", g)
		}
		f.want(t, "sections: BB DD Products[CC AA]")
		status, loc := postLocation(t, f.e, f.admin, f.grp(), `{"title": "Empty"}`)
		if status != http.StatusCreated || !strings.HasPrefix(loc, f.e.Server.URL+f.grp()+"/") {
			t.Fatalf("%d, Location %q", status, loc)
		}
		f.want(t, "sections: BB DD Products[CC AA] Empty[]")
	})
	t.Run("OKTakesSectionsFromAnotherGroup", func(t *testing.T) {
		f.group(t, "More", f.a, f.b)
		f.want(t, "sections: DD Products[CC] Empty[] More[AA BB]")
	})
	f.wantRefused(t, "POST", f.grp(), []refusal{
		{"ErrTitleMissing", map[string]any{"icon": "box"}, 400, "title"},
		{"ErrTitleNull", map[string]any{"title": nil}, 400, "title"},
		{"ErrTitleBlank", map[string]any{"title": "  "}, 400, "title"},
		{"ErrTitleLong", map[string]any{"title": strings.Repeat("x", 101)}, 400, "title"},
		{"ErrTitleNotString", map[string]any{"title": 1}, 400, "title"},
		{"ErrIconLong", map[string]any{"title": "G", "icon": strings.Repeat("i", 51)}, 400, "icon"},
		{"ErrSectionsNotArray", map[string]any{"title": "G", "sections": "x"}, 400, "sections"},
		{"ErrSectionTwice", map[string]any{"title": "G", "sections": []string{f.d, f.d}}, 400, "sections[1]"},
		{"ErrSectionUnknown", map[string]any{"title": "G", "sections": []string{f.d, "nope"}}, 404, "sections[1]"},
	})
	t.Run("ErrSiteWithoutSections", func(t *testing.T) {
		empty := f.createSite(t, map[string]any{"title": "Empty"})["id"].(string)
		msg := testenv.CheckError(t, f.e.Do(f.admin, "POST", f.path(empty, "section-groups"), map[string]any{"title": "G"}), 400)
		if !strings.Contains(msg, "no sections") {
			t.Fatalf("message %q", msg)
		}
	})
}

func TestSiteSectionGroupUpdate(t *testing.T) {
	f := newGroupsFixture(t)
	g := f.group(t, "Products", f.b)
	patch := func(body any) testenv.Response { return f.e.Do(f.admin, "PATCH", f.grp(g), body) }
	var got wireGroup
	patch(map[string]any{"title": "Catalog", "icon": "box"}).JSON(t, &got)
	if got.Title != "Catalog" || deref(got.Icon) != "box" || len(got.Sections) != 1 {
		t.Fatalf("group %+v", got)
	}
	got = wireGroup{}
	patch(map[string]any{"icon": nil}).JSON(t, &got)
	if got.Title != "Catalog" || got.Icon != nil {
		t.Fatalf("group %+v", got)
	}
	f.wantRefused(t, "PATCH", f.grp(g), []refusal{
		{"ErrTitleNull", map[string]any{"title": nil}, 400, "title"},
		{"ErrTitleEmpty", map[string]any{"title": ""}, 400, "title"},
		{"ErrTitleLong", map[string]any{"title": strings.Repeat("x", 101)}, 400, "title"},
		{"ErrIconEmpty", map[string]any{"title": "Changed", "icon": ""}, 400, "icon"},
		{"ErrIconType", map[string]any{"icon": 3}, 400, "icon"},
	})
	testenv.CheckError(t, f.e.Do(f.admin, "PATCH", f.grp("nope"), map[string]any{"title": "X"}), 404)
}

func TestSiteSectionGroupMembers(t *testing.T) {
	f := newGroupsFixture(t)
	g := f.group(t, "Products", f.b)
	other := f.group(t, "Other", f.d)
	add := func(t *testing.T, group, section string) testenv.Response {
		t.Helper()
		resp := f.e.Do(f.admin, "POST", f.grp(group, "sections"), map[string]any{"sectionId": section})
		if resp.Status < 300 {
			f.e.Spec.ValidateSchema(t, "SiteSectionGroup", resp.Body)
		}
		return resp
	}
	t.Run("OKAdd", func(t *testing.T) {
		resp := add(t, g, f.a)
		var got wireGroup
		resp.JSON(t, &got)
		if resp.Status != http.StatusCreated || len(got.Sections) != 2 || got.Sections[1].ID != f.a {
			t.Fatalf("%d %+v", resp.Status, got)
		}
		f.want(t, "sections: CC Products[BB AA] Other[DD]")
	})
	t.Run("OKAddAgainChangesNothing", func(t *testing.T) {
		before := f.snapshot(t)
		if resp := add(t, g, f.b); resp.Status != http.StatusCreated {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		f.wantUnchanged(t, before)
	})
	t.Run("OKAddFromAnotherGroup", func(t *testing.T) {
		add(t, g, f.d)
		f.want(t, "sections: CC Products[BB AA DD] Other[]")
	})
	t.Run("OKRemoveGoesJustAfterTheGroup", func(t *testing.T) {
		resp := f.e.Do(f.admin, "DELETE", f.grp(g, "sections", f.a), nil)
		if resp.Status != http.StatusResetContent {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		f.want(t, "sections: CC Products[BB DD] AA Other[]")
	})
	t.Run("OKPatchMovesIntoAndOut", func(t *testing.T) {
		f.e.Do(f.admin, "PATCH", f.sec(f.c), map[string]any{"siteSectionGroupId": other})
		f.want(t, "sections: Products[BB DD] AA Other[CC]")
		f.e.Do(f.admin, "PATCH", f.sec(f.b), map[string]any{"siteSectionGroupId": nil})
		f.want(t, "sections: Products[DD] BB AA Other[CC]")
	})
	before := f.snapshot(t)
	t.Run("ErrRemoveNotInGroup", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.admin, "DELETE", f.grp(g, "sections", f.a), nil), 404)
	})
	t.Run("ErrAddUnknownSection", func(t *testing.T) {
		if msg := testenv.CheckError(t, add(t, g, "nope"), 404); !strings.Contains(msg, "sectionId") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrAddWithoutSection", func(t *testing.T) {
		for _, body := range []any{map[string]any{}, map[string]any{"sectionId": 5}} {
			resp := f.e.Do(f.admin, "POST", f.grp(g, "sections"), body)
			if msg := testenv.CheckError(t, resp, 400); !strings.Contains(msg, "sectionId") {
				t.Fatalf("message %q", msg)
			}
		}
	})
	t.Run("ErrUnknownGroup", func(t *testing.T) {
		testenv.CheckError(t, add(t, "nope", f.a), 404)
		testenv.CheckError(t, f.e.Do(f.admin, "DELETE", f.grp("nope", "sections", f.a), nil), 404)
	})
	t.Run("NothingChanged", func(t *testing.T) { f.wantUnchanged(t, before) })
}

func TestSiteSectionGroupMove(t *testing.T) {
	f := newGroupsFixture(t)
	g := f.group(t, "G", f.b)
	move := func(t *testing.T, body any) testenv.Response {
		t.Helper()
		return f.e.Do(f.admin, "POST", f.grp(g, "move"), body)
	}
	ok := func(t *testing.T, body any, want string) {
		t.Helper()
		if resp := move(t, body); resp.Status != 200 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		f.want(t, want)
	}
	f.want(t, "sections: AA CC DD G[BB]")
	t.Run("OKBeforeSection", func(t *testing.T) {
		ok(t, map[string]any{"position": map[string]any{"before": groupPtr("site-section", f.a)}}, "sections: G[BB] AA CC DD")
	})
	t.Run("OKAfterSection", func(t *testing.T) {
		ok(t, map[string]any{"position": map[string]any{"after": groupPtr("site-section", f.c)}}, "sections: AA CC G[BB] DD")
	})
	t.Run("OKAroundGroup", func(t *testing.T) {
		h := f.group(t, "H")
		ok(t, map[string]any{"position": map[string]any{"after": groupPtr("site-section-group", h)}}, "sections: AA CC DD H[] G[BB]")
		ok(t, map[string]any{"position": map[string]any{"before": groupPtr("site-section-group", h)}}, "sections: AA CC DD G[BB] H[]")
	})
	t.Run("OKSectionBesideAGroup", func(t *testing.T) {
		// A section's move names sections only; GraphQL may name a group.
		if resp := f.e.Do(f.admin, "POST", f.sec(f.a, "move"), map[string]any{"position": map[string]any{"before": sectionPtr(f.b)}}); resp.Status != 200 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		f.want(t, "sections: CC DD G[AA BB] H[]")
	})
	f.wantRefused(t, "POST", f.grp(g, "move"), []refusal{
		{"ErrIntoAGroup", map[string]any{"position": map[string]any{"before": groupPtr("site-section", f.b)}}, 400, "position.before"},
		{"ErrSelf", map[string]any{"position": map[string]any{"after": groupPtr("site-section-group", g)}}, 400, "position.after"},
		{"ErrPointerType", map[string]any{"position": map[string]any{"after": groupPtr("site-space", f.c)}}, 400, "position.after"},
		{"ErrPointerWithoutID", map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section"}}}, 400, "position.after"},
		{"ErrUnknown", map[string]any{"position": map[string]any{"before": groupPtr("site-section", "nope")}}, 400, "position.before"},
	})
}

func TestSiteSectionGroupDelete(t *testing.T) {
	f := newGroupsFixture(t)
	g := f.group(t, "G", f.d, f.a)
	f.e.Do(f.admin, "POST", f.grp(g, "move"), map[string]any{"position": map[string]any{"after": groupPtr("site-section", f.b)}})
	f.want(t, "sections: BB G[DD AA] CC")
	if resp := f.e.Do(f.admin, "DELETE", f.grp(g), nil); resp.Status != http.StatusResetContent {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	f.want(t, "sections: BB DD AA CC")
	for _, s := range f.list(t) {
		if s.SectionGroup != nil {
			t.Fatalf("section %s still names its group", s.Title)
		}
	}
	testenv.CheckError(t, f.e.Do(f.admin, "DELETE", f.grp(g), nil), 404)
	t.Run("OKLastSectionTakesTheGroups", func(t *testing.T) {
		f.group(t, "Empty")
		for _, id := range []string{f.a, f.b, f.c, f.d} {
			f.e.Do(f.admin, "DELETE", f.sec(id), nil)
		}
		var l struct{ Count int }
		f.e.Do(f.admin, "GET", f.grp(), nil).JSON(t, &l)
		if l.Count != 0 {
			t.Fatalf("%d groups left on a site without sections", l.Count)
		}
	})
}

func TestSiteSectionGroupAccess(t *testing.T) {
	f := newGroupsFixture(t)
	g := f.group(t, "G", f.a)
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	editor := f.e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
	creator := f.e.User("cy@example.com", f.org, testenv.Role(viewer.RoleCreate))
	var l struct {
		Items []wireGroup
		Count int
	}
	f.e.Do(reader, "GET", f.grp(), nil).JSON(t, &l)
	if l.Count != 1 || len(l.Items[0].Sections) != 1 {
		t.Fatalf("the reader's list %+v", l)
	}
	writes := []struct {
		method, path string
		body         any
	}{
		{"POST", f.grp(), map[string]any{"title": "Evil"}},
		{"PATCH", f.grp(g), map[string]any{"title": "Evil"}},
		{"POST", f.grp(g, "sections"), map[string]any{"sectionId": f.b}},
		{"DELETE", f.grp(g, "sections", f.a), nil},
		{"POST", f.grp(g, "move"), nil},
		{"DELETE", f.grp(g), nil},
	}
	before := f.snapshot(t)
	for _, w := range writes {
		testenv.CheckError(t, f.e.Do(reader, w.method, w.path, w.body), 403)
		testenv.CheckError(t, f.e.Do(editor, w.method, w.path, w.body), 403)
	}
	f.wantUnchanged(t, before)
	for _, w := range writes {
		if resp := f.e.Do(creator, w.method, w.path, w.body); resp.Status >= 300 {
			t.Fatalf("a creator's %s %s: %d %s", w.method, w.path, resp.Status, resp.Body)
		}
	}
}
