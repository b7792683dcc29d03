package rest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testenv"
)

// nestedQuery is the peer's nested read (/work/shared/peer/bindery-nested.json): an organization,
// 50 of its spaces, 10 change requests of each, and each change request's author.
const nestedQuery = `query { organization(id: "ORG_ID") { id title spaces(first: 50) { edges { node { id title
  changeRequests(status: null, first: 10) { edges { node { id number subject status createdBy { id displayName } } } } } } } } }`

// nestedStatements bounds the statements of nestedQuery, whatever the number of spaces:
// authentication 3 (token, user, memberships), the viewer's content snapshot 3 (the access
// filters' cost, to go), the organization 1, its spaces 1, the change requests of all the spaces 1
// (one windowed statement), and their authors 1. No count runs: no totalCount is asked for.
const nestedStatements = 10

// nestedOrg makes an organization with spaces spaces of crs change requests each, written by
// three members in turn, and returns its admin and id.
func nestedOrg(t *testing.T, spaces, crs int) (*testenv.Env, testenv.Actor, string) {
	t.Helper()
	e := testenv.New(t, batchingOptions)
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
