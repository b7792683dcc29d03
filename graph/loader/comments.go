package loader

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/ent/commentreply"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/reaction"
	"github.com/binderyhq/bindery/internal/page"
)

// CommentFilter narrows and sorts the comments of a space's own content or of a change request.
type CommentFilter struct {
	Status  comment.Status // "" for both
	Page    string         // a page id: only the comments on that page
	Authors string         // user ids joined by AuthorSeparator (a comparable key): only theirs
	Asc     bool           // oldest first, instead of newest first
}

// AuthorSeparator joins the user ids of CommentFilter.Authors.
const AuthorSeparator = ","

// SpaceCommentPage returns one page of the comments on a space's own content (not those of its
// change requests) that the viewer can read.
func (l *Loaders) SpaceCommentPage(ctx context.Context, s *ent.Space, f CommentFilter, a page.Args) (Page[*ent.Comment], error) {
	return Get(ctx, l.client, spaceComments, s, func(s *ent.Space) pageKey[CommentFilter] { return pageOf(s.ID, f, a) })
}

// ChangeRequestCommentPage returns one page of the comments on a change request.
func (l *Loaders) ChangeRequestCommentPage(ctx context.Context, cr *ent.ChangeRequest, f CommentFilter, a page.Args) (Page[*ent.Comment], error) {
	return Get(ctx, l.client, changeRequestComments, cr, func(cr *ent.ChangeRequest) pageKey[CommentFilter] { return pageOf(cr.ID, f, a) })
}

var spaceComments = pages("space comment pages", commentSource(comment.FieldSpaceID, func(c *ent.Comment) string { return c.SpaceID },
	comment.ChangeRequestIDIsNil()))

var changeRequestComments = pages("change request comment pages", commentSource(comment.FieldChangeRequestID,
	func(c *ent.Comment) string { return *c.ChangeRequestID }))

// commentSource pages comments by the parent column (space or change request), by posting time;
// only comments matching where are listed.
func commentSource(parentColumn string, parentOf func(*ent.Comment) string,
	where ...predicate.Comment) pageSource[CommentFilter, *ent.Comment] {
	return fromQuery(pageSource[CommentFilter, *ent.Comment]{
		partition: []string{parentColumn},
		order:     func(f CommentFilter) page.Order { return page.Order{Column: comment.FieldCreatedAt, Desc: !f.Asc} },
		parentOf:  parentOf,
		idOf:      func(c *ent.Comment) string { return c.ID },
		cursorKey: func(c *ent.Comment, _ CommentFilter) any { return c.CreatedAt },
		timeKeyed: true,
	}, func(c *ent.Client, f CommentFilter) *ent.CommentQuery {
		return c.Comment.Query().Where(append(f.predicates(), where...)...)
	})
}

func (f CommentFilter) predicates() []predicate.Comment {
	var p []predicate.Comment
	if f.Status != "" {
		p = append(p, comment.StatusEQ(f.Status))
	}
	if f.Page != "" {
		p = append(p, comment.PageID(f.Page))
	}
	if f.Authors != "" {
		p = append(p, comment.PostedByIn(strings.Split(f.Authors, AuthorSeparator)...))
	}
	return p
}

// ReplyPage returns one page of a comment's replies, oldest first.
func (l *Loaders) ReplyPage(ctx context.Context, c *ent.Comment, a page.Args) (Page[*ent.CommentReply], error) {
	return Get(ctx, l.client, replyPages, c, func(c *ent.Comment) pageKey[struct{}] { return pageOf(c.ID, struct{}{}, a) })
}

var replyPages = pages("reply pages", fromQuery(pageSource[struct{}, *ent.CommentReply]{
	partition: []string{commentreply.FieldCommentID},
	order:     func(struct{}) page.Order { return page.Order{Column: commentreply.FieldCreatedAt} },
	parentOf:  func(r *ent.CommentReply) string { return r.CommentID },
	idOf:      func(r *ent.CommentReply) string { return r.ID },
	cursorKey: func(r *ent.CommentReply, _ struct{}) any { return r.CreatedAt },
	timeKeyed: true,
}, func(c *ent.Client, _ struct{}) *ent.CommentReplyQuery {
	return c.CommentReply.Query()
}))

// ReactionTarget names a comment (Reply false) or a reply (Reply true) that reactions are given to.
type ReactionTarget struct {
	ID    string
	Reply bool
}

// ReadReactions reads the reactions given to comments and replies, oldest first, in one
// statement: the fetch of a batch of reactions.
func ReadReactions(ctx context.Context, c *ent.Client, keys []ReactionTarget) (map[ReactionTarget][]*ent.Reaction, error) {
	var comments, replies []string
	for _, k := range keys {
		if k.Reply {
			replies = append(replies, k.ID)
		} else {
			comments = append(comments, k.ID)
		}
	}
	var of []predicate.Reaction
	if len(comments) > 0 {
		of = append(of, reaction.TargetCommentIDIn(comments...))
	}
	if len(replies) > 0 {
		of = append(of, reaction.TargetReplyIDIn(replies...))
	}
	rows, err := c.Reaction.Query().Where(reaction.Or(of...)).
		Order(ent.Asc(reaction.FieldCreatedAt), ent.Asc(reaction.FieldID)).All(ctx)
	found := map[ReactionTarget][]*ent.Reaction{}
	for _, r := range rows {
		t := ReactionTarget{ID: deref(r.TargetCommentID)}
		if r.TargetReplyID != nil {
			t = ReactionTarget{ID: *r.TargetReplyID, Reply: true}
		}
		found[t] = append(found[t], r)
	}
	return found, err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Replier is someone who replied to a comment: how many replies, and when the last one was posted.
type Replier struct {
	UserID string
	Count  int
	LastAt time.Time
}

// ReadRepliers reads, for each comment, the last reply of each of its repliers (one windowed
// statement) and how many replies each posted (one grouped count), most recent reply first: the
// fetch of a batch of repliers.
func ReadRepliers(ctx context.Context, c *ent.Client, comments []string) (map[string][]Replier, error) {
	byAuthor := []string{commentreply.FieldCommentID, commentreply.FieldPostedBy}
	where := commentreply.CommentIDIn(comments...)
	last, err := c.CommentReply.Query().Where(where).
		Modify(page.Order{Column: commentreply.FieldCreatedAt, Desc: true}.LimitPerParent(1, byAuthor...)).All(ctx)
	if err != nil {
		return nil, err
	}
	counts, err := countByPair(ctx, byAuthor, c.CommentReply.Query().Where(where).Modify)
	if err != nil {
		return nil, err
	}
	found := map[string][]Replier{}
	for _, r := range last {
		found[r.CommentID] = append(found[r.CommentID],
			Replier{UserID: r.PostedBy, Count: counts[[2]string{r.CommentID, r.PostedBy}], LastAt: r.CreatedAt})
	}
	for _, rs := range found {
		slices.SortFunc(rs, func(a, b Replier) int { return b.LastAt.Compare(a.LastAt) })
	}
	return found, nil
}
