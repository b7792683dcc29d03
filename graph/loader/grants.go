package loader

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/permissiongrant"
)

// MemberSpaceCount returns the number of spaces a member was granted access to in their organization.
func (l *Loaders) MemberSpaceCount(ctx context.Context, m *ent.Member) (int, error) {
	return Get(ctx, l.client, memberSpaceCounts, m, memberKey)
}

// TeamSpaceCount returns the number of spaces a team was granted access to.
func (l *Loaders) TeamSpaceCount(ctx context.Context, t *ent.Team) (int, error) {
	return Get(ctx, l.client, teamSpaceCounts, t, func(t *ent.Team) string { return t.ID })
}

var memberSpaceCounts = NewBatch("member space counts", func(ctx context.Context, c *ent.Client, keys []MemberKey) (map[MemberKey]int, error) {
	orgs, users := splitMemberKeys(keys)
	return countByMember(ctx, c.PermissionGrant.Query().
		Where(permissiongrant.OrganizationIDIn(orgs...), permissiongrant.UserIDIn(users...), permissiongrant.SpaceIDNotNil()).Modify)
})

var teamSpaceCounts = NewBatch("team space counts", func(ctx context.Context, c *ent.Client, teamIDs []string) (map[string]int, error) {
	return countBy(ctx, permissiongrant.FieldTeamID, c.PermissionGrant.Query().
		Where(permissiongrant.TeamIDIn(teamIDs...), permissiongrant.SpaceIDNotNil()).Modify)
})
