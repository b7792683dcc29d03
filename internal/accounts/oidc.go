package accounts

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/oidcprovider"
	"github.com/binderyhq/bindery/ent/session"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/openid"
	"github.com/binderyhq/bindery/internal/serverkey"
)

// OIDCRequestLifetime is how long a sign-in through an OpenID Connect provider may take from its
// start to the callback.
const OIDCRequestLifetime = 10 * time.Minute

// oidcGroupsMax bounds the groups of an ID token matched to teams.
const oidcGroupsMax = 200

// OIDC is single sign-on through organizations' OpenID Connect providers (internal/openid speaks
// the protocol), beside SAML's SSO, whose sessions and memberships it shares. What a sign-in
// keeps between its start and the callback travels sealed in the browser's cookie (Start's
// state), so any server process takes the callback and the sign-in is bound to the browser
// that began it.
type OIDC struct {
	SSO
	Keys      *serverkey.Keys
	Providers *openid.Providers
}

// OIDCURLs are this server's URLs of a provider: where a sign-in begins, and the redirect URI to
// register with the provider.
func OIDCURLs(baseURL, providerID string) (login, callback string) {
	base := baseURL + "/sso/oidc/" + providerID
	return base + "/login", base + "/callback"
}

// pendingOIDC is a sign-in under way, sealed into the browser's cookie.
type pendingOIDC struct {
	openid.Request
	ReturnTo  string    `json:"r"`
	ExpiresAt time.Time `json:"e"`
}

// oidcStateLabel binds a sign-in's sealed state to its provider.
func oidcStateLabel(providerID string) string { return "oidc-signin:" + providerID }

// provider reads a provider as the system viewer. Returns NOT_FOUND.
func (o OIDC) provider(sys context.Context, providerID string) (*ent.OIDCProvider, error) {
	p, err := o.Client.OIDCProvider.Get(sys, providerID)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("no OpenID Connect provider has the id %q", check.Truncate(providerID, 80))
	}
	return p, err
}

// config is the provider as the relying party sees it, coming back to callback, with its client
// secret unsealed when secret is set.
func (o OIDC) config(ctx context.Context, p *ent.OIDCProvider, callback string, secret bool) (openid.Config, error) {
	c := openid.Config{Issuer: p.Issuer, ClientID: p.ClientID, Scopes: p.Scopes, RedirectURL: callback,
		GroupsClaim: derefString(p.GroupsClaim)}
	if secret {
		s, err := o.Keys.Unseal(ctx, o.Client, oidcSealLabel(p.ID), p.SealedSecret)
		if err != nil {
			return c, err
		}
		c.ClientSecret = string(s)
	}
	return c, nil
}

func derefString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Start begins a sign-in through a provider: it returns the provider's URL to send the browser
// to, and the sealed state for the browser's cookie, which the callback needs. returnTo is where
// the person goes once signed in. Returns NOT_FOUND for an unknown provider, UNAUTHENTICATED when
// the provider cannot be discovered.
func (o OIDC) Start(ctx context.Context, providerID, returnTo string) (to, state string, err error) {
	p, err := o.provider(System(ctx), providerID)
	if err != nil {
		return "", "", err
	}
	_, callback := OIDCURLs(o.BaseURL, p.ID)
	return o.begin(ctx, p, callback, oidcStateLabel(p.ID), returnTo)
}

// begin starts a sign-in through p that comes back to callback: the provider's URL to send the
// browser to, and the pending sign-in sealed under label (which binds it to what it signs in
// to) for the browser's cookie. Returns UNAUTHENTICATED when the provider cannot be discovered.
func (o OIDC) begin(ctx context.Context, p *ent.OIDCProvider, callback, label, returnTo string) (to, state string, err error) {
	sys := System(ctx)
	c, err := o.config(sys, p, callback, false)
	if err != nil {
		return "", "", err
	}
	now := o.Now(ctx)
	pending := pendingOIDC{Request: openid.NewRequest(), ReturnTo: returnTo, ExpiresAt: now.Add(OIDCRequestLifetime)}
	if to, err = o.Providers.AuthURL(ctx, c, pending.Request, now); err != nil {
		return "", "", refusal(err)
	}
	plain, _ := json.Marshal(pending) // plain strings and a time
	sealed, err := o.Keys.Seal(sys, o.Client, label, plain)
	return to, base64.RawURLEncoding.EncodeToString(sealed), err
}

// refusal is a relying party's refusal as UNAUTHENTICATED with its reason; other errors as
// they are.
func refusal(err error) error {
	var refused *openid.Error
	if errors.As(err, &refused) {
		return apperr.Unauthenticatedf("OpenID Connect sign-in refused: %s", refused.Reason)
	}
	return err
}

// Callback is what the provider sent back to the callback, with the browser's sealed state.
type Callback struct {
	State, Code, Error, ErrorDescription string
	Sealed                               string // the cookie Start set
}

// Finish completes a sign-in at the callback: the state must be the browser's own (sealed in its
// cookie, unexpired), the code is exchanged with the PKCE verifier, and the ID token verified
// (internal/openid); the email must be verified (allowedEmail) and of an allowed domain. The person then signs in as with SAML (user, membership with the provider's
// default role else the organization's, session), and joins the teams whose titles are values
// of the groups claim. It returns the session and where to send the person. Returns NOT_FOUND
// for an unknown provider, UNAUTHENTICATED saying why a sign-in was refused, FORBIDDEN for a
// disabled member.
func (o OIDC) Finish(ctx context.Context, providerID string, cb Callback) (*SignIn, string, error) {
	sys := System(ctx)
	p, err := o.provider(sys, providerID)
	if err != nil {
		return nil, "", err
	}
	_, callback := OIDCURLs(o.BaseURL, p.ID)
	id, returnTo, err := o.verify(ctx, p, callback, oidcStateLabel(p.ID), cb)
	if err != nil {
		return nil, "", err
	}
	email, err := allowedEmail(p, id)
	if err != nil {
		return nil, "", err
	}
	j, err := o.joining(sys, p, id.Groups)
	if err != nil {
		return nil, "", err
	}
	in, err := o.signIn(sys, email, check.Cut(id.Name, 255), j, o.Now(ctx))
	return in, returnTo, err
}

// verify completes a sign-in begun with begin (same callback and label): the state must be the
// browser's own (sealed in its cookie under label, unexpired), the code is exchanged with the
// PKCE verifier, and the ID token verified (internal/openid). It returns who signed in and where
// the sign-in said to go. Returns UNAUTHENTICATED saying why a sign-in was refused.
func (o OIDC) verify(ctx context.Context, p *ent.OIDCProvider, callback, label string, cb Callback) (openid.Identity, string, error) {
	sys := System(ctx)
	now := o.Now(ctx)
	pending, err := o.pending(sys, label, cb, now)
	if err != nil {
		return openid.Identity{}, "", err
	}
	c, err := o.config(sys, p, callback, true)
	if err != nil {
		return openid.Identity{}, "", err
	}
	id, err := o.Providers.Exchange(ctx, c, pending.Request, cb.Code, now)
	if err != nil {
		return openid.Identity{}, "", refusal(err)
	}
	return id, pending.ReturnTo, nil
}

// pending opens the browser's sealed state and checks the callback against it. Returns
// UNAUTHENTICATED saying what is wrong.
func (o OIDC) pending(sys context.Context, label string, cb Callback, now time.Time) (pendingOIDC, error) {
	var p pendingOIDC
	if cb.Error != "" {
		return p, apperr.Unauthenticatedf("OpenID Connect sign-in refused: the provider answered %q: %s",
			check.Truncate(cb.Error, 80), check.Truncate(cb.ErrorDescription, 200))
	}
	sealed, err := base64.RawURLEncoding.DecodeString(cb.Sealed)
	if err == nil {
		var plain []byte
		if plain, err = o.Keys.Unseal(sys, o.Client, label, sealed); err == nil {
			err = json.Unmarshal(plain, &p)
		}
	}
	switch {
	case cb.Sealed == "" || err != nil || !now.Before(p.ExpiresAt):
		return p, apperr.Unauthenticatedf("OpenID Connect sign-in refused: no sign-in through this provider is under way in this browser (it expired, or began elsewhere): start again")
	case subtle.ConstantTimeCompare([]byte(cb.State), []byte(p.State)) != 1:
		return p, apperr.Unauthenticatedf("OpenID Connect sign-in refused: the state is not the one this browser's sign-in sent")
	case cb.Code == "":
		return p, apperr.Unauthenticatedf("OpenID Connect sign-in refused: the provider sent no code")
	}
	return p, nil
}

// allowedEmail is the identity's email, lower-cased, when the provider may sign it in: present,
// not marked unverified, of one of the provider's email domains when it lists any. A provider
// that says nothing of verification (Entra ID) is trusted only for the domains it lists.
// Returns UNAUTHENTICATED saying why not.
func allowedEmail(p *ent.OIDCProvider, id openid.Identity) (string, error) {
	email := strings.ToLower(strings.TrimSpace(id.Email))
	at := strings.LastIndexByte(email, '@')
	switch {
	case at <= 0 || at == len(email)-1 || len(email) > 320:
		return "", apperr.Unauthenticatedf("OpenID Connect sign-in refused: the ID token has no email address (ask for the email scope)")
	case id.EmailVerified != nil && !*id.EmailVerified:
		return "", apperr.Unauthenticatedf("OpenID Connect sign-in refused: the provider has not verified the email address %s", email)
	case id.EmailVerified == nil && len(p.EmailDomains) == 0:
		return "", apperr.Unauthenticatedf("OpenID Connect sign-in refused: the provider does not say the email address %s is verified (email_verified): list the provider's emailDomains to trust its addresses there", email)
	case len(p.EmailDomains) > 0 && !slices.Contains(p.EmailDomains, email[at+1:]):
		return "", apperr.Unauthenticatedf("OpenID Connect sign-in refused: the email domain %s is not one this provider may sign in", email[at+1:])
	}
	return email, nil
}

// joining is how a person signs in through p: its default role (else the organization's) for a
// new member, and the organization's teams whose titles are values of the groups claim
// (case-insensitive).
func (o OIDC) joining(sys context.Context, p *ent.OIDCProvider, groups []string) (joining, error) {
	j := joining{OrganizationID: p.OrganizationID, ProviderID: p.ID, Role: p.DefaultRole}
	if j.Role == nil {
		org, err := o.Client.Organization.Get(sys, p.OrganizationID)
		if err != nil {
			return j, err
		}
		j.Role = org.DefaultRole
	}
	if p.GroupsClaim == nil || len(groups) == 0 {
		return j, nil
	}
	lower := make([]any, 0, min(len(groups), oidcGroupsMax))
	for _, g := range groups[:min(len(groups), oidcGroupsMax)] {
		lower = append(lower, strings.ToLower(g))
	}
	var err error
	j.Teams, err = o.Client.Team.Query().Where(team.OrganizationID(p.OrganizationID), func(s *sql.Selector) {
		s.Where(sql.In(sql.Lower(s.C(team.FieldTitle)), lower...))
	}).IDs(sys)
	return j, err
}

// SignOut ends the browser session of a secret, and returns where to send the browser next:
// the end-session endpoint of the OpenID Connect provider that began the session when it offers
// one (RP-initiated logout, coming back to postLogout), "" otherwise. Ending an unknown session
// is no error.
func (o OIDC) SignOut(ctx context.Context, secret, postLogout string) (string, error) {
	sys := System(ctx)
	providerID, err := o.Client.Session.Query().Where(session.SecretHash(HashSecret(secret))).
		Select(session.FieldProviderID).String(sys)
	if err != nil && !ent.IsNotFound(err) {
		return "", err
	}
	if err := o.EndSession(ctx, secret); err != nil {
		return "", err
	}
	p, err := o.Client.OIDCProvider.Query().Where(oidcprovider.ID(providerID)).Only(sys)
	if ent.IsNotFound(err) || providerID == "" {
		return "", nil // a SAML session, or none
	}
	if err != nil {
		return "", err
	}
	return o.endSessionURL(ctx, p, postLogout), nil
}

// endSessionURL is p's end-session URL for RP-initiated logout, coming back to postLogout; ""
// when it offers none.
func (o OIDC) endSessionURL(ctx context.Context, p *ent.OIDCProvider, postLogout string) string {
	c, _ := o.config(ctx, p, "", false) // fails only unsealing the secret, which it does not
	return o.Providers.EndSessionURL(ctx, c, postLogout, o.Now(ctx))
}
