package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/customfieldvalue"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// colFixture is an organization with its admin and one member per role, a guest, and an outsider
// (the admin of another organization).
type colFixture struct {
	e               *testenv.Env
	admin, outsider testenv.Actor
	org, otherOrg   string
	roles           map[viewer.Role]testenv.Actor
	guest           testenv.Actor
}

var colRoles = []viewer.Role{viewer.RoleAdmin, viewer.RoleCreate, viewer.RoleReview, viewer.RoleEdit, viewer.RoleComment, viewer.RoleRead}

func newColFixture(t *testing.T) *colFixture {
	t.Helper()
	e := testenv.New(t)
	f := &colFixture{e: e, roles: map[viewer.Role]testenv.Actor{}}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.outsider, f.otherOrg = e.Bootstrap("oscar@other.example", "Other")
	for _, r := range colRoles[1:] {
		f.roles[r] = e.User(string(r)+"@example.com", f.org, testenv.Role(r))
	}
	f.roles[viewer.RoleAdmin] = f.admin
	f.guest = e.User("guest@example.com", f.org, nil)
	return f
}

// colWire is the wire shape of a collection.
type colWire struct {
	Object       string  `json:"object"`
	ID           string  `json:"id"`
	Title        string  `json:"title"`
	Description  *string `json:"description"`
	Organization string  `json:"organization"`
	Parent       *string `json:"parent"`
	DefaultLevel *string `json:"defaultLevel"`
	URLs         struct {
		Location string `json:"location"`
		App      string `json:"app"`
	} `json:"urls"`
	Permissions colPerms `json:"permissions"`
}

type colPerms struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

type colPage struct {
	Items []colWire `json:"items"`
	Count int       `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

func colWant(t *testing.T, resp testenv.Response, status int) {
	t.Helper()
	if resp.Status != status {
		t.Fatalf("want %d, got %d %s", status, resp.Status, resp.Body)
	}
}

// create creates a collection in the fixture's organization as the admin (parent "" for the top).
func (f *colFixture) create(t *testing.T, title, parent string) colWire {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	resp := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/collections", body)
	colWant(t, resp, 201)
	var w colWire
	resp.JSON(t, &w)
	return w
}

func (f *colFixture) get(t *testing.T, a testenv.Actor, id string) colWire {
	t.Helper()
	resp := f.e.Do(a, "GET", "/v1/collections/"+id, nil)
	colWant(t, resp, 200)
	var w colWire
	resp.JSON(t, &w)
	return w
}

func (f *colFixture) patch(t *testing.T, id string, body map[string]any) colWire {
	t.Helper()
	resp := f.e.Do(f.admin, "PATCH", "/v1/collections/"+id, body)
	colWant(t, resp, 200)
	var w colWire
	resp.JSON(t, &w)
	return w
}

// titles lists an organization's collections as the actor (query: e.g. "?nested=false"), all pages.
func (f *colFixture) titles(t *testing.T, a testenv.Actor, org, query string) []string {
	t.Helper()
	var out []string
	sep := "?"
	if query != "" {
		sep = "&"
	}
	for path := "/v1/orgs/" + org + "/collections" + query; ; {
		resp := f.e.Do(a, "GET", path, nil)
		colWant(t, resp, 200)
		var p colPage
		resp.JSON(t, &p)
		for _, c := range p.Items {
			out = append(out, c.Title)
		}
		if p.Next == nil {
			return out
		}
		path = "/v1/orgs/" + org + "/collections" + query + sep + "limit=2&page=" + p.Next.Page
	}
}

// children lists a collection's sub-collection titles over GraphQL, as the admin.
func (f *colFixture) children(t *testing.T, id string) []string {
	t.Helper()
	g := f.e.GraphQL(f.admin, `query($id: ID!) { collection(id: $id) { collections { edges { node { title } } } } }`,
		map[string]any{"id": id})
	var d struct {
		Collection struct {
			Collections struct {
				Edges []struct{ Node struct{ Title string } }
			}
		}
	}
	gqlDecode(t, g, &d)
	out := []string{}
	for _, e := range d.Collection.Collections.Edges {
		out = append(out, e.Node.Title)
	}
	return out
}

// grant gives a user a role on a collection, as the system.
func (f *colFixture) grant(t *testing.T, user testenv.Actor, collectionID string, role viewer.Role) {
	t.Helper()
	_, err := f.e.Store.Client.PermissionGrant.Create().SetOrganizationID(f.org).SetUserID(user.UserID).
		SetCollectionID(collectionID).SetRole(role).Save(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
}

// space creates a space in the fixture's organization as the admin, in a collection when parent
// is not "", and returns its id.
func (f *colFixture) space(t *testing.T, title, parent string) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	resp := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", body)
	colWant(t, resp, 201)
	return resp.Map(t)["id"].(string)
}

// grantSpace gives a user a role on a space, as the system.
func (f *colFixture) grantSpace(t *testing.T, user testenv.Actor, spaceID string, role viewer.Role) {
	t.Helper()
	_, err := f.e.Store.Client.PermissionGrant.Create().SetOrganizationID(f.org).SetUserID(user.UserID).
		SetSpaceID(spaceID).SetRole(role).Save(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
}

// setLevel sets a collection's defaultLevel over REST as the admin (nil: null).
func (f *colFixture) setLevel(t *testing.T, id string, level any) {
	t.Helper()
	f.patch(t, id, map[string]any{"defaultLevel": level})
}

func gqlDecode(t *testing.T, g testenv.GQLResponse, v any) {
	t.Helper()
	if len(g.Errors) > 0 {
		t.Fatalf("GraphQL errors: %+v", g.Errors)
	}
	if err := json.Unmarshal(g.Data, v); err != nil {
		t.Fatal(err)
	}
}

func gqlWantCode(t *testing.T, g testenv.GQLResponse, code string) {
	t.Helper()
	if g.Code() != code {
		t.Fatalf("want %s, got %+v %s", code, g.Errors, g.Data)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func colEqual(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// ---------------------------------------------------------------- POST /orgs/{org}/collections

func TestCreateCollection(t *testing.T) {
	f := newColFixture(t)
	path := "/v1/orgs/" + f.org + "/collections"
	t.Run("OK", func(t *testing.T) {
		c := f.create(t, "Guides", "")
		if c.Object != "collection" || c.Title != "Guides" || c.Organization != f.org || c.Parent != nil ||
			c.DefaultLevel == nil || *c.DefaultLevel != "inherit" || c.URLs.Location != f.e.Server.URL+"/v1/collections/"+c.ID ||
			c.Permissions != (colPerms{true, true, true, true}) {
			t.Fatalf("unexpected collection %+v", c)
		}
	})
	t.Run("OKDefaultTitle", func(t *testing.T) {
		resp := f.e.Do(f.admin, "POST", path, nil)
		colWant(t, resp, 201)
		if resp.Map(t)["title"] != "Untitled" {
			t.Fatalf("got %s", resp.Body)
		}
	})
	t.Run("OKNested", func(t *testing.T) {
		p := f.create(t, "Parent", "")
		c := f.create(t, strings.Repeat("é", 50), p.ID)
		if c.Parent == nil || *c.Parent != p.ID {
			t.Fatalf("parent: got %+v", c)
		}
	})
	t.Run("ErrTitleTooLong", func(t *testing.T) {
		msg := testenv.CheckError(t, f.e.Do(f.admin, "POST", path, map[string]any{"title": strings.Repeat("a", 51)}), 400)
		if !strings.Contains(msg, "title") || !strings.Contains(msg, "50") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrTitleNotString", func(t *testing.T) {
		msg := testenv.CheckError(t, f.e.Do(f.admin, "POST", path, map[string]any{"title": 3}), 400)
		if !strings.Contains(msg, "title") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrParentUnknown", func(t *testing.T) {
		msg := testenv.CheckError(t, f.e.Do(f.admin, "POST", path, map[string]any{"parent": "nope"}), 400)
		if !strings.Contains(msg, "parent") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrParentOfOtherOrganization", func(t *testing.T) {
		resp := f.e.Do(f.outsider, "POST", "/v1/orgs/"+f.otherOrg+"/collections", nil)
		colWant(t, resp, 201)
		other := resp.Map(t)["id"].(string)
		testenv.CheckError(t, f.e.Do(f.admin, "POST", path, map[string]any{"parent": other}), 400)
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(testenv.Actor{}, "POST", path, nil), 401)
	})
}

func TestCreateCollectionRoles(t *testing.T) {
	f := newColFixture(t)
	path := "/v1/orgs/" + f.org + "/collections"
	cases := []struct {
		name   string
		actor  testenv.Actor
		status int
	}{
		{"OKAdmin", f.admin, 201}, {"OKCreate", f.roles[viewer.RoleCreate], 201},
		{"ErrReview", f.roles[viewer.RoleReview], 403}, {"ErrEdit", f.roles[viewer.RoleEdit], 403},
		{"ErrComment", f.roles[viewer.RoleComment], 403}, {"ErrRead", f.roles[viewer.RoleRead], 403},
		{"ErrGuest", f.guest, 403}, {"ErrOutsider", f.outsider, 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := f.e.Do(c.actor, "POST", path, map[string]any{"title": "x"})
			if c.status >= 400 {
				testenv.CheckError(t, resp, c.status)
			} else {
				colWant(t, resp, c.status)
			}
		})
	}
	t.Run("OKUnderCollectionWithCreateGrant", func(t *testing.T) {
		reader := f.roles[viewer.RoleRead]
		parent := f.create(t, "Team space", "")
		f.grant(t, reader, parent.ID, viewer.RoleCreate)
		colWant(t, f.e.Do(reader, "POST", path, map[string]any{"parent": parent.ID}), 201)
		testenv.CheckError(t, f.e.Do(reader, "POST", path, nil), 403) // still not at the top level
	})
	t.Run("ErrCreateUnderCollectionWithReadOnly", func(t *testing.T) {
		parent := f.create(t, "Read only", "")
		f.setLevel(t, parent.ID, "read")
		testenv.CheckError(t, f.e.Do(f.roles[viewer.RoleCreate], "POST", path, map[string]any{"parent": parent.ID}), 403)
	})
	t.Run("GraphQL", func(t *testing.T) {
		const m = `mutation($org: ID!, $in: CreateCollectionInput!) { createCollection(organizationId: $org, input: $in) { id title parentId defaultLevel organization { id } permissions { create } } }`
		g := f.e.GraphQL(f.roles[viewer.RoleCreate], m, map[string]any{"org": f.org, "in": map[string]any{"title": "From GraphQL"}})
		var d struct {
			CreateCollection struct {
				Title        string
				DefaultLevel string
				Organization struct{ ID string }
			}
		}
		gqlDecode(t, g, &d)
		if d.CreateCollection.Title != "From GraphQL" || d.CreateCollection.DefaultLevel != "inherit" || d.CreateCollection.Organization.ID != f.org {
			t.Fatalf("got %+v", d)
		}
		gqlWantCode(t, f.e.GraphQL(f.roles[viewer.RoleRead], m, map[string]any{"org": f.org, "in": map[string]any{}}), "FORBIDDEN")
		gqlWantCode(t, f.e.GraphQL(f.outsider, m, map[string]any{"org": f.org, "in": map[string]any{}}), "NOT_FOUND")
		gqlWantCode(t, f.e.GraphQL(f.admin, m, map[string]any{"org": f.org, "in": map[string]any{"title": strings.Repeat("a", 51)}}), "BAD_REQUEST")
	})
}

// ---------------------------------------------------------------- GET /collections/{id}

func TestGetCollection(t *testing.T) {
	f := newColFixture(t)
	inherit := f.create(t, "Inherit", "")
	closed := f.create(t, "Closed", "")
	f.setLevel(t, closed.ID, nil)
	reader := f.roles[viewer.RoleRead]
	t.Run("OK", func(t *testing.T) {
		c := f.get(t, f.admin, inherit.ID)
		if c.ID != inherit.ID || c.URLs.App == "" {
			t.Fatalf("got %+v", c)
		}
	})
	t.Run("OKReadMemberSeesInherit", func(t *testing.T) {
		if c := f.get(t, reader, inherit.ID); c.Permissions != (colPerms{View: true}) {
			t.Fatalf("permissions %+v", c.Permissions)
		}
	})
	t.Run("ErrReadMemberNullLevel", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(reader, "GET", "/v1/collections/"+closed.ID, nil), 404)
	})
	t.Run("OKGrantOpensNullLevel", func(t *testing.T) {
		other := f.roles[viewer.RoleComment]
		testenv.CheckError(t, f.e.Do(other, "GET", "/v1/collections/"+closed.ID, nil), 404)
		f.grant(t, other, closed.ID, viewer.RoleEdit)
		if c := f.get(t, other, closed.ID); c.Permissions != (colPerms{View: true}) {
			t.Fatalf("permissions %+v", c.Permissions)
		}
	})
	t.Run("ErrGuest", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.guest, "GET", "/v1/collections/"+inherit.ID, nil), 404)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.outsider, "GET", "/v1/collections/"+inherit.ID, nil), 404)
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.admin, "GET", "/v1/collections/nope", nil), 404)
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(testenv.Actor{}, "GET", "/v1/collections/"+inherit.ID, nil), 401)
	})
	t.Run("GraphQL", func(t *testing.T) {
		child := f.create(t, "Child", inherit.ID)
		g := f.e.GraphQL(reader, `query($id: ID!) { collection(id: $id) { title parent { id } parentId organizationId permissions { view admin viewInviteLinks create } } }`,
			map[string]any{"id": child.ID})
		var d struct {
			Collection struct {
				Title       string
				Parent      struct{ ID string }
				Permissions colPerms
			}
		}
		gqlDecode(t, g, &d)
		if d.Collection.Parent.ID != inherit.ID || d.Collection.Permissions != (colPerms{View: true}) {
			t.Fatalf("got %+v", d)
		}
		gqlWantCode(t, f.e.GraphQL(reader, `query($id: ID!) { collection(id: $id) { id } }`, map[string]any{"id": closed.ID}), "NOT_FOUND")
	})
}

// TestCollectionPermissions proves each flag for each role, through the organization role (on an
// inherit collection) and through a grant (on a null-level collection, for a guest).
func TestCollectionPermissions(t *testing.T) {
	f := newColFixture(t)
	inherit := f.create(t, "Inherit", "")
	want := map[viewer.Role]colPerms{
		viewer.RoleAdmin:   {View: true, Admin: true, ViewInviteLinks: true, Create: true},
		viewer.RoleCreate:  {View: true, Create: true},
		viewer.RoleReview:  {View: true},
		viewer.RoleEdit:    {View: true},
		viewer.RoleComment: {View: true},
		viewer.RoleRead:    {View: true},
	}
	for _, r := range colRoles {
		t.Run("Org"+string(r), func(t *testing.T) {
			if got := f.get(t, f.roles[r], inherit.ID).Permissions; got != want[r] {
				t.Fatalf("got %+v, want %+v", got, want[r])
			}
		})
		t.Run("Grant"+string(r), func(t *testing.T) {
			c := f.create(t, "Granted "+string(r), "")
			f.setLevel(t, c.ID, nil)
			guest := f.e.User("guest-"+string(r)+"@example.com", f.org, nil)
			f.grant(t, guest, c.ID, r)
			if got := f.get(t, guest, c.ID).Permissions; got != want[r] {
				t.Fatalf("got %+v, want %+v", got, want[r])
			}
		})
	}
}

// ---------------------------------------------------------------- PATCH /collections/{id}

func TestUpdateCollection(t *testing.T) {
	f := newColFixture(t)
	c := f.create(t, "Before", "")
	path := "/v1/collections/" + c.ID
	t.Run("OK", func(t *testing.T) {
		got := f.patch(t, c.ID, map[string]any{"title": strings.Repeat("t", 50), "description": strings.Repeat("d", 100), "defaultLevel": "edit"})
		if got.Title != strings.Repeat("t", 50) || got.Description == nil || *got.Description != strings.Repeat("d", 100) ||
			got.DefaultLevel == nil || *got.DefaultLevel != "edit" {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("OKAbsentFieldsUnchanged", func(t *testing.T) {
		got := f.patch(t, c.ID, map[string]any{})
		if got.Title != strings.Repeat("t", 50) || got.Description == nil || got.DefaultLevel == nil {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("OKNullClears", func(t *testing.T) {
		got := f.patch(t, c.ID, map[string]any{"description": nil, "defaultLevel": nil})
		if got.Description != nil || got.DefaultLevel != nil {
			t.Fatalf("got %+v", got)
		}
		var raw map[string]any
		json.Unmarshal(f.e.Do(f.admin, "GET", path, nil).Body, &raw)
		if v, ok := raw["defaultLevel"]; !ok || v != nil {
			t.Fatalf("defaultLevel must be present and null: %v", raw)
		}
	})
	t.Run("OKInherit", func(t *testing.T) {
		if got := f.patch(t, c.ID, map[string]any{"defaultLevel": "inherit"}); *got.DefaultLevel != "inherit" {
			t.Fatalf("got %+v", got)
		}
	})
	bad := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"ErrTitleTooLong", map[string]any{"title": strings.Repeat("a", 51)}, "title"},
		{"ErrTitleEmpty", map[string]any{"title": " "}, "title"},
		{"ErrTitleNull", map[string]any{"title": nil}, "title"},
		{"ErrDescriptionTooLong", map[string]any{"description": strings.Repeat("a", 101)}, "description"},
		{"ErrDefaultLevelUnknown", map[string]any{"defaultLevel": "owner"}, "defaultLevel"},
		{"ErrDefaultLevelNotString", map[string]any{"defaultLevel": 1}, "defaultLevel"},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			before := f.get(t, f.admin, c.ID)
			msg := testenv.CheckError(t, f.e.Do(f.admin, "PATCH", path, b.body), 400)
			if !strings.Contains(msg, b.field) {
				t.Fatalf("message %q does not name %s", msg, b.field)
			}
			if after := f.get(t, f.admin, c.ID); !reflect.DeepEqual(before, after) {
				t.Fatalf("changed: %+v → %+v", before, after)
			}
		})
	}
	t.Run("Roles", func(t *testing.T) {
		for _, r := range colRoles[1:] {
			testenv.CheckError(t, f.e.Do(f.roles[r], "PATCH", path, map[string]any{"title": "x"}), 403)
		}
		testenv.CheckError(t, f.e.Do(f.guest, "PATCH", path, map[string]any{"title": "x"}), 404)
		testenv.CheckError(t, f.e.Do(f.outsider, "PATCH", path, map[string]any{"title": "x"}), 404)
	})
	t.Run("OKAdminGrant", func(t *testing.T) {
		editor := f.roles[viewer.RoleEdit]
		f.grant(t, editor, c.ID, viewer.RoleAdmin)
		colWant(t, f.e.Do(editor, "PATCH", path, map[string]any{"title": "By grant"}), 200)
	})
	t.Run("GraphQL", func(t *testing.T) {
		const m = `mutation($id: ID!, $in: UpdateCollectionInput!) { updateCollection(id: $id, input: $in) { title description defaultLevel } }`
		g := f.e.GraphQL(f.admin, m, map[string]any{"id": c.ID, "in": map[string]any{"title": "G", "description": "D", "defaultLevel": "read"}})
		var d struct {
			UpdateCollection struct{ Title, Description, DefaultLevel string }
		}
		gqlDecode(t, g, &d)
		if d.UpdateCollection.Title != "G" || d.UpdateCollection.Description != "D" || d.UpdateCollection.DefaultLevel != "read" {
			t.Fatalf("got %+v", d)
		}
		g = f.e.GraphQL(f.admin, m, map[string]any{"id": c.ID, "in": map[string]any{"defaultLevel": nil, "description": nil}})
		if string(g.Data) != `{"updateCollection":{"title":"G","description":null,"defaultLevel":null}}` {
			t.Fatalf("got %s %+v", g.Data, g.Errors)
		}
		gqlWantCode(t, f.e.GraphQL(f.admin, m, map[string]any{"id": c.ID, "in": map[string]any{"defaultLevel": "guest"}}), "BAD_REQUEST")
		gqlWantCode(t, f.e.GraphQL(f.roles[viewer.RoleCreate], m, map[string]any{"id": c.ID, "in": map[string]any{"title": "x"}}), "NOT_FOUND") // null level: unseen
		f.setLevel(t, c.ID, "inherit")
		gqlWantCode(t, f.e.GraphQL(f.roles[viewer.RoleCreate], m, map[string]any{"id": c.ID, "in": map[string]any{"title": "x"}}), "FORBIDDEN")
		gqlWantCode(t, f.e.GraphQL(f.outsider, m, map[string]any{"id": c.ID, "in": map[string]any{"title": "x"}}), "NOT_FOUND")
	})
}

// ---------------------------------------------------------------- GET /orgs/{org}/collections

func TestListCollections(t *testing.T) {
	f := newColFixture(t)
	a := f.create(t, "A", "")
	f.create(t, "A1", a.ID)
	f.create(t, "A2", a.ID)
	f.create(t, "B", "")
	closed := f.create(t, "C", "")
	f.setLevel(t, closed.ID, nil)
	t.Run("OKNested", func(t *testing.T) {
		colEqual(t, sorted(f.titles(t, f.admin, f.org, "")), []string{"A", "A1", "A2", "B", "C"})
		colEqual(t, f.children(t, a.ID), []string{"A1", "A2"})
	})
	t.Run("OKTopLevel", func(t *testing.T) {
		colEqual(t, f.titles(t, f.admin, f.org, "?nested=false"), []string{"A", "B", "C"})
	})
	t.Run("OKPages", func(t *testing.T) {
		resp := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/collections?limit=2", nil)
		colWant(t, resp, 200)
		var p colPage
		resp.JSON(t, &p)
		if p.Count != 5 || len(p.Items) != 2 || p.Next == nil {
			t.Fatalf("got %s", resp.Body)
		}
		colEqual(t, f.titles(t, f.admin, f.org, "?limit=2"), f.titles(t, f.admin, f.org, ""))
	})
	t.Run("OKReadMemberSkipsNullLevel", func(t *testing.T) {
		colEqual(t, f.titles(t, f.roles[viewer.RoleRead], f.org, "?nested=false"), []string{"A", "B"})
	})
	t.Run("OKGuestSeesNone", func(t *testing.T) {
		colEqual(t, f.titles(t, f.guest, f.org, ""), nil)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.outsider, "GET", "/v1/orgs/"+f.org+"/collections", nil), 404)
	})
	t.Run("ErrNested", func(t *testing.T) {
		msg := testenv.CheckError(t, f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/collections?nested=maybe", nil), 400)
		if !strings.Contains(msg, "nested") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrLimit", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/collections?limit=1001", nil), 400)
		testenv.CheckError(t, f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/collections?page=bogus", nil), 400)
	})
	t.Run("GraphQL", func(t *testing.T) {
		const q = `query($org: ID!, $after: String) { organization(id: $org) {
			collections(first: 1, after: $after, nested: false) { totalCount pageInfo { hasNextPage endCursor } edges { node { title collections { totalCount edges { node { title parent { title } } } } } } } } }`
		var titles []string
		var after any
		for {
			g := f.e.GraphQL(f.admin, q, map[string]any{"org": f.org, "after": after})
			var d struct {
				Organization struct {
					Collections struct {
						TotalCount int
						PageInfo   struct {
							HasNextPage bool
							EndCursor   string
						}
						Edges []struct {
							Node struct {
								Title       string
								Collections struct {
									TotalCount int
									Edges      []struct {
										Node struct {
											Title  string
											Parent struct{ Title string }
										}
									}
								}
							}
						}
					}
				}
			}
			gqlDecode(t, g, &d)
			conn := d.Organization.Collections
			if conn.TotalCount != 3 || len(conn.Edges) != 1 {
				t.Fatalf("got %s", g.Data)
			}
			n := conn.Edges[0].Node
			titles = append(titles, fmt.Sprintf("%s%d", n.Title, n.Collections.TotalCount))
			for _, e := range n.Collections.Edges {
				titles = append(titles, e.Node.Parent.Title+">"+e.Node.Title)
			}
			if !conn.PageInfo.HasNextPage {
				break
			}
			after = conn.PageInfo.EndCursor
		}
		colEqual(t, titles, []string{"A2", "A>A1", "A>A2", "B0", "C0"})
	})
}

// ---------------------------------------------------------------- DELETE /collections/{id}

func TestDeleteCollection(t *testing.T) {
	f := newColFixture(t)
	t.Run("OKChildrenMoveUp", func(t *testing.T) {
		top := f.create(t, "Top", "")
		mid := f.create(t, "Mid", top.ID)
		low := f.create(t, "Low", mid.ID)
		ctx := accounts.System(context.Background())
		s, err := f.e.Store.Client.Space.Create().SetOrganizationID(f.org).SetTitle("Space").SetParentID(mid.ID).Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		f.grant(t, f.roles[viewer.RoleRead], mid.ID, viewer.RoleAdmin)
		resp := f.e.Do(f.admin, "DELETE", "/v1/collections/"+mid.ID, nil)
		colWant(t, resp, 205)
		testenv.CheckError(t, f.e.Do(f.admin, "GET", "/v1/collections/"+mid.ID, nil), 404)
		if got := f.get(t, f.admin, low.ID); got.Parent == nil || *got.Parent != top.ID {
			t.Fatalf("sub-collection parent: %+v", got)
		}
		s, err = f.e.Store.Client.Space.Get(ctx, s.ID)
		if err != nil || s.ParentID == nil || *s.ParentID != top.ID {
			t.Fatalf("space parent: %+v %v", s, err)
		}
		if n, _ := f.e.Store.Client.PermissionGrant.Query().Where(permissiongrant.CollectionID(mid.ID)).Count(ctx); n != 0 {
			t.Fatalf("%d grants left on the deleted collection", n)
		}
		// Deleting a top-level collection moves its children to the top level.
		colWant(t, f.e.Do(f.admin, "DELETE", "/v1/collections/"+top.ID, nil), 205)
		if got := f.get(t, f.admin, low.ID); got.Parent != nil {
			t.Fatalf("sub-collection parent: %+v", got)
		}
	})
	t.Run("Roles", func(t *testing.T) {
		c := f.create(t, "Keep", "")
		for _, r := range colRoles[1:] {
			testenv.CheckError(t, f.e.Do(f.roles[r], "DELETE", "/v1/collections/"+c.ID, nil), 403)
		}
		testenv.CheckError(t, f.e.Do(f.guest, "DELETE", "/v1/collections/"+c.ID, nil), 404)
		testenv.CheckError(t, f.e.Do(f.outsider, "DELETE", "/v1/collections/"+c.ID, nil), 404)
		testenv.CheckError(t, f.e.Do(testenv.Actor{}, "DELETE", "/v1/collections/"+c.ID, nil), 401)
		f.get(t, f.admin, c.ID)
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.admin, "DELETE", "/v1/collections/nope", nil), 404)
	})
	t.Run("GraphQL", func(t *testing.T) {
		c := f.create(t, "Gone", "")
		const m = `mutation($id: ID!) { deleteCollection(id: $id) }`
		gqlWantCode(t, f.e.GraphQL(f.roles[viewer.RoleCreate], m, map[string]any{"id": c.ID}), "FORBIDDEN")
		gqlWantCode(t, f.e.GraphQL(f.outsider, m, map[string]any{"id": c.ID}), "NOT_FOUND")
		g := f.e.GraphQL(f.admin, m, map[string]any{"id": c.ID})
		if string(g.Data) != `{"deleteCollection":true}` {
			t.Fatalf("got %s %+v", g.Data, g.Errors)
		}
		testenv.CheckError(t, f.e.Do(f.admin, "GET", "/v1/collections/"+c.ID, nil), 404)
	})
}

// ---------------------------------------------------------------- POST /collections/{id}/move

func TestMoveCollection(t *testing.T) {
	f := newColFixture(t)
	a, b, c := f.create(t, "A", ""), f.create(t, "B", ""), f.create(t, "C", "")
	move := func(t *testing.T, id string, body any) testenv.Response {
		t.Helper()
		return f.e.Do(f.admin, "POST", "/v1/collections/"+id+"/move", body)
	}
	ptr := func(id string) map[string]any { return map[string]any{"type": "collection", "collection": id} }
	top := func(t *testing.T) []string { t.Helper(); return f.titles(t, f.admin, f.org, "?nested=false") }
	t.Run("OKBefore", func(t *testing.T) {
		colWant(t, move(t, c.ID, map[string]any{"position": map[string]any{"before": ptr(a.ID)}}), 200)
		colEqual(t, top(t), []string{"C", "A", "B"})
	})
	t.Run("OKAfter", func(t *testing.T) {
		colWant(t, move(t, c.ID, map[string]any{"position": map[string]any{"after": ptr(a.ID)}}), 200)
		colEqual(t, top(t), []string{"A", "C", "B"})
	})
	t.Run("OKBetween", func(t *testing.T) {
		colWant(t, move(t, a.ID, map[string]any{"position": map[string]any{"after": ptr(c.ID), "before": ptr(b.ID)}}), 200)
		colEqual(t, top(t), []string{"C", "A", "B"})
	})
	t.Run("OKOneRowWritten", func(t *testing.T) {
		ctx := accounts.System(context.Background())
		before, _ := f.e.Store.Client.Collection.Query().Where(collection.IDIn(a.ID, c.ID)).All(ctx)
		colWant(t, move(t, b.ID, map[string]any{"position": map[string]any{"before": ptr(a.ID)}}), 200)
		colEqual(t, top(t), []string{"C", "B", "A"})
		after, _ := f.e.Store.Client.Collection.Query().Where(collection.IDIn(a.ID, c.ID)).All(ctx)
		for i := range before {
			if before[i].Position != after[i].Position || !before[i].UpdatedAt.Equal(after[i].UpdatedAt) {
				t.Fatalf("a neighbour changed: %+v → %+v", before[i], after[i])
			}
		}
	})
	t.Run("OKManyMovesKeepOrder", func(t *testing.T) {
		// Repeatedly moving into the same gap narrows the keys; the order stays right.
		for i := 0; i < 40; i++ {
			mover, anchor := a, b
			if i%2 == 1 {
				mover = c
			}
			colWant(t, move(t, mover.ID, map[string]any{"position": map[string]any{"after": ptr(anchor.ID)}}), 200)
		}
		colEqual(t, top(t), []string{"B", "C", "A"})
	})
	t.Run("OKUnderParentAtEnd", func(t *testing.T) {
		d := f.create(t, "D", a.ID)
		colWant(t, move(t, b.ID, map[string]any{"parent": a.ID}), 200)
		colEqual(t, f.children(t, a.ID), []string{"D", "B"})
		colWant(t, move(t, b.ID, map[string]any{"parent": a.ID, "position": map[string]any{"before": ptr(d.ID)}}), 200)
		colEqual(t, f.children(t, a.ID), []string{"B", "D"})
		colWant(t, move(t, b.ID, map[string]any{"parent": nil}), 200)
		colEqual(t, top(t), []string{"C", "A", "B"})
	})
	t.Run("OKBeforeSpace", func(t *testing.T) {
		s, err := f.e.Store.Client.Space.Create().SetOrganizationID(f.org).SetTitle("S").SetPosition("0001").
			SetVisibility("public").Save(accounts.System(context.Background()))
		if err != nil {
			t.Fatal(err)
		}
		colWant(t, move(t, b.ID, map[string]any{"position": map[string]any{"after": map[string]any{"type": "space", "space": s.ID}}}), 200)
		colEqual(t, top(t), []string{"B", "C", "A"}) // the space sorts first, B right after it
	})
	t.Run("ErrUnderItself", func(t *testing.T) {
		msg := testenv.CheckError(t, move(t, a.ID, map[string]any{"parent": a.ID}), 400)
		if !strings.Contains(msg, "parent") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrUnderDescendant", func(t *testing.T) {
		child := f.create(t, "Child", a.ID)
		grandchild := f.create(t, "Grandchild", child.ID)
		msg := testenv.CheckError(t, move(t, a.ID, map[string]any{"parent": grandchild.ID}), 400)
		if !strings.Contains(msg, "parent") {
			t.Fatalf("message %q", msg)
		}
		if got := f.get(t, f.admin, a.ID); got.Parent != nil {
			t.Fatalf("moved anyway: %+v", got)
		}
	})
	bad := []struct {
		name  string
		body  any
		field string
	}{
		{"ErrEmptyBody", map[string]any{}, "parent"},
		{"ErrParentUnknown", map[string]any{"parent": "nope"}, "parent"},
		{"ErrParentNotString", map[string]any{"parent": 5}, "parent"},
		{"ErrPointerType", map[string]any{"position": map[string]any{"before": map[string]any{"type": "page", "collection": "x"}}}, "position.before"},
		{"ErrPointerNotSibling", map[string]any{"position": map[string]any{"before": map[string]any{"type": "collection", "collection": "nope"}}}, "position.before"},
		{"ErrPointerSelf", map[string]any{"position": map[string]any{"after": map[string]any{"type": "collection", "collection": "SELF"}}}, "position.after"},
		{"ErrNotNeighbours", map[string]any{"position": map[string]any{"after": map[string]any{"type": "collection", "collection": "C"}, "before": map[string]any{"type": "collection", "collection": "C"}}}, "position"},
	}
	for _, x := range bad {
		t.Run(x.name, func(t *testing.T) {
			raw, _ := json.Marshal(x.body)
			body := strings.NewReplacer(`"SELF"`, `"`+b.ID+`"`, `"C"`, `"`+c.ID+`"`).Replace(string(raw))
			msg := testenv.CheckError(t, move(t, b.ID, body), 400)
			if !strings.Contains(msg, x.field) {
				t.Fatalf("message %q does not name %s", msg, x.field)
			}
		})
	}
	t.Run("Roles", func(t *testing.T) {
		for _, r := range colRoles[1:] {
			testenv.CheckError(t, f.e.Do(f.roles[r], "POST", "/v1/collections/"+b.ID+"/move", map[string]any{"parent": nil}), 403)
		}
		testenv.CheckError(t, f.e.Do(f.guest, "POST", "/v1/collections/"+b.ID+"/move", map[string]any{"parent": nil}), 404)
		testenv.CheckError(t, f.e.Do(f.outsider, "POST", "/v1/collections/"+b.ID+"/move", map[string]any{"parent": nil}), 404)
	})
	t.Run("ErrDestinationNeedsCreate", func(t *testing.T) {
		editor := f.roles[viewer.RoleEdit]
		mine := f.create(t, "Mine", "")
		f.grant(t, editor, mine.ID, viewer.RoleAdmin)
		// admin on the collection, edit on a (inherit), no create at the top level
		testenv.CheckError(t, f.e.Do(editor, "POST", "/v1/collections/"+mine.ID+"/move", map[string]any{"parent": a.ID}), 403)
		f.grant(t, editor, a.ID, viewer.RoleCreate)
		colWant(t, f.e.Do(editor, "POST", "/v1/collections/"+mine.ID+"/move", map[string]any{"parent": a.ID}), 200)
	})
	t.Run("GraphQL", func(t *testing.T) {
		const m = `mutation($id: ID!, $in: MoveCollectionInput!) { moveCollection(id: $id, input: $in) { id parentId } }`
		g := f.e.GraphQL(f.admin, m, map[string]any{"id": c.ID, "in": map[string]any{"position": map[string]any{"before": map[string]any{"collection": b.ID}}}})
		if len(g.Errors) > 0 {
			t.Fatalf("%+v", g.Errors)
		}
		if got := top(t); got[0] != "C" || got[1] != "B" {
			t.Fatalf("order %q", got)
		}
		gqlWantCode(t, f.e.GraphQL(f.admin, m, map[string]any{"id": a.ID, "in": map[string]any{"parent": a.ID}}), "BAD_REQUEST")
		gqlWantCode(t, f.e.GraphQL(f.admin, m, map[string]any{"id": a.ID, "in": map[string]any{"position": map[string]any{"before": map[string]any{}}}}), "BAD_REQUEST")
		gqlWantCode(t, f.e.GraphQL(f.roles[viewer.RoleCreate], m, map[string]any{"id": a.ID, "in": map[string]any{"parent": nil}}), "FORBIDDEN")
		gqlWantCode(t, f.e.GraphQL(f.outsider, m, map[string]any{"id": a.ID, "in": map[string]any{"parent": nil}}), "NOT_FOUND")
	})
}

// ---------------------------------------------------------------- POST /collections/{id}/transfer

func TestTransferCollection(t *testing.T) {
	f := newColFixture(t)
	ctx := accounts.System(context.Background())
	// The fixture's admin is also admin of a second organization.
	_, target := f.e.Bootstrap("tara@target.example", "Target")
	if _, err := f.e.Store.Client.Member.Create().SetOrganizationID(target).SetUserID(f.admin.UserID).
		SetRole(viewer.RoleAdmin).Save(ctx); err != nil {
		t.Fatal(err)
	}
	transfer := func(a testenv.Actor, id string, body any) testenv.Response {
		return f.e.Do(a, "POST", "/v1/collections/"+id+"/transfer", body)
	}
	t.Run("OK", func(t *testing.T) {
		root := f.create(t, "Root", "")
		child := f.create(t, "Child", root.ID)
		grandchild := f.create(t, "Grandchild", child.ID)
		stay := f.create(t, "Stay", "")
		f.grant(t, f.roles[viewer.RoleRead], child.ID, viewer.RoleAdmin)
		resp := transfer(f.admin, root.ID, map[string]any{"organization": target})
		colWant(t, resp, 200)
		var got colWire
		resp.JSON(t, &got)
		if got.Organization != target || got.Parent != nil {
			t.Fatalf("got %+v", got)
		}
		for _, id := range []string{child.ID, grandchild.ID} {
			if c := f.get(t, f.admin, id); c.Organization != target {
				t.Fatalf("sub-collection stayed: %+v", c)
			}
		}
		if c := f.get(t, f.admin, child.ID); *c.Parent != root.ID {
			t.Fatalf("nesting lost: %+v", c)
		}
		colEqual(t, sorted(f.titles(t, f.admin, target, "")), []string{"Child", "Grandchild", "Root"})
		colEqual(t, f.titles(t, f.admin, f.org, ""), []string{stay.Title})
		if n, _ := f.e.Store.Client.PermissionGrant.Query().Where(permissiongrant.CollectionID(child.ID)).Count(ctx); n != 0 {
			t.Fatalf("%d grants of the old organization kept", n)
		}
		if n, _ := f.e.Store.Client.Collection.Query().Count(ctx); n != 4 {
			t.Fatalf("%d collections in the database, want 4 (nothing lost or duplicated)", n)
		}
		testenv.CheckError(t, f.e.Do(f.roles[viewer.RoleRead], "GET", "/v1/collections/"+child.ID, nil), 404)
	})
	t.Run("ErrNotMemberOfTarget", func(t *testing.T) {
		c := f.create(t, "Mine", "")
		msg := testenv.CheckError(t, transfer(f.admin, c.ID, map[string]any{"organization": f.otherOrg}), 404)
		if !strings.Contains(msg, "organization") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrNotAdminOfTarget", func(t *testing.T) {
		creator := f.e.User("cleo@example.com", f.org, testenv.Role(viewer.RoleAdmin))
		if _, err := f.e.Store.Client.Member.Create().SetOrganizationID(target).SetUserID(creator.UserID).
			SetRole(viewer.RoleCreate).Save(ctx); err != nil {
			t.Fatal(err)
		}
		c := f.create(t, "Hers", "")
		msg := testenv.CheckError(t, transfer(creator, c.ID, map[string]any{"organization": target}), 403)
		if !strings.Contains(msg, "target") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrNotAdminOfSource", func(t *testing.T) {
		c := f.create(t, "Src", "")
		f.grant(t, f.roles[viewer.RoleCreate], c.ID, viewer.RoleAdmin) // admin of the collection only
		testenv.CheckError(t, transfer(f.roles[viewer.RoleCreate], c.ID, map[string]any{"organization": target}), 403)
		testenv.CheckError(t, transfer(f.guest, c.ID, map[string]any{"organization": target}), 404)
		testenv.CheckError(t, transfer(f.outsider, c.ID, map[string]any{"organization": f.otherOrg}), 404)
	})
	t.Run("OKWithSpaces", func(t *testing.T) {
		c := f.create(t, "With spaces", "")
		sub := f.create(t, "Sub", c.ID)
		live := f.space(t, "Live", sub.ID)
		gone := f.space(t, "Gone", c.ID)
		colWant(t, f.e.Do(f.admin, "PATCH", "/v1/spaces/"+live, map[string]any{"visibility": "in-collection"}), 200)
		colWant(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/custom-fields", map[string]any{"name": "owner", "type": "text"}), 201)
		for _, id := range []string{live, gone} {
			colWant(t, f.e.Do(f.admin, "PATCH", "/v1/spaces/"+id+"/custom-fields", fvBody(map[string]any{"owner": "ada"})), 204)
			f.grantSpace(t, f.roles[viewer.RoleRead], id, viewer.RoleEdit)
		}
		colWant(t, f.e.Do(f.admin, "DELETE", "/v1/spaces/"+gone, nil), 205)
		colWant(t, transfer(f.admin, c.ID, map[string]any{"organization": target}), 200)
		for _, id := range []string{live, gone} {
			s, err := f.e.Store.Client.Space.Get(ctx, id)
			if err != nil || s.OrganizationID != target || s.ParentID == nil {
				t.Fatalf("space %s: %+v %v", id, s, err)
			}
		}
		resp := f.e.Do(f.admin, "GET", "/v1/spaces/"+live, nil)
		colWant(t, resp, 200)
		if m := resp.Map(t); m["organization"] != target || m["parent"] != sub.ID || m["visibility"] != "in-collection" {
			t.Fatalf("got %s", resp.Body)
		}
		if n, _ := f.e.Store.Client.PermissionGrant.Query().Where(permissiongrant.SpaceIDIn(live, gone)).Count(ctx); n != 0 {
			t.Fatalf("%d space grants of the old organization kept (deleted space included)", n)
		}
		if n, _ := f.e.Store.Client.CustomFieldValue.Query().Where(customfieldvalue.SpaceIDIn(live, gone)).Count(ctx); n != 0 {
			t.Fatalf("%d custom field values of the old organization kept (deleted space included)", n)
		}
		if n, _ := f.e.Store.Client.Revision.Query().Where(revision.SpaceID(live), revision.OrganizationID(target)).Count(ctx); n == 0 {
			t.Fatal("the space's revisions stayed in the old organization")
		}
		testenv.CheckError(t, f.e.Do(f.roles[viewer.RoleRead], "GET", "/v1/spaces/"+live, nil), 404)
	})
	t.Run("ErrBody", func(t *testing.T) {
		c := f.create(t, "Body", "")
		for _, body := range []any{nil, map[string]any{"organization": 5}, map[string]any{"organization": f.org}} {
			msg := testenv.CheckError(t, transfer(f.admin, c.ID, body), 400)
			if !strings.Contains(msg, "organization") {
				t.Fatalf("message %q", msg)
			}
		}
	})
	t.Run("GraphQL", func(t *testing.T) {
		c := f.create(t, "Via GraphQL", "")
		const m = `mutation($id: ID!, $org: ID!) { transferCollection(id: $id, organization: $org) { organizationId organization { id } } }`
		gqlWantCode(t, f.e.GraphQL(f.roles[viewer.RoleCreate], m, map[string]any{"id": c.ID, "org": target}), "FORBIDDEN")
		gqlWantCode(t, f.e.GraphQL(f.admin, m, map[string]any{"id": c.ID, "org": f.otherOrg}), "NOT_FOUND")
		g := f.e.GraphQL(f.admin, m, map[string]any{"id": c.ID, "org": target})
		if string(g.Data) != fmt.Sprintf(`{"transferCollection":{"organizationId":%q,"organization":{"id":%q}}}`, target, target) {
			t.Fatalf("got %s %+v", g.Data, g.Errors)
		}
	})
}

// ---------------------------------------------------------------- GET /collections/{id}/spaces

func TestListCollectionSpaces(t *testing.T) {
	f := newColFixture(t)
	c := f.create(t, "Docs", "")
	other := f.create(t, "Other", "")
	ids := []string{f.space(t, "S1", c.ID), f.space(t, "S2", c.ID), f.space(t, "S3", c.ID)}
	f.space(t, "Elsewhere", other.ID)
	f.space(t, "Top", "")
	deleted := f.space(t, "Deleted", c.ID)
	colWant(t, f.e.Do(f.admin, "DELETE", "/v1/spaces/"+deleted, nil), 205)
	path := "/v1/collections/" + c.ID + "/spaces"
	list := func(t *testing.T, a testenv.Actor, p string) (titles []string, next string, count int) {
		t.Helper()
		resp := f.e.Do(a, "GET", p, nil)
		colWant(t, resp, 200)
		var l struct {
			Items []struct{ Title, Parent string }
			Count int
			Next  *struct{ Page string }
		}
		resp.JSON(t, &l)
		for _, s := range l.Items {
			if s.Parent != c.ID {
				t.Fatalf("space %q of another parent %q", s.Title, s.Parent)
			}
			titles = append(titles, s.Title)
		}
		if l.Next != nil {
			next = l.Next.Page
		}
		return titles, next, l.Count
	}
	t.Run("OK", func(t *testing.T) {
		titles, next, count := list(t, f.admin, path)
		colEqual(t, titles, []string{"S1", "S2", "S3"})
		if next != "" || count != 3 {
			t.Fatalf("next %q count %d", next, count)
		}
	})
	t.Run("OKPages", func(t *testing.T) {
		first, next, count := list(t, f.admin, path+"?limit=2")
		if len(first) != 2 || next == "" || count != 3 {
			t.Fatalf("got %q %q %d", first, next, count)
		}
		rest, next, _ := list(t, f.admin, path+"?limit=2&page="+next)
		colEqual(t, append(first, rest...), []string{"S1", "S2", "S3"})
		if next != "" {
			t.Fatal("a third page")
		}
	})
	t.Run("OKMoveChangesOrder", func(t *testing.T) {
		resp := f.e.Do(f.admin, "POST", "/v1/spaces/"+ids[2]+"/move",
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": ids[0]}}})
		colWant(t, resp, 200)
		titles, _, _ := list(t, f.admin, path)
		colEqual(t, titles, []string{"S3", "S1", "S2"})
	})
	t.Run("OKReaderByDefaultLevel", func(t *testing.T) {
		reader := f.roles[viewer.RoleRead] // spaces start private: the default level inherits, a reader reads
		titles, _, _ := list(t, reader, path)
		colEqual(t, titles, []string{"S3", "S1", "S2"})
		f.setLevel(t, c.ID, nil)
		testenv.CheckError(t, f.e.Do(reader, "GET", path, nil), 404)
	})
	t.Run("ErrAccess", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.guest, "GET", path, nil), 404)
		testenv.CheckError(t, f.e.Do(f.outsider, "GET", path, nil), 404)
		testenv.CheckError(t, f.e.Do(testenv.Actor{}, "GET", path, nil), 401)
		testenv.CheckError(t, f.e.Do(f.admin, "GET", path+"?limit=-1", nil), 400)
	})
	t.Run("GraphQL", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, `query($id: ID!) { collection(id: $id) { spaces(first: 2) { totalCount pageInfo { hasNextPage } edges { node { title parentId } } } } }`,
			map[string]any{"id": c.ID})
		var d struct {
			Collection struct {
				Spaces struct {
					TotalCount int
					PageInfo   struct{ HasNextPage bool }
					Edges      []struct {
						Node struct{ Title, ParentID string }
					}
				}
			}
		}
		gqlDecode(t, g, &d)
		sp := d.Collection.Spaces
		if sp.TotalCount != 3 || !sp.PageInfo.HasNextPage || len(sp.Edges) != 2 || sp.Edges[0].Node.Title != "S3" {
			t.Fatalf("got %s", g.Data)
		}
	})
}
