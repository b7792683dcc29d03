package comments

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/content/tree"
)

func TestTargetPage(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	page := func(title, body string) *tree.Page {
		return &tree.Page{ID: "p", Order: "a", Type: "document", Title: title, Slug: strings.ToLower(title), Body: body,
			CreatedAt: at, UpdatedAt: at}
	}
	treeWith := func(pages ...*tree.Page) *tree.Tree {
		entries := []tree.Entry{{Page: &tree.Page{ID: "top", Order: "a", Type: "group", Title: "Top", Slug: "top"}}}
		for _, p := range pages {
			p.Parent = "top"
			entries = append(entries, tree.Entry{Page: p})
		}
		return tree.New(entries)
	}
	tests := map[string]struct {
		then, now          *tree.Tree
		title, path        string
		outdated, hasTimes bool
	}{
		"Unchanged":      {treeWith(page("Intro", "sha256:1")), treeWith(page("Intro", "sha256:1")), "Intro", "top/intro", false, true},
		"RenamedOnly":    {treeWith(page("Intro", "sha256:1")), treeWith(page("Start", "sha256:1")), "Start", "top/start", false, true},
		"BodyChanged":    {treeWith(page("Intro", "sha256:1")), treeWith(page("Intro", "sha256:2")), "Intro", "top/intro", true, true},
		"Gone":           {treeWith(page("Intro", "sha256:1")), treeWith(), "Intro", "top/intro", true, true},
		"NoPostedTree":   {nil, treeWith(page("Intro", "sha256:1")), "Intro", "top/intro", true, true},
		"InNeitherTree":  {treeWith(), treeWith(), "", "", true, false},
		"NoTreesAtAll":   {nil, nil, "", "", true, false},
		"AddedBodyLater": {treeWith(page("Intro", "")), treeWith(page("Intro", "sha256:1")), "Intro", "top/intro", true, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := TargetPageOf("p", tc.then, tc.now)
			if got.ID != "p" || got.Title != tc.title || got.Path != tc.path || got.Outdated != tc.outdated ||
				(got.CreatedAt != nil) != tc.hasTimes || (got.UpdatedAt != nil) != tc.hasTimes {
				t.Fatalf("got %+v", got)
			}
		})
	}
}

func TestSummarizeReactions(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var rows []*ent.Reaction
	for i, r := range []struct{ user, emoji string }{{"ann", "👍"}, {"bob", "🎉"}, {"bob", "👍"}, {"cid", "👍"}} {
		rows = append(rows, &ent.Reaction{UserID: r.user, Emoji: r.emoji, CreatedAt: at.Add(time.Duration(i) * time.Second)})
	}
	var out []string
	for _, e := range SummarizeReactions(rows) {
		var users []string
		for _, u := range e.Users {
			users = append(users, fmt.Sprintf("%s@%d", u.UserID, u.ReactedAt.Second()))
		}
		out = append(out, fmt.Sprintf("%s:%d(%s)", e.Emoji, e.Count, strings.Join(users, ",")))
	}
	if got, want := strings.Join(out, " "), "👍:3(ann@5,bob@7,cid@8) 🎉:1(bob@6)"; got != want {
		t.Fatalf("summary %s, want %s", got, want)
	}
	if got := SummarizeReactions(nil); got == nil || len(got) != 0 {
		t.Fatalf("no reactions: %#v, want an empty list", got)
	}
}
