package rest_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestAutomaticPersistedQueries sends what Apollo Client's persisted-queries link sends: the
// hash alone, the PersistedQueryNotFound answer, the query with its hash, then the hash alone.
func TestAutomaticPersistedQueries(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	query := `query Org($id: ID!) { organization(id: $id) { id title } }`
	sum := sha256.Sum256([]byte(query))
	hash := hex.EncodeToString(sum[:])
	send := func(withQuery bool, sha string) (int, map[string]any) {
		body := map[string]any{"variables": map[string]any{"id": org},
			"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": sha}}}
		if withQuery {
			body["query"] = query
		}
		raw, _ := json.Marshal(body)
		r := e.Raw(admin, "POST", "/graphql", "application/json", strings.NewReader(string(raw)))
		var out map[string]any
		if err := json.Unmarshal(r.Body, &out); err != nil {
			t.Fatalf("answer %d %s", r.Status, r.Body)
		}
		return r.Status, out
	}
	firstError := func(out map[string]any) string {
		errs, _ := out["errors"].([]any)
		if len(errs) == 0 {
			return ""
		}
		return errs[0].(map[string]any)["message"].(string)
	}

	if _, out := send(false, hash); firstError(out) != "PersistedQueryNotFound" {
		t.Fatalf("an unknown hash: %v", out)
	}
	if status, out := send(true, hash); status != http.StatusOK || firstError(out) != "" ||
		out["data"].(map[string]any)["organization"].(map[string]any)["title"] != "Acme" {
		t.Fatalf("the query with its hash: %d %v", status, out)
	}
	if status, out := send(false, hash); status != http.StatusOK || firstError(out) != "" ||
		out["data"].(map[string]any)["organization"].(map[string]any)["id"] != org {
		t.Fatalf("the hash alone, after: %d %v", status, out)
	}
	if _, out := send(true, strings.Repeat("0", 64)); !strings.Contains(firstError(out), "does not match") ||
		out["errors"].([]any)[0].(map[string]any)["extensions"].(map[string]any)["code"] != "BAD_USER_INPUT" {
		t.Fatalf("a query with another's hash: %v", out)
	}
}
