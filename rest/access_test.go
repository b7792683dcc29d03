package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// Point reads cost what the object costs (issue 10): the statements of reading one space do not
// grow with the viewer's organizations, the spaces those hold, or the grants made to the viewer.

// maxPointReadStatements bounds a point read of a space: the token with its user and their access
// version (their memberships are read on their first request and when that version moves), the
// space (its access decided in the same statement), and for a viewer whose role comes from
// grants the viewer's grants for Space.permissions.
const maxPointReadStatements = 3

// pointReadWorld is a server where an admin, a reader and a guest (who reads through a grant to a
// team of theirs) belong to orgs organizations of spaces spaces each, with grants on some.
type pointReadWorld struct {
	e                    *testenv.Env
	admin, reader, guest testenv.Actor
	space                string
}

func newPointReadWorld(t *testing.T, orgs, spaces int) pointReadWorld {
	e := testenv.New(t)
	admin, org := e.Bootstrap("admin@example.com", "Org 0")
	w := pointReadWorld{e: e, admin: admin,
		reader: e.User("reader@example.com", org, testenv.Role(viewer.RoleRead)),
		guest:  e.User("guest@example.com", org, nil)}
	sys := accounts.System(context.Background())
	client := e.Store.Client
	for i := range orgs {
		orgID := org
		if i > 0 {
			orgID = client.Organization.Create().SetTitle(fmt.Sprintf("Org %d", i)).SaveX(sys).ID
			client.Member.Create().SetOrganizationID(orgID).SetUserID(admin.UserID).SetRole(viewer.RoleAdmin).ExecX(sys)
			client.Member.Create().SetOrganizationID(orgID).SetUserID(w.reader.UserID).SetRole(viewer.RoleRead).ExecX(sys)
			client.Member.Create().SetOrganizationID(orgID).SetUserID(w.guest.UserID).ExecX(sys)
		}
		team := client.Team.Create().SetOrganizationID(orgID).SetTitle("Readers").SaveX(sys)
		client.TeamMember.Create().SetOrganizationID(orgID).SetTeamID(team.ID).SetUserID(w.guest.UserID).ExecX(sys)
		for j := range spaces {
			s := client.Space.Create().SetOrganizationID(orgID).SetTitle(fmt.Sprintf("S%d", j)).
				SetDefaultLevel(space.DefaultLevelInherit).SaveX(sys)
			if j%3 == 0 {
				client.PermissionGrant.Create().SetOrganizationID(orgID).SetTeamID(team.ID).SetSpaceID(s.ID).
					SetRole(viewer.RoleComment).ExecX(sys)
			}
			if i == 0 && j == 0 {
				w.space = s.ID
			}
		}
	}
	return w
}

func TestPointReadStatements(t *testing.T) {
	small, large := newPointReadWorld(t, 1, 1), newPointReadWorld(t, 8, 60)
	reads := map[string]func(w pointReadWorld, a testenv.Actor) testenv.Response{
		"REST": func(w pointReadWorld, a testenv.Actor) testenv.Response {
			return w.e.Do(a, "GET", "/v1/spaces/"+w.space, nil)
		},
		"GraphQL": func(w pointReadWorld, a testenv.Actor) testenv.Response {
			q := `query($id: ID!) { space(id: $id) { id title permissions { view comment edit } } }`
			g := w.e.GraphQL(a, q, map[string]any{"id": w.space})
			if len(g.Errors) > 0 || len(g.Data) < 10 {
				t.Fatalf("GraphQL answered %s %v", g.Data, g.Errors)
			}
			return testenv.Response{Status: http.StatusOK}
		},
	}
	for surface, read := range reads {
		for who, actor := range map[string]func(w pointReadWorld) testenv.Actor{
			"admin":  func(w pointReadWorld) testenv.Actor { return w.admin },
			"reader": func(w pointReadWorld) testenv.Actor { return w.reader },
			"guest":  func(w pointReadWorld) testenv.Actor { return w.guest },
		} {
			t.Run(surface+"/"+who, func(t *testing.T) {
				count := func(w pointReadWorld) int64 {
					read(w, actor(w)) // the first request of a user reads their memberships too
					var r testenv.Response
					n, byKey := w.e.StatementsByKey(func() { r = read(w, actor(w)) })
					if r.Status != http.StatusOK {
						t.Fatalf("read: %d %s", r.Status, r.Body)
					}
					if byKey < 2 { // the token and the space (decision 334)
						t.Errorf("%d of the point read's %d statements were marked as reads by key, want at least 2", byKey, n)
					}
					return n
				}
				s, l := count(small), count(large)
				t.Logf("statements: %d in 1 organization of 1 space, %d in 8 of 60 with grants", s, l)
				if s != l || l > maxPointReadStatements {
					t.Errorf("a point read costs %d statements in 1 organization of 1 space and %d in 8 of 60; want the same, at most %d",
						s, l, maxPointReadStatements)
				}
			})
		}
	}
}

// TestReaderListStatements: a reader's page of spaces, each in a collection of its own, with the
// reader's permissions on each space and collection, costs the same statements for 3 as for 30
// (the collections above a page are read for all its items at once), on REST and GraphQL.
func TestReaderListStatements(t *testing.T) {
	const q = `query($o: ID!) { organization(id: $o) {
	  spaces(first: 50) { edges { node { id permissions { edit } } } }
	  collections(first: 50) { edges { node { id permissions { admin } } } } } }`
	count := func(n int) (rest, graphQL int64) {
		e := testenv.New(t)
		_, org := e.Bootstrap("admin@example.com", "Org")
		reader := e.User("reader@example.com", org, testenv.Role(viewer.RoleRead))
		sys := accounts.System(context.Background())
		for i := range n {
			col := e.Store.Client.Collection.Create().SetOrganizationID(org).SetTitle(fmt.Sprintf("C%d", i)).
				SetDefaultLevel("inherit").SaveX(sys)
			e.Store.Client.Space.Create().SetOrganizationID(org).SetTitle(fmt.Sprintf("S%d", i)).SetParentID(col.ID).
				SetDefaultLevel(space.DefaultLevelInherit).ExecX(sys)
		}
		rest = gqlStatements(t, e, func() {
			if r := e.Do(reader, "GET", "/v1/orgs/"+org+"/spaces", nil); r.Status != http.StatusOK || r.Map(t)["count"] != float64(n) {
				t.Fatalf("list: %d %s", r.Status, r.Body)
			}
		})
		graphQL = gqlStatements(t, e, func() { gqlOK(t, e.GraphQL(reader, q, map[string]any{"o": org}), &struct{}{}) })
		return rest, graphQL
	}
	smallREST, smallGQL := count(3)
	largeREST, largeGQL := count(30)
	t.Logf("statements: REST %d for 3, %d for 30; GraphQL %d and %d", smallREST, largeREST, smallGQL, largeGQL)
	if smallREST != largeREST || smallGQL != largeGQL {
		t.Errorf("statements grow with the page: REST %d for 3, %d for 30; GraphQL %d and %d", smallREST, largeREST, smallGQL, largeGQL)
	}
}
