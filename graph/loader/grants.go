package loader

import (
	"context"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/binderyhq/bindery/ent/permissiongrant"
)

// MemberSpaceCount returns the number of spaces a member was granted access to in their organization.
func (l *Loaders) MemberSpaceCount(ctx context.Context, k MemberKey) (int, error) {
	return l.userSpaces.Load(ctx, k)()
}

// TeamSpaceCount returns the number of spaces a team was granted access to.
func (l *Loaders) TeamSpaceCount(ctx context.Context, teamID string) (int, error) {
	return l.teamSpaces.Load(ctx, teamID)()
}

func (l *Loaders) loadUserSpaceCounts(ctx context.Context, keys []MemberKey) []*dataloader.Result[int] {
	orgs, users := splitMemberKeys(keys)
	counts, err := countByMember(ctx, l.client.PermissionGrant.Query().
		Where(permissiongrant.OrganizationIDIn(orgs...), permissiongrant.UserIDIn(users...), permissiongrant.SpaceIDNotNil()).Modify)
	if err != nil {
		return failAll[MemberKey, int](keys, err)
	}
	return results(keys, counts, nil)
}

func (l *Loaders) loadTeamSpaceCounts(ctx context.Context, teamIDs []string) []*dataloader.Result[int] {
	counts, err := countBy(ctx, permissiongrant.FieldTeamID, l.client.PermissionGrant.Query().
		Where(permissiongrant.TeamIDIn(teamIDs...), permissiongrant.SpaceIDNotNil()).Modify)
	if err != nil {
		return failAll[string, int](teamIDs, err)
	}
	return results(teamIDs, counts, nil)
}
