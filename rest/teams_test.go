package rest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// teamsFixture is an organization with its admin, and an outsider of another organization.
type teamsFixture struct {
	e        *testenv.Env
	admin    testenv.Actor
	org      string
	outsider testenv.Actor
}

func newTeamsFixture(t *testing.T) *teamsFixture {
	t.Helper()
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	outsider, _ := e.Bootstrap("oscar@other.example", "Other")
	return &teamsFixture{e: e, admin: admin, org: org, outsider: outsider}
}

// path is /v1/orgs/{org}/teams followed by the given segments.
func (f *teamsFixture) path(segments ...string) string {
	return "/v1/orgs/" + f.org + "/teams" + teamsJoin(segments)
}

func teamsJoin(segments []string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteString("/" + s)
	}
	return b.String()
}

// member adds a member of the organization (nil role: a guest).
func (f *teamsFixture) member(t *testing.T, name string, role *viewer.Role) testenv.Actor {
	t.Helper()
	return f.e.User(name+"@example.com", f.org, role)
}

// create creates a team as the admin and returns its id.
func (f *teamsFixture) create(t *testing.T, title string, members ...string) string {
	t.Helper()
	body := map[string]any{"title": title}
	if len(members) > 0 {
		body["members"] = members
	}
	resp := f.e.Do(f.admin, "PUT", f.path(), body)
	if resp.Status != 201 {
		t.Fatalf("create team %q: %d %s", title, resp.Status, resp.Body)
	}
	return resp.Map(t)["id"].(string)
}

// owner creates a team whose owner is a new `read` member, and returns the team and its owner.
func (f *teamsFixture) owner(t *testing.T, name, title string) (string, testenv.Actor) {
	t.Helper()
	o := f.member(t, name, testenv.Role(viewer.RoleRead))
	team := f.create(t, title, o.UserID)
	f.wantStatus(t, f.e.Do(f.admin, "PUT", f.path(team, "members", o.UserID), map[string]any{"role": "owner"}), 204)
	return team, o
}

func (f *teamsFixture) wantStatus(t *testing.T, resp testenv.Response, status int) {
	t.Helper()
	if resp.Status != status {
		t.Fatalf("want %d, got %d %s", status, resp.Status, resp.Body)
	}
}

// wantError asserts a failure with status whose message contains each of words.
func (f *teamsFixture) wantError(t *testing.T, resp testenv.Response, status int, words ...string) {
	t.Helper()
	msg := testenv.CheckError(t, resp, status)
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not name %q", msg, w)
		}
	}
}

type teamsPage[T any] struct {
	Items []T `json:"items"`
	Count int `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

type teamsWireTeam struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Members     int    `json:"members"`
	Spaces      int    `json:"spaces"`
	CreatedAt   string `json:"createdAt"`
	Permissions struct {
		Admin bool `json:"admin"`
		View  bool `json:"view"`
	} `json:"permissions"`
}

type teamsRosterItem struct {
	Organization struct {
		ID   string  `json:"id"`
		Role *string `json:"role"`
		User struct {
			Email string `json:"email"`
		} `json:"user"`
	} `json:"organization"`
	Team struct {
		Role string `json:"role"`
	} `json:"team"`
	Permissions struct {
		View bool `json:"view"`
	} `json:"permissions"`
}

// list returns the teams the actor lists with the query (e.g. "title=core").
func (f *teamsFixture) list(t *testing.T, a testenv.Actor, query string) []teamsWireTeam {
	t.Helper()
	resp := f.e.Do(a, "GET", f.path()+"?"+query, nil)
	f.wantStatus(t, resp, 200)
	var p teamsPage[teamsWireTeam]
	resp.JSON(t, &p)
	if p.Count != len(p.Items) || p.Next != nil {
		t.Fatalf("want one whole page, got count %d, %d items, next %v", p.Count, len(p.Items), p.Next)
	}
	return p.Items
}

func teamTitles(teams []teamsWireTeam) []string {
	out := make([]string, len(teams))
	for i, tm := range teams {
		out[i] = tm.Title
	}
	return out
}

// roster returns the team's members as user id → team role, listed by the admin.
func (f *teamsFixture) roster(t *testing.T, team string) map[string]string {
	t.Helper()
	resp := f.e.Do(f.admin, "GET", f.path(team, "members")+"?limit=1000", nil)
	f.wantStatus(t, resp, 200)
	var p teamsPage[teamsRosterItem]
	resp.JSON(t, &p)
	out := map[string]string{}
	for _, it := range p.Items {
		out[it.Organization.ID] = it.Team.Role
	}
	return out
}

func (f *teamsFixture) wantRoster(t *testing.T, team string, want map[string]string) {
	t.Helper()
	got := f.roster(t, team)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("team members: want %v, got %v", want, got)
	}
}

// walk reads every page of path with limit and returns the ids of the items in order, asserting a
// constant count, no next link on the last page and no duplicates.
func teamsWalk[T any](t *testing.T, f *teamsFixture, path string, limit int, id func(T) string) []string {
	t.Helper()
	var ids []string
	seen := map[string]bool{}
	query := fmt.Sprintf("?limit=%d", limit)
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("pagination does not end")
		}
		resp := f.e.Do(f.admin, "GET", path+query, nil)
		f.wantStatus(t, resp, 200)
		var p teamsPage[T]
		resp.JSON(t, &p)
		for _, it := range p.Items {
			if seen[id(it)] {
				t.Fatalf("item %s listed twice", id(it))
			}
			seen[id(it)] = true
			ids = append(ids, id(it))
		}
		if p.Next == nil {
			if p.Count != len(ids) {
				t.Fatalf("count %d, but %d items over all pages", p.Count, len(ids))
			}
			return ids
		}
		if len(p.Items) != limit {
			t.Fatalf("a page before the last has %d items, want %d", len(p.Items), limit)
		}
		query = fmt.Sprintf("?limit=%d&page=%s", limit, url.QueryEscape(p.Next.Page))
	}
}

// writeRoles are the members who may not change teams, with their roles (nil: a guest).
var writeRoles = []struct {
	name string
	role *viewer.Role
}{
	{"Create", testenv.Role(viewer.RoleCreate)},
	{"Review", testenv.Role(viewer.RoleReview)},
	{"Edit", testenv.Role(viewer.RoleEdit)},
	{"Comment", testenv.Role(viewer.RoleComment)},
	{"Read", testenv.Role(viewer.RoleRead)},
	{"Guest", nil},
}

func TestListTeams(t *testing.T) {
	f := newTeamsFixture(t)
	for _, title := range []string{"Gamma", "Core Team", "Alpha", "Hardcore", "Beta"} {
		f.create(t, title)
	}
	t.Run("OKSortedByTitle", func(t *testing.T) {
		got := teamTitles(f.list(t, f.admin, ""))
		want := []string{"Alpha", "Beta", "Core Team", "Gamma", "Hardcore"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("want %v, got %v", want, got)
		}
	})
	t.Run("OKTitleFilter", func(t *testing.T) {
		for _, q := range []string{"core", "CORE", "Core"} {
			got := teamTitles(f.list(t, f.admin, "title="+q))
			if fmt.Sprint(got) != "[Core Team Hardcore]" {
				t.Fatalf("title=%s: got %v", q, got)
			}
		}
		if got := f.list(t, f.admin, "title=nothing"); len(got) != 0 {
			t.Fatalf("title=nothing: got %v", teamTitles(got))
		}
	})
	t.Run("OKReaderLists", func(t *testing.T) {
		r := f.member(t, "reader", testenv.Role(viewer.RoleRead))
		if got := f.list(t, r, ""); len(got) != 5 {
			t.Fatalf("want 5 teams, got %v", teamTitles(got))
		}
	})
	t.Run("ErrBadLimit", func(t *testing.T) {
		for _, l := range []string{"-1", "1001", "abc", "1.5"} {
			f.wantError(t, f.e.Do(f.admin, "GET", f.path()+"?limit="+l, nil), 400, "limit")
		}
	})
	t.Run("ErrGuest", func(t *testing.T) {
		g := f.member(t, "guest", nil)
		f.wantStatus(t, f.e.Do(g, "GET", f.path(), nil), 403)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.outsider, "GET", f.path(), nil), 404)
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(testenv.Actor{}, "GET", f.path(), nil), 401)
		f.wantStatus(t, f.e.Do(testenv.Actor{Token: "bdy_bogus"}, "GET", f.path(), nil), 401)
	})
}

func TestListTeamsOwnerFilter(t *testing.T) {
	f := newTeamsFixture(t)
	owned, o := f.owner(t, "olga", "Owned")
	f.create(t, "Joined", o.UserID)
	f.create(t, "Other")
	t.Run("OK", func(t *testing.T) {
		got := teamsIDs(f.list(t, f.admin, "owner="+o.UserID))
		if fmt.Sprint(got) != fmt.Sprint([]string{owned}) {
			t.Fatalf("want only the owned team %s, got %v", owned, got)
		}
	})
	t.Run("OKNobody", func(t *testing.T) {
		if got := f.list(t, f.admin, "owner="+f.admin.UserID); len(got) != 0 {
			t.Fatalf("the admin owns no team, got %v", teamTitles(got))
		}
	})
}

func teamsIDs(teams []teamsWireTeam) []string {
	out := make([]string, len(teams))
	for i, tm := range teams {
		out[i] = tm.ID
	}
	return out
}

func TestListTeamsPagination(t *testing.T) {
	f := newTeamsFixture(t)
	for i := 0; i < 7; i++ {
		f.create(t, fmt.Sprintf("Team %02d", 6-i))
	}
	all := teamsIDs(f.list(t, f.admin, ""))
	for _, limit := range []int{1, 2, 3, 7} {
		got := teamsWalk(t, f, f.path(), limit, func(tm teamsWireTeam) string { return tm.ID })
		if fmt.Sprint(got) != fmt.Sprint(all) {
			t.Fatalf("limit %d: pages give %v, the whole list %v", limit, got, all)
		}
	}
}

func TestTeamShape(t *testing.T) {
	f := newTeamsFixture(t)
	team, o := f.owner(t, "olga", "Docs")
	plain := f.member(t, "paul", testenv.Role(viewer.RoleEdit))
	f.wantStatus(t, f.e.Do(f.admin, "PUT", f.path(team, "members", plain.UserID), nil), 204)
	cases := []struct {
		name  string
		actor testenv.Actor
		admin bool
	}{{"Admin", f.admin, true}, {"Owner", o, true}, {"Member", plain, false}}
	for _, c := range cases {
		t.Run("OK"+c.name, func(t *testing.T) {
			var tm teamsWireTeam
			resp := f.e.Do(c.actor, "GET", f.path(team), nil)
			f.wantStatus(t, resp, 200)
			resp.JSON(t, &tm)
			if tm.ID != team || tm.Title != "Docs" || tm.Members != 2 || tm.Spaces != 0 || tm.CreatedAt == "" {
				t.Fatalf("unexpected team %s", resp.Body)
			}
			if tm.Permissions.Admin != c.admin || !tm.Permissions.View {
				t.Fatalf("permissions: want admin %v view true, got %+v", c.admin, tm.Permissions)
			}
			listed := f.list(t, c.actor, "")
			if len(listed) != 1 || listed[0].Permissions != tm.Permissions || listed[0].Members != 2 {
				t.Fatalf("listed team %+v differs from %+v", listed, tm)
			}
		})
	}
}

func TestCreateTeam(t *testing.T) {
	f := newTeamsFixture(t)
	a := f.member(t, "anna", testenv.Role(viewer.RoleRead))
	b := f.member(t, "bert", nil)
	t.Run("OK", func(t *testing.T) {
		resp := f.e.Do(f.admin, "PUT", f.path(), map[string]any{"title": "Writers", "members": []string{a.UserID, b.UserID}})
		f.wantStatus(t, resp, 201)
		var tm teamsWireTeam
		resp.JSON(t, &tm)
		if tm.Title != "Writers" || tm.Members != 2 || !tm.Permissions.Admin {
			t.Fatalf("unexpected team %s", resp.Body)
		}
		f.wantRoster(t, tm.ID, map[string]string{a.UserID: "member", b.UserID: "member"})
	})
	t.Run("OKLongestTitle", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.admin, "PUT", f.path(), map[string]any{"title": strings.Repeat("x", 64)}), 201)
	})
	t.Run("OKNoMembers", func(t *testing.T) {
		team := f.create(t, "Empty")
		f.wantRoster(t, team, map[string]string{})
	})
}

func TestCreateTeamErrors(t *testing.T) {
	f := newTeamsFixture(t)
	a := f.member(t, "anna", testenv.Role(viewer.RoleRead))
	cases := []struct {
		name  string
		body  any
		words []string
	}{
		{"ErrTitleEmpty", map[string]any{"title": ""}, []string{"title"}},
		{"ErrTitleBlank", map[string]any{"title": "   "}, []string{"title"}},
		{"ErrTitleTooLong", map[string]any{"title": strings.Repeat("x", 65)}, []string{"title", "64"}},
		{"ErrTitleMissing", map[string]any{"members": []string{a.UserID}}, []string{"title"}},
		{"ErrTitleType", map[string]any{"title": 5}, []string{"title"}},
		{"ErrMembersType", map[string]any{"title": "T", "members": "x"}, []string{"members"}},
		{"ErrMalformed", `{"title":`, nil},
		{"ErrUnknownMember", map[string]any{"title": "T", "members": []string{a.UserID, "nobody"}}, []string{"members[1]"}},
		{"ErrOutsiderMember", map[string]any{"title": "T", "members": []string{f.outsider.UserID}}, []string{"members[0]"}},
		{"ErrOutsiderEmail", map[string]any{"title": "T", "members": []string{f.outsider.Email}}, []string{"members[0]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f.wantError(t, f.e.Do(f.admin, "PUT", f.path(), c.body), 400, c.words...)
			if got := f.list(t, f.admin, ""); len(got) != 0 {
				t.Fatalf("a failed create left teams %v", teamTitles(got))
			}
		})
	}
}

func TestCreateTeamAccess(t *testing.T) {
	f := newTeamsFixture(t)
	for _, r := range writeRoles {
		t.Run("Err"+r.name, func(t *testing.T) {
			m := f.member(t, strings.ToLower(r.name), r.role)
			f.wantStatus(t, f.e.Do(m, "PUT", f.path(), map[string]any{"title": "T"}), 403)
		})
	}
	t.Run("ErrOutsider", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.outsider, "PUT", f.path(), map[string]any{"title": "T"}), 404)
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(testenv.Actor{}, "PUT", f.path(), map[string]any{"title": "T"}), 401)
	})
	if got := f.list(t, f.admin, ""); len(got) != 0 {
		t.Fatalf("refused creates left teams %v", teamTitles(got))
	}
}

func TestGetTeam(t *testing.T) {
	f := newTeamsFixture(t)
	team := f.create(t, "Docs")
	t.Run("OK", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.admin, "GET", f.path(team), nil), 200)
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.admin, "GET", f.path("nope"), nil), 404)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.outsider, "GET", f.path(team), nil), 404)
	})
}

// TestTeamOfAnotherOrg: a team is only reachable under its own organization's path, even for an
// admin of both organizations.
func TestTeamOfAnotherOrg(t *testing.T) {
	f := newTeamsFixture(t)
	resp := f.e.Do(f.admin, "POST", "/v1/orgs", map[string]any{"title": "Second"})
	f.wantStatus(t, resp, 201)
	other := &teamsFixture{e: f.e, admin: f.admin, org: resp.Map(t)["id"].(string)}
	foreign := other.create(t, "Foreign", f.admin.UserID)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", f.path(foreign), nil},
		{"PATCH", f.path(foreign), map[string]any{"title": "Hijacked"}},
		{"DELETE", f.path(foreign), nil},
		{"GET", f.path(foreign, "members"), nil},
		{"PUT", f.path(foreign, "members"), map[string]any{"remove": []string{f.admin.UserID}}},
		{"PUT", f.path(foreign, "members", f.admin.UserID), map[string]any{"role": "owner"}},
		{"DELETE", f.path(foreign, "members", f.admin.UserID), nil},
	} {
		t.Run("Err"+c.method+"NotFound", func(t *testing.T) {
			f.wantStatus(t, f.e.Do(f.admin, c.method, c.path, c.body), 404)
		})
	}
	got := other.list(t, f.admin, "")
	if len(got) != 1 || got[0].Title != "Foreign" || got[0].Members != 1 {
		t.Fatalf("the foreign team changed: %+v", got)
	}
	other.wantRoster(t, foreign, map[string]string{f.admin.UserID: "member"})
}

func TestUpdateTeam(t *testing.T) {
	f := newTeamsFixture(t)
	team := f.create(t, "Docs")
	t.Run("OK", func(t *testing.T) {
		resp := f.e.Do(f.admin, "PATCH", f.path(team), map[string]any{"title": "Handbook"})
		f.wantStatus(t, resp, 200)
		if title := resp.Map(t)["title"]; title != "Handbook" {
			t.Fatalf("want title Handbook, got %v", title)
		}
		if got := teamTitles(f.list(t, f.admin, "")); fmt.Sprint(got) != "[Handbook]" {
			t.Fatalf("listed %v", got)
		}
	})
	for _, c := range []struct {
		name  string
		body  any
		words []string
	}{
		{"ErrTitleMissing", map[string]any{}, []string{"title"}},
		{"ErrEmptyBody", nil, []string{"title"}},
		{"ErrTitleEmpty", map[string]any{"title": ""}, []string{"title"}},
		{"ErrTitleTooLong", map[string]any{"title": strings.Repeat("y", 65)}, []string{"title", "64"}},
		{"ErrTitleType", map[string]any{"title": true}, []string{"title"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f.wantError(t, f.e.Do(f.admin, "PATCH", f.path(team), c.body), 400, c.words...)
		})
	}
	t.Run("ErrUnknown", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.admin, "PATCH", f.path("nope"), map[string]any{"title": "X"}), 404)
	})
	if got := teamTitles(f.list(t, f.admin, "")); fmt.Sprint(got) != "[Handbook]" {
		t.Fatalf("failed updates changed the team: %v", got)
	}
}

func TestDeleteTeam(t *testing.T) {
	f := newTeamsFixture(t)
	m := f.member(t, "mia", testenv.Role(viewer.RoleRead))
	team := f.create(t, "Docs", m.UserID)
	keep := f.create(t, "Keep", m.UserID)
	t.Run("OK", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.admin, "DELETE", f.path(team), nil), 204)
		f.wantStatus(t, f.e.Do(f.admin, "GET", f.path(team), nil), 404)
		f.wantStatus(t, f.e.Do(f.admin, "GET", f.path(team, "members"), nil), 404)
		if got := teamsIDs(f.list(t, f.admin, "")); fmt.Sprint(got) != fmt.Sprint([]string{keep}) {
			t.Fatalf("want only %s left, got %v", keep, got)
		}
	})
	t.Run("OKMembershipsGone", func(t *testing.T) {
		resp := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/members/"+m.UserID, nil)
		f.wantStatus(t, resp, 200)
		if n := resp.Map(t)["teams"]; n != float64(1) {
			t.Fatalf("the member should be in 1 team, got %v", n)
		}
		f.wantRoster(t, keep, map[string]string{m.UserID: "member"})
	})
	t.Run("ErrAgain", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.admin, "DELETE", f.path(team), nil), 404)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.outsider, "DELETE", f.path(keep), nil), 404)
	})
}

func TestTeamWriteAccess(t *testing.T) {
	f := newTeamsFixture(t)
	team := f.create(t, "Docs")
	for _, r := range writeRoles {
		t.Run("Err"+r.name, func(t *testing.T) {
			m := f.member(t, strings.ToLower(r.name), r.role)
			f.wantStatus(t, f.e.Do(m, "PATCH", f.path(team), map[string]any{"title": "X"}), 403)
			f.wantStatus(t, f.e.Do(m, "DELETE", f.path(team), nil), 403)
		})
	}
	t.Run("ErrOutsider", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.outsider, "PATCH", f.path(team), map[string]any{"title": "X"}), 404)
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(testenv.Actor{}, "DELETE", f.path(team), nil), 401)
	})
	if got := f.list(t, f.admin, ""); len(got) != 1 || got[0].Title != "Docs" {
		t.Fatalf("refused writes changed the team: %+v", got)
	}
}

func TestListTeamMembers(t *testing.T) {
	f := newTeamsFixture(t)
	team, o := f.owner(t, "olga", "Docs")
	var want []string
	for i := 0; i < 5; i++ {
		m := f.member(t, fmt.Sprintf("m%d", i), testenv.Role(viewer.RoleEdit))
		f.wantStatus(t, f.e.Do(f.admin, "PUT", f.path(team, "members", m.UserID), nil), 204)
		want = append(want, m.UserID)
	}
	t.Run("OKShape", func(t *testing.T) {
		resp := f.e.Do(o, "GET", f.path(team, "members"), nil)
		f.wantStatus(t, resp, 200)
		var p teamsPage[teamsRosterItem]
		resp.JSON(t, &p)
		if p.Count != 6 || len(p.Items) != 6 {
			t.Fatalf("want 6 members, got %s", resp.Body)
		}
		for _, it := range p.Items {
			checkRosterItem(t, it, o)
		}
	})
	t.Run("OKPagination", func(t *testing.T) {
		got := teamsWalk(t, f, f.path(team, "members"), 2, func(it teamsRosterItem) string { return it.Organization.ID })
		sort.Strings(got)
		all := append([]string{o.UserID}, want...)
		sort.Strings(all)
		if fmt.Sprint(got) != fmt.Sprint(all) {
			t.Fatalf("pages give %v, want %v", got, all)
		}
	})
	t.Run("ErrBadLimit", func(t *testing.T) {
		f.wantError(t, f.e.Do(f.admin, "GET", f.path(team, "members")+"?limit=1001", nil), 400, "limit")
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.outsider, "GET", f.path(team, "members"), nil), 404)
	})
}

func checkRosterItem(t *testing.T, it teamsRosterItem, owner testenv.Actor) {
	t.Helper()
	if !it.Permissions.View || it.Organization.Role == nil || it.Organization.User.Email == "" {
		t.Fatalf("unexpected item %+v", it)
	}
	wantRole, wantOrgRole := "member", "edit"
	if it.Organization.ID == owner.UserID {
		wantRole, wantOrgRole = "owner", "read"
		if it.Organization.User.Email != owner.Email {
			t.Fatalf("owner's email: got %q", it.Organization.User.Email)
		}
	}
	if it.Team.Role != wantRole || *it.Organization.Role != wantOrgRole {
		t.Fatalf("item %s: want team role %s and role %s, got %+v", it.Organization.ID, wantRole, wantOrgRole, it)
	}
}

// teamsCrew is a team with two members, and two other members of the organization.
type teamsCrew struct {
	team       string
	a, b, c, d testenv.Actor
}

func (f *teamsFixture) crew(t *testing.T) teamsCrew {
	t.Helper()
	var c teamsCrew
	c.a = f.member(t, "anna", testenv.Role(viewer.RoleRead))
	c.b = f.member(t, "bert", testenv.Role(viewer.RoleEdit))
	c.c = f.member(t, "carl", testenv.Role(viewer.RoleComment))
	c.d = f.member(t, "dora", nil)
	c.team = f.create(t, "Crew", c.a.UserID, c.b.UserID)
	return c
}

func (f *teamsFixture) bulk(t *testing.T, a testenv.Actor, team string, body any) testenv.Response {
	t.Helper()
	return f.e.Do(a, "PUT", f.path(team, "members"), body)
}

func TestUpdateTeamMembers(t *testing.T) {
	t.Run("OKAddByIDAndEmail", func(t *testing.T) {
		f := newTeamsFixture(t)
		c := f.crew(t)
		f.wantStatus(t, f.bulk(t, f.admin, c.team, map[string]any{"add": []string{c.c.UserID, strings.ToUpper(c.d.Email)}}), 204)
		f.wantRoster(t, c.team, map[string]string{c.a.UserID: "member", c.b.UserID: "member", c.c.UserID: "member", c.d.UserID: "member"})
	})
	t.Run("OKAddExisting", func(t *testing.T) {
		f := newTeamsFixture(t)
		c := f.crew(t)
		f.wantStatus(t, f.bulk(t, f.admin, c.team, map[string]any{"add": []string{c.a.UserID, c.a.Email}}), 204)
		f.wantRoster(t, c.team, map[string]string{c.a.UserID: "member", c.b.UserID: "member"})
	})
	t.Run("OKRemoveByIDAndEmail", func(t *testing.T) {
		f := newTeamsFixture(t)
		c := f.crew(t)
		f.wantStatus(t, f.bulk(t, f.admin, c.team, map[string]any{"remove": []string{c.a.UserID, "BERT@Example.com"}}), 204)
		f.wantRoster(t, c.team, map[string]string{})
	})
	t.Run("OKAddAndRemoveSameUser", func(t *testing.T) {
		f := newTeamsFixture(t)
		c := f.crew(t)
		body := map[string]any{"add": []string{c.c.UserID, c.a.Email}, "remove": []string{c.c.Email, c.a.UserID}}
		f.wantStatus(t, f.bulk(t, f.admin, c.team, body), 204)
		f.wantRoster(t, c.team, map[string]string{c.b.UserID: "member"})
	})
	t.Run("OKMemberships", func(t *testing.T) {
		f := newTeamsFixture(t)
		c := f.crew(t)
		body := map[string]any{"add": []string{c.c.UserID}, "memberships": map[string]any{
			c.a.UserID: map[string]any{"role": "owner"}, c.c.UserID: map[string]any{"role": "owner"}}}
		f.wantStatus(t, f.bulk(t, f.admin, c.team, body), 204)
		f.wantRoster(t, c.team, map[string]string{c.a.UserID: "owner", c.b.UserID: "member", c.c.UserID: "owner"})
		body = map[string]any{"memberships": map[string]any{c.a.UserID: map[string]any{"role": "member"}}}
		f.wantStatus(t, f.bulk(t, f.admin, c.team, body), 204)
		f.wantRoster(t, c.team, map[string]string{c.a.UserID: "member", c.b.UserID: "member", c.c.UserID: "owner"})
	})
	t.Run("OKEmpty", func(t *testing.T) {
		f := newTeamsFixture(t)
		c := f.crew(t)
		f.wantStatus(t, f.bulk(t, f.admin, c.team, map[string]any{}), 204)
		f.wantRoster(t, c.team, map[string]string{c.a.UserID: "member", c.b.UserID: "member"})
	})
}

func TestUpdateTeamMembersErrors(t *testing.T) {
	f := newTeamsFixture(t)
	c := f.crew(t)
	cases := []struct {
		name  string
		body  any
		words []string
	}{
		{"ErrAddNotMember", map[string]any{"add": []string{c.c.UserID, "nobody@example.com"}, "remove": []string{c.a.UserID}}, []string{"add[1]"}},
		{"ErrAddOutsider", map[string]any{"add": []string{f.outsider.UserID}}, []string{"add[0]"}},
		{"ErrRemoveNotMember", map[string]any{"add": []string{c.c.UserID}, "remove": []string{c.b.UserID, "nobody"}}, []string{"remove[1]"}},
		{"ErrMembershipNotInTeam", map[string]any{"add": []string{c.c.UserID}, "remove": []string{c.a.UserID},
			"memberships": map[string]any{c.d.UserID: map[string]any{"role": "owner"}}}, []string{"memberships"}},
		{"ErrUnknownRole", map[string]any{"memberships": map[string]any{c.a.UserID: map[string]any{"role": "boss"}}}, []string{"role", "owner"}},
		{"ErrAddType", map[string]any{"add": "x"}, []string{"add"}},
		{"ErrMembershipsType", map[string]any{"memberships": []string{"x"}}, []string{"memberships"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f.wantError(t, f.bulk(t, f.admin, c.team, tc.body), 400, tc.words...)
			f.wantRoster(t, c.team, map[string]string{c.a.UserID: "member", c.b.UserID: "member"})
		})
	}
	t.Run("ErrUnknownTeam", func(t *testing.T) {
		f.wantStatus(t, f.bulk(t, f.admin, "nope", map[string]any{"add": []string{c.c.UserID}}), 404)
	})
}

func TestUpdateTeamMembersAccess(t *testing.T) {
	f := newTeamsFixture(t)
	c := f.crew(t)
	body := map[string]any{"add": []string{c.c.UserID}}
	for _, r := range writeRoles[:len(writeRoles)-1] {
		t.Run("Err"+r.name, func(t *testing.T) {
			m := f.member(t, strings.ToLower(r.name), r.role)
			f.wantStatus(t, f.bulk(t, m, c.team, body), 403)
		})
	}
	t.Run("ErrTeamMemberNotOwner", func(t *testing.T) {
		f.wantStatus(t, f.bulk(t, c.a, c.team, body), 403)
	})
	t.Run("ErrGuestCannotSeeTeam", func(t *testing.T) {
		f.wantStatus(t, f.bulk(t, c.d, c.team, body), 404)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.wantStatus(t, f.bulk(t, f.outsider, c.team, body), 404)
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		f.wantStatus(t, f.bulk(t, testenv.Actor{}, c.team, body), 401)
	})
	f.wantRoster(t, c.team, map[string]string{c.a.UserID: "member", c.b.UserID: "member"})
}

// TestTeamOwner: an owner who is only a `read` member of the organization manages their own
// team's members, but not another team's, and may not rename or delete their team.
func TestTeamOwner(t *testing.T) {
	f := newTeamsFixture(t)
	team, o := f.owner(t, "olga", "Mine")
	other := f.create(t, "Theirs")
	m := f.member(t, "mia", testenv.Role(viewer.RoleEdit))
	t.Run("OKBulk", func(t *testing.T) {
		body := map[string]any{"add": []string{m.Email}, "memberships": map[string]any{m.UserID: map[string]any{"role": "owner"}}}
		f.wantStatus(t, f.bulk(t, o, team, body), 204)
		f.wantRoster(t, team, map[string]string{o.UserID: "owner", m.UserID: "owner"})
	})
	t.Run("OKSetAndRemove", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(o, "PUT", f.path(team, "members", m.UserID), map[string]any{"role": "member"}), 204)
		f.wantRoster(t, team, map[string]string{o.UserID: "owner", m.UserID: "member"})
		f.wantStatus(t, f.e.Do(o, "DELETE", f.path(team, "members", m.UserID), nil), 204)
		f.wantRoster(t, team, map[string]string{o.UserID: "owner"})
	})
	t.Run("ErrOtherTeam", func(t *testing.T) {
		f.wantStatus(t, f.bulk(t, o, other, map[string]any{"add": []string{m.UserID}}), 403)
		f.wantStatus(t, f.e.Do(o, "PUT", f.path(other, "members", m.UserID), nil), 403)
		f.wantStatus(t, f.e.Do(o, "PUT", f.path(other, "members", o.UserID), map[string]any{"role": "owner"}), 403)
		f.wantRoster(t, other, map[string]string{})
	})
	t.Run("ErrRename", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(o, "PATCH", f.path(team), map[string]any{"title": "Renamed"}), 403)
	})
	t.Run("ErrDelete", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(o, "DELETE", f.path(team), nil), 403)
	})
	t.Run("ErrCreate", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(o, "PUT", f.path(), map[string]any{"title": "New"}), 403)
	})
	if got := teamTitles(f.list(t, f.admin, "")); fmt.Sprint(got) != "[Mine Theirs]" {
		t.Fatalf("teams changed: %v", got)
	}
}

func TestSetTeamMember(t *testing.T) {
	f := newTeamsFixture(t)
	c := f.crew(t)
	put := func(t *testing.T, user string, body any) testenv.Response {
		t.Helper()
		return f.e.Do(f.admin, "PUT", f.path(c.team, "members", user), body)
	}
	t.Run("OKAdd", func(t *testing.T) {
		f.wantStatus(t, put(t, c.c.UserID, nil), 204)
		f.wantStatus(t, put(t, c.d.UserID, map[string]any{"role": "owner"}), 204)
		f.wantRoster(t, c.team, map[string]string{c.a.UserID: "member", c.b.UserID: "member", c.c.UserID: "member", c.d.UserID: "owner"})
	})
	t.Run("OKUpdateRole", func(t *testing.T) {
		f.wantStatus(t, put(t, c.a.UserID, map[string]any{"role": "owner"}), 204)
		f.wantStatus(t, put(t, c.d.UserID, map[string]any{"role": "member"}), 204)
		f.wantRoster(t, c.team, map[string]string{c.a.UserID: "owner", c.b.UserID: "member", c.c.UserID: "member", c.d.UserID: "member"})
	})
	t.Run("OKNoRoleKeepsRole", func(t *testing.T) {
		f.wantStatus(t, put(t, c.a.UserID, map[string]any{}), 204)
		if role := f.roster(t, c.team)[c.a.UserID]; role != "owner" {
			t.Fatalf("want owner kept, got %q", role)
		}
	})
	t.Run("ErrUnknownRole", func(t *testing.T) {
		f.wantError(t, put(t, c.b.UserID, map[string]any{"role": "admin"}), 400, "role")
	})
	t.Run("ErrNotOrgMember", func(t *testing.T) {
		f.wantStatus(t, put(t, f.outsider.UserID, nil), 404)
		f.wantStatus(t, put(t, "nobody", nil), 404)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.wantStatus(t, f.e.Do(f.outsider, "PUT", f.path(c.team, "members", f.outsider.UserID), nil), 404)
	})
	f.wantRoster(t, c.team, map[string]string{c.a.UserID: "owner", c.b.UserID: "member", c.c.UserID: "member", c.d.UserID: "member"})
}

func TestRemoveTeamMember(t *testing.T) {
	f := newTeamsFixture(t)
	c := f.crew(t)
	del := func(a testenv.Actor, user string) testenv.Response {
		return f.e.Do(a, "DELETE", f.path(c.team, "members", user), nil)
	}
	t.Run("ErrReader", func(t *testing.T) {
		f.wantStatus(t, del(c.a, c.b.UserID), 403)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.wantStatus(t, del(f.outsider, c.b.UserID), 404)
	})
	t.Run("OK", func(t *testing.T) {
		f.wantStatus(t, del(f.admin, c.b.UserID), 204)
		f.wantRoster(t, c.team, map[string]string{c.a.UserID: "member"})
	})
	t.Run("ErrAgain", func(t *testing.T) {
		f.wantStatus(t, del(f.admin, c.b.UserID), 404)
	})
	t.Run("ErrNeverMember", func(t *testing.T) {
		f.wantStatus(t, del(f.admin, c.c.UserID), 404)
	})
}

// ---------------------------------------------------------------- GraphQL

// gql runs a GraphQL operation and decodes its data into out when it succeeds; it returns the answer.
func (f *teamsFixture) gql(t *testing.T, a testenv.Actor, query string, vars map[string]any, out any) testenv.GQLResponse {
	t.Helper()
	g := f.e.GraphQL(a, query, vars)
	if len(g.Errors) == 0 && out != nil {
		if err := json.Unmarshal(g.Data, out); err != nil {
			t.Fatalf("decode %s: %v", g.Data, err)
		}
	}
	return g
}

func (f *teamsFixture) gqlOK(t *testing.T, a testenv.Actor, query string, vars map[string]any, out any) {
	t.Helper()
	if g := f.gql(t, a, query, vars, out); len(g.Errors) > 0 {
		t.Fatalf("GraphQL errors: %+v", g.Errors)
	}
}

// gqlErr asserts the operation fails with code and a message containing each of words.
func (f *teamsFixture) gqlErr(t *testing.T, a testenv.Actor, query string, vars map[string]any, code string, words ...string) {
	t.Helper()
	wantGQLError(t, f.gql(t, a, query, vars, nil), code, words...)
}

const gqlCreateTeam = `mutation($org: ID!, $input: CreateTeamInput!) {
  createTeam(organizationId: $org, input: $input) { id title memberCount spaceCount permissions { admin view } }
}`

const gqlUpdateTeam = `mutation($org: ID!, $team: ID!, $title: String!) {
  updateTeam(organizationId: $org, teamId: $team, input: {title: $title}) { id title }
}`

const gqlDeleteTeam = `mutation($org: ID!, $team: ID!) { deleteTeam(organizationId: $org, teamId: $team) }`

const gqlUpdateTeamMembers = `mutation($org: ID!, $team: ID!, $input: UpdateTeamMembersInput!) {
  updateTeamMembers(organizationId: $org, teamId: $team, input: $input) {
    title memberCount
    members(first: 100) { totalCount edges { node {
      role member { role user { email } } user { email } team { title }
    } } }
  }
}`

const gqlSetTeamMember = `mutation($org: ID!, $team: ID!, $user: ID!, $role: TeamRole) {
  setTeamMember(organizationId: $org, teamId: $team, userId: $user, role: $role) {
    role member { role user { email } } user { email } team { title memberCount }
  }
}`

const gqlRemoveTeamMember = `mutation($org: ID!, $team: ID!, $user: ID!) {
  removeTeamMember(organizationId: $org, teamId: $team, userId: $user)
}`

type gqlTeamMemberNode struct {
	Role   string `json:"role"`
	Member struct {
		Role *string `json:"role"`
		User struct {
			Email string `json:"email"`
		} `json:"user"`
	} `json:"member"`
	User struct {
		Email string `json:"email"`
	} `json:"user"`
	Team struct {
		Title       string `json:"title"`
		MemberCount int    `json:"memberCount"`
	} `json:"team"`
}

type gqlTeamWithMembers struct {
	Title       string `json:"title"`
	MemberCount int    `json:"memberCount"`
	Members     struct {
		TotalCount int `json:"totalCount"`
		Edges      []struct {
			Node gqlTeamMemberNode `json:"node"`
		} `json:"edges"`
	} `json:"members"`
}

// emailRoles maps the team's members' emails to their GraphQL team roles, checking each node's
// member, user and team agree.
func (tm gqlTeamWithMembers) emailRoles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, e := range tm.Members.Edges {
		n := e.Node
		if n.User.Email != n.Member.User.Email || n.Team.Title != tm.Title {
			t.Fatalf("inconsistent node %+v of team %q", n, tm.Title)
		}
		out[n.User.Email] = n.Role
	}
	if tm.Members.TotalCount != len(out) || tm.MemberCount != len(out) {
		t.Fatalf("totalCount %d, memberCount %d, %d edges", tm.Members.TotalCount, tm.MemberCount, len(out))
	}
	return out
}

func TestGraphQLCreateTeam(t *testing.T) {
	f := newTeamsFixture(t)
	a := f.member(t, "anna", testenv.Role(viewer.RoleRead))
	vars := func(input map[string]any) map[string]any { return map[string]any{"org": f.org, "input": input} }
	t.Run("OK", func(t *testing.T) {
		var out struct {
			CreateTeam struct {
				ID          string
				Title       string
				MemberCount int
				Permissions struct{ Admin, View bool }
			}
		}
		f.gqlOK(t, f.admin, gqlCreateTeam, vars(map[string]any{"title": "Writers", "members": []string{a.UserID}}), &out)
		ct := out.CreateTeam
		if ct.Title != "Writers" || ct.MemberCount != 1 || !ct.Permissions.Admin || !ct.Permissions.View {
			t.Fatalf("unexpected team %+v", ct)
		}
		f.wantRoster(t, ct.ID, map[string]string{a.UserID: "member"})
	})
	t.Run("ErrTitleTooLong", func(t *testing.T) {
		f.gqlErr(t, f.admin, gqlCreateTeam, vars(map[string]any{"title": strings.Repeat("z", 65)}), "BAD_REQUEST", "title", "64")
	})
	t.Run("ErrUnknownMember", func(t *testing.T) {
		f.gqlErr(t, f.admin, gqlCreateTeam, vars(map[string]any{"title": "T", "members": []string{a.UserID, "nobody"}}), "BAD_REQUEST", "members[1]")
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		f.gqlErr(t, a, gqlCreateTeam, vars(map[string]any{"title": "T"}), "FORBIDDEN")
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.gqlErr(t, f.outsider, gqlCreateTeam, vars(map[string]any{"title": "T"}), "NOT_FOUND")
	})
	if got := teamTitles(f.list(t, f.admin, "")); fmt.Sprint(got) != "[Writers]" {
		t.Fatalf("want only Writers, got %v", got)
	}
}

func TestGraphQLUpdateDeleteTeam(t *testing.T) {
	f := newTeamsFixture(t)
	team, o := f.owner(t, "olga", "Docs")
	ids := func(id string) map[string]any { return map[string]any{"org": f.org, "team": id} }
	withTitle := func(id, title string) map[string]any { v := ids(id); v["title"] = title; return v }
	t.Run("OKUpdate", func(t *testing.T) {
		var out struct{ UpdateTeam struct{ ID, Title string } }
		f.gqlOK(t, f.admin, gqlUpdateTeam, withTitle(team, "Handbook"), &out)
		if out.UpdateTeam.ID != team || out.UpdateTeam.Title != "Handbook" {
			t.Fatalf("unexpected %+v", out.UpdateTeam)
		}
	})
	t.Run("ErrUpdateEmptyTitle", func(t *testing.T) {
		f.gqlErr(t, f.admin, gqlUpdateTeam, withTitle(team, ""), "BAD_REQUEST", "title")
	})
	t.Run("ErrOwnerRenames", func(t *testing.T) {
		f.gqlErr(t, o, gqlUpdateTeam, withTitle(team, "Mine"), "FORBIDDEN")
	})
	t.Run("ErrOwnerDeletes", func(t *testing.T) {
		f.gqlErr(t, o, gqlDeleteTeam, ids(team), "FORBIDDEN")
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.gqlErr(t, f.outsider, gqlDeleteTeam, ids(team), "NOT_FOUND")
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		f.gqlErr(t, f.admin, gqlUpdateTeam, withTitle("nope", "X"), "NOT_FOUND")
	})
	t.Run("OKDelete", func(t *testing.T) {
		var out struct{ DeleteTeam bool }
		f.gqlOK(t, f.admin, gqlDeleteTeam, ids(team), &out)
		if !out.DeleteTeam {
			t.Fatal("deleteTeam answered false")
		}
		f.gqlErr(t, f.admin, gqlDeleteTeam, ids(team), "NOT_FOUND")
	})
}

func TestGraphQLUpdateTeamMembers(t *testing.T) {
	f := newTeamsFixture(t)
	c := f.crew(t)
	vars := func(input map[string]any) map[string]any {
		return map[string]any{"org": f.org, "team": c.team, "input": input}
	}
	t.Run("OK", func(t *testing.T) {
		var out struct{ UpdateTeamMembers gqlTeamWithMembers }
		input := map[string]any{"add": []string{c.c.UserID, strings.ToUpper(c.d.Email)}, "remove": []string{c.b.Email},
			"memberships": []map[string]any{{"user": c.c.UserID, "role": "OWNER"}}}
		f.gqlOK(t, f.admin, gqlUpdateTeamMembers, vars(input), &out)
		got := out.UpdateTeamMembers.emailRoles(t)
		want := map[string]string{c.a.Email: "MEMBER", c.c.Email: "OWNER", c.d.Email: "MEMBER"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("want %v, got %v", want, got)
		}
	})
	after := map[string]string{c.a.UserID: "member", c.c.UserID: "owner", c.d.UserID: "member"}
	t.Run("ErrAddNotMember", func(t *testing.T) {
		input := map[string]any{"add": []string{c.b.UserID, f.outsider.Email}, "remove": []string{c.a.UserID}}
		f.gqlErr(t, f.admin, gqlUpdateTeamMembers, vars(input), "BAD_REQUEST", "add[1]")
		f.wantRoster(t, c.team, after)
	})
	t.Run("ErrMembershipNotInTeam", func(t *testing.T) {
		input := map[string]any{"remove": []string{c.a.UserID}, "memberships": []map[string]any{{"user": c.b.UserID, "role": "OWNER"}}}
		f.gqlErr(t, f.admin, gqlUpdateTeamMembers, vars(input), "BAD_REQUEST", "memberships[0]")
		f.wantRoster(t, c.team, after)
	})
	t.Run("ErrUnknownRole", func(t *testing.T) {
		g := f.gql(t, f.admin, gqlUpdateTeamMembers, vars(map[string]any{"memberships": []map[string]any{{"user": c.a.UserID, "role": "BOSS"}}}), nil)
		if len(g.Errors) == 0 || g.Status >= 500 {
			t.Fatalf("want a GraphQL error, got %d %s", g.Status, g.Data)
		}
		f.wantRoster(t, c.team, after)
	})
	t.Run("ErrNotOwner", func(t *testing.T) {
		f.gqlErr(t, c.a, gqlUpdateTeamMembers, vars(map[string]any{"add": []string{c.b.UserID}}), "FORBIDDEN")
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.gqlErr(t, f.outsider, gqlUpdateTeamMembers, vars(map[string]any{"add": []string{c.b.UserID}}), "NOT_FOUND")
	})
	t.Run("OKOwner", func(t *testing.T) {
		var out struct{ UpdateTeamMembers gqlTeamWithMembers }
		f.gqlOK(t, c.c, gqlUpdateTeamMembers, vars(map[string]any{"add": []string{c.b.UserID}, "remove": []string{c.d.UserID}}), &out)
		want := map[string]string{c.a.Email: "MEMBER", c.b.Email: "MEMBER", c.c.Email: "OWNER"}
		if got := out.UpdateTeamMembers.emailRoles(t); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("want %v, got %v", want, got)
		}
	})
}

func TestGraphQLSetRemoveTeamMember(t *testing.T) {
	f := newTeamsFixture(t)
	c := f.crew(t)
	vars := func(user string, role any) map[string]any {
		return map[string]any{"org": f.org, "team": c.team, "user": user, "role": role}
	}
	t.Run("OKAdd", func(t *testing.T) {
		var out struct{ SetTeamMember gqlTeamMemberNode }
		f.gqlOK(t, f.admin, gqlSetTeamMember, vars(c.c.UserID, "OWNER"), &out)
		n := out.SetTeamMember
		if n.Role != "OWNER" || n.User.Email != c.c.Email || n.Member.User.Email != c.c.Email ||
			n.Member.Role == nil || *n.Member.Role != "COMMENT" || n.Team.Title != "Crew" || n.Team.MemberCount != 3 {
			t.Fatalf("unexpected %+v", n)
		}
	})
	t.Run("OKUpdate", func(t *testing.T) {
		var out struct{ SetTeamMember gqlTeamMemberNode }
		f.gqlOK(t, f.admin, gqlSetTeamMember, vars(c.c.UserID, "MEMBER"), &out)
		if out.SetTeamMember.Role != "MEMBER" || out.SetTeamMember.Team.MemberCount != 3 {
			t.Fatalf("unexpected %+v", out.SetTeamMember)
		}
	})
	t.Run("ErrNotOrgMember", func(t *testing.T) {
		f.gqlErr(t, f.admin, gqlSetTeamMember, vars(f.outsider.UserID, nil), "NOT_FOUND")
	})
	t.Run("ErrNotOwner", func(t *testing.T) {
		f.gqlErr(t, c.a, gqlSetTeamMember, vars(c.a.UserID, "OWNER"), "FORBIDDEN")
		f.gqlErr(t, c.a, gqlRemoveTeamMember, vars(c.b.UserID, nil), "FORBIDDEN")
	})
	t.Run("OKRemove", func(t *testing.T) {
		var out struct{ RemoveTeamMember bool }
		f.gqlOK(t, f.admin, gqlRemoveTeamMember, vars(c.b.UserID, nil), &out)
		if !out.RemoveTeamMember {
			t.Fatal("removeTeamMember answered false")
		}
		f.gqlErr(t, f.admin, gqlRemoveTeamMember, vars(c.b.UserID, nil), "NOT_FOUND")
	})
	f.wantRoster(t, c.team, map[string]string{c.a.UserID: "member", c.c.UserID: "member"})
}

const gqlOrgTeams = `query($org: ID!, $first: Int, $after: String, $title: String, $owner: ID, $team: ID!) {
  organization(id: $org) {
    teams(first: $first, after: $after, title: $title, owner: $owner) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { node { id title memberCount permissions { admin view } } }
    }
    team(id: $team) { title members(first: 10) { totalCount edges { node { role user { email } } } } }
  }
}`

type gqlTeamsQuery struct {
	Organization struct {
		Teams struct {
			TotalCount int
			PageInfo   struct {
				HasNextPage bool
				EndCursor   *string
			}
			Edges []struct {
				Node struct {
					ID, Title   string
					MemberCount int
					Permissions struct{ Admin, View bool }
				}
			}
		}
		Team *struct {
			Title   string
			Members struct {
				TotalCount int
				Edges      []struct {
					Node struct {
						Role string
						User struct{ Email string }
					}
				}
			}
		}
	}
}

func TestGraphQLTeamsQuery(t *testing.T) {
	f := newTeamsFixture(t)
	team, o := f.owner(t, "olga", "Core")
	f.create(t, "Hardcore", o.UserID)
	f.create(t, "Alpha")
	vars := func(extra map[string]any) map[string]any {
		v := map[string]any{"org": f.org, "team": team}
		for k, x := range extra {
			v[k] = x
		}
		return v
	}
	t.Run("OKFilters", func(t *testing.T) {
		var out gqlTeamsQuery
		f.gqlOK(t, o, gqlOrgTeams, vars(map[string]any{"title": "CORE"}), &out)
		teams := out.Organization.Teams
		if teams.TotalCount != 2 || len(teams.Edges) != 2 || teams.Edges[0].Node.Title != "Core" || teams.Edges[1].Node.Title != "Hardcore" {
			t.Fatalf("unexpected %+v", teams)
		}
		if p := teams.Edges[0].Node.Permissions; !p.Admin || !p.View {
			t.Fatalf("the owner should administer Core: %+v", p)
		}
		if p := teams.Edges[1].Node.Permissions; p.Admin || !p.View {
			t.Fatalf("a plain member should not administer Hardcore: %+v", p)
		}
		f.gqlOK(t, f.admin, gqlOrgTeams, vars(map[string]any{"owner": o.UserID}), &out)
		if e := out.Organization.Teams.Edges; len(e) != 1 || e[0].Node.ID != team {
			t.Fatalf("owner filter: %+v", e)
		}
	})
	t.Run("OKTeamMembers", func(t *testing.T) {
		var out gqlTeamsQuery
		f.gqlOK(t, f.admin, gqlOrgTeams, vars(nil), &out)
		tm := out.Organization.Team
		if tm == nil || tm.Title != "Core" || tm.Members.TotalCount != 1 || tm.Members.Edges[0].Node.Role != "OWNER" ||
			tm.Members.Edges[0].Node.User.Email != o.Email {
			t.Fatalf("unexpected team %+v", tm)
		}
	})
	t.Run("OKPagination", func(t *testing.T) {
		got := gqlTeamTitles(t, f, vars)
		if fmt.Sprint(got) != "[Alpha Core Hardcore]" {
			t.Fatalf("pages give %v", got)
		}
	})
	t.Run("ErrGuest", func(t *testing.T) {
		g := f.member(t, "guest", nil)
		f.gqlErr(t, g, gqlOrgTeams, vars(nil), "FORBIDDEN")
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		var out gqlTeamsQuery
		g := f.gql(t, f.outsider, gqlOrgTeams, vars(nil), &out)
		if len(g.Errors) > 0 && g.Code() != "NOT_FOUND" {
			t.Fatalf("want NOT_FOUND or null, got %+v", g.Errors)
		}
		if len(g.Errors) == 0 && string(g.Data) != `{"organization":null}` {
			t.Fatalf("outsider sees %s", g.Data)
		}
	})
}

// gqlTeamTitles walks the teams connection one team at a time.
func gqlTeamTitles(t *testing.T, f *teamsFixture, vars func(map[string]any) map[string]any) []string {
	t.Helper()
	var titles []string
	var after any
	for i := 0; i < 10; i++ {
		var out gqlTeamsQuery
		f.gqlOK(t, f.admin, gqlOrgTeams, vars(map[string]any{"first": 1, "after": after}), &out)
		teams := out.Organization.Teams
		if teams.TotalCount != 3 || len(teams.Edges) != 1 {
			t.Fatalf("page %d: %+v", i, teams)
		}
		titles = append(titles, teams.Edges[0].Node.Title)
		if !teams.PageInfo.HasNextPage {
			return titles
		}
		after = *teams.PageInfo.EndCursor
	}
	t.Fatal("pagination does not end")
	return nil
}
