package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/invitelink"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
)

// invite returns an invite link of an organization; only admins see them.
// Returns NOT_FOUND if it does not exist or the viewer may not see it, FORBIDDEN for non-admins.
func (r *Resolver) invite(ctx context.Context, orgID, inviteID string) (*ent.InviteLink, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "manage invite links"); err != nil {
		return nil, err
	}
	i, err := r.Client.InviteLink.Query().Where(invitelink.ID(inviteID), invitelink.OrganizationID(orgID)).Only(ctx)
	return i, rule.NotFound(err, "invite")
}

func (r *Resolver) createInvite(ctx context.Context, orgID string, role *viewer.Role) (*ent.InviteLink, error) {
	o, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "create invite links")
	if err != nil {
		return nil, err
	}
	if !o.InviteLinks {
		return nil, apperr.Invalidf("invite links are disabled for this organization (set inviteLinks to true first)")
	}
	return r.Client.InviteLink.Create().SetOrganizationID(orgID).SetNillableRole(role).
		SetCreatedBy(viewer.FromContext(ctx).UserID).Save(ctx)
}

func (r *Resolver) updateInvite(ctx context.Context, orgID, inviteID string, role *viewer.Role) (*ent.InviteLink, error) {
	i, err := r.invite(ctx, orgID, inviteID)
	if err != nil {
		return nil, err
	}
	upd := r.Client.InviteLink.UpdateOne(i)
	if role == nil {
		upd.ClearRole()
	} else {
		upd.SetRole(*role)
	}
	return upd.Save(ctx)
}

func (r *Resolver) deleteInvite(ctx context.Context, orgID, inviteID string) (bool, error) {
	i, err := r.invite(ctx, orgID, inviteID)
	if err != nil {
		return false, err
	}
	return true, r.Client.InviteLink.DeleteOne(i).Exec(ctx)
}

// inviteRedundant reports whether the viewer already has all an invite grants.
func inviteRedundant(ctx context.Context, i *ent.InviteLink) bool {
	role, member := viewer.FromContext(ctx).Membership(i.OrganizationID)
	return member && (i.Role == nil || role.AtLeast(*i.Role))
}

// joinOrganization makes the viewer a member with the role of an invite link. Holding the
// invite's id is the permission, so the invite is read with the system's rights (the one place
// this resolver does), and the membership is written under rule.WithInvite.
// Returns NOT_FOUND for an unknown invite; joining again returns the existing membership.
func (r *Resolver) joinOrganization(ctx context.Context, orgID, inviteID string) (*ent.Member, error) {
	v, err := viewerOf(ctx)
	if err != nil {
		return nil, err
	}
	inv, org, err := r.lookupInvite(ctx, orgID, inviteID)
	if err != nil {
		return nil, err
	}
	if !org.InviteLinks {
		return nil, apperr.Forbiddenf("invite links are disabled for this organization")
	}
	if _, isMember := v.Membership(orgID); isMember {
		return r.member(ctx, orgID, v.UserID)
	}
	joinCtx := rule.WithInvite(ctx, rule.Invite{OrganizationID: orgID, Role: inv.Role})
	if err := r.Client.Member.Create().SetOrganizationID(orgID).SetUserID(v.UserID).SetNillableRole(inv.Role).
		OnConflictColumns(member.FieldOrganizationID, member.FieldUserID).DoNothing().Exec(joinCtx); err != nil && !isNoRows(err) {
		return nil, err
	}
	v.SetMembership(orgID, inv.Role)
	return r.member(ctx, orgID, v.UserID)
}

func (r *Resolver) lookupInvite(ctx context.Context, orgID, inviteID string) (*ent.InviteLink, *ent.Organization, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	inv, err := r.Client.InviteLink.Query().
		Where(invitelink.ID(inviteID), invitelink.OrganizationID(orgID)).WithOrganization().Only(sys)
	if err != nil {
		return nil, nil, rule.NotFound(err, "invite")
	}
	return inv, inv.Edges.Organization, nil
}
