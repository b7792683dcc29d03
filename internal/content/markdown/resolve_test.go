package markdown

import (
	"path"
	"strings"
	"testing"
)

// fakeTree is a page tree given as slug path → page id; its first path is the root page.
type fakeTree struct{ paths []string }

var testTree = fakeTree{paths: []string{
	"home",
	"guides",
	"guides/getting-started",
	"guides/intro",
	"guides/setup",
	"guides/setup/linux",
	"api",
	"café",
}}

// idOf is the test id of the page at a slug path: "P-" and the path, "/" spelled ":" (not base62
// like real ids where a slug is not ASCII: Resolve percent-encodes it).
func idOf(p string) string { return "P-" + strings.ReplaceAll(p, "/", ":") }

func (f fakeTree) PageByID(id string) bool {
	_, ok := f.PagePathOf(id)
	return ok
}

func (f fakeTree) PageBySlugPath(p string) (string, bool) {
	for _, q := range f.paths {
		if q == p {
			return idOf(q), true
		}
	}
	return "", false
}

func (f fakeTree) PagePathOf(id string) (string, bool) {
	for _, q := range f.paths {
		if idOf(q) == id {
			return q, true
		}
	}
	return "", false
}

func (f fakeTree) PagePath(id string) (string, bool, bool) {
	p, ok := f.PagePathOf(id)
	hasChildren := false
	for _, q := range f.paths {
		hasChildren = hasChildren || (ok && path.Dir(q) == p)
	}
	return p, hasChildren, ok
}

func (f fakeTree) RootPage() (string, bool) { return idOf(f.paths[0]), true }

func testResolver(from string) Resolver {
	return Resolver{
		Tree:     testTree,
		PageRefs: map[string]string{"new-page": "P-new"},
		FileRefs: map[string]string{"diagram.png": "F-diagram"},
		FileByID: func(id string) bool { return id == "F-1" },
		From:     from,
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name, from, md, want string
	}{
		// /pages/ links
		{"PageID", "", "[a](/pages/P-api)", "[a](/pages/P-api)"},
		{"PageIDAnchor", "", "[a](/pages/P-api#auth)", "[a](/pages/P-api#auth)"},
		{"Slug", "", "[a](/pages/api)", "[a](/pages/P-api)"},
		{"SlugAnchor", "", "[a](/pages/api#auth)", "[a](/pages/P-api#auth)"},
		{"AnchorParens", "", `[b](/pages/api#\(y\)) [c](<./api.md#(z>)`, `[b](/pages/P-api#\(y\)) [c](</pages/P-api#\(z>)`},
		{"ParentSlug", "", "[a](/pages/guides/getting-started)", "[a](/pages/P-guides:getting-started)"},
		{"SlugMD", "", "[a](/pages/api.md)", "[a](/pages/P-api)"},
		{"NestedSlugMD", "", "[a](/pages/guides/intro.md)", "[a](/pages/P-guides:intro)"},
		{"FolderREADME", "", "[a](/pages/guides/README.md)", "[a](/pages/P-guides)"},
		{"RootREADME", "", "[a](/pages/README.md)", "[a](/pages/P-home)"},
		{"PageNotFound", "", "[a *b*](/pages/nope) c", "a *b* c"},
		// relative links from a page without children: its folder is its parent's
		{"Sibling", "P-guides:intro", "[a](./getting-started.md)", "[a](/pages/P-guides:getting-started)"},
		{"SiblingBare", "P-guides:intro", "[a](getting-started.md)", "[a](/pages/P-guides:getting-started)"},
		{"SiblingFolder", "P-guides:intro", "[a](./setup)", "[a](/pages/P-guides:setup)"},
		{"SiblingFolderSlash", "P-guides:intro", "[a](./setup/)", "[a](/pages/P-guides:setup)"},
		{"SiblingsChild", "P-guides:intro", "[a](./setup/linux.md#x)", "[a](/pages/P-guides:setup:linux#x)"},
		{"ParentFromLeaf", "P-guides:intro", "[a](./README.md)", "[a](/pages/P-guides)"},
		{"RootFromLeaf", "P-guides:intro", "[a](../README.md)", "[a](/pages/P-home)"},
		{"Uncle", "P-guides:intro", "[a](../api.md)", "[a](/pages/P-api)"},
		{"AboveTheTop", "P-guides:intro", "[a](../../api.md)", "a"},
		// relative links from a page with children: its folder is its own
		{"Child", "P-guides:setup", "[a](./linux.md)", "[a](/pages/P-guides:setup:linux)"},
		{"ParentFromFolder", "P-guides:setup", "[a](../README.md)", "[a](/pages/P-guides)"},
		{"ParentsChild", "P-guides:setup", "[a](../intro.md)", "[a](/pages/P-guides:intro)"},
		{"NewPageAtTop", "", "[a](./api.md)", "[a](/pages/P-api)"},
		{"UnknownFrom", "P-nope", "[a](api.md)", "[a](/pages/P-api)"},
		{"RelativeNotFound", "P-api", "See [the **guide**](./missing.md).", "See the **guide**."},
		// batch refs and files
		{"PageRefMD", "", "[a](./new-page.md)", "[a](/pages/P-new)"},
		{"PageRef", "", "[a](./new-page#top)", "[a](/pages/P-new#top)"},
		{"FileRefImage", "", "![d](./diagram.png)", "![d](/files/F-diagram)"},
		{"FileRefLink", "", "[d](./diagram.png)", "[d](/files/F-diagram)"},
		{"FileID", "", "![d](/files/F-1)", "![d](/files/F-1)"},
		{"FileNotFound", "", "![the diagram](/files/F-9) x", "the diagram x"},
		{"ImageNotFound", "", "![alt](./missing.png)", "alt"},
		// kept as written
		{"External", "", "[a](https://e.com/x.md) [b](mailto:a@b.co) [c](//cdn/x) [d](#top) [e](/other/x.md) []()",
			"[a](https://e.com/x.md) [b](mailto:a@b.co) [c](//cdn/x) [d](#top) [e](/other/x.md) []()"},
		{"Autolink", "", "<https://e.com> <a@b.co>", "<https://e.com> <a@b.co>"},
		{"Code", "", "`[a](./missing.md)`\n\n```\n[b](/pages/api)\n```\n", "`[a](./missing.md)`\n\n```\n[b](/pages/api)\n```\n"},
		// syntax
		{"TitleAndAngle", "", `[a](./api.md "T") [b](<./api.md>)`, `[a](/pages/P-api "T") [b](</pages/P-api>)`},
		{"NestedBrackets", "", "[a [b] c](./api.md)", "[a [b] c](/pages/P-api)"},
		{"ImageInMissingLink", "", "[![d](./diagram.png)](./missing.md)", "![d](/files/F-diagram)"},
		{"MissingImageInLink", "", "[![d](./missing.png)](./api.md)", "[d](/pages/P-api)"},
		{"Unicode", "", "☕ [crème](./caf%C3%A9.md) [brûlée](/pages/café) ✓", "☕ [crème](/pages/P-caf%C3%A9) [brûlée](/pages/P-caf%C3%A9) ✓"},
		{"Escapes", "", `[a](./api\.md) [b](./ap&#105;.md)`, "[a](/pages/P-api) [b](/pages/P-api)"},
		{"References", "", "[a][r] and [r].\n\n[r]: ./api.md \"T\"\n", "[a][r] and [r].\n\n[r]: /pages/P-api \"T\"\n"},
		{"ReferenceNotFound", "", "[a *b*][r] and ![r].\n\n[r]: ./missing.md\n", "a *b* and r.\n\n[r]: ./missing.md\n"},
		{"Several", "P-guides:intro", "1 [a](./README.md) 2 [b](./nope.md) 3 ![c](./diagram.png) 4",
			"1 [a](/pages/P-guides) 2 b 3 ![c](/files/F-diagram) 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testResolver(tt.from).Resolve(tt.md); got != tt.want {
				t.Errorf("Resolve(%q) from %q\n got %q\nwant %q", tt.md, tt.from, got, tt.want)
			}
		})
	}
}

func TestResolveNilFileByID(t *testing.T) {
	r := Resolver{Tree: testTree}
	if got := r.Resolve("![a](/files/F-1)"); got != "a" {
		t.Errorf("got %q, want the alt text", got)
	}
}

// TestResolveKeepsLinkSyntax: what Resolve writes stays one destination, whatever ids the tree
// answers and however the anchor was balanced by the path it replaces.
func TestResolveKeepsLinkSyntax(t *testing.T) {
	r := Resolver{Tree: everythingTree{}, From: "x"}
	for md, want := range map[string]string{
		"[a]((b#c))":  `[a](/pages/id-a%2F%28b#c\))`,
		"[a](&#10;b)": "[a](/pages/id-a%2F%0Ab)",
	} {
		if got := r.Resolve(md); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", md, got, want)
		}
	}
}

func TestRenameIDs(t *testing.T) {
	ids := map[string]string{"p1": "n1", "f1": "m1"}
	in := "See [a](/pages/p1#top), ![img](/files/f1), [b](/pages/p2), `[c](/pages/p1)` and [d][ref].\n\n[ref]: /pages/p1\n"
	want := "See [a](/pages/n1#top), ![img](/files/m1), [b](/pages/p2), `[c](/pages/p1)` and [d][ref].\n\n[ref]: /pages/n1\n"
	if got := RenameIDs(in, ids); got != want {
		t.Errorf("RenameIDs:\n got %q\nwant %q", got, want)
	}
}

func TestEscapeLinkText(t *testing.T) {
	title := "Guide [beta] *new* `x` a_b <c> \\"
	links := Links("[" + EscapeLinkText(title) + "](/x)")
	if len(links) != 1 || links[0].Text != title || links[0].Dest != "/x" {
		t.Fatalf("links %+v", links)
	}
}
