package scim

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/scimtoken"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/id"
)

// tokenPrefix marks SCIM tokens, so a leaked one is recognised in logs and scanners, and never
// taken for an API token.
const tokenPrefix = "bdy_scim_"

// Tokens is the administration of organizations' SCIM tokens (admins issue, list and revoke
// them) and their authentication. Only a token's hash is stored (accounts.HashSecret): it is
// shown once, when it is issued.
type Tokens struct {
	Client *ent.Client
	// RequireOrgRole returns an organization the viewer sees with at least a role there (orgs).
	// Returns NOT_FOUND otherwise, FORBIDDEN below the role.
	RequireOrgRole func(ctx context.Context, orgID string, min viewer.Role, action string) (*ent.Organization, error)
}

// Query returns the SCIM tokens of an organization, for its admins. Returns NOT_FOUND or
// FORBIDDEN.
func (t Tokens) Query(ctx context.Context, orgID string) (*ent.SCIMTokenQuery, error) {
	if _, err := t.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "manage SCIM tokens"); err != nil {
		return nil, err
	}
	return t.Client.SCIMToken.Query().Where(scimtoken.OrganizationID(orgID)), nil
}

// Issue makes a SCIM token of the organization, acting as the viewer (an admin), and returns
// its row and the token, which is not stored. Returns NOT_FOUND or FORBIDDEN.
func (t Tokens) Issue(ctx context.Context, orgID string) (*ent.SCIMToken, string, error) {
	if _, err := t.Query(ctx, orgID); err != nil {
		return nil, "", err
	}
	token := tokenPrefix + id.Random(40)
	var row *ent.SCIMToken
	err := audit.Write(ctx, t.Client, func(tx *ent.Tx) (audit.Entry, error) {
		var err error
		row, err = tx.SCIMToken.Create().SetOrganizationID(orgID).SetTokenHash(accounts.HashSecret(token)).
			SetCreatedBy(viewer.FromContext(ctx).UserID).Save(ctx)
		if err != nil {
			return audit.Entry{}, err
		}
		return tokenEntry(audit.SCIMTokenCreated, row), nil
	})
	if err != nil {
		return nil, "", err
	}
	return row, token, nil
}

// tokenEntry is an audit entry about a SCIM token: its id and issuer, never its hash.
func tokenEntry(action string, row *ent.SCIMToken) audit.Entry {
	return audit.Entry{Organization: row.OrganizationID, Action: action, TargetType: "scim-token", TargetID: row.ID,
		Payload: map[string]any{"createdBy": row.CreatedBy}}
}

// Revoke deletes a SCIM token of the organization. Returns NOT_FOUND (another organization's
// token too) or FORBIDDEN.
func (t Tokens) Revoke(ctx context.Context, orgID, tokenID string) error {
	q, err := t.Query(ctx, orgID)
	if err != nil {
		return err
	}
	found, err := q.Where(scimtoken.ID(tokenID)).Only(ctx)
	if err != nil {
		return rule.NotFound(err, "SCIM token")
	}
	return audit.Write(ctx, t.Client, func(tx *ent.Tx) (audit.Entry, error) {
		return tokenEntry(audit.SCIMTokenRevoked, found), tx.SCIMToken.DeleteOne(found).Exec(ctx)
	})
}

// Authenticate returns the SCIM token (its organization is the one it provisions) and the
// viewer its requests act as: the admin who issued it, an admin of that organization only. Returns UNAUTHENTICATED for a
// token this server does not hold, and once its issuer is no longer an admin there (a new token
// must then be issued by an admin).
func (t Tokens) Authenticate(ctx context.Context, token string) (*ent.SCIMToken, *viewer.Viewer, error) {
	sys := accounts.System(ctx)
	row, err := t.Client.SCIMToken.Query().Where(scimtoken.TokenHash(accounts.HashSecret(token))).Only(sys)
	if ent.IsNotFound(err) {
		return nil, nil, apperr.Unauthenticatedf("invalid SCIM token: it is unknown or revoked")
	}
	if err != nil {
		return nil, nil, err
	}
	admin, err := t.Client.Member.Query().Where(member.OrganizationID(row.OrganizationID), member.UserID(row.CreatedBy),
		member.RoleEQ(viewer.RoleAdmin), member.Disabled(false)).Exist(sys)
	if err != nil {
		return nil, nil, err
	}
	if !admin {
		return nil, nil, apperr.Unauthenticatedf("SCIM token %s was issued by someone who is no longer an admin of the organization: an admin must issue a new one",
			check.Truncate(row.ID, 80))
	}
	role := viewer.RoleAdmin
	return row, viewer.NewUser(row.CreatedBy, "", map[string]*viewer.Role{row.OrganizationID: &role}), nil
}
