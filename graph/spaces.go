package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/spaces"
	"github.com/binderyhq/bindery/internal/sqlplan"
)

// Spaces translate between GraphQL and internal/spaces, which holds the rules of their writes and
// of collections'; graph keeps the reads, through the Space policy and the loaders that batch a
// whole level of a query.

// space returns a live space the viewer can read. Returns NOT_FOUND otherwise (deleted spaces
// included: only restore reaches them).
func (r *Resolver) space(ctx context.Context, id string) (*ent.Space, error) {
	return r.spaceOf(ctx, id)
}

// spaceOf is space with the columns named read (every column when none is). The read, with the
// access rules' statements it runs, is by key (sqlplan): the space's id, the viewer's.
func (r *Resolver) spaceOf(ctx context.Context, id string, columns ...string) (*ent.Space, error) {
	if _, err := rule.RequireViewer(ctx); err != nil {
		return nil, err
	}
	q := r.Client.Space.Query().Where(space.ID(id), space.DeletedAtIsNil())
	if columns != nil {
		q = q.Select(columns...).SpaceQuery
	}
	s, err := q.Only(sqlplan.ByKey(ctx))
	return s, r.SSO().Hidden(ctx, rule.NotFound(err, "space"), func(sys context.Context) (string, error) {
		return r.Client.Space.Query().Where(space.ID(id)).Select(space.FieldOrganizationID).String(sys)
	})
}

// sharedSpace is space, after recording the share key the viewer presented (if any): for the
// rest of the request the share-link space with that key is readable to them, nested fields
// (permissions) included.
func (r *Resolver) sharedSpace(ctx context.Context, id string, shareKey *string, columns ...string) (*ent.Space, error) {
	if shareKey != nil {
		viewer.FromContext(ctx).PresentShareKey(*shareKey)
	}
	return r.spaceOf(ctx, id, columns...)
}

// spaceColumns are the columns each field of Space reads of its row, for a point read that reads
// only those asked (objectColumns): go-sqlite3 converts every column read, timestamps parsed from
// text. A field not named here (permissions, revision, and those added later) reads every column.
var spaceColumns = map[string][]string{
	"id":                      nil,
	"title":                   {space.FieldTitle},
	"emoji":                   {space.FieldEmoji},
	"visibility":              {space.FieldVisibility},
	"editMode":                {space.FieldEditMode},
	"createdAt":               {space.FieldCreatedAt},
	"updatedAt":               {space.FieldUpdatedAt},
	"deletedAt":               {space.FieldDeletedAt},
	"organizationId":          {space.FieldOrganizationID},
	"parentId":                {space.FieldParentID},
	"defaultLevel":            {space.FieldDefaultLevel},
	"changeRequestCount":      {space.FieldChangeRequestsCount},
	"openChangeRequestCount":  {space.FieldChangeRequestsOpenCount},
	"draftChangeRequestCount": {space.FieldChangeRequestsDraftCount},
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

// spacesService is the spaces and collections as this resolver's viewer writes them.
func (r *Resolver) spacesService() *spaces.Service {
	rev := r.revisions()
	return &spaces.Service{Client: r.Client, Now: r.now, Organization: r.organization, Space: r.space,
		Collection: r.collection, StartContent: rev.StartContent, CopyContent: rev.CopyContent}
}

// adminSpace returns a live space on which the viewer has the admin role
// (spaces.Service.AdminSpace).
func (r *Resolver) adminSpace(ctx context.Context, id, action string) (*ent.Space, error) {
	return r.spacesService().AdminSpace(ctx, id, action)
}

// createSpace is Mutation.createSpace (spaces.Service.CreateSpace).
func (r *Resolver) createSpace(ctx context.Context, orgID string, in model.CreateSpaceInput) (*ent.Space, error) {
	return r.spacesService().CreateSpace(ctx, orgID, spaces.NewSpace{Title: in.Title, Emoji: in.Emoji, Parent: in.Parent})
}

// updateSpace is Mutation.updateSpace (spaces.Service.UpdateSpace).
func (r *Resolver) updateSpace(ctx context.Context, id string, in model.UpdateSpaceInput) (*ent.Space, error) {
	return r.spacesService().UpdateSpace(ctx, id, spaces.SpaceChange{Title: in.Title, Emoji: in.Emoji,
		Visibility: in.Visibility, EditMode: in.EditMode, DefaultLevel: nullable(in.DefaultLevel),
		MergeRules: mergeRulesInput(in.MergeRules)})
}

// deleteSpace is Mutation.deleteSpace (spaces.Service.DeleteSpace).
func (r *Resolver) deleteSpace(ctx context.Context, id string) (bool, error) {
	err := r.spacesService().DeleteSpace(ctx, id)
	return err == nil, err
}

// restoreSpace is Mutation.restoreSpace, for a signed-in viewer (spaces.Service.RestoreSpace).
func (r *Resolver) restoreSpace(ctx context.Context, id string) (*ent.Space, error) {
	if _, err := rule.RequireViewer(ctx); err != nil {
		return nil, err
	}
	return r.spacesService().RestoreSpace(ctx, id)
}

// duplicateSpace is Mutation.duplicateSpace (spaces.Service.DuplicateSpace).
func (r *Resolver) duplicateSpace(ctx context.Context, id string) (*ent.Space, error) {
	return r.spacesService().DuplicateSpace(ctx, id)
}

// moveSpace is Mutation.moveSpace (spaces.Service.MoveSpace).
func (r *Resolver) moveSpace(ctx context.Context, id string, in model.MoveSpaceInput) (*ent.Space, error) {
	return r.spacesService().MoveSpace(ctx, id, spaces.Move{Parent: nullable(in.Parent), Position: contentPosition(in.Position)})
}

// transferSpace is Mutation.transferSpace (spaces.Service.TransferSpace).
func (r *Resolver) transferSpace(ctx context.Context, id, orgID string) (*ent.Space, error) {
	return r.spacesService().TransferSpace(ctx, id, orgID)
}

// contentPosition is a place among sibling collections and spaces as internal/spaces takes it.
func contentPosition(in *model.ContentPositionInput) *spaces.Position {
	if in == nil {
		return nil
	}
	return &spaces.Position{Before: (*spaces.Pointer)(in.Before), After: (*spaces.Pointer)(in.After)}
}
