package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/internal/apperr"
)

// spaceOrganization returns the organization of a space, read with those of its level.
// Returns NOT_FOUND when the viewer may read the space (a public one) but not its organization.
func (r *Resolver) spaceOrganization(ctx context.Context, s *ent.Space) (*ent.Organization, error) {
	return organizationOf(ctx, r, s, func(s *ent.Space) string { return s.OrganizationID })
}

// spaceParent returns the parent collection of a space, or nil at the top level or when the viewer
// may read the space but not its parent.
func (r *Resolver) spaceParent(ctx context.Context, s *ent.Space) (*ent.Collection, error) {
	if s.ParentID == nil {
		return nil, nil
	}
	return loader.Get(ctx, r.Client, loader.Collections, s, func(s *ent.Space) string { return derefOr(s.ParentID, "") })
}

// organizationOf returns the organization key names on item, one the viewer may see, the
// organizations of item's whole level read together (and kept for the request). Returns
// NOT_FOUND otherwise.
func organizationOf[T comparable](ctx context.Context, r *Resolver, item T, key func(T) string) (*ent.Organization, error) {
	if _, err := rule.RequireViewer(ctx); err != nil {
		return nil, err
	}
	o, err := loader.Get(ctx, r.Client, loader.Organizations, item, key)
	if err == nil && o == nil {
		return nil, apperr.NotFoundf("organization not found")
	}
	return o, err
}
