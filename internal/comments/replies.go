package comments

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/commentreply"
	"github.com/binderyhq/bindery/ent/reaction"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/txn"
)

// Replies to comments, and the edits comments and replies share: body edits and reactions.

const (
	// maxReactionsPerUpdate bounds addedReactions and removedReactions, each.
	maxReactionsPerUpdate = 50
	// maxReactionEmoji bounds one reaction's emoji, in characters (the column's size).
	maxReactionEmoji = 32
)

// ReadReply returns a reply to a comment. Returns NOT_FOUND when the viewer cannot read it or it
// is not there.
func (svc *Service) ReadReply(ctx context.Context, spaceID string, crRef *string, commentID, id string) (*ent.CommentReply, error) {
	c, err := svc.Read(ctx, spaceID, crRef, commentID)
	if err != nil {
		return nil, err
	}
	return svc.Reply(ctx, c, id)
}

// Reply returns a reply to the comment. Returns NOT_FOUND when it has none by that id.
func (svc *Service) Reply(ctx context.Context, c *ent.Comment, id string) (*ent.CommentReply, error) {
	reply, err := svc.findReply(ctx, c, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("reply not found")
	}
	return reply, err
}

// findReply is Reply with ent's own not-found error.
func (svc *Service) findReply(ctx context.Context, c *ent.Comment, id string) (*ent.CommentReply, error) {
	reply, err := svc.Client.CommentReply.Query().Where(commentreply.ID(id), commentreply.CommentID(c.ID)).Only(ctx)
	if err != nil {
		return nil, err
	}
	reply.Edges.Comment = c
	return reply, nil
}

// PostReply replies to a comment. It takes the comment role on the space (NOT_FOUND when the
// viewer cannot read the comment, FORBIDDEN below comment); INVALID for an empty or too long
// body. The comment's reply count follows in the same transaction.
func (svc *Service) PostReply(ctx context.Context, spaceID string, crRef *string, commentID, body string) (*ent.CommentReply, error) {
	c, _, err := svc.writable(ctx, spaceID, crRef, commentID)
	if err != nil {
		return nil, err
	}
	if err := checkBody("body", body); err != nil {
		return nil, err
	}
	var id string
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		reply, err := tx.CommentReply.Create().SetOrganizationID(c.OrganizationID).SetSpaceID(c.SpaceID).
			SetCommentID(c.ID).SetPostedBy(viewer.FromContext(ctx).UserID).SetBodyMarkdown(body).Save(ctx)
		if err != nil {
			return err
		}
		id = reply.ID
		if err := tx.Comment.UpdateOneID(c.ID).AddRepliesCount(1).Exec(ctx); err != nil {
			return err
		}
		return recordComment(ctx, tx, events.CommentReplyCreated, c, reply.ID)
	})
	if err != nil {
		return nil, err
	}
	return svc.Reply(ctx, c, id)
}

// writableReply reads a reply to change, with the viewer's permissions on it: as writable reads
// its comment, and NOT_FOUND when the comment has no such reply.
func (svc *Service) writableReply(ctx context.Context, spaceID string, crRef *string, commentID, id string) (*ent.CommentReply, Permissions, error) {
	c, _, err := svc.writable(ctx, spaceID, crRef, commentID)
	if err != nil {
		return nil, Permissions{}, err
	}
	reply, err := svc.Reply(ctx, c, id)
	if err != nil {
		return nil, Permissions{}, err
	}
	perms, err := permissions(ctx, c.Edges.Space, reply.PostedBy)
	return reply, perms, err
}

// UpdateReply replaces a reply's body (its author only) and adds or removes the viewer's
// reactions, in one transaction. Returns NOT_FOUND, FORBIDDEN or INVALID as Update.
func (svc *Service) UpdateReply(ctx context.Context, spaceID string, crRef *string, commentID, id string, in Edit) (*ent.CommentReply, error) {
	reply, perms, err := svc.writableReply(ctx, spaceID, crRef, commentID, id)
	if err != nil {
		return nil, err
	}
	c := reply.Edges.Comment
	e, err := svc.checkEdit(ctx, c.Edges.Space, perms, in)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if in.Body != nil {
			if err := tx.CommentReply.UpdateOneID(reply.ID).SetBodyMarkdown(*in.Body).SetEditedAt(e.at).Exec(ctx); err != nil {
				return err
			}
		}
		if err := e.react(ctx, tx, reactionTarget{id: reply.ID, reply: true}); err != nil {
			return err
		}
		return recordComment(ctx, tx, events.CommentReplyUpdated, c, reply.ID)
	})
	if err != nil {
		return nil, err
	}
	return svc.Reply(ctx, c, reply.ID)
}

// DeleteReply deletes a reply with its reactions: its author with the comment role, or an admin
// of the space, may. Returns false when the comment has no such reply (anymore); NOT_FOUND when
// the viewer cannot read the comment, FORBIDDEN below the comment role or for someone else's
// reply.
func (svc *Service) DeleteReply(ctx context.Context, spaceID string, crRef *string, commentID, id string) (bool, error) {
	c, _, err := svc.writable(ctx, spaceID, crRef, commentID)
	if err != nil {
		return false, err
	}
	reply, err := svc.findReply(ctx, c, id)
	if ent.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := requireDelete(ctx, c.Edges.Space, reply.PostedBy); err != nil {
		return false, err
	}
	deleted := false
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		n, err := tx.CommentReply.Delete().Where(commentreply.ID(reply.ID)).Exec(ctx)
		if err != nil || n == 0 {
			return err // n == 0: a concurrent delete took it, and counted
		}
		deleted = true
		if err := tx.Comment.UpdateOneID(c.ID).AddRepliesCount(-1).Exec(ctx); err != nil {
			return err
		}
		return recordComment(ctx, tx, events.CommentReplyDeleted, c, reply.ID)
	})
	return deleted, err
}

// Edit is a change to a comment or a reply: a new body (nil keeps it), and the emoji reactions
// the viewer adds and removes.
type Edit struct {
	Body                             *string
	AddedReactions, RemovedReactions []string
}

// checkedEdit is a checked change to a comment or a reply of a space: who makes it and when, and
// the emoji reactions it adds and removes in their name.
type checkedEdit struct {
	space          *ent.Space
	by             string
	at             time.Time
	added, removed []string
}

// checkEdit checks a change to a comment or a reply before anything is written: a body edit
// takes being its author (FORBIDDEN otherwise) and some text; reactions are 1..32 characters, at
// most 50 each way, none both added and removed. Returns INVALID naming the field.
func (svc *Service) checkEdit(ctx context.Context, s *ent.Space, perms Permissions, in Edit) (checkedEdit, error) {
	if in.Body != nil {
		if !perms.Edit {
			return checkedEdit{}, apperr.Forbiddenf("only its author may edit a comment or a reply")
		}
		if err := checkBody("body", *in.Body); err != nil {
			return checkedEdit{}, err
		}
	}
	e := checkedEdit{space: s, by: viewer.FromContext(ctx).UserID, at: svc.Now(ctx)}
	var err error
	if e.added, err = checkReactions("addedReactions", in.AddedReactions); err != nil {
		return e, err
	}
	if e.removed, err = checkReactions("removedReactions", in.RemovedReactions); err != nil {
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
		e, err := check.Trimmed(field+"["+strconv.Itoa(i)+"]", e, 1, maxReactionEmoji)
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

// reactionTarget names a comment (reply false) or a reply (reply true) that reactions are given to.
type reactionTarget struct {
	id    string
	reply bool
}

// react adds and removes the editor's reactions on a comment or a reply in tx: adding one given
// already, or removing one not given, changes nothing.
func (e checkedEdit) react(ctx context.Context, tx *ent.Tx, t reactionTarget) error {
	on, column := reaction.TargetCommentID(t.id), reaction.FieldTargetCommentID
	if t.reply {
		on, column = reaction.TargetReplyID(t.id), reaction.FieldTargetReplyID
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
		if t.reply {
			c.SetTargetReplyID(t.id)
		} else {
			c.SetTargetCommentID(t.id)
		}
		creates[i] = c
	}
	err := tx.Reaction.CreateBulk(creates...).
		OnConflictColumns(column, reaction.FieldUserID, reaction.FieldEmoji).DoNothing().Exec(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // every reaction was there already (PostgreSQL's DO NOTHING returns no rows)
	}
	return err
}
