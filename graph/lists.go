package graph

import (
	"context"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

func (r *Resolver) viewerUser(ctx context.Context) (*ent.User, error) {
	v, err := rule.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return userOf(ctx, r, v.UserID, identity)
}

// user returns a user the viewer may see: themself or someone of their organizations.
// Returns NOT_FOUND otherwise.
func (r *Resolver) user(ctx context.Context, id string) (*ent.User, error) {
	if _, err := rule.RequireViewer(ctx); err != nil {
		return nil, err
	}
	return userOf(ctx, r, id, identity)
}

// userOf returns the user key names on item, the users of item's whole level loaded together.
// Returns NOT_FOUND when the viewer may not see them.
func userOf[T comparable](ctx context.Context, r *Resolver, item T, key func(T) string) (*ent.User, error) {
	u, err := loader.Get(ctx, r.Client, loader.Users, item, key)
	if err == nil && u == nil {
		return nil, apperr.NotFoundf("user not found")
	}
	return u, err
}

// identity is the key of a lookup by a key alone (no level).
func identity(id string) string { return id }

// memberUser returns a member's user: eager-loaded with member pages, else through the loader.
func (r *Resolver) memberUser(ctx context.Context, m *ent.Member) (*ent.User, error) {
	if u := m.Edges.User; u != nil {
		return u, nil
	}
	return userOf(ctx, r, m, func(m *ent.Member) string { return m.UserID })
}

func (r *Resolver) viewerMembership(ctx context.Context, o *ent.Organization) (*ent.Member, error) {
	me := viewer.FromContext(ctx).UserID
	return loader.Get(ctx, r.Client, loader.Members, o, func(o *ent.Organization) loader.MemberKey {
		return loader.MemberKey{OrgID: o.ID, UserID: me}
	})
}

func (r *Resolver) teams(ctx context.Context, o *ent.Organization, first *int, after, title, owner *string) (*model.TeamConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	if !rule.HasOrgRole(viewer.FromContext(ctx), o.ID, viewer.RoleRead) {
		return nil, apperr.Forbiddenf("guests may not list the organization's teams")
	}
	f := loader.TeamFilter{Title: strings.TrimSpace(derefOr(title, "")), Owner: derefOr(owner, "")}
	if err := check.Text("title", f.Title, 0, 64); err != nil {
		return nil, err
	}
	p, err := loader.For(ctx, r.Client).TeamPage(ctx, o, f, args)
	if err != nil {
		return nil, err
	}
	return teamConnection(ctx, p), nil
}

func (r *Resolver) teamRoster(ctx context.Context, t *ent.Team, first *int, after *string) (*model.TeamMemberConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := loader.For(ctx, r.Client).RosterPage(ctx, t, args)
	if err != nil {
		return nil, err
	}
	return teamMemberConnection(ctx, p), nil
}

func (r *Resolver) memberTeams(ctx context.Context, m *ent.Member, first *int, after, title *string) (*model.TeamMemberConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	f := loader.UserTeamFilter{Title: strings.TrimSpace(derefOr(title, ""))}
	if err := check.Text("title", f.Title, 0, 64); err != nil {
		return nil, err
	}
	p, err := loader.For(ctx, r.Client).UserTeamPage(ctx, m, f, args)
	if err != nil {
		return nil, err
	}
	return teamMemberConnection(ctx, p), nil
}

func (r *Resolver) teamOf(ctx context.Context, tm *ent.TeamMember) (*ent.Team, error) {
	t, err := loader.Get(ctx, r.Client, loader.Teams, tm, func(tm *ent.TeamMember) string { return tm.TeamID })
	if err == nil && t == nil {
		return nil, apperr.NotFoundf("team not found")
	}
	return t, err
}

func (r *Resolver) invites(ctx context.Context, o *ent.Organization, first *int, after *string) (*model.InviteLinkConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	if !rule.HasOrgRole(viewer.FromContext(ctx), o.ID, viewer.RoleAdmin) {
		return nil, apperr.Forbiddenf("only admins may list invite links")
	}
	p, err := loader.For(ctx, r.Client).InvitePage(ctx, o, args)
	if err != nil {
		return nil, err
	}
	return inviteConnection(ctx, p), nil
}

// enumString returns an optional enum's text.
func enumString[T ~string](v *T) *string {
	if v == nil {
		return nil
	}
	s := string(*v)
	return &s
}

// siteGrantCount is the number of sites a member was granted access to by name. The data model
// has no per-member site grants (sites are reached through organization roles and visibility),
// so it is zero; see docs/decisions.md.
func siteGrantCount(*ent.Member) int { return 0 }
