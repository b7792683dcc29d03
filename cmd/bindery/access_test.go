package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// twoServers starts two servers on one new database, and bootstraps Ada's organization in it.
func twoServers(t *testing.T) (d dataDir, one, two string, ada bootstrapOut) {
	t.Helper()
	d = newDataDir(t)
	one, _, _ = startServe(t, d)
	two, _, _ = startServe(t, d)
	d.mustCLI(t, &ada, "bootstrap", "--email", "ada@example.com", "--name", "Ada", "--org", "Acme")
	return d, one, two, ada
}

// TestTwoServersAgreeOnAccess runs two servers on one database (PostgreSQL when BINDERY_TEST_DB
// names one, else one SQLite file): a grant, a move, a team change and a membership change made
// through the first are obeyed by the second at its next request: access is decided in the
// database, and what the second server's read cache kept (each read is sent twice, so the second
// is answered from it while nothing changed) is kept under the database's version, which the
// first server's write moved (decision 366).
func TestTwoServersAgreeOnAccess(t *testing.T) {
	d, one, two, ada := twoServers(t)
	var bob userOut
	d.mustCLI(t, &bob, "user", "create", "--email", "bob@example.com", "--name", "Bob", "--org", ada.Organization.ID, "--role", "read")
	org := ada.Organization.ID
	admin := func(method, path, body string) map[string]any {
		return mustCall(t, one, ada.Token, method, path, body)
	}
	space := admin("POST", "/v1/orgs/"+org+"/spaces", `{"title":"Plans"}`)["id"].(string)
	bobReads := func() bool {
		status, body := call(t, two, bob.Token, "GET", "/v1/spaces/"+space, "")
		if again, kept := call(t, two, bob.Token, "GET", "/v1/spaces/"+space, ""); again != status || string(kept) != string(body) {
			t.Fatalf("the same read sent again answered %d %s after %d %s", again, kept, status, body)
		}
		return status == http.StatusOK
	}
	expect := func(step string, want bool) {
		t.Helper()
		if got := bobReads(); got != want {
			t.Fatalf("after %s through the first server, the second lets Bob read the space: %v, want %v", step, got, want)
		}
	}
	expect("creating the space (members read it by default)", true)
	admin("PATCH", "/v1/spaces/"+space, `{"defaultLevel":null}`)
	expect("removing the space's default level", false)
	admin("POST", "/v1/spaces/"+space+"/permissions", `{"role":"read","users":["`+bob.User.ID+`"]}`)
	expect("a grant to Bob", true)
	admin("DELETE", "/v1/spaces/"+space+"/permissions/users/"+bob.User.ID, "")
	expect("revoking the grant", false)

	team := admin("PUT", "/v1/orgs/"+org+"/teams", `{"title":"Readers"}`)["id"].(string)
	admin("POST", "/v1/spaces/"+space+"/permissions", `{"role":"read","teams":["`+team+`"]}`)
	expect("a grant to a team without Bob", false)
	admin("PUT", "/v1/orgs/"+org+"/teams/"+team+"/members/"+bob.User.ID, `{}`)
	expect("adding Bob to the team", true)
	admin("DELETE", "/v1/orgs/"+org+"/teams/"+team+"/members/"+bob.User.ID, "")
	expect("removing Bob from the team", false)

	admin("PATCH", "/v1/spaces/"+space, `{"defaultLevel":"inherit"}`)
	shelf := admin("POST", "/v1/orgs/"+org+"/collections", `{"title":"Closed"}`)["id"].(string)
	admin("PATCH", "/v1/collections/"+shelf, `{"defaultLevel":null}`)
	expect("the space inheriting again", true)
	admin("POST", "/v1/spaces/"+space+"/move", `{"parent":"`+shelf+`"}`)
	expect("moving the space into a collection members get nothing of", false)
	admin("POST", "/v1/spaces/"+space+"/move", `{"parent":null}`)
	expect("moving it back to the top", true)

	admin("PATCH", "/v1/orgs/"+org+"/members/"+bob.User.ID, `{"role":null}`)
	expect("making Bob a guest (the second server knew his role)", false)
	admin("PATCH", "/v1/orgs/"+org+"/members/"+bob.User.ID, `{"role":"read"}`)
	expect("making Bob a reader again", true)
	admin("DELETE", "/v1/orgs/"+org+"/members/"+bob.User.ID, "")
	expect("removing Bob from the organization", false)
}

// call sends a request with a bearer token and returns the status and body.
func call(t *testing.T, base, token, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw
}

// mustCall is call that fails the test on anything but a 2xx, and decodes a JSON answer.
func mustCall(t *testing.T, base, token, method, path, body string) map[string]any {
	t.Helper()
	status, raw := call(t, base, token, method, path, body)
	if status/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, path, status, raw)
	}
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return out
}
