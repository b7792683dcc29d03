package rule

import (
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
)

// FilterSiteSpaces limits reads of site spaces to those of sites the viewer sees (their role in
// the site's organization is at least min) that show a space the viewer may read: a site space
// shows its space, so it is no wider a window on the space than the space itself.
func FilterSiteSpaces(min viewer.Role) privacy.QueryRule {
	return narrowing(func(v *viewer.Viewer, col columns) cond {
		return and(in(col("organization_id"), v.OrganizationIDs(min)), spaceWithRole(v, viewer.RoleRead, col("space_id")))
	})
}
