package scim

import (
	"encoding/json"
	"reflect"
	"testing"

	filter "github.com/scim2/filter-parser/v2"
)

// op is an operation of a test: its path parsed as elimity-com/scim parses it.
func op(t testing.TB, name, path, value string) Operation {
	o := Operation{Op: name}
	if path != "" {
		p, err := filter.ParsePath([]byte(path))
		if err != nil {
			t.Fatalf("path %q: %v", path, err)
		}
		o.Path = &p
	}
	if value != "" {
		if err := json.Unmarshal([]byte(value), &o.Value); err != nil {
			t.Fatalf("value %s: %v", value, err)
		}
	}
	return o
}

func decode(t testing.TB, s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestApply holds Apply to the examples of RFC 7644 §3.5.2 and to what Okta and Entra ID send.
func TestApply(t *testing.T) {
	group := `{"displayName":"Tour Guides","members":[{"value":"2819c223"},{"value":"902c246b"}]}`
	user := `{"userName":"bjensen","emails":[{"type":"work","value":"bjensen@example.com"},{"type":"home","value":"babs@example.com"}],"name":{"givenName":"Barbara"}}`
	for _, c := range []struct {
		name, resource string
		ops            []Operation
		want           string
	}{
		{"AddMembers(3.5.2.1)", group, []Operation{op(t, "add", "members", `[{"display":"Babs","value":"2819c223"},{"value":"3a8d1e"}]`)},
			`{"displayName":"Tour Guides","members":[{"value":"2819c223"},{"value":"902c246b"},{"value":"3a8d1e"}]}`},
		{"AddWithoutPath(3.5.2.1)", user, []Operation{op(t, "add", "", `{"nickName":"Babs","name":{"familyName":"Jensen"}}`)},
			`{"userName":"bjensen","nickName":"Babs","emails":[{"type":"work","value":"bjensen@example.com"},{"type":"home","value":"babs@example.com"}],"name":{"givenName":"Barbara","familyName":"Jensen"}}`},
		{"RemoveOneMember(3.5.2.2)", group, []Operation{op(t, "remove", `members[value eq "2819c223"]`, "")},
			`{"displayName":"Tour Guides","members":[{"value":"902c246b"}]}`},
		{"RemoveAllMembers(3.5.2.2)", group, []Operation{op(t, "remove", "members", "")},
			`{"displayName":"Tour Guides"}`},
		{"RemoveMembersByValue(Entra ID)", group, []Operation{op(t, "remove", "members", `[{"value":"902c246b"}]`)},
			`{"displayName":"Tour Guides","members":[{"value":"2819c223"}]}`},
		{"ReplaceMembers(3.5.2.3)", group, []Operation{op(t, "replace", "members", `[{"value":"2819c223"}]`)},
			`{"displayName":"Tour Guides","members":[{"value":"2819c223"}]}`},
		{"ReplaceSubAttributeOfFiltered(3.5.2.3)", user, []Operation{op(t, "replace", `emails[type eq "work"].value`, `"bj@example.com"`)},
			`{"userName":"bjensen","emails":[{"type":"work","value":"bj@example.com"},{"type":"home","value":"babs@example.com"}],"name":{"givenName":"Barbara"}}`},
		{"ReplaceFilteredNoneMatches(Entra ID)", `{"userName":"u"}`, []Operation{op(t, "replace", `emails[type eq "work"].value`, `"u@example.com"`)},
			`{"userName":"u","emails":[{"type":"work","value":"u@example.com"}]}`},
		{"ReplaceSubAttribute", user, []Operation{op(t, "replace", "name.familyName", `"Jensen"`)},
			`{"userName":"bjensen","emails":[{"type":"work","value":"bjensen@example.com"},{"type":"home","value":"babs@example.com"}],"name":{"givenName":"Barbara","familyName":"Jensen"}}`},
		{"ReplaceWithoutPath(Okta)", `{"userName":"u","active":true}`, []Operation{op(t, "replace", "", `{"active":false}`)},
			`{"userName":"u","active":false}`},
		{"AttributeNamesIgnoreCase", `{"userName":"u","Active":true}`, []Operation{op(t, "replace", "active", `false`)},
			`{"userName":"u","Active":false}`},
		{"RemoveSubAttributeOfFiltered", user, []Operation{op(t, "remove", `emails[type eq "home"].value`, "")},
			`{"userName":"bjensen","emails":[{"type":"work","value":"bjensen@example.com"},{"type":"home"}],"name":{"givenName":"Barbara"}}`},
		{"RemoveMatchingNothing", group, []Operation{op(t, "remove", `members[value eq "nobody"]`, "")}, group},
		{"LogicalFilter", user, []Operation{op(t, "remove", `emails[type eq "work" or value ew "@example.com"]`, "")},
			`{"userName":"bjensen","emails":[],"name":{"givenName":"Barbara"}}`},
		{"ExtensionAttribute", `{"userName":"u"}`, []Operation{op(t, "add", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", `"Docs"`)},
			`{"userName":"u","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"department":"Docs"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := decode(t, c.resource)
			if err := Apply(got, c.ops); err != nil {
				t.Fatal(err)
			}
			if want := decode(t, c.want); !reflect.DeepEqual(normalize(t, got), want) {
				t.Fatalf("got %v\nwant %v", got, want)
			}
		})
	}
	for _, c := range []struct {
		name string
		ops  []Operation
	}{
		{"RemoveWithoutPath", []Operation{op(t, "remove", "", "")}},
		{"AddWithoutPathNotAnObject", []Operation{op(t, "add", "", `"x"`)}},
		{"ReplaceFilteredByOtherThanEquality", []Operation{op(t, "replace", `emails[type co "w"].value`, `"x"`)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := Apply(decode(t, `{"userName":"u"}`), c.ops); err == nil {
				t.Fatal("applied")
			}
		})
	}
}

// normalize is v through JSON, as the wanted values are.
func normalize(t testing.TB, v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, string(b))
}

// FuzzApply applies any operation whose path parses to a resource: it fails or applies, never
// panics.
func FuzzApply(f *testing.F) {
	for _, seed := range [][3]string{
		{"add", "members", `[{"value":"a"}]`}, {"remove", `members[value eq "a"]`, ""},
		{"replace", `emails[type eq "work"].value`, `"x"`}, {"replace", "", `{"active":false}`},
		{"add", "name.givenName", `"B"`}, {"remove", `emails[not (type pr)]`, ""},
		{"replace", `emails[type eq "work" and value sw "a"]`, `{"value":"y"}`},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, name, path, value string) {
		o := Operation{Op: name}
		if path != "" {
			p, err := filter.ParsePath([]byte(path))
			if err != nil {
				return
			}
			o.Path = &p
		}
		if value != "" && json.Unmarshal([]byte(value), &o.Value) != nil {
			return
		}
		resource := decode(t, `{"userName":"u","emails":[{"type":"work","value":"a@b"},"odd"],"name":{"givenName":"A"},"members":[{"value":"a"}]}`)
		_ = Apply(resource, []Operation{o})
	})
}
