package tree

import (
	"slices"
	"strings"
	"testing"
)

// edit returns a clone of t with fn applied to a copy of page id (nil fn deletes the page).
func edit(t *Tree, id string, fn func(p *Page)) *Tree {
	c := t.Clone()
	if fn == nil {
		c.DeletePage(id)
		return c
	}
	p := *c.Page(id)
	fn(&p)
	c.SetPage(&p)
	return c
}

func add(t *Tree, p *Page) *Tree {
	c := t.Clone()
	c.SetPage(p)
	return c
}

func changedKeys(trees ...*Tree) []string {
	set := map[string]bool{}
	base := trees[0]
	for _, side := range trees[1:] {
		for _, e := range append(side.Entries(), base.Entries()...) {
			k := e.Key()
			a, okA := base.Entry(k)
			b, okB := side.Entry(k)
			if !sameEntry(a, okA, b, okB) {
				set[k] = true
			}
		}
	}
	return slices.Sorted(func(yield func(string) bool) {
		for k := range set {
			if !yield(k) {
				return
			}
		}
	})
}

// joinBodies is a Bodies function that "merges" by joining hashes, conflicting when told to.
func joinBodies(conflict bool) func(b, o, t string) (string, bool, error) {
	return func(b, o, t string) (string, bool, error) { return o + "+" + t, conflict, nil }
}

func runMerge(t *testing.T, base, ours, theirs *Tree, bodies func(b, o, t string) (string, bool, error)) Result {
	t.Helper()
	r, err := Merge{Base: base, Ours: ours, Theirs: theirs, Changed: changedKeys(base, ours, theirs), Bodies: bodies}.Run()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func reasons(r Result) string {
	var out []string
	for _, c := range r.Conflicts {
		out = append(out, c.String())
	}
	return strings.Join(out, "; ")
}

func TestMerge(t *testing.T) {
	base := guide()
	retitle := func(s string) func(*Page) { return func(p *Page) { p.Title = s } }
	cases := []struct {
		name         string
		ours, theirs *Tree
		bodies       func(b, o, t string) (string, bool, error)
		check        func(t *testing.T, r Result)
		conflict     string // substring of the conflicts; "" for a clean merge
	}{
		{name: "TheirsOnly", ours: base, theirs: edit(base, "start", retitle("Begin")),
			check: func(t *testing.T, r Result) { want(t, r.Tree.Page("start").Title, "Begin") }},
		{name: "DifferentFields", ours: edit(base, "start", func(p *Page) { p.Emoji = "🚀" }),
			theirs: edit(base, "start", retitle("Begin")),
			check: func(t *testing.T, r Result) {
				want(t, r.Tree.Page("start").Title, "Begin")
				want(t, r.Tree.Page("start").Emoji, "🚀")
			}},
		{name: "SameTitleClash", ours: edit(base, "start", retitle("Ours")), theirs: edit(base, "start", retitle("Theirs")),
			conflict: "both sides changed the title",
			check:    func(t *testing.T, r Result) { want(t, r.Tree.Page("start").Title, "Ours") }},
		{name: "BodiesMergedCleanly", ours: edit(base, "start", func(p *Page) { p.Body = "o" }),
			theirs: edit(base, "start", func(p *Page) { p.Body = "t" }), bodies: joinBodies(false),
			check: func(t *testing.T, r Result) { want(t, r.Tree.Page("start").Body, "o+t") }},
		{name: "BodiesClash", ours: edit(base, "start", func(p *Page) { p.Body = "o" }),
			theirs: edit(base, "start", func(p *Page) { p.Body = "t" }), bodies: joinBodies(true),
			conflict: "both sides changed the content"},
		{name: "DeletedVsChanged", ours: edit(base, "start", retitle("Kept")), theirs: edit(base, "start", nil),
			conflict: "deleted on one side",
			check:    func(t *testing.T, r Result) { want(t, r.Tree.Page("start").Title, "Kept") }},
		{name: "ChangedVsDeleted", ours: edit(base, "start", nil), theirs: edit(base, "start", retitle("Back")),
			conflict: "deleted on one side",
			check:    func(t *testing.T, r Result) { want(t, r.Tree.Page("start").Title, "Back") }},
		{name: "ParentDeletedUnderNewChild",
			ours:   add(base, &Page{ID: "new", Parent: "adv", Order: "z", Slug: "new", Title: "New"}),
			theirs: edit(base, "adv", nil), conflict: "moved to the top level",
			check: func(t *testing.T, r Result) {
				want(t, r.Tree.Page("new").Parent, "")
				if r.Tree.Page("adv") != nil || r.Tree.Page("deep") != nil {
					t.Error("the deleted subtree came back")
				}
			}},
		{name: "MovesMakeACycle", ours: edit(base, "api", func(p *Page) { p.Parent = "guides" }),
			theirs: edit(base, "guides", func(p *Page) { p.Parent = "api" }), conflict: "moved to the top level",
			check: func(t *testing.T, r Result) {
				if r.Tree.IsUnder("api", "guides") && r.Tree.IsUnder("guides", "api") {
					t.Error("the merged tree has a cycle")
				}
			}},
		{name: "ConditionAndTitle", ours: edit(base, "start", retitle("Begin")),
			theirs: edit(base, "start", func(p *Page) { p.Condition = "visitor.claims.beta" }),
			check: func(t *testing.T, r Result) {
				want(t, r.Tree.Page("start").Title, "Begin")
				want(t, r.Tree.Page("start").Condition, "visitor.claims.beta")
			}},
		{name: "ConditionClash", ours: edit(base, "start", func(p *Page) { p.Condition = "visitor.claims.a" }),
			theirs:   edit(base, "start", func(p *Page) { p.Condition = "visitor.claims.b" }),
			conflict: "both sides changed the condition",
			check:    func(t *testing.T, r Result) { want(t, r.Tree.Page("start").Condition, "visitor.claims.a") }},
		{name: "SlugTakenBySibling",
			ours:   add(base, &Page{ID: "x1", Order: "y", Slug: "faq", Title: "FAQ"}),
			theirs: add(base, &Page{ID: "x2", Order: "z", Slug: "faq", Title: "FAQ"}),
			check: func(t *testing.T, r Result) {
				want(t, r.Tree.Page("x1").Slug, "faq")
				want(t, r.Tree.Page("x2").Slug, "faq-2")
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runMerge(t, base, c.ours, c.theirs, c.bodies)
			got := reasons(r)
			if (c.conflict == "") != (got == "") || !strings.Contains(got, c.conflict) {
				t.Errorf("conflicts = %q, want %q", got, c.conflict)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}
}

func want(t *testing.T, got, wanted string) {
	t.Helper()
	if got != wanted {
		t.Errorf("got %q, want %q", got, wanted)
	}
}
