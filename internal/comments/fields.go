package comments

import (
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// TargetPage is the page a comment is on, as it is now, or as it was if it is gone.
type TargetPage struct {
	ID, Title, Emoji, Path string
	// CreatedAt and UpdatedAt are nil (with an empty title and path) only when neither tree has
	// the page.
	CreatedAt, UpdatedAt *time.Time
	// Outdated is true when the page's body changed, or the page went away, since the comment was
	// posted.
	Outdated bool
}

// TargetPageOf describes the page id from the tree a comment was posted on (then) and the current
// one (now): as it is now, or as it was if it is gone. It is outdated when its body changed
// between the two, or it is gone.
func TargetPageOf(id string, then, now *tree.Tree) TargetPage {
	was, is := pageIn(then, id), pageIn(now, id)
	out := TargetPage{ID: id, Outdated: was == nil || is == nil || was.Body != is.Body}
	p, in := is, now
	if p == nil {
		p, in = was, then
	}
	if p != nil {
		out.Title, out.Emoji, out.Path = p.Title, p.Emoji, in.Path(id)
		out.CreatedAt, out.UpdatedAt = &p.CreatedAt, &p.UpdatedAt
	}
	return out
}

func pageIn(t *tree.Tree, id string) *tree.Page {
	if t == nil {
		return nil
	}
	return t.Page(id)
}

// Reaction is one emoji given to a comment or a reply: by whom, in the order they reacted.
type Reaction struct {
	Emoji string
	Count int
	Users []ReactionUser
}

// ReactionUser is one user's reaction.
type ReactionUser struct {
	UserID    string
	ReactedAt time.Time
}

// SummarizeReactions groups reactions (oldest first) by emoji, in the order each emoji was first
// given, each with its users in the order they reacted.
func SummarizeReactions(rows []*ent.Reaction) []Reaction {
	out := []Reaction{}
	byEmoji := map[string]int{}
	for _, row := range rows {
		i, ok := byEmoji[row.Emoji]
		if !ok {
			i = len(out)
			byEmoji[row.Emoji] = i
			out = append(out, Reaction{Emoji: row.Emoji})
		}
		out[i].Count++
		out[i].Users = append(out[i].Users, ReactionUser{UserID: row.UserID, ReactedAt: row.CreatedAt})
	}
	return out
}
