package rule

import (
	"slices"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
)

// tree: org ─ coll "docs" (inherit) ─ coll "team" (read) ─ space "handbook" (inherit, private)
//
//	├─ space "public" (no default, public)
//	├─ space "nested" in "docs" (in-collection, no default)
//	├─ space "locked" (no default, private)
//	├─ space "shared" (no default, share-link with key "k")
//	└─ space "unshared" (no default, private; a stale key "old" must open nothing)
func contentTree(orgRole viewer.Role, member bool, grants map[string]viewer.Role) *Content {
	return &Content{
		Member: member, OrgRole: orgRole, Grants: grants,
		Nodes: map[string]ContentNode{
			"docs":     {DefaultLevel: Inherit},
			"team":     {Parent: "docs", DefaultLevel: "read"},
			"handbook": {Parent: "team", DefaultLevel: Inherit, Visibility: "private", Space: true},
			"public":   {Visibility: "public", Space: true},
			"nested":   {Parent: "docs", Visibility: "in-collection", Space: true},
			"locked":   {Visibility: "private", Space: true},
			"shared":   {Visibility: "share-link", ShareKey: "k", Space: true},
			"unshared": {Visibility: "private", ShareKey: "old", Space: true},
		},
	}
}

func TestContentRole(t *testing.T) {
	const none = viewer.Role("")
	edit, read, admin, comment := viewer.RoleEdit, viewer.RoleRead, viewer.RoleAdmin, viewer.RoleComment
	tests := []struct {
		name    string
		content *Content
		want    map[string]viewer.Role
	}{
		{"AdminSeesAll", contentTree(admin, true, nil),
			map[string]viewer.Role{"docs": admin, "team": admin, "handbook": admin, "public": admin, "nested": admin, "locked": admin}},
		{"EditorInheritsOrgRoleOrTakesTheSetLevel", contentTree(edit, true, nil),
			map[string]viewer.Role{"docs": edit, "team": read, "handbook": read, "public": read, "nested": read, "locked": none}},
		{"GuestGetsOnlyGrantsAndPublic", contentTree(none, true, nil),
			map[string]viewer.Role{"docs": none, "team": none, "handbook": none, "public": read, "nested": none, "locked": none}},
		{"GrantOnCollectionReachesSpacesBelow", contentTree(none, true, map[string]viewer.Role{"docs": comment}),
			map[string]viewer.Role{"docs": comment, "team": comment, "handbook": comment, "nested": comment, "locked": none}},
		{"GrantRaisesAboveDefault", contentTree(read, true, map[string]viewer.Role{"locked": edit}),
			map[string]viewer.Role{"locked": edit, "team": read}},
		{"DefaultRaisesAboveGrant", contentTree(edit, true, map[string]viewer.Role{"docs": read}),
			map[string]viewer.Role{"docs": edit}},
		{"OutsiderReadsOnlyPublic", contentTree(none, false, nil),
			map[string]viewer.Role{"docs": none, "public": read, "nested": none, "locked": none}},
		{"UnknownObject", contentTree(admin, true, nil), map[string]viewer.Role{"nope": none}},
		{"KeyHolderReadsTheSharedSpaceOnly", presenting(contentTree(none, false, nil), "k"),
			map[string]viewer.Role{"shared": read, "locked": none, "docs": none, "unshared": none}},
		{"KeyKeepsAHigherRole", presenting(contentTree(none, true, map[string]viewer.Role{"shared": edit}), "k"),
			map[string]viewer.Role{"shared": edit}},
		{"NoKeyNoRead", contentTree(read, true, nil), map[string]viewer.Role{"shared": none}},
		{"WrongKeyNoRead", presenting(contentTree(none, false, nil), "K", "x"), map[string]viewer.Role{"shared": none}},
		{"StaleKeyNoRead", presenting(contentTree(none, false, nil), "old"), map[string]viewer.Role{"unshared": none}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for id, want := range tt.want {
				if got := ContentRole(tt.content, id); got != want {
					t.Errorf("ContentRole(%s) = %q, want %q", id, got, want)
				}
			}
		})
	}
}

func presenting(c *Content, keys ...string) *Content {
	c.ShareKeys = keys
	return c
}

func TestContentRoleSurvivesACycle(t *testing.T) {
	c := &Content{Member: true, OrgRole: viewer.RoleRead, Nodes: map[string]ContentNode{
		"a": {Parent: "b", DefaultLevel: Inherit}, "b": {Parent: "a", DefaultLevel: Inherit},
	}}
	if got := ContentRole(c, "a"); got != "" {
		t.Fatalf("a cycle gives %q, want no role", got)
	}
}

func TestAncestry(t *testing.T) {
	c := contentTree(viewer.RoleRead, true, nil)
	tests := []struct {
		id   string
		want []string
	}{
		{"handbook", []string{"handbook", "team", "docs"}},
		{"public", []string{"public"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := c.Ancestry(tt.id); !slices.Equal(got, tt.want) {
			t.Errorf("Ancestry(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
	cycle := &Content{Nodes: map[string]ContentNode{"a": {Parent: "b"}, "b": {Parent: "a"}}}
	if got := len(cycle.Ancestry("a")); got != maxDepth {
		t.Errorf("a cycle walks %d steps, want the bound %d", got, maxDepth)
	}
}
