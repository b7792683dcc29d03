// Package spaces holds the rules of an organization's spaces and of the collections that nest
// them: creating, changing, moving, deleting, restoring, duplicating and transferring them to
// another organization, the bounds of their inputs, and who may do each (the admin role on the
// object, the create role where it goes, admin of both organizations for a transfer). Collections
// and spaces under one parent are siblings in one order (siblings.go). The privacy rules of
// ent/rule decide who reads and writes each row beneath. It knows nothing of the surfaces: graph
// and rest translate, and graph keeps the reads it batches.
package spaces

import (
	"context"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

// untitled is the title of a collection or space created without one.
const untitled = "Untitled"

// Service is the spaces and collections of one server, as the viewer of a context writes them.
type Service struct {
	Client *ent.Client
	// Now is the current time, as stored.
	Now func(context.Context) time.Time
	// Organization reads an organization the viewer belongs to. Returns NOT_FOUND otherwise,
	// FORBIDDEN to a session its single sign-on refuses.
	Organization func(ctx context.Context, id string) (*ent.Organization, error)
	// Space reads a live space the viewer reads. Returns NOT_FOUND otherwise (deleted spaces
	// included), UNAUTHENTICATED without a viewer.
	Space func(ctx context.Context, id string) (*ent.Space, error)
	// Collection reads a collection the viewer reads. Returns NOT_FOUND otherwise,
	// UNAUTHENTICATED without a viewer.
	Collection func(ctx context.Context, id string) (*ent.Collection, error)
	// StartContent gives a space made in tx its first revision, over the root tree.
	StartContent func(ctx context.Context, tx *ent.Tx, s *ent.Space, root string) error
	// CopyContent stores a copy of a space's active content with new ids and returns its root
	// tree.
	CopyContent func(ctx context.Context, s *ent.Space) (string, error)
}

// admin reads a space or a collection (kind) with read and returns it when the viewer's role on
// it (roleOn) is admin; action says what they do, for the refusal. Returns read's error when they
// cannot read it, FORBIDDEN when they can but are no admin of it.
func admin[T any](ctx context.Context, kind, id, action string, read func(context.Context, string) (T, error),
	roleOn func(context.Context, T) (viewer.Role, error)) (T, error) {
	var none T
	o, err := read(ctx, id)
	if err != nil {
		return none, err
	}
	role, err := roleOn(ctx, o)
	if err != nil {
		return none, err
	}
	if !role.AtLeast(viewer.RoleAdmin) {
		return none, apperr.Forbiddenf("only admins of the %s may %s", kind, action)
	}
	return o, nil
}

// setParent puts a collection or space, or those an update matches, under parent (nil: the top
// level).
func setParent[U interface {
	ClearParentID() U
	SetParentID(string) U
}](upd U, parent *string) U {
	if parent == nil {
		return upd.ClearParentID()
	}
	return upd.SetParentID(*parent)
}

// checkCreateIn checks that the viewer may create content in a parent collection of the
// organization (create role or more on it), or at its top level (create role in the organization).
func checkCreateIn(ctx context.Context, orgID string, parent *string) error {
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
		return apperr.Invalidf("parent: no collection %q in this organization", check.Truncate(*parent, 80))
	}
	if !role.AtLeast(viewer.RoleCreate) {
		return apperr.Forbiddenf("creating content in this collection takes the create role on it")
	}
	return nil
}

// checkDefaultLevel accepts a role name or "inherit". Returns INVALID naming defaultLevel.
func checkDefaultLevel(l string) error {
	if l == rule.Inherit {
		return nil
	}
	if _, err := viewer.ParseRole(l); err != nil {
		return apperr.Invalidf("defaultLevel: must be a role (admin, create, review, edit, comment, read), inherit, or null (got %q)", check.Truncate(l, 40))
	}
	return nil
}

// valueOr is *p, or def when p is nil.
func valueOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}
