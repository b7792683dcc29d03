package rest_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// shareSpace makes a space share-link as admin and returns its key, read from urls.published.
func shareSpace(t *testing.T, e *testenv.Env, admin testenv.Actor, spaceID string) string {
	t.Helper()
	s := e.Do(admin, "PATCH", "/v1/spaces/"+spaceID, map[string]any{"visibility": "share-link"}).Map(t)
	published, _ := s["urls"].(map[string]any)["published"].(string)
	u, err := url.Parse(published)
	if err != nil || u.Path != "/v1/spaces/"+spaceID || u.Query().Get("shareKey") == "" {
		t.Fatalf("urls.published %q does not open the space with its key", published)
	}
	return u.Query().Get("shareKey")
}

func getShared(e *testenv.Env, a testenv.Actor, spaceID, key string) testenv.Response {
	return e.Do(a, "GET", "/v1/spaces/"+spaceID+"?shareKey="+url.QueryEscape(key), nil)
}

func TestSpaceShareKey(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	outsider, _ := e.Bootstrap("otto@example.com", "Other")
	col := e.Do(admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Docs"}).Map(t)["id"].(string)
	shared := createSpace(t, e, admin, org, map[string]any{"title": "Shared", "parent": col})["id"].(string)
	sibling := createSpace(t, e, admin, org, map[string]any{"title": "Sibling", "parent": col})["id"].(string)
	key := shareSpace(t, e, admin, shared)
	siblingKey := shareSpace(t, e, admin, sibling)

	t.Run("OKRightKeyReads", func(t *testing.T) {
		s := getShared(e, outsider, shared, key).Map(t)
		perms := s["permissions"].(map[string]any)
		if s["id"] != shared || perms["view"] != true || perms["comment"] != false || perms["edit"] != false || perms["admin"] != false {
			t.Fatalf("space %v", s)
		}
		if _, ok := s["urls"].(map[string]any)["published"]; ok {
			t.Fatalf("a reader by key is shown the key: %v", s["urls"])
		}
	})
	t.Run("OKReaderKeepsTheirRole", func(t *testing.T) {
		editor := e.User("eddie@example.com", org, testenv.Role(viewer.RoleEdit))
		s := getShared(e, editor, shared, key).Map(t)
		if s["permissions"].(map[string]any)["edit"] != true {
			t.Fatalf("an editor presenting the key lost their role: %v", s["permissions"])
		}
		if _, ok := s["urls"].(map[string]any)["published"]; ok {
			t.Fatal("a non-admin member is shown the key")
		}
	})
	notFound := []struct{ name, space, key string }{
		{"ErrNoKey", shared, ""},
		{"ErrWrongKey", shared, key + "x"},
		{"ErrKeyOfAnotherSpace", shared, siblingKey},
		{"ErrKeyOpensNoSibling", sibling, key},
	}
	for _, c := range notFound {
		t.Run(c.name, func(t *testing.T) {
			testenv.CheckError(t, getShared(e, outsider, c.space, c.key), 404)
		})
	}
	t.Run("ErrKeyOpensNothingElse", func(t *testing.T) { // routes that take no shareKey: sent raw, as the document has none
		testenv.CheckError(t, e.Raw(outsider, "GET", "/v1/collections/"+col+"?shareKey="+key, "", nil), 404)
		testenv.CheckError(t, e.Raw(outsider, "GET", "/v1/spaces/"+shared+"/custom-fields?shareKey="+key, "", nil), 404)
		testenv.CheckError(t, e.Raw(outsider, "PATCH", "/v1/spaces/"+shared+"?shareKey="+key, "application/json",
			strings.NewReader(`{"title":"x"}`)), 404)
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		var d struct {
			Space struct {
				ID          string
				ShareKey    *string
				Parent      *struct{ ID string }
				Permissions struct{ View, Admin bool }
			}
		}
		q := `query($id: ID!, $k: String) { space(id: $id, shareKey: $k) { id shareKey parent { id } permissions { view admin } } }`
		gqlOK(t, e.GraphQL(outsider, q, map[string]any{"id": shared, "k": key}), &d)
		if s := d.Space; s.ID != shared || s.ShareKey != nil || s.Parent != nil || !s.Permissions.View || s.Permissions.Admin {
			t.Fatalf("space %+v", s)
		}
		gqlOK(t, e.GraphQL(admin, q, map[string]any{"id": shared}), &d)
		if d.Space.ShareKey == nil || *d.Space.ShareKey != key {
			t.Fatalf("the admin reads shareKey %v, want %q", d.Space.ShareKey, key)
		}
	})
	t.Run("ErrGraphQLKeyOpensOnlyItsSpace", func(t *testing.T) {
		g := e.GraphQL(outsider, `query($s: ID!, $sib: ID!, $c: ID!, $k: String) {
			shared: space(id: $s, shareKey: $k) { id }
			sibling: space(id: $sib) { id }
			collection(id: $c) { id } }`, map[string]any{"s": shared, "sib": sibling, "c": col, "k": key})
		var d struct{ Shared, Sibling, Collection *struct{ ID string } }
		_ = json.Unmarshal(g.Data, &d)
		if d.Shared == nil || d.Sibling != nil || d.Collection != nil || len(g.Errors) != 2 {
			t.Fatalf("data %s, errors %v", g.Data, g.Errors)
		}
		for _, err := range g.Errors {
			if err.Extensions["code"] != "NOT_FOUND" {
				t.Fatalf("errors %v", g.Errors)
			}
		}
		g = e.GraphQL(outsider, `query($s: ID!, $k: String) { space(id: $s, shareKey: $k) { id } }`,
			map[string]any{"s": shared, "k": siblingKey})
		if g.Code() != "NOT_FOUND" {
			t.Fatalf("key of another space: code %q", g.Code())
		}
	})
	t.Run("ErrNoLongerShareLink", func(t *testing.T) {
		s := e.Do(admin, "PATCH", "/v1/spaces/"+shared, map[string]any{"visibility": "private"}).Map(t)
		if _, ok := s["urls"].(map[string]any)["published"]; ok {
			t.Fatalf("a private space shows a share URL: %v", s["urls"])
		}
		testenv.CheckError(t, getShared(e, outsider, shared, key), 404)
		renewed := shareSpace(t, e, admin, shared)
		if renewed == key {
			t.Fatal("sharing again revived the old key")
		}
		testenv.CheckError(t, getShared(e, outsider, shared, key), 404)
		getShared(e, outsider, shared, renewed).Map(t)
		key = renewed
	})
	t.Run("OKKeyKeptWhileShared", func(t *testing.T) {
		if again := shareSpace(t, e, admin, shared); again != key {
			t.Fatalf("key changed from %q to %q while the space stayed share-link", key, again)
		}
	})
	t.Run("OKDuplicateGetsItsOwnKey", func(t *testing.T) {
		dup := e.Do(admin, "POST", "/v1/spaces/"+shared+"/duplicate", nil).Map(t)
		published, _ := dup["urls"].(map[string]any)["published"].(string)
		if dup["visibility"] != "share-link" || published == "" || strings.Contains(published, key) {
			t.Fatalf("duplicate %v", dup)
		}
	})
}
