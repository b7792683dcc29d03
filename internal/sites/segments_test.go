package sites

import (
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
)

func TestCheckSegment(t *testing.T) {
	for s, ok := range map[string]bool{
		"docs": true, "a": true, "v1.2_beta-3": true, "école": true, "文档": true,
		"": false, "Docs": false, "-docs": false, "docs.": false, "a b": false, "a/b": false,
		strings.Repeat("a", PathMax+1): false,
	} {
		if err := CheckSegment("path", s, PathMax); (err == nil) != ok {
			t.Errorf("CheckSegment(%q) = %v, want ok %v", s, err, ok)
		}
	}
}

func TestFreePath(t *testing.T) {
	taken := map[string]bool{"guide": true, "guide-2": true}
	if got := freePath("guide", taken); got != "guide-3" || !taken["guide-3"] {
		t.Errorf("freePath = %q, want guide-3, taken", got)
	}
	if got := freePath(strings.Repeat("a", PathMax), taken); len(got) != PathMax-6 {
		t.Errorf("freePath of a long base = %d characters, want %d (room for a suffix)", len(got), PathMax-6)
	}
}

func TestInsertionIndex(t *testing.T) {
	sibs := []*ent.SiteSpace{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	id := func(s string) *string { return &s }
	for _, tc := range []struct {
		pos     Position
		want    int
		invalid bool
	}{
		{Position{}, 3, false},
		{Position{Before: id("a")}, 0, false},
		{Position{After: id("a")}, 1, false},
		{Position{Before: id("c"), After: id("b")}, 2, false},
		{Position{Before: id("c"), After: id("a")}, 0, true},
		{Position{Before: id("x")}, 0, true},
	} {
		got, err := insertionIndex(sibs, tc.pos)
		if (err != nil) != tc.invalid || err == nil && got != tc.want {
			t.Errorf("insertionIndex(%v) = %d, %v; want %d, invalid %v", tc.pos, got, err, tc.want, tc.invalid)
		}
	}
}
