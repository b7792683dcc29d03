package rule

import (
	"context"
	"strings"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
)

// OrganizationPermissions are the flags of Organization.permissions (spec/01): what the viewer may
// do with one organization.
type OrganizationPermissions struct {
	View, Access, Admin, OwnTeam, CreateContent, CreateOpenAPISpec, ViewBilling     bool
	ListMembers, ListTeams, ListIntegrations, ListInstallations, InstallIntegration bool
}

// ForOrganization computes the viewer's permissions on an organization. ownsTeam says whether the
// viewer owns a team there (it is not part of the viewer's memberships).
func ForOrganization(v *viewer.Viewer, orgID string, ownsTeam bool) OrganizationPermissions {
	role, member := v.Membership(orgID)
	return OrganizationPermissions{
		View:               member,
		Access:             member,
		Admin:              role.AtLeast(viewer.RoleAdmin),
		OwnTeam:            ownsTeam,
		CreateContent:      role.AtLeast(viewer.RoleCreate),
		CreateOpenAPISpec:  role.AtLeast(viewer.RoleReview),
		ViewBilling:        role.AtLeast(viewer.RoleAdmin),
		ListMembers:        role.AtLeast(viewer.RoleRead),
		ListTeams:          role.AtLeast(viewer.RoleRead),
		ListIntegrations:   role.AtLeast(viewer.RoleRead),
		ListInstallations:  role.AtLeast(viewer.RoleRead),
		InstallIntegration: role.AtLeast(viewer.RoleAdmin),
	}
}

// TeamPermissions are the flags of Team.permissions: admin (manage the team) and view.
type TeamPermissions struct{ Admin, View bool }

// ForTeam computes the viewer's permissions on a team of an organization; ownsTeam says whether
// the viewer is one of its owners.
func ForTeam(v *viewer.Viewer, orgID string, ownsTeam bool) TeamPermissions {
	role, _ := v.Membership(orgID)
	return TeamPermissions{Admin: role.AtLeast(viewer.RoleAdmin) || ownsTeam, View: role.AtLeast(viewer.RoleRead)}
}

// HasOrgRole reports whether the viewer's role in the organization is at least min.
func HasOrgRole(v *viewer.Viewer, orgID string, min viewer.Role) bool {
	role, _ := v.Membership(orgID)
	return role.AtLeast(min)
}

// RequireOrgRole answers FORBIDDEN, saying what for, unless the viewer's role in the
// organization is at least min.
func RequireOrgRole(ctx context.Context, orgID string, min viewer.Role, action string) error {
	if !HasOrgRole(viewer.FromContext(ctx), orgID, min) {
		return apperr.Forbiddenf("only members with the %s role may %s", min, action)
	}
	return nil
}

// EmailDomain returns the lower-cased domain of an email address, or "" when it has none.
func EmailDomain(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at < 0 || at == len(email)-1 {
		return ""
	}
	return strings.ToLower(email[at+1:])
}

// CustomFieldPermissions are the flags of CustomField.permissions: view and edit (change or
// delete the field).
type CustomFieldPermissions struct{ View, Edit bool }

// ForCustomField computes the viewer's permissions on a custom field of an organization: members
// with a role see it, admins manage it (the CustomField policy).
func ForCustomField(v *viewer.Viewer, orgID string) CustomFieldPermissions {
	role, _ := v.Membership(orgID)
	return CustomFieldPermissions{View: role.AtLeast(viewer.RoleRead), Edit: role.AtLeast(viewer.RoleAdmin)}
}

// SitePermissions are the flags of Site.permissions (the reference client's Site.permissions).
type SitePermissions struct {
	View, Access, Edit, Create, Admin, InstallIntegration, ViewAdaptiveSchema, EditAdaptiveSchema bool
}

// ForSite computes the viewer's permissions on a site of an organization: sites follow the
// organization role; members with a role read them, creators and admins manage them (the Site
// policy).
func ForSite(v *viewer.Viewer, orgID string) SitePermissions {
	role, _ := v.Membership(orgID)
	manage := role.AtLeast(viewer.RoleCreate)
	return SitePermissions{
		View: role.AtLeast(viewer.RoleRead), Access: role.AtLeast(viewer.RoleRead), Edit: role.AtLeast(viewer.RoleEdit),
		Create: manage, Admin: manage, InstallIntegration: manage,
		ViewAdaptiveSchema: role.AtLeast(viewer.RoleRead), EditAdaptiveSchema: manage,
	}
}
