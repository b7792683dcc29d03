package model

import (
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/comment"
)

// MarshalCommentStatus writes a comment status as its GraphQL enum value.
func MarshalCommentStatus(s comment.Status) graphql.Marshaler {
	return marshalEnum(string(s))
}

// UnmarshalCommentStatus reads a GraphQL enum value into a comment status.
func UnmarshalCommentStatus(v any) (comment.Status, error) {
	return unmarshalChecked(v, comment.StatusValidator, "comment status (OPEN or RESOLVED)")
}

// CommentTarget is what a comment is attached to. Its page, with the outdated flag that compares
// two revisions' trees, is resolved only when asked for.
type CommentTarget struct{ Comment *ent.Comment }

// SpaceID is the space of the comment.
func (t CommentTarget) SpaceID() string { return t.Comment.SpaceID }

// ChangeRequestID is the change request the comment is on, nil for the space's own content.
func (t CommentTarget) ChangeRequestID() *string { return t.Comment.ChangeRequestID }

// RevisionID is the revision the comment was posted on.
func (t CommentTarget) RevisionID() *string { return t.Comment.RevisionID }

// NodeID is the node of the page the comment is on, nil for none.
func (t CommentTarget) NodeID() *string { return t.Comment.NodeID }

// ReviewID is the review the comment was posted with, nil for a comment of its own.
func (t CommentTarget) ReviewID() *string { return t.Comment.ReviewID }

// EmojiReaction is one emoji given to a comment or a reply, with who gave it and when, first
// first.
type EmojiReaction struct {
	Emoji string
	Count int
	Users []*ReactionUser
}

// ReactionUser is one user's reaction; the user is looked up only when asked for.
type ReactionUser struct {
	UserID    string
	ReactedAt time.Time
}

// CommentReplier is someone who replied to a comment: how often, and when last.
type CommentReplier struct {
	UserID    string
	Count     int
	UpdatedAt time.Time
}

// Nodes returns the comments of the page.
func (c *CommentConnection) Nodes() []*ent.Comment {
	return nodesOf(c.Edges, func(e *CommentEdge) *ent.Comment { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *CommentConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the replies of the page.
func (c *CommentReplyConnection) Nodes() []*ent.CommentReply {
	return nodesOf(c.Edges, func(e *CommentReplyEdge) *ent.CommentReply { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *CommentReplyConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
