package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/crewjam/saml"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/samlassertion"
	"github.com/binderyhq/bindery/ent/samlrequest"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/graph/txn"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/sso"
)

// SignIn is a browser session begun by a single sign-on: the secret for the cookie, and when it
// ends.
type SignIn struct {
	Secret    string
	ExpiresAt time.Time
}

// activeProvider returns the provider with the id, read as the system viewer (sign-in comes
// before any viewer). Returns NOT_FOUND when there is none or it is pending.
func (r *Resolver) activeProvider(sys context.Context, id string) (*ent.SAMLProvider, sso.Provider, error) {
	p, err := r.Client.SAMLProvider.Get(sys, id)
	if ent.IsNotFound(err) || (err == nil && samlProviderStatus(p) != model.SAMLProviderStatusActive) {
		return nil, sso.Provider{}, apperr.NotFoundf("no active SAML provider has the id %q", truncate(id, 80))
	}
	if err != nil {
		return nil, sso.Provider{}, err
	}
	return p, sso.Provider{ID: p.ID, EntityID: *p.EntityID, SSOURL: *p.SSOURL, Certificate: *p.Certificate}, nil
}

// StartSignIn begins a sign-in through a provider: it remembers the request (for 10 minutes, in
// the database, so any server process may take the answer) and returns the provider's URL to
// send the browser to, carrying relayState. Returns NOT_FOUND for an unknown or pending provider.
func (r *Resolver) StartSignIn(ctx context.Context, providerID, relayState string) (string, error) {
	sys := accounts.System(ctx)
	_, p, err := r.activeProvider(sys, providerID)
	if err != nil {
		return "", err
	}
	now := r.now(ctx)
	u, requestID, err := sso.Start(p, sso.ServiceOf(r.BaseURL, p.ID), relayState, now)
	if err != nil {
		return "", apperr.Invalidf("provider %s: %v", p.ID, err)
	}
	if _, err := r.Client.SAMLRequest.Delete().Where(samlrequest.ExpiresAtLT(now)).Exec(sys); err != nil {
		return "", err
	}
	err = r.Client.SAMLRequest.Create().SetID(requestID).SetProviderID(p.ID).SetExpiresAt(now.Add(sso.RequestLifetime)).Exec(sys)
	return u.String(), err
}

// FinishSignIn verifies an identity provider's answer posted to the provider's ACS and signs the
// person in, in one transaction: the user is found by email or created, joins the organization
// with the provider's default role and team if new, is marked as an SSO member seen now, and gets
// a browser session. Returns NOT_FOUND for an unknown or pending provider, INVALID for an answer
// that is not a SAML response, UNAUTHENTICATED saying why a response was refused, FORBIDDEN for a
// disabled member.
func (r *Resolver) FinishSignIn(ctx context.Context, providerID, samlResponse string) (*SignIn, error) {
	sys := accounts.System(ctx)
	row, p, err := r.activeProvider(sys, providerID)
	if err != nil {
		return nil, err
	}
	doc, inResponseTo, err := sso.Decode(samlResponse)
	if err != nil {
		return nil, apperr.Invalidf("%v", err)
	}
	now := r.now(ctx)
	requestID, err := r.pendingRequest(sys, p.ID, inResponseTo, now)
	if err != nil {
		return nil, err
	}
	id, err := sso.Verify(p, sso.ServiceOf(r.BaseURL, p.ID), doc, requestID, r.replayCache(sys, p.ID, now), now)
	var refused *sso.Error
	if errors.As(err, &refused) {
		return nil, apperr.Unauthenticatedf("SAML sign-in refused: %s", refused.Reason)
	}
	if err != nil {
		return nil, err
	}
	in := &SignIn{ExpiresAt: now.Add(accounts.SessionLifetime)}
	err = txn.Run(sys, r.Client, func(tx *ent.Tx) error {
		u, err := signInUser(sys, tx, id)
		if err != nil {
			return err
		}
		if err := joinThroughProvider(sys, tx, row, u.ID, now); err != nil {
			return err
		}
		in.Secret, err = accounts.CreateSession(sys, tx.Session, accounts.NewSession{
			UserID: u.ID, OrganizationID: row.OrganizationID, ProviderID: row.ID, ExpiresAt: in.ExpiresAt})
		return err
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// pendingRequest returns id when it names a sign-in request to the provider that still waits, ""
// otherwise (verification then refuses the answer, saying it answers no request).
func (r *Resolver) pendingRequest(sys context.Context, providerID, id string, now time.Time) (string, error) {
	if id == "" || len(id) > 128 {
		return "", nil
	}
	ok, err := r.Client.SAMLRequest.Query().
		Where(samlrequest.ID(id), samlrequest.ProviderID(providerID), samlrequest.ExpiresAtGT(now)).Exist(sys)
	if err != nil || !ok {
		return "", err
	}
	return id, nil
}

// replayCache remembers the provider's assertions in the database until they expire: a second
// use, through any server process, is refused.
func (r *Resolver) replayCache(sys context.Context, providerID string, now time.Time) sso.ReplayFunc {
	return func(assertionID string, expiresAt time.Time) error {
		if _, err := r.Client.SAMLAssertion.Delete().Where(samlassertion.ExpiresAtLT(now)).Exec(sys); err != nil {
			return err
		}
		key := sha256.Sum256([]byte(assertionID)) // the id is the IdP's, of any length
		err := r.Client.SAMLAssertion.Create().SetID(providerID + " " + hex.EncodeToString(key[:])).SetExpiresAt(expiresAt.UTC()).Exec(sys)
		if ent.IsConstraintError(err) {
			return saml.ErrAssertionReplayed
		}
		return err
	}
}

// signInUser returns the user with the identity's email, created with its display name when
// there is none.
func signInUser(sys context.Context, tx *ent.Tx, id sso.Identity) (*ent.User, error) {
	u, err := tx.User.Query().Where(user.Email(id.Email)).Only(sys)
	if ent.IsNotFound(err) {
		return tx.User.Create().SetEmail(id.Email).SetDisplayName(id.Name).Save(sys)
	}
	return u, err
}

// joinThroughProvider makes the user a member of the provider's organization (with its default
// role and team) if they are not, and marks the membership as SSO and seen at now. Returns
// FORBIDDEN when the membership is disabled.
func joinThroughProvider(sys context.Context, tx *ent.Tx, p *ent.SAMLProvider, userID string, now time.Time) error {
	m, err := tx.Member.Query().Where(member.OrganizationID(p.OrganizationID), member.UserID(userID)).Only(sys)
	switch {
	case err == nil && m.Disabled:
		return apperr.Forbiddenf("your membership of organization %s is disabled: ask one of its admins", p.OrganizationID)
	case err == nil:
		return tx.Member.UpdateOne(m).SetSSO(true).SetLastSeenAt(now).Exec(sys)
	case !ent.IsNotFound(err):
		return err
	}
	err = tx.Member.Create().SetOrganizationID(p.OrganizationID).SetUserID(userID).SetNillableRole(p.DefaultRole).
		SetSSO(true).SetLastSeenAt(now).Exec(sys)
	if err != nil || p.DefaultTeamID == nil {
		return err
	}
	err = tx.TeamMember.Create().SetOrganizationID(p.OrganizationID).SetTeamID(*p.DefaultTeamID).SetUserID(userID).
		OnConflictColumns(teammember.FieldTeamID, teammember.FieldUserID).DoNothing().Exec(sys)
	if isNoRows(err) {
		return nil
	}
	return err
}

// EndSession ends the browser session of a secret (and sweeps expired ones). Ending an unknown
// session is no error.
func (r *Resolver) EndSession(ctx context.Context, secret string) error {
	return accounts.EndSession(ctx, r.Client, secret, r.now(ctx))
}

// SAMLMetadata returns the SAML metadata of this server as the service provider of a provider
// (pending ones too: an identity provider is configured from it). Anyone may read it. Returns
// NOT_FOUND for an unknown provider.
func (r *Resolver) SAMLMetadata(ctx context.Context, providerID string) ([]byte, error) {
	p, err := r.Client.SAMLProvider.Get(accounts.System(ctx), providerID)
	if err != nil {
		return nil, notFound(err, "SAML provider")
	}
	return sso.Metadata(sso.Provider{ID: p.ID}, sso.ServiceOf(r.BaseURL, p.ID), r.now(ctx))
}
