package loader

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/graph-gophers/dataloader/v7"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/ent/commentreply"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/reaction"
	"github.com/binderyhq/bindery/graph/page"
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
func (l *Loaders) SpaceCommentPage(ctx context.Context, spaceID string, f CommentFilter, a page.Args) (Page[*ent.Comment], error) {
	return l.spaceComments.Load(ctx, pageKey[CommentFilter]{spaceID, f, a.Limit, encode(a.After)})()
}

// ChangeRequestCommentPage returns one page of the comments on a change request.
func (l *Loaders) ChangeRequestCommentPage(ctx context.Context, changeRequestID string, f CommentFilter, a page.Args) (Page[*ent.Comment], error) {
	return l.changeRequestComments.Load(ctx, pageKey[CommentFilter]{changeRequestID, f, a.Limit, encode(a.After)})()
}

func (l *Loaders) loadSpaceCommentPages(ctx context.Context, keys []pageKey[CommentFilter]) []*dataloader.Result[Page[*ent.Comment]] {
	return loadPages(ctx, l.commentSource(comment.FieldSpaceID, func(c *ent.Comment) string { return c.SpaceID },
		func(spaces []string) predicate.Comment {
			return comment.And(comment.SpaceIDIn(spaces...), comment.ChangeRequestIDIsNil())
		}), keys)
}

func (l *Loaders) loadChangeRequestCommentPages(ctx context.Context, keys []pageKey[CommentFilter]) []*dataloader.Result[Page[*ent.Comment]] {
	return loadPages(ctx, l.commentSource(comment.FieldChangeRequestID, func(c *ent.Comment) string { return *c.ChangeRequestID },
		func(crs []string) predicate.Comment { return comment.ChangeRequestIDIn(crs...) }), keys)
}

// commentSource pages comments by the parent column (space or change request), by posting time.
func (l *Loaders) commentSource(parentColumn string, parentOf func(*ent.Comment) string,
	ofParents func([]string) predicate.Comment) pageSource[CommentFilter, *ent.Comment] {
	return pageSource[CommentFilter, *ent.Comment]{
		partition: []string{parentColumn},
		order:     func(f CommentFilter) page.Order { return page.Order{Column: comment.FieldCreatedAt, Desc: !f.Asc} },
		parentOf:  parentOf,
		idOf:      func(c *ent.Comment) string { return c.ID },
		cursorKey: func(c *ent.Comment, _ CommentFilter) any { return c.CreatedAt },
		timeKeyed: true,
		fetch: func(ctx context.Context, parents []string, f CommentFilter, modify ...func(*sql.Selector)) ([]*ent.Comment, map[string]int, error) {
			where := append(f.predicates(), ofParents(parents))
			q := l.client.Comment.Query().Where(where...)
			q.Modify(modify...)
			rows, err := q.All(ctx)
			if err != nil {
				return nil, nil, err
			}
			counts, err := countBy(ctx, parentColumn, l.client.Comment.Query().Where(where...).Modify)
			return rows, counts, err
		},
	}
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
func (l *Loaders) ReplyPage(ctx context.Context, commentID string, a page.Args) (Page[*ent.CommentReply], error) {
	return l.replyPages.Load(ctx, pageKey[struct{}]{commentID, struct{}{}, a.Limit, encode(a.After)})()
}

func (l *Loaders) loadReplyPages(ctx context.Context, keys []pageKey[struct{}]) []*dataloader.Result[Page[*ent.CommentReply]] {
	return loadPages(ctx, pageSource[struct{}, *ent.CommentReply]{
		partition: []string{commentreply.FieldCommentID},
		order:     func(struct{}) page.Order { return page.Order{Column: commentreply.FieldCreatedAt} },
		parentOf:  func(r *ent.CommentReply) string { return r.CommentID },
		idOf:      func(r *ent.CommentReply) string { return r.ID },
		cursorKey: func(r *ent.CommentReply, _ struct{}) any { return r.CreatedAt },
		timeKeyed: true,
		fetch: func(ctx context.Context, comments []string, _ struct{}, modify ...func(*sql.Selector)) ([]*ent.CommentReply, map[string]int, error) {
			where := commentreply.CommentIDIn(comments...)
			q := l.client.CommentReply.Query().Where(where)
			q.Modify(modify...)
			rows, err := q.All(ctx)
			if err != nil {
				return nil, nil, err
			}
			counts, err := countBy(ctx, commentreply.FieldCommentID, l.client.CommentReply.Query().Where(where).Modify)
			return rows, counts, err
		},
	}, keys)
}

// ReactionTarget names a comment (Reply false) or a reply (Reply true) that reactions are given to.
type ReactionTarget struct {
	ID    string
	Reply bool
}

// Reactions returns the reactions given to a comment or a reply, oldest first. The reactions of
// the comments and replies asked for in one wave load in one statement.
func (l *Loaders) Reactions(ctx context.Context, t ReactionTarget) ([]*ent.Reaction, error) {
	return l.reactions.Load(ctx, t)()
}

func (l *Loaders) loadReactions(ctx context.Context, keys []ReactionTarget) []*dataloader.Result[[]*ent.Reaction] {
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
	rows, err := l.client.Reaction.Query().Where(reaction.Or(of...)).
		Order(ent.Asc(reaction.FieldCreatedAt), ent.Asc(reaction.FieldID)).All(ctx)
	if err != nil {
		return failAll[ReactionTarget, []*ent.Reaction](keys, err)
	}
	found := map[ReactionTarget][]*ent.Reaction{}
	for _, r := range rows {
		t := ReactionTarget{ID: deref(r.TargetCommentID)}
		if r.TargetReplyID != nil {
			t = ReactionTarget{ID: *r.TargetReplyID, Reply: true}
		}
		found[t] = append(found[t], r)
	}
	return results(keys, found, nil)
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

// Repliers returns the users who replied to a comment, most recent reply first.
func (l *Loaders) Repliers(ctx context.Context, commentID string) ([]Replier, error) {
	return l.repliers.Load(ctx, commentID)()
}

// loadRepliers reads, for each comment, the last reply of each of its repliers (one windowed
// statement) and how many replies each posted (one grouped count).
func (l *Loaders) loadRepliers(ctx context.Context, comments []string) []*dataloader.Result[[]Replier] {
	byAuthor := []string{commentreply.FieldCommentID, commentreply.FieldPostedBy}
	where := commentreply.CommentIDIn(comments...)
	last, err := l.client.CommentReply.Query().Where(where).
		Modify(page.Order{Column: commentreply.FieldCreatedAt, Desc: true}.LimitPerParent(1, byAuthor...)).All(ctx)
	if err != nil {
		return failAll[string, []Replier](comments, err)
	}
	counts, err := countByPair(ctx, byAuthor, l.client.CommentReply.Query().Where(where).Modify)
	if err != nil {
		return failAll[string, []Replier](comments, err)
	}
	found := map[string][]Replier{}
	for _, r := range last {
		found[r.CommentID] = append(found[r.CommentID],
			Replier{UserID: r.PostedBy, Count: counts[[2]string{r.CommentID, r.PostedBy}], LastAt: r.CreatedAt})
	}
	for _, rs := range found {
		slices.SortFunc(rs, func(a, b Replier) int { return b.LastAt.Compare(a.LastAt) })
	}
	return results(comments, found, nil)
}

// Revisions returns the revisions with the ids, in order, asked for in one wave (nil for an id
// without a revision the viewer may read).
func (l *Loaders) Revisions(ctx context.Context, ids []string) ([]*ent.Revision, error) {
	revs, errs := l.revisions.LoadMany(ctx, ids)()
	return revs, errors.Join(errs...)
}
