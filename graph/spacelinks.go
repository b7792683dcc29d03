package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/apperr"
	"github.com/binderyhq/bindery/graph/loader"
)

// spaceOrganization returns the organization of a space, batched with its siblings' lookups.
// Returns NOT_FOUND when the viewer may read the space (a public one) but not its organization.
func (r *Resolver) spaceOrganization(ctx context.Context, s *ent.Space) (*ent.Organization, error) {
	return r.organizationByID(ctx, s.OrganizationID)
}

// spaceParent returns the parent collection of a space, or nil at the top level or when the viewer
// may read the space but not its parent.
func (r *Resolver) spaceParent(ctx context.Context, s *ent.Space) (*ent.Collection, error) {
	if s.ParentID == nil {
		return nil, nil
	}
	return loader.For(ctx, r.Client).Collection(ctx, *s.ParentID)
}

// organizationByID returns an organization the viewer may see through the request's loader.
func (r *Resolver) organizationByID(ctx context.Context, id string) (*ent.Organization, error) {
	if _, err := viewerOf(ctx); err != nil {
		return nil, err
	}
	o, err := loader.For(ctx, r.Client).Organization(ctx, id)
	if err == nil && o == nil {
		return nil, apperr.NotFoundf("organization not found")
	}
	return o, err
}
