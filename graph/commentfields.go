package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/comments"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Fields of comments and replies that are looked up: authors, reactions, repliers, the target page
// and permissions. Each goes through the request's loaders, so a list's items look up together;
// internal/comments decides what the values mean (permissions, reaction summaries, target pages).

// commentUsers are the users a comment names (its poster, who resolved it): a field looks up one,
// and the others for the whole level in the same statement.
var commentUsers = []func(*ent.Comment) string{commentPoster, commentResolverUser}

func commentPoster(c *ent.Comment) string       { return c.PostedBy }
func commentResolverUser(c *ent.Comment) string { return derefOr(c.ResolvedBy, "") }

// ReplyComment is the comment of a reply: the one it was read with, else read now.
func (r *Resolver) ReplyComment(ctx context.Context, reply *ent.CommentReply) (*ent.Comment, error) {
	return r.commentService().CommentOf(ctx, reply)
}

// commentPermissions is Comment.permissions.
func (r *Resolver) commentPermissions(ctx context.Context, c *ent.Comment) (*model.CommentPermissions, error) {
	return permissionsModel(r.commentService().CommentPermissions(ctx, c))
}

// replyPermissions is CommentReply.permissions.
func (r *Resolver) replyPermissions(ctx context.Context, reply *ent.CommentReply) (*model.CommentPermissions, error) {
	return permissionsModel(r.commentService().ReplyPermissions(ctx, reply))
}

func permissionsModel(p comments.Permissions, err error) (*model.CommentPermissions, error) {
	if err != nil {
		return nil, err
	}
	m := model.CommentPermissions(p)
	return &m, nil
}

// commentReactions is Comment.reactions.
func (r *Resolver) commentReactions(ctx context.Context, c *ent.Comment) ([]*model.EmojiReaction, error) {
	return reactionsOf(ctx, r, c, func(c *ent.Comment) loader.ReactionTarget { return loader.ReactionTarget{ID: c.ID} })
}

// replyReactions is CommentReply.reactions.
func (r *Resolver) replyReactions(ctx context.Context, reply *ent.CommentReply) ([]*model.EmojiReaction, error) {
	return reactionsOf(ctx, r, reply, func(r *ent.CommentReply) loader.ReactionTarget {
		return loader.ReactionTarget{ID: r.ID, Reply: true}
	})
}

// reactionsOf returns the reactions given to item, summarized by emoji; those of item's whole
// level are read together.
func reactionsOf[T comparable](ctx context.Context, r *Resolver, item T, key func(T) loader.ReactionTarget) ([]*model.EmojiReaction, error) {
	out, err := loader.Get(ctx, r.Client, reactionSummaries, item, key)
	if out == nil {
		out = []*model.EmojiReaction{}
	}
	return out, err
}

// reactionSummaries reads the reactions of the comments or replies of a level and summarizes
// them; the users who reacted, over the whole level, form one level.
var reactionSummaries = loader.NewBatch("reaction summaries",
	func(ctx context.Context, c *ent.Client, keys []loader.ReactionTarget) (map[loader.ReactionTarget][]*model.EmojiReaction, error) {
		rows, err := loader.ReadReactions(ctx, c, keys)
		out := make(map[loader.ReactionTarget][]*model.EmojiReaction, len(rows))
		var users []*model.ReactionUser
		for t, rs := range rows {
			out[t] = emojiReactions(comments.SummarizeReactions(rs))
			for _, e := range out[t] {
				users = append(users, e.Users...)
			}
		}
		loader.Level(ctx, users)
		return out, err
	})

// emojiReactions are the GraphQL values of a summary of reactions.
func emojiReactions(summary []comments.Reaction) []*model.EmojiReaction {
	out := make([]*model.EmojiReaction, len(summary))
	for i, e := range summary {
		users := make([]*model.ReactionUser, len(e.Users))
		for j, u := range e.Users {
			users[j] = &model.ReactionUser{UserID: u.UserID, ReactedAt: u.ReactedAt}
		}
		out[i] = &model.EmojiReaction{Emoji: e.Emoji, Count: e.Count, Users: users}
	}
	return out
}

// repliers is Comment.repliers: who replied, most recent first.
func (r *Resolver) repliers(ctx context.Context, c *ent.Comment) ([]*model.CommentReplier, error) {
	out, err := loader.Get(ctx, r.Client, replierLists, c, func(c *ent.Comment) string { return c.ID })
	if out == nil {
		out = []*model.CommentReplier{}
	}
	return out, err
}

// replierLists reads the repliers of the comments of a level; the repliers, over the whole level,
// form one level.
var replierLists = loader.NewBatch("repliers", func(ctx context.Context, c *ent.Client, comments []string) (map[string][]*model.CommentReplier, error) {
	rows, err := loader.ReadRepliers(ctx, c, comments)
	out := make(map[string][]*model.CommentReplier, len(rows))
	var all []*model.CommentReplier
	for id, rs := range rows {
		for _, row := range rs {
			m := &model.CommentReplier{UserID: row.UserID, Count: row.Count, UpdatedAt: row.LastAt}
			out[id], all = append(out[id], m), append(all, m)
		}
	}
	loader.Level(ctx, all)
	return out, err
})

// commentTargetPage is CommentTarget.page: the page a comment is on, as it is in the content the
// comment is about now (the space's, or the change request's), or as it was when the comment was
// posted if it is gone since; nil for a comment on no page.
func (r *Resolver) commentTargetPage(ctx context.Context, t *model.CommentTarget) (*model.CommentTargetPage, error) {
	c := t.Comment
	if c.PageID == nil {
		return nil, nil
	}
	then, err := treeOf(ctx, r, c, func(c *ent.Comment) string { return derefOr(c.RevisionID, "") })
	if err != nil {
		return nil, err
	}
	now, err := r.commentContentTree(ctx, c)
	if err != nil {
		return nil, err
	}
	p := model.CommentTargetPage(comments.TargetPageOf(*c.PageID, then, now))
	return &p, nil
}

// commentContentTree is the tree of the content a comment is about now: read with those of its
// level when the comment was read with its space or change request (a list), else alone.
func (r *Resolver) commentContentTree(ctx context.Context, c *ent.Comment) (*tree.Tree, error) {
	if attachedContentRevision(c) != "" {
		return treeOf(ctx, r, c, attachedContentRevision)
	}
	current, err := r.commentContentRevision(ctx, c)
	if err != nil {
		return nil, err
	}
	return treeOf(ctx, r, derefOr(current, ""), identity)
}

// attachedContentRevision is the active revision of the content a comment is about, from the
// change request or space it was read with; "" when it was read without them.
func attachedContentRevision(c *ent.Comment) string {
	if c.ChangeRequestID != nil {
		if cr := c.Edges.ChangeRequest; cr != nil {
			return cr.RevisionID
		}
		return ""
	}
	if s := c.Edges.Space; s != nil {
		return derefOr(s.RevisionID, "")
	}
	return ""
}

// commentContentRevision is the active revision of the content a comment is about: its change
// request's, or its space's.
func (r *Resolver) commentContentRevision(ctx context.Context, c *ent.Comment) (*string, error) {
	if c.ChangeRequestID == nil {
		s, err := r.commentService().SpaceOf(ctx, c)
		if err != nil {
			return nil, err
		}
		return s.RevisionID, nil
	}
	cr := c.Edges.ChangeRequest
	if cr == nil {
		var err error
		if cr, err = r.changeRequestService().Read(ctx, *c.ChangeRequestID); err != nil {
			return nil, err
		}
	}
	return &cr.RevisionID, nil
}

// treeOf returns the tree of the revision key names on item: nil for none, or for one the viewer
// may not read. The revisions of item's whole level are read together.
func treeOf[T comparable](ctx context.Context, r *Resolver, item T, key func(T) string) (*tree.Tree, error) {
	if key(item) == "" {
		return nil, nil
	}
	rev, err := loader.Get(ctx, r.Client, loader.Revisions, item, key)
	if err != nil || rev == nil {
		return nil, err
	}
	return r.revisionTree(ctx, rev)
}
