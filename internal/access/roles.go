package access

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/viewer"
)

// MemberRole is a member's effective role on a space or collection.
type MemberRole struct {
	User *ent.User
	Role viewer.Role
}

// EffectiveRoles computes the effective role of every member of the target's organization on it
// (rule.ContentRole over each member's grants, direct and through teams), sorted by user id;
// members without access are left out. Statements: the members with their users, the grants on
// the target and the collections above it, and the memberships of the teams granted. The viewer
// must have a role in the organization (CheckList), so the policies let them read all of these.
func (svc *Service) EffectiveRoles(ctx context.Context, t Target) ([]MemberRole, error) {
	c, err := rule.Above(ctx, t.OrgID, t.ID(), t.SpaceID != "")
	if err != nil || c == nil {
		return nil, err
	}
	chain := c.Ancestry(t.ID())
	grants, err := svc.Client.PermissionGrant.Query().Where(permissiongrant.OrganizationID(t.OrgID),
		permissiongrant.Or(permissiongrant.SpaceIDIn(chain...), permissiongrant.CollectionIDIn(chain...))).All(ctx)
	if err != nil {
		return nil, err
	}
	byUser, err := svc.grantsByUser(ctx, grants)
	if err != nil {
		return nil, err
	}
	members, err := svc.Client.Member.Query().Where(member.OrganizationID(t.OrgID)).WithUser().
		Order(ent.Asc(member.FieldUserID)).All(ctx)
	if err != nil {
		return nil, err
	}
	var out []MemberRole
	for _, m := range members {
		mc := &rule.Content{Member: true, Nodes: c.Nodes, Grants: byUser[m.UserID]}
		if m.Role != nil {
			mc.OrgRole = *m.Role
		}
		if role := rule.ContentRole(mc, t.ID()); role != "" && m.Edges.User != nil {
			out = append(out, MemberRole{User: m.Edges.User, Role: role})
		}
	}
	return out, nil
}

// grantsByUser is, for each user, the highest role granted on each space or collection, to them
// or to a team of theirs (whose memberships it reads).
func (svc *Service) grantsByUser(ctx context.Context, grants []*ent.PermissionGrant) (userGrants, error) {
	byUser := userGrants{}
	byTeam := map[string][]*ent.PermissionGrant{}
	var teamIDs []string
	for _, g := range grants {
		if g.UserID != nil {
			byUser.add(*g.UserID, g)
		} else if g.TeamID != nil {
			teamIDs = append(teamIDs, *g.TeamID)
			byTeam[*g.TeamID] = append(byTeam[*g.TeamID], g)
		}
	}
	if len(teamIDs) == 0 {
		return byUser, nil
	}
	tms, err := svc.Client.TeamMember.Query().Where(teammember.TeamIDIn(teamIDs...)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, tm := range tms {
		for _, g := range byTeam[tm.TeamID] {
			byUser.add(tm.UserID, g)
		}
	}
	return byUser, nil
}

// userGrants is, for each user, the highest role granted on each space or collection.
type userGrants map[string]map[string]viewer.Role

// add counts a grant for a user, unless they already have a role as high on its object.
func (u userGrants) add(user string, g *ent.PermissionGrant) {
	var target string
	if g.SpaceID != nil {
		target = *g.SpaceID
	}
	if g.CollectionID != nil {
		target += *g.CollectionID
	}
	if u[user] == nil {
		u[user] = map[string]viewer.Role{}
	}
	if !u[user][target].AtLeast(g.Role) {
		u[user][target] = g.Role
	}
}
