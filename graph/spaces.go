package graph

import (
	"context"
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/ent/commentreply"
	"github.com/binderyhq/bindery/ent/customfieldvalue"
	"github.com/binderyhq/bindery/ent/movedpage"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/reaction"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sites"
	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/internal/txn"
)

const (
	maxSpaceTitle = 50
	maxEmoji      = 50
	copySuffix    = " (copy)"
)

// space returns a live space the viewer can read. Returns NOT_FOUND otherwise (deleted spaces
// included: only restore reaches them). The read, with the access rules' statements it runs, is
// by key (sqlplan): the space's id, the viewer's.
func (r *Resolver) space(ctx context.Context, id string) (*ent.Space, error) {
	if _, err := viewerOf(ctx); err != nil {
		return nil, err
	}
	s, err := r.Client.Space.Query().Where(space.ID(id), space.DeletedAtIsNil()).Only(sqlplan.ByKey(ctx))
	return s, r.ssoHidden(ctx, rule.NotFound(err, "space"), func(sys context.Context) (string, error) {
		return r.Client.Space.Query().Where(space.ID(id)).Select(space.FieldOrganizationID).String(sys)
	})
}

// sharedSpace is space, after recording the share key the viewer presented (if any): for the
// rest of the request the share-link space with that key is readable to them, nested fields
// (permissions) included.
func (r *Resolver) sharedSpace(ctx context.Context, id string, shareKey *string) (*ent.Space, error) {
	if shareKey != nil {
		viewer.FromContext(ctx).PresentShareKey(*shareKey)
	}
	return r.space(ctx, id)
}

// spaceShareKey is Space.shareKey: the secret of a share-link space, for admins of the space.
func (r *Resolver) spaceShareKey(ctx context.Context, s *ent.Space) (*string, error) {
	if s.Visibility != space.VisibilityShareLink || s.DeletedAt != nil {
		return nil, nil
	}
	role, err := rule.SpaceRole(ctx, s)
	if err != nil || !role.AtLeast(viewer.RoleAdmin) {
		return nil, err
	}
	return s.ShareKey, nil
}

// adminSpace returns a live space on which the viewer has the admin role.
// Returns NOT_FOUND when they cannot read it, FORBIDDEN when they can but are no admin of it.
func (r *Resolver) adminSpace(ctx context.Context, id, action string) (*ent.Space, error) {
	s, err := r.space(ctx, id)
	if err != nil {
		return nil, err
	}
	role, err := rule.SpaceRole(ctx, s)
	if err != nil {
		return nil, err
	}
	if !role.AtLeast(viewer.RoleAdmin) {
		return nil, apperr.Forbiddenf("only admins of the space may %s", action)
	}
	return s, nil
}

// spacePermissions derives Space.permissions from the effective role: view and access take read,
// comment comment, edit edit, review and merge review; admin, viewInviteLinks, triggerGitSync
// and installIntegration take admin.
func spacePermissions(role viewer.Role) *model.SpacePermissions {
	admin := role.AtLeast(viewer.RoleAdmin)
	review := role.AtLeast(viewer.RoleReview)
	return &model.SpacePermissions{
		View: role.AtLeast(viewer.RoleRead), Access: role.AtLeast(viewer.RoleRead),
		Admin: admin, ViewInviteLinks: admin, TriggerGitSync: admin, InstallIntegration: admin,
		Edit: role.AtLeast(viewer.RoleEdit), Comment: role.AtLeast(viewer.RoleComment),
		Merge: review, Review: review,
	}
}

func (r *Resolver) spacePermissionsOf(ctx context.Context, s *ent.Space) (*model.SpacePermissions, error) {
	if s.DeletedAt != nil {
		return spacePermissions(""), nil
	}
	role, err := loader.For(ctx, r.Client).SpaceRole(ctx, s)
	return spacePermissions(role), err
}

func spaceDefaultLevel(s *ent.Space) *string { return enumString(s.DefaultLevel) }

// spaces lists the live spaces of an organization the viewer can read, by sibling position then
// id (creation order until a move changes it).
func (r *Resolver) spaces(ctx context.Context, o *ent.Organization, first *int, after *string) (*model.SpaceConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := flat(ctx, r.Client.Space.Query().Where(space.OrganizationID(o.ID), space.DeletedAtIsNil()),
		page.Order{Column: space.FieldPosition}, args, false, spaceCursor)
	if err != nil {
		return nil, err
	}
	return spaceConnection(ctx, p), nil
}

func spaceCursor(s *ent.Space) page.Cursor { return page.Cursor{Key: s.Position, ID: s.ID} }

// createSpace creates a space at the end of its parent collection's children (or of the top level)
// with one empty revision. It takes the create role where the space goes.
func (r *Resolver) createSpace(ctx context.Context, orgID string, in model.CreateSpaceInput) (*ent.Space, error) {
	if _, err := r.organization(ctx, orgID); err != nil {
		return nil, err
	}
	title, err := trimmedText("title", derefOr(in.Title, untitled), 1, maxSpaceTitle)
	if err != nil {
		return nil, err
	}
	emoji, err := trimmedText("emoji", derefOr(in.Emoji, ""), 0, maxEmoji)
	if err != nil {
		return nil, err
	}
	if err := r.checkCreateIn(ctx, orgID, in.Parent); err != nil {
		return nil, err
	}
	id, err := r.insertSpace(ctx, orgID, in.Parent, nil, tree.EmptyRoot, func(c *ent.SpaceCreate) {
		c.SetTitle(title).SetEmoji(emoji).SetDefaultLevel(space.DefaultLevelInherit)
	})
	if err != nil {
		return nil, err
	}
	return r.space(ctx, id)
}

// insertSpace makes a space of organization orgID in one transaction: set fills in its fields,
// it is placed under parent where pos says (nil: at the end), and it gets a first revision over
// the root tree. Returns the new space's id.
func (r *Resolver) insertSpace(ctx context.Context, orgID string, parent *string, pos *model.ContentPositionInput,
	root string, set func(*ent.SpaceCreate)) (string, error) {
	var id string
	err := txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		s, err := r.insertSpaceTx(ctx, tx, orgID, parent, pos, root, set)
		if err == nil {
			id = s.ID
		}
		return err
	})
	return id, err
}

// insertSpaceTx is insertSpace in the transaction tx, for writes that make a space among others.
func (r *Resolver) insertSpaceTx(ctx context.Context, tx *ent.Tx, orgID string, parent *string, pos *model.ContentPositionInput,
	root string, set func(*ent.SpaceCreate)) (*ent.Space, error) {
	key, err := place(ctx, tx, orgID, parent, "", pos)
	if err != nil {
		return nil, err
	}
	c := tx.Space.Create().SetOrganizationID(orgID).SetNillableParentID(parent).SetPosition(key)
	set(c)
	s, err := c.Save(ctx)
	if err != nil {
		return nil, err
	}
	return s, r.revisions().StartContent(ctx, tx, s, root)
}

// updateSpace changes a space's title, emoji, visibility, edit mode and default level. It takes
// the admin role on the space; every field is checked before anything is written.
func (r *Resolver) updateSpace(ctx context.Context, spaceID string, in model.UpdateSpaceInput) (*ent.Space, error) {
	s, err := r.adminSpace(ctx, spaceID, "change it")
	if err != nil {
		return nil, err
	}
	// In a transaction: a new default level resolves again (rule.ResolveLevels) with the change.
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		upd := tx.Space.UpdateOne(s)
		if err := setSpaceFields(upd, s, in); err != nil {
			return err
		}
		return upd.Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return r.space(ctx, spaceID)
}

// setSpaceFields puts the changes of in to space s on upd. Returns INVALID naming the field.
func setSpaceFields(upd *ent.SpaceUpdateOne, s *ent.Space, in model.UpdateSpaceInput) error {
	if err := setTrimmed("title", in.Title, 1, maxSpaceTitle, upd.SetTitle); err != nil {
		return err
	}
	if err := setTrimmed("emoji", in.Emoji, 0, maxEmoji, upd.SetEmoji); err != nil {
		return err
	}
	if v := in.Visibility; v != nil {
		if *v == space.VisibilityInCollection && s.ParentID == nil {
			return apperr.Invalidf("visibility: in-collection is only for a space in a collection")
		}
		setShareKey(upd, s.Visibility, *v)
		upd.SetVisibility(*v)
	}
	if in.EditMode != nil {
		upd.SetEditMode(*in.EditMode)
	}
	return setOrClear(in.DefaultLevel, checkDefaultLevel,
		func(l string) *ent.SpaceUpdateOne { return upd.SetDefaultLevel(space.DefaultLevel(l)) }, upd.ClearDefaultLevel)
}

// setShareKey keeps a space's share key while it stays share-link, makes a new one when it becomes
// share-link (a link shared before is not revived), and drops it when it stops being share-link.
func setShareKey(upd *ent.SpaceUpdateOne, from, to space.Visibility) {
	switch {
	case to != space.VisibilityShareLink:
		upd.ClearShareKey()
	case from != to:
		upd.SetShareKey(*newShareKey(to))
	}
}

// newShareKey is a fresh, unguessable share key (internal/id: about 119 random bits) for a space
// with share-link visibility; nil for any other visibility.
func newShareKey(v space.Visibility) *string {
	if v != space.VisibilityShareLink {
		return nil
	}
	key := id.New()
	return &key
}

// deleteSpace deletes a space softly: it disappears from lists and reads, and organization
// admins may restore it for sweep.Retention. It leaves the sites that showed it, in the same
// transaction (a restore does not bring it back on them).
func (r *Resolver) deleteSpace(ctx context.Context, id string) (bool, error) {
	s, err := r.adminSpace(ctx, id, "delete it")
	if err != nil {
		return false, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if err := tx.Space.UpdateOne(s).SetDeletedAt(r.now(ctx)).Exec(ctx); err != nil {
			return err
		}
		_, err := sites.Leave(ctx, tx, sitespace.SpaceID(s.ID))
		return err
	})
	return err == nil, err
}

// restoreSpace brings back a space deleted less than sweep.Retention ago. Only organization admins
// see deleted spaces, so only they restore them; for everyone else, and after the retention, the
// space is NOT_FOUND. A live space is INVALID (nothing to restore).
func (r *Resolver) restoreSpace(ctx context.Context, id string) (*ent.Space, error) {
	v, err := viewerOf(ctx)
	if err != nil {
		return nil, err
	}
	s, err := r.Client.Space.Query().Where(space.ID(id)).Only(ctx)
	if err != nil {
		return nil, rule.NotFound(err, "space")
	}
	if s.DeletedAt == nil {
		return nil, apperr.Invalidf("the space is not deleted")
	}
	if !rule.HasOrgRole(v, s.OrganizationID, viewer.RoleAdmin) {
		return nil, apperr.NotFoundf("space not found")
	}
	if r.now(ctx).Sub(*s.DeletedAt) > sweep.Retention {
		return nil, apperr.NotFoundf("space not found: it was deleted more than 7 days ago")
	}
	if err := r.Client.Space.UpdateOne(s).ClearDeletedAt().Exec(ctx); err != nil {
		return nil, err
	}
	return r.space(ctx, id)
}

// duplicateSpace copies a space next to itself: same settings and content (a new revision over
// the same root tree), new ids, titled "<title> (copy)" within the title bound. Grants, custom
// field values and share keys are not copied (a share-link copy gets its own key). It takes read
// access to the space and the create role where the copy goes.
func (r *Resolver) duplicateSpace(ctx context.Context, id string) (*ent.Space, error) {
	s, err := r.space(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, member := viewer.FromContext(ctx).Membership(s.OrganizationID); !member {
		return nil, apperr.Forbiddenf("only members of the space's organization may duplicate it")
	}
	if err := r.checkCreateIn(ctx, s.OrganizationID, s.ParentID); err != nil {
		return nil, err
	}
	root, err := r.revisions().CopyContent(ctx, s)
	if err != nil {
		return nil, err
	}
	next := &model.ContentPositionInput{After: &model.ContentPointerInput{Space: &s.ID}}
	newID, err := r.insertSpace(ctx, s.OrganizationID, s.ParentID, next, root, func(c *ent.SpaceCreate) {
		c.SetTitle(copyTitle(s.Title)).SetEmoji(s.Emoji).SetVisibility(s.Visibility).
			SetNillableShareKey(newShareKey(s.Visibility)).SetEditMode(s.EditMode).SetNillableDefaultLevel(s.DefaultLevel)
	})
	if err != nil {
		return nil, err
	}
	return r.space(ctx, newID)
}

// copyTitle is "<title> (copy)", the title cut so the whole stays within maxSpaceTitle characters.
func copyTitle(title string) string {
	keep := maxSpaceTitle - utf8.RuneCountInString(copySuffix)
	if utf8.RuneCountInString(title) > keep {
		title = strings.TrimSpace(string([]rune(title)[:keep]))
	}
	return title + copySuffix
}

// moveSpace moves a space to another parent collection (or the top level) and/or another place
// among its siblings. It takes the admin role on the space, and the create role where it goes
// when the parent changes.
func (r *Resolver) moveSpace(ctx context.Context, id string, in model.MoveSpaceInput) (*ent.Space, error) {
	s, err := r.adminSpace(ctx, id, "move it")
	if err != nil {
		return nil, err
	}
	parent := s.ParentID
	if in.Parent.IsSet() {
		parent = in.Parent.Value()
		if derefOr(parent, "") != derefOr(s.ParentID, "") {
			if err := r.checkCreateIn(ctx, s.OrganizationID, parent); err != nil {
				return nil, err
			}
		}
	}
	if parent == nil && s.Visibility == space.VisibilityInCollection {
		return nil, apperr.Invalidf("parent: a space with visibility in-collection must stay in a collection (change its visibility first)")
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		pos, err := place(ctx, tx, s.OrganizationID, parent, s.ID, in.Position)
		if err != nil {
			return err
		}
		upd := tx.Space.UpdateOneID(s.ID).SetPosition(pos)
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
	return r.space(ctx, id)
}

// transferSpace moves a space to the top level of another organization. The caller must be an
// admin of both organizations. Grants, custom field values and site links belong to the old
// organization and are dropped; the space's revisions, change requests and comments follow it.
func (r *Resolver) transferSpace(ctx context.Context, id, orgID string) (*ent.Space, error) {
	s, err := r.space(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := r.checkTransfer(ctx, "space", s.OrganizationID, orgID); err != nil {
		return nil, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		pos, err := place(ctx, tx, orgID, nil, s.ID, nil)
		if err != nil {
			return err
		}
		if err := moveSpaceRows(ctx, tx, orgID, s.ID); err != nil {
			return err
		}
		upd := tx.Space.UpdateOneID(s.ID).SetOrganizationID(orgID).ClearParentID().SetPosition(pos)
		if s.Visibility == space.VisibilityInCollection {
			upd.SetVisibility(space.VisibilityPrivate)
		}
		return upd.Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return r.space(ctx, id)
}

// moveSpaceRows makes the rows of spaces that move to organization orgID follow them: the rows that
// tie them to their old organization's people, definitions and sites are dropped, the rows of
// their content rehomed.
func moveSpaceRows(ctx context.Context, tx *ent.Tx, orgID string, spaceIDs ...string) error {
	if err := dropSpaceLinks(ctx, tx, spaceIDs); err != nil {
		return err
	}
	return rehomeSpaceRows(ctx, tx, orgID, spaceIDs)
}

// checkTransfer checks that the viewer may move a space or collection (kind) from organization
// from to organization to: admin of both. Returns FORBIDDEN when they are no admin of from,
// NOT_FOUND when they cannot see to, INVALID when to is from, FORBIDDEN when they are no admin of to.
func (r *Resolver) checkTransfer(ctx context.Context, kind, from, to string) error {
	v := viewer.FromContext(ctx)
	if !rule.HasOrgRole(v, from, viewer.RoleAdmin) {
		return apperr.Forbiddenf("transferring a %s takes the admin role in both organizations, its own included", kind)
	}
	if _, err := r.organization(ctx, to); err != nil {
		return err
	}
	if to == from {
		return apperr.Invalidf("organization: the %s is already in this organization", kind)
	}
	if !rule.HasOrgRole(v, to, viewer.RoleAdmin) {
		return apperr.Forbiddenf("organization: transferring a %s takes the admin role in both organizations, the target one included", kind)
	}
	return nil
}

// dropSpaceLinks removes the grants, custom field values and site spaces of spaces (their
// policies let organization admins remove them, from deleted spaces too); the spaces leave their
// sites as sites.Leave says.
func dropSpaceLinks(ctx context.Context, tx *ent.Tx, spaceIDs []string) error {
	if _, err := tx.PermissionGrant.Delete().Where(permissiongrant.SpaceIDIn(spaceIDs...)).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.CustomFieldValue.Delete().Where(customfieldvalue.SpaceIDIn(spaceIDs...)).Exec(ctx); err != nil {
		return err
	}
	_, err := sites.Leave(ctx, tx, sitespace.SpaceIDIn(spaceIDs...))
	return err
}

// rehomeSpaceRows moves the rows of spaces' content (revisions, change requests, comments,
// replies, reactions) to organization orgID. Their organization_id is immutable for every other
// write and no rule lets a viewer change it: it is set by a modifier, with the policy's decision
// made, because these rows only follow their space, whose move the space policy decides (admin
// of both organizations) in the same transaction.
func rehomeSpaceRows(ctx context.Context, tx *ent.Tx, orgID string, spaceIDs []string) error {
	allowed := privacy.DecisionContext(ctx, privacy.Allow)
	set := func(u *sql.UpdateBuilder) { u.Set("organization_id", orgID) }
	steps := []func() error{
		func() error {
			return tx.Revision.Update().Where(revision.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.ChangeRequest.Update().Where(changerequest.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.Comment.Update().Where(comment.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.CommentReply.Update().Where(commentreply.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.Reaction.Update().Where(reaction.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
		func() error {
			return tx.MovedPage.Update().Where(movedpage.SpaceIDIn(spaceIDs...)).Modify(set).Exec(allowed)
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}
