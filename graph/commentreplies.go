package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/comments"
	"github.com/binderyhq/bindery/internal/page"
)

// Replies to comments: lists read through the request's loaders, writes by internal/comments.

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

// ReadCommentReply returns a reply to a comment (comments.Service.ReadReply).
func (r *Resolver) ReadCommentReply(ctx context.Context, spaceID string, crRef *string, commentID, id string) (*ent.CommentReply, error) {
	return r.commentService().ReadReply(ctx, spaceID, crRef, commentID, id)
}

// commentReply is Comment.reply: nil when the comment has no reply by that id.
func (r *Resolver) commentReply(ctx context.Context, c *ent.Comment, id string) (*ent.CommentReply, error) {
	reply, err := r.commentService().Reply(ctx, c, id)
	if apperr.IsNotFound(err) {
		return nil, nil
	}
	return reply, err
}

// PostCommentReply is Mutation.postCommentReply (comments.Service.PostReply).
func (r *Resolver) PostCommentReply(ctx context.Context, spaceID string, crRef *string, commentID string, body *string, doc any) (*ent.CommentReply, error) {
	md, err := commentMarkdown(body, doc)
	if err != nil {
		return nil, err
	}
	if md == nil {
		return nil, apperr.Invalidf("body: is required (or document)")
	}
	return r.commentService().PostReply(ctx, spaceID, crRef, commentID, *md)
}

// UpdateCommentReply is Mutation.updateCommentReply (comments.Service.UpdateReply).
func (r *Resolver) UpdateCommentReply(ctx context.Context, spaceID string, crRef *string, commentID, id string, in model.UpdateCommentReplyInput) (*ent.CommentReply, error) {
	body, err := commentMarkdown(in.Body, in.Document)
	if err != nil {
		return nil, err
	}
	return r.commentService().UpdateReply(ctx, spaceID, crRef, commentID, id,
		comments.Edit{Body: body, AddedReactions: in.AddedReactions, RemovedReactions: in.RemovedReactions})
}

// DeleteCommentReply is Mutation.deleteCommentReply (comments.Service.DeleteReply).
func (r *Resolver) DeleteCommentReply(ctx context.Context, spaceID string, crRef *string, commentID, id string) (bool, error) {
	return r.commentService().DeleteReply(ctx, spaceID, crRef, commentID, id)
}
