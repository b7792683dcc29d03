package orgs

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/invitelink"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/txn"
)

// Invite returns an invite link of an organization; only admins see them.
// Returns NOT_FOUND if it does not exist or the viewer may not see it, FORBIDDEN for non-admins.
func (svc *Service) Invite(ctx context.Context, orgID, inviteID string) (*ent.InviteLink, error) {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "manage invite links"); err != nil {
		return nil, err
	}
	i, err := svc.Client.InviteLink.Query().Where(invitelink.ID(inviteID), invitelink.OrganizationID(orgID)).Only(ctx)
	return i, rule.NotFound(err, "invite")
}

// CreateInvite makes an invite link that lets whoever holds it join with role (nil: as a
// guest), for the admins of an organization that allows invite links. Returns NOT_FOUND,
// FORBIDDEN, or INVALID while invite links are disabled.
func (svc *Service) CreateInvite(ctx context.Context, orgID string, role *viewer.Role) (*ent.InviteLink, error) {
	o, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "create invite links")
	if err != nil {
		return nil, err
	}
	if !o.InviteLinks {
		return nil, apperr.Invalidf("invite links are disabled for this organization (set inviteLinks to true first)")
	}
	return svc.Client.InviteLink.Create().SetOrganizationID(orgID).SetNillableRole(role).
		SetCreatedBy(viewer.FromContext(ctx).UserID).Save(ctx)
}

// UpdateInvite sets the role an invite link gives (nil: guest), for the organization's admins.
// Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) UpdateInvite(ctx context.Context, orgID, inviteID string, role *viewer.Role) (*ent.InviteLink, error) {
	i, err := svc.Invite(ctx, orgID, inviteID)
	if err != nil {
		return nil, err
	}
	upd := svc.Client.InviteLink.UpdateOne(i)
	if role == nil {
		upd.ClearRole()
	} else {
		upd.SetRole(*role)
	}
	return upd.Save(ctx)
}

// DeleteInvite deletes an invite link, for the organization's admins. Returns NOT_FOUND or
// FORBIDDEN.
func (svc *Service) DeleteInvite(ctx context.Context, orgID, inviteID string) error {
	i, err := svc.Invite(ctx, orgID, inviteID)
	if err != nil {
		return err
	}
	return svc.Client.InviteLink.DeleteOne(i).Exec(ctx)
}

// InviteRedundant reports whether the viewer already has all an invite grants: they are a member
// of its organization with its role or a higher one.
func InviteRedundant(v *viewer.Viewer, i *ent.InviteLink) bool {
	role, member := v.Membership(i.OrganizationID)
	return member && (i.Role == nil || role.AtLeast(*i.Role))
}

// Join makes the viewer a member with the role of an invite link. Holding the invite's id is the
// permission, so the invite is read with the system's rights, and the membership is written
// under rule.WithInvite. Returns NOT_FOUND for an unknown invite, FORBIDDEN while the
// organization's invite links are disabled; joining again returns the existing membership.
func (svc *Service) Join(ctx context.Context, orgID, inviteID string) (*ent.Member, error) {
	v, err := rule.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	inv, org, err := svc.lookupInvite(ctx, orgID, inviteID)
	if err != nil {
		return nil, err
	}
	if !org.InviteLinks {
		return nil, apperr.Forbiddenf("invite links are disabled for this organization")
	}
	if _, isMember := v.Membership(orgID); isMember {
		return svc.Member(ctx, orgID, v.UserID)
	}
	joinCtx := rule.WithInvite(ctx, rule.Invite{OrganizationID: orgID, Role: inv.Role})
	added := events.Event{Type: events.MemberAdded, Organization: orgID, ObjectKind: "member", ObjectID: v.UserID,
		Details: map[string]any{"role": inv.Role, "invite": inv.ID}}
	err = txn.Run(joinCtx, svc.Client, func(tx *ent.Tx) error {
		err := tx.Member.Create().SetOrganizationID(orgID).SetUserID(v.UserID).SetNillableRole(inv.Role).
			OnConflictColumns(member.FieldOrganizationID, member.FieldUserID).DoNothing().Exec(joinCtx)
		if txn.SkippedUpsert(err) { // joined meanwhile
			return nil
		}
		if err != nil {
			return err
		}
		return events.Record(joinCtx, tx.Client(), added)
	})
	if err != nil {
		return nil, err
	}
	v.SetMembership(orgID, inv.Role)
	return svc.Member(ctx, orgID, v.UserID)
}

// lookupInvite reads an invite link of the organization, with the organization, as the system.
// Returns NOT_FOUND when there is none.
func (svc *Service) lookupInvite(ctx context.Context, orgID, inviteID string) (*ent.InviteLink, *ent.Organization, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	inv, err := svc.Client.InviteLink.Query().
		Where(invitelink.ID(inviteID), invitelink.OrganizationID(orgID)).WithOrganization().Only(sys)
	if err != nil {
		return nil, nil, rule.NotFound(err, "invite")
	}
	return inv, inv.Edges.Organization, nil
}
