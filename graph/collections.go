package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/spaces"
	"github.com/binderyhq/bindery/internal/sqlplan"
)

// Collections: nestable groupings of spaces. Their writes and rules are internal/spaces'; graph
// translates and keeps the reads, through the Collection policy (a collection the viewer may not
// read is NOT_FOUND) and its loaders, batched for a whole level of a query.

// collection returns a collection the viewer can read. Returns NOT_FOUND otherwise.
func (r *Resolver) collection(ctx context.Context, id string) (*ent.Collection, error) {
	if _, err := rule.RequireViewer(ctx); err != nil {
		return nil, err
	}
	c, err := r.Client.Collection.Get(sqlplan.ByKey(ctx), id)
	return c, r.SSO().Hidden(ctx, rule.NotFound(err, "collection"), func(sys context.Context) (string, error) {
		return r.Client.Collection.Query().Where(collection.ID(id)).Select(collection.FieldOrganizationID).String(sys)
	})
}

func (r *Resolver) collectionPermissions(ctx context.Context, c *ent.Collection) (*model.CollectionPermissions, error) {
	role, err := loader.For(ctx, r.Client).CollectionRole(ctx, c)
	if err != nil {
		return nil, err
	}
	return &model.CollectionPermissions{
		View: role.AtLeast(viewer.RoleRead), Admin: role.AtLeast(viewer.RoleAdmin),
		ViewInviteLinks: role.AtLeast(viewer.RoleAdmin), Create: role.AtLeast(viewer.RoleCreate),
	}, nil
}

// collectionDefaultLevel is defaultLevel as text: a role, "inherit", or nil.
func collectionDefaultLevel(c *ent.Collection) *string { return enumString(c.DefaultLevel) }

func (r *Resolver) collectionOrganization(ctx context.Context, c *ent.Collection) (*ent.Organization, error) {
	return organizationOf(ctx, r, c, func(c *ent.Collection) string { return c.OrganizationID })
}

// collectionParent returns the parent collection, or nil at the top level or when the viewer may
// read the collection (through a grant) but not its parent.
func (r *Resolver) collectionParent(ctx context.Context, c *ent.Collection) (*ent.Collection, error) {
	if c.ParentID == nil {
		return nil, nil
	}
	return loader.Get(ctx, r.Client, loader.Collections, c, func(c *ent.Collection) string { return derefOr(c.ParentID, "") })
}

// collections lists the organization's collections the viewer can read, by position then id:
// all of them (nested) or the top-level ones. The position orders siblings; in the nested list,
// collections of different parents interleave by their keys.
func (r *Resolver) collections(ctx context.Context, o *ent.Organization, first *int, after *string, nested *bool) (*model.CollectionConnection, error) {
	where := []predicate.Collection{collection.OrganizationID(o.ID)}
	if nested != nil && !*nested {
		where = append(where, collection.ParentIDIsNil())
	}
	return r.collectionPage(ctx, first, after, where...)
}

// childCollections lists a collection's sub-collections the viewer can read, in sibling order
// (one statement for the pages of all the collections of its level).
func (r *Resolver) childCollections(ctx context.Context, c *ent.Collection, first *int, after *string) (*model.CollectionConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := loader.For(ctx, r.Client).ChildCollectionPage(ctx, c, args)
	if err != nil {
		return nil, err
	}
	return collectionConnection(ctx, p), nil
}

// collectionSpaces lists the live spaces in a collection the viewer can read, in sibling order
// (one statement for the pages of all the collections of its level).
func (r *Resolver) collectionSpaces(ctx context.Context, c *ent.Collection, first *int, after *string) (*model.SpaceConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := loader.For(ctx, r.Client).CollectionSpacePage(ctx, c, args)
	if err != nil {
		return nil, err
	}
	return spaceConnection(ctx, p), nil
}

var collectionOrder = page.Order{Column: collection.FieldPosition}

func collectionCursor(c *ent.Collection) page.Cursor { return page.Cursor{Key: c.Position, ID: c.ID} }

func (r *Resolver) collectionPage(ctx context.Context, first *int, after *string, where ...predicate.Collection) (*model.CollectionConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := flat(ctx, r.Client.Collection.Query().Where(where...), collectionOrder, args, false, collectionCursor)
	if err != nil {
		return nil, err
	}
	return collectionConnection(ctx, p), nil
}

// adminCollection returns a collection on which the viewer has the admin role
// (spaces.Service.AdminCollection).
func (r *Resolver) adminCollection(ctx context.Context, id, action string) (*ent.Collection, error) {
	return r.spacesService().AdminCollection(ctx, id, action)
}

// createCollection is Mutation.createCollection (spaces.Service.CreateCollection).
func (r *Resolver) createCollection(ctx context.Context, orgID string, in model.CreateCollectionInput) (*ent.Collection, error) {
	return r.spacesService().CreateCollection(ctx, orgID, spaces.NewCollection{Title: in.Title, Parent: in.Parent})
}

// updateCollection is Mutation.updateCollection (spaces.Service.UpdateCollection).
func (r *Resolver) updateCollection(ctx context.Context, id string, in model.UpdateCollectionInput) (*ent.Collection, error) {
	return r.spacesService().UpdateCollection(ctx, id, spaces.CollectionChange{Title: in.Title,
		Description: nullable(in.Description), DefaultLevel: nullable(in.DefaultLevel),
		MergeRules: mergeRulesInput(in.MergeRules)})
}

// deleteCollection is Mutation.deleteCollection (spaces.Service.DeleteCollection).
func (r *Resolver) deleteCollection(ctx context.Context, id string) (bool, error) {
	err := r.spacesService().DeleteCollection(ctx, id)
	return err == nil, err
}

// moveCollection is Mutation.moveCollection (spaces.Service.MoveCollection).
func (r *Resolver) moveCollection(ctx context.Context, id string, in model.MoveCollectionInput) (*ent.Collection, error) {
	return r.spacesService().MoveCollection(ctx, id, spaces.Move{Parent: nullable(in.Parent), Position: contentPosition(in.Position)})
}

// transferCollection is Mutation.transferCollection (spaces.Service.TransferCollection).
func (r *Resolver) transferCollection(ctx context.Context, id, orgID string) (*ent.Collection, error) {
	return r.spacesService().TransferCollection(ctx, id, orgID)
}
