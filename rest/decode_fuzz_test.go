package rest_test

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// fuzzTarget is a server with an organization, a reader and a team to send fuzzed requests to.
// Inside a fuzz function only t may be used, so requests go through send, not through Env.
type fuzzTarget struct {
	e     *testenv.Env
	admin testenv.Actor
	org   string
	team  string
	user  string
}

func newFuzzTarget(f *testing.F) *fuzzTarget {
	e := testenv.New(f)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	reader := e.User("rob@example.com", org, testenv.Role(viewer.RoleRead))
	e.User("eve@example.com", org, testenv.Role(viewer.RoleEdit))
	r := e.Do(admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Core", "members": []string{reader.UserID}})
	if r.Status != http.StatusCreated {
		f.Fatalf("create team: %d %s", r.Status, r.Body)
	}
	team, _ := r.Map(f)["id"].(string)
	return &fuzzTarget{e: e, admin: admin, org: org, team: team, user: reader.UserID}
}

// send makes a request as the admin and asserts what every answer must hold: never a 500, and
// every failure has the error body with its status.
func (ft *fuzzTarget) send(t *testing.T, method, path string, body []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ft.e.Server.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+ft.admin.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := ft.e.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	resp := testenv.Response{Status: res.StatusCode, Body: b}
	if resp.Status >= 500 {
		t.Fatalf("%s %s %q: %d %s", method, path, body, resp.Status, b)
	}
	if resp.Status >= 400 {
		testenv.CheckError(t, resp, resp.Status)
	}
}

// FuzzRESTBodies sends arbitrary bodies to the REST writes.
func FuzzRESTBodies(f *testing.F) {
	ft := newFuzzTarget(f)
	orgPath, teamPath := "/v1/orgs/"+ft.org, "/v1/orgs/"+ft.org+"/teams/"+ft.team
	writes := []struct{ method, path string }{
		{"POST", "/v1/orgs"},
		{"PATCH", orgPath},
		{"PUT", orgPath + "/teams"},
		{"PATCH", teamPath},
		{"PUT", teamPath + "/members"},
		{"PUT", teamPath + "/members/" + ft.user},
		{"PATCH", orgPath + "/members/" + ft.user},
		{"POST", orgPath + "/link-invites"},
	}
	for i, body := range []string{
		`{"title":"Other","emailDomains":["example.com"]}`,
		`{"title":"Acme","hostname":"acme","defaultRole":"edit","logo":null,"sso":false,"defaultContent":null}`,
		`{"title":"Docs","members":["` + ft.user + `"]}`,
		`{"title":"Core"}`,
		`{"add":["eve@example.com"],"remove":["` + ft.user + `"],"memberships":{"` + ft.user + `":{"role":"owner"}}}`,
		`{"role":"owner"}`,
		`{"role":"read"}`,
		`{"role":null}`,
		``, `null`, `[]`, `{`, `{"title":"\u0000"}`, "{\"title\":\"\xff\"}", `{"title":1e999}`, `{"title":"` + "\u202e" + `x"}`,
	} {
		f.Add(uint8(i%len(writes)), []byte(body))
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		w := writes[int(which)%len(writes)]
		ft.send(t, w.method, w.path, body)
	})
}

// FuzzRESTQuery sends arbitrary values of list parameters (page tokens, limits, filters) to the
// REST lists.
func FuzzRESTQuery(f *testing.F) {
	ft := newFuzzTarget(f)
	lists := []string{"/v1/orgs", "/v1/orgs/" + ft.org + "/members", "/v1/orgs/" + ft.org + "/teams",
		"/v1/orgs/" + ft.org + "/teams/" + ft.team + "/members", "/v1/orgs/" + ft.org + "/members/" + ft.user + "/teams",
		"/v1/orgs/" + ft.org + "/link-invites"}
	params := []string{"page", "limit", "search", "role", "sort", "order", "title", "owner"}
	token := func(raw string) string { return base64.RawURLEncoding.EncodeToString([]byte(raw)) }
	for i, v := range []string{
		token(`{"k":"2026-01-01T00:00:00Z","i":"x"}`), "2", "rob", "guest", "lastSeenAt", "asc", "Co", ft.user,
		token(`{"k":"2026-01-01T00:00:00Z","i":"\u0000"}`), token(`{"k":"a\u0000","i":"x"}`), token(`{"k":5,"i":"x"}`),
		"-1", "1e3", "1001", "NaN", "0x10", "\u0000", "%", "é",
	} {
		f.Add(uint8(i), uint8(i), v)
	}
	f.Fuzz(func(t *testing.T, list, param uint8, value string) {
		q := url.Values{params[int(param)%len(params)]: {value}}
		ft.send(t, "GET", lists[int(list)%len(lists)]+"?"+q.Encode(), nil)
	})
}

// FuzzRESTPath sends arbitrary ids in the path segments of the REST reads.
func FuzzRESTPath(f *testing.F) {
	ft := newFuzzTarget(f)
	org, team := "/v1/orgs/"+ft.org, "/v1/orgs/"+ft.org+"/teams/"+ft.team
	paths := []struct{ before, after string }{
		{"/v1/orgs/", ""}, {"/v1/users/", ""}, {org + "/members/", ""}, {org + "/members/", "/teams"},
		{org + "/teams/", ""}, {org + "/teams/", "/members"}, {team + "/members/", ""}, {org + "/link-invites/", ""},
		{"/v1/email-domains/", "/orgs"},
	}
	for i, id := range []string{ft.org, ft.user, ft.team, "example.com", "nope", "\xc0", "é", "a/b", "..", "%00", " ", ""} {
		f.Add(uint8(i), id)
	}
	f.Fuzz(func(t *testing.T, which uint8, id string) {
		p := paths[int(which)%len(paths)]
		ft.send(t, "GET", p.before+url.PathEscape(id)+p.after, nil)
	})
}
