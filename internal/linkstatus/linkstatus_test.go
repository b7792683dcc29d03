package linkstatus

import (
	"slices"
	"testing"

	"github.com/binderyhq/bindery/internal/content/links"
)

func TestCompare(t *testing.T) {
	want := []links.Target{
		{Kind: links.File, Ref: "F1"},
		{Kind: links.Page, Ref: "P1"},
		{Kind: links.Page, Ref: "P1", Anchor: "a"},
		{Kind: links.Page, Ref: "P2"},
		{Kind: links.Space, Ref: "S1"},
		{Kind: links.URL, Ref: "https://a.example"},
		{Kind: links.URL, Ref: "https://b.example"},
	}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortFunc(got, Compare)
	if !slices.Equal(got, want) {
		t.Fatalf("sorted\n got %+v\nwant %+v", got, want)
	}
	// A target compares with the cursor made from it (its kind and ID) as with itself.
	anchor := links.Target{Kind: links.Page, Ref: "P1", Anchor: "a"}
	cursor := links.Target{Kind: anchor.Kind, Ref: anchor.ID()}
	for _, tg := range want {
		if Compare(tg, cursor) != Compare(tg, anchor) {
			t.Errorf("%+v compares with the cursor %+v as %d, with the target as %d", tg, cursor, Compare(tg, cursor), Compare(tg, anchor))
		}
	}
}
