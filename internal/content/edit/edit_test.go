package edit

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/content/tree"
)

func ptr[T any](v T) *T { return &v }

// env numbers new ids n1, n2, … and reverts to the given tree.
func env(version *tree.Tree) Env {
	n := 0
	return Env{
		Now:   time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC),
		NewID: func() string { n++; return fmt.Sprint("n", n) },
		Version: func(id string) (*tree.Tree, error) {
			if id != "" && id != "base" {
				return nil, fmt.Errorf("no revision %q in the space", id)
			}
			return version, nil
		},
	}
}

// start is a tree: guides (a) / intro (b), api (c).
func start() *tree.Tree {
	return New(
		&tree.Page{ID: "guides", Order: "a", Slug: "guides", Title: "Guides", Type: "document"},
		&tree.Page{ID: "intro", Parent: "guides", Order: "b", Slug: "intro", Title: "Intro", Type: "document"},
		&tree.Page{ID: "api", Order: "c", Slug: "api", Title: "API", Type: "document"},
	)
}

// New builds a tree of pages.
func New(pages ...*tree.Page) *tree.Tree {
	var entries []tree.Entry
	for _, p := range pages {
		entries = append(entries, tree.Entry{Page: p})
	}
	return tree.New(entries)
}

func paths(t *tree.Tree) []string {
	var out []string
	t.Walk(func(p *tree.Page, path string) { out = append(out, path) })
	return out
}

func apply(t *testing.T, changes ...Change) *Outcome {
	t.Helper()
	base := start()
	o, err := Apply(base, changes, env(base))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestInsertPages(t *testing.T) {
	o := apply(t,
		Change{Op: OpInsertPage, Into: "guides", At: ptr(0), Ref: "setup",
			Fields: Fields{Markdown: ptr("# Set up\n\nSee [the API](../api.md) and [next](./next.md) and ![d](./diagram)\n")}},
		Change{Op: OpInsertPage, Ref: "next", Fields: Fields{Title: ptr("Next steps")}},
		Change{Op: OpInsertFiles, Files: []Upload{{Ref: "diagram", Name: "d.png", ContentType: "image/png", Data: []byte("PNG")}}},
	)
	want := []string{"guides", "guides/set-up", "guides/intro", "api", "next-steps"}
	if got := paths(o.Tree); !slices.Equal(got, want) {
		t.Errorf("tree = %v, want %v", got, want)
	}
	setup := o.Tree.Page("n1")
	body := o.Bodies[setup.Body]
	for _, link := range []string{"(/pages/api)", "(/pages/n2)", "(/files/n3)"} {
		if !strings.Contains(body, link) {
			t.Errorf("body %q lacks the resolved link %s", body, link)
		}
	}
	if strings.Contains(body, "# Set up") || setup.Title != "Set up" {
		t.Errorf("the leading heading should become the title: title %q, body %q", setup.Title, body)
	}
	if len(o.Blobs) != 1 || string(o.Blobs[0].Data) != "PNG" || o.Tree.File("n3").Size != 3 {
		t.Errorf("file not inserted: %+v", o.Blobs)
	}
	kinds := []string{}
	for _, a := range o.Pages {
		kinds = append(kinds, a.Kind+":"+a.ID+":"+a.Ref)
	}
	if !slices.Equal(kinds, []string{"created_page:n1:setup", "created_page:n2:next"}) {
		t.Errorf("affected pages = %v", kinds)
	}
}

// TestTitleAndHeading: a change's title names the page whatever heading its Markdown starts with
// (the heading stays in the body unless it repeats the title); without a title the heading names
// it; front matter wins over both (decision 290).
// TestInsertGroup: a group is a top-level page without a document; pages go under it as under
// any page.
func TestInsertGroup(t *testing.T) {
	o := apply(t,
		Change{Op: OpInsertPage, Ref: "g", Type: tree.TypeGroup, At: ptr(1), Fields: Fields{Title: ptr("Reference"), Emoji: ptr("📚")}},
		Change{Op: OpInsertPage, Into: "g", Fields: Fields{Title: ptr("Endpoints"), Markdown: ptr("GET /\n")}},
		Change{Op: OpUpdatePage, Page: "api", IntoSet: true, Into: "g"},
	)
	if got, want := paths(o.Tree), []string{"guides", "guides/intro", "reference", "reference/endpoints", "reference/api"}; !slices.Equal(got, want) {
		t.Errorf("tree = %v, want %v", got, want)
	}
	if g := o.Tree.Page("n1"); g.Type != tree.TypeGroup || g.Body != "" || g.Emoji != "📚" || o.Tree.Page("n2").Type != tree.TypeDocument {
		t.Errorf("group %+v, page %+v", g, o.Tree.Page("n2"))
	}
}

func TestTitleAndHeading(t *testing.T) {
	o := apply(t,
		Change{Op: OpInsertPage, Fields: Fields{Title: ptr("Install"), Markdown: ptr("# Installation guide\n\nRun it.\n")}},
		Change{Op: OpInsertPage, Fields: Fields{Title: ptr("Usage"), Markdown: ptr("# Usage\n\nUse it.\n")}},
		Change{Op: OpInsertPage, Fields: Fields{Markdown: ptr("# FAQ\n\nAsk.\n")}},
		Change{Op: OpInsertPage, Fields: Fields{Title: ptr("Field"), Markdown: ptr("---\ntitle: Front matter\n---\nText\n")}},
		Change{Op: OpUpdatePage, Page: "api", Fields: Fields{Title: ptr("API"), Markdown: ptr("# Endpoints\n\nGET /\n")}},
	)
	want := map[string][2]string{ // id → title, body
		"n1":  {"Install", "# Installation guide\n\nRun it.\n"},
		"n2":  {"Usage", "Use it.\n"},
		"n3":  {"FAQ", "Ask.\n"},
		"n4":  {"Front matter", "Text\n"},
		"api": {"API", "# Endpoints\n\nGET /\n"},
	}
	for id, w := range want {
		p := o.Tree.Page(id)
		if got := [2]string{p.Title, o.Bodies[p.Body]}; got != w {
			t.Errorf("page %s: title, body = %q, want %q", id, got, w)
		}
	}
	if got := o.Tree.Page("n1").Slug; got != "install" {
		t.Errorf("slug %q: it follows the title given", got)
	}
}

func TestUpdateMoveDelete(t *testing.T) {
	o := apply(t,
		Change{Op: OpUpdatePage, Page: "api", IntoSet: true, Into: "guides", At: ptr(0), Fields: Fields{Title: ptr("  Reference ")}},
		Change{Op: OpUpdatePage, Page: "intro", Fields: Fields{Slug: ptr("introduction")}},
	)
	if got, want := paths(o.Tree), []string{"guides", "guides/api", "guides/introduction"}; !slices.Equal(got, want) {
		t.Errorf("tree = %v, want %v", got, want)
	}
	if title := o.Tree.Page("api").Title; title != "Reference" {
		t.Errorf("title = %q (a rename keeps the slug and trims the title)", title)
	}
	o = apply(t, Change{Op: OpDeletePage, Page: "guides"})
	if got := paths(o.Tree); !slices.Equal(got, []string{"api"}) {
		t.Errorf("after deleting guides: %v", got)
	}
	if !slices.Contains(o.Changed, "intro") {
		t.Error("the deleted subpage is not among the changed entries")
	}
}

func TestRevert(t *testing.T) {
	base := start()
	edited, err := Apply(base, []Change{
		{Op: OpUpdatePage, Page: "intro", Fields: Fields{Title: ptr("Changed")}},
		{Op: OpDeletePage, Page: "api"},
		{Op: OpInsertPage, Fields: Fields{Title: ptr("New")}},
	}, env(base))
	if err != nil {
		t.Fatal(err)
	}
	o, err := Apply(edited.Tree, []Change{
		{Op: OpRevertPage, Page: "intro"}, {Op: OpRevertPage, Page: "api"}, {Op: OpRevertPage, Page: "n1"},
	}, env(base))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(o.Tree), paths(base); !slices.Equal(got, want) || o.Tree.Page("intro").Title != "Intro" {
		t.Errorf("after reverting everything: %v, want %v", got, want)
	}
}

func TestInvalidChanges(t *testing.T) {
	ok := Change{Op: OpInsertPage, Fields: Fields{Title: ptr("Fine")}}
	cases := []struct {
		name    string
		changes []Change
		index   int
		message string
	}{
		{"Empty", nil, -1, "1 to 50 changes"},
		{"TooMany", slices.Repeat([]Change{ok}, 51), -1, "1 to 50 changes"},
		{"UnknownOp", []Change{ok, {Op: "rename_page"}}, 1, `operation: "rename_page"`},
		{"UnknownPage", []Change{{Op: OpUpdatePage, Page: "nope"}}, 0, `no page "nope"`},
		{"UnknownParent", []Change{{Op: OpInsertPage, Into: "nope"}}, 0, "into:"},
		{"UnderItself", []Change{{Op: OpUpdatePage, Page: "guides", IntoSet: true, Into: "intro"}}, 0, "under itself"},
		{"AtPastEnd", []Change{{Op: OpInsertPage, Into: "guides", At: ptr(2)}}, 0, "at: 2 is outside 0..1"},
		{"SlugTaken", []Change{ok, {Op: OpUpdatePage, Page: "api", Fields: Fields{Slug: ptr("guides")}}}, 1, "slug:"},
		{"SlugChars", []Change{{Op: OpUpdatePage, Page: "api", Fields: Fields{Slug: ptr("a/b")}}}, 0, "slug:"},
		{"EmptyTitle", []Change{{Op: OpInsertPage, Fields: Fields{Title: ptr("  ")}}}, 0, "title: must be 1 to 256"},
		{"RefTwice", []Change{{Op: OpInsertPage, Ref: "x"}, {Op: OpInsertPage, Ref: "x"}}, 1, `"x" is used twice`},
		{"RefIsAPath", []Change{{Op: OpInsertPage, Ref: "api"}}, 0, "already the path"},
		{"FileNoType", []Change{{Op: OpInsertFiles, Files: []Upload{{Name: "a"}}}}, 0, "files[0].contentType"},
		{"FileTooBig", []Change{{Op: OpInsertFiles, Files: []Upload{{Name: "a", ContentType: "x/y", Data: make([]byte, MaxFileSize+1)}}}}, 0, "files[0].base64"},
		{"NoFiles", []Change{{Op: OpInsertFiles}}, 0, "files: holds 1 to 20"},
		{"RevertUnknownRevision", []Change{{Op: OpRevertPage, Page: "api", Version: "r9"}}, 0, `no revision "r9"`},
		{"DeleteTwice", []Change{{Op: OpDeletePage, Page: "api"}, {Op: OpDeletePage, Page: "api"}}, 1, `no page "api"`},
		{"UnknownType", []Change{{Op: OpInsertPage, Type: "link"}}, 0, `type: "link" is not one of`},
		{"TypeOnUpdate", []Change{{Op: OpUpdatePage, Page: "api", Type: tree.TypeGroup}}, 0, "type: only insert_page"},
		{"GroupNested", []Change{{Op: OpInsertPage, Type: tree.TypeGroup, Into: "guides"}}, 0, "into: a group is a top-level page"},
		{"GroupDocument", []Change{{Op: OpInsertPage, Type: tree.TypeGroup, Fields: Fields{Markdown: ptr("# G\n\nText.\n")}}}, 0, "document: a group has none"},
		{"GroupDescription", []Change{{Op: OpInsertPage, Type: tree.TypeGroup, Fields: Fields{Title: ptr("G"), Description: ptr("d")}}}, 0, "description: a group has none"},
		{"GroupMovedUnder", []Change{{Op: OpInsertPage, Ref: "g", Type: tree.TypeGroup},
			{Op: OpUpdatePage, Page: "g", IntoSet: true, Into: "api"}}, 1, "into: a group is a top-level page"},
		{"GroupBodyLater", []Change{{Op: OpInsertPage, Ref: "g", Type: tree.TypeGroup},
			{Op: OpUpdatePage, Page: "g", Fields: Fields{Body: ptr("Text.\n")}}}, 1, "document: a group has none"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := start()
			_, err := Apply(base, c.changes, env(base))
			var e *Error
			if !errors.As(err, &e) || e.Index != c.index || !strings.Contains(e.Message, c.message) {
				t.Fatalf("error = %v, want changes[%d] with %q", err, c.index, c.message)
			}
			if got := paths(base); !slices.Equal(got, paths(start())) {
				t.Errorf("a rejected batch changed the base tree: %v", got)
			}
		})
	}
}

func TestOrderRenumbersWhenKeysLeaveNoRoom(t *testing.T) {
	base := New(&tree.Page{ID: "a", Order: "i", Slug: "a", Title: "A"}, &tree.Page{ID: "b", Order: "i", Slug: "b", Title: "B"})
	o, err := Apply(base, []Change{{Op: OpInsertPage, At: ptr(1), Fields: Fields{Title: ptr("Middle")}}}, env(base))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(o.Tree), []string{"a", "middle", "b"}; !slices.Equal(got, want) {
		t.Errorf("tree = %v, want %v", got, want)
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{"Getting Started!": "getting-started", "Ünïcode ページ": "ünïcode-ページ",
		"***": "page", "  a  b  ": "a-b"} {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCondition(t *testing.T) {
	o := apply(t,
		Change{Op: OpUpdatePage, Page: "api", Fields: Fields{Condition: ptr("visitor.claims.plan == \"pro\"")}},
		Change{Op: OpInsertPage, Fields: Fields{Title: ptr("Beta"), Condition: ptr("visitor.claims.unsigned.beta")}},
	)
	want := map[string]string{"api": `visitor.claims.plan == "pro"`, "n1": "visitor.claims.unsigned.beta", "intro": ""}
	for id, condition := range want {
		if got := o.Tree.Page(id).Condition; got != condition {
			t.Errorf("page %s: condition %q, want %q", id, got, condition)
		}
	}
	removed, err := Apply(o.Tree, []Change{{Op: OpUpdatePage, Page: "api", Fields: Fields{Condition: ptr("")}}}, env(o.Tree))
	if err != nil || removed.Tree.Page("api").Condition != "" {
		t.Errorf("an empty condition should remove it: %v, %q", err, removed.Tree.Page("api").Condition)
	}
	t.Run("ErrSyntax", func(t *testing.T) {
		base := start()
		_, err := Apply(base, []Change{{Op: OpUpdatePage, Page: "api", Fields: Fields{Condition: ptr("visitor.claims.a &&")}}}, env(base))
		if err == nil || !strings.HasPrefix(err.Error(), "changes[0].condition: column 19: syntax error") {
			t.Errorf("error = %v", err)
		}
	})
}
