package accounts

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/openid"
)

// Readers of a visitor-auth site may sign in through the OpenID Connect provider the site names:
// the same relying party as members' sign-in (begin, verify), coming back to the site's own
// callback, with the pending sign-in sealed under a label naming the site and the provider, so a
// sign-in begun at one site is refused at another. What the reader becomes at the site is the
// site's to decide (internal/visitorauth): a reader is never a user, a member or a session.

// siteStateLabel binds a reader's pending sign-in to the site and its provider.
func siteStateLabel(siteID, providerID string) string {
	return "site-signin:" + siteID + ":" + providerID
}

// siteProvider reads the provider a site names, which must be of the site's organization.
// Returns NOT_FOUND otherwise.
func (o OIDC) siteProvider(sys context.Context, s *ent.Site, providerID string) (*ent.OIDCProvider, error) {
	p, err := o.provider(sys, providerID)
	if err == nil && p.OrganizationID != s.OrganizationID {
		return nil, apperr.NotFoundf("the site's organization has no OpenID Connect provider with the id %q", check.Truncate(providerID, 80))
	}
	return p, err
}

// StartSite begins a reader's sign-in to site s through the provider of its organization with
// the id, coming back to callback (the site's callback URL, as the reader reaches the site), then
// to returnTo. It returns the provider's URL and the sealed state for the reader's cookie.
// Returns NOT_FOUND for a provider of no such id in the site's organization, UNAUTHENTICATED when
// the provider cannot be discovered.
func (o OIDC) StartSite(ctx context.Context, s *ent.Site, providerID, callback, returnTo string) (to, state string, err error) {
	p, err := o.siteProvider(System(ctx), s, providerID)
	if err != nil {
		return "", "", err
	}
	return o.begin(ctx, p, callback, siteStateLabel(s.ID, p.ID), returnTo)
}

// FinishSite completes a reader's sign-in begun with StartSite (same site, provider and callback):
// the state, code, ID token and nonce are checked as for members (verify), and a provider that
// lists email domains admits only verified addresses of them (allowedEmail). It returns the
// identity's claims and where to send the reader. Returns NOT_FOUND or UNAUTHENTICATED saying why
// the sign-in was refused.
func (o OIDC) FinishSite(ctx context.Context, s *ent.Site, providerID, callback string, cb Callback) (openid.Identity, string, error) {
	p, err := o.siteProvider(System(ctx), s, providerID)
	if err != nil {
		return openid.Identity{}, "", err
	}
	id, returnTo, err := o.verify(ctx, p, callback, siteStateLabel(s.ID, p.ID), cb)
	if err == nil && len(p.EmailDomains) > 0 {
		_, err = allowedEmail(p, id)
	}
	return id, returnTo, err
}

// SiteEndSessionURL is where a reader signing out of site s goes to sign out at the provider of
// its organization with the id (RP-initiated logout), coming back to postLogout; "" when the
// provider offers no end-session endpoint (or is unknown).
func (o OIDC) SiteEndSessionURL(ctx context.Context, s *ent.Site, providerID, postLogout string) string {
	sys := System(ctx)
	p, err := o.siteProvider(sys, s, providerID)
	if err != nil {
		return ""
	}
	return o.endSessionURL(sys, p, postLogout)
}
