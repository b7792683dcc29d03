package graph

import (
	"context"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/txn"
)

// Collections: nestable groupings of spaces. Reads go through the Collection policy (a collection
// the viewer may not read is NOT_FOUND); writes check the viewer's effective role first
// (rule.ContentRole) for a clear FORBIDDEN, and the policy checks again beneath.

// untitled is the title of a collection or space created without one.
const untitled = "Untitled"

// Bounds of a collection's texts (characters).
const (
	maxCollectionTitle       = 50
	maxCollectionDescription = 100
)

// collection returns a collection the viewer can read. Returns NOT_FOUND otherwise.
func (r *Resolver) collection(ctx context.Context, id string) (*ent.Collection, error) {
	if _, err := viewerOf(ctx); err != nil {
		return nil, err
	}
	c, err := r.Client.Collection.Get(sqlplan.ByKey(ctx), id)
	return c, r.ssoHidden(ctx, rule.NotFound(err, "collection"), func(sys context.Context) (string, error) {
		return r.Client.Collection.Query().Where(collection.ID(id)).Select(collection.FieldOrganizationID).String(sys)
	})
}

// adminCollection returns a collection on which the viewer has the admin role. Returns NOT_FOUND
// when they cannot read it, FORBIDDEN naming the action when they can but are no admin of it.
func (r *Resolver) adminCollection(ctx context.Context, id, action string) (*ent.Collection, error) {
	c, err := r.collection(ctx, id)
	if err != nil {
		return nil, err
	}
	role, err := rule.CollectionRole(ctx, c)
	if err != nil {
		return nil, err
	}
	if !role.AtLeast(viewer.RoleAdmin) {
		return nil, apperr.Forbiddenf("only admins of the collection may %s", action)
	}
	return c, nil
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

// createCollection creates a collection at the end of its parent's children (or of the top
// level). New collections inherit their default level (defaultLevel "inherit").
func (r *Resolver) createCollection(ctx context.Context, orgID string, in model.CreateCollectionInput) (*ent.Collection, error) {
	if _, err := r.organization(ctx, orgID); err != nil {
		return nil, err
	}
	title := strings.TrimSpace(derefOr(in.Title, ""))
	if title == "" {
		title = untitled
	}
	if err := checkText("title", title, 1, maxCollectionTitle); err != nil {
		return nil, err
	}
	if err := r.checkCreateIn(ctx, orgID, in.Parent); err != nil {
		return nil, err
	}
	var id string
	err := txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		key, err := place(ctx, tx, orgID, in.Parent, "", nil)
		if err != nil {
			return err
		}
		c, err := tx.Collection.Create().SetOrganizationID(orgID).SetTitle(title).SetNillableParentID(in.Parent).
			SetDefaultLevel(collection.DefaultLevel(rule.Inherit)).SetPosition(key).Save(ctx)
		if err == nil {
			id = c.ID
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.collection(ctx, id)
}

// checkCreateIn checks that the viewer may create content in a parent collection of the
// organization (create role or more on it), or at its top level (create role in the organization).
func (r *Resolver) checkCreateIn(ctx context.Context, orgID string, parent *string) error {
	if parent == nil {
		if !rule.HasOrgRole(viewer.FromContext(ctx), orgID, viewer.RoleCreate) {
			return apperr.Forbiddenf("creating content at the top level of an organization takes the create role there")
		}
		return nil
	}
	if _, member := viewer.FromContext(ctx).Membership(orgID); !member {
		return apperr.NotFoundf("organization not found")
	}
	role, err := rule.RoleOn(ctx, orgID, *parent, false)
	if err != nil {
		return err
	}
	if !role.AtLeast(viewer.RoleRead) {
		return apperr.Invalidf("parent: no collection %q in this organization", truncate(*parent, 80))
	}
	if !role.AtLeast(viewer.RoleCreate) {
		return apperr.Forbiddenf("creating content in this collection takes the create role on it")
	}
	return nil
}

// updateCollection changes a collection's title, description and default level. It takes the
// admin role on the collection.
func (r *Resolver) updateCollection(ctx context.Context, id string, in model.UpdateCollectionInput) (*ent.Collection, error) {
	c, err := r.adminCollection(ctx, id, "change it")
	if err != nil {
		return nil, err
	}
	// In a transaction: a new default level resolves again below the collection
	// (rule.ResolveLevels), all or nothing with the change.
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		upd := tx.Collection.UpdateOne(c)
		if err := setTrimmed("title", in.Title, 1, maxCollectionTitle, upd.SetTitle); err != nil {
			return err
		}
		err := setOrClear(in.Description, func(s string) error { return checkText("description", s, 0, maxCollectionDescription) },
			upd.SetDescription, upd.ClearDescription)
		if err != nil {
			return err
		}
		if err := setOrClear(in.DefaultLevel, checkDefaultLevel, func(l string) *ent.CollectionUpdateOne {
			return upd.SetDefaultLevel(collection.DefaultLevel(l))
		}, upd.ClearDefaultLevel); err != nil {
			return err
		}
		return upd.Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return r.collection(ctx, id)
}

// checkDefaultLevel accepts a role name or "inherit". Returns INVALID naming defaultLevel.
func checkDefaultLevel(l string) error {
	if l == rule.Inherit {
		return nil
	}
	if _, err := viewer.ParseRole(l); err != nil {
		return apperr.Invalidf("defaultLevel: must be a role (admin, create, review, edit, comment, read), inherit, or null (got %q)", truncate(l, 40))
	}
	return nil
}

// deleteCollection deletes a collection; its sub-collections and spaces (deleted ones included)
// move up to its parent, keeping their position keys. Grants on it go with it.
func (r *Resolver) deleteCollection(ctx context.Context, id string) (bool, error) {
	c, err := r.adminCollection(ctx, id, "delete it")
	if err != nil {
		return false, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		// The children move up with the policy's decision taken: the viewer administers the
		// collection, and its children, which they may not administer (or, deleted spaces, not even
		// see), must not be left without a parent. Only their parent_id changes, to its parent.
		sys := privacy.DecisionContext(ctx, privacy.Allow)
		cols := tx.Collection.Update().Where(collection.ParentID(c.ID))
		spaces := tx.Space.Update().Where(space.ParentID(c.ID))
		if c.ParentID == nil {
			cols.ClearParentID()
			spaces.ClearParentID()
		} else {
			cols.SetParentID(*c.ParentID)
			spaces.SetParentID(*c.ParentID)
		}
		if err := cols.Exec(sys); err != nil {
			return err
		}
		if err := spaces.Exec(sys); err != nil {
			return err
		}
		return tx.Collection.DeleteOne(c).Exec(ctx)
	})
	return err == nil, err
}

// moveCollection moves a collection under another parent (or the top level), at a place among its
// new siblings (collections and spaces): before or after one of them, or at the end. Only the
// moved collection's row changes, unless its neighbours' keys leave no room (then the siblings are
// renumbered in the same transaction).
func (r *Resolver) moveCollection(ctx context.Context, id string, in model.MoveCollectionInput) (*ent.Collection, error) {
	c, err := r.adminCollection(ctx, id, "move it")
	if err != nil {
		return nil, err
	}
	parent := c.ParentID
	if in.Parent.IsSet() {
		parent = in.Parent.Value()
		if err := r.checkMoveUnder(ctx, c, parent); err != nil {
			return nil, err
		}
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		key, err := place(ctx, tx, c.OrganizationID, parent, c.ID, in.Position)
		if err != nil {
			return err
		}
		upd := tx.Collection.UpdateOne(c).SetPosition(key)
		if parent == nil {
			upd.ClearParentID()
		} else {
			upd.SetParentID(*parent)
		}
		return upd.Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return r.collection(ctx, id)
}

// checkMoveUnder checks a move's new parent: a collection of the same organization the viewer may
// create in (or the top level), and neither the collection itself nor one below it.
func (r *Resolver) checkMoveUnder(ctx context.Context, c *ent.Collection, parent *string) error {
	if err := r.checkCreateIn(ctx, c.OrganizationID, parent); err != nil {
		return err
	}
	if parent == nil {
		return nil
	}
	ancestry, err := rule.Ancestry(ctx, c.OrganizationID, *parent)
	if err != nil {
		return err
	}
	if slices.Contains(ancestry, c.ID) {
		return apperr.Invalidf("parent: a collection cannot move under itself or one of its sub-collections")
	}
	return nil
}

// transferCollection moves a collection with its sub-collections and their spaces (deleted ones
// too) to another organization, at the end of its top level; the nesting below it is kept. The
// caller must be admin in both organizations. What ties the moved objects to the old
// organization's people and definitions goes, as for a space transfer (transferSpace): grants,
// custom field values, site links; the spaces' content follows them.
func (r *Resolver) transferCollection(ctx context.Context, id, orgID string) (*ent.Collection, error) {
	c, err := r.collection(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := r.checkTransfer(ctx, "collection", c.OrganizationID, orgID); err != nil {
		return nil, err
	}
	ids, err := subtree(ctx, r.Client, c)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if err := transferSpacesIn(ctx, tx, ids, orgID); err != nil {
			return err
		}
		key, err := place(ctx, tx, orgID, nil, "", nil)
		if err != nil {
			return err
		}
		if _, err := tx.PermissionGrant.Delete().Where(permissiongrant.CollectionIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		if err := tx.Collection.Update().Where(collection.IDIn(ids...)).SetOrganizationID(orgID).Exec(ctx); err != nil {
			return err
		}
		return tx.Collection.UpdateOneID(c.ID).ClearParentID().SetPosition(key).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return r.collection(ctx, id)
}

// transferSpacesIn moves the spaces (deleted ones too) of the given collections to orgID, keeping
// their parents and positions. The viewer is an admin of both organizations: they see and write
// every space of the old one, deleted ones included.
func transferSpacesIn(ctx context.Context, tx *ent.Tx, collectionIDs []string, orgID string) error {
	spaceIDs, err := tx.Space.Query().Where(space.ParentIDIn(collectionIDs...)).IDs(ctx)
	if err != nil || len(spaceIDs) == 0 {
		return err
	}
	if err := moveSpaceRows(ctx, tx, orgID, spaceIDs...); err != nil {
		return err
	}
	return tx.Space.Update().Where(space.IDIn(spaceIDs...)).SetOrganizationID(orgID).Exec(ctx)
}

// subtree returns the ids of a collection and of every collection below it that the viewer sees
// (an organization admin, who transfers, sees them all).
func subtree(ctx context.Context, client *ent.Client, c *ent.Collection) ([]string, error) {
	ids, level := []string{c.ID}, []string{c.ID}
	for depth := 0; len(level) > 0 && depth < 64; depth++ {
		next, err := client.Collection.Query().Where(collection.ParentIDIn(level...)).IDs(ctx)
		if err != nil {
			return nil, err
		}
		ids, level = append(ids, next...), next
	}
	return ids, nil
}
