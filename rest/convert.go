package rest

import (
	"context"
	"errors"
	"sync"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

// Conversions from resolver results to wire shapes. Derived fields (permissions, counts, the
// member's user) come from the same field resolvers GraphQL uses: a list's items were read as one
// level, so the first item's lookup is made for all of them (graph/loader) and the others find
// its answer. Items convert concurrently only so that the different lookups overlap.

// userOf is user as a conversion.
func (a *api) userOf(_ context.Context, u *ent.User) (User, error) { return a.user(u), nil }

func (a *api) user(u *ent.User) User {
	return User{Object: "user", ID: u.ID, DisplayName: u.DisplayName, Email: u.Email, PhotoURL: u.PhotoURL,
		URLs: urls{Location: a.url("/v1/users/" + u.ID)}}
}

func (a *api) organization(ctx context.Context, o *ent.Organization) (Organization, error) {
	perms, err := a.r.Organization().Permissions(ctx, o)
	if err != nil {
		return Organization{}, err
	}
	rules, err := a.r.Organization().MergeRules(ctx, o)
	if err != nil {
		return Organization{}, err
	}
	w := Organization{
		Object: "organization", ID: o.ID, Title: o.Title, CreatedAt: o.CreatedAt, EmailDomains: o.EmailDomains,
		Hostname: o.Hostname, Type: string(o.Type), UseCase: optString(o.UseCase), CommunityType: optString(o.CommunityType),
		DefaultRole: o.DefaultRole, DefaultContent: orgDefaultContent(o), SSO: o.SSO, AI: o.Ai, InviteLinks: o.InviteLinks,
		Plan: string(o.Plan), MergeRules: mergeRulesOf(rules), Trial: trial{Status: "notapplicable"},
		URLs:        urls{Location: a.url("/v1/orgs/" + o.ID), App: a.url("/o/" + o.ID)},
		Permissions: perms,
	}
	if o.Logo != nil {
		w.URLs.Logo = *o.Logo
	}
	if w.EmailDomains == nil {
		w.EmailDomains = []string{}
	}
	return w, nil
}

func (a *api) member(ctx context.Context, m *ent.Member) (Member, error) {
	mr := a.r.Member()
	w := Member{Object: "member", ID: m.UserID, Role: m.Role, Disabled: m.Disabled,
		JoinedAt: m.JoinedAt, LastSeenAt: m.LastSeenAt, SSO: m.SSO}
	err := parallel(
		func() error {
			u, err := mr.User(ctx, m)
			if err == nil {
				w.User = a.user(u)
			}
			return err
		},
		func() (err error) { w.Spaces, err = mr.SpaceCount(ctx, m); return err },
		func() (err error) { w.Teams, err = mr.TeamCount(ctx, m); return err },
		func() (err error) { w.Sites, err = mr.SiteCount(ctx, m); return err },
	)
	return w, err
}

func (a *api) team(ctx context.Context, t *ent.Team) (Team, error) {
	tr := a.r.Team()
	w := Team{Object: "team", ID: t.ID, Title: t.Title, CreatedAt: t.CreatedAt}
	err := parallel(
		func() (err error) { w.Members, err = tr.MemberCount(ctx, t); return err },
		func() (err error) { w.Spaces, err = tr.SpaceCount(ctx, t); return err },
		func() (err error) { w.Permissions, err = tr.Permissions(ctx, t); return err },
	)
	return w, err
}

// parallel runs the independent lookups of one object at once, so their statements overlap.
func parallel(fns ...func() error) error {
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fn()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (a *api) rosterItem(ctx context.Context, tm *ent.TeamMember) (TeamRosterItem, error) {
	m, err := a.r.TeamMember().Member(ctx, tm)
	if err != nil {
		return TeamRosterItem{}, err
	}
	wm, err := a.member(ctx, m)
	return TeamRosterItem{Organization: wm, Team: TeamRole{Role: tm.Role}, Permissions: viewPerm{View: true}}, err
}

func (a *api) memberTeamItem(ctx context.Context, tm *ent.TeamMember) (MemberTeamItem, error) {
	t, err := a.r.TeamMember().Team(ctx, tm)
	if err != nil {
		return MemberTeamItem{}, err
	}
	wt, err := a.team(ctx, t)
	return MemberTeamItem{Team: wt, Member: TeamRole{Role: tm.Role}}, err
}

func (a *api) invite(ctx context.Context, i *ent.InviteLink) (Invite, error) {
	redundant, err := a.r.InviteLink().Redundant(ctx, i)
	return Invite{Object: "invite", ID: i.ID, Role: i.Role, Redundant: redundant}, err
}

func (a *api) customField(ctx context.Context, f *ent.CustomField) (CustomField, error) {
	perms, err := a.r.CustomField().Permissions(ctx, f)
	return CustomField{
		ID: f.ID, Name: f.Name, Type: string(f.Type), Title: f.Title, Description: f.Description,
		Placeholder: f.Placeholder, Options: f.Options, CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt,
		URLs:        urls{Location: a.url("/v1/orgs/" + f.OrganizationID + "/custom-fields/" + f.Name)},
		Permissions: perms,
	}, err
}

// convertAll converts items concurrently; their lookups are made once for the whole list (a
// level), whichever item asks first.
func convertAll[T, W any](ctx context.Context, items []T, conv func(context.Context, T) (W, error)) ([]W, error) {
	out := make([]W, len(items))
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = conv(ctx, it)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// list converts a connection's nodes into List<W>; count is nil when the total is not known.
func list[N, W any](ctx context.Context, nodes []N, info *model.PageInfo, count *int, conv func(context.Context, N) (W, error)) (List[W], error) {
	items, err := convertAll(ctx, nodes, conv)
	l := List[W]{Count: count, Items: items}
	if info.HasNextPage && info.EndCursor != nil {
		l.Next = &Next{Page: *info.EndCursor}
	}
	return l, err
}
