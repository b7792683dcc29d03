package rule

import (
	"context"

	entgo "entgo.io/ent"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/user"
)

// AccessVersions is the hook of memberships that moves the access version of every user whose
// memberships a write creates, changes or removes, in the write's transaction. Authentication
// keeps a user's memberships under that version (accounts.Authenticator) and reads the version
// on every request, so a change made through any process is obeyed by all at the next request.
func AccessVersions() entgo.Hook {
	return func(next entgo.Mutator) entgo.Mutator {
		return entgo.MutateFunc(func(ctx context.Context, m entgo.Mutation) (entgo.Value, error) {
			if !changesMemberships(m) {
				return next.Mutate(ctx, m)
			}
			sys := privacy.DecisionContext(ctx, privacy.Allow)
			client := mutationClient(ctx, m)
			users, err := membershipUsers(sys, client, m)
			if err != nil {
				return nil, err
			}
			val, err := next.Mutate(ctx, m)
			if err != nil || len(users) == 0 {
				return val, err
			}
			return val, client.User.Update().Where(user.IDIn(users...)).AddAccessVersion(1).Modify(keepUpdatedAt).Exec(sys)
		})
	}
}

// changesMemberships reports whether m creates or removes memberships, or changes what
// authentication reads of them (the role, whether it is disabled): an update of the time a member
// was last seen moves no version.
func changesMemberships(m entgo.Mutation) bool {
	return !m.Op().Is(entgo.OpUpdate|entgo.OpUpdateOne) || setsAny(m, member.FieldRole, member.FieldDisabled)
}

// membershipUsers lists the users whose memberships m writes, read before it runs.
func membershipUsers(ctx context.Context, client *ent.Client, m entgo.Mutation) ([]string, error) {
	if m.Op().Is(entgo.OpCreate) {
		u, _ := m.Field(member.FieldUserID)
		id, _ := u.(string)
		return []string{id}, nil
	}
	ids, err := mutationIDs(ctx, m)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	return client.Member.Query().Where(member.IDIn(ids...)).Unique(true).Select(member.FieldUserID).Strings(ctx)
}

// SSOVersions is the hook of organizations that moves the access version of every member of an
// organization whose sso flag a write sets, in the write's transaction: authentication keeps
// which organizations enforce single sign-on with a user's memberships (accounts.Authenticator),
// so every process obeys the flag at the members' next request.
func SSOVersions() entgo.Hook {
	return func(next entgo.Mutator) entgo.Mutator {
		return entgo.MutateFunc(func(ctx context.Context, m entgo.Mutation) (entgo.Value, error) {
			if !m.Op().Is(entgo.OpUpdate|entgo.OpUpdateOne) || !setsAny(m, organization.FieldSSO) {
				return next.Mutate(ctx, m)
			}
			sys := privacy.DecisionContext(ctx, privacy.Allow)
			ids, err := mutationIDs(sys, m)
			if err != nil {
				return nil, err
			}
			val, err := next.Mutate(ctx, m)
			if err != nil || len(ids) == 0 {
				return val, err
			}
			client := mutationClient(ctx, m)
			return val, client.User.Update().Where(user.HasMembershipsWith(member.OrganizationIDIn(ids...))).
				AddAccessVersion(1).Modify(keepUpdatedAt).Exec(sys)
		})
	}
}
