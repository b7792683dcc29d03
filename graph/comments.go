package graph

import (
	"context"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/comments"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/page"
)

// Comments translate between GraphQL (and REST, which calls these resolvers) and
// internal/comments, which holds their rules; lists are read here, through the request's loaders.

// commentService is the comments as this resolver's viewer reads and writes them.
func (r *Resolver) commentService() *comments.Service {
	return &comments.Service{Client: r.Client, Now: r.now, Space: r.space, ChangeRequest: r.changeRequest,
		RevisionTree: func(ctx context.Context, revisionID string) (*tree.Tree, error) {
			return treeOf(ctx, r, revisionID, identity)
		},
		PageBody: r.PageBody}
}

// changeRequestScope is the comment scope of a change request read before (a GraphQL parent).
func (r *Resolver) changeRequestScope(ctx context.Context, cr *ent.ChangeRequest) (comments.Scope, error) {
	s, err := r.changeRequestSpace(ctx, cr)
	return comments.Scope{Space: s, ChangeRequest: cr}, err
}

// changeRequestComments is ChangeRequest.comments.
func (r *Resolver) changeRequestComments(ctx context.Context, cr *ent.ChangeRequest, a CommentListArgs) (*model.CommentConnection, error) {
	sc, err := r.changeRequestScope(ctx, cr)
	if err != nil {
		return nil, err
	}
	return r.comments(ctx, sc, a)
}

// changeRequestComment is ChangeRequest.comment: nil when there is none by that id.
func (r *Resolver) changeRequestComment(ctx context.Context, cr *ent.ChangeRequest, id string) (*ent.Comment, error) {
	sc, err := r.changeRequestScope(ctx, cr)
	if err != nil {
		return nil, err
	}
	return r.scopedComment(ctx, sc, id)
}

// CommentListArgs are the REST and GraphQL arguments of a comment list.
type CommentListArgs struct {
	Order      *model.SortOrder // DESC (newest first) when nil
	Status     *comment.Status  // nil for both
	TargetPage *string
	Authors    []string
	First      *int
	After      *string
}

// ListComments lists the comments of a space's own content, or of its change request (id or
// number) when crRef is given. Returns NOT_FOUND when the viewer cannot read them, INVALID for a
// bad page, limit or filter.
func (r *Resolver) ListComments(ctx context.Context, spaceID string, crRef *string, a CommentListArgs) (*model.CommentConnection, error) {
	sc, err := r.commentService().ScopeOf(ctx, spaceID, crRef)
	if err != nil {
		return nil, err
	}
	return r.comments(ctx, sc, a)
}

// comments is Space.comments and ChangeRequest.comments: a page read through the request's
// loaders, so the lists of a level are read together.
func (r *Resolver) comments(ctx context.Context, sc comments.Scope, a CommentListArgs) (*model.CommentConnection, error) {
	args, err := listArgs(ctx, a.First, a.After)
	if err != nil {
		return nil, err
	}
	f, err := commentFilter(a)
	if err != nil {
		return nil, err
	}
	l := loader.For(ctx, r.Client)
	var p loader.Page[*ent.Comment]
	if sc.ChangeRequest != nil {
		p, err = l.ChangeRequestCommentPage(ctx, sc.ChangeRequest, f, args)
	} else {
		p, err = l.SpaceCommentPage(ctx, sc.Space, f, args)
	}
	if err != nil {
		return nil, err
	}
	sc.Attach(p.Items...)
	return &model.CommentConnection{
		Edges: edges(ctx, p.Items, commentCursor, func(c string, n *ent.Comment) *model.CommentEdge {
			return &model.CommentEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func commentCursor(c *ent.Comment) page.Cursor { return page.Cursor{Key: c.CreatedAt, ID: c.ID} }

// commentFilter is a list's filter, checked (comments.CheckFilter). Returns INVALID naming a bad
// one.
func commentFilter(a CommentListArgs) (loader.CommentFilter, error) {
	f := loader.CommentFilter{Asc: a.Order != nil && *a.Order == model.SortOrderAsc}
	if a.Status != nil {
		f.Status = *a.Status
	}
	checked, err := comments.CheckFilter(derefOr(a.TargetPage, ""), a.Authors)
	f.Page, f.Authors = checked.Page, strings.Join(checked.Authors, comments.AuthorSeparator)
	return f, err
}

// ReadComment returns a comment of a space's own content, or of its change request when crRef is
// given (comments.Service.Read).
func (r *Resolver) ReadComment(ctx context.Context, spaceID string, crRef *string, id string) (*ent.Comment, error) {
	return r.commentService().Read(ctx, spaceID, crRef, id)
}

// scopedComment is Space.comment and ChangeRequest.comment: nil when there is none by that id.
func (r *Resolver) scopedComment(ctx context.Context, sc comments.Scope, id string) (*ent.Comment, error) {
	c, err := r.commentService().In(ctx, sc, id)
	if apperr.IsNotFound(err) {
		return nil, nil
	}
	return c, err
}

// PostComment is Mutation.postComment (comments.Service.Post).
func (r *Resolver) PostComment(ctx context.Context, spaceID string, crRef *string, in model.PostCommentInput) (*ent.Comment, error) {
	body, err := commentMarkdown(in.Body, in.Document)
	if err != nil {
		return nil, err
	}
	if body == nil {
		return nil, apperr.Invalidf("body: is required (or document)")
	}
	return r.commentService().Post(ctx, spaceID, crRef, comments.PostInput{Body: *body, Page: in.Page, Node: in.Node})
}

// UpdateComment is Mutation.updateComment (comments.Service.Update).
func (r *Resolver) UpdateComment(ctx context.Context, spaceID string, crRef *string, id string, in model.UpdateCommentInput) (*ent.Comment, error) {
	body, err := commentMarkdown(in.Body, in.Document)
	if err != nil {
		return nil, err
	}
	return r.commentService().Update(ctx, spaceID, crRef, id, in.Resolved,
		comments.Edit{Body: body, AddedReactions: in.AddedReactions, RemovedReactions: in.RemovedReactions})
}

// commentMarkdown is the Markdown a comment's or a reply's body is stored as: body, or the JSON
// document encoded (document.MarkdownOf); nil for neither, INVALID for both.
func commentMarkdown(body *string, doc any) (*string, error) {
	switch {
	case doc == nil:
		return body, nil
	case body != nil:
		return nil, apperr.Invalidf("body: give the body as markdown or as a JSON document, not both")
	}
	md, err := document.MarkdownOf(doc)
	if err != nil {
		return nil, apperr.Invalidf("body.document: %v", err)
	}
	return &md, nil
}

// DeleteComment is Mutation.deleteComment (comments.Service.Delete).
func (r *Resolver) DeleteComment(ctx context.Context, spaceID string, crRef *string, id string) (bool, error) {
	return r.commentService().Delete(ctx, spaceID, crRef, id)
}
