package graph

import (
	"context"
	"net/url"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/sites"
	"github.com/binderyhq/bindery/internal/visitorauth"
)

// visitorAuth is the visitor authentication of the sites, on this server's keys and clock.
func (r *Resolver) visitorAuth() visitorauth.Service {
	return visitorauth.Service{Client: r.Client, Keys: &r.keys, Now: r.now}
}

// visitorClaims verifies a reader's visitor token for a visitor-auth site (visitorauth.Service.Verify).
func (r *Resolver) visitorClaims(ctx context.Context, s *ent.Site, token string) (map[string]any, error) {
	return r.visitorAuth().Verify(ctx, s, token)
}

// sitePublishingAuth is Site.publishingAuth: the site's visitor authentication settings, made
// with a fresh signing key on first read. Returns FORBIDDEN for members who may not manage the
// site.
func (r *Resolver) sitePublishingAuth(ctx context.Context, s *ent.Site) (*ent.SitePublishingAuth, error) {
	if err := sites.RequireManager(ctx, s, "see a site's visitor authentication settings"); err != nil {
		return nil, err
	}
	return r.visitorAuth().Settings(ctx, s)
}

// publishingAuthKey is SitePublishingAuth.privateKey: the signing key, unsealed.
func (r *Resolver) publishingAuthKey(ctx context.Context, a *ent.SitePublishingAuth) (string, error) {
	return r.visitorAuth().Key(ctx, a)
}

// updateSitePublishingAuth sets or removes the fallback and logout URLs; absent fields are kept.
// Returns NOT_FOUND, FORBIDDEN, or INVALID naming the field.
func (r *Resolver) updateSitePublishingAuth(ctx context.Context, orgID, siteID string, in model.UpdateSitePublishingAuthInput) (*ent.SitePublishingAuth, error) {
	s, err := r.manageableSite(ctx, orgID, siteID, "change visitor authentication settings")
	if err != nil {
		return nil, err
	}
	return r.visitorAuth().Change(ctx, s, func(upd *ent.SitePublishingAuthUpdateOne, _ []byte) error {
		err := setOrClear(in.FallbackURL, visitorauth.CheckURL("fallbackURL"), upd.SetFallbackURL, upd.ClearFallbackURL)
		if err != nil {
			return err
		}
		if err := setOrClear(in.LogoutURL, visitorauth.CheckURL("logoutURL"), upd.SetLogoutURL, upd.ClearLogoutURL); err != nil {
			return err
		}
		return r.setSiteSignIn(ctx, s, in.Oidc, upd)
	})
}

// setSiteSignIn sets (or with null removes) the provider readers sign in with and its claim
// mapping. Returns NOT_FOUND naming oidc.providerId for a provider of another organization (or
// none), INVALID naming the claim mapping's fault.
func (r *Resolver) setSiteSignIn(ctx context.Context, s *ent.Site, in graphql.Omittable[*model.SiteVisitorSignInInput], upd *ent.SitePublishingAuthUpdateOne) error {
	v, set := in.ValueOK()
	switch {
	case !set:
		return nil
	case v == nil:
		upd.ClearOidcProviderID().ClearOidcClaims()
		return nil
	}
	if v.ProviderID == "" {
		return apperr.Invalidf("oidc.providerId: required, the id of one of the organization's OpenID Connect providers")
	}
	mapping, err := claimMapping(v.Claims)
	if err != nil {
		return err
	}
	if err := r.visitorAuth().CheckSignIn(ctx, s, v.ProviderID, mapping); err != nil {
		return err
	}
	upd.SetOidcProviderID(v.ProviderID).SetOidcClaims(mapping)
	return nil
}

// claimMapping reads the claims of SiteVisitorSignInInput: absent or null is none, else an
// object of strings. Returns INVALID naming oidc.claims.
func claimMapping(v any) (map[string]string, error) {
	if v == nil {
		return map[string]string{}, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, apperr.Invalidf("oidc.claims: must be an object of ID token claim → visitor claim")
	}
	out := make(map[string]string, len(obj))
	for from, to := range obj {
		name, ok := to.(string)
		if !ok {
			return nil, apperr.Invalidf("oidc.claims: the visitor claim each ID token claim maps to is a string")
		}
		out[from] = name
	}
	return out, nil
}

// sitePublishingAuthSignIn is SitePublishingAuth.oidc: the provider readers sign in with, its
// claim mapping and the callback URLs to register; nil when readers bring a JWT.
func (r *Resolver) sitePublishingAuthSignIn(ctx context.Context, a *ent.SitePublishingAuth) (*model.SiteVisitorSignIn, error) {
	if a.OidcProviderID == nil {
		return nil, nil
	}
	s, err := a.Edges.SiteOrErr()
	if err != nil {
		if s, err = r.Client.Site.Get(ctx, a.SiteID); err != nil {
			return nil, err
		}
	}
	claims := a.OidcClaims
	if claims == nil {
		claims = map[string]string{}
	}
	return &model.SiteVisitorSignIn{ProviderID: *a.OidcProviderID, Claims: claims, CallbackURLs: r.siteCallbackURLs(s)}, nil
}

// siteCallbackURLs are where a provider sends a site's readers back: the site's callback at its
// URL, and at its hostname when it has one (at this server's scheme).
func (r *Resolver) siteCallbackURLs(s *ent.Site) []string {
	urls := []string{r.siteURL(s) + "/" + sites.SignInCallbackPath}
	if s.Hostname != nil {
		scheme := "https"
		if u, err := url.Parse(r.BaseURL); err == nil && u.Scheme != "" {
			scheme = u.Scheme
		}
		urls = append(urls, scheme+"://"+*s.Hostname+"/"+sites.SignInCallbackPath)
	}
	return urls
}

// regenerateSitePublishingAuth replaces the site's signing key with a fresh one.
// Returns NOT_FOUND or FORBIDDEN.
func (r *Resolver) regenerateSitePublishingAuth(ctx context.Context, orgID, siteID string) (*ent.SitePublishingAuth, error) {
	s, err := r.manageableSite(ctx, orgID, siteID, "change visitor authentication settings")
	if err != nil {
		return nil, err
	}
	return r.visitorAuth().Regenerate(ctx, s)
}

// SiteSignInStart begins the sign-in of a reader of the site ref names through the provider its
// settings name (accounts.OIDC.StartSite). Returns NOT_FOUND when the site has no sign-in,
// UNAUTHENTICATED when the provider cannot be discovered.
func (r *Resolver) SiteSignInStart(ctx context.Context, ref sites.SiteRef, callback, returnTo string) (to, state string, err error) {
	s, a, err := r.sitesService().SignInSettings(ctx, ref)
	if err != nil {
		return "", "", err
	}
	return r.OIDC().StartSite(ctx, s, *a.OidcProviderID, callback, returnTo)
}

// SiteSignIn is a reader signed in to a site: the visitor token the site signed, until when it
// lasts, and where the reader goes next.
type SiteSignIn struct {
	Token    string
	Expires  time.Time
	ReturnTo string
}

// SiteSignInFinish completes a reader's sign-in at the site's callback (accounts.OIDC.FinishSite)
// and gives the reader a visitor token of the site with the claims its mapping takes from the
// ID token (visitorauth.Service.Mint). Returns NOT_FOUND when the site has no sign-in,
// UNAUTHENTICATED saying why the sign-in was refused.
func (r *Resolver) SiteSignInFinish(ctx context.Context, ref sites.SiteRef, callback string, cb accounts.Callback) (*SiteSignIn, error) {
	s, a, err := r.sitesService().SignInSettings(ctx, ref)
	if err != nil {
		return nil, err
	}
	id, returnTo, err := r.OIDC().FinishSite(ctx, s, *a.OidcProviderID, callback, cb)
	if err != nil {
		return nil, err
	}
	token, expires, err := r.visitorAuth().Mint(ctx, a, id.Claims)
	if err != nil {
		return nil, err
	}
	return &SiteSignIn{Token: token, Expires: expires, ReturnTo: returnTo}, nil
}

// SiteSignOutURL is where a reader signing out of the site ref names goes: its settings'
// logoutURL, else the end-session endpoint of its provider (coming back to postLogout), else ""
// (also for a site without sign-in).
func (r *Resolver) SiteSignOutURL(ctx context.Context, ref sites.SiteRef, postLogout string) string {
	s, a, err := r.sitesService().SignInSettings(ctx, ref)
	switch {
	case err != nil:
		return ""
	case a.LogoutURL != nil:
		return *a.LogoutURL
	}
	return r.OIDC().SiteEndSessionURL(ctx, s, *a.OidcProviderID, postLogout)
}
