package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// graphQLTree reads every organization of the viewer with its members, their users, counts and
// teams, and its teams with their members: the nested lists the loaders must batch by level.
const graphQLTree = `{ organizations(first: 50) { edges { node { id
  members(first: 50) { totalCount edges { node { id role user { id email } teamCount spaceCount
    teams(first: 5) { totalCount edges { node { team { title memberCount } } } } } } }
  teams(first: 10) { edges { node { title memberCount members(first: 5) { edges { node { user { email } } } } } } } } } } }`

// maxTreeStatements bounds the statements of graphQLTree, whatever the number of organizations.
// Measured on SQLite and PostgreSQL: 20 on every run (authentication: token, user, memberships;
// then a page statement per connection level and a count statement per counted one, one per
// counted field and per looked-up object kind and level); the bound leaves room for a few more.
const maxTreeStatements = 30

// statementRuns is how many times a statement count is measured. Lookups batch by level, not by
// time, so every run must count the same.
const statementRuns = 5

// batchingOptions lifts the complexity limit for the wide trees of the statement-count tests.
func batchingOptions(o *server.Options) {
	o.Limits.Complexity = 1 << 30 // the tree costs far more than 5000 (50 × 50 × …)
}

// gqlStatements returns the statement count of fn, the same on each of statementRuns runs.
func gqlStatements(t *testing.T, e *testenv.Env, fn func()) int64 {
	t.Helper()
	fn() // a user's first request also reads their memberships, kept under their access version
	var counts []int64
	for range statementRuns {
		counts = append(counts, e.Statements(fn))
		if counts[len(counts)-1] != counts[0] {
			t.Fatalf("statements differ from run to run: %v", counts)
		}
	}
	return counts[0]
}

// gqlJoinOrgs makes a user who belongs to n organizations, each with 5 members and 2 teams; the
// user joins each through an invite link, over REST.
func gqlJoinOrgs(t *testing.T, e *testenv.Env, n int) testenv.Actor {
	t.Helper()
	u := e.User("multi@example.com", "", nil)
	for i := range n {
		admin, org := e.Bootstrap(fmt.Sprintf("admin%d@example.com", i), fmt.Sprintf("Org %d", i))
		for j := range 3 {
			e.User(fmt.Sprintf("m%d-%d@example.com", i, j), org, testenv.Role(viewer.RoleEdit))
		}
		gqlStatus(t, e.Do(admin, "PATCH", "/v1/orgs/"+org, map[string]any{"inviteLinks": true}), http.StatusOK)
		inv := e.Do(admin, "POST", "/v1/orgs/"+org+"/link-invites", map[string]any{"role": "read"})
		gqlStatus(t, inv, http.StatusCreated, http.StatusOK)
		inviteID, _ := inv.Map(t)["id"].(string)
		join := e.Do(u, "POST", "/v1/orgs/"+org+"/invites/"+inviteID, nil)
		if join.Status >= 300 {
			t.Fatalf("join %s: %d %s", org, join.Status, join.Body)
		}
		for _, title := range []string{"Writers", "Editors"} {
			gqlStatus(t, e.Do(admin, "PUT", "/v1/orgs/"+org+"/teams",
				map[string]any{"title": title, "members": []string{admin.UserID, u.UserID}}), http.StatusCreated)
		}
	}
	return u
}

func gqlStatus(t *testing.T, r testenv.Response, want ...int) {
	t.Helper()
	for _, w := range want {
		if r.Status == w {
			return
		}
	}
	t.Fatalf("status %d, want %v: %s", r.Status, want, r.Body)
}

// gqlTreeStatements runs graphQLTree as a member of n organizations, checks the answer, and
// returns its statements.
func gqlTreeStatements(t *testing.T, n int) int64 {
	t.Helper()
	e := testenv.New(t, batchingOptions)
	u := gqlJoinOrgs(t, e, n)
	var g testenv.GQLResponse
	count := gqlStatements(t, e, func() { g = e.GraphQL(u, graphQLTree, nil) })
	if len(g.Errors) > 0 || g.Status != http.StatusOK {
		t.Fatalf("query failed: %d %+v", g.Status, g.Errors)
	}
	var data struct {
		Organizations struct {
			Edges []struct {
				Node struct {
					Members struct {
						TotalCount int
						Edges      []struct {
							Node struct {
								User  struct{ Email string }
								Teams struct {
									TotalCount int
									Edges      []struct{}
								}
							}
						}
					}
					Teams struct {
						Edges []struct {
							Node struct {
								MemberCount int
								Members     struct{ Edges []struct{} }
							}
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(g.Data, &data); err != nil {
		t.Fatal(err)
	}
	if got := len(data.Organizations.Edges); got != n {
		t.Fatalf("organizations = %d, want %d", got, n)
	}
	for _, o := range data.Organizations.Edges {
		if o.Node.Members.TotalCount != 5 || len(o.Node.Members.Edges) != 5 || len(o.Node.Teams.Edges) != 2 {
			t.Fatalf("organization tree incomplete: %s", g.Data)
		}
		for _, m := range o.Node.Members.Edges {
			// The user and the admin are in both teams of each organization, nobody else is.
			want := 0
			if m.Node.User.Email == "multi@example.com" || strings.HasPrefix(m.Node.User.Email, "admin") {
				want = 2
			}
			if m.Node.Teams.TotalCount != want || len(m.Node.Teams.Edges) != want {
				t.Fatalf("%s: %d teams, want %d (only this organization's): %s", m.Node.User.Email,
					m.Node.Teams.TotalCount, want, g.Data)
			}
		}
		for _, tm := range o.Node.Teams.Edges {
			if tm.Node.MemberCount != 2 || len(tm.Node.Members.Edges) != 2 {
				t.Fatalf("team incomplete: %s", g.Data)
			}
		}
	}
	return count
}

func TestGraphQLStatementsConstantInOrganizations(t *testing.T) {
	two := gqlTreeStatements(t, 2)
	eight := gqlTreeStatements(t, 8)
	t.Logf("statements: N=2 → %d, N=8 → %d", two, eight)
	if eight > two {
		t.Errorf("statements grow with organizations: N=2 → %d, N=8 → %d", two, eight)
	}
	if eight > maxTreeStatements {
		t.Errorf("statements = %d, want at most %d", eight, maxTreeStatements)
	}
}

// gqlListStatements counts the statements of GET /v1/orgs/{id}/members with n members.
func gqlListStatements(t *testing.T, n int) int64 {
	t.Helper()
	e := testenv.New(t, batchingOptions)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	for i := 1; i < n; i++ {
		e.User(fmt.Sprintf("u%d@example.com", i), org, testenv.Role(viewer.RoleRead))
	}
	var r testenv.Response
	count := gqlStatements(t, e, func() { r = e.Do(admin, "GET", "/v1/orgs/"+org+"/members", nil) })
	gqlStatus(t, r, http.StatusOK)
	if got := r.Map(t)["count"]; got != float64(n) {
		t.Fatalf("count = %v, want %d", got, n)
	}
	return count
}

func TestRESTMemberListStatementsConstant(t *testing.T) {
	five, forty := gqlListStatements(t, 5), gqlListStatements(t, 40)
	t.Logf("statements: 5 members → %d, 40 members → %d", five, forty)
	if forty > five {
		t.Errorf("statements grow with members: 5 → %d, 40 → %d", five, forty)
	}
}

// gqlNestedTeams returns a query of exactly the given depth (at least 5), counted as the server
// counts it (a top-level field is 1, leaves included): organization → teams → edges → node, then
// members → edges → node → team as often as it fits, then a tail of the missing levels.
func gqlNestedTeams(depth int) string {
	var b strings.Builder
	b.WriteString(`query($id: ID!) { organization(id: $id) { teams(first: 1) { edges { node { `)
	closes, rest := 4, depth-4
	for ; rest > 4; rest -= 4 {
		b.WriteString(`members(first: 1) { edges { node { team { `)
		closes += 4
	}
	tails := map[int]string{1: `id`, 2: `permissions { admin }`, 3: `members(first: 1) { edges { cursor } }`,
		4: `members(first: 1) { edges { node { id } } }`}
	b.WriteString(tails[rest])
	b.WriteString(strings.Repeat(` }`, closes+1))
	return b.String()
}

func TestGraphQLLimits(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	vars := map[string]any{"id": org}
	t.Run("OKDepthUnderLimit", func(t *testing.T) {
		for d := 5; d <= 12; d++ {
			if g := e.GraphQL(admin, gqlNestedTeams(d), vars); len(g.Errors) > 0 {
				t.Fatalf("depth %d: %+v", d, g.Errors)
			}
		}
	})
	t.Run("ErrDepth", func(t *testing.T) {
		for _, d := range []int{13, 40} {
			g := e.GraphQL(admin, gqlNestedTeams(d), vars)
			gqlExpectError(t, g, "DEPTH_LIMIT_EXCEEDED")
			if want := fmt.Sprintf("depth %d", d); !strings.Contains(g.Errors[0].Message, want) {
				t.Errorf("message %q does not say %q", g.Errors[0].Message, want)
			}
		}
	})
	t.Run("ErrComplexity", func(t *testing.T) {
		g := e.GraphQL(admin, `{ organizations(first: 1000) { edges { node { members(first: 1000) { edges { node { id } } } } } } }`, nil)
		gqlExpectError(t, g, "COMPLEXITY_LIMIT_EXCEEDED")
	})
	t.Run("OKThirtyAliases", func(t *testing.T) {
		g := e.GraphQL(admin, gqlAliases(30), nil)
		if len(g.Errors) > 0 {
			t.Fatalf("errors: %+v", g.Errors)
		}
	})
	t.Run("ErrAliases", func(t *testing.T) {
		gqlExpectError(t, e.GraphQL(admin, gqlAliases(31), nil), "ALIAS_LIMIT_EXCEEDED")
	})
	t.Run("ErrTokens", func(t *testing.T) {
		// 3,300 operations of 5 tokens: within every bound of the document's shape but its tokens.
		var q strings.Builder
		for i := range 3300 {
			fmt.Fprintf(&q, "query Q%d { __typename } ", i)
		}
		g := e.GraphQL(admin, q.String(), nil)
		gqlExpectError(t, g, "GRAPHQL_PARSE_FAILED")
		if !strings.Contains(strings.ToLower(g.Errors[0].Message), "token") {
			t.Errorf("message %q does not name the token limit", g.Errors[0].Message)
		}
	})
	t.Run("ErrBodyTooLarge", func(t *testing.T) {
		body := fmt.Sprintf(`{"query":"{ viewer { id } }","variables":{"pad":%q}}`, strings.Repeat("x", 1<<20))
		r := e.Raw(admin, "POST", "/graphql", "application/json", strings.NewReader(body))
		testenv.CheckError(t, r, http.StatusRequestEntityTooLarge)
	})
	t.Run("OKIntrospection", func(t *testing.T) {
		g := e.GraphQL(admin, `{ __schema { queryType { name } } }`, nil)
		if len(g.Errors) > 0 || !bytes.Contains(g.Data, []byte(`"Query"`)) {
			t.Fatalf("introspection: %d %s %+v", g.Status, g.Data, g.Errors)
		}
	})
	t.Run("ErrSyntax", func(t *testing.T) {
		gqlExpectError(t, e.GraphQL(admin, `{ viewer { id `, nil), "GRAPHQL_PARSE_FAILED")
	})
	t.Run("ErrUnknownField", func(t *testing.T) {
		gqlExpectError(t, e.GraphQL(admin, `{ viewer { nope } }`, nil), "GRAPHQL_VALIDATION_FAILED")
	})
	t.Run("ErrVariableType", func(t *testing.T) {
		g := e.GraphQL(admin, `query($n: Int) { organizations(first: $n) { totalCount } }`, map[string]any{"n": "ten"})
		gqlExpectError(t, g, "GRAPHQL_VALIDATION_FAILED")
	})
	t.Run("ErrMissingVariable", func(t *testing.T) {
		g := e.GraphQL(admin, `query($id: ID!) { organization(id: $id) { id } }`, nil)
		gqlExpectError(t, g, "GRAPHQL_VALIDATION_FAILED")
	})
	t.Run("ErrUnknownEnumInVariables", func(t *testing.T) {
		g := e.GraphQL(admin, `query($id: ID!, $r: MemberRoleFilter) { organization(id: $id) { members(role: $r) { totalCount } } }`,
			map[string]any{"id": org, "r": "OVERLORD"})
		gqlExpectError(t, g, "GRAPHQL_VALIDATION_FAILED")
		g = e.GraphQL(admin, `mutation($o: ID!, $u: ID!, $in: UpdateMemberInput!) { updateMember(organizationId: $o, userId: $u, input: $in) { id } }`,
			map[string]any{"o": org, "u": admin.UserID, "in": map[string]any{"role": "OVERLORD"}})
		gqlExpectError(t, g, "GRAPHQL_VALIDATION_FAILED")
		g = e.GraphQL(admin, `mutation($o: ID!, $t: ID!, $u: ID!, $r: TeamRole) { setTeamMember(organizationId: $o, teamId: $t, userId: $u, role: $r) { id } }`,
			map[string]any{"o": org, "t": "nope", "u": admin.UserID, "r": "BOSS"})
		gqlExpectError(t, g, "GRAPHQL_VALIDATION_FAILED")
	})
	t.Run("ErrUnknownEnumLiteral", func(t *testing.T) {
		g := e.GraphQL(admin, `query($id: ID!) { organization(id: $id) { members(role: OVERLORD) { totalCount } } }`, vars)
		gqlExpectError(t, g, "GRAPHQL_VALIDATION_FAILED")
	})
	t.Run("ErrFirstOutOfRange", func(t *testing.T) {
		gqlExpectError(t, e.GraphQL(admin, `{ organizations(first: 1001) { totalCount } }`, nil), "BAD_REQUEST")
	})
}

// gqlAliases returns a query using n aliases.
func gqlAliases(n int) string {
	var b strings.Builder
	b.WriteString("{ ")
	for i := range n {
		fmt.Fprintf(&b, "a%d: viewer { id } ", i)
	}
	b.WriteString("}")
	return b.String()
}

// gqlExpectError asserts a GraphQL error answer (never a 500), with the code when code is not "".
func gqlExpectError(t *testing.T, g testenv.GQLResponse, code string) {
	t.Helper()
	if g.Status >= 500 {
		t.Fatalf("HTTP %d", g.Status)
	}
	if len(g.Errors) == 0 {
		t.Fatalf("no error; data %s", g.Data)
	}
	if g.Errors[0].Message == "" {
		t.Errorf("error without a message: %+v", g.Errors[0])
	}
	if code != "" && g.Code() != code {
		t.Errorf("code = %q, want %q (%s)", g.Code(), code, g.Errors[0].Message)
	}
	if g.Code() == "INTERNAL" {
		t.Errorf("internal error: %+v", g.Errors)
	}
}

func TestGraphQLLimitsConfigurable(t *testing.T) {
	t.Run("ErrDepth", func(t *testing.T) {
		e := testenv.New(t, func(o *server.Options) { o.Limits.Depth = 3 })
		admin, _ := e.Bootstrap("ada@example.com", "Acme")
		// organizations(1) edges(2) node(3) id(4)
		if g := e.GraphQL(admin, `{ organizations { pageInfo { hasNextPage } } }`, nil); len(g.Errors) > 0 {
			t.Fatalf("depth 3 refused: %+v", g.Errors)
		}
		gqlExpectError(t, e.GraphQL(admin, `{ organizations { edges { node { id } } } }`, nil), "DEPTH_LIMIT_EXCEEDED")
	})
	t.Run("ErrComplexity", func(t *testing.T) {
		e := testenv.New(t, func(o *server.Options) { o.Limits.Complexity = 20 })
		admin, _ := e.Bootstrap("ada@example.com", "Acme")
		for range 2 { // a kept document is refused again (limits.Static)
			gqlExpectError(t, e.GraphQL(admin, `{ organizations(first: 30) { edges { node { id } } } }`, nil),
				"COMPLEXITY_LIMIT_EXCEEDED")
		}
		query := `query($n: Int) { organizations(first: $n) { edges { node { id } } } }`
		if g := e.GraphQL(admin, query, map[string]any{"n": 5}); len(g.Errors) > 0 {
			t.Fatalf("first: 5 refused: %+v", g.Errors)
		}
		gqlExpectError(t, e.GraphQL(admin, query, map[string]any{"n": 30}), "COMPLEXITY_LIMIT_EXCEEDED")
	})
	t.Run("ErrAliases", func(t *testing.T) {
		e := testenv.New(t, func(o *server.Options) { o.Limits.Aliases = 2 })
		admin, _ := e.Bootstrap("ada@example.com", "Acme")
		if g := e.GraphQL(admin, gqlAliases(2), nil); len(g.Errors) > 0 {
			t.Fatalf("2 aliases refused: %+v", g.Errors)
		}
		gqlExpectError(t, e.GraphQL(admin, gqlAliases(3), nil), "ALIAS_LIMIT_EXCEEDED")
	})
	t.Run("ErrTokens", func(t *testing.T) {
		e := testenv.New(t, func(o *server.Options) { o.Limits.Tokens = 20 })
		admin, _ := e.Bootstrap("ada@example.com", "Acme")
		if g := e.GraphQL(admin, gqlAliases(2), nil); len(g.Errors) > 0 { // 14 tokens
			t.Fatalf("14 tokens refused: %+v", g.Errors)
		}
		gqlExpectError(t, e.GraphQL(admin, gqlAliases(5), nil), "GRAPHQL_PARSE_FAILED") // 32 tokens
	})
	t.Run("ErrBodyTooLarge", func(t *testing.T) {
		e := testenv.New(t, func(o *server.Options) { o.MaxBody = 1000 })
		admin, _ := e.Bootstrap("ada@example.com", "Acme")
		r := e.Raw(admin, "POST", "/graphql", "application/json",
			strings.NewReader(fmt.Sprintf(`{"query":%q}`, gqlAliases(60))))
		testenv.CheckError(t, r, http.StatusRequestEntityTooLarge)
	})
	t.Run("ErrIntrospectionOff", func(t *testing.T) {
		e := testenv.New(t, func(o *server.Options) { o.Limits.Introspection = false })
		admin, _ := e.Bootstrap("ada@example.com", "Acme")
		for _, q := range []string{`{ __schema { queryType { name } } }`, `{ __type(name: "User") { name } }`} {
			g := e.GraphQL(admin, q, nil)
			gqlExpectError(t, g, "GRAPHQL_VALIDATION_FAILED")
			if !strings.Contains(g.Errors[0].Message, "introspection") {
				t.Errorf("message %q does not say introspection is off", g.Errors[0].Message)
			}
		}
		if g := e.GraphQL(admin, `{ viewer { id } }`, nil); len(g.Errors) > 0 {
			t.Fatalf("queries fail without introspection: %+v", g.Errors)
		}
	})
}

func TestGraphQLErrorCodes(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	reader := e.User("rob@example.com", org, testenv.Role(viewer.RoleRead))
	t.Run("ErrNotFound", func(t *testing.T) {
		g := e.GraphQL(admin, `{ organization(id: "nope") { id } }`, nil)
		gqlExpectError(t, g, "NOT_FOUND")
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		g := e.GraphQL(reader, `mutation($id: ID!) { updateOrganization(id: $id, input: {title: "Taken"}) { id } }`,
			map[string]any{"id": org})
		gqlExpectError(t, g, "FORBIDDEN")
		r := e.Do(admin, "GET", "/v1/orgs/"+org, nil)
		if title := r.Map(t)["title"]; title != "Acme" {
			t.Errorf("title changed to %v", title)
		}
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		for _, a := range []testenv.Actor{{}, {Token: "bdy_bogus"}} {
			r := e.Raw(a, "POST", "/graphql", "application/json", strings.NewReader(`{"query":"{ viewer { id } }"}`))
			testenv.CheckError(t, r, http.StatusUnauthorized)
		}
	})
}

// TestNestedPagesHoldTheirParentsRows: each organization's page of members holds that
// organization's newest members, whatever else the viewer reads. Who may read a membership is an
// OR (a member of the organization, or the member themself), which the page's condition on each
// parent must not split: read as "a OR (b AND parent)", the second organization's members, who
// joined last, filled the first organization's page too, on GraphQL and REST (decision 340).
func TestNestedPagesHoldTheirParentsRows(t *testing.T) {
	e := testenv.New(t)
	admin, first := e.Bootstrap("admin@example.com", "First")
	sys := accounts.System(context.Background())
	second := e.Store.Client.Organization.Create().SetTitle("Second").SaveX(sys).ID
	e.Store.Client.Member.Create().SetOrganizationID(second).SetUserID(admin.UserID).SetRole(viewer.RoleAdmin).ExecX(sys)
	var firstMembers []string // user ids, newest first
	for _, org := range []struct{ id, prefix string }{{first, "first"}, {second, "second"}} {
		for i := range 3 {
			u := e.User(fmt.Sprintf("%s%d@example.com", org.prefix, i), org.id, testenv.Role(viewer.RoleRead))
			if org.id == first {
				firstMembers = append([]string{u.UserID}, firstMembers...)
			}
		}
	}
	var rest memList // REST reads its page through the same statement, with one parent
	if r := e.Do(admin, "GET", "/v1/orgs/"+first+"/members?limit=2", nil); r.Status != http.StatusOK {
		t.Fatalf("REST members: %d %s", r.Status, r.Body)
	} else {
		r.JSON(t, &rest)
	}
	if got := memIDs(rest.Items); !slices.Equal(got, firstMembers[:2]) {
		t.Errorf("REST: First's first page of members: %v, want %v", got, firstMembers[:2])
	}
	const q = `{ organizations(first: 10) { edges { node { title
	  members(first: 2) { edges { node { user { email } } } } } } } }`
	var data struct {
		Organizations struct {
			Edges []struct {
				Node struct {
					Title   string
					Members struct {
						Edges []struct {
							Node struct{ User struct{ Email string } }
						}
					}
				}
			}
		}
	}
	gqlOK(t, e.GraphQL(admin, q, nil), &data)
	want := map[string][]string{
		"First":  {"first2@example.com", "first1@example.com"},
		"Second": {"second2@example.com", "second1@example.com"},
	}
	for _, o := range data.Organizations.Edges {
		var got []string
		for _, m := range o.Node.Members.Edges {
			got = append(got, m.Node.User.Email)
		}
		if !slices.Equal(got, want[o.Node.Title]) {
			t.Errorf("%s's first page of members: %v, want %v", o.Node.Title, got, want[o.Node.Title])
		}
		delete(want, o.Node.Title)
	}
	if len(want) > 0 {
		t.Errorf("organizations missing: %v", want)
	}
}

// TestEdgeCursorsThroughFragments: an edge's cursor is written when a query selects it, also
// through a named or an inline fragment (edges are built without cursors when none is asked,
// decision 344), and it reads the next page.
func TestEdgeCursorsThroughFragments(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("admin@example.com", "Cursors")
	e.User("reader@example.com", org, testenv.Role(viewer.RoleRead))
	const q = `query($after: String) { organizations(first: 1) { edges { ...OrgEdge } } }
	fragment OrgEdge on OrganizationEdge { cursor node { members(first: 1, after: $after) {
	  ... on MemberConnection { edges { cursor node { user { email } } } } } } }`
	type members struct {
		Edges []struct {
			Cursor string
			Node   struct{ User struct{ Email string } }
		}
	}
	read := func(after any) members {
		var data struct {
			Organizations struct {
				Edges []struct {
					Cursor string
					Node   struct{ Members members }
				}
			}
		}
		gqlOK(t, e.GraphQL(admin, q, map[string]any{"after": after}), &data)
		if len(data.Organizations.Edges) != 1 || data.Organizations.Edges[0].Cursor == "" {
			t.Fatalf("organization edge without its cursor: %+v", data)
		}
		m := data.Organizations.Edges[0].Node.Members
		if len(m.Edges) != 1 || m.Edges[0].Cursor == "" {
			t.Fatalf("member edge without its cursor: %+v", m)
		}
		return m
	}
	first := read(nil)
	second := read(first.Edges[0].Cursor)
	if first.Edges[0].Node.User.Email == second.Edges[0].Node.User.Email {
		t.Errorf("the page after %s starts with it again", first.Edges[0].Node.User.Email)
	}
}

// deferredQueries ask @defer on an object (two deferred fragments, one labelled) and on the
// objects of a list; each with its first part (where gqlgen answers null for a deferred field
// it resolves apart, and already writes one it reads from the object, a title) and the answer
// once every deferred part is in.
func deferredQueries(org, space string) []struct{ name, query, initial, whole string } {
	return []struct{ name, query, initial, whole string }{
		{"Object", `{ space(id: "` + space + `") { id ... @defer(label: "a") { organization { id } } ... @defer { changeRequests(first: 1) { totalCount } } } }`,
			`{"space":{"id":"` + space + `","organization":null,"changeRequests":null}}`,
			`{"space":{"changeRequests":{"totalCount":0},"id":"` + space + `","organization":{"id":"` + org + `"}}}`},
		{"InAList", `{ organization(id: "` + org + `") { spaces(first: 2) { edges { node { id ... @defer { title organization { id } } } } } } }`,
			`{"organization":{"spaces":{"edges":[{"node":{"id":"` + space + `","title":"First","organization":null}}]}}}`,
			`{"organization":{"spaces":{"edges":[{"node":{"id":"` + space + `","organization":{"id":"` + org + `"},"title":"First"}}]}}}`},
	}
}

// TestDeferredFields: @defer is answered as gqlgen answers it. A client that accepts
// multipart/mixed gets the deferred fields in the later parts of the answer; one JSON body carries
// the first part only, as gqlgen's POST transport answers, with hasNext. Run under -race too.
func TestDeferredFields(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("admin@example.com", "Deferred")
	space := e.Do(admin, http.MethodPost, "/v1/orgs/"+org+"/spaces", map[string]any{"title": "First"}).Map(t)["id"].(string)
	for _, c := range deferredQueries(org, space) {
		body := `{"query":` + strconv.Quote(c.query) + `}`
		t.Run("Multipart/"+c.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, e.Server.URL+"/graphql", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+admin.Token)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "multipart/mixed; deferSpec=20220824, application/json")
			if got := assembleParts(t, e.Send(req)); got != c.whole {
				t.Errorf("assembled %s, want %s", got, c.whole)
			}
		})
		t.Run("JSON/"+c.name, func(t *testing.T) {
			res := e.Raw(admin, http.MethodPost, "/graphql", "application/json", strings.NewReader(body))
			want := `{"data":` + c.initial + `,"hasNext":true}`
			if res.Status != http.StatusOK || string(res.Body) != want {
				t.Errorf("got %d %s, want %s", res.Status, res.Body, want)
			}
		})
	}
}

// assembleParts reads a multipart/mixed GraphQL answer and returns its data with every
// incremental part put in place, as a client does (re-encoded, so object keys come sorted).
func assembleParts(t *testing.T, res testenv.Response) string {
	t.Helper()
	mediaType, params, err := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if res.Status != http.StatusOK || err != nil || mediaType != "multipart/mixed" {
		t.Fatalf("%d %s: %s", res.Status, res.Header.Get("Content-Type"), res.Body)
	}
	parts := multipart.NewReader(bytes.NewReader(res.Body), params["boundary"])
	var data map[string]any
	for {
		part, err := parts.NextPart()
		if err == io.EOF {
			break
		}
		var payload struct {
			Data        map[string]any `json:"data"`
			Errors      []any          `json:"errors"`
			Incremental []struct {
				Data   map[string]any `json:"data"`
				Path   []any          `json:"path"`
				Errors []any          `json:"errors"`
			} `json:"incremental"`
		}
		if err != nil || json.NewDecoder(part).Decode(&payload) != nil || len(payload.Errors) > 0 {
			t.Fatalf("part of %s: %v", res.Body, err)
		}
		if data == nil {
			data = payload.Data
		}
		for _, inc := range payload.Incremental {
			if len(inc.Errors) > 0 {
				t.Fatalf("deferred part with errors: %s", res.Body)
			}
			maps.Copy(objectAt(t, data, inc.Path), inc.Data)
		}
	}
	whole, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return string(whole)
}

// objectAt returns the object at path (names and indexes) in data.
func objectAt(t *testing.T, data any, path []any) map[string]any {
	t.Helper()
	for _, step := range path {
		switch s := step.(type) {
		case string:
			data = data.(map[string]any)[s]
		case float64:
			data = data.([]any)[int(s)]
		}
	}
	object, ok := data.(map[string]any)
	if !ok {
		t.Fatalf("no object at %v", path)
	}
	return object
}

// fieldRecorder is a field middleware: it notes the path of every field it sees resolved.
type fieldRecorder struct {
	mu    sync.Mutex
	paths []string
}

func (*fieldRecorder) ExtensionName() string                   { return "fieldRecorder" }
func (*fieldRecorder) Validate(graphql.ExecutableSchema) error { return nil }
func (f *fieldRecorder) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	f.mu.Lock()
	f.paths = append(f.paths, graphql.GetFieldContext(ctx).Path().String())
	f.mu.Unlock()
	return next(ctx)
}

// TestFieldMiddlewareSeesEveryField: a field middleware installed through the server's options
// runs for every field of an answer, scalars of ent entities, edges and lists included.
func TestFieldMiddlewareSeesEveryField(t *testing.T) {
	recorder := &fieldRecorder{}
	e := testenv.New(t, testenv.WithoutReadCache, func(o *server.Options) {
		o.GraphQLExtensions = append(o.GraphQLExtensions, recorder)
	})
	admin, org := e.Bootstrap("admin@example.com", "Fields")
	for _, title := range []string{"First", "Second"} {
		e.Do(admin, http.MethodPost, "/v1/orgs/"+org+"/spaces", map[string]any{"title": title})
	}
	recorder.paths = nil
	g := e.GraphQL(admin, `{ organization(id: "`+org+`") { id title spaces(first: 2) { totalCount edges { cursor node { id title visibility organization { id } } } } } }`, nil)
	if len(g.Errors) > 0 {
		t.Fatalf("%+v", g.Errors)
	}
	want := []string{"organization", "organization.id", "organization.title", "organization.spaces", "organization.spaces.totalCount", "organization.spaces.edges"}
	for i := range 2 {
		edge := fmt.Sprintf("organization.spaces.edges[%d]", i)
		want = append(want, edge+".cursor", edge+".node", edge+".node.id", edge+".node.title", edge+".node.visibility",
			edge+".node.organization", edge+".node.organization.id")
	}
	slices.Sort(want)
	slices.Sort(recorder.paths)
	if !slices.Equal(recorder.paths, want) {
		t.Errorf("the middleware saw\n%s\nwant\n%s", strings.Join(recorder.paths, " "), strings.Join(want, " "))
	}
}
