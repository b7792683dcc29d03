package graph

import (
	"context"
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/txn"
)

// member returns a user's membership of an organization the viewer sees.
// Returns NOT_FOUND if either does not exist or the viewer may not see it.
func (r *Resolver) member(ctx context.Context, orgID, userID string) (*ent.Member, error) {
	if _, err := r.organization(ctx, orgID); err != nil {
		return nil, err
	}
	m, err := r.Client.Member.Query().Where(member.OrganizationID(orgID), member.UserID(userID)).Only(ctx)
	return m, rule.NotFound(err, "member")
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
		if err := checkText("search", f.Search, 0, 256); err != nil {
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

func (r *Resolver) updateMember(ctx context.Context, orgID, userID string, in model.UpdateMemberInput) (*ent.Member, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "change members' roles"); err != nil {
		return nil, err
	}
	m, err := r.member(ctx, orgID, userID)
	if err != nil || !in.Role.IsSet() {
		return m, err
	}
	role := in.Role.Value()
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if role == nil || *role != viewer.RoleAdmin {
			if err := keepAnAdmin(ctx, tx, m, "change the role of"); err != nil {
				return err
			}
		}
		upd := tx.Member.UpdateOne(m)
		if role == nil {
			upd.ClearRole()
		} else {
			upd.SetRole(*role)
		}
		m, err = upd.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	if v := viewer.FromContext(ctx); v.UserID == userID {
		v.SetMembership(orgID, role)
	}
	return m, nil
}

// keepAnAdmin refuses a change that would leave the organization without an admin. It first locks
// the organization's row, so two admins demoting or removing each other at once cannot both pass
// the count (write skew under PostgreSQL's READ COMMITTED; SQLite has one writer already).
func keepAnAdmin(ctx context.Context, tx *ent.Tx, m *ent.Member, action string) error {
	// Lock the organization (PostgreSQL; SQLite has one writer), then read the member again: two
	// admins demoting each other at once must not both see another admin left.
	if _, err := tx.Organization.Query().Where(organization.ID(m.OrganizationID)).Modify(func(s *sql.Selector) {
		if s.Dialect() == dialect.Postgres {
			s.ForUpdate()
		}
	}).IDs(ctx); err != nil {
		return err
	}
	current, err := tx.Member.Get(ctx, m.ID)
	if err != nil {
		return rule.NotFound(err, "member")
	}
	if current.Role == nil || *current.Role != viewer.RoleAdmin {
		return nil
	}
	admins, err := tx.Member.Query().
		Where(member.OrganizationID(m.OrganizationID), member.RoleEQ(viewer.RoleAdmin), member.Disabled(false)).
		Count(ctx)
	if err != nil {
		return err
	}
	if admins <= 1 {
		return apperr.Invalidf("cannot %s the last admin: the organization must keep at least one admin", action)
	}
	return nil
}

func (r *Resolver) removeMember(ctx context.Context, orgID, userID string) (bool, error) {
	v, err := viewerOf(ctx)
	if err != nil {
		return false, err
	}
	if userID != v.UserID {
		if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "remove members"); err != nil {
			return false, err
		}
	}
	m, err := r.member(ctx, orgID, userID)
	if err != nil {
		return false, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if err := keepAnAdmin(ctx, tx, m, "remove"); err != nil {
			return err
		}
		if _, err := tx.TeamMember.Delete().
			Where(teammember.OrganizationID(orgID), teammember.UserID(userID)).Exec(ctx); err != nil {
			return err
		}
		return tx.Member.DeleteOne(m).Exec(ctx)
	})
	if err != nil {
		return false, err
	}
	if userID == v.UserID {
		v.DropMembership(orgID)
	}
	return true, nil
}

func (r *Resolver) setMemberSSO(ctx context.Context, orgID, userID string) (*ent.Member, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "set SSO members"); err != nil {
		return nil, err
	}
	m, err := r.member(ctx, orgID, userID)
	if err != nil {
		return nil, err
	}
	return r.Client.Member.UpdateOne(m).SetSSO(true).Save(ctx)
}

// ping records that the viewer was seen in the organization and signs their visitor claims.
func (r *Resolver) ping(ctx context.Context, orgID string) (*model.PingResult, error) {
	v, err := viewerOf(ctx)
	if err != nil {
		return nil, err
	}
	m, err := r.member(ctx, orgID, v.UserID)
	if err != nil {
		return nil, err
	}
	now := r.now(ctx)
	if err := r.Client.Member.UpdateOne(m).SetLastSeenAt(now).Exec(ctx); err != nil {
		return nil, err
	}
	claims, err := r.visitorClaims(ctx, v, m, now)
	if err != nil {
		return nil, err
	}
	return &model.PingResult{ServiceVisitorClaims: &claims}, nil
}
