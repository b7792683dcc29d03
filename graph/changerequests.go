package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/changerequestreview"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/changerequests"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/page"
)

// Change requests translate between GraphQL (and REST, which calls these resolvers) and
// internal/changerequests, which holds their rules; graph keeps the lists and the fields it reads
// through its loaders, batched for a whole level of a query.

// changeRequestService is the change requests as this resolver's viewer reads and writes them.
func (r *Resolver) changeRequestService() *changerequests.Service {
	return &changerequests.Service{Client: r.Client, Space: r.space, PostComment: r.postReviewComment}
}

// changeRequest returns a change request of the space by its id or number
// (changerequests.Service.Get).
func (r *Resolver) changeRequest(ctx context.Context, spaceID, ref string) (*ent.ChangeRequest, error) {
	return r.changeRequestService().Get(ctx, spaceID, ref)
}

// spaceChangeRequest is Query.changeRequest (changerequests.Service.InSpace).
func (r *Resolver) spaceChangeRequest(ctx context.Context, spaceID, ref string) (*ent.ChangeRequest, error) {
	return r.changeRequestService().InSpace(ctx, spaceID, ref)
}

// ChangeRequestListArgs are the REST and GraphQL arguments of a space's change request list.
type ChangeRequestListArgs struct {
	Status      *changerequest.Status // nil for every status
	Creator     *string
	Contributor *string
	// RequestedReviewer and ReviewStatus filter by review requests and current reviews.
	RequestedReviewer *string
	ReviewStatus      *changerequestreview.Status
	OrderBy           *model.ChangeRequestOrder
	First             *int
	After             *string
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
	if f.RequestedReviewer, err = userRef("requestedReviewer", a.RequestedReviewer); err != nil {
		return nil, err
	}
	if a.ReviewStatus != nil {
		f.ReviewStatus = *a.ReviewStatus
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

// createChangeRequest is Mutation.createChangeRequest (changerequests.Service.Create).
func (r *Resolver) createChangeRequest(ctx context.Context, spaceID string, in model.CreateChangeRequestInput) (*ent.ChangeRequest, error) {
	return r.changeRequestService().Create(ctx, spaceID, derefOr(in.Subject, ""))
}

// updateChangeRequest is Mutation.updateChangeRequest (changerequests.Service.Update).
func (r *Resolver) updateChangeRequest(ctx context.Context, spaceID, ref string, in model.UpdateChangeRequestInput) (*ent.ChangeRequest, error) {
	return r.changeRequestService().Update(ctx, spaceID, ref, changerequests.Change{Subject: in.Subject, Status: in.Status})
}

// changeRequestSpace is ChangeRequest.space (changerequests.Service.SpaceOf).
func (r *Resolver) changeRequestSpace(ctx context.Context, cr *ent.ChangeRequest) (*ent.Space, error) {
	return r.changeRequestService().SpaceOf(ctx, cr)
}

// changeRequestOutdated is ChangeRequest.outdated (changerequests.Service.Outdated).
func (r *Resolver) changeRequestOutdated(ctx context.Context, cr *ent.ChangeRequest) (bool, error) {
	return r.changeRequestService().Outdated(ctx, cr)
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
