package graph

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/txn"
)

const (
	maxChangeRequestSubject = 100
	// maxNumberDigits bounds what reads as a change request's number rather than its id: ids are
	// 20 characters, and a space will not hold a billion change requests.
	maxNumberDigits = 9
)

// changeRequest returns a change request of the space by its id or by its number in the space
// (spec/02 convention 1). Returns NOT_FOUND when there is none the viewer can read.
func (r *Resolver) changeRequest(ctx context.Context, spaceID, ref string) (*ent.ChangeRequest, error) {
	cr, err := r.Client.ChangeRequest.Query().Where(changerequest.SpaceID(spaceID), changeRequestRef(ref)).Only(sqlplan.ByKey(ctx))
	return cr, rule.NotFound(err, "change request")
}

// changeRequestRef matches a change request by number when ref is a short run of digits, else by id.
func changeRequestRef(ref string) predicate.ChangeRequest {
	if len(ref) <= maxNumberDigits && strings.Trim(ref, "0123456789") == "" {
		if n, err := strconv.Atoi(ref); err == nil {
			return changerequest.Number(n)
		}
	}
	return changerequest.ID(ref)
}

// spaceChangeRequest is Query.changeRequest: a change request of a space the viewer can read.
// Returns NOT_FOUND when either is not there for the viewer.
func (r *Resolver) spaceChangeRequest(ctx context.Context, spaceID, ref string) (*ent.ChangeRequest, error) {
	s, err := r.space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	cr, err := r.changeRequest(ctx, s.ID, ref)
	if err != nil {
		return nil, err
	}
	cr.Edges.Space = s
	return cr, nil
}

// ChangeRequestListArgs are the REST and GraphQL arguments of a space's change request list.
type ChangeRequestListArgs struct {
	Status      *changerequest.Status // nil for every status
	Creator     *string
	Contributor *string
	OrderBy     *model.ChangeRequestOrder
	First       *int
	After       *string
}

// changeRequests lists a space's change requests, last updated (or last created) first.
// Returns INVALID for a bad page, limit or user filter.
func (r *Resolver) changeRequests(ctx context.Context, s *ent.Space, a ChangeRequestListArgs) (*model.ChangeRequestConnection, error) {
	args, err := listArgs(ctx, a.First, a.After)
	if err != nil {
		return nil, err
	}
	f := loader.ChangeRequestFilter{ByCreation: a.OrderBy != nil && *a.OrderBy == model.ChangeRequestOrderCreatedAt}
	if a.Status != nil {
		f.Status = *a.Status
	}
	if f.Creator, err = userRef("creator", a.Creator); err != nil {
		return nil, err
	}
	if f.Contributor, err = userRef("contributor", a.Contributor); err != nil {
		return nil, err
	}
	args.Columns = nodeColumns(ctx, r.Client, changeRequestColumns)
	p, err := loader.For(ctx, r.Client).ChangeRequestPage(ctx, s, f, args)
	if err != nil {
		return nil, err
	}
	for _, cr := range p.Items {
		cr.Edges.Space = s // every item's outdated flag compares with this space's revision
	}
	return changeRequestConnection(ctx, p, f), nil
}

// changeRequestColumns are the columns each field of ChangeRequest reads of its row, for lists
// that read only those asked (nodeColumns). A field not named here (outdated, which compares
// several revisions, and those added later) reads every column.
var changeRequestColumns = map[string][]string{
	"id":                     nil,
	"number":                 {changerequest.FieldNumber},
	"status":                 {changerequest.FieldStatus},
	"subject":                {changerequest.FieldSubject},
	"createdAt":              {changerequest.FieldCreatedAt},
	"updatedAt":              {changerequest.FieldUpdatedAt},
	"mergedAt":               {changerequest.FieldMergedAt},
	"spaceId":                {changerequest.FieldSpaceID},
	"space":                  {changerequest.FieldSpaceID},
	"createdBy":              {changerequest.FieldCreatedBy},
	"mergedBy":               {changerequest.FieldMergedBy},
	"revision":               {changerequest.FieldRevisionID},
	"revisionInitial":        {changerequest.FieldRevisionInitialID},
	"revisionMergedAncestor": {changerequest.FieldRevisionMergedAncestorID},
	"revisionMerged":         {changerequest.FieldRevisionMergedID},
}

// userRef checks a user id given as a filter; "" (or absent) is no filter.
func userRef(field string, id *string) (string, error) { return check.UserRef(field, derefOr(id, "")) }

func changeRequestConnection(ctx context.Context, p loader.Page[*ent.ChangeRequest], f loader.ChangeRequestFilter) *model.ChangeRequestConnection {
	cursorOf := func(cr *ent.ChangeRequest) page.Cursor {
		if f.ByCreation {
			return page.Cursor{Key: cr.CreatedAt, ID: cr.ID}
		}
		return page.Cursor{Key: cr.UpdatedAt, ID: cr.ID}
	}
	return &model.ChangeRequestConnection{
		Edges: edges(ctx, p.Items, cursorOf, func(c string, n *ent.ChangeRequest) *model.ChangeRequestEdge {
			return &model.ChangeRequestEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}
}

// createChangeRequest opens a change request on the space's active revision, numbered next in
// the space. It takes the edit role on the space (NOT_FOUND when the viewer cannot read it,
// FORBIDDEN below edit or while the space is locked); INVALID for a subject over 100 characters.
//
// Numbers have no gaps or duplicates, also when several servers share one PostgreSQL database:
// the space's row is locked for the transaction, so creations in one space queue, and each
// takes the largest number + 1 (the unique (space_id, number) index backs it).
func (r *Resolver) createChangeRequest(ctx context.Context, spaceID string, in model.CreateChangeRequestInput) (*ent.ChangeRequest, error) {
	v, err := viewerOf(ctx)
	if err != nil {
		return nil, err
	}
	s, err := r.space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	if err := rule.RequireSpaceRole(ctx, s, viewer.RoleEdit, "create change requests"); err != nil {
		return nil, err
	}
	subject := strings.TrimSpace(derefOr(in.Subject, ""))
	if err := checkText("subject", subject, 0, maxChangeRequestSubject); err != nil {
		return nil, err
	}
	var id string
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		s, err := revisions.LockSpace(ctx, tx, s.ID)
		if err != nil {
			return err
		}
		if s.EditMode == space.EditModeLocked {
			return apperr.Forbiddenf("the space is locked: no change request can be opened until an admin sets editMode to live")
		}
		if s.RevisionID == nil {
			return fmt.Errorf("space %s has no active revision", s.ID)
		}
		number, err := nextChangeRequestNumber(ctx, tx, s.ID)
		if err != nil {
			return err
		}
		cr, err := tx.ChangeRequest.Create().SetSpaceID(s.ID).SetOrganizationID(s.OrganizationID).
			SetNumber(number).SetSubject(subject).SetCreatedBy(v.UserID).
			SetRevisionID(*s.RevisionID).SetRevisionInitialID(*s.RevisionID).Save(ctx)
		if err != nil {
			return err
		}
		id = cr.ID
		return revisions.AdjustChangeRequestCounts(ctx, tx, s.ID, "", cr.Status)
	})
	if err != nil {
		return nil, err
	}
	return r.readChangeRequest(ctx, id)
}

// nextChangeRequestNumber is the number of the next change request of a space, read in the
// transaction that holds the space's lock.
func nextChangeRequestNumber(ctx context.Context, tx *ent.Tx, spaceID string) (int, error) {
	last, err := tx.ChangeRequest.Query().Where(changerequest.SpaceID(spaceID)).
		Order(ent.Desc(changerequest.FieldNumber)).Limit(1).Select(changerequest.FieldNumber).Ints(ctx)
	if err != nil || len(last) == 0 {
		return 1, err
	}
	return last[0] + 1, nil
}

// updateChangeRequest changes the subject and/or status of a change request (by id or number).
// It takes the edit role on the space. Returns INVALID for a subject over 100 characters, for
// the status merged (only merging sets it) and for any status change of a merged change
// request; updatedAt changes with every update.
func (r *Resolver) updateChangeRequest(ctx context.Context, spaceID, ref string, in model.UpdateChangeRequestInput) (*ent.ChangeRequest, error) {
	s, cr, err := r.contentTarget(ctx, spaceID, ref, viewer.RoleEdit, "change its change requests")
	if err != nil {
		return nil, err
	}
	if in.Subject != nil {
		subject := strings.TrimSpace(*in.Subject)
		if err := checkText("subject", subject, 0, maxChangeRequestSubject); err != nil {
			return nil, err
		}
		in.Subject = &subject
	}
	if in.Status != nil && *in.Status == changerequest.StatusMerged {
		return nil, apperr.Invalidf("status: merged is set by merging the change request, not by an update (use draft, open or archived)")
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if _, err := revisions.LockSpace(ctx, tx, s.ID); err != nil {
			return err
		}
		current, err := tx.ChangeRequest.Query().Where(changerequest.ID(cr.ID)).Modify(txn.ForUpdate).Only(ctx)
		if err != nil {
			return rule.NotFound(err, "change request")
		}
		upd := tx.ChangeRequest.UpdateOne(current).SetNillableSubject(in.Subject)
		if in.Status != nil {
			if current.Status == changerequest.StatusMerged {
				return apperr.Invalidf("status: change request #%d is merged; a merged change request cannot change status", current.Number)
			}
			upd.SetStatus(*in.Status)
			if err := revisions.AdjustChangeRequestCounts(ctx, tx, s.ID, current.Status, *in.Status); err != nil {
				return err
			}
		}
		return upd.Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return r.readChangeRequest(ctx, cr.ID)
}

// readChangeRequest reads a change request back after a write committed.
func (r *Resolver) readChangeRequest(ctx context.Context, id string) (*ent.ChangeRequest, error) {
	cr, err := r.Client.ChangeRequest.Get(ctx, id)
	return cr, rule.NotFound(err, "change request")
}

// changeRequestSpace is ChangeRequest.space: the space it was listed or read with, else read now.
func (r *Resolver) changeRequestSpace(ctx context.Context, cr *ent.ChangeRequest) (*ent.Space, error) {
	if s := cr.Edges.Space; s != nil {
		return s, nil
	}
	return r.space(ctx, cr.SpaceID)
}

// changeRequestOutdated is ChangeRequest.outdated: whether the space's active revision moved
// since the change request's base (the revision it was created from or last updated from). A
// merged change request is never outdated: there is nothing left to bring into it.
func (r *Resolver) changeRequestOutdated(ctx context.Context, cr *ent.ChangeRequest) (bool, error) {
	if cr.Status == changerequest.StatusMerged {
		return false, nil
	}
	s, err := r.changeRequestSpace(ctx, cr)
	if err != nil {
		return false, err
	}
	return s.RevisionID != nil && *s.RevisionID != revisions.ChangeRequestBase(cr), nil
}

// The users and the revisions a change request names: a field looks up one of them, and the
// others of its kind for the whole level in the same statement.
var (
	crUsers     = []func(*ent.ChangeRequest) string{crCreator, crMerger}
	crRevisions = []func(*ent.ChangeRequest) string{crRevision, crRevisionInitial, crRevisionMergedAncestor, crRevisionMerged}
)

func crCreator(cr *ent.ChangeRequest) string         { return cr.CreatedBy }
func crMerger(cr *ent.ChangeRequest) string          { return derefOr(cr.MergedBy, "") }
func crRevision(cr *ent.ChangeRequest) string        { return cr.RevisionID }
func crRevisionInitial(cr *ent.ChangeRequest) string { return cr.RevisionInitialID }
func crRevisionMergedAncestor(cr *ent.ChangeRequest) string {
	return derefOr(cr.RevisionMergedAncestorID, "")
}
func crRevisionMerged(cr *ent.ChangeRequest) string { return derefOr(cr.RevisionMergedID, "") }

// author returns the user key names on item, who made something the viewer reads (a change
// request, a revision, a comment): as a user the viewer may see, else as their public profile (no
// email), so the authors of a public space's work are named to outside readers too. The users of
// item's whole level load together, with those the with keys name (loader.Get). nil for no user.
func author[T comparable](ctx context.Context, r *Resolver, item T, key func(T) string, with ...func(T) string) (*ent.User, error) {
	if key(item) == "" {
		return nil, nil
	}
	u, err := loader.Get(ctx, r.Client, loader.Users, item, key, with...)
	if u != nil || err != nil {
		return u, err
	}
	return loader.Get(ctx, r.Client, loader.Profiles, item, key, with...)
}

// revisionOf returns the revision key names on item, the revisions of item's whole level loaded
// together, with those the with keys name; nil for no revision. Returns NOT_FOUND when the viewer
// cannot read it.
func revisionOf[T comparable](ctx context.Context, r *Resolver, item T, key func(T) string, with ...func(T) string) (*ent.Revision, error) {
	if key(item) == "" {
		return nil, nil
	}
	rev, err := loader.Get(ctx, r.Client, loader.Revisions, item, key, with...)
	if err == nil && rev == nil {
		return nil, apperr.NotFoundf("revision not found")
	}
	return rev, err
}
