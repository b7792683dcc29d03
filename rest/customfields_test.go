package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/customfieldvalue"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// cfFixture is an organization with its admin, and an outsider: the admin of another organization.
type cfFixture struct {
	e               *testenv.Env
	admin, outsider testenv.Actor
	org, otherOrg   string
}

func newCFFixture(t *testing.T, opts ...func(*server.Options)) *cfFixture {
	t.Helper()
	e := testenv.New(t, opts...)
	f := &cfFixture{e: e}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.outsider, f.otherOrg = e.Bootstrap("oscar@other.example", "Other")
	return f
}

// path is /v1/orgs/{org}/custom-fields, followed by a field name when one is given.
func (f *cfFixture) path(name ...string) string {
	p := "/v1/orgs/" + f.org + "/custom-fields"
	for _, n := range name {
		p += "/" + n
	}
	return p
}

// member adds a member of the organization (nil role: a guest).
func (f *cfFixture) member(t *testing.T, name string, role *viewer.Role) testenv.Actor {
	t.Helper()
	return f.e.User(name+"@example.com", f.org, role)
}

// cfWire is the wire shape of a custom field.
type cfWire struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Title       *string  `json:"title"`
	Description *string  `json:"description"`
	Placeholder *string  `json:"placeholder"`
	Options     []string `json:"options"`
	CreatedAt   string   `json:"createdAt"`
	UpdatedAt   string   `json:"updatedAt"`
	URLs        struct {
		Location string `json:"location"`
	} `json:"urls"`
	Permissions struct {
		View bool `json:"view"`
		Edit bool `json:"edit"`
	} `json:"permissions"`
}

type cfPage struct {
	Items []cfWire `json:"items"`
	Count int      `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

// create creates a field as the admin.
func (f *cfFixture) create(t *testing.T, body map[string]any) cfWire {
	t.Helper()
	resp := f.e.Do(f.admin, "POST", f.path(), body)
	cfWantStatus(t, resp, 201)
	var w cfWire
	resp.JSON(t, &w)
	return w
}

// get reads a field as the admin.
func (f *cfFixture) get(t *testing.T, name string) cfWire {
	t.Helper()
	resp := f.e.Do(f.admin, "GET", f.path(name), nil)
	cfWantStatus(t, resp, 200)
	var w cfWire
	resp.JSON(t, &w)
	return w
}

// snapshot reads, as the admin, every field of the organization.
func (f *cfFixture) snapshot(t *testing.T) string {
	t.Helper()
	resp := f.e.Do(f.admin, "GET", f.path()+"?limit=1000", nil)
	cfWantStatus(t, resp, 200)
	return string(resp.Body)
}

// wantUnchanged asserts the organization's fields are as in the snapshot before.
func (f *cfFixture) wantUnchanged(t *testing.T, before string) {
	t.Helper()
	if after := f.snapshot(t); after != before {
		t.Fatalf("custom fields changed:\nbefore %s\nafter  %s", before, after)
	}
}

func cfWantStatus(t *testing.T, resp testenv.Response, status int) {
	t.Helper()
	if resp.Status != status {
		t.Fatalf("want %d, got %d %s", status, resp.Status, resp.Body)
	}
}

// cfWantError asserts a failure with status whose message contains each of words.
func cfWantError(t *testing.T, resp testenv.Response, status int, words ...string) {
	t.Helper()
	msg := testenv.CheckError(t, resp, status)
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not name %q", msg, w)
		}
	}
}

// cfOptions returns n distinct options.
func cfOptions(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("option %d", i)
	}
	return out
}

func TestCreateCustomField(t *testing.T) {
	f := newCFFixture(t)
	t.Run("OKMinimalShape", func(t *testing.T) {
		resp := f.e.Do(f.admin, "POST", f.path(), map[string]any{"name": "owner", "type": "text"})
		cfWantStatus(t, resp, 201)
		keys := cfKeys(t, resp.Body)
		if want := "createdAt id name permissions type updatedAt urls"; keys != want {
			t.Fatalf("keys: want %q, got %q", want, keys)
		}
		var w cfWire
		resp.JSON(t, &w)
		if w.ID == "" || w.Name != "owner" || w.Type != "text" || !w.Permissions.View || !w.Permissions.Edit {
			t.Fatalf("unexpected %+v", w)
		}
		if want := f.e.Server.URL + f.path("owner"); w.URLs.Location != want {
			t.Fatalf("location: want %s, got %s", want, w.URLs.Location)
		}
		if cfTime(t, w.UpdatedAt).Before(cfTime(t, w.CreatedAt)) {
			t.Fatalf("a new field: createdAt %s, updatedAt %s", w.CreatedAt, w.UpdatedAt)
		}
	})
	t.Run("OKEveryType", func(t *testing.T) {
		for _, typ := range []string{"number", "boolean", "select", "multi-select"} {
			body := map[string]any{"name": "t-" + typ, "type": typ}
			if strings.Contains(typ, "select") {
				body["options"] = []string{"a", "b"}
			}
			w := f.create(t, body)
			if w.Type != typ {
				t.Fatalf("want type %s, got %+v", typ, w)
			}
			if got := f.get(t, "t-"+typ); got.Type != typ || fmt.Sprint(got.Options) != fmt.Sprint(body["options"]) && body["options"] != nil {
				t.Fatalf("read back %+v", got)
			}
		}
	})
	t.Run("OKEveryFieldAtItsBound", func(t *testing.T) {
		body := map[string]any{
			"name": strings.Repeat("z", 50), "type": "multi-select",
			"title": strings.Repeat("é", 100), "description": strings.Repeat("👩‍💻", 40), // 200 code points
			"placeholder": strings.Repeat("ü", 100), "options": cfLongOptions(50),
		}
		w := f.create(t, body)
		got := f.get(t, w.Name)
		if *got.Title != body["title"] || *got.Description != body["description"] || *got.Placeholder != body["placeholder"] ||
			fmt.Sprint(got.Options) != fmt.Sprint(body["options"]) {
			t.Fatalf("read back %+v", got)
		}
	})
	t.Run("OKShortestName", func(t *testing.T) {
		f.create(t, map[string]any{"name": "x", "type": "boolean"})
		f.create(t, map[string]any{"name": "a-b_9", "type": "number"})
	})
	t.Run("OKOneOption", func(t *testing.T) {
		if w := f.create(t, map[string]any{"name": "one", "type": "select", "options": []string{"only"}}); len(w.Options) != 1 {
			t.Fatalf("options %v", w.Options)
		}
	})
	t.Run("OKTrimmedTexts", func(t *testing.T) {
		w := f.create(t, map[string]any{"name": "trim", "type": "select", "title": "  Owner  ", "description": "   ",
			"options": []string{" a ", "b"}})
		if w.Title == nil || *w.Title != "Owner" || w.Description != nil || fmt.Sprint(w.Options) != "[a b]" {
			t.Fatalf("unexpected %+v", w)
		}
	})
	t.Run("OKSameNameInAnotherOrganization", func(t *testing.T) {
		r := f.e.Do(f.outsider, "POST", "/v1/orgs/"+f.otherOrg+"/custom-fields", map[string]any{"name": "owner", "type": "text"})
		cfWantStatus(t, r, 201)
	})
}

// cfLongOptions returns n distinct options of 100 characters each.
func cfLongOptions(n int) []string {
	out := make([]string, n)
	for i := range out {
		p := fmt.Sprintf("%02d", i)
		out[i] = p + strings.Repeat("ß", 100-len(p))
	}
	return out
}

func cfTime(t *testing.T, s string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("timestamp %q: %v", s, err)
	}
	return ts
}

// cfKeys lists the keys of a JSON object, sorted.
func cfKeys(t *testing.T, body []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

func TestCreateCustomFieldErrors(t *testing.T) {
	f := newCFFixture(t)
	f.create(t, map[string]any{"name": "taken", "type": "text"})
	before := f.snapshot(t)
	sel := func(options any) map[string]any {
		return map[string]any{"name": "s", "type": "select", "options": options}
	}
	cases := []struct {
		name  string
		body  any
		words []string
	}{
		{"ErrNameMissing", map[string]any{"type": "text"}, []string{"name", "required"}},
		{"ErrNameNull", map[string]any{"name": nil, "type": "text"}, []string{"name"}},
		{"ErrNameEmpty", map[string]any{"name": "", "type": "text"}, []string{"name", "empty"}},
		{"ErrNameTooLong", map[string]any{"name": strings.Repeat("a", 51), "type": "text"}, []string{"name", "50"}},
		{"ErrNameUpperCase", map[string]any{"name": "Owner", "type": "text"}, []string{"name", "a-z"}},
		{"ErrNameSpace", map[string]any{"name": "a b", "type": "text"}, []string{"name", "a-z"}},
		{"ErrNameDot", map[string]any{"name": "a.b", "type": "text"}, []string{"name", "a-z"}},
		{"ErrNameAccent", map[string]any{"name": "café", "type": "text"}, []string{"name", "a-z"}},
		{"ErrNameNUL", map[string]any{"name": "a\x00b", "type": "text"}, []string{"NUL"}},
		{"ErrNameNotString", map[string]any{"name": 5, "type": "text"}, []string{"name"}},
		{"ErrTypeMissing", map[string]any{"name": "a"}, []string{"type", "required"}},
		{"ErrTypeUnknown", map[string]any{"name": "a", "type": "date"}, []string{"type", "multi-select"}},
		{"ErrTypeUpperCase", map[string]any{"name": "a", "type": "TEXT"}, []string{"type"}},
		{"ErrTypeNotString", map[string]any{"name": "a", "type": 1}, []string{"type"}},
		{"ErrTitleTooLong", map[string]any{"name": "a", "type": "text", "title": strings.Repeat("é", 101)}, []string{"title", "100"}},
		{"ErrTitleNotString", map[string]any{"name": "a", "type": "text", "title": 5}, []string{"title"}},
		{"ErrDescriptionTooLong", map[string]any{"name": "a", "type": "text", "description": strings.Repeat("d", 201)}, []string{"description", "200"}},
		{"ErrPlaceholderTooLong", map[string]any{"name": "a", "type": "text", "placeholder": strings.Repeat("p", 101)}, []string{"placeholder", "100"}},
		{"ErrOptionsMissingOnSelect", map[string]any{"name": "s", "type": "select"}, []string{"options", "required"}},
		{"ErrOptionsMissingOnMultiSelect", map[string]any{"name": "s", "type": "multi-select"}, []string{"options", "required"}},
		{"ErrOptionsNull", sel(nil), []string{"options", "required"}},
		{"ErrOptionsEmpty", sel([]string{}), []string{"options", "1 to 50", "got 0"}},
		{"ErrOptionsTooMany", sel(cfOptions(51)), []string{"options", "50", "got 51"}},
		{"ErrOptionsDuplicate", sel([]string{"a", "b", "a"}), []string{"options[2]", "twice"}},
		{"ErrOptionsDuplicateAfterTrim", sel([]string{"a", " a"}), []string{"options[1]", "twice"}},
		{"ErrOptionEmpty", sel([]string{"a", ""}), []string{"options[1]", "empty"}},
		{"ErrOptionBlank", sel([]string{"   "}), []string{"options[0]", "empty"}},
		{"ErrOptionTooLong", sel([]string{strings.Repeat("o", 101)}), []string{"options[0]", "100"}},
		{"ErrOptionNotString", sel([]any{"a", 1}), []string{"options"}},
		{"ErrOptionsNotArray", sel("a"), []string{"options"}},
		{"ErrOptionsOnText", map[string]any{"name": "a", "type": "text", "options": []string{"a"}}, []string{"options", "select"}},
		{"ErrOptionsOnNumber", map[string]any{"name": "a", "type": "number", "options": []string{"a"}}, []string{"options", "select"}},
		{"ErrOptionsOnBoolean", map[string]any{"name": "a", "type": "boolean", "options": []string{"a"}}, []string{"options", "select"}},
		{"ErrEmptyOptionsOnText", map[string]any{"name": "a", "type": "text", "options": []string{}}, []string{"options", "select"}},
		{"ErrBodyNotObject", `["name"]`, []string{"request body"}},
		{"ErrBodyMalformed", `{"name":`, []string{"malformed"}},
		{"ErrBodyNull", `null`, []string{"request body"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfWantError(t, f.e.Do(f.admin, "POST", f.path(), c.body), 400, c.words...)
		})
	}
	t.Run("ErrDuplicateName", func(t *testing.T) {
		cfWantError(t, f.e.Do(f.admin, "POST", f.path(), map[string]any{"name": "taken", "type": "number"}), 409, "name", "taken")
	})
	t.Run("NothingChanged", func(t *testing.T) { f.wantUnchanged(t, before) })
}

// cfRoles are the members below admin, with their roles (nil: a guest).
var cfRoles = []struct {
	name string
	role *viewer.Role
}{
	{"Create", testenv.Role(viewer.RoleCreate)},
	{"Review", testenv.Role(viewer.RoleReview)},
	{"Edit", testenv.Role(viewer.RoleEdit)},
	{"Comment", testenv.Role(viewer.RoleComment)},
	{"Read", testenv.Role(viewer.RoleRead)},
	{"Guest", nil},
}

// TestCustomFieldAccess: members with a role read, admins write, guests see nothing (403 on the
// list, 404 on a field), outsiders get 404 everywhere.
func TestCustomFieldAccess(t *testing.T) {
	f := newCFFixture(t)
	f.create(t, map[string]any{"name": "status", "type": "select", "options": []string{"a"}})
	before := f.snapshot(t)
	writes := []struct {
		method, path string
		body         any
	}{
		{"POST", f.path(), map[string]any{"name": "evil", "type": "text"}},
		{"PATCH", f.path("status"), map[string]any{"title": "Evil"}},
		{"DELETE", f.path("status"), nil},
	}
	for _, r := range cfRoles {
		t.Run(r.name, func(t *testing.T) {
			m := f.member(t, strings.ToLower(r.name), r.role)
			for _, w := range writes {
				cfWantError(t, f.e.Do(m, w.method, w.path, w.body), 403, "admin")
			}
			if r.role == nil {
				cfWantStatus(t, f.e.Do(m, "GET", f.path(), nil), 403)
				cfWantStatus(t, f.e.Do(m, "GET", f.path("status"), nil), 404)
				return
			}
			var p cfPage
			resp := f.e.Do(m, "GET", f.path(), nil)
			cfWantStatus(t, resp, 200)
			resp.JSON(t, &p)
			if p.Count != 1 || !p.Items[0].Permissions.View || p.Items[0].Permissions.Edit {
				t.Fatalf("unexpected %+v", p)
			}
			resp = f.e.Do(m, "GET", f.path("status"), nil)
			cfWantStatus(t, resp, 200)
		})
	}
	t.Run("Outsider", func(t *testing.T) {
		for _, w := range append(writes, struct {
			method, path string
			body         any
		}{"GET", f.path(), nil}, struct {
			method, path string
			body         any
		}{"GET", f.path("status"), nil}) {
			cfWantStatus(t, f.e.Do(f.outsider, w.method, w.path, w.body), 404)
		}
	})
	t.Run("Unauthenticated", func(t *testing.T) {
		for _, a := range []testenv.Actor{{}, {Token: "bdy_bogus"}} {
			cfWantStatus(t, f.e.Do(a, "GET", f.path(), nil), 401)
			cfWantStatus(t, f.e.Do(a, "POST", f.path(), writes[0].body), 401)
		}
	})
	t.Run("NothingChanged", func(t *testing.T) { f.wantUnchanged(t, before) })
}

func TestListCustomFields(t *testing.T) {
	f := newCFFixture(t)
	names := []string{"zeta", "alpha", "m-1", "beta", "m_2", "0-first", "gamma"}
	for _, n := range names {
		f.create(t, map[string]any{"name": n, "type": "text"})
	}
	f.e.Do(f.outsider, "POST", "/v1/orgs/"+f.otherOrg+"/custom-fields", map[string]any{"name": "foreign", "type": "text"})
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	t.Run("OKSortedByName", func(t *testing.T) {
		var p cfPage
		f.e.Do(f.admin, "GET", f.path(), nil).JSON(t, &p)
		if got := cfNames(p.Items); fmt.Sprint(got) != fmt.Sprint(sorted) || p.Count != len(names) || p.Next != nil {
			t.Fatalf("want %v, got %v (count %d)", sorted, got, p.Count)
		}
	})
	for _, limit := range []int{1, 2, 3, 7} {
		t.Run(fmt.Sprintf("OKPagesOf%d", limit), func(t *testing.T) {
			if got := cfWalk(t, f, limit, len(names)); fmt.Sprint(got) != fmt.Sprint(sorted) {
				t.Fatalf("want %v, got %v", sorted, got)
			}
		})
	}
	t.Run("OKLimitZero", func(t *testing.T) {
		var p cfPage
		f.e.Do(f.admin, "GET", f.path()+"?limit=0", nil).JSON(t, &p)
		if len(p.Items) != 0 || p.Count != len(names) {
			t.Fatalf("unexpected %+v", p)
		}
	})
	t.Run("OKOtherOrganizationApart", func(t *testing.T) {
		var p cfPage
		f.e.Do(f.outsider, "GET", "/v1/orgs/"+f.otherOrg+"/custom-fields", nil).JSON(t, &p)
		if fmt.Sprint(cfNames(p.Items)) != "[foreign]" || p.Count != 1 {
			t.Fatalf("unexpected %+v", p)
		}
	})
	t.Run("ErrBadLimit", func(t *testing.T) {
		for _, l := range []string{"-1", "1001", "abc", "1.5"} {
			cfWantError(t, f.e.Do(f.admin, "GET", f.path()+"?limit="+l, nil), 400, "limit")
		}
	})
	t.Run("ErrBadPageToken", func(t *testing.T) {
		for _, p := range []string{"garbage", "eyJrIjoxfQ"} {
			cfWantError(t, f.e.Do(f.admin, "GET", f.path()+"?page="+p, nil), 400, "page")
		}
	})
}

func cfNames(items []cfWire) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Name
	}
	return out
}

// cfWalk lists the organization's fields limit at a time, following next, and returns the names.
func cfWalk(t *testing.T, f *cfFixture, limit, count int) []string {
	t.Helper()
	var names []string
	query := fmt.Sprintf("?limit=%d", limit)
	for range count + 1 {
		var p cfPage
		resp := f.e.Do(f.admin, "GET", f.path()+query, nil)
		cfWantStatus(t, resp, 200)
		resp.JSON(t, &p)
		if p.Count != count || len(p.Items) > limit {
			t.Fatalf("page of %d: count %d, %d items", limit, p.Count, len(p.Items))
		}
		names = append(names, cfNames(p.Items)...)
		if p.Next == nil {
			return names
		}
		query = fmt.Sprintf("?limit=%d&page=%s", limit, url.QueryEscape(p.Next.Page))
	}
	t.Fatalf("pages of %d never end", limit)
	return nil
}

func TestGetCustomField(t *testing.T) {
	f := newCFFixture(t)
	created := f.create(t, map[string]any{"name": "status", "type": "select", "title": "Status", "options": []string{"a", "b"}})
	f.e.Do(f.outsider, "POST", "/v1/orgs/"+f.otherOrg+"/custom-fields", map[string]any{"name": "foreign", "type": "text"})
	t.Run("OK", func(t *testing.T) {
		resp := f.e.Do(f.admin, "GET", f.path("status"), nil)
		cfWantStatus(t, resp, 200)
		var got cfWire
		resp.JSON(t, &got)
		if !reflect.DeepEqual(got, created) {
			t.Fatalf("want %+v, got %+v", created, got)
		}
		if keys := cfKeys(t, resp.Body); keys != "createdAt id name options permissions title type updatedAt urls" {
			t.Fatalf("keys %q", keys)
		}
	})
	for name, field := range map[string]string{
		"ErrUnknown": "nope", "ErrUpperCase": "Status", "ErrTooLong": strings.Repeat("a", 51),
		"ErrOtherOrganizationsField": "foreign", "ErrEncodedSlash": "a%2Fb",
	} {
		t.Run(name, func(t *testing.T) {
			cfWantError(t, f.e.Do(f.admin, "GET", f.path(field), nil), 404, "not found")
		})
	}
	t.Run("ErrEncodedNUL", func(t *testing.T) {
		cfWantError(t, f.e.Do(f.admin, "GET", f.path("a%00b"), nil), 400, "NUL")
	})
	t.Run("ErrUnknownOrganization", func(t *testing.T) {
		cfWantStatus(t, f.e.Do(f.admin, "GET", "/v1/orgs/nope/custom-fields/status", nil), 404)
	})
}

func TestUpdateCustomField(t *testing.T) {
	f := newCFFixture(t)
	created := f.create(t, map[string]any{"name": "status", "type": "select", "title": "Status", "description": "Where it is",
		"placeholder": "Pick one", "options": []string{"draft", "live"}})
	f.create(t, map[string]any{"name": "notes", "type": "text"})
	t.Run("OKEveryField", func(t *testing.T) {
		resp := f.e.Do(f.admin, "PATCH", f.path("status"), map[string]any{"title": "State", "description": strings.Repeat("d", 200),
			"placeholder": strings.Repeat("p", 100), "options": []string{"draft", "review", "live"}})
		cfWantStatus(t, resp, 200)
		var w cfWire
		resp.JSON(t, &w)
		if *w.Title != "State" || len(*w.Description) != 200 || len(*w.Placeholder) != 100 ||
			fmt.Sprint(w.Options) != "[draft review live]" || w.ID != created.ID || w.Name != "status" || w.Type != "select" ||
			w.CreatedAt != created.CreatedAt || cfTime(t, w.UpdatedAt).Before(cfTime(t, created.UpdatedAt)) {
			t.Fatalf("unexpected %+v", w)
		}
		if got := f.get(t, "status"); !reflect.DeepEqual(got, w) {
			t.Fatalf("read back %+v, want %+v", got, w)
		}
	})
	t.Run("OKAbsentLeavesFields", func(t *testing.T) {
		before := f.get(t, "status")
		cfWantStatus(t, f.e.Do(f.admin, "PATCH", f.path("status"), map[string]any{}), 200)
		after := f.get(t, "status")
		if *after.Title != *before.Title || *after.Description != *before.Description || fmt.Sprint(after.Options) != fmt.Sprint(before.Options) {
			t.Fatalf("before %+v, after %+v", before, after)
		}
	})
	t.Run("OKNullClears", func(t *testing.T) {
		for _, field := range []string{"title", "description", "placeholder"} {
			cfWantStatus(t, f.e.Do(f.admin, "PATCH", f.path("status"), map[string]any{field: nil}), 200)
			if keys := cfKeys(t, f.e.Do(f.admin, "GET", f.path("status"), nil).Body); strings.Contains(keys, field) {
				t.Fatalf("%s not cleared: keys %q", field, keys)
			}
		}
		if got := f.get(t, "status"); len(got.Options) != 3 {
			t.Fatalf("options changed: %v", got.Options)
		}
	})
	t.Run("OKBlankClears", func(t *testing.T) {
		cfWantStatus(t, f.e.Do(f.admin, "PATCH", f.path("notes"), map[string]any{"title": "Notes"}), 200)
		cfWantStatus(t, f.e.Do(f.admin, "PATCH", f.path("notes"), map[string]any{"title": "  "}), 200)
		if got := f.get(t, "notes"); got.Title != nil {
			t.Fatalf("title %q", *got.Title)
		}
	})
	t.Run("OKNameAndTypeIgnored", func(t *testing.T) {
		cfWantStatus(t, f.e.Do(f.admin, "PATCH", f.path("notes"), map[string]any{"name": "renamed", "type": "number"}), 200)
		if got := f.get(t, "notes"); got.Name != "notes" || got.Type != "text" {
			t.Fatalf("unexpected %+v", got)
		}
	})
	t.Run("OKFiftyOptions", func(t *testing.T) {
		cfWantStatus(t, f.e.Do(f.admin, "PATCH", f.path("status"), map[string]any{"options": cfLongOptions(50)}), 200)
		if got := f.get(t, "status"); len(got.Options) != 50 {
			t.Fatalf("%d options", len(got.Options))
		}
	})
	before := f.snapshot(t)
	cases := []struct {
		name, field string
		body        any
		words       []string
	}{
		{"ErrTitleTooLong", "status", map[string]any{"title": strings.Repeat("t", 101)}, []string{"title", "100"}},
		{"ErrDescriptionTooLong", "status", map[string]any{"description": strings.Repeat("d", 201)}, []string{"description", "200"}},
		{"ErrPlaceholderTooLong", "status", map[string]any{"placeholder": strings.Repeat("p", 101)}, []string{"placeholder", "100"}},
		{"ErrTitleNotString", "status", map[string]any{"title": true}, []string{"title"}},
		{"ErrOptionsEmpty", "status", map[string]any{"options": []string{}}, []string{"options", "got 0"}},
		{"ErrOptionsNull", "status", map[string]any{"options": nil}, []string{"options", "null"}},
		{"ErrOptionsTooMany", "status", map[string]any{"options": cfOptions(51)}, []string{"options", "got 51"}},
		{"ErrOptionsDuplicate", "status", map[string]any{"options": []string{"x", "x"}}, []string{"options[1]", "twice"}},
		{"ErrOptionTooLong", "status", map[string]any{"options": []string{strings.Repeat("o", 101)}}, []string{"options[0]", "100"}},
		{"ErrOptionsOnText", "notes", map[string]any{"options": []string{"a"}}, []string{"options", "select"}},
		{"ErrValidThenInvalid", "status", map[string]any{"title": "Fine", "description": strings.Repeat("d", 201)}, []string{"description"}},
		{"ErrBodyMalformed", "status", `{"title":`, []string{"malformed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfWantError(t, f.e.Do(f.admin, "PATCH", f.path(c.field), c.body), 400, c.words...)
		})
	}
	t.Run("ErrUnknownField", func(t *testing.T) {
		cfWantError(t, f.e.Do(f.admin, "PATCH", f.path("nope"), map[string]any{"title": "X"}), 404, "custom field")
	})
	t.Run("NothingChanged", func(t *testing.T) { f.wantUnchanged(t, before) })
}

func TestDeleteCustomField(t *testing.T) {
	f := newCFFixture(t)
	f.create(t, map[string]any{"name": "status", "type": "select", "options": []string{"a"}})
	f.create(t, map[string]any{"name": "notes", "type": "text"})
	space, status, notes := cfSpaceWithValues(t, f)
	t.Run("OK", func(t *testing.T) {
		cfWantStatus(t, f.e.Do(f.admin, "DELETE", f.path("status"), nil), 204)
		cfWantStatus(t, f.e.Do(f.admin, "GET", f.path("status"), nil), 404)
		var p cfPage
		f.e.Do(f.admin, "GET", f.path(), nil).JSON(t, &p)
		if fmt.Sprint(cfNames(p.Items)) != "[notes]" || p.Count != 1 {
			t.Fatalf("unexpected %+v", p)
		}
	})
	t.Run("OKValuesGoWithTheField", func(t *testing.T) {
		if n := cfValueCount(t, f, space, status); n != 0 {
			t.Fatalf("%d values of the deleted field remain", n)
		}
		if n := cfValueCount(t, f, space, notes); n != 1 {
			t.Fatalf("%d values of the other field, want 1", n)
		}
	})
	t.Run("ErrAgain", func(t *testing.T) {
		cfWantError(t, f.e.Do(f.admin, "DELETE", f.path("status"), nil), 404, "custom field")
	})
	t.Run("OKNameReusable", func(t *testing.T) {
		if w := f.create(t, map[string]any{"name": "status", "type": "number"}); w.Type != "number" {
			t.Fatalf("unexpected %+v", w)
		}
	})
}

// cfSpaceWithValues creates a space with a value of the fields "status" and "notes", through the
// system viewer (spaces and values have no endpoints yet), and returns the space and field ids.
func cfSpaceWithValues(t *testing.T, f *cfFixture) (space, status, notes string) {
	t.Helper()
	ctx := accounts.System(context.Background())
	c := f.e.Store.Client
	s, err := c.Space.Create().SetOrganizationID(f.org).SetTitle("Docs").Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	status, notes = f.get(t, "status").ID, f.get(t, "notes").ID
	for id, v := range map[string]string{status: `["a"]`, notes: `"hello"`} {
		err := c.CustomFieldValue.Create().SetOrganizationID(f.org).SetSpaceID(s.ID).SetCustomFieldID(id).
			SetValue(json.RawMessage(v)).Exec(ctx)
		if err != nil {
			t.Fatal(err)
		}
	}
	return s.ID, status, notes
}

func cfValueCount(t *testing.T, f *cfFixture, space, field string) int {
	t.Helper()
	n, err := f.e.Store.Client.CustomFieldValue.Query().
		Where(customfieldvalue.SpaceID(space), customfieldvalue.CustomFieldID(field)).
		Count(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCustomFieldListStatements: a list costs the same number of statements for 3 and 30 fields.
func TestCustomFieldListStatements(t *testing.T) {
	f := newCFFixture(t)
	count := func() int64 {
		return f.e.Statements(func() { cfWantStatus(t, f.e.Do(f.admin, "GET", f.path()+"?limit=1000", nil), 200) })
	}
	for i := range 3 {
		f.create(t, map[string]any{"name": fmt.Sprintf("f%02d", i), "type": "text"})
	}
	few := count()
	for i := 3; i < 30; i++ {
		f.create(t, map[string]any{"name": fmt.Sprintf("f%02d", i), "type": "text"})
	}
	if many := count(); many != few {
		t.Fatalf("3 fields: %d statements, 30 fields: %d", few, many)
	}
}

// GraphQL

const gqlCFFields = `id name type title description placeholder options createdAt updatedAt permissions { view edit }`

const gqlCreateCF = `mutation($org: ID!, $in: CreateCustomFieldInput!) { createCustomField(organizationId: $org, input: $in) { ` + gqlCFFields + ` } }`

const gqlUpdateCF = `mutation($org: ID!, $name: String!, $in: UpdateCustomFieldInput!) {
  updateCustomField(organizationId: $org, name: $name, input: $in) { ` + gqlCFFields + ` } }`

const gqlDeleteCF = `mutation($org: ID!, $name: String!) { deleteCustomField(organizationId: $org, name: $name) }`

const gqlOrgCF = `query($org: ID!, $first: Int, $after: String, $name: String!) {
  organization(id: $org) {
    customFields(first: $first, after: $after) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { cursor node { ` + gqlCFFields + ` } }
    }
    customField(name: $name) { ` + gqlCFFields + ` }
  }
}`

type gqlCF struct {
	ID, Name, Type                  string
	Title, Description, Placeholder *string
	Options                         []string
	CreatedAt, UpdatedAt            string
	Permissions                     struct{ View, Edit bool }
}

type gqlCFQuery struct {
	Organization struct {
		CustomFields struct {
			TotalCount int
			PageInfo   struct {
				HasNextPage bool
				EndCursor   *string
			}
			Edges []struct {
				Cursor string
				Node   gqlCF
			}
		}
		CustomField *gqlCF
	}
}

// gqlOK runs a query that must succeed and decodes its data into out.
func (f *cfFixture) gqlOK(t *testing.T, a testenv.Actor, query string, vars map[string]any, out any) {
	t.Helper()
	g := f.e.GraphQL(a, query, vars)
	if len(g.Errors) > 0 || g.Status != 200 {
		t.Fatalf("GraphQL %d: %+v", g.Status, g.Errors)
	}
	if err := json.Unmarshal(g.Data, out); err != nil {
		t.Fatalf("decode %s: %v", g.Data, err)
	}
}

// gqlErr runs a query that must fail with code, the message naming each of words.
func (f *cfFixture) gqlErr(t *testing.T, a testenv.Actor, query string, vars map[string]any, code string, words ...string) {
	t.Helper()
	wantGQLError(t, f.e.GraphQL(a, query, vars), code, words...)
}

// wantGQLError fails unless one of g's errors has the code, and its message names every word.
// Several fields of one query may fail; their errors come in no fixed order.
func wantGQLError(t *testing.T, g testenv.GQLResponse, code string, words ...string) {
	t.Helper()
	for _, e := range g.Errors {
		if e.Extensions["code"] != code {
			continue
		}
		for _, w := range words {
			if !strings.Contains(e.Message, w) {
				t.Errorf("message %q does not name %q", e.Message, w)
			}
		}
		return
	}
	t.Fatalf("want a %s error, got %d %+v %s", code, g.Status, g.Errors, g.Data)
}

func TestGraphQLCreateCustomField(t *testing.T) {
	f := newCFFixture(t)
	create := func(in map[string]any) map[string]any { return map[string]any{"org": f.org, "in": in} }
	t.Run("OKEveryType", func(t *testing.T) {
		for gql, wire := range map[string]string{"TEXT": "text", "NUMBER": "number", "BOOLEAN": "boolean", "SELECT": "select", "MULTI_SELECT": "multi-select"} {
			in := map[string]any{"name": "f-" + wire, "type": gql, "title": "T"}
			if strings.Contains(wire, "select") {
				in["options"] = []string{"a", "b"}
			}
			var out struct{ CreateCustomField gqlCF }
			f.gqlOK(t, f.admin, gqlCreateCF, create(in), &out)
			c := out.CreateCustomField
			if c.Type != gql || c.Name != "f-"+wire || *c.Title != "T" || !c.Permissions.Edit || c.Options == nil {
				t.Fatalf("unexpected %+v", c)
			}
			if got := f.get(t, "f-"+wire); got.Type != wire || got.ID != c.ID {
				t.Fatalf("REST reads %+v", got)
			}
		}
	})
	t.Run("OKInlineEnum", func(t *testing.T) {
		var out struct{ CreateCustomField gqlCF }
		q := `mutation($org: ID!) { createCustomField(organizationId: $org, input: {name: "inline", type: MULTI_SELECT, options: ["x"]}) { type options } }`
		f.gqlOK(t, f.admin, q, map[string]any{"org": f.org}, &out)
		if out.CreateCustomField.Type != "MULTI_SELECT" || fmt.Sprint(out.CreateCustomField.Options) != "[x]" {
			t.Fatalf("unexpected %+v", out.CreateCustomField)
		}
	})
	t.Run("OKLowerCaseVariable", func(t *testing.T) {
		var out struct{ CreateCustomField gqlCF }
		f.gqlOK(t, f.admin, gqlCreateCF, create(map[string]any{"name": "lower", "type": "multi_select", "options": []string{"x"}}), &out)
		if out.CreateCustomField.Type != "MULTI_SELECT" {
			t.Fatalf("unexpected %+v", out.CreateCustomField)
		}
	})
	before := f.snapshot(t)
	for _, c := range []struct {
		name  string
		in    map[string]any
		code  string
		words []string
	}{
		{"ErrNameTooLong", map[string]any{"name": strings.Repeat("a", 51), "type": "TEXT"}, "BAD_REQUEST", []string{"name", "50"}},
		{"ErrNamePattern", map[string]any{"name": "Nope!", "type": "TEXT"}, "BAD_REQUEST", []string{"name"}},
		{"ErrTitleTooLong", map[string]any{"name": "a", "type": "TEXT", "title": strings.Repeat("t", 101)}, "BAD_REQUEST", []string{"title", "100"}},
		{"ErrDescriptionTooLong", map[string]any{"name": "a", "type": "TEXT", "description": strings.Repeat("d", 201)}, "BAD_REQUEST", []string{"description", "200"}},
		{"ErrPlaceholderTooLong", map[string]any{"name": "a", "type": "TEXT", "placeholder": strings.Repeat("p", 101)}, "BAD_REQUEST", []string{"placeholder", "100"}},
		{"ErrOptionsMissing", map[string]any{"name": "a", "type": "SELECT"}, "BAD_REQUEST", []string{"options", "required"}},
		{"ErrOptionsEmpty", map[string]any{"name": "a", "type": "SELECT", "options": []string{}}, "BAD_REQUEST", []string{"options", "got 0"}},
		{"ErrOptionsTooMany", map[string]any{"name": "a", "type": "MULTI_SELECT", "options": cfOptions(51)}, "BAD_REQUEST", []string{"options", "got 51"}},
		{"ErrOptionsDuplicate", map[string]any{"name": "a", "type": "SELECT", "options": []string{"a", "a"}}, "BAD_REQUEST", []string{"options[1]"}},
		{"ErrOptionsOnText", map[string]any{"name": "a", "type": "TEXT", "options": []string{"a"}}, "BAD_REQUEST", []string{"options"}},
		{"ErrEmptyOptionsOnNumber", map[string]any{"name": "a", "type": "NUMBER", "options": []string{}}, "BAD_REQUEST", []string{"options"}},
		{"ErrUnknownType", map[string]any{"name": "a", "type": "DATE"}, "GRAPHQL_VALIDATION_FAILED", nil},
		{"ErrWireTypeName", map[string]any{"name": "a", "type": "multi-select"}, "GRAPHQL_VALIDATION_FAILED", nil},
		{"ErrTypeMissing", map[string]any{"name": "a"}, "GRAPHQL_VALIDATION_FAILED", nil},
		{"ErrDuplicateName", map[string]any{"name": "f-text", "type": "NUMBER"}, "CONFLICT", []string{"f-text"}},
	} {
		t.Run(c.name, func(t *testing.T) { f.gqlErr(t, f.admin, gqlCreateCF, create(c.in), c.code, c.words...) })
	}
	t.Run("ErrRoles", func(t *testing.T) {
		for _, r := range cfRoles {
			m := f.member(t, strings.ToLower(r.name), r.role)
			f.gqlErr(t, m, gqlCreateCF, create(map[string]any{"name": "evil", "type": "TEXT"}), "FORBIDDEN")
		}
		f.gqlErr(t, f.outsider, gqlCreateCF, create(map[string]any{"name": "evil", "type": "TEXT"}), "NOT_FOUND")
	})
	t.Run("NothingChanged", func(t *testing.T) { f.wantUnchanged(t, before) })
}

func TestGraphQLUpdateDeleteCustomField(t *testing.T) {
	f := newCFFixture(t)
	f.create(t, map[string]any{"name": "status", "type": "select", "title": "Status", "description": "D", "options": []string{"a"}})
	f.create(t, map[string]any{"name": "notes", "type": "text"})
	upd := func(name string, in map[string]any) map[string]any {
		return map[string]any{"org": f.org, "name": name, "in": in}
	}
	t.Run("OKUpdate", func(t *testing.T) {
		var out struct{ UpdateCustomField gqlCF }
		f.gqlOK(t, f.admin, gqlUpdateCF, upd("status", map[string]any{"title": nil, "placeholder": "Pick", "options": []string{"a", "b"}}), &out)
		c := out.UpdateCustomField
		if c.Title != nil || *c.Description != "D" || *c.Placeholder != "Pick" || fmt.Sprint(c.Options) != "[a b]" {
			t.Fatalf("unexpected %+v", c)
		}
		if got := f.get(t, "status"); got.Title != nil || *got.Placeholder != "Pick" {
			t.Fatalf("REST reads %+v", got)
		}
	})
	t.Run("OKNullOptionsLeavesThem", func(t *testing.T) {
		var out struct{ UpdateCustomField gqlCF }
		f.gqlOK(t, f.admin, gqlUpdateCF, upd("status", map[string]any{"options": nil}), &out)
		if fmt.Sprint(out.UpdateCustomField.Options) != "[a b]" {
			t.Fatalf("options %v", out.UpdateCustomField.Options)
		}
	})
	before := f.snapshot(t)
	for _, c := range []struct {
		name, field string
		in          map[string]any
		code        string
		words       []string
	}{
		{"ErrTitleTooLong", "status", map[string]any{"title": strings.Repeat("t", 101)}, "BAD_REQUEST", []string{"title", "100"}},
		{"ErrOptionsEmpty", "status", map[string]any{"options": []string{}}, "BAD_REQUEST", []string{"options"}},
		{"ErrOptionsOnText", "notes", map[string]any{"options": []string{"a"}}, "BAD_REQUEST", []string{"options"}},
		{"ErrUnknownField", "nope", map[string]any{"title": "x"}, "NOT_FOUND", []string{"custom field"}},
		{"ErrNameNotAName", "Bad Name", map[string]any{"title": "x"}, "NOT_FOUND", nil},
	} {
		t.Run(c.name, func(t *testing.T) { f.gqlErr(t, f.admin, gqlUpdateCF, upd(c.field, c.in), c.code, c.words...) })
	}
	t.Run("ErrRoles", func(t *testing.T) {
		reader := f.member(t, "reader", testenv.Role(viewer.RoleRead))
		f.gqlErr(t, reader, gqlUpdateCF, upd("status", map[string]any{"title": "x"}), "FORBIDDEN")
		f.gqlErr(t, reader, gqlDeleteCF, upd("status", nil), "FORBIDDEN")
		f.gqlErr(t, f.outsider, gqlUpdateCF, upd("status", map[string]any{"title": "x"}), "NOT_FOUND")
		f.gqlErr(t, f.outsider, gqlDeleteCF, upd("status", nil), "NOT_FOUND")
	})
	t.Run("NothingChanged", func(t *testing.T) { f.wantUnchanged(t, before) })
	t.Run("OKDelete", func(t *testing.T) {
		var out struct{ DeleteCustomField bool }
		f.gqlOK(t, f.admin, gqlDeleteCF, upd("status", nil), &out)
		if !out.DeleteCustomField {
			t.Fatal("deleteCustomField answered false")
		}
		f.gqlErr(t, f.admin, gqlDeleteCF, upd("status", nil), "NOT_FOUND")
		cfWantStatus(t, f.e.Do(f.admin, "GET", f.path("status"), nil), 404)
	})
}

func TestGraphQLCustomFieldsQuery(t *testing.T) {
	f := newCFFixture(t)
	for _, n := range []string{"delta", "alpha", "charlie", "bravo", "echo"} {
		f.create(t, map[string]any{"name": n, "type": "text"})
	}
	vars := func(first int, after *string, name string) map[string]any {
		return map[string]any{"org": f.org, "first": first, "after": after, "name": name}
	}
	t.Run("OKPages", func(t *testing.T) {
		var names []string
		var after *string
		for range 4 {
			var out gqlCFQuery
			f.gqlOK(t, f.admin, gqlOrgCF, vars(2, after, "alpha"), &out)
			c := out.Organization.CustomFields
			if c.TotalCount != 5 || len(c.Edges) > 2 {
				t.Fatalf("unexpected %+v", c)
			}
			for _, e := range c.Edges {
				names = append(names, e.Node.Name)
			}
			if !c.PageInfo.HasNextPage {
				break
			}
			after = c.PageInfo.EndCursor
		}
		if fmt.Sprint(names) != "[alpha bravo charlie delta echo]" {
			t.Fatalf("names %v", names)
		}
	})
	t.Run("OKOneByName", func(t *testing.T) {
		var out gqlCFQuery
		f.gqlOK(t, f.admin, gqlOrgCF, vars(0, nil, "charlie"), &out)
		if c := out.Organization.CustomField; c == nil || c.Name != "charlie" || c.Type != "TEXT" || c.Options == nil || len(c.Options) != 0 {
			t.Fatalf("unexpected %+v", c)
		}
	})
	t.Run("OKReaderPermissions", func(t *testing.T) {
		var out gqlCFQuery
		reader := f.member(t, "reader", testenv.Role(viewer.RoleRead))
		f.gqlOK(t, reader, gqlOrgCF, vars(1, nil, "alpha"), &out)
		if p := out.Organization.CustomField.Permissions; !p.View || p.Edit {
			t.Fatalf("permissions %+v", p)
		}
	})
	t.Run("ErrUnknownName", func(t *testing.T) {
		f.gqlErr(t, f.admin, gqlOrgCF, vars(1, nil, "zulu"), "NOT_FOUND", "custom field")
	})
	t.Run("ErrGuest", func(t *testing.T) {
		guest := f.member(t, "guest", nil)
		f.gqlErr(t, guest, gqlOrgCF, vars(1, nil, "alpha"), "FORBIDDEN", "guests")
	})
	t.Run("ErrFirstOutOfRange", func(t *testing.T) {
		q := `query($org: ID!) { organization(id: $org) { customFields(first: 1001) { totalCount } } }`
		f.gqlErr(t, f.admin, q, map[string]any{"org": f.org}, "BAD_REQUEST", "first")
	})
	t.Run("ErrBadCursor", func(t *testing.T) {
		bad := "garbage"
		f.gqlErr(t, f.admin, gqlOrgCF, vars(1, &bad, "alpha"), "BAD_REQUEST")
	})
}

// TestGraphQLCustomFieldsComplexity: customFields costs first × its children like every connection.
func TestGraphQLCustomFieldsComplexity(t *testing.T) {
	f := newCFFixture(t, func(o *server.Options) { o.Limits.Complexity = 100 })
	q := `query($org: ID!, $first: Int) { organization(id: $org) { customFields(first: $first) { edges { node { id name title } } } } }`
	t.Run("OKSmallPage", func(t *testing.T) {
		var out any
		f.gqlOK(t, f.admin, q, map[string]any{"org": f.org, "first": 5}, &out)
	})
	t.Run("ErrLargePage", func(t *testing.T) {
		f.gqlErr(t, f.admin, q, map[string]any{"org": f.org, "first": 500}, "COMPLEXITY_LIMIT_EXCEEDED")
	})
}
