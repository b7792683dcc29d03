package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// fvFixture is an organization with one custom field of each type and a space.
type fvFixture struct {
	e     *testenv.Env
	admin testenv.Actor
	org   string
	space string
}

func newFVFixture(t *testing.T, opts ...func(*server.Options)) *fvFixture {
	t.Helper()
	e := testenv.New(t, opts...)
	f := &fvFixture{e: e}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	for _, field := range []map[string]any{
		{"name": "txt", "type": "text"},
		{"name": "num", "type": "number"},
		{"name": "flag", "type": "boolean"},
		{"name": "one", "type": "select", "options": []string{"a", "b", "c"}},
		{"name": "many", "type": "multi-select", "options": []string{"a", "b", "c"}},
	} {
		if r := e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/custom-fields", field); r.Status != http.StatusCreated {
			t.Fatalf("create field: %d %s", r.Status, r.Body)
		}
	}
	f.space = createSpace(t, e, f.admin, f.org, map[string]any{"title": "Docs"})["id"].(string)
	return f
}

func (f *fvFixture) path() string { return "/v1/spaces/" + f.space + "/custom-fields" }

func fvBody(values map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range values {
		out[k] = map[string]any{"value": v}
	}
	return map[string]any{"values": out}
}

// values reads the space's values as name → JSON text.
func (f *fvFixture) values(t *testing.T, a testenv.Actor) map[string]string {
	t.Helper()
	r := f.e.Do(a, "GET", f.path(), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET values: %d %s", r.Status, r.Body)
	}
	var items []struct {
		CustomField struct{ Name, Type string } `json:"customField"`
		Value       json.RawMessage             `json:"value"`
	}
	r.JSON(t, &items)
	out := map[string]string{}
	for _, it := range items {
		out[it.CustomField.Name] = string(it.Value)
	}
	return out
}

func (f *fvFixture) patch(t *testing.T, a testenv.Actor, values map[string]any, status int) string {
	t.Helper()
	r := f.e.Do(a, "PATCH", f.path(), fvBody(values))
	if status >= 400 {
		return testenv.CheckError(t, r, status)
	}
	if r.Status != status {
		t.Fatalf("PATCH values: %d %s, want %d", r.Status, r.Body, status)
	}
	return ""
}

func TestSpaceFieldValuesValid(t *testing.T) {
	f := newFVFixture(t)
	cases := []struct {
		name, field string
		value       any
		want        string
	}{
		{"Text", "txt", "hello", `"hello"`},
		{"TextEmpty", "txt", "", `""`},
		{"TextAtBound", "txt", strings.Repeat("é", 256), `"` + strings.Repeat("é", 256) + `"`},
		{"Number", "num", 42, `42`},
		{"NumberNegativeFraction", "num", -1.5, `-1.5`},
		{"BooleanTrue", "flag", true, `true`},
		{"BooleanFalse", "flag", false, `false`},
		{"Select", "one", []string{"b"}, `["b"]`},
		{"MultiSelect", "many", []string{"c", "a"}, `["c","a"]`},
		{"MultiSelectEmpty", "many", []string{}, `[]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f.patch(t, f.admin, map[string]any{c.field: c.value}, http.StatusNoContent)
			if got := f.values(t, f.admin)[c.field]; got != c.want {
				t.Fatalf("%s = %s, want %s", c.field, got, c.want)
			}
		})
	}
	t.Run("ListedByName", func(t *testing.T) {
		r := f.e.Do(f.admin, "GET", f.path(), nil)
		var items []struct {
			CustomField struct{ Name string } `json:"customField"`
		}
		r.JSON(t, &items)
		var names []string
		for _, it := range items {
			names = append(names, it.CustomField.Name)
		}
		if got := strings.Join(names, ","); got != "flag,many,num,one,txt" {
			t.Fatalf("names %s", got)
		}
	})
	t.Run("NullRemoves", func(t *testing.T) {
		f.patch(t, f.admin, map[string]any{"txt": nil, "num": nil}, http.StatusNoContent)
		got := f.values(t, f.admin)
		if _, ok := got["txt"]; ok {
			t.Fatalf("txt still set: %v", got)
		}
		if _, ok := got["num"]; ok {
			t.Fatalf("num still set: %v", got)
		}
		if got["flag"] != "false" {
			t.Fatalf("flag = %s, want false (untouched)", got["flag"])
		}
	})
	t.Run("NullOfUnsetIsNoop", func(t *testing.T) {
		f.patch(t, f.admin, map[string]any{"txt": nil}, http.StatusNoContent)
	})
}

func TestSpaceFieldValuesInvalid(t *testing.T) {
	f := newFVFixture(t)
	cases := []struct {
		name, field string
		value       any
	}{
		{"ErrTextTooLong", "txt", strings.Repeat("x", 257)},
		{"ErrTextNumber", "txt", 3},
		{"ErrTextList", "txt", []string{"a"}},
		{"ErrNumberString", "num", "42"},
		{"ErrNumberBoolean", "num", true},
		{"ErrBooleanString", "flag", "true"},
		{"ErrBooleanNumber", "flag", 1},
		{"ErrSelectString", "one", "a"},
		{"ErrSelectTwo", "one", []string{"a", "b"}},
		{"ErrSelectNone", "one", []string{}},
		{"ErrSelectUnknownOption", "one", []string{"z"}},
		{"ErrSelectNumberItem", "one", []any{1}},
		{"ErrMultiUnknownOption", "many", []string{"a", "z"}},
		{"ErrMultiDuplicate", "many", []string{"a", "a"}},
		{"ErrMultiString", "many", "a"},
		{"ErrMultiObject", "many", map[string]any{"a": true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := f.patch(t, f.admin, map[string]any{c.field: c.value}, http.StatusBadRequest)
			if !strings.Contains(msg, c.field) {
				t.Fatalf("message %q does not name %s", msg, c.field)
			}
			if got := f.values(t, f.admin); len(got) != 0 {
				t.Fatalf("values were written: %v", got)
			}
		})
	}
	t.Run("ErrUnknownField", func(t *testing.T) {
		msg := f.patch(t, f.admin, map[string]any{"nope": "x"}, http.StatusBadRequest)
		if !strings.Contains(msg, "nope") {
			t.Fatalf("message %q does not name the field", msg)
		}
	})
	t.Run("ErrNoValues", func(t *testing.T) {
		msg := testenv.CheckError(t, f.e.Do(f.admin, "PATCH", f.path(), map[string]any{}), http.StatusBadRequest)
		if !strings.Contains(msg, "values") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrValueMissing", func(t *testing.T) {
		body := map[string]any{"values": map[string]any{"txt": map[string]any{}}}
		msg := testenv.CheckError(t, f.e.Do(f.admin, "PATCH", f.path(), body), http.StatusBadRequest)
		if !strings.Contains(msg, "txt") {
			t.Fatalf("message %q", msg)
		}
	})
}

func TestSpaceFieldValuesAtomic(t *testing.T) {
	f := newFVFixture(t)
	f.patch(t, f.admin, map[string]any{"txt": "before", "num": 1}, http.StatusNoContent)
	t.Run("ErrOneInvalid", func(t *testing.T) {
		msg := f.patch(t, f.admin, map[string]any{"txt": "after", "flag": true, "num": "two"}, http.StatusBadRequest)
		if !strings.Contains(msg, "num") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrOneUnknown", func(t *testing.T) {
		f.patch(t, f.admin, map[string]any{"txt": "after", "num": nil, "ghost": 1}, http.StatusBadRequest)
	})
	t.Run("NothingChanged", func(t *testing.T) {
		got := f.values(t, f.admin)
		if len(got) != 2 || got["txt"] != `"before"` || got["num"] != "1" {
			t.Fatalf("values %v", got)
		}
	})
	t.Run("OKAllAtOnce", func(t *testing.T) {
		f.patch(t, f.admin, map[string]any{"txt": "after", "num": nil, "one": []string{"c"}}, http.StatusNoContent)
		got := f.values(t, f.admin)
		if len(got) != 2 || got["txt"] != `"after"` || got["one"] != `["c"]` {
			t.Fatalf("values %v", got)
		}
	})
	t.Run("DeletedFieldDropsValues", func(t *testing.T) {
		if r := f.e.Do(f.admin, "DELETE", "/v1/orgs/"+f.org+"/custom-fields/one", nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete field: %d %s", r.Status, r.Body)
		}
		if got := f.values(t, f.admin); len(got) != 1 {
			t.Fatalf("values %v", got)
		}
	})
}

// TestSpaceFieldValuesRoles: readers of the space read its values; editors (edit role and above)
// write them; guests and outsiders do not see the space.
func TestSpaceFieldValuesRoles(t *testing.T) {
	f := newFVFixture(t)
	f.patch(t, f.admin, map[string]any{"txt": "set"}, http.StatusNoContent)
	_, otherOrg := f.e.Bootstrap("zed@zeta.io", "Zeta")
	outsider := f.e.User("out@zeta.io", otherOrg, testenv.Role(viewer.RoleAdmin))
	cases := []struct {
		name        string
		actor       testenv.Actor
		read, write int
	}{
		{"Admin", f.admin, 200, 204},
		{"Create", f.e.User("cr@example.com", f.org, testenv.Role(viewer.RoleCreate)), 200, 204},
		{"Review", f.e.User("rv@example.com", f.org, testenv.Role(viewer.RoleReview)), 200, 204},
		{"Edit", f.e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit)), 200, 204},
		{"Comment", f.e.User("co@example.com", f.org, testenv.Role(viewer.RoleComment)), 200, 403},
		{"Read", f.e.User("rd@example.com", f.org, testenv.Role(viewer.RoleRead)), 200, 403},
		{"Guest", f.e.User("gu@example.com", f.org, nil), 404, 404},
		{"Outsider", outsider, 404, 404},
		{"Anonymous", testenv.Actor{}, 401, 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.e.Do(c.actor, "GET", f.path(), nil)
			if c.read >= 400 {
				testenv.CheckError(t, r, c.read)
			} else if r.Status != c.read || !strings.Contains(string(r.Body), `"set"`) {
				t.Fatalf("GET: %d %s", r.Status, r.Body)
			}
			msg := f.patch(t, c.actor, map[string]any{"num": 7}, c.write)
			if c.write == 403 && !strings.Contains(msg, "edit") {
				t.Fatalf("403 message %q does not name the role", msg)
			}
		})
	}
	t.Run("OnlyAllowedWrites", func(t *testing.T) {
		if got := f.values(t, f.admin)["num"]; got != "7" {
			t.Fatalf("num = %s", got)
		}
	})
}

const fvMutation = `mutation($id: ID!, $values: [CustomFieldValueInput!]!) {
  setSpaceCustomFields(spaceId: $id, values: $values) { id customFields { value customField { name type } } }
}`

func TestSpaceFieldValuesGraphQL(t *testing.T) {
	f := newFVFixture(t)
	reader := f.e.User("rd@example.com", f.org, testenv.Role(viewer.RoleRead))
	t.Run("OK", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, fvMutation, map[string]any{"id": f.space, "values": []map[string]any{
			{"name": "txt", "value": "hi"}, {"name": "num", "value": 2.5}, {"name": "flag", "value": true},
			{"name": "many", "value": []string{"a", "b"}},
		}})
		var d struct {
			SetSpaceCustomFields struct {
				CustomFields []struct {
					Value       json.RawMessage
					CustomField struct{ Name, Type string }
				}
			}
		}
		gqlOK(t, g, &d)
		var got []string
		for _, v := range d.SetSpaceCustomFields.CustomFields {
			got = append(got, v.CustomField.Name+"="+string(v.Value))
		}
		if s := strings.Join(got, " "); s != `flag=true many=["a","b"] num=2.5 txt="hi"` {
			t.Fatalf("values %s", s)
		}
	})
	t.Run("OKInlineLiteralsAndNull", func(t *testing.T) {
		q := fmt.Sprintf(`mutation { setSpaceCustomFields(spaceId: %q, values: [{name: "num", value: 3}, {name: "txt", value: null}, {name: "one", value: ["a"]}]) { id } }`, f.space)
		gqlOK(t, f.e.GraphQL(f.admin, q, nil), &struct{}{})
		got := f.values(t, f.admin)
		if got["num"] != "3" || got["one"] != `["a"]` || got["txt"] != "" {
			t.Fatalf("values %v", got)
		}
	})
	t.Run("ReadSpaceCustomFields", func(t *testing.T) {
		g := f.e.GraphQL(reader, `query($id: ID!) { space(id: $id) { customFields { value customField { name } } } }`, map[string]any{"id": f.space})
		if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"many"`) {
			t.Fatalf("data %s errors %v", g.Data, g.Errors)
		}
	})
	t.Run("ErrInvalidValue", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, fvMutation, map[string]any{"id": f.space, "values": []map[string]any{
			{"name": "txt", "value": "changed"}, {"name": "flag", "value": "yes"}}})
		if g.Code() != "BAD_REQUEST" || !strings.Contains(g.Errors[0].Message, "flag") {
			t.Fatalf("code %s errors %v", g.Code(), g.Errors)
		}
		if got := f.values(t, f.admin)["txt"]; got != "" {
			t.Fatalf("txt = %s, want unset (all or nothing)", got)
		}
	})
	t.Run("ErrDuplicateName", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, fvMutation, map[string]any{"id": f.space, "values": []map[string]any{
			{"name": "txt", "value": "a"}, {"name": "txt", "value": "b"}}})
		if g.Code() != "BAD_REQUEST" {
			t.Fatalf("code %s errors %v", g.Code(), g.Errors)
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		g := f.e.GraphQL(reader, fvMutation, map[string]any{"id": f.space, "values": []map[string]any{{"name": "txt", "value": "x"}}})
		if g.Code() != "FORBIDDEN" {
			t.Fatalf("code %s errors %v", g.Code(), g.Errors)
		}
	})
}

// TestSpaceListStatements: listing spaces with their parent collection, organization and custom
// field values costs the same number of statements for 5 spaces and for 40.
func TestSpaceListStatements(t *testing.T) {
	const q = `query($org: ID!) { organization(id: $org) { spaces(first: 50) { edges { node {
	  title parent { title organization { title } } organization { title }
	  customFields { value customField { name } } } } } } }`
	count := func(t *testing.T, n int) int64 {
		t.Helper()
		f := newFVFixture(t)
		r := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/collections", map[string]any{"title": "Guides"})
		if r.Status != http.StatusCreated {
			t.Fatalf("create collection: %d %s", r.Status, r.Body)
		}
		col := r.Map(t)["id"].(string)
		for i := 1; i < n; i++ {
			body := map[string]any{"title": fmt.Sprintf("S%d", i)}
			if i%2 == 0 {
				body["parent"] = col
			}
			id := createSpace(t, f.e, f.admin, f.org, body)["id"].(string)
			r := f.e.Do(f.admin, "PATCH", "/v1/spaces/"+id+"/custom-fields",
				fvBody(map[string]any{"txt": "x", "many": []string{"a"}}))
			if r.Status != http.StatusNoContent {
				t.Fatalf("set values: %d %s", r.Status, r.Body)
			}
		}
		var g testenv.GQLResponse
		stmts := f.e.Statements(func() { g = f.e.GraphQL(f.admin, q, map[string]any{"org": f.org}) })
		var d struct {
			Organization struct {
				Spaces struct {
					Edges []struct {
						Node struct {
							Parent       *struct{ Title string }
							CustomFields []struct{ Value json.RawMessage }
						}
					}
				}
			}
		}
		gqlOK(t, g, &d)
		if got := len(d.Organization.Spaces.Edges); got != n {
			t.Fatalf("%d spaces listed, want %d", got, n)
		}
		return stmts
	}
	small, large := count(t, 5), count(t, 40)
	t.Logf("statements: %d for 5 spaces, %d for 40", small, large)
	if small != large {
		t.Fatalf("5 spaces: %d statements, 40 spaces: %d", small, large)
	}
}

// TestCollectionListStatements: listing collections with their organization, parent, child
// collections and spaces costs the same number of statements for 3 collections and for 12.
func TestCollectionListStatements(t *testing.T) {
	const q = `query($org: ID!) { organization(id: $org) { collections(first: 50) { edges { node {
	  title organization { title } parent { title }
	  collections(first: 5) { totalCount edges { node { title } } }
	  spaces(first: 5) { totalCount edges { node { title customFields { value } } } } } } } } }`
	count := func(t *testing.T, n int) int64 {
		t.Helper()
		f := newFVFixture(t)
		var top string
		for i := 0; i < n; i++ {
			body := map[string]any{"title": fmt.Sprintf("C%d", i)}
			if top != "" {
				body["parent"] = top
			}
			r := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/collections", body)
			if r.Status != http.StatusCreated {
				t.Fatalf("create collection: %d %s", r.Status, r.Body)
			}
			id := r.Map(t)["id"].(string)
			if top == "" {
				top = id
			}
			createSpace(t, f.e, f.admin, f.org, map[string]any{"title": fmt.Sprintf("S%d", i), "parent": id})
		}
		var g testenv.GQLResponse
		stmts := f.e.Statements(func() { g = f.e.GraphQL(f.admin, q, map[string]any{"org": f.org}) })
		var d struct {
			Organization struct {
				Collections struct {
					Edges []struct {
						Node struct {
							Collections struct{ TotalCount int }
							Spaces      struct{ TotalCount int }
						}
					}
				}
			}
		}
		gqlOK(t, g, &d)
		children, spaces := 0, 0
		for _, e := range d.Organization.Collections.Edges {
			children += e.Node.Collections.TotalCount
			spaces += e.Node.Spaces.TotalCount
		}
		if len(d.Organization.Collections.Edges) != n || children != n-1 || spaces != n {
			t.Fatalf("unexpected listing %+v", d)
		}
		return stmts
	}
	small, large := count(t, 3), count(t, 12)
	t.Logf("statements: %d for 3 collections, %d for 12", small, large)
	if small != large {
		t.Fatalf("3 collections: %d statements, 12 collections: %d", small, large)
	}
}
