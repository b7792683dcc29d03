package rest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/binderyhq/bindery/ent/serverkey"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// orgFixture is an organization with a member of every role, a guest, and an outsider (the admin
// of another organization).
type orgFixture struct {
	e        *testenv.Env
	admin    testenv.Actor
	org      string
	roles    map[string]testenv.Actor // by role name ("admin", "read", …) and "guest"
	outsider testenv.Actor
	otherOrg string
}

var orgLesserRoles = []viewer.Role{viewer.RoleCreate, viewer.RoleReview, viewer.RoleEdit, viewer.RoleComment, viewer.RoleRead}

func newOrgFixture(t *testing.T) *orgFixture {
	t.Helper()
	e := testenv.New(t)
	f := &orgFixture{e: e, roles: map[string]testenv.Actor{}}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.roles["admin"] = f.admin
	for _, r := range orgLesserRoles {
		f.roles[string(r)] = e.User(string(r)+"@example.com", f.org, testenv.Role(r))
	}
	f.roles["guest"] = e.User("guest@example.com", f.org, nil)
	f.outsider, f.otherOrg = e.Bootstrap("zed@zeta.io", "Zeta")
	return f
}

func (f *orgFixture) orgPath() string { return "/v1/orgs/" + f.org }

// orgSite stores a site of the organization directly (sites have no endpoint yet) and returns its id.
func orgSite(t *testing.T, e *testenv.Env, orgID string) string {
	t.Helper()
	s, err := e.Store.Client.Site.Create().SetOrganizationID(orgID).SetTitle("Docs").Save(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// orgGQLData fails the test when g has errors, and decodes its data into v.
func orgGQLData(t *testing.T, g testenv.GQLResponse, v any) {
	t.Helper()
	if len(g.Errors) > 0 || g.Status != http.StatusOK {
		t.Fatalf("GraphQL answered %d with errors %+v", g.Status, g.Errors)
	}
	if err := json.Unmarshal(g.Data, v); err != nil {
		t.Fatalf("decode %s: %v", g.Data, err)
	}
}

// orgGQLCode asserts that the first GraphQL error has the code and that its message names want.
func orgGQLCode(t *testing.T, g testenv.GQLResponse, code, want string) {
	t.Helper()
	if g.Code() != code {
		t.Fatalf("want GraphQL error %s, got %d %+v data %s", code, g.Status, g.Errors, g.Data)
	}
	if !strings.Contains(g.Errors[0].Message, want) {
		t.Fatalf("message %q does not name %q", g.Errors[0].Message, want)
	}
}

// orgGQLInvalid asserts a GraphQL validation error (a variable that does not fit the schema) whose
// message or path names the field.
func orgGQLInvalid(t *testing.T, g testenv.GQLResponse, field string) {
	t.Helper()
	if g.Code() != "GRAPHQL_VALIDATION_FAILED" || !strings.Contains(fmt.Sprint(g.Errors[0].Message, g.Errors[0].Path), field) {
		t.Fatalf("want GRAPHQL_VALIDATION_FAILED naming %s, got %+v", field, g.Errors)
	}
}

// orgErr asserts a failure with the error body whose message names want.
func orgErr(t *testing.T, r testenv.Response, status int, want string) {
	t.Helper()
	if msg := testenv.CheckError(t, r, status); !strings.Contains(msg, want) {
		t.Fatalf("message %q does not name %q", msg, want)
	}
}

func orgStatus(t *testing.T, r testenv.Response, want int) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("want %d, got %d %s", want, r.Status, r.Body)
	}
}

func TestAPIInfo(t *testing.T) {
	f := newOrgFixture(t)
	r := f.e.Do(f.admin, "GET", "/v1/", nil)
	orgStatus(t, r, http.StatusOK)
	var info struct{ Version, Build string }
	r.JSON(t, &info)
	if info.Version == "" || info.Build == "" {
		t.Fatalf("version and build must be set: %s", r.Body)
	}
	t.Run("GraphQL", func(t *testing.T) {
		var d struct {
			APIInfo struct{ Version, Build string }
		}
		orgGQLData(t, f.e.GraphQL(f.admin, `{ apiInfo { version build } }`, nil), &d)
		if d.APIInfo != info {
			t.Fatalf("GraphQL %+v, REST %+v", d.APIInfo, info)
		}
	})
}

func TestViewer(t *testing.T) {
	f := newOrgFixture(t)
	reader := f.roles["read"]
	r := f.e.Do(reader, "GET", "/v1/user", nil)
	orgStatus(t, r, http.StatusOK)
	m := r.Map(t)
	if m["id"] != reader.UserID || m["email"] != reader.Email || m["object"] != "user" || m["displayName"] != "read" {
		t.Fatalf("GET /v1/user: %s", r.Body)
	}
	t.Run("GraphQL", func(t *testing.T) {
		var d struct {
			Viewer struct{ ID, Email, DisplayName string }
		}
		orgGQLData(t, f.e.GraphQL(reader, `{ viewer { id email displayName } }`, nil), &d)
		if d.Viewer.ID != reader.UserID || d.Viewer.Email != reader.Email || d.Viewer.DisplayName != "read" {
			t.Fatalf("viewer: %+v", d.Viewer)
		}
	})
}

func TestGetUser(t *testing.T) {
	f := newOrgFixture(t)
	reader, guest := f.roles["read"], f.roles["guest"]
	cases := []struct {
		name   string
		as     testenv.Actor
		id     string
		status int
	}{
		{"OKSelf", reader, reader.UserID, http.StatusOK},
		{"OKCoMember", reader, f.admin.UserID, http.StatusOK},
		{"OKGuestSeesCoMember", guest, reader.UserID, http.StatusOK},
		{"ErrOtherOrganization", reader, f.outsider.UserID, http.StatusNotFound},
		{"ErrOutsiderAsksMember", f.outsider, reader.UserID, http.StatusNotFound},
		{"ErrUnknown", reader, "nosuchuser0000000000", http.StatusNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.e.Do(c.as, "GET", "/v1/users/"+c.id, nil)
			orgStatus(t, r, c.status)
			if c.status == http.StatusOK && r.Map(t)["id"] != c.id {
				t.Fatalf("wrong user: %s", r.Body)
			}
		})
		t.Run("GraphQL"+c.name, func(t *testing.T) {
			g := f.e.GraphQL(c.as, `query($id: ID!) { user(id: $id) { id email } }`, map[string]any{"id": c.id})
			if c.status != http.StatusOK {
				orgGQLCode(t, g, "NOT_FOUND", "user")
				return
			}
			var d struct{ User struct{ ID string } }
			orgGQLData(t, g, &d)
			if d.User.ID != c.id {
				t.Fatalf("wrong user: %s", g.Data)
			}
		})
	}
}

// orgCreate creates an organization over REST as the actor and returns its id.
func orgCreate(t *testing.T, e *testenv.Env, a testenv.Actor, body any) string {
	t.Helper()
	r := e.Do(a, "POST", "/v1/orgs", body)
	orgStatus(t, r, http.StatusCreated)
	id, _ := r.Map(t)["id"].(string)
	if id == "" {
		t.Fatalf("no id in %s", r.Body)
	}
	return id
}

// orgRESTPages lists the viewer's organizations limit at a time and returns the ids in order,
// checking count on every page and that next is present on all pages but the last.
func orgRESTPages(t *testing.T, e *testenv.Env, a testenv.Actor, limit, wantCount int) []string {
	t.Helper()
	var ids []string
	page := ""
	for i := 0; i < 100; i++ {
		path := fmt.Sprintf("/v1/orgs?limit=%d", limit)
		if page != "" {
			path += "&page=" + page
		}
		var l struct {
			Next  *struct{ Page string }
			Count int
			Items []struct{ ID string }
		}
		r := e.Do(a, "GET", path, nil)
		orgStatus(t, r, http.StatusOK)
		r.JSON(t, &l)
		if l.Count != wantCount {
			t.Fatalf("page %d: count %d, want %d", i, l.Count, wantCount)
		}
		for _, it := range l.Items {
			ids = append(ids, it.ID)
		}
		if l.Next == nil {
			if len(ids) < wantCount && len(l.Items) == 0 {
				t.Fatalf("next absent after %d of %d items", len(ids), wantCount)
			}
			return ids
		}
		if l.Next.Page == "" || len(l.Items) != limit {
			t.Fatalf("page %d: %s", i, r.Body)
		}
		page = l.Next.Page
	}
	t.Fatal("pagination does not end")
	return nil
}

// orgSameSet asserts that got lists every id of want exactly once.
func orgSameSet(t *testing.T, got, want []string) {
	t.Helper()
	seen := map[string]int{}
	for _, id := range got {
		seen[id]++
	}
	for _, id := range want {
		if seen[id] != 1 {
			t.Fatalf("%s listed %d times in %v", id, seen[id], got)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("listed %v, want %v", got, want)
	}
}

// orgPaginationFixture gives the admin 6 organizations (the bootstrap one and 5 more).
func orgPaginationFixture(t *testing.T) (*orgFixture, []string) {
	t.Helper()
	f := newOrgFixture(t)
	all := []string{f.org}
	for i := 0; i < 5; i++ {
		all = append(all, orgCreate(t, f.e, f.admin, map[string]any{"title": fmt.Sprintf("Org %d", i)}))
	}
	return f, all
}

func TestListOrganizations(t *testing.T) {
	f, all := orgPaginationFixture(t)
	t.Run("OKPages", func(t *testing.T) {
		orgSameSet(t, orgRESTPages(t, f.e, f.admin, 2, 6), all)
	})
	t.Run("OKOnePage", func(t *testing.T) {
		orgSameSet(t, orgRESTPages(t, f.e, f.admin, 1000, 6), all)
	})
	t.Run("OKDefaultLimit", func(t *testing.T) {
		var l struct {
			Next  *struct{ Page string }
			Count int
			Items []any
		}
		f.e.Do(f.admin, "GET", "/v1/orgs", nil).JSON(t, &l)
		if l.Next != nil || l.Count != 6 || len(l.Items) != 6 {
			t.Fatalf("default page: %+v", l)
		}
	})
	t.Run("OKLimitZero", func(t *testing.T) {
		m := f.e.Do(f.admin, "GET", "/v1/orgs?limit=0", nil).Map(t)
		if items, _ := m["items"].([]any); len(items) != 0 || m["count"] != float64(6) || m["next"] != nil {
			t.Fatalf("limit=0: %v", m)
		}
	})
	t.Run("OKOnlyOwn", func(t *testing.T) {
		orgSameSet(t, orgRESTPages(t, f.e, f.outsider, 2, 1), []string{f.otherOrg})
	})
	for _, limit := range []string{"1001", "-1", "abc", "1.5"} {
		t.Run("ErrLimit"+limit, func(t *testing.T) {
			orgErr(t, f.e.Do(f.admin, "GET", "/v1/orgs?limit="+limit, nil), http.StatusBadRequest, "limit")
		})
	}
	forged := map[string]string{
		"NotBase64":   "%21%21%21",
		"NotACursor":  base64.RawURLEncoding.EncodeToString([]byte("hello")),
		"WrongKey":    base64.RawURLEncoding.EncodeToString([]byte(`{"k":5,"i":"abc"}`)),
		"ForeignTime": base64.RawURLEncoding.EncodeToString([]byte(`{"k":"yesterday","i":"abc"}`)),
	}
	for name, page := range forged {
		t.Run("ErrPage"+name, func(t *testing.T) {
			orgErr(t, f.e.Do(f.admin, "GET", "/v1/orgs?limit=2&page="+page, nil), http.StatusBadRequest, "page")
		})
	}
}

const orgConnectionQuery = `query($first: Int, $after: String) {
  organizations(first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id } }
  }
}`

type orgConnection struct {
	Organizations struct {
		TotalCount int
		PageInfo   struct {
			HasNextPage bool
			EndCursor   *string
		}
		Edges []struct {
			Cursor string
			Node   struct{ ID string }
		}
	}
}

func TestGraphQLOrganizations(t *testing.T) {
	f, all := orgPaginationFixture(t)
	t.Run("OKPages", func(t *testing.T) {
		var ids []string
		vars := map[string]any{"first": 2}
		for page := 0; ; page++ {
			var d orgConnection
			orgGQLData(t, f.e.GraphQL(f.admin, orgConnectionQuery, vars), &d)
			c := d.Organizations
			if c.TotalCount != 6 {
				t.Fatalf("totalCount %d", c.TotalCount)
			}
			for _, e := range c.Edges {
				ids = append(ids, e.Node.ID)
			}
			if !c.PageInfo.HasNextPage {
				if page != 2 {
					t.Fatalf("hasNextPage false on page %d", page)
				}
				break
			}
			if c.PageInfo.EndCursor == nil || *c.PageInfo.EndCursor != c.Edges[len(c.Edges)-1].Cursor {
				t.Fatalf("endCursor must be the last edge's cursor: %+v", c)
			}
			vars["after"] = *c.PageInfo.EndCursor
		}
		orgSameSet(t, ids, all)
	})
	t.Run("OKSameCursorAsREST", func(t *testing.T) {
		var l struct{ Next struct{ Page string } }
		f.e.Do(f.admin, "GET", "/v1/orgs?limit=2", nil).JSON(t, &l)
		var d orgConnection
		orgGQLData(t, f.e.GraphQL(f.admin, orgConnectionQuery, map[string]any{"first": 2, "after": l.Next.Page}), &d)
		if len(d.Organizations.Edges) != 2 || !d.Organizations.PageInfo.HasNextPage {
			t.Fatalf("a REST page token must work as a GraphQL cursor: %+v", d)
		}
	})
	t.Run("OKFirstZero", func(t *testing.T) {
		var d orgConnection
		orgGQLData(t, f.e.GraphQL(f.admin, orgConnectionQuery, map[string]any{"first": 0}), &d)
		if len(d.Organizations.Edges) != 0 || d.Organizations.TotalCount != 6 || d.Organizations.PageInfo.HasNextPage {
			t.Fatalf("first: 0 → %+v", d)
		}
	})
	for _, first := range []int{1001, -1} {
		t.Run(fmt.Sprintf("ErrFirst%d", first), func(t *testing.T) {
			g := f.e.GraphQL(f.admin, `query($first: Int) { organizations(first: $first) { totalCount } }`, map[string]any{"first": first})
			orgGQLCode(t, g, "BAD_REQUEST", "limit")
		})
	}
	t.Run("ErrForgedCursor", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, orgConnectionQuery, map[string]any{"first": 2, "after": "forged"})
		orgGQLCode(t, g, "BAD_REQUEST", "page")
	})
}

func TestCreateOrganization(t *testing.T) {
	f := newOrgFixture(t)
	t.Run("OK", func(t *testing.T) {
		r := f.e.Do(f.roles["read"], "POST", "/v1/orgs",
			map[string]any{"title": "  Globex  ", "emailDomains": []string{" Globex.COM ", "globex.com", "mail.globex.com"}})
		orgStatus(t, r, http.StatusCreated)
		var o struct {
			ID, Title    string
			EmailDomains []string
			Permissions  struct{ Admin bool }
		}
		r.JSON(t, &o)
		if o.Title != "Globex" || !reflect.DeepEqual(o.EmailDomains, []string{"globex.com", "mail.globex.com"}) || !o.Permissions.Admin {
			t.Fatalf("created: %s", r.Body)
		}
		m := f.e.Do(f.roles["read"], "GET", "/v1/orgs/"+o.ID+"/members/"+f.roles["read"].UserID, nil).Map(t)
		if m["role"] != "admin" {
			t.Fatalf("the creator must be admin: %v", m)
		}
		if f.e.Do(f.admin, "GET", "/v1/orgs/"+o.ID, nil).Status != http.StatusNotFound {
			t.Fatal("others must not see the new organization")
		}
	})
	t.Run("OKTitleMultiByte255", func(t *testing.T) {
		title := strings.Repeat("é", 255)
		id := orgCreate(t, f.e, f.admin, map[string]any{"title": title})
		if got := f.e.Do(f.admin, "GET", "/v1/orgs/"+id, nil).Map(t)["title"]; got != title {
			t.Fatalf("title %q", got)
		}
	})
	t.Run("OKTitle2", func(t *testing.T) {
		orgCreate(t, f.e, f.admin, map[string]any{"title": "Ab"})
	})
	errs := []struct {
		name, field string
		body        any
	}{
		{"ErrTitleTooShort", "title", map[string]any{"title": "A"}},
		{"ErrTitleBlank", "title", map[string]any{"title": "    "}},
		{"ErrTitleTooLong", "title", map[string]any{"title": strings.Repeat("a", 256)}},
		{"ErrTitleMissing", "title", map[string]any{"emailDomains": []string{"a.com"}}},
		{"ErrTitleWrongType", "title", `{"title": 5}`},
		{"ErrEmailDomainsWrongType", "emailDomains", `{"title": "Okay", "emailDomains": "a.com"}`},
		{"ErrEmailDomainInvalid", "emailDomains[1]", map[string]any{"title": "Okay", "emailDomains": []string{"a.com", "not a domain"}}},
		{"ErrMalformedJSON", "JSON", `{"title": "Okay"`},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			orgErr(t, f.e.Do(f.admin, "POST", "/v1/orgs", c.body), http.StatusBadRequest, c.field)
		})
	}
	t.Run("ErrNothingCreated", func(t *testing.T) {
		var l struct{ Count int }
		f.e.Do(f.outsider, "GET", "/v1/orgs", nil).JSON(t, &l)
		if l.Count != 1 {
			t.Fatalf("the outsider has %d organizations, want 1", l.Count)
		}
	})
}

const orgCreateMutation = `mutation($in: CreateOrganizationInput!) {
  createOrganization(input: $in) { id title emailDomains permissions { admin } viewerMembership { role } }
}`

func TestGraphQLCreateOrganization(t *testing.T) {
	f := newOrgFixture(t)
	t.Run("OK", func(t *testing.T) {
		var d struct {
			CreateOrganization struct {
				ID, Title        string
				EmailDomains     []string
				Permissions      struct{ Admin bool }
				ViewerMembership struct{ Role string }
			}
		}
		in := map[string]any{"title": "Initech", "emailDomains": []string{"INITECH.com"}}
		orgGQLData(t, f.e.GraphQL(f.roles["guest"], orgCreateMutation, map[string]any{"in": in}), &d)
		o := d.CreateOrganization
		if o.Title != "Initech" || !reflect.DeepEqual(o.EmailDomains, []string{"initech.com"}) || !o.Permissions.Admin || o.ViewerMembership.Role != "ADMIN" {
			t.Fatalf("created: %+v", o)
		}
	})
	errs := []struct {
		name, field string
		in          map[string]any
	}{
		{"ErrTitleTooShort", "title", map[string]any{"title": "A"}},
		{"ErrTitleTooLong", "title", map[string]any{"title": strings.Repeat("a", 256)}},
		{"ErrEmailDomainInvalid", "emailDomains[0]", map[string]any{"title": "Okay", "emailDomains": []string{"-bad-"}}},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			orgGQLCode(t, f.e.GraphQL(f.admin, orgCreateMutation, map[string]any{"in": c.in}), "BAD_REQUEST", c.field)
		})
	}
	t.Run("ErrTitleMissing", func(t *testing.T) {
		orgGQLInvalid(t, f.e.GraphQL(f.admin, orgCreateMutation, map[string]any{"in": map[string]any{}}), "title")
	})
}

func TestGetOrganization(t *testing.T) {
	f := newOrgFixture(t)
	for who, a := range f.roles {
		t.Run("OK"+who, func(t *testing.T) {
			r := f.e.Do(a, "GET", f.orgPath(), nil)
			orgStatus(t, r, http.StatusOK)
			if m := r.Map(t); m["id"] != f.org || m["title"] != "Acme" {
				t.Fatalf("GET: %s", r.Body)
			}
		})
	}
	t.Run("ErrOutsider", func(t *testing.T) {
		orgStatus(t, f.e.Do(f.outsider, "GET", f.orgPath(), nil), http.StatusNotFound)
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		orgStatus(t, f.e.Do(f.admin, "GET", "/v1/orgs/nosuchorg00000000000", nil), http.StatusNotFound)
	})
	t.Run("GraphQLErrOutsider", func(t *testing.T) {
		g := f.e.GraphQL(f.outsider, `query($id: ID!) { organization(id: $id) { id title } }`, map[string]any{"id": f.org})
		orgGQLCode(t, g, "NOT_FOUND", "organization")
	})
}

func TestOrganizationPermissions(t *testing.T) {
	f := newOrgFixture(t)
	type perms map[string]bool
	all := perms{"view": true, "access": true, "admin": true, "createContent": true, "createOpenAPISpec": true,
		"viewBilling": true, "listMembers": true, "listTeams": true, "listIntegrations": true,
		"listInstallations": true, "installIntegration": true}
	cases := []struct {
		who  string
		want perms
	}{
		{"admin", all},
		{"create", perms{"view": true, "listMembers": true, "createContent": true, "admin": false, "viewBilling": false}},
		{"read", perms{"view": true, "access": true, "listMembers": true, "listTeams": true, "admin": false, "createContent": false}},
		{"guest", perms{"view": true, "listMembers": false, "listTeams": false, "admin": false, "createContent": false}},
	}
	for _, c := range cases {
		t.Run(c.who, func(t *testing.T) {
			var o struct{ Permissions map[string]bool }
			f.e.Do(f.roles[c.who], "GET", f.orgPath(), nil).JSON(t, &o)
			for k, v := range c.want {
				if got, ok := o.Permissions[k]; !ok || got != v {
					t.Errorf("REST permissions.%s = %v, want %v", k, got, v)
				}
			}
			var d struct {
				Organization struct{ Permissions map[string]bool }
			}
			orgGQLData(t, f.e.GraphQL(f.roles[c.who], `query($id: ID!) { organization(id: $id) { permissions {
				view access admin ownTeam createContent createOpenAPISpec viewBilling listMembers listTeams
				listIntegrations listInstallations installIntegration } } }`, map[string]any{"id": f.org}), &d)
			if !reflect.DeepEqual(d.Organization.Permissions, o.Permissions) {
				t.Errorf("GraphQL %v, REST %v", d.Organization.Permissions, o.Permissions)
			}
		})
	}
}

// orgRoleCase is an actor of the role matrix and what they get.
type orgRoleCase struct {
	who    string
	actor  testenv.Actor
	status int
	code   string // GraphQL extensions.code; "" for success
}

func (f *orgFixture) adminOnlyMatrix() []orgRoleCase {
	cases := []orgRoleCase{{"admin", f.admin, http.StatusOK, ""}, {"guest", f.roles["guest"], http.StatusForbidden, "FORBIDDEN"}}
	for _, r := range orgLesserRoles {
		cases = append(cases, orgRoleCase{string(r), f.roles[string(r)], http.StatusForbidden, "FORBIDDEN"})
	}
	return append(cases, orgRoleCase{"outsider", f.outsider, http.StatusNotFound, "NOT_FOUND"})
}

func TestUpdateOrganizationRoles(t *testing.T) {
	f := newOrgFixture(t)
	cases := f.adminOnlyMatrix()
	mutation := `mutation($id: ID!, $in: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $in) { title } }`
	for _, c := range cases {
		t.Run(c.who, func(t *testing.T) {
			title := "Renamed by " + c.who
			orgStatus(t, f.e.Do(c.actor, "PATCH", f.orgPath(), map[string]any{"title": title}), c.status)
			g := f.e.GraphQL(c.actor, mutation, map[string]any{"id": f.org, "in": map[string]any{"title": title + " too"}})
			if c.code != "" {
				orgGQLCode(t, g, c.code, "")
				if got := f.e.Do(f.admin, "GET", f.orgPath(), nil).Map(t)["title"]; strings.HasPrefix(got.(string), title) {
					t.Fatalf("a refused update changed the title to %q", got)
				}
				return
			}
			var d struct{ UpdateOrganization struct{ Title string } }
			orgGQLData(t, g, &d)
			if d.UpdateOrganization.Title != title+" too" {
				t.Fatalf("title %q", d.UpdateOrganization.Title)
			}
		})
	}
}

// orgUpdateCase is a PATCH body and a check of the organization it answers.
type orgUpdateCase struct {
	name  string
	body  any
	check func(t *testing.T, o map[string]any)
}

func orgField(key string, want any) func(*testing.T, map[string]any) {
	return func(t *testing.T, o map[string]any) {
		t.Helper()
		if got, ok := o[key]; want == nil && ok && got != nil || want != nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s = %#v, want %#v", key, got, want)
		}
	}
}

func orgLogo(want any) func(*testing.T, map[string]any) {
	return func(t *testing.T, o map[string]any) {
		t.Helper()
		orgField("logo", want)(t, o["urls"].(map[string]any))
	}
}

func TestUpdateOrganizationFields(t *testing.T) {
	f := newOrgFixture(t)
	site := orgSite(t, f.e, f.org)
	logo := "https://cdn.example.com/" + strings.Repeat("l", 2048-len("https://cdn.example.com/"))
	cases := []orgUpdateCase{
		{"OKTitle", map[string]any{"title": " Acme Corp "}, orgField("title", "Acme Corp")},
		{"OKTitleMultiByte255", map[string]any{"title": strings.Repeat("é", 255)}, orgField("title", strings.Repeat("é", 255))},
		{"OKEmailDomains", map[string]any{"emailDomains": []string{"ACME.com", " acme.com", "docs.acme.io"}},
			orgField("emailDomains", []any{"acme.com", "docs.acme.io"})},
		{"OKEmailDomainsEmpty", map[string]any{"emailDomains": []string{}}, orgField("emailDomains", []any{})},
		{"OKHostname", map[string]any{"hostname": "acme"}, orgField("hostname", "acme")},
		{"OKHostname32", map[string]any{"hostname": strings.Repeat("h", 32)}, orgField("hostname", strings.Repeat("h", 32))},
		{"OKHostnameUnchangedWhenAbsent", map[string]any{"ai": false}, orgField("hostname", strings.Repeat("h", 32))},
		{"OKHostnameNull", `{"hostname": null}`, orgField("hostname", nil)},
		{"OKDefaultRole", map[string]any{"defaultRole": "edit"}, orgField("defaultRole", "edit")},
		{"OKDefaultRoleNull", `{"defaultRole": null}`, orgField("defaultRole", nil)},
		{"OKDefaultContent", map[string]any{"defaultContent": map[string]any{"type": "site", "site": site}},
			orgField("defaultContent", map[string]any{"type": "site", "site": site})},
		{"OKDefaultContentNull", `{"defaultContent": null}`, orgField("defaultContent", nil)},
		{"OKLogo", map[string]any{"logo": logo}, orgLogo(logo)},
		{"OKLogoNull", `{"logo": null}`, orgLogo(nil)},
		{"OKSSO", map[string]any{"sso": true}, orgField("sso", true)},
		{"OKAI", map[string]any{"ai": true}, orgField("ai", true)},
		{"OKInviteLinks", map[string]any{"inviteLinks": false}, orgField("inviteLinks", false)},
		{"OKEmptyBody", `{}`, orgField("inviteLinks", false)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.e.Do(f.admin, "PATCH", f.orgPath(), c.body)
			orgStatus(t, r, http.StatusOK)
			c.check(t, r.Map(t))
			c.check(t, f.e.Do(f.admin, "GET", f.orgPath(), nil).Map(t))
		})
	}
}

func TestUpdateOrganizationErrors(t *testing.T) {
	f := newOrgFixture(t)
	other := orgCreate(t, f.e, f.admin, map[string]any{"title": "Other"})
	otherSite := orgSite(t, f.e, other)
	orgStatus(t, f.e.Do(f.admin, "PATCH", "/v1/orgs/"+other, map[string]any{"hostname": "taken"}), http.StatusOK)
	orgStatus(t, f.e.Do(f.admin, "PATCH", f.orgPath(), map[string]any{"hostname": "mine", "defaultRole": "read",
		"logo": "https://example.com/logo.png", "emailDomains": []string{"example.com"}}), http.StatusOK)
	cases := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"ErrTitleTooShort", map[string]any{"title": "A"}, 400, "title"},
		{"ErrTitleTooLong", map[string]any{"title": strings.Repeat("a", 256)}, 400, "title"},
		{"ErrTitleNull", `{"title": null}`, 400, "title"},
		{"ErrTitleWrongType", `{"title": 5}`, 400, "title"},
		{"ErrEmailDomainInvalid", map[string]any{"emailDomains": []string{"ok.com", "bad_domain"}}, 400, "emailDomains[1]"},
		{"ErrEmailDomainsWrongType", `{"emailDomains": [5]}`, 400, "emailDomains"},
		{"ErrHostnameTooShort", map[string]any{"hostname": "ab"}, 400, "hostname"},
		{"ErrHostnameTooLong", map[string]any{"hostname": strings.Repeat("h", 33)}, 400, "hostname"},
		{"ErrHostnameTaken", map[string]any{"hostname": "taken"}, 409, "hostname"},
		{"ErrDefaultRoleUnknown", map[string]any{"defaultRole": "owner"}, 400, "defaultRole"},
		{"ErrDefaultRoleUpperCase", map[string]any{"defaultRole": "EDIT"}, 400, "defaultRole"},
		{"ErrDefaultContentWrongType", map[string]any{"defaultContent": "site_1"}, 400, "defaultContent"},
		{"ErrDefaultContentUnknownSite", map[string]any{"defaultContent": map[string]any{"type": "site", "site": "nosuchsite"}}, 400, "defaultContent.site"},
		{"ErrDefaultContentSiteOfOtherOrg", map[string]any{"defaultContent": map[string]any{"type": "site", "site": otherSite}}, 400, "defaultContent.site"},
		{"ErrLogoTooLong", map[string]any{"logo": "https://example.com/" + strings.Repeat("l", 2049)}, 400, "logo"},
		{"ErrLogoNotURL", map[string]any{"logo": "not a url"}, 400, "logo"},
		{"ErrLogoNotHTTP", map[string]any{"logo": "javascript:alert(1)"}, 400, "logo"},
		{"ErrSSOWrongType", `{"sso": "yes"}`, 400, "sso"},
		{"ErrAIWrongType", `{"ai": 1}`, 400, "ai"},
		{"ErrInviteLinksWrongType", `{"inviteLinks": "no"}`, 400, "inviteLinks"},
		{"ErrValidTitleBadHostname", map[string]any{"title": "Changed", "sso": true, "hostname": "x"}, 400, "hostname"},
		{"ErrValidTitleTakenHostname", map[string]any{"title": "Changed", "ai": true, "hostname": "taken"}, 409, "hostname"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := f.e.Do(f.admin, "GET", f.orgPath(), nil).Map(t)
			orgErr(t, f.e.Do(f.admin, "PATCH", f.orgPath(), c.body), c.status, c.field)
			if after := f.e.Do(f.admin, "GET", f.orgPath(), nil).Map(t); !reflect.DeepEqual(after, before) {
				t.Fatalf("a failed PATCH changed the organization:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

const orgUpdateMutation = `mutation($id: ID!, $in: UpdateOrganizationInput!) {
  updateOrganization(id: $id, input: $in) { title hostname defaultRole defaultContentSite logo sso ai inviteLinks emailDomains }
}`

func TestGraphQLUpdateOrganization(t *testing.T) {
	f := newOrgFixture(t)
	site := orgSite(t, f.e, f.org)
	update := func(t *testing.T, in map[string]any) map[string]any {
		t.Helper()
		var d struct{ UpdateOrganization map[string]any }
		orgGQLData(t, f.e.GraphQL(f.admin, orgUpdateMutation, map[string]any{"id": f.org, "in": in}), &d)
		return d.UpdateOrganization
	}
	t.Run("OKEveryField", func(t *testing.T) {
		o := update(t, map[string]any{"title": "Acme GQL", "hostname": "acme-gql", "defaultRole": "EDIT",
			"defaultContentSite": site, "logo": "https://example.com/l.png", "sso": true, "ai": true,
			"inviteLinks": false, "emailDomains": []string{"Acme.IO"}})
		want := map[string]any{"title": "Acme GQL", "hostname": "acme-gql", "defaultRole": "EDIT",
			"defaultContentSite": site, "logo": "https://example.com/l.png", "sso": true, "ai": true,
			"inviteLinks": false, "emailDomains": []any{"acme.io"}}
		if !reflect.DeepEqual(o, want) {
			t.Fatalf("got %v\nwant %v", o, want)
		}
	})
	t.Run("OKOmittedFieldsUnchanged", func(t *testing.T) {
		o := update(t, map[string]any{"title": "Acme Again"})
		if o["defaultRole"] != "EDIT" || o["hostname"] != "acme-gql" || o["logo"] == nil || o["defaultContentSite"] == nil {
			t.Fatalf("omitted fields changed: %v", o)
		}
	})
	t.Run("OKNullClears", func(t *testing.T) {
		o := update(t, map[string]any{"defaultRole": nil, "hostname": nil, "logo": nil, "defaultContentSite": nil})
		for _, k := range []string{"defaultRole", "hostname", "logo", "defaultContentSite"} {
			if o[k] != nil {
				t.Fatalf("%s not cleared: %v", k, o)
			}
		}
		if o["title"] != "Acme Again" {
			t.Fatalf("title changed: %v", o)
		}
	})
	t.Run("OKNullInlineDefaultRole", func(t *testing.T) {
		update(t, map[string]any{"defaultRole": "READ"})
		var d struct{ UpdateOrganization struct{ DefaultRole *string } }
		orgGQLData(t, f.e.GraphQL(f.admin, `mutation($id: ID!) { updateOrganization(id: $id, input: {defaultRole: null}) { defaultRole } }`,
			map[string]any{"id": f.org}), &d)
		if d.UpdateOrganization.DefaultRole != nil {
			t.Fatalf("defaultRole %v", *d.UpdateOrganization.DefaultRole)
		}
	})
	errs := []struct {
		name, code, field string
		in                map[string]any
	}{
		{"ErrTitleTooShort", "BAD_REQUEST", "title", map[string]any{"title": "A"}},
		{"ErrHostnameTooLong", "BAD_REQUEST", "hostname", map[string]any{"hostname": strings.Repeat("h", 33)}},
		{"ErrLogoNotURL", "BAD_REQUEST", "logo", map[string]any{"logo": "nope"}},
		{"ErrEmailDomainInvalid", "BAD_REQUEST", "emailDomains[0]", map[string]any{"emailDomains": []string{"x"}}},
		{"ErrDefaultContentSiteUnknown", "BAD_REQUEST", "defaultContent.site", map[string]any{"defaultContentSite": "nosuchsite"}},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			before := f.e.Do(f.admin, "GET", f.orgPath(), nil).Map(t)
			g := f.e.GraphQL(f.admin, orgUpdateMutation, map[string]any{"id": f.org, "in": c.in})
			if g.Code() != c.code || !strings.Contains(fmt.Sprint(g.Errors[0].Message, g.Errors[0].Path), c.field) {
				t.Fatalf("want %s naming %s, got %+v", c.code, c.field, g.Errors)
			}
			if after := f.e.Do(f.admin, "GET", f.orgPath(), nil).Map(t); !reflect.DeepEqual(after, before) {
				t.Fatalf("a failed update changed the organization")
			}
		})
	}
	t.Run("ErrDefaultRoleUnknown", func(t *testing.T) {
		orgGQLInvalid(t, f.e.GraphQL(f.admin, orgUpdateMutation, map[string]any{"id": f.org, "in": map[string]any{"defaultRole": "OWNER"}}), "defaultRole")
	})
	t.Run("ErrHostnameTaken", func(t *testing.T) {
		orgStatus(t, f.e.Do(f.outsider, "PATCH", "/v1/orgs/"+f.otherOrg, map[string]any{"hostname": "zeta"}), http.StatusOK)
		orgGQLCode(t, f.e.GraphQL(f.admin, orgUpdateMutation, map[string]any{"id": f.org, "in": map[string]any{"hostname": "zeta"}}),
			"CONFLICT", "hostname")
	})
}

// orgNames returns the titles of the organizations in an email-domain answer.
func orgNames(t *testing.T, r testenv.Response) []string {
	t.Helper()
	orgStatus(t, r, http.StatusOK)
	var body struct{ Organizations []struct{ Title string } }
	r.JSON(t, &body)
	names := []string{}
	for _, o := range body.Organizations {
		names = append(names, o.Title)
	}
	return names
}

func TestOrganizationsForEmailDomain(t *testing.T) {
	f := newOrgFixture(t)
	// Zeta (not Ada's) lists Ada's domain example.com and its own zeta.io; Ada's Partners lists zeta.io.
	orgStatus(t, f.e.Do(f.outsider, "PATCH", "/v1/orgs/"+f.otherOrg,
		map[string]any{"emailDomains": []string{"zeta.io", "example.com"}}), http.StatusOK)
	orgCreate(t, f.e, f.admin, map[string]any{"title": "Partners", "emailDomains": []string{"zeta.io"}})
	orgCreate(t, f.e, f.outsider, map[string]any{"title": "Zeta Labs", "emailDomains": []string{"zeta.io"}})
	cases := []struct {
		name   string
		as     testenv.Actor
		domain string
		want   []string
	}{
		{"OKOwnDomainFindsNonMemberOrg", f.admin, "example.com", []string{"Zeta"}},
		{"OKOwnDomainAnyCase", f.roles["read"], "EXAMPLE.com", []string{"Zeta"}},
		{"OKOtherDomainOnlyOwnOrgs", f.admin, "zeta.io", []string{"Partners"}},
		{"OKOutsiderOwnDomain", f.outsider, "zeta.io", []string{"Partners", "Zeta", "Zeta Labs"}},
		{"OKOutsiderOtherDomain", f.outsider, "example.com", []string{"Zeta"}},
		{"OKUnlistedDomain", f.admin, "nobody.org", []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := orgNames(t, f.e.Do(c.as, "GET", "/v1/email-domains/"+c.domain+"/orgs", nil)); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("REST %v, want %v", got, c.want)
			}
			var d struct{ OrganizationsForEmailDomain []struct{ Title string } }
			orgGQLData(t, f.e.GraphQL(c.as, `query($d: String!) { organizationsForEmailDomain(domain: $d) { title } }`,
				map[string]any{"d": c.domain}), &d)
			got := []string{}
			for _, o := range d.OrganizationsForEmailDomain {
				got = append(got, o.Title)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("GraphQL %v, want %v", got, c.want)
			}
		})
	}
	t.Run("ErrDomainTooLong", func(t *testing.T) {
		orgErr(t, f.e.Do(f.admin, "GET", "/v1/email-domains/"+strings.Repeat("a", 254)+"/orgs", nil), 400, "emailDomain")
	})
	t.Run("OKFoundOrgStaysHidden", func(t *testing.T) {
		orgStatus(t, f.e.Do(f.admin, "GET", "/v1/orgs/"+f.otherOrg, nil), http.StatusNotFound)
	})
}

// orgClaims decodes the payload (middle segment) of a JWT without checking it.
func orgClaims(t *testing.T, token string) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", token)
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatalf("payload is not base64url: %v", err)
	}
	var claims map[string]any
	if err := json.Unmarshal(raw, &claims); err != nil {
		t.Fatalf("payload is not JSON: %s", raw)
	}
	return claims
}

// orgVerifyClaims checks the HS256 signature with the key kept in the database.
func orgVerifyClaims(t *testing.T, e *testenv.Env, token string) {
	t.Helper()
	key, err := e.Store.Client.ServerKey.Query().Where(serverkey.Purpose("visitor-claims")).Only(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	keyFunc := func(*jwt.Token) (any, error) { return key.Secret, nil }
	if _, err := jwt.Parse(token, keyFunc, jwt.WithValidMethods([]string{"HS256"})); err != nil {
		t.Fatalf("signature: %v", err)
	}
	wrong := func(*jwt.Token) (any, error) { return []byte("not the key"), nil }
	if _, err := jwt.Parse(token, wrong, jwt.WithValidMethods([]string{"HS256"})); err == nil {
		t.Fatal("the claims verify with a wrong key")
	}
}

func (f *orgFixture) lastSeen(t *testing.T, userID string) any {
	t.Helper()
	return f.e.Do(f.admin, "GET", f.orgPath()+"/members/"+userID, nil).Map(t)["lastSeenAt"]
}

func TestPing(t *testing.T) {
	f := newOrgFixture(t)
	for _, who := range []string{"admin", "read", "guest"} {
		t.Run("OK"+who, func(t *testing.T) {
			a := f.roles[who]
			if seen := f.lastSeen(t, a.UserID); seen != nil && who != "admin" {
				t.Fatalf("lastSeenAt before any ping: %v", seen)
			}
			start := time.Now().Add(-time.Minute)
			r := f.e.Do(a, "POST", f.orgPath()+"/ping", nil)
			orgStatus(t, r, http.StatusOK)
			seen, _ := f.lastSeen(t, a.UserID).(string)
			if at, err := time.Parse(time.RFC3339Nano, seen); err != nil || at.Before(start) {
				t.Fatalf("lastSeenAt %q after ping", seen)
			}
			token, _ := r.Map(t)["serviceVisitorClaims"].(string)
			c := orgClaims(t, token)
			if c["sub"] != a.UserID || c["organization"] != f.org || c["role"] != who {
				t.Fatalf("claims %v", c)
			}
			if iat, exp := c["iat"].(float64), c["exp"].(float64); !(exp > iat) || iat < float64(start.Unix()) {
				t.Fatalf("iat %v exp %v", iat, exp)
			}
			orgVerifyClaims(t, f.e, token)
		})
	}
	t.Run("ErrOutsider", func(t *testing.T) {
		orgStatus(t, f.e.Do(f.outsider, "POST", f.orgPath()+"/ping", nil), http.StatusNotFound)
	})
	t.Run("GraphQLOK", func(t *testing.T) {
		var d struct {
			Ping struct{ ServiceVisitorClaims string }
		}
		orgGQLData(t, f.e.GraphQL(f.roles["edit"], `mutation($id: ID!) { ping(organizationId: $id) { serviceVisitorClaims } }`,
			map[string]any{"id": f.org}), &d)
		if c := orgClaims(t, d.Ping.ServiceVisitorClaims); c["sub"] != f.roles["edit"].UserID || c["role"] != "edit" {
			t.Fatalf("claims %v", c)
		}
		orgVerifyClaims(t, f.e, d.Ping.ServiceVisitorClaims)
		if f.lastSeen(t, f.roles["edit"].UserID) == nil {
			t.Fatal("GraphQL ping did not set lastSeenAt")
		}
	})
	t.Run("GraphQLErrOutsider", func(t *testing.T) {
		g := f.e.GraphQL(f.outsider, `mutation($id: ID!) { ping(organizationId: $id) { serviceVisitorClaims } }`, map[string]any{"id": f.org})
		orgGQLCode(t, g, "NOT_FOUND", "")
	})
}
