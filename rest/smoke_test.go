package rest_test

import (
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testenv"
)

func TestSmoke(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	reader := e.User("rob@example.com", org, testenv.Role(viewer.RoleRead))
	for _, p := range []string{"/v1/", "/v1/user", "/v1/orgs", "/v1/orgs/" + org, "/v1/orgs/" + org + "/members",
		"/v1/orgs/" + org + "/members/" + reader.UserID, "/v1/users/" + reader.UserID, "/v1/orgs/" + org + "/teams",
		"/v1/orgs/" + org + "/link-invites", "/v1/orgs/" + org + "/members/" + reader.UserID + "/teams"} {
		r := e.Do(admin, "GET", p, nil)
		t.Logf("%s %d %s", p, r.Status, r.Body)
	}
	r := e.Do(admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Core", "members": []string{reader.UserID}})
	t.Logf("%d %s", r.Status, r.Body)
	team := r.Map(t)["id"].(string)
	t.Logf("%s", e.Do(admin, "GET", "/v1/orgs/"+org+"/teams/"+team+"/members", nil).Body)
	t.Logf("%s", e.Do(admin, "POST", "/v1/orgs/"+org+"/link-invites", map[string]any{"role": "edit"}).Body)
	t.Logf("%s", e.Do(admin, "POST", "/v1/orgs/"+org+"/ping", nil).Body)
	t.Logf("%s", e.Do(admin, "GET", "/v1/email-domains/example.com/orgs", nil).Body)
}
