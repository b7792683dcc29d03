package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
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
		return setOrClear(in.LogoutURL, visitorauth.CheckURL("logoutURL"), upd.SetLogoutURL, upd.ClearLogoutURL)
	})
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
