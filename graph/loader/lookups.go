package loader

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/viewer"
)

// MemberKey names one membership: a user in an organization.
type MemberKey struct{ OrgID, UserID string }

// byID returns a batch that reads rows by id (nil for an id without a row the viewer may see) and
// records them as a level.
func byID[T comparable](name string, read func(context.Context, *ent.Client, []string) ([]T, error), id func(T) string) *Batch[string, T] {
	return NewBatch(name, func(ctx context.Context, c *ent.Client, ids []string) (map[string]T, error) {
		rows, err := read(ctx, c, ids)
		Level(ctx, rows)
		return byKey(rows, id), err
	})
}

// Users looks up users by id: nil for one the viewer may not see.
var Users = byID("users", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.User, error) {
	return c.User.Query().Where(user.IDIn(ids...)).All(ctx)
}, func(u *ent.User) string { return u.ID })

// Teams looks up teams by id: nil for one the viewer may not see.
var Teams = byID("teams", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.Team, error) {
	return c.Team.Query().Where(team.IDIn(ids...)).All(ctx)
}, func(t *ent.Team) string { return t.ID })

// Members looks up memberships: nil for one the viewer may not see.
var Members = NewBatch("members", func(ctx context.Context, c *ent.Client, keys []MemberKey) (map[MemberKey]*ent.Member, error) {
	orgs, users := splitMemberKeys(keys)
	rows, err := c.Member.Query().Where(member.OrganizationIDIn(orgs...), member.UserIDIn(users...)).All(ctx)
	Level(ctx, rows)
	return byKey(rows, func(m *ent.Member) MemberKey { return MemberKey{m.OrganizationID, m.UserID} }), err
})

// TeamSize returns the number of members of a team.
func (l *Loaders) TeamSize(ctx context.Context, t *ent.Team) (int, error) {
	return Get(ctx, l.client, teamSizes, t, func(t *ent.Team) string { return t.ID })
}

var teamSizes = NewBatch("team sizes", func(ctx context.Context, c *ent.Client, ids []string) (map[string]int, error) {
	return countBy(ctx, teammember.FieldTeamID, c.TeamMember.Query().Where(teammember.TeamIDIn(ids...)).Modify)
})

// MemberTeamCount returns the number of teams a member belongs to in their organization.
func (l *Loaders) MemberTeamCount(ctx context.Context, m *ent.Member) (int, error) {
	return Get(ctx, l.client, memberTeamCounts, m, memberKey)
}

var memberTeamCounts = NewBatch("member team counts", func(ctx context.Context, c *ent.Client, keys []MemberKey) (map[MemberKey]int, error) {
	orgs, users := splitMemberKeys(keys)
	return countByMember(ctx, c.TeamMember.Query().Where(teammember.OrganizationIDIn(orgs...), teammember.UserIDIn(users...)).Modify)
})

func memberKey(m *ent.Member) MemberKey { return MemberKey{m.OrganizationID, m.UserID} }

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
