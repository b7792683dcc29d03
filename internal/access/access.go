// Package access holds the rules of grants: explicit roles on a space or a collection given to
// users and teams of its organization, and the effective role each member has there. The admins
// of the object (rule.GrantWrites) grant, change and revoke; members with a role in the
// organization list who has access. A role on a collection reaches everything below it, and the
// highest of a member's roles applies (rule.ContentRole). It knows nothing of the surfaces: graph
// and rest translate, and graph keeps the lists and fields it batches through its loaders.
//
// Organizations, members and teams are internal/orgs, not here: grants are decided over the
// content tree and changed by the admins of the content, whom the spaces' domain reads, while the
// people of an organization depend on no content. Grants only ask whether a user is a member,
// and a team a team, of the object's organization.
package access

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
)

// Service is the grants of one server, as the viewer of a context reads and writes them.
type Service struct {
	Client *ent.Client
	// AdminSpace reads a live space the viewer administers; action says what for, for the
	// refusal. Returns NOT_FOUND when the viewer cannot read it, FORBIDDEN when they are no admin
	// of it.
	AdminSpace func(ctx context.Context, id, action string) (*ent.Space, error)
	// AdminCollection is AdminSpace for a collection.
	AdminCollection func(ctx context.Context, id, action string) (*ent.Collection, error)
}

// Target is the space or collection grants are on: one of SpaceID and CollectionID is set.
type Target struct {
	OrgID, SpaceID, CollectionID string
}

// SpaceTarget is the grants on a space.
func SpaceTarget(s *ent.Space) Target { return Target{OrgID: s.OrganizationID, SpaceID: s.ID} }

// CollectionTarget is the grants on a collection.
func CollectionTarget(c *ent.Collection) Target {
	return Target{OrgID: c.OrganizationID, CollectionID: c.ID}
}

// ID is the id of the space or collection.
func (t Target) ID() string { return t.SpaceID + t.CollectionID }

// Kind is "space" or "collection", for messages.
func (t Target) Kind() string {
	if t.SpaceID != "" {
		return "space"
	}
	return "collection"
}

// Where matches the grants on the target.
func (t Target) Where() predicate.PermissionGrant {
	if t.SpaceID != "" {
		return permissiongrant.SpaceID(t.SpaceID)
	}
	return permissiongrant.CollectionID(t.CollectionID)
}

// grantAction is what the admins of a space or collection do with its grants, for the refusal.
const grantAction = "grant or revoke access to it"

// AdminSpaceTarget returns the grants of a space the viewer may change. Returns NOT_FOUND when
// they cannot read it, FORBIDDEN when they are no admin of it.
func (svc *Service) AdminSpaceTarget(ctx context.Context, id string) (Target, error) {
	s, err := svc.AdminSpace(ctx, id, grantAction)
	if err != nil {
		return Target{}, err
	}
	return SpaceTarget(s), nil
}

// AdminCollectionTarget is AdminSpaceTarget for a collection.
func (svc *Service) AdminCollectionTarget(ctx context.Context, id string) (Target, error) {
	c, err := svc.AdminCollection(ctx, id, grantAction)
	if err != nil {
		return Target{}, err
	}
	return CollectionTarget(c), nil
}

// CheckList refuses viewers without a role in the target's organization (guests, outsiders
// reading a public space): who has access is for the organization's members. Returns FORBIDDEN.
func CheckList(ctx context.Context, t Target) error {
	if !rule.HasOrgRole(viewer.FromContext(ctx), t.OrgID, viewer.RoleRead) {
		return apperr.Forbiddenf("only members with a role in the organization may list who has access to a %s", t.Kind())
	}
	return nil
}
