package accounts

import (
	"cmp"
	"context"
	"crypto/sha256"
	stdsql "database/sql"
	"encoding/hex"
	"errors"
	"slices"
	"time"

	"github.com/crewjam/saml"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/oidcprovider"
	"github.com/binderyhq/bindery/ent/samlassertion"
	"github.com/binderyhq/bindery/ent/samlprovider"
	"github.com/binderyhq/bindery/ent/samlrequest"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/sso"
	"github.com/binderyhq/bindery/internal/txn"
)

// SSO is single sign-on through organizations' SAML providers (internal/sso speaks the
// protocol): starting and finishing a sign-in, which signs the person in as a user and member of
// the provider's organization with a browser session, and what anyone may read before signing
// in. Sign-in comes before any viewer, so it reads and writes as the system viewer.
type SSO struct {
	Client  *ent.Client
	BaseURL string // absolute URL of this server
	// Now is the current time, as stored.
	Now func(context.Context) time.Time
}

// SignIn is a browser session begun by a single sign-on: the secret for the cookie, and when it
// ends.
type SignIn struct {
	Secret    string
	ExpiresAt time.Time
}

// Login is the sign-in entry of an active provider: where a sign-in page sends the browser.
type Login struct {
	ID, Label, StartURL string
}

// ProviderActive reports whether people can sign in through p: its sign-in URL, entity id and
// certificate are all set (it is pending until then).
func ProviderActive(p *ent.SAMLProvider) bool {
	return p.SSOURL != nil && p.EntityID != nil && p.Certificate != nil
}

// activeProvider returns the provider with the id, read as the system viewer. Returns NOT_FOUND
// when there is none or it is pending.
func (s SSO) activeProvider(sys context.Context, id string) (*ent.SAMLProvider, sso.Provider, error) {
	p, err := s.Client.SAMLProvider.Get(sys, id)
	if ent.IsNotFound(err) || (err == nil && !ProviderActive(p)) {
		return nil, sso.Provider{}, apperr.NotFoundf("no active SAML provider has the id %q", check.Truncate(id, 80))
	}
	if err != nil {
		return nil, sso.Provider{}, err
	}
	return p, sso.Provider{ID: p.ID, EntityID: *p.EntityID, SSOURL: *p.SSOURL, Certificate: *p.Certificate}, nil
}

// Start begins a sign-in through a provider: it remembers the request (for 10 minutes, in the
// database, so any server process may take the answer) and returns the provider's URL to send
// the browser to, carrying relayState. Returns NOT_FOUND for an unknown or pending provider.
func (s SSO) Start(ctx context.Context, providerID, relayState string) (string, error) {
	sys := System(ctx)
	_, p, err := s.activeProvider(sys, providerID)
	if err != nil {
		return "", err
	}
	now := s.Now(ctx)
	u, requestID, err := sso.Start(p, sso.ServiceOf(s.BaseURL, p.ID), relayState, now)
	if err != nil {
		return "", apperr.Invalidf("provider %s: %v", p.ID, err)
	}
	if _, err := s.Client.SAMLRequest.Delete().Where(samlrequest.ExpiresAtLT(now)).Exec(sys); err != nil {
		return "", err
	}
	err = s.Client.SAMLRequest.Create().SetID(requestID).SetProviderID(p.ID).SetExpiresAt(now.Add(sso.RequestLifetime)).Exec(sys)
	return u.String(), err
}

// Finish verifies an identity provider's answer posted to the provider's ACS and signs the
// person in, in one transaction: the user is found by email or created, joins the organization
// with the provider's default role and team if new, is marked as an SSO member seen now, and gets
// a browser session. Returns NOT_FOUND for an unknown or pending provider, INVALID for an answer
// that is not a SAML response, UNAUTHENTICATED saying why a response was refused, FORBIDDEN for a
// disabled member.
func (s SSO) Finish(ctx context.Context, providerID, samlResponse string) (*SignIn, error) {
	sys := System(ctx)
	row, p, err := s.activeProvider(sys, providerID)
	if err != nil {
		return nil, err
	}
	doc, inResponseTo, err := sso.Decode(samlResponse)
	if err != nil {
		return nil, apperr.Invalidf("%v", err)
	}
	now := s.Now(ctx)
	requestID, err := s.pendingRequest(sys, p.ID, inResponseTo, now)
	if err != nil {
		return nil, err
	}
	id, err := sso.Verify(p, sso.ServiceOf(s.BaseURL, p.ID), doc, requestID, s.replayCache(sys, p.ID, now), now)
	var refused *sso.Error
	if errors.As(err, &refused) {
		return nil, apperr.Unauthenticatedf("SAML sign-in refused: %s", refused.Reason)
	}
	if err != nil {
		return nil, err
	}
	j := joining{OrganizationID: row.OrganizationID, ProviderID: row.ID, Role: row.DefaultRole}
	if row.DefaultTeamID != nil {
		j.FirstTeams = []string{*row.DefaultTeamID}
	}
	return s.signIn(sys, id.Email, id.Name, j, now)
}

// joining is how a person signs in to an organization through one of its providers: the role and
// teams a new member joins with, and the teams every sign-in makes them a member of.
type joining struct {
	OrganizationID, ProviderID string
	Role                       *viewer.Role // of a new member; nil: a guest
	FirstTeams                 []string     // joined with a new membership
	Teams                      []string     // joined at every sign-in
}

// signIn signs in the person a provider vouched for, in one transaction: the user is found by
// email (their name updated to the provider's) or created, joins the organization as j says if
// new (recording member.added), is marked as an SSO member seen now, and gets a browser session.
// Returns FORBIDDEN for a disabled member.
func (s SSO) signIn(sys context.Context, email, name string, j joining, now time.Time) (*SignIn, error) {
	in := &SignIn{ExpiresAt: now.Add(SessionLifetime)}
	err := txn.Run(sys, s.Client, func(tx *ent.Tx) error {
		u, err := signInUser(sys, tx, email, name)
		if err != nil {
			return err
		}
		if err := joinThroughProvider(sys, tx, j, u.ID, now); err != nil {
			return err
		}
		in.Secret, err = CreateSession(sys, tx.Session, NewSession{
			UserID: u.ID, OrganizationID: j.OrganizationID, ProviderID: j.ProviderID, ExpiresAt: in.ExpiresAt})
		return err
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// pendingRequest returns id when it names a sign-in request to the provider that still waits, ""
// otherwise (verification then refuses the answer, saying it answers no request).
func (s SSO) pendingRequest(sys context.Context, providerID, id string, now time.Time) (string, error) {
	if id == "" || len(id) > 128 {
		return "", nil
	}
	ok, err := s.Client.SAMLRequest.Query().
		Where(samlrequest.ID(id), samlrequest.ProviderID(providerID), samlrequest.ExpiresAtGT(now)).Exist(sys)
	if err != nil || !ok {
		return "", err
	}
	return id, nil
}

// replayCache remembers the provider's assertions in the database until they expire: a second
// use, through any server process, is refused.
func (s SSO) replayCache(sys context.Context, providerID string, now time.Time) sso.ReplayFunc {
	return func(assertionID string, expiresAt time.Time) error {
		if _, err := s.Client.SAMLAssertion.Delete().Where(samlassertion.ExpiresAtLT(now)).Exec(sys); err != nil {
			return err
		}
		key := sha256.Sum256([]byte(assertionID)) // the id is the IdP's, of any length
		err := s.Client.SAMLAssertion.Create().SetID(providerID + " " + hex.EncodeToString(key[:])).SetExpiresAt(expiresAt.UTC()).Exec(sys)
		if ent.IsConstraintError(err) {
			return saml.ErrAssertionReplayed
		}
		return err
	}
}

// signInUser returns the user with the email, created with the display name when there is none;
// an existing user takes the name when it is given and differs (the provider holds it).
func signInUser(sys context.Context, tx *ent.Tx, email, name string) (*ent.User, error) {
	u, err := tx.User.Query().Where(user.Email(email)).Only(sys)
	switch {
	case ent.IsNotFound(err):
		return tx.User.Create().SetEmail(email).SetDisplayName(name).Save(sys)
	case err == nil && name != "" && name != u.DisplayName:
		return tx.User.UpdateOne(u).SetDisplayName(name).Save(sys)
	}
	return u, err
}

// joinThroughProvider makes the user a member of the organization (with j's role and first
// teams, recording member.added) if they are not, marks the membership as SSO and seen at now,
// and adds them to j's teams. Returns FORBIDDEN when the membership is disabled.
func joinThroughProvider(sys context.Context, tx *ent.Tx, j joining, userID string, now time.Time) error {
	m, err := tx.Member.Query().Where(member.OrganizationID(j.OrganizationID), member.UserID(userID)).Only(sys)
	teams := j.Teams
	switch {
	case err == nil && m.Disabled:
		return apperr.Forbiddenf("your membership of organization %s is disabled: ask one of its admins", j.OrganizationID)
	case err == nil:
		err = tx.Member.UpdateOne(m).SetSSO(true).SetLastSeenAt(now).Exec(sys)
	case ent.IsNotFound(err):
		err = tx.Member.Create().SetOrganizationID(j.OrganizationID).SetUserID(userID).SetNillableRole(j.Role).
			SetSSO(true).SetLastSeenAt(now).Exec(sys)
		if err == nil { // the person signing in is the actor of their joining, as with an invite link
			joiner := viewer.NewContext(sys, viewer.NewUser(userID, "", nil))
			err = events.Record(joiner, tx.Client(), events.Event{Type: events.MemberAdded, Organization: j.OrganizationID,
				ObjectKind: "member", ObjectID: userID, Details: map[string]any{"role": j.Role, "provider": j.ProviderID}})
		}
		teams = append(slices.Clone(j.FirstTeams), teams...)
	}
	if err != nil || len(teams) == 0 {
		return err
	}
	teams = check.Distinct(teams)
	creates := make([]*ent.TeamMemberCreate, len(teams))
	for i, t := range teams {
		creates[i] = tx.TeamMember.Create().SetOrganizationID(j.OrganizationID).SetTeamID(t).SetUserID(userID)
	}
	err = tx.TeamMember.CreateBulk(creates...).OnConflictColumns(teammember.FieldTeamID, teammember.FieldUserID).DoNothing().Exec(sys)
	if errors.Is(err, stdsql.ErrNoRows) { // PostgreSQL's ON CONFLICT DO NOTHING returns no row
		return nil
	}
	return err
}

// EndSession ends the browser session of a secret (and sweeps expired ones). Ending an unknown
// session is no error.
func (s SSO) EndSession(ctx context.Context, secret string) error {
	return EndSession(ctx, s.Client, secret, s.Now(ctx))
}

// Metadata returns the SAML metadata of this server as the service provider of a provider
// (pending ones too: an identity provider is configured from it). Anyone may read it. Returns
// NOT_FOUND for an unknown provider.
func (s SSO) Metadata(ctx context.Context, providerID string) ([]byte, error) {
	p, err := s.Client.SAMLProvider.Get(System(ctx), providerID)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("SAML provider not found")
	}
	if err != nil {
		return nil, err
	}
	return sso.Metadata(sso.Provider{ID: p.ID}, sso.ServiceOf(s.BaseURL, p.ID), s.Now(ctx))
}

// Logins lists the sign-in entries of an organization's active SAML providers and its OpenID
// Connect providers, by label (at most 100 of each). Anyone may read them, as a sign-in page
// must: they are read as the system viewer, and an unknown organization has none.
func (s SSO) Logins(ctx context.Context, orgID string) ([]Login, error) {
	sys := System(ctx)
	providers, err := s.Client.SAMLProvider.Query().
		Where(samlprovider.OrganizationID(orgID), samlprovider.SSOURLNotNil(), samlprovider.EntityIDNotNil(), samlprovider.CertificateNotNil()).
		Order(ent.Asc(samlprovider.FieldLabel), ent.Asc(samlprovider.FieldID)).Limit(100).All(sys)
	if err != nil {
		return nil, err
	}
	oidc, err := s.Client.OIDCProvider.Query().Where(oidcprovider.OrganizationID(orgID)).
		Order(ent.Asc(oidcprovider.FieldLabel), ent.Asc(oidcprovider.FieldID)).Limit(100).All(sys)
	if err != nil {
		return nil, err
	}
	out := make([]Login, 0, len(providers)+len(oidc))
	for _, p := range providers {
		out = append(out, Login{ID: p.ID, Label: p.Label, StartURL: sso.ServiceOf(s.BaseURL, p.ID).StartURL})
	}
	for _, p := range oidc {
		login, _ := OIDCURLs(s.BaseURL, p.ID)
		out = append(out, Login{ID: p.ID, Label: p.Label, StartURL: login})
	}
	slices.SortStableFunc(out, func(a, b Login) int { return cmp.Or(cmp.Compare(a.Label, b.Label), cmp.Compare(a.ID, b.ID)) })
	return out, nil
}

// Required is the error of a session viewer on an organization whose membership the session
// withholds (it began through another organization's single sign-on): FORBIDDEN, naming where to
// sign in.
func (s SSO) Required(ctx context.Context, orgID string) error {
	logins, err := s.Logins(ctx, orgID)
	if err != nil {
		return err
	}
	if !viewer.FromContext(ctx).SSOEnforced(orgID) {
		signIn := "use an API token"
		if len(logins) > 0 {
			signIn = "sign in at " + logins[0].StartURL + " or use an API token"
		}
		return apperr.Forbiddenf("this browser session began through another organization's single sign-on and reads that organization only: for organization %s, %s", orgID, signIn)
	}
	if len(logins) == 0 {
		return apperr.Forbiddenf("organization %s requires single sign-on, and has no active single sign-on provider: use an API token", orgID)
	}
	return apperr.Forbiddenf("organization %s requires single sign-on through its own identity provider: sign in at %s (API tokens keep working)",
		orgID, logins[0].StartURL)
}

// Hidden turns err, the NOT_FOUND of an object read by its own id, into the FORBIDDEN of
// Required when the object belongs to an organization whose membership the session withholds
// (the session came through none of its providers): the viewer is a member there, so learning
// that the object exists tells them nothing new. orgOf reads the
// object's organization as the system viewer; it runs only for such sessions. Any other err is
// returned as it is.
func (s SSO) Hidden(ctx context.Context, err error, orgOf func(sys context.Context) (string, error)) error {
	v := viewer.FromContext(ctx)
	if !apperr.IsNotFound(err) || len(v.SSORequiredOrganizations()) == 0 {
		return err
	}
	orgID, lookupErr := orgOf(System(ctx))
	if lookupErr != nil || !v.SSORequired(orgID) {
		return err
	}
	return s.Required(ctx, orgID)
}
