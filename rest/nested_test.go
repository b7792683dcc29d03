package rest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// nestedQuery is the peer's nested read (/work/shared/peer/bindery-nested.json): an organization,
// 50 of its spaces, 10 change requests of each, and each change request's author.
const nestedQuery = `query { organization(id: "ORG_ID") { id title spaces(first: 50) { edges { node { id title
  changeRequests(status: null, first: 10) { edges { node { id number subject status createdBy { id displayName } } } } } } } } }`

// nestedStatements is the statements of nestedQuery, whatever the number of spaces: the token
// with its user's access version 1 (their memberships are kept under it after their first
// request), the organization 1, its spaces 1, the change requests of all the spaces 1 (one
// windowed statement), and all their authors 1; access is decided inside those statements. No
// count runs: no totalCount is asked for. The bound is 6.
const nestedStatements = 5

// nestedOrg makes an organization with spaces spaces of crs change requests each, written by
// three members in turn, and returns its admin and id.
func nestedOrg(t *testing.T, spaces, crs int) (*testenv.Env, testenv.Actor, string) {
	t.Helper()
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	authors := []string{admin.UserID}
	for _, name := range []string{"eve", "max"} {
		authors = append(authors, e.User(name+"@example.com", org, testenv.Role(viewer.RoleEdit)).UserID)
	}
	for i := range spaces {
		s := createSpace(t, e, admin, org, map[string]any{"title": fmt.Sprintf("Space %d", i)})
		e.ChangeRequests(s["id"].(string), authors, crs)
	}
	return e, admin, org
}

// nestedCounts runs nestedQuery statementRuns times over spaces spaces of 12 change requests and
// returns each run's statements, after checking the answer.
func nestedCounts(t *testing.T, spaces int) []int64 {
	t.Helper()
	e, admin, org := nestedOrg(t, spaces, 12)
	q := strings.Replace(nestedQuery, "ORG_ID", org, 1)
	var counts []int64
	for range statementRuns {
		var g testenv.GQLResponse
		counts = append(counts, e.Statements(func() { g = e.GraphQL(admin, q, nil) }))
		var d struct {
			Organization struct {
				Spaces struct {
					Edges []struct {
						Node struct {
							ChangeRequests struct {
								Edges []struct {
									Node struct {
										CreatedBy *struct{ ID, DisplayName string }
									}
								}
							}
						}
					}
				}
			}
		}
		gqlOK(t, g, &d)
		if got := len(d.Organization.Spaces.Edges); got != spaces {
			t.Fatalf("%d spaces listed, want %d", got, spaces)
		}
		for _, s := range d.Organization.Spaces.Edges {
			crs := s.Node.ChangeRequests.Edges
			if len(crs) != 10 || crs[0].Node.CreatedBy == nil || crs[0].Node.CreatedBy.DisplayName == "" {
				t.Fatalf("change requests of a space: %+v", crs)
			}
		}
	}
	return counts
}

// TestNestedQueryStatements: the nested query costs the same statements for 5 spaces as for 50,
// on every run, every author of the level in one statement.
func TestNestedQueryStatements(t *testing.T) {
	small, large := nestedCounts(t, 5), nestedCounts(t, 50)
	t.Logf("statements per run: 5 spaces %v, 50 spaces %v", small, large)
	for _, n := range append(small, large...) {
		if n != small[0] || n > nestedStatements {
			t.Fatalf("statements per run: 5 spaces %v, 50 spaces %v; want all equal, at most %d", small, large, nestedStatements)
		}
	}
}

// TestCountsOnlyWhenAsked: asking for the totalCount of the spaces and of each space's change
// requests costs two statements more (one grouped count per level), and not asking costs none.
func TestCountsOnlyWhenAsked(t *testing.T) {
	e, admin, org := nestedOrg(t, 5, 12)
	plain := strings.Replace(nestedQuery, "ORG_ID", org, 1)
	counted := strings.NewReplacer("spaces(first: 50) {", "spaces(first: 50) { totalCount",
		"changeRequests(status: null, first: 10) {", "changeRequests(status: null, first: 10) { totalCount").Replace(plain)
	var g testenv.GQLResponse
	without := gqlStatements(t, e, func() { g = e.GraphQL(admin, plain, nil) })
	gqlOK(t, g, &struct{}{})
	with := gqlStatements(t, e, func() { g = e.GraphQL(admin, counted, nil) })
	var d struct {
		Organization struct {
			Spaces struct {
				TotalCount int
				Edges      []struct {
					Node struct{ ChangeRequests struct{ TotalCount int } }
				}
			}
		}
	}
	gqlOK(t, g, &d)
	if d.Organization.Spaces.TotalCount != 5 || d.Organization.Spaces.Edges[0].Node.ChangeRequests.TotalCount != 12 {
		t.Fatalf("counts: %+v", d.Organization.Spaces)
	}
	if without > nestedStatements || with != without+2 {
		t.Fatalf("statements: %d without totalCount, %d with; want at most %d, and 2 more", without, with, nestedStatements)
	}
}
