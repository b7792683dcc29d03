package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/content/tree"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
)

// Fields of comments and replies that are looked up: authors, reactions, repliers, the target page
// and permissions. Each goes through the request's loaders, so a list's items batch together.

// commentSpace is the space of a comment: the one it was read in, else read now.
func (r *Resolver) commentSpace(ctx context.Context, c *ent.Comment) (*ent.Space, error) {
	if c.Edges.Space != nil {
		return c.Edges.Space, nil
	}
	return r.space(ctx, c.SpaceID)
}

// ReplyComment is the comment of a reply: the one it was read with, else read now.
func (r *Resolver) ReplyComment(ctx context.Context, reply *ent.CommentReply) (*ent.Comment, error) {
	if reply.Edges.Comment != nil {
		return reply.Edges.Comment, nil
	}
	c, err := r.Client.Comment.Get(ctx, reply.CommentID)
	return c, notFound(err, "comment")
}

// commentPermissions is Comment.permissions.
func (r *Resolver) commentPermissions(ctx context.Context, c *ent.Comment) (*model.CommentPermissions, error) {
	s, err := r.commentSpace(ctx, c)
	if err != nil {
		return nil, err
	}
	return r.discussionPermissions(ctx, s, c.PostedBy)
}

// replyPermissions is CommentReply.permissions.
func (r *Resolver) replyPermissions(ctx context.Context, reply *ent.CommentReply) (*model.CommentPermissions, error) {
	c, err := r.ReplyComment(ctx, reply)
	if err != nil {
		return nil, err
	}
	s, err := r.commentSpace(ctx, c)
	if err != nil {
		return nil, err
	}
	return r.discussionPermissions(ctx, s, reply.PostedBy)
}

// reactions is Comment.reactions and CommentReply.reactions.
func (r *Resolver) reactions(ctx context.Context, t loader.ReactionTarget) ([]*model.EmojiReaction, error) {
	rows, err := loader.For(ctx, r.Client).Reactions(ctx, t)
	return summarizeReactions(rows), err
}

// summarizeReactions groups reactions (oldest first) by emoji, in the order each emoji was first
// given, each with its users in the order they reacted.
func summarizeReactions(rows []*ent.Reaction) []*model.EmojiReaction {
	out := []*model.EmojiReaction{}
	byEmoji := map[string]*model.EmojiReaction{}
	for _, row := range rows {
		e := byEmoji[row.Emoji]
		if e == nil {
			e = &model.EmojiReaction{Emoji: row.Emoji}
			byEmoji[row.Emoji] = e
			out = append(out, e)
		}
		e.Count++
		e.Users = append(e.Users, &model.ReactionUser{UserID: row.UserID, ReactedAt: row.CreatedAt})
	}
	return out
}

// repliers is Comment.repliers: who replied, most recent first.
func (r *Resolver) repliers(ctx context.Context, c *ent.Comment) ([]*model.CommentReplier, error) {
	rows, err := loader.For(ctx, r.Client).Repliers(ctx, c.ID)
	out := make([]*model.CommentReplier, len(rows))
	for i, row := range rows {
		out[i] = &model.CommentReplier{UserID: row.UserID, Count: row.Count, UpdatedAt: row.LastAt}
	}
	return out, err
}

// commentTargetPage is CommentTarget.page: the page a comment is on, as it is in the content the
// comment is about now (the space's, or the change request's), or as it was when the comment was
// posted if it is gone since; nil for a comment on no page.
func (r *Resolver) commentTargetPage(ctx context.Context, t *model.CommentTarget) (*model.CommentTargetPage, error) {
	c := t.Comment
	if c.PageID == nil {
		return nil, nil
	}
	current, err := r.commentContentRevision(ctx, c)
	if err != nil {
		return nil, err
	}
	trees, err := r.treesOf(ctx, c.RevisionID, current)
	if err != nil {
		return nil, err
	}
	then, now := trees[0], trees[1]
	return targetPage(*c.PageID, then, now), nil
}

// commentContentRevision is the active revision of the content a comment is about: its change
// request's, or its space's.
func (r *Resolver) commentContentRevision(ctx context.Context, c *ent.Comment) (*string, error) {
	if c.ChangeRequestID == nil {
		s, err := r.commentSpace(ctx, c)
		if err != nil {
			return nil, err
		}
		return s.RevisionID, nil
	}
	cr := c.Edges.ChangeRequest
	if cr == nil {
		var err error
		if cr, err = r.readChangeRequest(ctx, *c.ChangeRequestID); err != nil {
			return nil, err
		}
	}
	return &cr.RevisionID, nil
}

// targetPage describes the page id from the tree a comment was posted on (then) and the current
// one (now): as it is now, or as it was if it is gone. It is outdated when its body changed
// between the two, or it is gone.
func targetPage(id string, then, now *tree.Tree) *model.CommentTargetPage {
	was, is := targetTreePage(then, id), targetTreePage(now, id)
	out := &model.CommentTargetPage{ID: id, Outdated: was == nil || is == nil || was.Body != is.Body}
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

func targetTreePage(t *tree.Tree, id string) *tree.Page {
	if t == nil {
		return nil
	}
	return t.Page(id)
}

// treesOf returns the trees of revisions the viewer reads (nil for a nil id), the revisions read
// in one wave of the request's loader.
func (r *Resolver) treesOf(ctx context.Context, ids ...*string) ([]*tree.Tree, error) {
	named := make([]string, len(ids))
	for i, id := range ids {
		if id != nil {
			named[i] = *id
		}
	}
	revs, err := loader.For(ctx, r.Client).Revisions(ctx, named)
	if err != nil {
		return nil, err
	}
	trees := make([]*tree.Tree, len(ids))
	for i, rev := range revs {
		if rev != nil && ids[i] != nil {
			if trees[i], err = r.revisionTree(ctx, rev); err != nil {
				return nil, err
			}
		}
	}
	return trees, nil
}
