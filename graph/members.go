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
	"github.com/binderyhq/bindery/internal/page"
)

// member returns a user's membership of an organization the viewer sees (orgs.Service.Member).
func (r *Resolver) member(ctx context.Context, orgID, userID string) (*ent.Member, error) {
	return r.orgsService().Member(ctx, orgID, userID)
}

// MemberListArgs are the REST and GraphQL arguments of a member list.
type MemberListArgs struct {
	First  *int
	After  *string
	Role   *model.MemberRoleFilter
	Search *string
	Sort   *model.MemberSort
	Order  *model.SortOrder
}

func (r *Resolver) members(ctx context.Context, o *ent.Organization, a MemberListArgs) (*model.MemberConnection, error) {
	args, err := listArgs(ctx, a.First, a.After)
	if err != nil {
		return nil, err
	}
	if !rule.HasOrgRole(viewer.FromContext(ctx), o.ID, viewer.RoleRead) {
		return nil, apperr.Forbiddenf("guests may not list the organization's members")
	}
	if a.Sort != nil && *a.Sort == model.MemberSortName {
		return nil, apperr.Invalidf("sort: sorting members by name is not supported yet; use JOINED_AT or LAST_SEEN_AT")
	}
	f := loader.MemberFilter{
		LastSeen: a.Sort != nil && *a.Sort == model.MemberSortLastSeenAt,
		Asc:      a.Order != nil && *a.Order == model.SortOrderAsc,
	}
	if a.Search != nil {
		f.Search = strings.TrimSpace(*a.Search)
		if err := check.Text("search", f.Search, 0, 256); err != nil {
			return nil, err
		}
	}
	if a.Role != nil {
		if *a.Role == model.MemberRoleFilterGuest {
			f.Guests = true
		} else {
			f.Role = viewer.Role(strings.ToLower(string(*a.Role)))
		}
	}
	p, err := loader.For(ctx, r.Client).MemberPage(ctx, o, f, args)
	if err != nil {
		return nil, err
	}
	return memberConnection(ctx, p, func(m *ent.Member) page.Cursor {
		if f.LastSeen && m.LastSeenAt != nil {
			return page.Cursor{Key: *m.LastSeenAt, ID: m.ID}
		}
		return page.Cursor{Key: m.JoinedAt, ID: m.ID}
	}), nil
}

// updateMember is Mutation.updateMember (orgs.Service.UpdateMember).
func (r *Resolver) updateMember(ctx context.Context, orgID, userID string, in model.UpdateMemberInput) (*ent.Member, error) {
	return r.orgsService().UpdateMember(ctx, orgID, userID, nullable(in.Role))
}

// removeMember is Mutation.removeMember (orgs.Service.RemoveMember).
func (r *Resolver) removeMember(ctx context.Context, orgID, userID string) (bool, error) {
	err := r.orgsService().RemoveMember(ctx, orgID, userID)
	return err == nil, err
}

// setMemberSSO is Mutation.setMemberSSO (orgs.Service.SetMemberSSO).
func (r *Resolver) setMemberSSO(ctx context.Context, orgID, userID string) (*ent.Member, error) {
	return r.orgsService().SetMemberSSO(ctx, orgID, userID)
}

// ping is Mutation.ping: records that the viewer was seen in the organization and signs their
// visitor claims (orgs.Service.Ping).
func (r *Resolver) ping(ctx context.Context, orgID string) (*model.PingResult, error) {
	claims, err := r.orgsService().Ping(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return &model.PingResult{ServiceVisitorClaims: &claims}, nil
}
