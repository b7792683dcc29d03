package rest_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// nodeQuery is what Relay sends to read an object by id, and Apollo Client adds __typename to
// every selection.
const nodeQuery = `query NodeQuery($id: ID!) { node(id: $id) { __typename id } }`

// nodeIDs returns the id of an object of every type implementing Node, by type name, from the
// fixture and, for the types the fixture keeps by name, from their ordinary reads.
func nodeIDs(t *testing.T, f *authFixture) map[string]string {
	t.Helper()
	var d struct {
		Organization struct {
			CustomField struct{ ID string }
			OpenAPISpec struct {
				ID          string
				LastVersion struct{ ID string }
			}
		}
	}
	orgGQLData(t, f.e.GraphQL(f.admin, `query($org: ID!, $slug: String!) { organization(id: $org) {
		customField(name: "cf") { id } openAPISpec(slug: $slug) { id lastVersion { id } } } }`,
		map[string]any{"org": f.org, "slug": f.spec}), &d)
	return map[string]string{
		"User": f.admin.UserID, "Organization": f.org, "Collection": f.collection, "Space": f.space,
		"ChangeRequest": f.changeRequest, "Revision": f.spaceRevision, "Comment": f.comment,
		"CommentReply": f.reply, "Team": f.team, "InviteLink": f.invite, "Site": f.site,
		"SiteSpace": f.siteSpace, "OpenAPISpec": d.Organization.OpenAPISpec.ID,
		"OpenAPISpecVersion": d.Organization.OpenAPISpec.LastVersion.ID, "CustomField": d.Organization.CustomField.ID,
		"SAMLProvider": f.saml, "TranslationSettings": f.translation, "Webhook": f.webhook,
		"WebhookDelivery": f.delivery,
	}
}

// nodeOf runs nodeQuery as a and returns node, failing the test on any error.
func nodeOf(t *testing.T, e *testenv.Env, a testenv.Actor, id string) map[string]any {
	t.Helper()
	var d struct{ Node map[string]any }
	orgGQLData(t, e.GraphQL(a, nodeQuery, map[string]any{"id": id}), &d)
	return d.Node
}

// TestNodeReadsEveryType reads an object of every Node type through node and nodes, as the
// admin, a reader and an outsider: each answers what the object's ordinary read answers, and
// null without an error where that read refuses.
func TestNodeReadsEveryType(t *testing.T) {
	f := newAuthFixture(t)
	ids := nodeIDs(t, f)
	// A crComment and its reply are read through their change request.
	ids["Comment (change request)"], ids["CommentReply (change request)"] = f.crComment, f.crReply
	adminOnly := map[string]bool{"InviteLink": true, "SAMLProvider": true, "Webhook": true, "WebhookDelivery": true}
	for name, id := range ids {
		if id == "" {
			t.Fatalf("no id of %s", name)
		}
		typ, _, _ := strings.Cut(name, " ")
		t.Run(typ, func(t *testing.T) {
			if n := nodeOf(t, f.e, f.admin, id); n == nil || n["__typename"] != typ || n["id"] != id {
				t.Fatalf("admin: node(%s) = %v", name, n)
			}
			n := nodeOf(t, f.e, f.reader, id)
			if adminOnly[typ] != (n == nil) {
				t.Fatalf("reader: node(%s) = %v", name, n)
			}
			if typ == "User" || typ == "Organization" {
				return // the outsider's own user and organization are of another id
			}
			if n := nodeOf(t, f.e, f.outsider, id); n != nil {
				t.Fatalf("outsider: node(%s) = %v", name, n)
			}
		})
	}
	t.Run("Nodes", func(t *testing.T) {
		var list []any
		var want []string
		for _, id := range ids {
			list, want = append(list, id), append(want, id)
		}
		list = append(list, "0123456789abcdefghij", f.foreignInvite)
		var d struct{ Nodes []map[string]any }
		orgGQLData(t, f.e.GraphQL(f.admin, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`,
			map[string]any{"ids": list}), &d)
		if len(d.Nodes) != len(list) {
			t.Fatalf("nodes: %d answers for %d ids", len(d.Nodes), len(list))
		}
		for i, id := range want {
			if d.Nodes[i]["id"] != id {
				t.Fatalf("nodes[%d] = %v, want %s", i, d.Nodes[i], id)
			}
		}
		if tail := d.Nodes[len(want):]; tail[0] != nil || tail[1] != nil {
			t.Fatalf("nodes of an unknown id and another organization's: %v", tail)
		}
	})
}

// TestNodeRelayRefetch sends a refetch query as Relay's compiler writes it for a refetchable
// fragment on Space, and nodes with fragments on several types, as Apollo Client sends them.
func TestNodeRelayRefetch(t *testing.T) {
	f := newAuthFixture(t)
	refetch := `query SpaceTitleRefetchQuery($id: ID!) { node(id: $id) { __typename ...SpaceTitle_space id } }
fragment SpaceTitle_space on Space { id title permissions { view edit } changeRequestCount }`
	var d struct {
		Node struct {
			Typename           string `json:"__typename"`
			ID, Title          string
			Permissions        struct{ View, Edit bool }
			ChangeRequestCount int
		}
	}
	orgGQLData(t, f.e.GraphQL(f.reader, refetch, map[string]any{"id": f.space}), &d)
	if n := d.Node; n.Typename != "Space" || n.ID != f.space || n.Title != "Docs" || !n.Permissions.View ||
		n.Permissions.Edit || n.ChangeRequestCount != 1 {
		t.Fatalf("refetch of a space: %+v", n)
	}

	apollo := `query Objects($ids: [ID!]!) { nodes(ids: $ids) { __typename id
  ... on Space { title __typename }
  ... on Comment { body replyCount __typename }
  ... on ChangeRequest { number subject space { id __typename } __typename } } }`
	var l struct{ Nodes []map[string]any }
	orgGQLData(t, f.e.GraphQL(f.admin, apollo, map[string]any{"ids": []string{f.comment, f.changeRequest, f.space}}), &l)
	if l.Nodes[0]["replyCount"] != 1.0 || l.Nodes[1]["number"] != 1.0 || l.Nodes[2]["title"] != "Docs" ||
		l.Nodes[1]["space"].(map[string]any)["id"] != f.space {
		t.Fatalf("nodes with fragments: %v", l.Nodes)
	}
}

// TestNodeRefusesQuietly checks that ids of nothing the viewer reads answer null without an
// error: malformed ids, a deleted space, and another organization's; and that nodes is bounded.
func TestNodeRefusesQuietly(t *testing.T) {
	f := newAuthFixture(t)
	e := f.e
	doomed := authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "Doomed"}))
	if r := e.Do(f.admin, "DELETE", "/v1/spaces/"+doomed, nil); r.Status >= 300 {
		t.Fatalf("delete space: %d %s", r.Status, r.Body)
	}
	for name, id := range map[string]string{
		"Empty": "", "Short": "x", "Long": strings.Repeat("a", 5000), "Quote": `'; DROP TABLE spaces; --`,
		"Percent": "%", "Unicode": "ÿ😀", "DeletedSpace": doomed, "OtherOrganization": f.otherOrg,
		"OtherInvite": f.foreignInvite,
	} {
		t.Run(name, func(t *testing.T) {
			g := e.GraphQL(f.admin, nodeQuery, map[string]any{"id": id})
			if g.Status != http.StatusOK || len(g.Errors) != 0 || string(g.Data) != `{"node":null}` {
				t.Fatalf("node(%.40q): %d %s %v", id, g.Status, g.Data, g.Errors)
			}
		})
	}
	t.Run("ErrTooManyIDs", func(t *testing.T) {
		ids := make([]string, 101)
		for i := range ids {
			ids[i] = fmt.Sprintf("id%d", i)
		}
		g := e.GraphQL(f.admin, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": ids})
		if g.Code() != "BAD_REQUEST" || !strings.Contains(g.Errors[0].Message, "at most 100 ids") {
			t.Fatalf("101 ids: %s %v", g.Data, g.Errors)
		}
		var d struct{ Nodes []any }
		orgGQLData(t, e.GraphQL(f.admin, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": ids[:100]}), &d)
		if len(d.Nodes) != 100 || d.Nodes[0] != nil {
			t.Fatalf("100 unknown ids: %v", d.Nodes)
		}
	})
	t.Run("OneStatementRoutes", func(t *testing.T) {
		nodes := func(ids []string) int64 {
			return gqlStatements(t, e, func() {
				e.GraphQL(f.admin, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": ids})
			})
		}
		none := gqlStatements(t, e, func() { e.GraphQL(f.admin, `{ __typename }`, nil) })
		unknown := make([]string, 100)
		for i := range unknown {
			unknown[i] = fmt.Sprintf("%020d", i)
		}
		if n := nodes(unknown); n != none+1 {
			t.Fatalf("100 unknown ids: %d statements, a bare query %d", n, none)
		}
		if n, spaces := nodes([]string{f.space}), nodes([]string{f.space, f.space, f.space}); spaces != n+2 {
			t.Fatalf("a space: %d statements, three: %d (one read by key each)", n, spaces)
		}
	})
}

// TestNodePersistedQuery sends a Relay refetch query the way Apollo Client's persisted-queries
// link does: the hash alone (a miss), the query with its hash, then the hash alone (a hit).
func TestNodePersistedQuery(t *testing.T) {
	f := newAuthFixture(t)
	query := `query SpaceRefetch($id: ID!) { node(id: $id) { __typename id ... on Space { title __typename } } }`
	sum := sha256.Sum256([]byte(query))
	ext := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hex.EncodeToString(sum[:])}}
	send := func(a testenv.Actor, withQuery bool) testenv.GQLResponse {
		body := map[string]any{"variables": map[string]any{"id": f.space}, "extensions": ext}
		if withQuery {
			body["query"] = query
		}
		raw, _ := json.Marshal(body)
		r := f.e.Raw(a, "POST", "/graphql", "application/json", strings.NewReader(string(raw)))
		var g testenv.GQLResponse
		if err := json.Unmarshal(r.Body, &g); err != nil {
			t.Fatalf("answer %d %s", r.Status, r.Body)
		}
		return g
	}
	if g := send(f.admin, false); len(g.Errors) == 0 || g.Errors[0].Message != "PersistedQueryNotFound" {
		t.Fatalf("miss: %s %v", g.Data, g.Errors)
	}
	want := fmt.Sprintf(`{"node":{"__typename":"Space","id":%q,"title":"Docs"}}`, f.space)
	if g := send(f.admin, true); len(g.Errors) != 0 || string(g.Data) != want {
		t.Fatalf("query with its hash: %s %v", g.Data, g.Errors)
	}
	if g := send(f.reader, false); len(g.Errors) != 0 || string(g.Data) != want {
		t.Fatalf("hit: %s %v", g.Data, g.Errors)
	}
	if g := send(f.outsider, false); len(g.Errors) != 0 || string(g.Data) != `{"node":null}` {
		t.Fatalf("hit, as an outsider: %s %v", g.Data, g.Errors)
	}
}
