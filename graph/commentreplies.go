package graph

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/commentreply"
	"github.com/binderyhq/bindery/ent/reaction"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/txn"
)

// Replies to comments, and the edits comments and replies share: body edits and reactions.

const (
	// maxReactionsPerUpdate bounds addedReactions and removedReactions, each.
	maxReactionsPerUpdate = 50
	// maxReactionEmoji bounds one reaction's emoji, in characters (the column's size).
	maxReactionEmoji = 32
)

// ListCommentReplies lists the replies to a comment, oldest first. Returns NOT_FOUND when the
// viewer cannot read the comment, INVALID for a bad page or limit.
func (r *Resolver) ListCommentReplies(ctx context.Context, spaceID string, crRef *string, commentID string, first *int, after *string) (*model.CommentReplyConnection, error) {
	c, err := r.ReadComment(ctx, spaceID, crRef, commentID)
	if err != nil {
		return nil, err
	}
	return r.commentReplies(ctx, c, first, after)
}

// commentReplies is Comment.replies.
func (r *Resolver) commentReplies(ctx context.Context, c *ent.Comment, first *int, after *string) (*model.CommentReplyConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := loader.For(ctx, r.Client).ReplyPage(ctx, c, args)
	if err != nil {
		return nil, err
	}
	for _, reply := range p.Items {
		reply.Edges.Comment = c
	}
	return &model.CommentReplyConnection{
		Edges: edges(ctx, p.Items, replyCursor, func(cursor string, n *ent.CommentReply) *model.CommentReplyEdge {
			return &model.CommentReplyEdge{Cursor: cursor, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func replyCursor(r *ent.CommentReply) page.Cursor { return page.Cursor{Key: r.CreatedAt, ID: r.ID} }

// ReadCommentReply returns a reply to a comment. Returns NOT_FOUND when the viewer cannot read it
// or it is not there.
func (r *Resolver) ReadCommentReply(ctx context.Context, spaceID string, crRef *string, commentID, id string) (*ent.CommentReply, error) {
	c, err := r.ReadComment(ctx, spaceID, crRef, commentID)
	if err != nil {
		return nil, err
	}
	return r.replyOf(ctx, c, id)
}

// replyOf returns a reply to the comment. Returns NOT_FOUND when it has none by that id.
func (r *Resolver) replyOf(ctx context.Context, c *ent.Comment, id string) (*ent.CommentReply, error) {
	reply, err := r.Client.CommentReply.Query().Where(commentreply.ID(id), commentreply.CommentID(c.ID)).Only(ctx)
	if err != nil {
		return nil, notFound(err, "reply")
	}
	reply.Edges.Comment = c
	return reply, nil
}

// commentReply is Comment.reply: nil when the comment has no reply by that id.
func (r *Resolver) commentReply(ctx context.Context, c *ent.Comment, id string) (*ent.CommentReply, error) {
	reply, err := r.replyOf(ctx, c, id)
	if isNotFound(err) {
		return nil, nil
	}
	return reply, err
}

// PostCommentReply replies to a comment. It takes the comment role on the space (NOT_FOUND when
// the viewer cannot read the comment, FORBIDDEN below comment); INVALID for an empty or too long
// body. The comment's reply count follows in the same transaction.
func (r *Resolver) PostCommentReply(ctx context.Context, spaceID string, crRef *string, commentID, body string) (*ent.CommentReply, error) {
	c, _, err := r.writableComment(ctx, spaceID, crRef, commentID)
	if err != nil {
		return nil, err
	}
	if err := checkCommentBody("body", body); err != nil {
		return nil, err
	}
	var id string
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		reply, err := tx.CommentReply.Create().SetOrganizationID(c.OrganizationID).SetSpaceID(c.SpaceID).
			SetCommentID(c.ID).SetPostedBy(viewer.FromContext(ctx).UserID).SetBodyMarkdown(body).Save(ctx)
		if err != nil {
			return err
		}
		id = reply.ID
		return tx.Comment.UpdateOneID(c.ID).AddRepliesCount(1).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return r.replyOf(ctx, c, id)
}

// writableReply reads a reply to change, with the viewer's permissions on it: as writableComment
// reads its comment, and NOT_FOUND when the comment has no such reply.
func (r *Resolver) writableReply(ctx context.Context, spaceID string, crRef *string, commentID, id string) (*ent.CommentReply, *model.CommentPermissions, error) {
	c, _, err := r.writableComment(ctx, spaceID, crRef, commentID)
	if err != nil {
		return nil, nil, err
	}
	reply, err := r.replyOf(ctx, c, id)
	if err != nil {
		return nil, nil, err
	}
	perms, err := r.discussionPermissions(ctx, c.Edges.Space, reply.PostedBy)
	return reply, perms, err
}

// UpdateCommentReply replaces a reply's body (its author only) and adds or removes the viewer's
// reactions, in one transaction. Returns NOT_FOUND, FORBIDDEN or INVALID as UpdateComment.
func (r *Resolver) UpdateCommentReply(ctx context.Context, spaceID string, crRef *string, commentID, id string, in model.UpdateCommentReplyInput) (*ent.CommentReply, error) {
	reply, perms, err := r.writableReply(ctx, spaceID, crRef, commentID, id)
	if err != nil {
		return nil, err
	}
	c := reply.Edges.Comment
	e, err := r.checkDiscussionEdit(ctx, c.Edges.Space, perms, in.Body, in.AddedReactions, in.RemovedReactions)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if in.Body != nil {
			if err := tx.CommentReply.UpdateOneID(reply.ID).SetBodyMarkdown(*in.Body).SetEditedAt(e.at).Exec(ctx); err != nil {
				return err
			}
		}
		return e.react(ctx, tx, loader.ReactionTarget{ID: reply.ID, Reply: true})
	})
	if err != nil {
		return nil, err
	}
	return r.replyOf(ctx, c, reply.ID)
}

// DeleteCommentReply deletes a reply with its reactions: its author with the comment role, or an
// admin of the space, may. Returns false when the comment has no such reply (anymore); NOT_FOUND
// when the viewer cannot read the comment, FORBIDDEN below the comment role or for someone
// else's reply.
func (r *Resolver) DeleteCommentReply(ctx context.Context, spaceID string, crRef *string, commentID, id string) (bool, error) {
	c, _, err := r.writableComment(ctx, spaceID, crRef, commentID)
	if err != nil {
		return false, err
	}
	reply, err := r.replyOf(ctx, c, id)
	if isNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := r.requireDelete(ctx, c.Edges.Space, reply.PostedBy); err != nil {
		return false, err
	}
	deleted := false
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		n, err := tx.CommentReply.Delete().Where(commentreply.ID(reply.ID)).Exec(ctx)
		if err != nil || n == 0 {
			return err // n == 0: a concurrent delete took it, and counted
		}
		deleted = true
		return tx.Comment.UpdateOneID(c.ID).AddRepliesCount(-1).Exec(ctx)
	})
	return deleted, err
}

// discussionEdit is a checked change to a comment or a reply of a space: who makes it and when,
// and the emoji reactions it adds and removes in their name.
type discussionEdit struct {
	space          *ent.Space
	by             string
	at             time.Time
	added, removed []string
}

// checkDiscussionEdit checks a change to a comment or a reply before anything is written: a body
// edit takes being its author (FORBIDDEN otherwise) and some text; reactions are 1..32
// characters, at most 50 each way, none both added and removed. Returns INVALID naming the field.
func (r *Resolver) checkDiscussionEdit(ctx context.Context, s *ent.Space, perms *model.CommentPermissions,
	body *string, added, removed []string) (discussionEdit, error) {
	if body != nil {
		if !perms.Edit {
			return discussionEdit{}, apperr.Forbiddenf("only its author may edit a comment or a reply")
		}
		if err := checkCommentBody("body", *body); err != nil {
			return discussionEdit{}, err
		}
	}
	e := discussionEdit{space: s, by: viewer.FromContext(ctx).UserID, at: r.now(ctx)}
	var err error
	if e.added, err = checkReactions("addedReactions", added); err != nil {
		return e, err
	}
	if e.removed, err = checkReactions("removedReactions", removed); err != nil {
		return e, err
	}
	for i, emoji := range e.removed {
		if slices.Contains(e.added, emoji) {
			return e, apperr.Invalidf("removedReactions[%d]: %q is also in addedReactions", i, emoji)
		}
	}
	return e, nil
}

// checkReactions checks a list of emoji reactions, trimmed, without repeats.
func checkReactions(field string, emoji []string) ([]string, error) {
	if len(emoji) > maxReactionsPerUpdate {
		return nil, apperr.Invalidf("%s: at most %d reactions (got %d)", field, maxReactionsPerUpdate, len(emoji))
	}
	out := make([]string, 0, len(emoji))
	for i, e := range emoji {
		e, err := trimmedText(field+"["+strconv.Itoa(i)+"]", e, 1, maxReactionEmoji)
		if err != nil {
			return nil, err
		}
		if strings.ContainsFunc(e, unicode.IsSpace) {
			return nil, apperr.Invalidf("%s[%d]: an emoji has no spaces", field, i)
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// react adds and removes the editor's reactions on a comment or a reply in tx: adding one given
// already, or removing one not given, changes nothing.
func (e discussionEdit) react(ctx context.Context, tx *ent.Tx, t loader.ReactionTarget) error {
	on, column := reaction.TargetCommentID(t.ID), reaction.FieldTargetCommentID
	if t.Reply {
		on, column = reaction.TargetReplyID(t.ID), reaction.FieldTargetReplyID
	}
	if len(e.removed) > 0 {
		_, err := tx.Reaction.Delete().Where(on, reaction.UserID(e.by), reaction.EmojiIn(e.removed...)).Exec(ctx)
		if err != nil {
			return err
		}
	}
	if len(e.added) == 0 {
		return nil
	}
	creates := make([]*ent.ReactionCreate, len(e.added))
	for i, emoji := range e.added {
		c := tx.Reaction.Create().SetOrganizationID(e.space.OrganizationID).SetSpaceID(e.space.ID).
			SetUserID(e.by).SetEmoji(emoji).SetCreatedAt(e.at)
		if t.Reply {
			c.SetTargetReplyID(t.ID)
		} else {
			c.SetTargetCommentID(t.ID)
		}
		creates[i] = c
	}
	err := tx.Reaction.CreateBulk(creates...).
		OnConflictColumns(column, reaction.FieldUserID, reaction.FieldEmoji).DoNothing().Exec(ctx)
	if isNoRows(err) {
		return nil // every reaction was there already
	}
	return err
}
