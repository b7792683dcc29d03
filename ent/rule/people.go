package rule

import (
	"context"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
	"entgo.io/ent/entql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/viewer"
)

// FilterVisibleUsers limits reads of users to the viewer and the people of the viewer's organizations.
func FilterVisibleUsers() privacy.QueryRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v := viewer.FromContext(ctx)
		f.Where(entql.Or(
			entql.FieldEQ("id", userID(v)),
			entql.HasEdgeWith("memberships", orgIn(v.OrganizationIDs(""))),
		))
		return privacy.Allow
	})
}

// FilterOwnTokens limits reads of API tokens to the viewer's own.
func FilterOwnTokens() privacy.QueryRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		f.Where(entql.FieldEQ("user_id", userID(viewer.FromContext(ctx))))
		return privacy.Allow
	})
}

func userID(v *viewer.Viewer) string {
	if v == nil {
		return ""
	}
	return v.UserID
}

type discoveryKey struct{}

// WithDomainDiscovery marks ctx as looking for organizations that people of an email domain may
// join: reads of organizations then also see those that list the viewer's own email domain.
func WithDomainDiscovery(ctx context.Context) context.Context {
	return context.WithValue(ctx, discoveryKey{}, true)
}

// FilterOrganizations limits reads of organizations to those the viewer belongs to (guests too),
// plus, under WithDomainDiscovery, those that list the viewer's email domain.
func FilterOrganizations() privacy.QueryRule {
	return privacy.OrganizationQueryRuleFunc(func(ctx context.Context, q *ent.OrganizationQuery) error {
		v := viewer.FromContext(ctx)
		visible := organization.IDIn(v.OrganizationIDs("")...)
		if domain := EmailDomain(userEmail(v)); domain != "" && ctx.Value(discoveryKey{}) != nil {
			visible = organization.Or(visible, predicate.Organization(func(s *sql.Selector) {
				s.Where(sqljson.ValueContains(organization.FieldEmailDomains, domain))
			}))
		}
		q.Where(visible)
		return privacy.Allow
	})
}

func userEmail(v *viewer.Viewer) string {
	if v == nil {
		return ""
	}
	return v.Email
}

// AllowOrganizationCreate lets any signed-in user found an organization.
func AllowOrganizationCreate() privacy.MutationRule {
	return privacy.OrganizationMutationRuleFunc(func(ctx context.Context, m *ent.OrganizationMutation) error {
		if m.Op().Is(ent.OpCreate) && userID(viewer.FromContext(ctx)) != "" {
			return privacy.Allow
		}
		return privacy.Skip
	})
}

// AllowOrganizationAdmin lets admins change or delete their organizations.
func AllowOrganizationAdmin() privacy.MutationRule {
	return privacy.OrganizationMutationRuleFunc(func(ctx context.Context, m *ent.OrganizationMutation) error {
		if m.Op().Is(ent.OpCreate) {
			return privacy.Skip
		}
		m.Where(organization.IDIn(viewer.FromContext(ctx).OrganizationIDs(viewer.RoleAdmin)...))
		return privacy.Allow
	})
}

// FilterMembers lets members with a role list their organizations' members; everyone, guests
// included, sees their own memberships.
func FilterMembers() privacy.QueryRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v := viewer.FromContext(ctx)
		f.Where(entql.Or(orgIn(v.OrganizationIDs(viewer.RoleRead)), entql.FieldEQ("user_id", userID(v))))
		return privacy.Allow
	})
}

// Invite is what an invite link grants: a membership of one organization with one role (nil for a guest).
type Invite struct {
	OrganizationID string
	Role           *viewer.Role
}

type inviteKey struct{}

// WithInvite returns ctx carrying an invite the viewer holds, so the viewer may join with it.
func WithInvite(ctx context.Context, inv Invite) context.Context {
	return context.WithValue(ctx, inviteKey{}, inv)
}

// MemberWrites decides writes to memberships. Admins add, change and remove members. A user may
// add themself as the first admin of an organization they just created, or with the role of an
// invite they hold (WithInvite); and may leave an organization or record that they were seen, but
// change no other field of their own membership (their role above all).
func MemberWrites() privacy.MutationRule {
	return privacy.MemberMutationRuleFunc(func(ctx context.Context, m *ent.MemberMutation) error {
		v := viewer.FromContext(ctx)
		if m.Op().Is(ent.OpCreate) {
			return memberCreate(ctx, m, v)
		}
		allowed := []predicate.Member{member.OrganizationIDIn(v.OrganizationIDs(viewer.RoleAdmin)...)}
		if m.Op().Is(ent.OpDelete|ent.OpDeleteOne) || onlySeenAt(m) {
			allowed = append(allowed, member.UserID(userID(v)))
		}
		m.Where(member.Or(allowed...))
		return privacy.Allow
	})
}

func onlySeenAt(m *ent.MemberMutation) bool {
	for _, f := range m.Fields() {
		if f != member.FieldLastSeenAt {
			return false
		}
	}
	return len(m.ClearedFields()) == 0
}

func memberCreate(ctx context.Context, m *ent.MemberMutation, v *viewer.Viewer) error {
	orgID, _ := m.OrganizationID()
	if role, _ := v.Membership(orgID); role.AtLeast(viewer.RoleAdmin) {
		return privacy.Allow
	}
	uid, _ := m.UserID()
	if uid != userID(v) {
		return privacy.Denyf("only admins add other people to an organization")
	}
	role, hasRole := m.Role()
	if inv, ok := ctx.Value(inviteKey{}).(Invite); ok && inv.OrganizationID == orgID {
		if (inv.Role == nil && !hasRole) || (inv.Role != nil && hasRole && *inv.Role == role) {
			return privacy.Allow
		}
	}
	if role != viewer.RoleAdmin {
		return privacy.Denyf("joining an organization takes an invite")
	}
	n, err := m.Client().Member.Query().Where(member.OrganizationID(orgID)).Count(privacy.DecisionContext(ctx, privacy.Allow))
	if err != nil {
		return err
	}
	if n > 0 {
		return privacy.Denyf("joining an organization takes an invite")
	}
	return privacy.Allow
}

// TeamMemberWrites lets admins and a team's owners add, change and remove the team's members.
func TeamMemberWrites() privacy.MutationRule {
	return privacy.TeamMemberMutationRuleFunc(func(ctx context.Context, m *ent.TeamMemberMutation) error {
		v := viewer.FromContext(ctx)
		owned, err := OwnedTeamIDs(ctx, m.Client(), userID(v))
		if err != nil {
			return err
		}
		if m.Op().Is(ent.OpCreate) {
			orgID, _ := m.OrganizationID()
			teamID, _ := m.TeamID()
			if role, _ := v.Membership(orgID); role.AtLeast(viewer.RoleAdmin) || contains(owned, teamID) {
				return privacy.Allow
			}
			return privacy.Denyf("only admins and the team's owners change its members")
		}
		m.Where(teammember.Or(
			teammember.OrganizationIDIn(v.OrganizationIDs(viewer.RoleAdmin)...),
			teammember.TeamIDIn(owned...),
		))
		return privacy.Allow
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// OwnedTeamIDs lists the teams in which the user is an owner.
func OwnedTeamIDs(ctx context.Context, client *ent.Client, userID string) ([]string, error) {
	return client.TeamMember.Query().
		Where(teammember.UserID(userID), teammember.RoleEQ(viewer.TeamOwner)).
		Select(teammember.FieldTeamID).
		Strings(privacy.DecisionContext(ctx, privacy.Allow))
}
