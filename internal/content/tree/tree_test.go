package tree

import (
	"slices"
	"strings"
	"testing"
)

// guide is a small tree: guides/{start, advanced/{deep}}, api.
func guide() *Tree {
	mk := func(id, parent, order, slug string) Entry {
		return Entry{Page: &Page{ID: id, Parent: parent, Order: order, Slug: slug, Title: slug, Type: "document"}}
	}
	return New([]Entry{
		mk("api", "", "m", "api"), mk("guides", "", "a", "guides"),
		mk("start", "guides", "a", "start"), mk("adv", "guides", "b", "advanced"),
		mk("deep", "adv", "a", "deep"),
	})
}

func order(t *Tree) []string {
	var out []string
	t.Walk(func(p *Page, path string) { out = append(out, path) })
	return out
}

func TestTreeWalkAndPaths(t *testing.T) {
	tr := guide()
	want := []string{"guides", "guides/start", "guides/advanced", "guides/advanced/deep", "api"}
	if got := order(tr); !slices.Equal(got, want) {
		t.Errorf("Walk = %v, want %v", got, want)
	}
	if got := tr.Path("deep"); got != "guides/advanced/deep" {
		t.Errorf("Path(deep) = %q", got)
	}
	if p := tr.ByPath("/guides/advanced/deep"); p == nil || p.ID != "deep" {
		t.Errorf("ByPath = %v", p)
	}
	if p := tr.ByPath("guides/nope"); p != nil {
		t.Errorf("ByPath of a missing page = %v", p)
	}
	if !tr.IsUnder("deep", "guides") || tr.IsUnder("guides", "deep") || !tr.IsUnder("adv", "adv") {
		t.Error("IsUnder is wrong")
	}
}

// TestNextAndPrev: stepping with Next from the first page and with Prev from the last gives
// Walk's order, forwards and backwards.
func TestNextAndPrev(t *testing.T) {
	tr := guide()
	var walked []string
	tr.Walk(func(p *Page, _ string) { walked = append(walked, p.ID) })
	var forward, backward []string
	for p := tr.Page(walked[0]); p != nil; p = tr.Next(p.ID) {
		forward = append(forward, p.ID)
	}
	for p := tr.Page(walked[len(walked)-1]); p != nil; p = tr.Prev(p.ID) {
		backward = append(backward, p.ID)
	}
	slices.Reverse(backward)
	if !slices.Equal(forward, walked) || !slices.Equal(backward, walked) {
		t.Fatalf("Next gives %v, Prev %v; Walk %v", forward, backward, walked)
	}
	if tr.Next("nope") != nil || tr.Prev("nope") != nil {
		t.Fatal("an unknown page has neighbours")
	}
}

func TestTreeMoveAndDelete(t *testing.T) {
	orig := guide()
	tr := orig.Clone()
	moved := *tr.Page("adv")
	moved.Parent, moved.Order = "", "z"
	tr.SetPage(&moved)
	if got, want := order(tr), []string{"guides", "guides/start", "api", "advanced", "advanced/deep"}; !slices.Equal(got, want) {
		t.Errorf("after move: %v, want %v", got, want)
	}
	gone := tr.DeletePage("advanced-does-not-exist")
	if gone != nil {
		t.Errorf("deleting a missing page removed %v", gone)
	}
	gone = tr.DeletePage("adv")
	if !slices.Equal(gone, []string{"adv", "deep"}) || tr.Page("deep") != nil {
		t.Errorf("DeletePage removed %v", gone)
	}
	if got := order(orig); len(got) != 5 || orig.Page("adv").Parent != "guides" {
		t.Errorf("the original changed: %v", got)
	}
}

func TestRekey(t *testing.T) {
	n := 0
	copied, ids := guide().Rekey(func() string { n++; return string(rune('A' + n)) })
	if got, want := order(copied), order(guide()); !slices.Equal(got, want) {
		t.Errorf("rekeyed tree %v, want the same paths %v", got, want)
	}
	if copied.Page("deep") != nil || copied.Page(ids["deep"]).Parent != ids["adv"] {
		t.Error("ids or parents were not renamed")
	}
}

// A page without a condition encodes as before pages had one, so stored trees keep their hashes.
func TestNoConditionKeepsEncoding(t *testing.T) {
	p := &Page{ID: "a", Order: "a", Type: "document", Title: "A", Slug: "a"}
	if got := encode(Entry{Page: p}); strings.Contains(got, "condition") {
		t.Errorf("a page without a condition encodes as %s", got)
	}
	p.Condition = "visitor.claims.beta"
	if got := encode(Entry{Page: p}); !strings.Contains(got, `"condition":"visitor.claims.beta"`) {
		t.Errorf("a page with a condition encodes as %s", got)
	}
}

func TestWithout(t *testing.T) {
	tr := guide()
	pruned := tr.Without([]string{"adv", "api"})
	if got, want := order(pruned), []string{"guides", "guides/start"}; !slices.Equal(got, want) {
		t.Errorf("Without = %v, want %v", got, want)
	}
	if pruned.Page("deep") != nil || tr.Page("deep") == nil {
		t.Error("Without keeps a descendant of a page left out, or changes the original")
	}
	if tr.Without(nil) != tr {
		t.Error("Without nothing should be the tree itself")
	}
}
