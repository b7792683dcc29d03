package tree

import (
	"slices"
	"testing"
)

func TestMoves(t *testing.T) {
	old := guide()
	renamed := old.Clone()
	adv := *renamed.Page("adv")
	adv.Slug = "expert"
	renamed.SetPage(&adv)
	api := *renamed.Page("api")
	api.Parent = "guides"
	renamed.SetPage(&api)
	renamed.SetPage(&Page{ID: "new", Slug: "new", Type: "document", Order: "z"})
	renamed.DeletePage("start")

	got := Moves(old, renamed, []string{"adv", "api", "new", "start"})
	want := []Move{
		{PageID: "adv", From: "guides/advanced", To: "guides/expert"},
		{PageID: "deep", From: "guides/advanced/deep", To: "guides/expert/deep"},
		{PageID: "api", From: "api", To: "guides/api"},
		{PageID: "new", From: "", To: "new"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Moves =\n%v\nwant\n%v", got, want)
	}
	if got := Moves(old, old.Clone(), []string{"adv"}); len(got) != 0 {
		t.Fatalf("an unchanged path is a move: %v", got)
	}
}
