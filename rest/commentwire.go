package rest

import (
	"context"
	"encoding/json"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

// Comment is the wire shape of a comment (reference Comment). resolvedAt and resolvedBy come with
// status resolved; postedBy and resolvedBy are absent only if the account is gone.
type Comment struct {
	Object      string                    `json:"object"`
	ID          string                    `json:"id"`
	Status      string                    `json:"status"`
	PostedBy    *User                     `json:"postedBy,omitempty"`
	PostedAt    time.Time                 `json:"postedAt"`
	EditedAt    *time.Time                `json:"editedAt,omitempty"`
	ResolvedAt  *time.Time                `json:"resolvedAt,omitempty"`
	ResolvedBy  *User                     `json:"resolvedBy,omitempty"`
	Reactions   []EmojiReaction           `json:"reactions"`
	Replies     int                       `json:"replies"`
	Repliers    []UserContributor         `json:"repliers"`
	Body        commentBody               `json:"body"`
	Target      CommentTarget             `json:"target"`
	URLs        urls                      `json:"urls"`
	Permissions *model.CommentPermissions `json:"permissions"`
}

// CommentReply is the wire shape of a reply (reference CommentReply).
type CommentReply struct {
	Object      string                    `json:"object"`
	ID          string                    `json:"id"`
	PostedBy    *User                     `json:"postedBy,omitempty"`
	PostedAt    time.Time                 `json:"postedAt"`
	EditedAt    *time.Time                `json:"editedAt,omitempty"`
	Reactions   []EmojiReaction           `json:"reactions"`
	Body        commentBody               `json:"body"`
	URLs        urls                      `json:"urls"`
	Permissions *model.CommentPermissions `json:"permissions"`
}

// commentBody is the body of a comment or a reply (reference Document): Markdown, the form
// Bindery stores, or the reference's JSON document, read and written through graph's conversion.
type commentBody struct {
	Markdown *string         `json:"markdown,omitempty"`
	Document json.RawMessage `json:"document,omitempty"`
}

// UnmarshalJSON reads {markdown} or {document}.
func (b *commentBody) UnmarshalJSON(data []byte) error {
	var v struct {
		Markdown *string         `json:"markdown"`
		Document json.RawMessage `json:"document"`
	}
	if json.Unmarshal(data, &v) != nil || (v.Markdown == nil && v.Document == nil) {
		return invalidValue("must be an object {markdown: string} or {document: JSON document}")
	}
	b.Markdown, b.Document = v.Markdown, v.Document
	return nil
}

// document is the body as GraphQL's JSON input takes it: nil without one.
func (b *commentBody) document() any {
	if b == nil || b.Document == nil {
		return nil
	}
	return b.Document
}

// bodyAs is a stored Markdown body in the format a comment route was asked for: the JSON
// document with format=document, else the Markdown.
func bodyAs(format, markdown string, asDocument func() (any, error)) (commentBody, error) {
	if format != "document" {
		return commentBody{Markdown: &markdown}, nil
	}
	doc, err := asDocument()
	if err != nil {
		return commentBody{}, err
	}
	raw, err := json.Marshal(doc)
	return commentBody{Document: raw}, err
}

// CommentTarget says what a comment is attached to (reference Comment.target).
type CommentTarget struct {
	Space         string             `json:"space"`
	Revision      string             `json:"revision"`
	ChangeRequest *string            `json:"changeRequest,omitempty"`
	Review        *string            `json:"review,omitempty"` // the review it was posted with
	Page          *CommentTargetPage `json:"page,omitempty"`
	Node          *commentNode       `json:"node,omitempty"`
}

// CommentTargetPage is the page a comment is on, as it is now (or was, if it is gone).
type CommentTargetPage struct {
	ID        string     `json:"id"`
	Title     string     `json:"title"`
	Emoji     string     `json:"emoji,omitempty"`
	Path      string     `json:"path"`
	CreatedAt *time.Time `json:"createdAt,omitempty"`
	UpdatedAt *time.Time `json:"updatedAt,omitempty"`
	Outdated  bool       `json:"outdated"`
}

type commentNode struct {
	ID string `json:"id"`
}

// EmojiReaction is one emoji given to a comment or a reply (reference EmojiReaction).
type EmojiReaction struct {
	Emoji string         `json:"emoji"`
	Count int            `json:"count"`
	Users []reactionUser `json:"users"`
}

type reactionUser struct {
	User      User      `json:"user"`
	ReactedAt time.Time `json:"reactedAt"`
}

// UserContributor is someone who replied to a comment (reference UserContributor).
type UserContributor struct {
	UpdatedAt time.Time `json:"updatedAt"`
	Count     int       `json:"count"`
	User      User      `json:"user"`
}

// commentLocation is the API address of a comment: under its change request, if it is on one.
func (a *api) commentLocation(c *ent.Comment) string {
	base := "/v1/spaces/" + c.SpaceID
	if c.ChangeRequestID != nil {
		base += "/change-requests/" + *c.ChangeRequestID
	}
	return a.url(base + "/comments/" + c.ID)
}

// comment converts comments with their bodies in format (commentPath.format).
func (a *api) comment(format string) func(context.Context, *ent.Comment) (Comment, error) {
	return func(ctx context.Context, c *ent.Comment) (Comment, error) { return a.commentIn(ctx, c, format) }
}

func (a *api) commentIn(ctx context.Context, c *ent.Comment, format string) (Comment, error) {
	fields := a.r.Comment()
	body, err := bodyAs(format, c.BodyMarkdown, func() (any, error) { return fields.Document(ctx, c) })
	if err != nil {
		return Comment{}, err
	}
	w := Comment{
		Object: "comment", ID: c.ID, Status: string(c.Status), PostedAt: c.CreatedAt, EditedAt: c.EditedAt,
		ResolvedAt: c.ResolvedAt, Replies: c.RepliesCount, Body: body,
		Target: CommentTarget{Space: c.SpaceID, Revision: derefString(c.RevisionID), ChangeRequest: c.ChangeRequestID, Review: c.ReviewID},
		URLs:   urls{Location: a.commentLocation(c)},
	}
	if c.NodeID != nil {
		w.Target.Node = &commentNode{ID: *c.NodeID}
	}
	err = parallel(
		func() (err error) { w.PostedBy, err = a.optUser(fields.PostedBy(ctx, c)); return err },
		func() (err error) { w.ResolvedBy, err = a.optUser(fields.ResolvedBy(ctx, c)); return err },
		func() (err error) { w.Permissions, err = fields.Permissions(ctx, c); return err },
		func() (err error) { w.Reactions, err = a.emojiReactions(ctx)(fields.Reactions(ctx, c)); return err },
		func() (err error) { w.Repliers, err = a.repliers(ctx, c); return err },
		func() (err error) { w.Target.Page, err = a.commentTargetPage(ctx, c); return err },
	)
	return w, err
}

// commentReply converts replies with their bodies in format (commentPath.format).
func (a *api) commentReply(format string) func(context.Context, *ent.CommentReply) (CommentReply, error) {
	return func(ctx context.Context, reply *ent.CommentReply) (CommentReply, error) {
		return a.commentReplyIn(ctx, reply, format)
	}
}

func (a *api) commentReplyIn(ctx context.Context, reply *ent.CommentReply, format string) (CommentReply, error) {
	fields := a.r.CommentReply()
	body, err := bodyAs(format, reply.BodyMarkdown, func() (any, error) { return fields.Document(ctx, reply) })
	if err != nil {
		return CommentReply{}, err
	}
	w := CommentReply{
		Object: "comment-reply", ID: reply.ID, PostedAt: reply.CreatedAt, EditedAt: reply.EditedAt, Body: body,
	}
	err = parallel(
		func() (err error) { w.PostedBy, err = a.optUser(fields.PostedBy(ctx, reply)); return err },
		func() (err error) { w.Permissions, err = fields.Permissions(ctx, reply); return err },
		func() (err error) { w.Reactions, err = a.emojiReactions(ctx)(fields.Reactions(ctx, reply)); return err },
		func() error {
			c, err := a.r.ReplyComment(ctx, reply)
			if err == nil {
				w.URLs.Location = a.commentLocation(c) + "/replies/" + reply.ID
			}
			return err
		},
	)
	return w, err
}

func (a *api) commentTargetPage(ctx context.Context, c *ent.Comment) (*CommentTargetPage, error) {
	p, err := a.r.CommentTarget().Page(ctx, &model.CommentTarget{Comment: c})
	if p == nil || err != nil {
		return nil, err
	}
	return &CommentTargetPage{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Path: p.Path,
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, Outdated: p.Outdated}, nil
}

// emojiReactions converts a reactions summary a field resolver returned, the users of every
// reaction looked up together.
func (a *api) emojiReactions(ctx context.Context) func([]*model.EmojiReaction, error) ([]EmojiReaction, error) {
	return func(summary []*model.EmojiReaction, err error) ([]EmojiReaction, error) {
		if err != nil {
			return nil, err
		}
		return convertAll(ctx, summary, func(ctx context.Context, e *model.EmojiReaction) (EmojiReaction, error) {
			users, err := convertAll(ctx, e.Users, a.reactionUser)
			return EmojiReaction{Emoji: e.Emoji, Count: e.Count, Users: users}, err
		})
	}
}

func (a *api) reactionUser(ctx context.Context, ru *model.ReactionUser) (reactionUser, error) {
	u, err := a.r.ReactionUser().User(ctx, ru)
	return reactionUser{User: a.knownUser(ru.UserID, u), ReactedAt: ru.ReactedAt}, err
}

func (a *api) repliers(ctx context.Context, c *ent.Comment) ([]UserContributor, error) {
	rs, err := a.r.Comment().Repliers(ctx, c)
	if err != nil {
		return nil, err
	}
	return convertAll(ctx, rs, func(ctx context.Context, rp *model.CommentReplier) (UserContributor, error) {
		u, err := a.r.CommentReplier().User(ctx, rp)
		return UserContributor{UpdatedAt: rp.UpdatedAt, Count: rp.Count, User: a.knownUser(rp.UserID, u)}, err
	})
}

// knownUser converts a looked-up user; one whose account is gone comes as their id alone, since
// these lists need a user in every entry.
func (a *api) knownUser(id string, u *ent.User) User {
	if u == nil {
		u = &ent.User{ID: id}
	}
	return a.user(u)
}

func derefString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
