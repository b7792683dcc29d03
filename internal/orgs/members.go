package orgs

import (
	"context"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/scimuser"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/txn"
)

// visitorClaimsTTL is how long signed visitor claims stay valid.
const visitorClaimsTTL = time.Hour

// Member returns a user's membership of an organization the viewer sees.
// Returns NOT_FOUND if either does not exist or the viewer may not see it.
func (svc *Service) Member(ctx context.Context, orgID, userID string) (*ent.Member, error) {
	if _, err := svc.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	m, err := svc.Client.Member.Query().Where(member.OrganizationID(orgID), member.UserID(userID)).Only(ctx)
	return m, rule.NotFound(err, "member")
}

// UpdateMember sets a member's role (null makes them a guest; absent changes nothing), for the
// organization's admins. Returns NOT_FOUND, FORBIDDEN, or INVALID when it would leave the
// organization without an admin.
func (svc *Service) UpdateMember(ctx context.Context, orgID, userID string, role check.Nullable[viewer.Role]) (*ent.Member, error) {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "change members' roles"); err != nil {
		return nil, err
	}
	m, err := svc.Member(ctx, orgID, userID)
	if err != nil || !role.Set {
		return m, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if role.Value == nil || *role.Value != viewer.RoleAdmin {
			if err := keepAnAdmin(ctx, tx, m, "change the role of"); err != nil {
				return err
			}
		}
		upd := tx.Member.UpdateOne(m)
		if role.Value == nil {
			upd.ClearRole()
		} else {
			upd.SetRole(*role.Value)
		}
		before := m.Role
		if m, err = upd.Save(ctx); err != nil {
			return err
		}
		return recordMember(ctx, tx, events.MemberRoleChanged, m, map[string]any{"from": before, "to": m.Role})
	})
	if err != nil {
		return nil, err
	}
	if v := viewer.FromContext(ctx); v.UserID == userID {
		v.SetMembership(orgID, role.Value)
	}
	return m, nil
}

// recordMember records an event about a membership in the transaction that changes it.
func recordMember(ctx context.Context, tx *ent.Tx, typ string, m *ent.Member, details map[string]any) error {
	return events.Record(ctx, tx.Client(), events.Event{Type: typ, Organization: m.OrganizationID,
		ObjectKind: "member", ObjectID: m.UserID, Details: details})
}

// keepAnAdmin refuses a change that would leave the organization without an admin. It first locks
// the organization's row, so two admins demoting or removing each other at once cannot both pass
// the count (write skew under PostgreSQL's READ COMMITTED; SQLite has one writer already).
func keepAnAdmin(ctx context.Context, tx *ent.Tx, m *ent.Member, action string) error {
	// Lock the organization, then read the member again: two admins demoting each other at once
	// must not both see another admin left.
	if _, err := tx.Organization.Query().Where(organization.ID(m.OrganizationID)).Modify(txn.ForUpdate).IDs(ctx); err != nil {
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

// Also is more to write in the transaction of a change of members or teams (a SCIM provider's
// record of it), after the change.
type Also func(tx *ent.Tx) error

// alsoWrite runs each of also in tx.
func alsoWrite(tx *ent.Tx, also []Also) error {
	for _, write := range also {
		if err := write(tx); err != nil {
			return err
		}
	}
	return nil
}

// AddMember makes a user a member of the organization with a role (nil: a guest), for its admins,
// recording member.added; a user who is one already stays as they are. Returns NOT_FOUND or
// FORBIDDEN.
func (svc *Service) AddMember(ctx context.Context, orgID, userID string, role *viewer.Role, also ...Also) (*ent.Member, error) {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "add members"); err != nil {
		return nil, err
	}
	added := events.Event{Type: events.MemberAdded, Organization: orgID, ObjectKind: "member", ObjectID: userID,
		Details: map[string]any{"role": role}}
	err := txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		err := tx.Member.Create().SetOrganizationID(orgID).SetUserID(userID).SetNillableRole(role).
			OnConflictColumns(member.FieldOrganizationID, member.FieldUserID).DoNothing().Exec(ctx)
		if err == nil {
			err = events.Record(ctx, tx.Client(), added)
		} else if txn.SkippedUpsert(err) {
			err = nil
		}
		if err != nil {
			return err
		}
		return alsoWrite(tx, also)
	})
	if err != nil {
		return nil, err
	}
	return svc.Member(ctx, orgID, userID)
}

// SetMemberDisabled disables a membership (the member keeps it, but reads nothing of the
// organization from their next request on: authentication leaves disabled memberships out) or
// enables it again, for the organization's admins, recording member.disabled or member.enabled
// when it changes. Returns NOT_FOUND, FORBIDDEN, or INVALID when it would disable the last admin.
func (svc *Service) SetMemberDisabled(ctx context.Context, orgID, userID string, disabled bool, also ...Also) (*ent.Member, error) {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "disable members"); err != nil {
		return nil, err
	}
	m, err := svc.Member(ctx, orgID, userID)
	if err != nil {
		return nil, err
	}
	typ := events.MemberEnabled
	if disabled {
		typ = events.MemberDisabled
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if m.Disabled != disabled {
			if err := svc.writeDisabled(ctx, tx, m, disabled, typ); err != nil {
				return err
			}
		}
		return alsoWrite(tx, also)
	})
	if err != nil {
		return nil, err
	}
	return svc.Member(ctx, orgID, userID)
}

// writeDisabled sets a membership's disabled flag in tx and records typ; an admin is disabled
// only while another stays.
func (svc *Service) writeDisabled(ctx context.Context, tx *ent.Tx, m *ent.Member, disabled bool, typ string) error {
	if disabled {
		if err := keepAnAdmin(ctx, tx, m, "disable"); err != nil {
			return err
		}
	}
	m, err := tx.Member.UpdateOne(m).SetDisabled(disabled).Save(ctx)
	if err != nil {
		return err
	}
	return recordMember(ctx, tx, typ, m, nil)
}

// RemoveMember removes a user from an organization, and from its teams, and the record a SCIM
// provider keeps of them there: the admins remove anyone, a member themself. Returns NOT_FOUND,
// FORBIDDEN, or INVALID for the last admin.
func (svc *Service) RemoveMember(ctx context.Context, orgID, userID string) error {
	v, err := rule.RequireViewer(ctx)
	if err != nil {
		return err
	}
	if userID != v.UserID {
		if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "remove members"); err != nil {
			return err
		}
	}
	m, err := svc.Member(ctx, orgID, userID)
	if err != nil {
		return err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := keepAnAdmin(ctx, tx, m, "remove"); err != nil {
			return err
		}
		if _, err := tx.TeamMember.Delete().
			Where(teammember.OrganizationID(orgID), teammember.UserID(userID)).Exec(ctx); err != nil {
			return err
		}
		// A member who leaves may not write SCIM records, but their own goes with their membership.
		decided := privacy.DecisionContext(ctx, privacy.Allow)
		if _, err := tx.SCIMUser.Delete().
			Where(scimuser.OrganizationID(orgID), scimuser.UserID(userID)).Exec(decided); err != nil {
			return err
		}
		if err := tx.Member.DeleteOne(m).Exec(ctx); err != nil {
			return err
		}
		return recordMember(ctx, tx, events.MemberRemoved, m, nil)
	})
	if err != nil {
		return err
	}
	if userID == v.UserID {
		v.DropMembership(orgID)
	}
	return nil
}

// SetMemberSSO marks a member as one who signs in through the organization's single sign-on,
// for its admins. Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) SetMemberSSO(ctx context.Context, orgID, userID string) (*ent.Member, error) {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "set SSO members"); err != nil {
		return nil, err
	}
	m, err := svc.Member(ctx, orgID, userID)
	if err != nil {
		return nil, err
	}
	return svc.Client.Member.UpdateOne(m).SetSSO(true).Save(ctx)
}

// Ping records that the viewer was seen in the organization and returns their visitor claims
// there, signed. Returns NOT_FOUND for an organization the viewer is no member of.
func (svc *Service) Ping(ctx context.Context, orgID string) (string, error) {
	v, err := rule.RequireViewer(ctx)
	if err != nil {
		return "", err
	}
	m, err := svc.Member(ctx, orgID, v.UserID)
	if err != nil {
		return "", err
	}
	now := svc.Now(ctx)
	if err := svc.Client.Member.UpdateOne(m).SetLastSeenAt(now).Exec(ctx); err != nil {
		return "", err
	}
	return svc.visitorClaims(ctx, v, m, now)
}

// visitorClaims signs (HS256) what a site may learn of a member: who they are and their role.
func (svc *Service) visitorClaims(ctx context.Context, v *viewer.Viewer, m *ent.Member, now time.Time) (string, error) {
	key, err := svc.Key(ctx, "visitor-claims")
	if err != nil {
		return "", err
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, memberClaims(svc.Issuer, v, m, now)).SignedString(key)
}

// memberClaims are the visitor claims of a member seen at now: the issuer, the user and their
// email, the organization and the member's role there ("guest" without one), for an hour.
func memberClaims(issuer string, v *viewer.Viewer, m *ent.Member, now time.Time) jwt.MapClaims {
	role := "guest"
	if m.Role != nil {
		role = string(*m.Role)
	}
	return jwt.MapClaims{
		"iss": issuer, "sub": v.UserID, "email": v.Email,
		"organization": m.OrganizationID, "role": role,
		"iat": now.Unix(), "exp": now.Add(visitorClaimsTTL).Unix(),
	}
}
