package loader

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// SpaceRole returns the viewer's effective role on a space, computed for every space of its level
// at once (rule.SpaceRoles): the collections above a page of spaces are read in one statement,
// not one a space.
func (l *Loaders) SpaceRole(ctx context.Context, s *ent.Space) (viewer.Role, error) {
	if rule.AdministersOrganization(ctx, s.OrganizationID) { // no batch to share: no statement
		return viewer.RoleAdmin, nil
	}
	return Get(ctx, l.client, spaceRoles, s, func(s *ent.Space) *ent.Space { return s })
}

var spaceRoles = NewBatch("space roles", func(ctx context.Context, _ *ent.Client, spaces []*ent.Space) (map[*ent.Space]viewer.Role, error) {
	roles, err := rule.SpaceRoles(ctx, spaces)
	return byItem(spaces, func(s *ent.Space) string { return s.ID }, roles), err
})

// CollectionRole returns the viewer's effective role on a collection, computed for every
// collection of its level at once (rule.CollectionRoles).
func (l *Loaders) CollectionRole(ctx context.Context, c *ent.Collection) (viewer.Role, error) {
	if rule.AdministersOrganization(ctx, c.OrganizationID) {
		return viewer.RoleAdmin, nil
	}
	return Get(ctx, l.client, collectionRoles, c, func(c *ent.Collection) *ent.Collection { return c })
}

var collectionRoles = NewBatch("collection roles", func(ctx context.Context, _ *ent.Client, cols []*ent.Collection) (map[*ent.Collection]viewer.Role, error) {
	roles, err := rule.CollectionRoles(ctx, cols)
	return byItem(cols, func(c *ent.Collection) string { return c.ID }, roles), err
})

// byItem keys the roles found by id by the items themselves.
func byItem[T comparable](items []T, id func(T) string, roles map[string]viewer.Role) map[T]viewer.Role {
	out := make(map[T]viewer.Role, len(items))
	for _, it := range items {
		out[it] = roles[id(it)]
	}
	return out
}
