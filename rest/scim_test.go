package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

const (
	scimUserSchema  = "urn:ietf:params:scim:schemas:core:2.0:User"
	scimGroupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group"
	scimPatchSchema = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
	scimErrorSchema = "urn:ietf:params:scim:api:messages:2.0:Error"
)

// scimClient is an identity provider calling /scim/v2 with a SCIM token.
type scimClient struct {
	t     *testing.T
	e     *testenv.Env
	token string
}

// do sends a SCIM request (body: a JSON text, or "") and decodes the answer's object, if any.
func (c scimClient) do(method, path, body string) (int, map[string]any) {
	c.t.Helper()
	r := c.e.Raw(testenv.Actor{Token: c.token}, method, "/scim/v2"+path, "application/scim+json", strings.NewReader(body))
	if len(r.Body) == 0 {
		return r.Status, nil
	}
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		c.t.Fatalf("%s %s: %d %s: %v", method, path, r.Status, r.Body, err)
	}
	if r.Status >= 400 {
		checkSCIMError(c.t, r.Status, m)
	}
	return r.Status, m
}

// want sends a request and fails the test unless it answers status.
func (c scimClient) want(status int, method, path, body string) map[string]any {
	c.t.Helper()
	got, m := c.do(method, path, body)
	if got != status {
		c.t.Fatalf("%s %s: want %d, got %d %v", method, path, status, got, m)
	}
	return m
}

// checkSCIMError checks a failure's body is SCIM's error (RFC 7644 §3.12): the schema, the status
// as a string, a detail.
func checkSCIMError(t *testing.T, status int, m map[string]any) {
	t.Helper()
	schemas, _ := m["schemas"].([]any)
	if len(schemas) != 1 || schemas[0] != scimErrorSchema || m["status"] != strconv.Itoa(status) || m["detail"] == "" {
		t.Fatalf("not a SCIM error of status %d: %v", status, m)
	}
}

func filterPath(resource, f string) string {
	return "/" + resource + "?filter=" + url.QueryEscape(f) + "&startIndex=1&count=100"
}

// scimSetup is an organization with an admin, an editor with an API token, and a SCIM token.
type scimSetup struct {
	e             *testenv.Env
	admin, editor testenv.Actor
	org           string
	tokenID       string // the SCIM token idp uses
	idp           scimClient
}

func newSCIMSetup(t *testing.T) scimSetup {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	editor := e.User("dana@example.com", org, testenv.Role(viewer.RoleEdit))
	created := e.Do(admin, "POST", "/v1/orgs/"+org+"/scim-tokens", nil)
	if created.Status != http.StatusCreated {
		t.Fatalf("issue a SCIM token: %d %s", created.Status, created.Body)
	}
	token := created.Map(t)
	return scimSetup{e: e, admin: admin, editor: editor, org: org, tokenID: token["id"].(string),
		idp: scimClient{t: t, e: e, token: token["token"].(string)}}
}

func TestSCIMTokens(t *testing.T) {
	s := newSCIMSetup(t)
	e, base := s.e, "/v1/orgs/"+s.org+"/scim-tokens"
	outsider, otherOrg := e.Bootstrap("zed@zeta.io", "Zeta")

	created := e.Do(s.admin, "POST", base, nil).Map(t)
	if created["object"] != "scim-token" || created["id"] == "" || created["createdAt"] == nil ||
		!strings.HasPrefix(created["token"].(string), "bdy_scim_") {
		t.Fatalf("issued: %v", created)
	}
	list := e.Do(s.admin, "GET", base, nil)
	if l := list.Map(t); l["count"] != float64(2) || strings.Contains(string(list.Body), "bdy_scim_") {
		t.Fatalf("list (never the tokens): %s", list.Body)
	}
	testenv.CheckError(t, e.Do(s.editor, "POST", base, nil), http.StatusForbidden)
	testenv.CheckError(t, e.Do(s.editor, "GET", base, nil), http.StatusForbidden)
	testenv.CheckError(t, e.Do(outsider, "GET", base, nil), http.StatusNotFound)
	testenv.CheckError(t, e.Do(outsider, "DELETE", "/v1/orgs/"+otherOrg+"/scim-tokens/"+created["id"].(string), nil), http.StatusNotFound)

	gql := e.GraphQL(s.admin, `mutation($o: ID!) { createSCIMToken(organizationId: $o) { token scimToken { id createdBy } } }`,
		map[string]any{"o": s.org})
	if len(gql.Errors) > 0 || !strings.Contains(string(gql.Data), `"createdBy":"`+s.admin.UserID+`"`) {
		t.Fatalf("GraphQL create: %s %v", gql.Data, gql.Errors)
	}
	listed := e.GraphQL(s.admin, `query($o: ID!) { organization(id: $o) { scimTokens { totalCount edges { node { id } } } } }`,
		map[string]any{"o": s.org})
	if !strings.Contains(string(listed.Data), `"totalCount":3`) {
		t.Fatalf("GraphQL list: %s %v", listed.Data, listed.Errors)
	}

	t.Run("RevokedRefused", func(t *testing.T) {
		revoked := scimClient{t: t, e: e, token: created["token"].(string)}
		revoked.want(http.StatusOK, "GET", "/Users", "")
		if r := e.Do(s.admin, "DELETE", base+"/"+created["id"].(string), nil); r.Status != http.StatusNoContent {
			t.Fatalf("revoke: %d %s", r.Status, r.Body)
		}
		revoked.want(http.StatusUnauthorized, "GET", "/Users", "")
		testenv.CheckError(t, e.Do(s.admin, "DELETE", base+"/"+created["id"].(string), nil), http.StatusNotFound)
	})
	t.Run("IssuerNoLongerAdmin", func(t *testing.T) {
		second := e.User("bea@example.com", s.org, testenv.Role(viewer.RoleAdmin))
		token := e.Do(second, "POST", base, nil).Map(t)["token"].(string)
		theirs := scimClient{t: t, e: e, token: token}
		theirs.want(http.StatusOK, "GET", "/ServiceProviderConfig", "")
		e.Do(s.admin, "PATCH", "/v1/orgs/"+s.org+"/members/"+second.UserID, map[string]any{"role": "edit"})
		theirs.want(http.StatusUnauthorized, "GET", "/Users", "")
	})
	t.Run("NotAnAPIToken", func(t *testing.T) {
		api := scimClient{t: t, e: e, token: s.admin.Token}
		api.want(http.StatusUnauthorized, "GET", "/Users", "")
		(scimClient{t: t, e: e}).want(http.StatusUnauthorized, "GET", "/Users", "")
		testenv.CheckError(t, e.Raw(testenv.Actor{Token: s.idp.token}, "GET", "/v1/orgs/"+s.org, "", nil), http.StatusUnauthorized)
	})
}

// TestSCIMDiscovery reads what a provider reads first.
func TestSCIMDiscovery(t *testing.T) {
	s := newSCIMSetup(t)
	config := s.idp.want(http.StatusOK, "GET", "/ServiceProviderConfig", "")
	if config["patch"].(map[string]any)["supported"] != true || config["filter"].(map[string]any)["maxResults"] != float64(100) {
		t.Fatalf("config: %v", config)
	}
	if types := s.idp.want(http.StatusOK, "GET", "/ResourceTypes", ""); types["totalResults"] != float64(2) {
		t.Fatalf("resource types: %v", types)
	}
	if schemas := s.idp.want(http.StatusOK, "GET", "/Schemas", ""); schemas["totalResults"] != float64(6) {
		t.Fatalf("schemas (User, Group, the enterprise extension and the three of discovery): %v", schemas["totalResults"])
	}
	for _, id := range []string{scimUserSchema, scimGroupSchema} {
		s.idp.want(http.StatusOK, "GET", "/Schemas/"+id, "")
	}
}

// TestSCIMOkta sends the requests Okta's provisioning sends (developer.okta.com, "SCIM 2.0
// protocol reference"): look a user up by userName, create, read, deactivate with a replace of
// active without a path, reactivate with PUT, push a group and its members, remove them.
func TestSCIMOkta(t *testing.T) {
	s := newSCIMSetup(t)
	idp, e := s.idp, s.e

	if found := idp.want(http.StatusOK, "GET", filterPath("Users", `userName eq "dana@example.com"`), ""); found["totalResults"] != float64(0) {
		t.Fatalf("not provisioned yet: %v", found)
	}
	user := idp.want(http.StatusCreated, "POST", "/Users", `{"schemas":["`+scimUserSchema+`"],
		"userName":"dana@example.com","name":{"givenName":"Dana","familyName":"Scully"},
		"emails":[{"primary":true,"value":"dana@example.com","type":"work"}],"displayName":"Dana Scully",
		"locale":"en-US","externalId":"00u1","groups":[],"password":"1mz050nq","active":true}`)
	id := user["id"].(string)
	if id != s.editor.UserID || user["active"] != true || user["externalId"] != "00u1" || user["password"] != nil ||
		user["meta"].(map[string]any)["location"] != e.Server.URL+"/scim/v2/Users/"+id {
		t.Fatalf("the existing member is provisioned: %v", user)
	}
	if found := idp.want(http.StatusOK, "GET", filterPath("Users", `userName eq "DANA@example.com"`), ""); found["totalResults"] != float64(1) {
		t.Fatalf("found by userName (any case): %v", found)
	}
	idp.want(http.StatusOK, "GET", "/Users/"+id, "")
	e.Do(s.editor, "GET", "/v1/orgs/"+s.org, nil)

	deactivated := idp.want(http.StatusOK, "PATCH", "/Users/"+id, `{"schemas":["`+scimPatchSchema+`"],
		"Operations":[{"op":"replace","value":{"active":false}}]}`)
	if deactivated["active"] != false || deactivated["displayName"] != "Dana Scully" {
		t.Fatalf("deactivated: %v", deactivated)
	}
	testenv.CheckError(t, e.Do(s.editor, "GET", "/v1/orgs/"+s.org, nil), http.StatusNotFound)
	testenv.CheckError(t, e.Do(s.editor, "GET", "/v1/orgs/"+s.org+"/spaces", nil), http.StatusNotFound)
	if n := len(recordedEvents(t, e, "member.disabled", id)); n != 1 {
		t.Fatalf("member.disabled events: %d", n)
	}

	user["active"] = true
	user["name"] = map[string]any{"givenName": "Dana", "familyName": "Mulder"}
	body, _ := json.Marshal(user)
	if replaced := idp.want(http.StatusOK, "PUT", "/Users/"+id, string(body)); replaced["active"] != true ||
		replaced["name"].(map[string]any)["familyName"] != "Mulder" {
		t.Fatalf("replaced: %v", replaced)
	}
	e.Do(s.editor, "GET", "/v1/orgs/"+s.org, nil)

	group := idp.want(http.StatusCreated, "POST", "/Groups", `{"schemas":["`+scimGroupSchema+`"],"displayName":"Engineering","members":[]}`)
	gid := group["id"].(string)
	idp.want(http.StatusOK, "PATCH", "/Groups/"+gid, `{"schemas":["`+scimPatchSchema+`"],
		"Operations":[{"op":"add","path":"members","value":[{"value":"`+id+`","display":"dana@example.com"}]}]}`)
	if got := idp.want(http.StatusOK, "GET", "/Groups/"+gid, ""); !hasMember(got, id) {
		t.Fatalf("member added: %v", got)
	}
	if teams := e.Do(s.admin, "GET", "/v1/orgs/"+s.org+"/teams/"+gid+"/members", nil); !strings.Contains(string(teams.Body), id) {
		t.Fatalf("the team's members: %s", teams.Body)
	}
	renamed := idp.want(http.StatusOK, "PATCH", "/Groups/"+gid, `{"schemas":["`+scimPatchSchema+`"],
		"Operations":[{"op":"replace","value":{"id":"`+gid+`","displayName":"Eng"}}]}`)
	if renamed["displayName"] != "Eng" || !hasMember(renamed, id) {
		t.Fatalf("renamed: %v", renamed)
	}
	removed := idp.want(http.StatusOK, "PATCH", "/Groups/"+gid, `{"schemas":["`+scimPatchSchema+`"],
		"Operations":[{"op":"remove","path":"members[value eq \"`+id+`\"]"}]}`)
	if hasMember(removed, id) {
		t.Fatalf("member removed: %v", removed)
	}
	if n := len(recordedEvents(t, e, "team.members_changed", gid)); n != 2 {
		t.Fatalf("team.members_changed events: %d", n)
	}
	idp.want(http.StatusNoContent, "DELETE", "/Groups/"+gid, "")
	idp.want(http.StatusNotFound, "GET", "/Groups/"+gid, "")

	idp.want(http.StatusNoContent, "DELETE", "/Users/"+id, "")
	idp.want(http.StatusNotFound, "GET", "/Users/"+id, "")
	testenv.CheckError(t, e.Do(s.editor, "GET", "/v1/orgs/"+s.org, nil), http.StatusNotFound)
	if n := len(recordedEvents(t, e, "member.removed", id)); n != 1 {
		t.Fatalf("member.removed events: %d", n)
	}
}

// TestSCIMEntraID sends the requests Microsoft Entra ID's provisioning sends (learn.microsoft.com,
// "Tutorial: Develop and plan provisioning for a SCIM endpoint"): capitalised ops, booleans as
// strings, emails[type eq "work"].value, members removed with a value list.
func TestSCIMEntraID(t *testing.T) {
	s := newSCIMSetup(t)
	idp, e := s.idp, s.e

	if found := idp.want(http.StatusOK, "GET", filterPath("Users", `userName eq "Test_User_ab6490ee@testuser.com"`), ""); found["totalResults"] != float64(0) {
		t.Fatalf("not provisioned yet: %v", found)
	}
	user := idp.want(http.StatusCreated, "POST", "/Users", `{"schemas":["`+scimUserSchema+`","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
		"externalId":"0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef","userName":"Test_User_ab6490ee@testuser.com","active":true,
		"emails":[{"primary":true,"type":"work","value":"Test_User_fd0ea19b@testuser.com"}],
		"meta":{"resourceType":"User"},"name":{"formatted":"givenName familyName","familyName":"familyName","givenName":"givenName"},
		"roles":[],"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"department":"Docs"}}`)
	id := user["id"].(string)
	if user["userName"] != "test_user_ab6490ee@testuser.com" || user["active"] != true {
		t.Fatalf("created: %v", user)
	}
	member := e.Do(s.admin, "GET", "/v1/orgs/"+s.org+"/members/"+id, nil).Map(t)
	if member["user"].(map[string]any)["email"] != "test_user_fd0ea19b@testuser.com" || member["user"].(map[string]any)["displayName"] != "givenName familyName" {
		t.Fatalf("the new member (by the primary email): %v", member)
	}
	if n := len(recordedEvents(t, e, "member.added", id)); n != 1 {
		t.Fatalf("member.added events: %d", n)
	}
	if found := idp.want(http.StatusOK, "GET", filterPath("Users", `externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"`), ""); found["totalResults"] != float64(1) {
		t.Fatalf("found by externalId: %v", found)
	}

	patched := idp.want(http.StatusOK, "PATCH", "/Users/"+id, `{"schemas":["`+scimPatchSchema+`"],"Operations":[
		{"op":"Replace","path":"emails[type eq \"work\"].value","value":"updatedEmail@microsoft.com"},
		{"op":"Replace","path":"name.familyName","value":"updatedFamilyName"},
		{"op":"Add","path":"phoneNumbers[type eq \"work\"].value","value":"555-0100"}]}`)
	emails := patched["emails"].([]any)
	phones := patched["phoneNumbers"].([]any)
	if len(emails) != 1 || emails[0].(map[string]any)["value"] != "updatedEmail@microsoft.com" ||
		patched["name"].(map[string]any)["familyName"] != "updatedFamilyName" || phones[0].(map[string]any)["value"] != "555-0100" {
		t.Fatalf("patched: %v", patched)
	}
	if off := idp.want(http.StatusOK, "PATCH", "/Users/"+id, `{"schemas":["`+scimPatchSchema+`"],
		"Operations":[{"op":"Replace","path":"active","value":"False"}]}`); off["active"] != false {
		t.Fatalf("deactivated: %v", off)
	}

	group := idp.want(http.StatusCreated, "POST", "/Groups", `{"schemas":["`+scimGroupSchema+`"],
		"externalId":"8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159","displayName":"Group1DisplayName","meta":{"resourceType":"Group"}}`)
	gid := group["id"].(string)
	if found := idp.want(http.StatusOK, "GET", filterPath("Groups", `displayName eq "group1displayname"`), ""); found["totalResults"] != float64(1) {
		t.Fatalf("found by displayName: %v", found)
	}
	if found := idp.want(http.StatusOK, "GET", filterPath("Groups", `externalId eq "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159"`), ""); found["totalResults"] != float64(1) {
		t.Fatalf("found by externalId: %v", found)
	}
	added := idp.want(http.StatusOK, "PATCH", "/Groups/"+gid, `{"schemas":["`+scimPatchSchema+`"],"Operations":[
		{"op":"Replace","path":"displayName","value":"Group1 renamed"},
		{"op":"Add","path":"members","value":[{"$ref":null,"value":"`+id+`"},{"value":"`+s.editor.UserID+`"}]}]}`)
	if added["displayName"] != "Group1 renamed" || !hasMember(added, id) || !hasMember(added, s.editor.UserID) {
		t.Fatalf("members added: %v", added)
	}
	removed := idp.want(http.StatusOK, "PATCH", "/Groups/"+gid, `{"schemas":["`+scimPatchSchema+`"],"Operations":[
		{"op":"Remove","path":"members","value":[{"$ref":null,"value":"`+id+`"}]}]}`)
	if hasMember(removed, id) || !hasMember(removed, s.editor.UserID) {
		t.Fatalf("member removed: %v", removed)
	}
	idp.want(http.StatusNoContent, "DELETE", "/Users/"+id, "")
	idp.want(http.StatusNoContent, "DELETE", "/Groups/"+gid, "")
}

func hasMember(group map[string]any, userID string) bool {
	members, _ := group["members"].([]any)
	return slices.ContainsFunc(members, func(m any) bool { return m.(map[string]any)["value"] == userID })
}

// TestSCIMPaging pages users with startIndex and count.
func TestSCIMPaging(t *testing.T) {
	s := newSCIMSetup(t)
	for _, name := range []string{"a", "b", "c"} {
		s.idp.want(http.StatusCreated, "POST", "/Users", `{"schemas":["`+scimUserSchema+`"],"userName":"`+name+`@example.com"}`)
	}
	page := s.idp.want(http.StatusOK, "GET", "/Users?startIndex=2&count=1", "")
	resources := page["Resources"].([]any)
	if page["totalResults"] != float64(3) || len(resources) != 1 || resources[0].(map[string]any)["userName"] != "b@example.com" {
		t.Fatalf("page 2 of 1: %v", page)
	}
	if all := s.idp.want(http.StatusOK, "GET", "/Users?count=1000", ""); len(all["Resources"].([]any)) != 3 {
		t.Fatalf("all: %v", all)
	}
}

// TestSCIMRefusals sends what a provider must be refused, each in SCIM's error format, changing
// nothing.
func TestSCIMRefusals(t *testing.T) {
	s := newSCIMSetup(t)
	idp, e := s.idp, s.e
	user := idp.want(http.StatusCreated, "POST", "/Users", `{"schemas":["`+scimUserSchema+`"],"userName":"eve@example.com","bogus":1}`)
	id := user["id"].(string)
	if user["bogus"] != nil {
		t.Fatalf("an unknown attribute is not kept: %v", user)
	}

	for _, c := range []struct {
		name, method, path, body, scimType string
		status                             int
	}{
		{"BadFilter", "GET", filterPath("Users", `userName xx "a"`), "", "invalidFilter", 400},
		{"UnsupportedFilter", "GET", filterPath("Users", `userName co "a"`), "", "invalidFilter", 400},
		{"UnknownFilterAttribute", "GET", filterPath("Users", `bogus eq "a"`), "", "invalidFilter", 400},
		{"BadCount", "GET", "/Users?count=many", "", "", 400},
		{"InvalidJSON", "POST", "/Users", `{"schemas":[`, "invalidSyntax", 400},
		{"NoUserName", "POST", "/Users", `{"schemas":["` + scimUserSchema + `"]}`, "", 400},
		{"NoEmail", "POST", "/Users", `{"schemas":["` + scimUserSchema + `"],"userName":"nobody"}`, "invalidValue", 400},
		{"Duplicate", "POST", "/Users", `{"schemas":["` + scimUserSchema + `"],"userName":"EVE@example.com"}`, "uniqueness", 409},
		{"WrongType", "POST", "/Users", `{"schemas":["` + scimUserSchema + `"],"userName":["x"]}`, "", 400},
		{"UnknownPatchPath", "PATCH", "/Users/" + id, `{"schemas":["` + scimPatchSchema + `"],"Operations":[{"op":"replace","path":"bogus","value":1}]}`, "invalidPath", 400},
		{"BadPatchOp", "PATCH", "/Users/" + id, `{"schemas":["` + scimPatchSchema + `"],"Operations":[{"op":"move","path":"userName","value":"x"}]}`, "", 400},
		{"RemoveWithoutPath", "PATCH", "/Users/" + id, `{"schemas":["` + scimPatchSchema + `"],"Operations":[{"op":"remove"}]}`, "noTarget", 400},
		{"NoOperations", "PATCH", "/Users/" + id, `{"schemas":["` + scimPatchSchema + `"],"Operations":[]}`, "", 400},
		{"UnknownUser", "GET", "/Users/nosuchuser", "", "", 404},
		{"UnknownGroup", "PATCH", "/Groups/nosuchgroup", `{"schemas":["` + scimPatchSchema + `"],"Operations":[{"op":"replace","path":"displayName","value":"x"}]}`, "", 404},
		{"GroupOfStrangers", "POST", "/Groups", `{"schemas":["` + scimGroupSchema + `"],"displayName":"G","members":[{"value":"nosuchuser"}]}`, "", 400},
		{"GroupWithoutName", "POST", "/Groups", `{"schemas":["` + scimGroupSchema + `"]}`, "", 400},
		{"NulInBody", "POST", "/Users", `{"schemas":["` + scimUserSchema + `"],"userName":"a\u0000@example.com"}`, "", 400},
		{"NoSuchEndpoint", "GET", "/Bogus", "", "", 404},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, m := idp.do(c.method, c.path, c.body)
			if status != c.status || c.scimType != "" && m["scimType"] != c.scimType {
				t.Fatalf("want %d %s, got %d %v", c.status, c.scimType, status, m)
			}
		})
	}
	t.Run("HugeBody", func(t *testing.T) {
		huge := `{"schemas":["` + scimUserSchema + `"],"userName":"` + strings.Repeat("a", 3<<20) + `@example.com"}`
		if status, m := idp.do("POST", "/Users", huge); status != http.StatusRequestEntityTooLarge {
			t.Fatalf("a huge body: %d %v", status, m)
		}
	})
	t.Run("AnotherOrganizationsToken", func(t *testing.T) {
		zeta, zetaOrg := e.Bootstrap("yan@yonder.io", "Yonder")
		token := e.Do(zeta, "POST", "/v1/orgs/"+zetaOrg+"/scim-tokens", nil).Map(t)["token"].(string)
		theirs := scimClient{t: t, e: e, token: token}
		theirs.want(http.StatusNotFound, "GET", "/Users/"+id, "")
		theirs.want(http.StatusNotFound, "DELETE", "/Users/"+id, "")
		if l := theirs.want(http.StatusOK, "GET", "/Users", ""); l["totalResults"] != float64(0) {
			t.Fatalf("another organization's users: %v", l)
		}
		idp.want(http.StatusOK, "GET", "/Users/"+id, "")
	})
	t.Run("GroupReplacedWithStrangerChangesNothing", func(t *testing.T) {
		g := idp.want(http.StatusCreated, "POST", "/Groups", `{"schemas":["`+scimGroupSchema+`"],"displayName":"Kept"}`)
		gid := g["id"].(string)
		idp.want(http.StatusBadRequest, "PUT", "/Groups/"+gid, `{"schemas":["`+scimGroupSchema+`"],"displayName":"Renamed",
			"members":[{"value":"nosuchuser"}]}`)
		if kept := idp.want(http.StatusOK, "GET", "/Groups/"+gid, ""); kept["displayName"] != "Kept" {
			t.Fatalf("a refused replace renamed the group: %v", kept)
		}
	})
	t.Run("LastAdmin", func(t *testing.T) {
		admin := idp.want(http.StatusCreated, "POST", "/Users", `{"schemas":["`+scimUserSchema+`"],"userName":"ada@example.com"}`)
		idp.want(http.StatusBadRequest, "PATCH", "/Users/"+admin["id"].(string), `{"schemas":["`+scimPatchSchema+`"],
			"Operations":[{"op":"replace","path":"active","value":false}]}`)
		e.Do(s.admin, "GET", "/v1/orgs/"+s.org, nil)
	})
}
