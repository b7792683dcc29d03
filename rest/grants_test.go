package rest_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// grFixture is an organization with its admin, a private space (defaultLevel null: explicit
// grants only) and an outsider of another organization.
type grFixture struct {
	e        *testenv.Env
	admin    testenv.Actor
	org      string
	space    string
	outsider testenv.Actor
}

func newGrFixture(t *testing.T) *grFixture {
	t.Helper()
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	outsider, _ := e.Bootstrap("otto@example.com", "Other")
	f := &grFixture{e: e, admin: admin, org: org, outsider: outsider}
	f.space = f.privateSpace(t, "Private")
	return f
}

// privateSpace creates a space with defaultLevel null and returns its id.
func (f *grFixture) privateSpace(t *testing.T, title string) string {
	t.Helper()
	id := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": title})["id"].(string)
	grWant(t, f.e.Do(f.admin, "PATCH", "/v1/spaces/"+id, map[string]any{"defaultLevel": nil}), 200)
	return id
}

// team creates a team with the given members and returns its id.
func (f *grFixture) team(t *testing.T, title string, members ...testenv.Actor) string {
	t.Helper()
	ids := make([]string, len(members))
	for i, m := range members {
		ids[i] = m.UserID
	}
	resp := f.e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/teams", map[string]any{"title": title, "members": ids})
	grWant(t, resp, 201)
	return resp.Map(t)["id"].(string)
}

// invite grants role on the space to users (by actor) as the admin.
func (f *grFixture) invite(t *testing.T, path string, role viewer.Role, users ...testenv.Actor) {
	t.Helper()
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i] = u.UserID
	}
	grWant(t, f.e.Do(f.admin, "POST", path+"/permissions", map[string]any{"role": role, "users": ids}), 204)
}

func grWant(t *testing.T, resp testenv.Response, status int) {
	t.Helper()
	if resp.Status != status {
		t.Fatalf("status %d, want %d: %s", resp.Status, status, resp.Body)
	}
}

func grWantError(t *testing.T, resp testenv.Response, status int, words ...string) {
	t.Helper()
	msg := testenv.CheckError(t, resp, status)
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Fatalf("message %q does not name %q", msg, w)
		}
	}
}

// grItem is an item of the users, teams and aggregate lists.
type grItem struct {
	Permission string `json:"permission"`
	User       struct {
		ID string `json:"id"`
	} `json:"user"`
	Team struct {
		ID string `json:"id"`
	} `json:"team"`
}

type grList struct {
	Next *struct {
		Page string `json:"page"`
	} `json:"next"`
	Count int      `json:"count"`
	Items []grItem `json:"items"`
}

// grAll reads every page of a list with the given page size; it returns "id=permission" entries
// in order and the count.
func grAll(t *testing.T, e *testenv.Env, a testenv.Actor, path string, limit int) ([]string, int) {
	t.Helper()
	var out []string
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	url := fmt.Sprintf("%s%slimit=%d", path, sep, limit)
	count := -1
	for range 100 {
		resp := e.Do(a, "GET", url, nil)
		grWant(t, resp, 200)
		var l grList
		resp.JSON(t, &l)
		if count >= 0 && l.Count != count {
			t.Fatalf("count changed between pages: %d then %d", count, l.Count)
		}
		count = l.Count
		for _, it := range l.Items {
			out = append(out, it.User.ID+it.Team.ID+"="+it.Permission)
		}
		if l.Next == nil {
			return out, count
		}
		url = fmt.Sprintf("%s%slimit=%d&page=%s", path, sep, limit, l.Next.Page)
	}
	t.Fatal("pagination does not end")
	return nil, 0
}

func grEntry(a testenv.Actor, r viewer.Role) string { return a.UserID + "=" + string(r) }

// TestSpacePermissionFlags proves each flag of Space.permissions for each role, granted on a
// private space to a guest (so the grant is the only source of the role).
func TestSpacePermissionFlags(t *testing.T) {
	f := newGrFixture(t)
	type flags struct {
		View, Access, Admin, ViewInviteLinks, Edit, TriggerGitSync, Comment, Merge, Review, InstallIntegration bool
	}
	cases := []struct {
		role viewer.Role
		want flags
	}{
		{viewer.RoleAdmin, flags{true, true, true, true, true, true, true, true, true, true}},
		{viewer.RoleCreate, flags{View: true, Access: true, Edit: true, Comment: true, Merge: true, Review: true}},
		{viewer.RoleReview, flags{View: true, Access: true, Edit: true, Comment: true, Merge: true, Review: true}},
		{viewer.RoleEdit, flags{View: true, Access: true, Edit: true, Comment: true}},
		{viewer.RoleComment, flags{View: true, Access: true, Comment: true}},
		{viewer.RoleRead, flags{View: true, Access: true}},
	}
	for _, c := range cases {
		t.Run(string(c.role), func(t *testing.T) {
			guest := f.e.User("guest-"+string(c.role)+"@example.com", f.org, nil)
			grWant(t, f.e.Do(guest, "GET", "/v1/spaces/"+f.space, nil), 404)
			f.invite(t, "/v1/spaces/"+f.space, c.role, guest)
			var s struct{ Permissions flags }
			resp := f.e.Do(guest, "GET", "/v1/spaces/"+f.space, nil)
			grWant(t, resp, 200)
			resp.JSON(t, &s)
			if s.Permissions != c.want {
				t.Fatalf("REST permissions %+v, want %+v", s.Permissions, c.want)
			}
			g := f.e.GraphQL(guest, `query($id: ID!) { space(id: $id) { permissions { view access admin viewInviteLinks
				edit triggerGitSync comment merge review installIntegration } } }`, map[string]any{"id": f.space})
			var d struct{ Space struct{ Permissions flags } }
			gqlOK(t, g, &d)
			if d.Space.Permissions != c.want {
				t.Fatalf("GraphQL permissions %+v, want %+v", d.Space.Permissions, c.want)
			}
		})
	}
}

func TestGrantInviteSpace(t *testing.T) {
	f := newGrFixture(t)
	path := "/v1/spaces/" + f.space + "/permissions"
	ann := f.e.User("ann@example.com", f.org, nil)
	bob := f.e.User("bob@example.com", f.org, testenv.Role(viewer.RoleRead))
	team := f.team(t, "Writers", ann)
	t.Run("OK", func(t *testing.T) {
		body := map[string]any{"role": "edit", "users": []string{ann.UserID, bob.UserID, ann.UserID}, "teams": []string{team}}
		grWant(t, f.e.Do(f.admin, "POST", path, body), 204)
		users, n := grAll(t, f.e, f.admin, path+"/users", 100)
		if n != 2 || strings.Join(sorted(users), ",") != strings.Join(sorted([]string{grEntry(ann, "edit"), grEntry(bob, "edit")}), ",") {
			t.Fatalf("users %v (count %d)", users, n)
		}
		teams, n := grAll(t, f.e, f.admin, path+"/teams", 100)
		if n != 1 || teams[0] != team+"=edit" {
			t.Fatalf("teams %v (count %d)", teams, n)
		}
		s := f.e.Do(bob, "GET", "/v1/spaces/"+f.space, nil)
		grWant(t, s, 200)
		if s.Map(t)["permissions"].(map[string]any)["edit"] != true {
			t.Fatalf("bob cannot edit: %s", s.Body)
		}
	})
	t.Run("OKReinviteReplacesRole", func(t *testing.T) {
		grWant(t, f.e.Do(f.admin, "POST", path, map[string]any{"role": "read", "users": []string{bob.UserID}}), 204)
		users, n := grAll(t, f.e, f.admin, path+"/users", 100)
		if n != 2 || !contains(users, grEntry(bob, "read")) || contains(users, grEntry(bob, "edit")) {
			t.Fatalf("users %v", users)
		}
	})
	bad := []struct {
		name  string
		body  any
		words []string
	}{
		{"ErrRoleMissing", map[string]any{"users": []string{ann.UserID}}, []string{"role"}},
		{"ErrRoleNull", map[string]any{"role": nil, "users": []string{ann.UserID}}, []string{"role"}},
		{"ErrRoleUnknown", map[string]any{"role": "owner", "users": []string{ann.UserID}}, []string{"role"}},
		{"ErrNoSubject", map[string]any{"role": "read"}, []string{"users", "teams"}},
		{"ErrEmptyLists", map[string]any{"role": "read", "users": []string{}, "teams": []string{}}, []string{"users"}},
		{"ErrUsersNotList", map[string]any{"role": "read", "users": "x"}, []string{"users"}},
		{"ErrTooMany", map[string]any{"role": "read", "users": grIDs(101)}, []string{"100"}},
		{"ErrUserNotMember", map[string]any{"role": "read", "users": []string{ann.UserID, f.outsider.UserID}}, []string{"users[1]"}},
		{"ErrUnknownUser", map[string]any{"role": "read", "users": []string{"nobody"}}, []string{"users[0]"}},
		{"ErrTeamOfOtherOrg", map[string]any{"role": "read", "teams": []string{"nope"}}, []string{"teams[0]"}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			grWantError(t, f.e.Do(f.admin, "POST", path, c.body), 400, c.words...)
		})
	}
	t.Run("ErrBadJSON", func(t *testing.T) {
		grWantError(t, f.e.Do(f.admin, "POST", path, "{"), 400)
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		grWantError(t, f.e.Do(testenv.Actor{}, "POST", path, map[string]any{"role": "read", "users": []string{ann.UserID}}), 401)
	})
	t.Run("ErrSpaceNotFound", func(t *testing.T) {
		grWantError(t, f.e.Do(f.admin, "POST", "/v1/spaces/nope/permissions", map[string]any{"role": "read", "users": []string{ann.UserID}}), 404)
	})
}

func grIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("user-%d", i)
	}
	return out
}

// TestGrantRoleMatrix: inviting takes the admin role on the space (403 when the viewer sees it,
// 404 otherwise); listing takes a role in the organization.
func TestGrantRoleMatrix(t *testing.T) {
	f := newGrFixture(t)
	open := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Open"})["id"].(string)
	target := f.e.User("target@example.com", f.org, nil)
	cases := []struct {
		name         string
		role         *viewer.Role
		invite, list int
	}{
		{"Admin", testenv.Role(viewer.RoleAdmin), 204, 200},
		{"Create", testenv.Role(viewer.RoleCreate), 403, 200},
		{"Review", testenv.Role(viewer.RoleReview), 403, 200},
		{"Edit", testenv.Role(viewer.RoleEdit), 403, 200},
		{"Comment", testenv.Role(viewer.RoleComment), 403, 200},
		{"Read", testenv.Role(viewer.RoleRead), 403, 200},
		{"Guest", nil, 404, 404},
	}
	body := map[string]any{"role": "read", "users": []string{target.UserID}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := f.e.User(strings.ToLower(c.name)+"@example.com", f.org, c.role)
			p := "/v1/spaces/" + open + "/permissions"
			if got := f.e.Do(u, "POST", p, body); got.Status != c.invite {
				t.Fatalf("invite: %d, want %d: %s", got.Status, c.invite, got.Body)
			}
			for _, l := range []string{"/users", "/teams", "/aggregate"} {
				if got := f.e.Do(u, "GET", p+l, nil); got.Status != c.list {
					t.Fatalf("list %s: %d, want %d: %s", l, got.Status, c.list, got.Body)
				}
			}
			if c.invite != 204 {
				for _, req := range [][2]string{{"PATCH", "/users/" + target.UserID}, {"DELETE", "/users/" + target.UserID}} {
					grWantError(t, f.e.Do(u, req[0], p+req[1], map[string]any{"role": "edit"}), c.invite)
				}
			}
		})
	}
	t.Run("Outsider", func(t *testing.T) {
		p := "/v1/spaces/" + open + "/permissions"
		grWantError(t, f.e.Do(f.outsider, "POST", p, body), 404)
		grWantError(t, f.e.Do(f.outsider, "GET", p+"/users", nil), 404)
		grWantError(t, f.e.Do(f.outsider, "GET", p+"/aggregate", nil), 404)
		grWantError(t, f.e.Do(f.outsider, "DELETE", p+"/users/"+target.UserID, nil), 404)
	})
	t.Run("OKGuestGrantedAdminInvites", func(t *testing.T) {
		guest := f.e.User("guest-admin@example.com", f.org, nil)
		f.invite(t, "/v1/spaces/"+f.space, viewer.RoleAdmin, guest)
		grWant(t, f.e.Do(guest, "POST", "/v1/spaces/"+f.space+"/permissions", body), 204)
		grWant(t, f.e.Do(target, "GET", "/v1/spaces/"+f.space, nil), 200)
	})
	t.Run("ErrGuestGrantedReadLists", func(t *testing.T) {
		guest := f.e.User("guest-read@example.com", f.org, nil)
		f.invite(t, "/v1/spaces/"+f.space, viewer.RoleRead, guest)
		grWantError(t, f.e.Do(guest, "GET", "/v1/spaces/"+f.space+"/permissions/users", nil), 403, "members")
		grWantError(t, f.e.Do(guest, "POST", "/v1/spaces/"+f.space+"/permissions", body), 403, "admin")
	})
}

// TestGrantTeamOpensSpace: a grant to a team opens the space for its members; revoking closes it.
func TestGrantTeamOpensSpace(t *testing.T) {
	f := newGrFixture(t)
	guest := f.e.User("gina@example.com", f.org, nil)
	team := f.team(t, "Readers", guest)
	spacePath := "/v1/spaces/" + f.space
	grWant(t, f.e.Do(guest, "GET", spacePath, nil), 404)
	grWant(t, f.e.Do(f.admin, "POST", spacePath+"/permissions", map[string]any{"role": "comment", "teams": []string{team}}), 204)
	t.Run("OKOpened", func(t *testing.T) {
		resp := f.e.Do(guest, "GET", spacePath, nil)
		grWant(t, resp, 200)
		if perms := resp.Map(t)["permissions"].(map[string]any); perms["comment"] != true || perms["edit"] != false {
			t.Fatalf("permissions %v", perms)
		}
	})
	t.Run("OKTeamRoleChanged", func(t *testing.T) {
		grWant(t, f.e.Do(f.admin, "PATCH", spacePath+"/permissions/teams/"+team, map[string]any{"role": "edit"}), 204)
		teams, _ := grAll(t, f.e, f.admin, spacePath+"/permissions/teams", 10)
		if len(teams) != 1 || teams[0] != team+"=edit" {
			t.Fatalf("teams %v", teams)
		}
		resp := f.e.Do(guest, "GET", spacePath, nil)
		if resp.Map(t)["permissions"].(map[string]any)["edit"] != true {
			t.Fatalf("guest cannot edit after the team's role change: %s", resp.Body)
		}
	})
	t.Run("OKRevokedCloses", func(t *testing.T) {
		grWant(t, f.e.Do(f.admin, "DELETE", spacePath+"/permissions/teams/"+team, nil), 204)
		grWant(t, f.e.Do(guest, "GET", spacePath, nil), 404)
		grWantError(t, f.e.Do(f.admin, "DELETE", spacePath+"/permissions/teams/"+team, nil), 404, "team")
	})
}

// TestGrantUpdateRemoveUser covers PATCH and DELETE of a user's permission.
func TestGrantUpdateRemoveUser(t *testing.T) {
	f := newGrFixture(t)
	guest := f.e.User("gus@example.com", f.org, nil)
	other := f.e.User("olga@example.com", f.org, nil)
	spacePath := "/v1/spaces/" + f.space
	f.invite(t, spacePath, viewer.RoleRead, guest, other)
	userPath := spacePath + "/permissions/users/" + guest.UserID
	t.Run("OKPatch", func(t *testing.T) {
		grWant(t, f.e.Do(f.admin, "PATCH", userPath, map[string]any{"role": "admin"}), 204)
		resp := f.e.Do(guest, "GET", spacePath, nil)
		if resp.Map(t)["permissions"].(map[string]any)["admin"] != true {
			t.Fatalf("not admin: %s", resp.Body)
		}
	})
	t.Run("ErrPatchRoleMissing", func(t *testing.T) {
		grWantError(t, f.e.Do(f.admin, "PATCH", userPath, map[string]any{}), 400, "role")
	})
	t.Run("ErrPatchRoleUnknown", func(t *testing.T) {
		grWantError(t, f.e.Do(f.admin, "PATCH", userPath, map[string]any{"role": "god"}), 400, "role")
	})
	t.Run("ErrPatchNoGrant", func(t *testing.T) {
		grWantError(t, f.e.Do(f.admin, "PATCH", spacePath+"/permissions/users/"+f.admin.UserID, map[string]any{"role": "read"}), 404, "user")
	})
	t.Run("OKPatchNullRemoves", func(t *testing.T) {
		grWant(t, f.e.Do(f.admin, "PATCH", spacePath+"/permissions/users/"+other.UserID, map[string]any{"role": nil}), 204)
		grWant(t, f.e.Do(other, "GET", spacePath, nil), 404)
	})
	t.Run("OKDeleteCloses", func(t *testing.T) {
		grWant(t, f.e.Do(f.admin, "DELETE", userPath, nil), 204)
		grWant(t, f.e.Do(guest, "GET", spacePath, nil), 404)
		users, n := grAll(t, f.e, f.admin, spacePath+"/permissions/users", 10)
		if n != 0 || len(users) != 0 {
			t.Fatalf("users left: %v", users)
		}
	})
	t.Run("ErrDeleteNoGrant", func(t *testing.T) {
		grWantError(t, f.e.Do(f.admin, "DELETE", userPath, nil), 404, "user")
	})
}

// TestGrantListPagination walks the users, teams and aggregate lists page by page.
func TestGrantListPagination(t *testing.T) {
	f := newGrFixture(t)
	spacePath := "/v1/spaces/" + f.space
	var users []testenv.Actor
	var want []string
	for i := range 5 {
		u := f.e.User(fmt.Sprintf("u%d@example.com", i), f.org, nil)
		users = append(users, u)
		want = append(want, grEntry(u, viewer.RoleRead))
	}
	f.invite(t, spacePath, viewer.RoleRead, users...)
	var teams []string
	for i := range 3 {
		id := f.team(t, fmt.Sprintf("Team %d", i))
		teams = append(teams, id+"=edit")
		grWant(t, f.e.Do(f.admin, "POST", spacePath+"/permissions", map[string]any{"role": "edit", "teams": []string{id}}), 204)
	}
	t.Run("OKUsers", func(t *testing.T) {
		got, n := grAll(t, f.e, f.admin, spacePath+"/permissions/users", 2)
		if n != 5 || strings.Join(sorted(got), ",") != strings.Join(sorted(want), ",") {
			t.Fatalf("got %v (count %d), want %v", got, n, want)
		}
	})
	t.Run("OKTeams", func(t *testing.T) {
		got, n := grAll(t, f.e, f.admin, spacePath+"/permissions/teams", 1)
		if n != 3 || strings.Join(got, ",") != strings.Join(teams, ",") {
			t.Fatalf("got %v (count %d), want %v in creation order", got, n, teams)
		}
	})
	t.Run("OKAggregate", func(t *testing.T) {
		got, n := grAll(t, f.e, f.admin, spacePath+"/permissions/aggregate", 2)
		all := append([]string{grEntry(f.admin, viewer.RoleAdmin)}, want...)
		if n != 6 || strings.Join(got, ",") != strings.Join(sortedByID(all), ",") {
			t.Fatalf("got %v (count %d), want %v", got, n, all)
		}
	})
	t.Run("ErrLimitTooLarge", func(t *testing.T) {
		grWantError(t, f.e.Do(f.admin, "GET", spacePath+"/permissions/users?limit=1001", nil), 400, "limit")
	})
	t.Run("ErrBadPage", func(t *testing.T) {
		grWantError(t, f.e.Do(f.admin, "GET", spacePath+"/permissions/teams?page=garbage", nil), 400)
	})
}

func sortedByID(entries []string) []string {
	out := append([]string(nil), entries...)
	sort.Slice(out, func(i, j int) bool { return strings.Split(out[i], "=")[0] < strings.Split(out[j], "=")[0] })
	return out
}

// TestGrantAggregate: everyone with access and their effective role, from every source.
func TestGrantAggregate(t *testing.T) {
	f := newGrFixture(t)
	open := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Open"})["id"].(string)
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	teamGuest := f.e.User("tess@example.com", f.org, nil)
	directGuest := f.e.User("dan@example.com", f.org, nil)
	f.e.User("nora@example.com", f.org, nil) // a guest without any grant: no access
	team := f.team(t, "Editors", teamGuest, reader)
	p := "/v1/spaces/" + open + "/permissions"
	grWant(t, f.e.Do(f.admin, "POST", p, map[string]any{"role": "edit", "teams": []string{team}}), 204)
	f.invite(t, "/v1/spaces/"+open, viewer.RoleComment, directGuest)
	want := sortedByID([]string{
		grEntry(f.admin, viewer.RoleAdmin), grEntry(reader, viewer.RoleEdit),
		grEntry(teamGuest, viewer.RoleEdit), grEntry(directGuest, viewer.RoleComment),
	})
	t.Run("OK", func(t *testing.T) {
		got, n := grAll(t, f.e, f.admin, p+"/aggregate", 100)
		if n != 4 || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
	t.Run("OKRoleFilter", func(t *testing.T) {
		got, n := grAll(t, f.e, f.admin, p+"/aggregate?role=edit", 1)
		if n != 2 || strings.Join(got, ",") != strings.Join(sortedByID([]string{grEntry(reader, "edit"), grEntry(teamGuest, "edit")}), ",") {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("ErrRoleFilter", func(t *testing.T) {
		grWantError(t, f.e.Do(f.admin, "GET", p+"/aggregate?role=guest", nil), 400, "role")
	})
}

// TestGrantCollection: the collection endpoints, and a collection grant opening the spaces in it.
func TestGrantCollection(t *testing.T) {
	f := newGrFixture(t)
	resp := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/collections", map[string]any{"title": "Docs"})
	grWant(t, resp, 201)
	col := resp.Map(t)["id"].(string)
	grWant(t, f.e.Do(f.admin, "PATCH", "/v1/collections/"+col, map[string]any{"defaultLevel": nil}), 200)
	inside := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Inside", "parent": col})["id"].(string)
	grWant(t, f.e.Do(f.admin, "PATCH", "/v1/spaces/"+inside, map[string]any{"defaultLevel": nil}), 200)
	guest := f.e.User("cole@example.com", f.org, nil)
	member := f.e.User("mia@example.com", f.org, testenv.Role(viewer.RoleEdit))
	team := f.team(t, "Team", member)
	p := "/v1/collections/" + col + "/permissions"
	grWant(t, f.e.Do(guest, "GET", "/v1/spaces/"+inside, nil), 404)
	t.Run("OKInvite", func(t *testing.T) {
		grWant(t, f.e.Do(f.admin, "POST", p, map[string]any{"role": "read", "users": []string{guest.UserID}, "teams": []string{team}}), 204)
		grWant(t, f.e.Do(guest, "GET", "/v1/collections/"+col, nil), 200)
		grWant(t, f.e.Do(guest, "GET", "/v1/spaces/"+inside, nil), 200)
		users, _ := grAll(t, f.e, f.admin, p+"/users", 10)
		teams, _ := grAll(t, f.e, f.admin, p+"/teams", 10)
		if len(users) != 1 || users[0] != grEntry(guest, "read") || len(teams) != 1 || teams[0] != team+"=read" {
			t.Fatalf("users %v teams %v", users, teams)
		}
		agg, _ := grAll(t, f.e, f.admin, "/v1/spaces/"+inside+"/permissions/aggregate", 10)
		if !contains(agg, grEntry(guest, "read")) || !contains(agg, grEntry(member, "read")) {
			t.Fatalf("space aggregate %v misses the collection's grants", agg)
		}
	})
	t.Run("OKPatch", func(t *testing.T) {
		grWant(t, f.e.Do(f.admin, "PATCH", p+"/users/"+guest.UserID, map[string]any{"role": "admin"}), 204)
		resp := f.e.Do(guest, "GET", "/v1/spaces/"+inside, nil)
		if resp.Map(t)["permissions"].(map[string]any)["admin"] != true {
			t.Fatalf("collection admin grant does not reach the space: %s", resp.Body)
		}
		grWant(t, f.e.Do(f.admin, "PATCH", p+"/teams/"+team, map[string]any{"role": "comment"}), 204)
	})
	t.Run("ErrMemberForbidden", func(t *testing.T) {
		grWantError(t, f.e.Do(member, "POST", p, map[string]any{"role": "read", "users": []string{member.UserID}}), 403, "admin")
	})
	t.Run("ErrOutsiderNotFound", func(t *testing.T) {
		grWantError(t, f.e.Do(f.outsider, "GET", p+"/users", nil), 404)
	})
	t.Run("OKRevoke", func(t *testing.T) {
		grWant(t, f.e.Do(f.admin, "DELETE", p+"/users/"+guest.UserID, nil), 204)
		grWant(t, f.e.Do(f.admin, "DELETE", p+"/teams/"+team, nil), 204)
		grWant(t, f.e.Do(guest, "GET", "/v1/spaces/"+inside, nil), 404)
		grWant(t, f.e.Do(guest, "GET", "/v1/collections/"+col, nil), 404)
	})
}

const grGrantsQuery = `query($id: ID!) { space(id: $id) {
	grants { totalCount edges { node { role user { id } team { id } } } }
	users: grants(subject: USER, first: 1) { totalCount pageInfo { hasNextPage } edges { node { user { id } } } }
	access { totalCount edges { node { role user { id } } } } } }`

// TestGrantGraphQL: the same operations through the GraphQL mutations and fields.
func TestGrantGraphQL(t *testing.T) {
	f := newGrFixture(t)
	guest := f.e.User("gail@example.com", f.org, nil)
	member := f.e.User("max@example.com", f.org, testenv.Role(viewer.RoleRead))
	team := f.team(t, "Crew", member)
	vars := map[string]any{"id": f.space, "in": map[string]any{"role": "EDIT", "users": []string{guest.UserID}, "teams": []string{team}}}
	t.Run("OKGrant", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, `mutation($id: ID!, $in: GrantAccessInput!) { grantSpaceAccess(spaceId: $id, input: $in) { id } }`, vars)
		var d struct{ GrantSpaceAccess struct{ ID string } }
		gqlOK(t, g, &d)
		if d.GrantSpaceAccess.ID != f.space {
			t.Fatalf("space %q", d.GrantSpaceAccess.ID)
		}
		var q struct {
			Space struct {
				Grants struct {
					TotalCount int
					Edges      []struct {
						Node struct {
							Role string
							User *struct{ ID string }
							Team *struct{ ID string }
						}
					}
				}
				Users struct {
					TotalCount int
					PageInfo   struct{ HasNextPage bool }
				}
				Access struct{ TotalCount int }
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, grGrantsQuery, map[string]any{"id": f.space}), &q)
		s := q.Space
		if s.Grants.TotalCount != 2 || s.Users.TotalCount != 1 || s.Users.PageInfo.HasNextPage || s.Access.TotalCount != 3 {
			t.Fatalf("grants %+v", s)
		}
		for _, e := range s.Grants.Edges {
			if e.Node.Role != "EDIT" || (e.Node.User == nil) == (e.Node.Team == nil) {
				t.Fatalf("grant %+v", e.Node)
			}
		}
		grWant(t, f.e.Do(guest, "GET", "/v1/spaces/"+f.space, nil), 200)
	})
	t.Run("OKUpdate", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, `mutation($id: ID!, $u: ID!) { updateSpaceAccess(spaceId: $id, subject: {user: $u}, role: ADMIN) { role user { id } } }`,
			map[string]any{"id": f.space, "u": guest.UserID})
		var d struct{ UpdateSpaceAccess struct{ Role string } }
		gqlOK(t, g, &d)
		if d.UpdateSpaceAccess.Role != "ADMIN" {
			t.Fatalf("role %q", d.UpdateSpaceAccess.Role)
		}
	})
	t.Run("ErrSubjectBoth", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, `mutation($id: ID!, $u: ID!, $t: ID!) { revokeSpaceAccess(spaceId: $id, subject: {user: $u, team: $t}) }`,
			map[string]any{"id": f.space, "u": guest.UserID, "t": team})
		gqlWantCode(t, g, "BAD_REQUEST")
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		open := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Open"})["id"].(string)
		g := f.e.GraphQL(member, `mutation($id: ID!, $in: GrantAccessInput!) { grantSpaceAccess(spaceId: $id, input: $in) { id } }`,
			map[string]any{"id": open, "in": map[string]any{"role": "READ", "users": []string{member.UserID}}})
		gqlWantCode(t, g, "FORBIDDEN")
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		g := f.e.GraphQL(f.outsider, `mutation($id: ID!, $in: GrantAccessInput!) { grantSpaceAccess(spaceId: $id, input: $in) { id } }`, vars)
		gqlWantCode(t, g, "NOT_FOUND")
	})
	t.Run("ErrUserNotMember", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, `mutation($id: ID!, $in: GrantAccessInput!) { grantSpaceAccess(spaceId: $id, input: $in) { id } }`,
			map[string]any{"id": f.space, "in": map[string]any{"role": "READ", "users": []string{f.outsider.UserID}}})
		gqlWantCode(t, g, "BAD_REQUEST")
	})
	t.Run("OKRevoke", func(t *testing.T) {
		for _, subject := range []map[string]any{{"user": guest.UserID}, {"team": team}} {
			g := f.e.GraphQL(f.admin, `mutation($id: ID!, $s: GrantSubjectInput!) { revokeSpaceAccess(spaceId: $id, subject: $s) }`,
				map[string]any{"id": f.space, "s": subject})
			var d struct{ RevokeSpaceAccess bool }
			gqlOK(t, g, &d)
			if !d.RevokeSpaceAccess {
				t.Fatal("revoke answered false")
			}
		}
		grWant(t, f.e.Do(guest, "GET", "/v1/spaces/"+f.space, nil), 404)
		g := f.e.GraphQL(f.admin, `mutation($id: ID!, $s: GrantSubjectInput!) { revokeSpaceAccess(spaceId: $id, subject: $s) }`,
			map[string]any{"id": f.space, "s": map[string]any{"user": guest.UserID}})
		gqlWantCode(t, g, "NOT_FOUND")
	})
	t.Run("OKCollection", func(t *testing.T) {
		resp := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/collections", map[string]any{"title": "Docs"})
		grWant(t, resp, 201)
		col := resp.Map(t)["id"].(string)
		g := f.e.GraphQL(f.admin, `mutation($id: ID!, $u: ID!) {
			grantCollectionAccess(collectionId: $id, input: {role: READ, users: [$u]}) { id }
			updateCollectionAccess(collectionId: $id, subject: {user: $u}, role: CREATE) { role } }`,
			map[string]any{"id": col, "u": guest.UserID})
		var d struct{ UpdateCollectionAccess struct{ Role string } }
		gqlOK(t, g, &d)
		if d.UpdateCollectionAccess.Role != "CREATE" {
			t.Fatalf("role %q", d.UpdateCollectionAccess.Role)
		}
		var q struct {
			Collection struct {
				Grants struct{ TotalCount int }
				Access struct {
					Edges []struct{ Node struct{ Role string } }
				}
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, `query($id: ID!) { collection(id: $id) { grants { totalCount } access(role: CREATE) { edges { node { role } } } } }`,
			map[string]any{"id": col}), &q)
		if q.Collection.Grants.TotalCount != 1 || len(q.Collection.Access.Edges) != 1 {
			t.Fatalf("collection %+v", q.Collection)
		}
		g = f.e.GraphQL(f.admin, `mutation($id: ID!, $u: ID!) { revokeCollectionAccess(collectionId: $id, subject: {user: $u}) }`,
			map[string]any{"id": col, "u": guest.UserID})
		var r struct{ RevokeCollectionAccess bool }
		gqlOK(t, g, &r)
	})
}

// TestGrantGraphQLPages walks Space.grants and Space.access page by page and checks the bound
// of first.
func TestGrantGraphQLPages(t *testing.T) {
	f := newGrFixture(t)
	var users []testenv.Actor
	for i := range 4 {
		users = append(users, f.e.User(fmt.Sprintf("p%d@example.com", i), f.org, nil))
	}
	f.invite(t, "/v1/spaces/"+f.space, viewer.RoleComment, users...)
	for _, field := range []string{"grants", "access"} {
		name := strings.ToUpper(field[:1]) + field[1:]
		t.Run("OK"+name, func(t *testing.T) {
			seen := map[string]bool{}
			var after *string
			for range 10 {
				g := f.e.GraphQL(f.admin, `query($id: ID!, $after: String) { space(id: $id) { `+field+`(first: 3, after: $after) {
					totalCount pageInfo { hasNextPage endCursor } edges { node { user { id } } } } } }`,
					map[string]any{"id": f.space, "after": after})
				var d struct {
					Space map[string]struct {
						TotalCount int
						PageInfo   struct {
							HasNextPage bool
							EndCursor   *string
						}
						Edges []struct {
							Node struct{ User struct{ ID string } }
						}
					}
				}
				gqlOK(t, g, &d)
				c := d.Space[field]
				for _, e := range c.Edges {
					if seen[e.Node.User.ID] {
						t.Fatalf("%s seen twice", e.Node.User.ID)
					}
					seen[e.Node.User.ID] = true
				}
				if !c.PageInfo.HasNextPage {
					want := 4
					if field == "access" {
						want = 5 // the organization admin too
					}
					if len(seen) != want || c.TotalCount != want {
						t.Fatalf("saw %d of %d (totalCount %d)", len(seen), want, c.TotalCount)
					}
					return
				}
				after = c.PageInfo.EndCursor
			}
			t.Fatal("pagination does not end")
		})
		t.Run("ErrFirstTooLarge"+name, func(t *testing.T) {
			g := f.e.GraphQL(f.admin, `query($id: ID!) { space(id: $id) { `+field+`(first: 1001) { totalCount } } }`,
				map[string]any{"id": f.space})
			gqlWantCode(t, g, "BAD_REQUEST")
		})
	}
}
