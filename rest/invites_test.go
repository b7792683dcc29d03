package rest_test

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// Invite links reuse memFixture (members_test.go): an organization with a member of every role,
// a guest, and an outsider who is the admin of another organization.

func (f *memFixture) invitesPath(segments ...string) string {
	return "/v1/orgs/" + f.org + "/link-invites" + teamsJoin(segments)
}

type invWire struct {
	Object    string  `json:"object"`
	ID        string  `json:"id"`
	Role      *string `json:"role"`
	Redundant bool    `json:"redundant"`
}

// invRoleName is the REST role of an invite ("guest" for null).
func invRoleName(i invWire) string {
	if i.Role == nil {
		return "guest"
	}
	return *i.Role
}

// invBody is the body of creating or updating an invite with a REST role name ("guest": null).
func invBody(role string) map[string]any {
	if role == "guest" {
		return map[string]any{"role": nil}
	}
	return map[string]any{"role": role}
}

// invite creates an invite link as the admin and returns it.
func (f *memFixture) invite(t *testing.T, role string) invWire {
	t.Helper()
	resp := f.e.Do(f.admin, "POST", f.invitesPath(), invBody(role))
	memWant(t, resp, 201)
	var i invWire
	resp.JSON(t, &i)
	return i
}

// getInvite reads an invite link as the admin.
func (f *memFixture) getInvite(t *testing.T, id string) invWire {
	t.Helper()
	resp := f.e.Do(f.admin, "GET", f.invitesPath(id), nil)
	memWant(t, resp, 200)
	var i invWire
	resp.JSON(t, &i)
	return i
}

// join joins org with an invite as a.
func (f *memFixture) join(a testenv.Actor, org, inviteID string) testenv.Response {
	return f.e.Do(a, "POST", "/v1/orgs/"+org+"/invites/"+inviteID, nil)
}

// disableInvites turns invite links off for the organization.
func (f *memFixture) disableInvites(t *testing.T) {
	t.Helper()
	memWant(t, f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, map[string]any{"inviteLinks": false}), 200)
}

// invAccess is memAccess with the admin's success status replaced by ok.
func invAccess(ok int) []struct {
	actor  string
	status int
} {
	out := append(memAccess[:0:0], memAccess...)
	out[0].status = ok
	return out
}

// ---------------------------------------------------------------- POST /link-invites

func TestInvitesCreate(t *testing.T) {
	f := newMemFixture(t)
	for _, r := range []string{"admin", "create", "review", "edit", "comment", "read", "guest"} {
		t.Run("OK"+r, func(t *testing.T) {
			resp := f.e.Do(f.admin, "POST", f.invitesPath(), invBody(r))
			memWant(t, resp, 201)
			var i invWire
			resp.JSON(t, &i)
			if i.Object != "invite" || i.ID == "" || invRoleName(i) != r {
				t.Fatalf("invite %+v, want role %s", i, r)
			}
			if got := f.getInvite(t, i.ID); invRoleName(got) != r {
				t.Fatalf("stored role %s, want %s", invRoleName(got), r)
			}
		})
	}
	t.Run("OKGuestRoleIsNull", func(t *testing.T) {
		resp := f.e.Do(f.admin, "POST", f.invitesPath(), map[string]any{"role": nil})
		memWant(t, resp, 201)
		if v, ok := resp.Map(t)["role"]; !ok || v != nil {
			t.Fatalf("role %v (present %v), want null", v, ok)
		}
	})
	t.Run("OKDistinctIDs", func(t *testing.T) {
		if a, b := f.invite(t, "read"), f.invite(t, "read"); a.ID == b.ID {
			t.Fatal("two invites share an id")
		}
	})
	for name, body := range map[string]any{"ErrMissingRole": map[string]any{}, "ErrEmptyBody": nil} {
		t.Run(name, func(t *testing.T) {
			memWantError(t, f.e.Do(f.admin, "POST", f.invitesPath(), body), 400, "role")
		})
	}
	for i, bad := range []any{"owner", "guest", "READ", 1, map[string]any{}} {
		t.Run("ErrUnknownRole"+strconv.Itoa(i), func(t *testing.T) {
			memWantError(t, f.e.Do(f.admin, "POST", f.invitesPath(), map[string]any{"role": bad}), 400, "role")
		})
	}
	t.Run("ErrMalformedJSON", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "POST", f.invitesPath(), `{"role":"read"`), 400)
	})
	t.Run("ErrNoToken", func(t *testing.T) {
		memWantError(t, f.e.Do(testenv.Actor{}, "POST", f.invitesPath(), invBody("read")), 401)
	})
}

func TestInvitesCreateAccess(t *testing.T) {
	f := newMemFixture(t)
	for _, c := range invAccess(201) {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			memWant(t, f.e.Do(f.actor(c.actor), "POST", f.invitesPath(), invBody("read")), c.status)
		})
	}
	var l struct{ Count int }
	f.e.Do(f.admin, "GET", f.invitesPath(), nil).JSON(t, &l)
	if l.Count != 1 {
		t.Fatalf("%d invites exist, want only the admin's", l.Count)
	}
}

func TestInvitesDisabled(t *testing.T) {
	f := newMemFixture(t)
	existing := f.invite(t, "edit")
	f.disableInvites(t)
	joiner := f.e.User("joiner@example.com", "", nil)
	t.Run("ErrCreate", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "POST", f.invitesPath(), invBody("read")), 400, "inviteLinks")
	})
	t.Run("ErrJoin", func(t *testing.T) {
		memWantError(t, f.join(joiner, f.org, existing.ID), 403)
		memWantError(t, f.e.Do(joiner, "GET", "/v1/orgs/"+f.org, nil), 404)
	})
	t.Run("OKJoinAfterEnabling", func(t *testing.T) {
		memWant(t, f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, map[string]any{"inviteLinks": true}), 200)
		memWant(t, f.join(joiner, f.org, existing.ID), 200)
		if got := f.role(t, joiner.UserID); got != "edit" {
			t.Fatalf("role %s, want edit", got)
		}
	})
}

// ---------------------------------------------------------------- GET /link-invites

type invList struct {
	Next *struct {
		Page string `json:"page"`
	} `json:"next"`
	Count int       `json:"count"`
	Items []invWire `json:"items"`
}

func TestInvitesList(t *testing.T) {
	f := newMemFixture(t)
	made := map[string]string{}
	for _, r := range []string{"admin", "edit", "read", "guest", "comment"} {
		made[f.invite(t, r).ID] = r
	}
	t.Run("OK", func(t *testing.T) {
		var l invList
		f.e.Do(f.admin, "GET", f.invitesPath(), nil).JSON(t, &l)
		if l.Count != 5 || len(l.Items) != 5 || l.Next != nil {
			t.Fatalf("count %d items %d next %v, want 5 on one page", l.Count, len(l.Items), l.Next)
		}
		for _, i := range l.Items {
			if made[i.ID] != invRoleName(i) || i.Object != "invite" {
				t.Errorf("listed %+v, made %q", i, made[i.ID])
			}
		}
	})
	for _, limit := range []int{1, 2, 4, 5} {
		t.Run("OKPagesOf"+strconv.Itoa(limit), func(t *testing.T) {
			ids := invWalk(t, f, limit, 5)
			memUnique(t, ids)
			if len(ids) != 5 {
				t.Fatalf("%d invites over the pages, want 5", len(ids))
			}
		})
	}
	t.Run("OKOtherOrgNotListed", func(t *testing.T) {
		var l invList
		f.e.Do(f.outsider, "GET", "/v1/orgs/"+f.otherOrg+"/link-invites", nil).JSON(t, &l)
		if l.Count != 0 {
			t.Fatalf("the other organization lists %d invites", l.Count)
		}
	})
	t.Run("ErrLimit", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.invitesPath()+"?limit=1001", nil), 400, "limit")
	})
	t.Run("ErrPageToken", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.invitesPath()+"?page=forged", nil), 400, "page")
	})
	for _, c := range invAccess(200)[1:] {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			memWantError(t, f.e.Do(f.actor(c.actor), "GET", f.invitesPath(), nil), c.status)
		})
	}
}

// invWalk pages through the invite list and returns the ids, checking count on each page.
func invWalk(t *testing.T, f *memFixture, limit, count int) []string {
	t.Helper()
	q := url.Values{"limit": {strconv.Itoa(limit)}}
	var ids []string
	for pages := 0; pages < 20; pages++ {
		var l invList
		resp := f.e.Do(f.admin, "GET", f.invitesPath()+"?"+q.Encode(), nil)
		memWant(t, resp, 200)
		resp.JSON(t, &l)
		if l.Count != count {
			t.Fatalf("count %d on a page, want %d", l.Count, count)
		}
		for _, i := range l.Items {
			ids = append(ids, i.ID)
		}
		if l.Next == nil {
			return ids
		}
		if len(l.Items) != limit {
			t.Fatalf("a page before the last has %d items, want %d", len(l.Items), limit)
		}
		q.Set("page", l.Next.Page)
	}
	t.Fatal("pagination does not end")
	return nil
}

// ---------------------------------------------------------------- GET, PATCH, DELETE /link-invites/{id}

func TestInvitesGet(t *testing.T) {
	f := newMemFixture(t)
	inv := f.invite(t, "edit")
	t.Run("OK", func(t *testing.T) {
		if got := f.getInvite(t, inv.ID); got.ID != inv.ID || invRoleName(got) != "edit" || got.Object != "invite" {
			t.Fatalf("invite %+v", got)
		}
	})
	t.Run("OKRedundantForAdmin", func(t *testing.T) {
		if !f.getInvite(t, inv.ID).Redundant || !inv.Redundant {
			t.Fatal("an edit invite is not redundant for an admin")
		}
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.invitesPath("nope0000000000000000"), nil), 404)
	})
	t.Run("ErrOtherOrgInvite", func(t *testing.T) {
		memWant(t, f.e.Do(f.outsider, "PATCH", "/v1/orgs/"+f.otherOrg, map[string]any{"inviteLinks": true}), 200)
		other := f.e.Do(f.outsider, "POST", "/v1/orgs/"+f.otherOrg+"/link-invites", invBody("read"))
		memWant(t, other, 201)
		memWantError(t, f.e.Do(f.admin, "GET", f.invitesPath(other.Map(t)["id"].(string)), nil), 404)
	})
	for _, c := range invAccess(200)[1:] {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			memWantError(t, f.e.Do(f.actor(c.actor), "GET", f.invitesPath(inv.ID), nil), c.status)
		})
	}
}

func TestInvitesUpdate(t *testing.T) {
	f := newMemFixture(t)
	inv := f.invite(t, "edit")
	patch := func(a testenv.Actor, body any) testenv.Response {
		return f.e.Do(a, "PATCH", f.invitesPath(inv.ID), body)
	}
	for _, r := range []string{"read", "guest", "admin"} {
		t.Run("OK"+r, func(t *testing.T) {
			resp := patch(f.admin, invBody(r))
			memWant(t, resp, 200)
			var i invWire
			resp.JSON(t, &i)
			if i.ID != inv.ID || invRoleName(i) != r || invRoleName(f.getInvite(t, inv.ID)) != r {
				t.Fatalf("invite %+v after setting %s", i, r)
			}
		})
	}
	t.Run("ErrMissingRole", func(t *testing.T) {
		memWantError(t, patch(f.admin, map[string]any{}), 400, "role")
	})
	t.Run("ErrUnknownRole", func(t *testing.T) {
		memWantError(t, patch(f.admin, map[string]any{"role": "owner"}), 400, "role")
		if got := invRoleName(f.getInvite(t, inv.ID)); got != "admin" {
			t.Fatalf("role %s after a refused update", got)
		}
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "PATCH", f.invitesPath("nope0000000000000000"), invBody("read")), 404)
	})
	for _, c := range invAccess(200)[1:] {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			memWantError(t, patch(f.actor(c.actor), invBody("read")), c.status)
		})
	}
}

func TestInvitesDelete(t *testing.T) {
	f := newMemFixture(t)
	inv := f.invite(t, "edit")
	for _, c := range invAccess(205)[1:] {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			memWantError(t, f.e.Do(f.actor(c.actor), "DELETE", f.invitesPath(inv.ID), nil), c.status)
			f.getInvite(t, inv.ID)
		})
	}
	t.Run("OK", func(t *testing.T) {
		resp := f.e.Do(f.admin, "DELETE", f.invitesPath(inv.ID), nil)
		memWant(t, resp, 205)
		if len(resp.Body) != 0 {
			t.Errorf("205 with a body: %s", resp.Body)
		}
	})
	t.Run("ErrGetAfter", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.invitesPath(inv.ID), nil), 404)
	})
	t.Run("ErrDeleteAgain", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "DELETE", f.invitesPath(inv.ID), nil), 404)
	})
	t.Run("ErrJoinAfter", func(t *testing.T) {
		joiner := f.e.User("late@example.com", "", nil)
		memWantError(t, f.join(joiner, f.org, inv.ID), 404)
		memWantError(t, f.e.Do(joiner, "GET", "/v1/orgs/"+f.org, nil), 404)
	})
}

// ---------------------------------------------------------------- POST /invites/{inviteId}

func TestInvitesJoin(t *testing.T) {
	f := newMemFixture(t)
	for _, r := range []string{"admin", "create", "review", "edit", "comment", "read", "guest"} {
		t.Run("OK"+r, func(t *testing.T) {
			inv := f.invite(t, r)
			joiner := f.e.User("joiner-"+r+"@example.com", "", nil)
			resp := f.join(joiner, f.org, inv.ID)
			memWant(t, resp, 200)
			if m := resp.Map(t); len(m) != 0 {
				t.Errorf("join answered %s, want {}", resp.Body)
			}
			invWantOnlyOrg(t, f, joiner)
			if got := f.role(t, joiner.UserID); got != r {
				t.Fatalf("joined as %s, want %s", got, r)
			}
		})
	}
	t.Run("OKGuestRoleNull", func(t *testing.T) {
		joiner := f.e.User("guest-joiner@example.com", "", nil)
		memWant(t, f.join(joiner, f.org, f.invite(t, "guest").ID), 200)
		resp := f.e.Do(joiner, "GET", f.path(joiner.UserID), nil)
		memWant(t, resp, 200)
		if v, ok := resp.Map(t)["role"]; !ok || v != nil {
			t.Fatalf("role %v, want null", v)
		}
	})
	t.Run("OKRoleAsUpdated", func(t *testing.T) {
		inv := f.invite(t, "edit")
		memWant(t, f.e.Do(f.admin, "PATCH", f.invitesPath(inv.ID), invBody("comment")), 200)
		joiner := f.e.User("updated@example.com", "", nil)
		memWant(t, f.join(joiner, f.org, inv.ID), 200)
		if got := f.role(t, joiner.UserID); got != "comment" {
			t.Fatalf("joined as %s, want the updated role comment", got)
		}
	})
	t.Run("OKInviteStaysUsable", func(t *testing.T) {
		inv := f.invite(t, "read")
		for i := 0; i < 2; i++ {
			memWant(t, f.join(f.e.User("many"+strconv.Itoa(i)+"@example.com", "", nil), f.org, inv.ID), 200)
		}
	})
}

// invWantOnlyOrg asserts that a lists exactly the fixture's organization.
func invWantOnlyOrg(t *testing.T, f *memFixture, a testenv.Actor) {
	t.Helper()
	var l struct {
		Count int
		Items []struct{ ID string }
	}
	f.e.Do(a, "GET", "/v1/orgs", nil).JSON(t, &l)
	if l.Count != 1 || len(l.Items) != 1 || l.Items[0].ID != f.org {
		t.Fatalf("organizations %+v, want only %s", l, f.org)
	}
}

func TestInvitesJoinTwice(t *testing.T) {
	f := newMemFixture(t)
	inv := f.invite(t, "edit")
	joiner := f.e.User("joiner@example.com", "", nil)
	memWant(t, f.join(joiner, f.org, inv.ID), 200)
	before := f.get(t, joiner.UserID)
	t.Run("OKIdempotent", func(t *testing.T) {
		memWant(t, f.join(joiner, f.org, inv.ID), 200)
		after := f.get(t, joiner.UserID)
		if invRoleName(invWire{Role: after.Role}) != "edit" || !after.JoinedAt.Equal(before.JoinedAt) {
			t.Fatalf("membership changed: %+v then %+v", before, after)
		}
		if l := f.list(t, f.admin, url.Values{"search": {"joiner@"}}); l.Count != 1 {
			t.Fatalf("%d memberships, want 1", l.Count)
		}
	})
	t.Run("OKHigherInviteKeepsRole", func(t *testing.T) {
		memWant(t, f.join(joiner, f.org, f.invite(t, "admin").ID), 200)
		if got := f.role(t, joiner.UserID); got != "edit" {
			t.Fatalf("role %s after joining again with an admin invite, want edit", got)
		}
	})
	t.Run("OKConcurrent", func(t *testing.T) {
		late := f.e.User("late@example.com", "", nil)
		done := make(chan testenv.Response, 4)
		for i := 0; i < cap(done); i++ {
			go func() { done <- f.e.Raw(late, "POST", "/v1/orgs/"+f.org+"/invites/"+inv.ID, "", nil) }()
		}
		for i := 0; i < cap(done); i++ {
			if r := <-done; r.Status != 200 {
				t.Errorf("a concurrent join answered %d %s", r.Status, r.Body)
			}
		}
		if l := f.list(t, f.admin, url.Values{"search": {"late@"}}); l.Count != 1 || f.role(t, late.UserID) != "edit" {
			t.Fatalf("%d memberships after concurrent joins, want 1 editor", l.Count)
		}
	})
	t.Run("OKMemberWithInvite", func(t *testing.T) {
		reader := f.by["read"]
		memWant(t, f.join(reader, f.org, f.invite(t, "create").ID), 200)
		if got := f.role(t, reader.UserID); got != "read" {
			t.Fatalf("role %s, want read", got)
		}
	})
}

func TestInvitesJoinErrors(t *testing.T) {
	f := newMemFixture(t)
	inv := f.invite(t, "edit")
	joiner := f.e.User("joiner@example.com", "", nil)
	t.Run("ErrUnknownInvite", func(t *testing.T) {
		memWantError(t, f.join(joiner, f.org, "nope0000000000000000"), 404)
	})
	t.Run("ErrUnknownOrg", func(t *testing.T) {
		memWantError(t, f.join(joiner, "nope0000000000000000", inv.ID), 404)
	})
	t.Run("ErrInviteOfAnotherOrg", func(t *testing.T) {
		memWantError(t, f.join(joiner, f.otherOrg, inv.ID), 404)
		memWantError(t, f.e.Do(joiner, "GET", "/v1/orgs/"+f.otherOrg, nil), 404)
		memWantError(t, f.e.Do(joiner, "GET", "/v1/orgs/"+f.org, nil), 404)
	})
	t.Run("ErrNoToken", func(t *testing.T) {
		memWantError(t, f.join(testenv.Actor{}, f.org, inv.ID), 401)
	})
	t.Run("ErrBadToken", func(t *testing.T) {
		memWantError(t, f.join(testenv.Actor{Token: "bdy_bogus"}, f.org, inv.ID), 401)
	})
}

// TestInvitesJoinGrantsOnlyTheRole checks that a reader who joined with a read invite has no
// more rights than a reader.
func TestInvitesJoinGrantsOnlyTheRole(t *testing.T) {
	f := newMemFixture(t)
	joiner := f.e.User("joiner@example.com", "", nil)
	memWant(t, f.join(joiner, f.org, f.invite(t, "read").ID), 200)
	t.Run("OKRead", func(t *testing.T) {
		memWant(t, f.e.Do(joiner, "GET", "/v1/orgs/"+f.org, nil), 200)
		memWant(t, f.e.Do(joiner, "GET", f.path(), nil), 200)
	})
	t.Run("ErrUpdateOrg", func(t *testing.T) {
		memWantError(t, f.e.Do(joiner, "PATCH", "/v1/orgs/"+f.org, map[string]any{"title": "Mine"}), 403)
	})
	t.Run("ErrPromoteSelf", func(t *testing.T) {
		memWantError(t, f.e.Do(joiner, "PATCH", f.path(joiner.UserID), map[string]any{"role": "admin"}), 403)
		if got := f.role(t, joiner.UserID); got != "read" {
			t.Fatalf("role %s, want read", got)
		}
	})
	t.Run("ErrCreateInvite", func(t *testing.T) {
		memWantError(t, f.e.Do(joiner, "POST", f.invitesPath(), invBody("admin")), 403)
	})
	t.Run("ErrGuestListsMembers", func(t *testing.T) {
		guest := f.e.User("guest-joiner@example.com", "", nil)
		memWant(t, f.join(guest, f.org, f.invite(t, "guest").ID), 200)
		memWantError(t, f.e.Do(guest, "GET", f.path(), nil), 403)
	})
}

// ---------------------------------------------------------------- GraphQL

const (
	invGQLCreate = `mutation($org: ID!, $input: CreateInviteLinkInput!) {
  createInviteLink(organizationId: $org, input: $input) { id role redundant } }`
	invGQLUpdate = `mutation($org: ID!, $id: ID!, $input: UpdateInviteLinkInput!) {
  updateInviteLink(organizationId: $org, inviteId: $id, input: $input) { id role redundant } }`
	invGQLDelete = `mutation($org: ID!, $id: ID!) { deleteInviteLink(organizationId: $org, inviteId: $id) }`
	invGQLJoin   = `mutation($org: ID!, $id: ID!) { joinOrganization(organizationId: $org, inviteId: $id) { id role user { email } } }`
	invGQLGet    = `query($org: ID!, $id: ID!) { organization(id: $org) { invite(id: $id) { id role redundant } } }`
	invGQLList   = `query($org: ID!, $first: Int, $after: String) { organization(id: $org) { invites(first: $first, after: $after) {
  totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id role redundant } } } } }`
)

type invGQLNode struct {
	ID        string  `json:"id"`
	Role      *string `json:"role"`
	Redundant bool    `json:"redundant"`
}

func TestInvitesGraphQLCreate(t *testing.T) {
	f := newMemFixture(t)
	vars := func(input map[string]any) map[string]any { return map[string]any{"org": f.org, "input": input} }
	var out struct{ CreateInviteLink invGQLNode }
	t.Run("OK", func(t *testing.T) {
		f.gql(t, f.admin, invGQLCreate, vars(map[string]any{"role": "EDIT"}), &out)
		i := out.CreateInviteLink
		if i.ID == "" || i.Role == nil || *i.Role != "EDIT" || !i.Redundant || invRoleName(f.getInvite(t, i.ID)) != "edit" {
			t.Fatalf("invite %+v", i)
		}
	})
	t.Run("OKNullRoleInvitesGuests", func(t *testing.T) {
		f.gql(t, f.admin, invGQLCreate, vars(map[string]any{"role": nil}), &out)
		if out.CreateInviteLink.Role != nil || invRoleName(f.getInvite(t, out.CreateInviteLink.ID)) != "guest" {
			t.Fatalf("invite %+v, want a guest invite", out.CreateInviteLink)
		}
	})
	t.Run("ErrUnknownRole", func(t *testing.T) {
		f.gqlFails(t, f.admin, invGQLCreate, vars(map[string]any{"role": "OWNER"}), "GRAPHQL_VALIDATION_FAILED", "Role")
	})
	for _, c := range invAccess(201)[1:] {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			f.gqlFails(t, f.actor(c.actor), invGQLCreate, vars(map[string]any{"role": "READ"}), memGQLCode[c.status])
		})
	}
	t.Run("ErrDisabled", func(t *testing.T) {
		f.disableInvites(t)
		f.gqlFails(t, f.admin, invGQLCreate, vars(map[string]any{"role": "READ"}), "BAD_REQUEST", "inviteLinks")
	})
}

func TestInvitesGraphQLReadUpdateDelete(t *testing.T) {
	f := newMemFixture(t)
	inv := f.invite(t, "edit")
	ids := map[string]any{"org": f.org, "id": inv.ID}
	t.Run("OKGet", func(t *testing.T) {
		var out struct{ Organization struct{ Invite invGQLNode } }
		f.gql(t, f.admin, invGQLGet, ids, &out)
		if i := out.Organization.Invite; i.ID != inv.ID || *i.Role != "EDIT" || !i.Redundant {
			t.Fatalf("invite %+v", i)
		}
	})
	t.Run("OKUpdate", func(t *testing.T) {
		var out struct{ UpdateInviteLink invGQLNode }
		f.gql(t, f.admin, invGQLUpdate, map[string]any{"org": f.org, "id": inv.ID, "input": map[string]any{"role": "COMMENT"}}, &out)
		if *out.UpdateInviteLink.Role != "COMMENT" || invRoleName(f.getInvite(t, inv.ID)) != "comment" {
			t.Fatalf("invite %+v", out.UpdateInviteLink)
		}
	})
	t.Run("OKUpdateToGuest", func(t *testing.T) {
		var out struct{ UpdateInviteLink invGQLNode }
		f.gql(t, f.admin, invGQLUpdate, map[string]any{"org": f.org, "id": inv.ID, "input": map[string]any{"role": nil}}, &out)
		if out.UpdateInviteLink.Role != nil || invRoleName(f.getInvite(t, inv.ID)) != "guest" {
			t.Fatalf("invite %+v, want a guest invite", out.UpdateInviteLink)
		}
	})
	for _, c := range invAccess(200)[1:] {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			code := memGQLCode[c.status]
			f.gqlFails(t, f.actor(c.actor), invGQLGet, ids, code)
			f.gqlFails(t, f.actor(c.actor), invGQLUpdate, map[string]any{"org": f.org, "id": inv.ID, "input": map[string]any{"role": "ADMIN"}}, code)
			f.gqlFails(t, f.actor(c.actor), invGQLDelete, ids, code)
		})
	}
	t.Run("OKDelete", func(t *testing.T) {
		var out struct{ DeleteInviteLink bool }
		f.gql(t, f.admin, invGQLDelete, ids, &out)
		if !out.DeleteInviteLink {
			t.Fatal("deleteInviteLink answered false")
		}
	})
	t.Run("ErrGetAfterDelete", func(t *testing.T) {
		f.gqlFails(t, f.admin, invGQLGet, ids, "NOT_FOUND")
		f.gqlFails(t, f.admin, invGQLDelete, ids, "NOT_FOUND")
	})
}

func TestInvitesGraphQLList(t *testing.T) {
	f := newMemFixture(t)
	for i := 0; i < 5; i++ {
		f.invite(t, "read")
	}
	type conn struct {
		TotalCount int
		PageInfo   struct {
			HasNextPage bool
			EndCursor   *string
		}
		Edges []struct{ Node invGQLNode }
	}
	t.Run("OKPages", func(t *testing.T) {
		vars := map[string]any{"org": f.org, "first": 2}
		var ids []string
		for pages := 0; pages < 10; pages++ {
			var out struct{ Organization struct{ Invites conn } }
			f.gql(t, f.admin, invGQLList, vars, &out)
			c := out.Organization.Invites
			if c.TotalCount != 5 {
				t.Fatalf("totalCount %d, want 5", c.TotalCount)
			}
			for _, e := range c.Edges {
				ids = append(ids, e.Node.ID)
			}
			if !c.PageInfo.HasNextPage {
				break
			}
			vars["after"] = *c.PageInfo.EndCursor
		}
		memUnique(t, ids)
		if len(ids) != 5 {
			t.Fatalf("%d invites over the pages, want 5", len(ids))
		}
	})
	for _, c := range invAccess(200)[1:] {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			f.gqlFails(t, f.actor(c.actor), invGQLList, map[string]any{"org": f.org}, memGQLCode[c.status])
		})
	}
}

func TestInvitesGraphQLJoin(t *testing.T) {
	f := newMemFixture(t)
	inv := f.invite(t, "edit")
	joiner := f.e.User("joiner@example.com", "", nil)
	vars := map[string]any{"org": f.org, "id": inv.ID}
	t.Run("OK", func(t *testing.T) {
		var out struct {
			JoinOrganization struct {
				ID   string
				Role *string
				User struct{ Email string }
			}
		}
		f.gql(t, joiner, invGQLJoin, vars, &out)
		m := out.JoinOrganization
		if m.ID != joiner.UserID || m.Role == nil || *m.Role != "EDIT" || m.User.Email != joiner.Email {
			t.Fatalf("membership %+v", m)
		}
		invWantOnlyOrg(t, f, joiner)
	})
	t.Run("OKTwice", func(t *testing.T) {
		f.gql(t, joiner, invGQLJoin, vars, nil)
		if got := f.role(t, joiner.UserID); got != "edit" {
			t.Fatalf("role %s, want edit", got)
		}
	})
	t.Run("OKGuest", func(t *testing.T) {
		guest := f.e.User("guest-joiner@example.com", "", nil)
		var out struct{ JoinOrganization struct{ Role *string } }
		f.gql(t, guest, invGQLJoin, map[string]any{"org": f.org, "id": f.invite(t, "guest").ID}, &out)
		if out.JoinOrganization.Role != nil {
			t.Fatalf("role %v, want null", *out.JoinOrganization.Role)
		}
	})
	other := f.e.User("other@example.com", "", nil)
	t.Run("ErrUnknownInvite", func(t *testing.T) {
		f.gqlFails(t, other, invGQLJoin, map[string]any{"org": f.org, "id": "nope0000000000000000"}, "NOT_FOUND")
	})
	t.Run("ErrInviteOfAnotherOrg", func(t *testing.T) {
		f.gqlFails(t, other, invGQLJoin, map[string]any{"org": f.otherOrg, "id": inv.ID}, "NOT_FOUND")
	})
	t.Run("ErrDisabled", func(t *testing.T) {
		f.disableInvites(t)
		f.gqlFails(t, other, invGQLJoin, vars, "FORBIDDEN")
		if g := f.e.GraphQL(other, `query($org: ID!) { organization(id: $org) { id } }`, map[string]any{"org": f.org}); g.Code() != "NOT_FOUND" {
			t.Fatalf("the refused joiner sees the organization: %s %+v", g.Data, g.Errors)
		}
	})
	t.Run("ErrNoToken", func(t *testing.T) {
		if g := f.e.GraphQL(testenv.Actor{}, invGQLJoin, vars); g.Status != 401 {
			t.Fatalf("want 401, got %d", g.Status)
		}
	})
}
