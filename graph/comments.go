package graph

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/txn"
)

// Comments: discussions on a space's own content or on a change request, maybe on one page of it
// (and a node of that page), with replies and emoji reactions. Whoever reads the space reads
// them; the comment role and up post, reply, react, resolve and reopen; authors edit their own;
// authors and admins of the space delete. The open comments are counted on the space (its own
// content's) or on the change request, in the transaction of every write that changes them.

const (
	// maxCommentBody bounds the Markdown of a comment or a reply, in characters.
	maxCommentBody = 20000
	// maxTargetID bounds a page or node id a comment is posted on (the column's size).
	maxTargetID = 64
	// maxAuthorsFilter bounds the authors a comment list filters on.
	maxAuthorsFilter = 50
)

// commentScope is where comments are: a space's own content, or one of its change requests.
type commentScope struct {
	space         *ent.Space
	changeRequest *ent.ChangeRequest // nil for the space's own content
}

// commentScopeOf reads the space, and its change request (by id or number) when crRef is given,
// whose comments are read or written. Returns NOT_FOUND when the viewer cannot read them.
func (r *Resolver) commentScopeOf(ctx context.Context, spaceID string, crRef *string) (commentScope, error) {
	s, err := r.space(ctx, spaceID)
	if err != nil || crRef == nil {
		return commentScope{space: s}, err
	}
	cr, err := r.changeRequest(ctx, s.ID, *crRef)
	if err != nil {
		return commentScope{}, err
	}
	cr.Edges.Space = s
	return commentScope{space: s, changeRequest: cr}, nil
}

// changeRequestScope is the comment scope of a change request read before (a GraphQL parent).
func (r *Resolver) changeRequestScope(ctx context.Context, cr *ent.ChangeRequest) (commentScope, error) {
	s, err := r.changeRequestSpace(ctx, cr)
	return commentScope{space: s, changeRequest: cr}, err
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

// has matches the comments of the scope.
func (sc commentScope) has() predicate.Comment {
	if sc.changeRequest != nil {
		return comment.ChangeRequestID(sc.changeRequest.ID)
	}
	return comment.And(comment.SpaceID(sc.space.ID), comment.ChangeRequestIDIsNil())
}

// revisionID is the revision a comment posted now is posted on: the change request's or the
// space's active revision.
func (sc commentScope) revisionID() *string {
	if sc.changeRequest != nil {
		return &sc.changeRequest.RevisionID
	}
	return sc.space.RevisionID
}

// attach records the scope on comments read in it, for their target and permissions.
func (sc commentScope) attach(comments ...*ent.Comment) {
	for _, c := range comments {
		c.Edges.Space, c.Edges.ChangeRequest = sc.space, sc.changeRequest
	}
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
	sc, err := r.commentScopeOf(ctx, spaceID, crRef)
	if err != nil {
		return nil, err
	}
	return r.comments(ctx, sc, a)
}

// comments is Space.comments and ChangeRequest.comments.
func (r *Resolver) comments(ctx context.Context, sc commentScope, a CommentListArgs) (*model.CommentConnection, error) {
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
	if sc.changeRequest != nil {
		p, err = l.ChangeRequestCommentPage(ctx, sc.changeRequest, f, args)
	} else {
		p, err = l.SpaceCommentPage(ctx, sc.space, f, args)
	}
	if err != nil {
		return nil, err
	}
	sc.attach(p.Items...)
	return &model.CommentConnection{
		Edges: edges(ctx, p.Items, commentCursor, func(c string, n *ent.Comment) *model.CommentEdge {
			return &model.CommentEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// isNotFound reports whether err is a NOT_FOUND answer.
func isNotFound(err error) bool {
	e := apperr.As(err)
	return e != nil && e.Kind == apperr.NotFound
}

func commentCursor(c *ent.Comment) page.Cursor { return page.Cursor{Key: c.CreatedAt, ID: c.ID} }

// commentFilter checks a list's filters. Returns INVALID naming a bad one.
func commentFilter(a CommentListArgs) (loader.CommentFilter, error) {
	f := loader.CommentFilter{Asc: a.Order != nil && *a.Order == model.SortOrderAsc}
	if a.Status != nil {
		f.Status = *a.Status
	}
	var err error
	if f.Page, err = trimmedText("targetPage", derefOr(a.TargetPage, ""), 0, maxTargetID); err != nil {
		return f, err
	}
	authors, err := authorIDs(a.Authors)
	f.Authors = strings.Join(authors, loader.AuthorSeparator)
	return f, err
}

// authorIDs checks the user ids of an authors filter: at most 50, trimmed, sorted without
// repeats, empty ones left out. Returns INVALID naming a bad one.
func authorIDs(ids []string) ([]string, error) {
	if len(ids) > maxAuthorsFilter {
		return nil, apperr.Invalidf("authors: at most %d users (got %d)", maxAuthorsFilter, len(ids))
	}
	out := make([]string, 0, len(ids))
	for i, id := range ids {
		field := "authors[" + strconv.Itoa(i) + "]"
		ref, err := userRef(field, &id)
		if err != nil {
			return nil, err
		}
		if strings.Contains(ref, loader.AuthorSeparator) {
			return nil, apperr.Invalidf("%s: %q is not a user id", field, truncate(ref, check.MaxUserRef))
		}
		if ref != "" {
			out = append(out, ref)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// ReadComment returns a comment of a space's own content, or of its change request when crRef is
// given. Returns NOT_FOUND when the viewer cannot read it or it is not there.
func (r *Resolver) ReadComment(ctx context.Context, spaceID string, crRef *string, id string) (*ent.Comment, error) {
	sc, err := r.commentScopeOf(ctx, spaceID, crRef)
	if err != nil {
		return nil, err
	}
	return r.commentIn(ctx, sc, id)
}

// commentIn returns a comment of the scope. Returns NOT_FOUND when it has none by that id.
func (r *Resolver) commentIn(ctx context.Context, sc commentScope, id string) (*ent.Comment, error) {
	c, err := r.Client.Comment.Query().Where(comment.ID(id), sc.has()).Only(ctx)
	if err != nil {
		return nil, notFound(err, "comment")
	}
	sc.attach(c)
	return c, nil
}

// scopedComment is Space.comment and ChangeRequest.comment: nil when there is none by that id.
func (r *Resolver) scopedComment(ctx context.Context, sc commentScope, id string) (*ent.Comment, error) {
	c, err := r.commentIn(ctx, sc, id)
	if isNotFound(err) {
		return nil, nil
	}
	return c, err
}

// PostComment posts a comment on a space's own content, or on its change request (id or number)
// when crRef is given: on the whole, or on a page of the content as it is now (and a node of
// that page). It takes the comment role on the space (NOT_FOUND when the viewer cannot read it,
// FORBIDDEN below comment); INVALID for an empty or too long body, a page the content does not
// have, or a node without a page.
func (r *Resolver) PostComment(ctx context.Context, spaceID string, crRef *string, in model.PostCommentInput) (*ent.Comment, error) {
	v, err := viewerOf(ctx)
	if err != nil {
		return nil, err
	}
	sc, err := r.commentScopeOf(ctx, spaceID, crRef)
	if err != nil {
		return nil, err
	}
	if err := rule.RequireSpaceRole(ctx, sc.space, viewer.RoleComment, "comment"); err != nil {
		return nil, err
	}
	if err := checkCommentBody("body", in.Body); err != nil {
		return nil, err
	}
	if err := r.checkCommentTarget(ctx, sc, in.Page, in.Node); err != nil {
		return nil, err
	}
	var id string
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		c, err := tx.Comment.Create().SetOrganizationID(sc.space.OrganizationID).SetSpaceID(sc.space.ID).
			SetNillableChangeRequestID(changeRequestIDOf(sc)).SetNillableRevisionID(sc.revisionID()).
			SetNillablePageID(in.Page).SetNillableNodeID(in.Node).
			SetPostedBy(v.UserID).SetBodyMarkdown(in.Body).Save(ctx)
		if err != nil {
			return err
		}
		id = c.ID
		return countOpenComments(ctx, tx, c, 1)
	})
	if err != nil {
		return nil, err
	}
	return r.commentIn(ctx, sc, id)
}

func changeRequestIDOf(sc commentScope) *string {
	if sc.changeRequest == nil {
		return nil
	}
	return &sc.changeRequest.ID
}

// checkCommentBody checks the Markdown of a comment or a reply: some text, at most 20,000
// characters. Returns INVALID naming the field.
func checkCommentBody(field, body string) error {
	if err := checkText(field, body, 0, maxCommentBody); err != nil {
		return err
	}
	if strings.TrimSpace(body) == "" {
		return apperr.Invalidf("%s: must not be empty", field)
	}
	return nil
}

// checkCommentTarget checks the page and node a comment is posted on: the page must be in the
// content the comment is posted on, and a node is a section of it, named by its heading's anchor
// (pages are Markdown: their sections, which search results link to, are what a comment can point
// at inside one). Returns INVALID naming the field.
func (r *Resolver) checkCommentTarget(ctx context.Context, sc commentScope, pageID, node *string) error {
	if node != nil {
		if pageID == nil {
			return apperr.Invalidf("node: a node is inside a page: give page too")
		}
		if err := checkText("node", *node, 1, maxTargetID); err != nil {
			return err
		}
	}
	if pageID == nil {
		return nil
	}
	if err := checkText("page", *pageID, 1, maxTargetID); err != nil {
		return err
	}
	t, err := treeOf(ctx, r, derefOr(sc.revisionID(), ""), identity)
	if err != nil {
		return err
	}
	var p *tree.Page
	if t != nil {
		p = t.Page(*pageID)
	}
	if p == nil {
		return apperr.Invalidf("page: the content has no page %q", truncate(*pageID, maxTargetID))
	}
	if node == nil {
		return nil
	}
	return r.checkCommentNode(ctx, p, *node)
}

// checkCommentNode checks that a page has a section whose heading's anchor is node.
func (r *Resolver) checkCommentNode(ctx context.Context, p *tree.Page, node string) error {
	body, err := r.PageBody(ctx, p)
	if err != nil {
		return err
	}
	var anchors []string
	for _, sec := range markdown.Sections(body)[1:] { // the first is the text before any heading
		if sec.Anchor == node {
			return nil
		}
		anchors = append(anchors, sec.Anchor)
	}
	if len(anchors) == 0 {
		return apperr.Invalidf("node: page %q has no headings: a node is the anchor of a heading of its page", p.ID)
	}
	return apperr.Invalidf("node: page %q has no heading with the anchor %q (its anchors: %s)",
		p.ID, truncate(node, maxTargetID), strings.Join(anchors[:min(len(anchors), 10)], ", "))
}

// countOpenComments moves the open comment counter of a comment's change request, or of its
// space for the space's own comments, by delta in tx. The database adds, so concurrent writes
// add up.
func countOpenComments(ctx context.Context, tx *ent.Tx, c *ent.Comment, delta int) error {
	if c.ChangeRequestID != nil {
		return tx.ChangeRequest.UpdateOneID(*c.ChangeRequestID).AddCommentsCount(delta).Exec(ctx)
	}
	return tx.Space.UpdateOneID(c.SpaceID).AddCommentsCount(delta).Exec(ctx)
}

// commenterScope reads the scope a viewer writes comments in. Returns NOT_FOUND unless they read
// it, FORBIDDEN below the comment role on the space.
func (r *Resolver) commenterScope(ctx context.Context, spaceID string, crRef *string) (commentScope, error) {
	sc, err := r.commentScopeOf(ctx, spaceID, crRef)
	if err != nil {
		return sc, err
	}
	return sc, rule.RequireSpaceRole(ctx, sc.space, viewer.RoleComment, "comment")
}

// writableComment reads a comment to change, with the viewer's permissions on it: as
// commenterScope, and NOT_FOUND when the scope has no such comment.
func (r *Resolver) writableComment(ctx context.Context, spaceID string, crRef *string, id string) (*ent.Comment, *model.CommentPermissions, error) {
	sc, err := r.commenterScope(ctx, spaceID, crRef)
	if err != nil {
		return nil, nil, err
	}
	c, err := r.commentIn(ctx, sc, id)
	if err != nil {
		return nil, nil, err
	}
	perms, err := r.discussionPermissions(ctx, sc.space, c.PostedBy)
	return c, perms, err
}

// UpdateComment resolves or reopens a comment, replaces its body (its author only) and adds or
// removes the viewer's reactions, all in one transaction after every check passed. Resolving a
// resolved comment, or reopening an open one, changes nothing. Returns NOT_FOUND, FORBIDDEN (below
// the comment role, or a body edit by someone else) or INVALID (body, reactions).
func (r *Resolver) UpdateComment(ctx context.Context, spaceID string, crRef *string, id string, in model.UpdateCommentInput) (*ent.Comment, error) {
	c, perms, err := r.writableComment(ctx, spaceID, crRef, id)
	if err != nil {
		return nil, err
	}
	e, err := r.checkDiscussionEdit(ctx, c.Edges.Space, perms, in.Body, in.AddedReactions, in.RemovedReactions)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if in.Body != nil {
			if err := tx.Comment.UpdateOneID(c.ID).SetBodyMarkdown(*in.Body).SetEditedAt(e.at).Exec(ctx); err != nil {
				return err
			}
		}
		if in.Resolved != nil {
			if err := setCommentResolved(ctx, tx, c, *in.Resolved, e.by, e.at); err != nil {
				return err
			}
		}
		return e.react(ctx, tx, loader.ReactionTarget{ID: c.ID})
	})
	if err != nil {
		return nil, err
	}
	return r.commentIn(ctx, commentScope{space: c.Edges.Space, changeRequest: c.Edges.ChangeRequest}, c.ID)
}

// setCommentResolved resolves (by the user, at the time) or reopens a comment in tx, and moves the
// open comment counter when the status changed. The status changes only if it is not already the
// one asked for, in the statement itself, so two concurrent resolutions count once.
func setCommentResolved(ctx context.Context, tx *ent.Tx, c *ent.Comment, resolved bool, by string, at time.Time) error {
	upd := tx.Comment.Update().Where(comment.ID(c.ID))
	delta := 1
	if resolved {
		upd.Where(comment.StatusEQ(comment.StatusOpen)).
			SetStatus(comment.StatusResolved).SetResolvedAt(at).SetResolvedBy(by)
		delta = -1
	} else {
		upd.Where(comment.StatusEQ(comment.StatusResolved)).
			SetStatus(comment.StatusOpen).ClearResolvedAt().ClearResolvedBy()
	}
	n, err := upd.Save(ctx)
	if err != nil || n == 0 {
		return err
	}
	return countOpenComments(ctx, tx, c, delta)
}

// DeleteComment deletes a comment with its replies and reactions (the database cascades): its
// author with the comment role, or an admin of the space, may. Returns false when the comment is
// not there; NOT_FOUND when the viewer cannot read the space (or change request), FORBIDDEN
// otherwise.
func (r *Resolver) DeleteComment(ctx context.Context, spaceID string, crRef *string, id string) (bool, error) {
	sc, err := r.commenterScope(ctx, spaceID, crRef)
	if err != nil {
		return false, err
	}
	c, err := r.commentIn(ctx, sc, id)
	if isNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := r.requireDelete(ctx, sc.space, c.PostedBy); err != nil {
		return false, err
	}
	deleted := false
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		// Deleting it as an open comment first tells whether the counter follows, whatever a
		// concurrent write did to its status since it was read.
		n, err := tx.Comment.Delete().Where(comment.ID(c.ID), comment.StatusEQ(comment.StatusOpen)).Exec(ctx)
		if err != nil {
			return err
		}
		if n == 1 {
			deleted = true
			return countOpenComments(ctx, tx, c, -1)
		}
		n, err = tx.Comment.Delete().Where(comment.ID(c.ID)).Exec(ctx)
		deleted = n == 1
		return err
	})
	return deleted, err
}

// requireDelete answers FORBIDDEN unless the viewer may delete a comment or a reply of the space
// posted by postedBy: they wrote it (with the comment role), or they administer the space.
func (r *Resolver) requireDelete(ctx context.Context, s *ent.Space, postedBy string) error {
	perms, err := r.discussionPermissions(ctx, s, postedBy)
	if err == nil && !perms.Delete {
		return apperr.Forbiddenf("only its author, or an admin of the space, may delete a comment or a reply")
	}
	return err
}

// discussionPermissions are the viewer's permissions on a comment or a reply of the space posted
// by postedBy: whoever reads the space views it; the comment role replies (and reacts, resolves);
// its author with the comment role edits and deletes it, and admins of the space delete it too.
func (r *Resolver) discussionPermissions(ctx context.Context, s *ent.Space, postedBy string) (*model.CommentPermissions, error) {
	role, err := rule.SpaceRole(ctx, s)
	if err != nil {
		return nil, err
	}
	commenter := role.AtLeast(viewer.RoleComment)
	author := commenter && postedBy == viewer.FromContext(ctx).UserID
	return &model.CommentPermissions{
		View: role.AtLeast(viewer.RoleRead), Reply: commenter, Edit: author,
		Delete: author || role.AtLeast(viewer.RoleAdmin),
	}, nil
}
