// Package comments holds the discussions on a space's own content or on a change request, maybe on
// one page of it (and a node of that page), with replies and emoji reactions. Whoever reads the
// space reads them; the comment role and up post, reply, react, resolve and reopen; authors edit
// their own; authors and admins of the space delete (ent/rule/discussion.go decides the same in
// the statements). The open comments are counted on the space (its own content's) or on the
// change request, in the transaction of every write that changes them. It knows nothing of the
// surfaces: graph and rest translate.
package comments

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
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/txn"
)

const (
	// maxBody bounds the Markdown of a comment or a reply, in characters.
	maxBody = 20000
	// maxTargetID bounds a page or node id a comment is posted on (the column's size).
	maxTargetID = 64
	// maxAuthorsFilter bounds the authors a comment list filters on.
	maxAuthorsFilter = 50
)

// AuthorSeparator is the one character a user id of an authors filter may not have: lists key
// their filters by the ids joined by it.
const AuthorSeparator = ","

// Service is the comments of one server, as the viewer of a context reads and writes them.
type Service struct {
	Client *ent.Client
	// Now is the current time, as stored.
	Now func(context.Context) time.Time
	// Space reads a live space the viewer reads. Returns NOT_FOUND otherwise, UNAUTHENTICATED
	// without a viewer.
	Space func(ctx context.Context, id string) (*ent.Space, error)
	// ChangeRequest reads a change request of the space by its id or its number. Returns
	// NOT_FOUND when there is none the viewer reads.
	ChangeRequest func(ctx context.Context, spaceID, ref string) (*ent.ChangeRequest, error)
	// RevisionTree is the page tree of a revision: nil for none, or for one the viewer may not read.
	RevisionTree func(ctx context.Context, revisionID string) (*tree.Tree, error)
	// PageBody is a page's stored Markdown body.
	PageBody func(ctx context.Context, p *tree.Page) (string, error)
}

// Scope is where comments are: a space's own content, or one of its change requests.
type Scope struct {
	Space         *ent.Space
	ChangeRequest *ent.ChangeRequest // nil for the space's own content
}

// ScopeOf reads the space, and its change request (by id or number) when crRef is given, whose
// comments are read or written. Returns NOT_FOUND when the viewer cannot read them.
func (svc *Service) ScopeOf(ctx context.Context, spaceID string, crRef *string) (Scope, error) {
	s, err := svc.Space(ctx, spaceID)
	if err != nil || crRef == nil {
		return Scope{Space: s}, err
	}
	cr, err := svc.ChangeRequest(ctx, s.ID, *crRef)
	if err != nil {
		return Scope{}, err
	}
	cr.Edges.Space = s
	return Scope{Space: s, ChangeRequest: cr}, nil
}

// has matches the comments of the scope.
func (sc Scope) has() predicate.Comment {
	if sc.ChangeRequest != nil {
		return comment.ChangeRequestID(sc.ChangeRequest.ID)
	}
	return comment.And(comment.SpaceID(sc.Space.ID), comment.ChangeRequestIDIsNil())
}

// revisionID is the revision a comment posted now is posted on: the change request's or the
// space's active revision.
func (sc Scope) revisionID() *string {
	if sc.ChangeRequest != nil {
		return &sc.ChangeRequest.RevisionID
	}
	return sc.Space.RevisionID
}

func (sc Scope) changeRequestID() *string {
	if sc.ChangeRequest == nil {
		return nil
	}
	return &sc.ChangeRequest.ID
}

// Attach records the scope on comments read in it, for their target and permissions.
func (sc Scope) Attach(comments ...*ent.Comment) {
	for _, c := range comments {
		c.Edges.Space, c.Edges.ChangeRequest = sc.Space, sc.ChangeRequest
	}
}

// scopeOfComment is the scope a comment was read in.
func scopeOfComment(c *ent.Comment) Scope {
	return Scope{Space: c.Edges.Space, ChangeRequest: c.Edges.ChangeRequest}
}

// Filter is the checked filter of a comment list: a page, and authors (sorted, without repeats).
type Filter struct {
	Page    string
	Authors []string
}

// CheckFilter checks a list's filters: the page a comment is on, and at most 50 authors. Returns
// INVALID naming a bad one.
func CheckFilter(targetPage string, authors []string) (Filter, error) {
	var f Filter
	var err error
	if f.Page, err = check.Trimmed("targetPage", targetPage, 0, maxTargetID); err != nil {
		return f, err
	}
	f.Authors, err = authorIDs(authors)
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
		ref, err := check.UserRef(field, id)
		if err != nil {
			return nil, err
		}
		if strings.Contains(ref, AuthorSeparator) {
			return nil, apperr.Invalidf("%s: %q is not a user id", field, check.Truncate(ref, check.MaxUserRef))
		}
		if ref != "" {
			out = append(out, ref)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Read returns a comment of a space's own content, or of its change request when crRef is given.
// Returns NOT_FOUND when the viewer cannot read it or it is not there.
func (svc *Service) Read(ctx context.Context, spaceID string, crRef *string, id string) (*ent.Comment, error) {
	sc, err := svc.ScopeOf(ctx, spaceID, crRef)
	if err != nil {
		return nil, err
	}
	return svc.In(ctx, sc, id)
}

// In returns a comment of the scope. Returns NOT_FOUND when it has none by that id.
func (svc *Service) In(ctx context.Context, sc Scope, id string) (*ent.Comment, error) {
	c, err := svc.find(ctx, sc, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("comment not found")
	}
	return c, err
}

// find is In with ent's own not-found error.
func (svc *Service) find(ctx context.Context, sc Scope, id string) (*ent.Comment, error) {
	c, err := svc.Client.Comment.Query().Where(comment.ID(id), sc.has()).Only(ctx)
	if err != nil {
		return nil, err
	}
	sc.Attach(c)
	return c, nil
}

// PostInput is a comment to post: its Markdown, and the page (and node of it) it is on, if any.
type PostInput struct {
	Body       string
	Page, Node *string
	Review     *string // the review the comment is posted with (PostThen), nil for none
}

// Post posts a comment on a space's own content, or on its change request (id or number) when
// crRef is given: on the whole, or on a page of the content as it is now (and a node of that
// page). It takes the comment role on the space (NOT_FOUND when the viewer cannot read it,
// FORBIDDEN below comment); INVALID for an empty or too long body, a page the content does not
// have, or a node without a page.
func (svc *Service) Post(ctx context.Context, spaceID string, crRef *string, in PostInput) (*ent.Comment, error) {
	return svc.PostThen(ctx, spaceID, crRef, in, nil)
}

// PostThen posts a comment as Post does, and runs then (when not nil) in the transaction that
// posts it, with its id: a write the comment is part of (a review), all or nothing with it.
func (svc *Service) PostThen(ctx context.Context, spaceID string, crRef *string, in PostInput,
	then func(tx *ent.Tx, commentID string) error) (*ent.Comment, error) {
	sc, err := svc.commenterScope(ctx, spaceID, crRef)
	if err != nil {
		return nil, err
	}
	if err := checkBody("body", in.Body); err != nil {
		return nil, err
	}
	if err := svc.checkTarget(ctx, sc, in.Page, in.Node); err != nil {
		return nil, err
	}
	var id string
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		c, err := tx.Comment.Create().SetOrganizationID(sc.Space.OrganizationID).SetSpaceID(sc.Space.ID).
			SetNillableChangeRequestID(sc.changeRequestID()).SetNillableRevisionID(sc.revisionID()).
			SetNillablePageID(in.Page).SetNillableNodeID(in.Node).SetNillableReviewID(in.Review).
			SetPostedBy(viewer.FromContext(ctx).UserID).SetBodyMarkdown(in.Body).Save(ctx)
		if err != nil {
			return err
		}
		id = c.ID
		if err := countOpen(ctx, tx, c, 1); err != nil {
			return err
		}
		if err := recordComment(ctx, tx, events.CommentCreated, c, c.ID); err != nil || then == nil {
			return err
		}
		return then(tx, c.ID)
	})
	if err != nil {
		return nil, err
	}
	return svc.In(ctx, sc, id)
}

// recordComment records an event about a comment, or one of its replies (objectID), in the
// transaction that changes it.
func recordComment(ctx context.Context, tx *ent.Tx, typ string, c *ent.Comment, objectID string) error {
	kind := "comment"
	if objectID != c.ID {
		kind = "comment-reply"
	}
	details := map[string]any{"comment": c.ID, "changeRequest": c.ChangeRequestID, "page": c.PageID}
	return events.Record(ctx, tx.Client(), events.Event{Type: typ, Organization: c.OrganizationID, ObjectKind: kind,
		ObjectID: objectID, Space: c.SpaceID, Details: details})
}

// checkBody checks the Markdown of a comment or a reply: some text, at most 20,000 characters.
// Returns INVALID naming the field.
func checkBody(field, body string) error {
	if err := check.Text(field, body, 0, maxBody); err != nil {
		return err
	}
	if strings.TrimSpace(body) == "" {
		return apperr.Invalidf("%s: must not be empty", field)
	}
	return nil
}

// checkTarget checks the page and node a comment is posted on: the page must be in the content
// the comment is posted on, and a node is a section of it, named by its heading's anchor (pages
// are Markdown: their sections, which search results link to, are what a comment can point at
// inside one). Returns INVALID naming the field.
func (svc *Service) checkTarget(ctx context.Context, sc Scope, pageID, node *string) error {
	if node != nil {
		if pageID == nil {
			return apperr.Invalidf("node: a node is inside a page: give page too")
		}
		if err := check.Text("node", *node, 1, maxTargetID); err != nil {
			return err
		}
	}
	if pageID == nil {
		return nil
	}
	if err := check.Text("page", *pageID, 1, maxTargetID); err != nil {
		return err
	}
	var t *tree.Tree
	if rev := sc.revisionID(); rev != nil && *rev != "" {
		var err error
		if t, err = svc.RevisionTree(ctx, *rev); err != nil {
			return err
		}
	}
	var p *tree.Page
	if t != nil {
		p = t.Page(*pageID)
	}
	if p == nil {
		return apperr.Invalidf("page: the content has no page %q", check.Truncate(*pageID, maxTargetID))
	}
	if node == nil {
		return nil
	}
	return svc.checkNode(ctx, p, *node)
}

// checkNode checks that a page has a section whose heading's anchor is node.
func (svc *Service) checkNode(ctx context.Context, p *tree.Page, node string) error {
	body, err := svc.PageBody(ctx, p)
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
		p.ID, check.Truncate(node, maxTargetID), strings.Join(anchors[:min(len(anchors), 10)], ", "))
}

// countOpen moves the open comment counter of a comment's change request, or of its space for
// the space's own comments, by delta in tx. The database adds, so concurrent writes add up.
func countOpen(ctx context.Context, tx *ent.Tx, c *ent.Comment, delta int) error {
	if c.ChangeRequestID != nil {
		return tx.ChangeRequest.UpdateOneID(*c.ChangeRequestID).AddCommentsCount(delta).Exec(ctx)
	}
	return tx.Space.UpdateOneID(c.SpaceID).AddCommentsCount(delta).Exec(ctx)
}

// commenterScope reads the scope a viewer writes comments in. Returns NOT_FOUND unless they read
// it, FORBIDDEN below the comment role on the space.
func (svc *Service) commenterScope(ctx context.Context, spaceID string, crRef *string) (Scope, error) {
	sc, err := svc.ScopeOf(ctx, spaceID, crRef)
	if err != nil {
		return sc, err
	}
	return sc, rule.RequireSpaceRole(ctx, sc.Space, viewer.RoleComment, "comment")
}

// writable reads a comment to change, with the viewer's permissions on it: as commenterScope, and
// NOT_FOUND when the scope has no such comment.
func (svc *Service) writable(ctx context.Context, spaceID string, crRef *string, id string) (*ent.Comment, Permissions, error) {
	sc, err := svc.commenterScope(ctx, spaceID, crRef)
	if err != nil {
		return nil, Permissions{}, err
	}
	c, err := svc.In(ctx, sc, id)
	if err != nil {
		return nil, Permissions{}, err
	}
	perms, err := permissions(ctx, sc.Space, c.PostedBy)
	return c, perms, err
}

// Update resolves (resolved true) or reopens (false) a comment, replaces its body (its author
// only) and adds or removes the viewer's reactions, all in one transaction after every check
// passed. Resolving a resolved comment, or reopening an open one, changes nothing. Returns
// NOT_FOUND, FORBIDDEN (below the comment role, or a body edit by someone else) or INVALID (body,
// reactions).
func (svc *Service) Update(ctx context.Context, spaceID string, crRef *string, id string, resolved *bool, in Edit) (*ent.Comment, error) {
	c, perms, err := svc.writable(ctx, spaceID, crRef, id)
	if err != nil {
		return nil, err
	}
	e, err := svc.checkEdit(ctx, c.Edges.Space, perms, in)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if in.Body != nil {
			if err := tx.Comment.UpdateOneID(c.ID).SetBodyMarkdown(*in.Body).SetEditedAt(e.at).Exec(ctx); err != nil {
				return err
			}
		}
		if resolved != nil {
			if err := setResolved(ctx, tx, c, *resolved, e.by, e.at); err != nil {
				return err
			}
		}
		if err := e.react(ctx, tx, reactionTarget{id: c.ID}); err != nil {
			return err
		}
		return recordComment(ctx, tx, events.CommentUpdated, c, c.ID)
	})
	if err != nil {
		return nil, err
	}
	return svc.In(ctx, scopeOfComment(c), c.ID)
}

// setResolved resolves (by the user, at the time) or reopens a comment in tx, and moves the open
// comment counter when the status changed. The status changes only if it is not already the one
// asked for, in the statement itself, so two concurrent resolutions count once.
func setResolved(ctx context.Context, tx *ent.Tx, c *ent.Comment, resolved bool, by string, at time.Time) error {
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
	return countOpen(ctx, tx, c, delta)
}

// Delete deletes a comment with its replies and reactions (the database cascades): its author
// with the comment role, or an admin of the space, may. Returns false when the comment is not
// there; NOT_FOUND when the viewer cannot read the space (or change request), FORBIDDEN
// otherwise.
func (svc *Service) Delete(ctx context.Context, spaceID string, crRef *string, id string) (bool, error) {
	sc, err := svc.commenterScope(ctx, spaceID, crRef)
	if err != nil {
		return false, err
	}
	c, err := svc.find(ctx, sc, id)
	if ent.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := requireDelete(ctx, sc.Space, c.PostedBy); err != nil {
		return false, err
	}
	deleted := false
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		// Deleting it as an open comment first tells whether the counter follows, whatever a
		// concurrent write did to its status since it was read.
		n, err := tx.Comment.Delete().Where(comment.ID(c.ID), comment.StatusEQ(comment.StatusOpen)).Exec(ctx)
		if err != nil {
			return err
		}
		if n == 1 {
			deleted = true
			if err := countOpen(ctx, tx, c, -1); err != nil {
				return err
			}
			return recordComment(ctx, tx, events.CommentDeleted, c, c.ID)
		}
		n, err = tx.Comment.Delete().Where(comment.ID(c.ID)).Exec(ctx)
		if err != nil || n == 0 {
			return err
		}
		deleted = true
		return recordComment(ctx, tx, events.CommentDeleted, c, c.ID)
	})
	return deleted, err
}
