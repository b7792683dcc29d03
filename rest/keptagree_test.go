package rest_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestKeptAnswersAgreeWithComputed: through random changes of access (default levels, grants,
// moves into and out of collections, member roles, titles), every read by every viewer, sent
// twice so that the second may take what the first kept, answers exactly what the same read
// computes with the cache paused: status and bytes.
func TestKeptAnswersAgreeWithComputed(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { keptAgreeWithComputed(t, rand.New(rand.NewPCG(seed, 11))) })
	}
}

func keptAgreeWithComputed(t *testing.T, rnd *rand.Rand) {
	e := testenv.New(t)
	ada, org := e.Bootstrap("ada@example.com", "Acme")
	bob := e.User("bob@example.com", org, testenv.Role(viewer.RoleRead))
	cid := e.User("cid@example.com", org, nil)
	eve, _ := e.Bootstrap("eve@example.com", "Elsewhere")
	actors := []testenv.Actor{ada, bob, cid, eve}

	var spaces, collections []string
	for i := range 3 {
		spaces = append(spaces, createSpace(t, e, ada, org, map[string]any{"title": fmt.Sprint("Space ", i)})["id"].(string))
		collections = append(collections, e.Do(ada, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": fmt.Sprint("Shelf ", i)}).Map(t)["id"].(string))
	}
	pick := func(ids []string) string { return ids[rnd.IntN(len(ids))] }
	writes := []func() (string, string, any){
		func() (string, string, any) {
			return "PATCH", "/v1/spaces/" + pick(spaces), map[string]any{"defaultLevel": []any{nil, "inherit", "read"}[rnd.IntN(3)]}
		},
		func() (string, string, any) {
			return "PATCH", "/v1/collections/" + pick(collections), map[string]any{"defaultLevel": []any{nil, "inherit"}[rnd.IntN(2)]}
		},
		func() (string, string, any) {
			return "POST", "/v1/spaces/" + pick(spaces) + "/permissions", map[string]any{"role": "read", "users": []string{pick([]string{bob.UserID, cid.UserID})}}
		},
		func() (string, string, any) {
			return "DELETE", "/v1/spaces/" + pick(spaces) + "/permissions/users/" + pick([]string{bob.UserID, cid.UserID}), nil
		},
		func() (string, string, any) {
			return "POST", "/v1/spaces/" + pick(spaces) + "/move", map[string]any{"parent": []any{nil, pick(collections)}[rnd.IntN(2)]}
		},
		func() (string, string, any) {
			return "PATCH", "/v1/orgs/" + org + "/members/" + pick([]string{bob.UserID, cid.UserID}), map[string]any{"role": []any{nil, "read", "edit"}[rnd.IntN(3)]}
		},
		func() (string, string, any) {
			return "PATCH", "/v1/spaces/" + pick(spaces), map[string]any{"title": fmt.Sprint("Title ", rnd.IntN(1000))}
		},
	}
	reads := []string{"/v1/orgs/" + org + "/spaces", "/v1/orgs/" + org + "/collections", "/v1/orgs/" + org}
	for _, s := range spaces {
		reads = append(reads, "/v1/spaces/"+s, "/v1/spaces/"+s+"/permissions")
	}
	for _, c := range collections {
		reads = append(reads, "/v1/collections/"+c, "/v1/collections/"+c+"/spaces")
	}
	query := `query($org: ID!) { organization(id: $org) { spaces(first: 20) { edges { node { id title visibility permissions { view edit admin } } } } } }`

	for step := range 25 {
		method, path, body := writes[rnd.IntN(len(writes))]()
		if r := e.Do(ada, method, path, body); r.Status >= 300 && r.Status != http.StatusConflict && r.Status != http.StatusNotFound {
			t.Fatalf("step %d: %s %s %v: %d %s", step, method, path, body, r.Status, r.Body)
		}
		for _, a := range actors {
			for _, path := range reads {
				agree(t, e, fmt.Sprintf("step %d, %s reads %s", step, a.Email, path), func() testenv.Response { return e.Raw(a, "GET", path, "", nil) })
			}
			graphQL := fmt.Appendf(nil, `{"query":%q,"variables":{"org":%q}}`, query, org)
			agree(t, e, fmt.Sprintf("step %d, %s's GraphQL", step, a.Email), func() testenv.Response {
				return e.Raw(a, "POST", "/graphql", "application/json", bytes.NewReader(graphQL))
			})
		}
	}
	// Refusals (404, 403) are not kept, and every step's write makes the first read compute; on
	// PostgreSQL the other test processes' commits move the version too, so any share will do.
	st := e.ReadCache.Stats()
	enough := st.Computed / 4
	if e.Store.Driver.Dialect() == dialect.Postgres {
		enough = 1
	}
	if st.Taken < enough {
		t.Fatalf("reads took %d kept answers and computed %d: the test hardly reached the cache", st.Taken, st.Computed)
	}
}

// agree sends a read twice with the cache running and once with it paused, and fails unless the
// three answers are the same.
func agree(t *testing.T, e *testenv.Env, what string, read func() testenv.Response) {
	t.Helper()
	first, again := read(), read()
	e.ReadCache.Pause(true)
	computed := read()
	e.ReadCache.Pause(false)
	for _, r := range []testenv.Response{first, again} {
		if r.Status != computed.Status || !bytes.Equal(r.Body, computed.Body) {
			t.Fatalf("%s: answered %d %s, computed %d %s", what, r.Status, r.Body, computed.Status, computed.Body)
		}
	}
}
