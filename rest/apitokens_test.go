package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

func TestAPITokensGraphQL(t *testing.T) {
	e := testenv.New(t)
	admin, _ := e.Bootstrap("ada@example.com", "Acme")
	g := e.GraphQL(admin, `mutation { createAPIToken(input: {label: "Deploy"}) { token apiToken { id label } } }`, nil)
	var created struct {
		CreateAPIToken struct {
			Token    string
			APIToken struct{ ID, Label string }
		}
	}
	if len(g.Errors) > 0 {
		t.Fatalf("create: %v", g.Errors)
	}
	testenv.Response{Body: g.Data}.JSON(t, &created)
	deploy := testenv.Actor{Token: created.CreateAPIToken.Token}
	g = e.GraphQL(deploy, `{ apiTokens { totalCount edges { node { id label } } } }`, nil)
	if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"totalCount":2`) || strings.Contains(string(g.Data), deploy.Token) {
		t.Fatalf("list (the bootstrap token and the new one, never a token itself): %s %v", g.Data, g.Errors)
	}
	t.Run("ErrLongLabel", func(t *testing.T) {
		testenv.CheckError(t, e.Do(admin, "POST", "/v1/user/tokens", map[string]any{"label": strings.Repeat("x", 51)}), http.StatusBadRequest)
	})
	t.Run("ErrRevokeUnknown", func(t *testing.T) {
		if g := e.GraphQL(admin, `mutation { revokeAPIToken(id: "nope") }`, nil); g.Code() != "NOT_FOUND" {
			t.Fatalf("revoke an unknown token: %v", g.Errors)
		}
	})
	t.Run("OKRevoke", func(t *testing.T) {
		g := e.GraphQL(admin, `mutation($id: ID!) { revokeAPIToken(id: $id) }`, map[string]any{"id": created.CreateAPIToken.APIToken.ID})
		if len(g.Errors) > 0 {
			t.Fatalf("revoke: %v", g.Errors)
		}
		testenv.CheckError(t, e.Do(deploy, "GET", "/v1/user", nil), http.StatusUnauthorized)
	})
}
