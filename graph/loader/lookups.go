package loader

import (
	"context"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/viewer"
)

// MemberKey names one membership: a user in an organization.
type MemberKey struct{ OrgID, UserID string }

// User returns the user with the id, or nil when there is none the viewer may see.
func (l *Loaders) User(ctx context.Context, id string) (*ent.User, error) {
	return l.users.Load(ctx, id)()
}

// Member returns the membership of a user in an organization, or nil when there is none the
// viewer may see.
func (l *Loaders) Member(ctx context.Context, k MemberKey) (*ent.Member, error) {
	return l.members.Load(ctx, k)()
}

// Team returns the team with the id, or nil when there is none the viewer may see.
func (l *Loaders) Team(ctx context.Context, id string) (*ent.Team, error) {
	return l.teams.Load(ctx, id)()
}

// TeamSize returns the number of members of a team.
func (l *Loaders) TeamSize(ctx context.Context, teamID string) (int, error) {
	return l.teamSizes.Load(ctx, teamID)()
}

// MemberTeamCount returns the number of teams a member belongs to in their organization.
func (l *Loaders) MemberTeamCount(ctx context.Context, k MemberKey) (int, error) {
	return l.memberTeams.Load(ctx, k)()
}

// ownedTeams are the teams the viewer owns, and their organizations.
type ownedTeams struct{ teams, orgs map[string]bool }

// ViewerOwnsTeamIn reports whether the viewer owns a team of the organization.
func (l *Loaders) ViewerOwnsTeamIn(ctx context.Context, orgID string) (bool, error) {
	owned, err := l.viewerOwnedTeams(ctx)
	return owned.orgs[orgID], err
}

// ViewerOwnsTeam reports whether the viewer is an owner of the team.
func (l *Loaders) ViewerOwnsTeam(ctx context.Context, teamID string) (bool, error) {
	owned, err := l.viewerOwnedTeams(ctx)
	return owned.teams[teamID], err
}

func (l *Loaders) viewerOwnedTeams(ctx context.Context) (ownedTeams, error) {
	return l.ownedTeams.get(func() (ownedTeams, error) {
		rows, err := l.client.TeamMember.Query().
			Where(teammember.UserID(viewer.FromContext(ctx).UserID), teammember.RoleEQ(viewer.TeamOwner)).All(ctx)
		owned := ownedTeams{teams: map[string]bool{}, orgs: map[string]bool{}}
		for _, r := range rows {
			owned.teams[r.TeamID] = true
			owned.orgs[r.OrganizationID] = true
		}
		return owned, err
	})
}

func (l *Loaders) loadUsers(ctx context.Context, ids []string) []*dataloader.Result[*ent.User] {
	rows, err := l.client.User.Query().Where(user.IDIn(ids...)).All(ctx)
	if err != nil {
		return failAll[string, *ent.User](ids, err)
	}
	return results(ids, byKey(rows, func(u *ent.User) string { return u.ID }), nil)
}

func (l *Loaders) loadTeams(ctx context.Context, ids []string) []*dataloader.Result[*ent.Team] {
	rows, err := l.client.Team.Query().Where(team.IDIn(ids...)).All(ctx)
	if err != nil {
		return failAll[string, *ent.Team](ids, err)
	}
	return results(ids, byKey(rows, func(t *ent.Team) string { return t.ID }), nil)
}

func (l *Loaders) loadMembers(ctx context.Context, keys []MemberKey) []*dataloader.Result[*ent.Member] {
	orgs, users := splitMemberKeys(keys)
	rows, err := l.client.Member.Query().Where(member.OrganizationIDIn(orgs...), member.UserIDIn(users...)).All(ctx)
	if err != nil {
		return failAll[MemberKey, *ent.Member](keys, err)
	}
	return results(keys, byKey(rows, func(m *ent.Member) MemberKey { return MemberKey{m.OrganizationID, m.UserID} }), nil)
}

func (l *Loaders) loadTeamSizes(ctx context.Context, ids []string) []*dataloader.Result[int] {
	counts, err := countBy(ctx, teammember.FieldTeamID, l.client.TeamMember.Query().Where(teammember.TeamIDIn(ids...)).Modify)
	if err != nil {
		return failAll[string, int](ids, err)
	}
	return results(ids, counts, nil)
}

func (l *Loaders) loadMemberTeamCounts(ctx context.Context, keys []MemberKey) []*dataloader.Result[int] {
	orgs, users := splitMemberKeys(keys)
	counts, err := countByMember(ctx, l.client.TeamMember.Query().
		Where(teammember.OrganizationIDIn(orgs...), teammember.UserIDIn(users...)).Modify)
	if err != nil {
		return failAll[MemberKey, int](keys, err)
	}
	return results(keys, counts, nil)
}

func splitMemberKeys(keys []MemberKey) (orgs, users []string) {
	for _, k := range keys {
		orgs = append(orgs, k.OrgID)
		users = append(users, k.UserID)
	}
	return orgs, users
}

func byKey[K comparable, V any](rows []V, key func(V) K) map[K]V {
	m := make(map[K]V, len(rows))
	for _, r := range rows {
		m[key(r)] = r
	}
	return m
}
