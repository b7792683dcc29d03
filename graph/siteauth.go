package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/sitepublishingauth"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/graph/txn"
	"github.com/binderyhq/bindery/internal/id"
)

// Bounds of visitor authentication settings: the signing key made by the server and the URLs
// (the reference's URL schema).
const (
	signingKeyLength = 43 // base62 characters: about 256 random bits, an HS256 key's size
	authURLMax       = 2048
)

// sitePublishingAuth is Site.publishingAuth: the site's visitor authentication settings, made
// with a fresh signing key on first read. Returns FORBIDDEN for members who may not manage the
// site.
func (r *Resolver) sitePublishingAuth(ctx context.Context, s *ent.Site) (*ent.SitePublishingAuth, error) {
	if err := requireSiteManager(ctx, s, "see a site's visitor authentication settings"); err != nil {
		return nil, err
	}
	a, err := r.Client.SitePublishingAuth.Query().Where(sitepublishingauth.SiteID(s.ID)).Only(ctx)
	if !ent.IsNotFound(err) {
		return a, err
	}
	return r.changePublishingAuth(ctx, s, nil)
}

// newSigningKey makes a random signing key for a site and returns it sealed.
func (r *Resolver) newSigningKey(ctx context.Context, siteID string) ([]byte, error) {
	return r.keys.Seal(ctx, r.Client, signingKeyLabel(siteID), []byte(id.Random(signingKeyLength)))
}

// signingKeyLabel binds a sealed signing key to its site.
func signingKeyLabel(siteID string) string { return "site-publishing-auth:" + siteID }

// publishingAuthKey is SitePublishingAuth.privateKey: the signing key, unsealed.
func (r *Resolver) publishingAuthKey(ctx context.Context, a *ent.SitePublishingAuth) (string, error) {
	key, err := r.keys.Unseal(ctx, r.Client, signingKeyLabel(a.SiteID), a.SealedKey)
	return string(key), err
}

// updateSitePublishingAuth sets or removes the fallback and logout URLs; absent fields are kept.
// Returns NOT_FOUND, FORBIDDEN, or INVALID naming the field.
func (r *Resolver) updateSitePublishingAuth(ctx context.Context, orgID, siteID string, in model.UpdateSitePublishingAuthInput) (*ent.SitePublishingAuth, error) {
	s, err := r.manageableSite(ctx, orgID, siteID, "change visitor authentication settings")
	if err != nil {
		return nil, err
	}
	return r.changePublishingAuth(ctx, s, func(upd *ent.SitePublishingAuthUpdateOne, _ []byte) error {
		err := setOrClear(in.FallbackURL, authURL("fallbackURL"), upd.SetFallbackURL, upd.ClearFallbackURL)
		if err != nil {
			return err
		}
		return setOrClear(in.LogoutURL, authURL("logoutURL"), upd.SetLogoutURL, upd.ClearLogoutURL)
	})
}

// authURL checks a URL of the settings: absolute http(s).
func authURL(field string) func(string) error {
	return func(u string) error { return checkURL(field, u, authURLMax) }
}

// regenerateSitePublishingAuth replaces the site's signing key with a fresh one.
// Returns NOT_FOUND or FORBIDDEN.
func (r *Resolver) regenerateSitePublishingAuth(ctx context.Context, orgID, siteID string) (*ent.SitePublishingAuth, error) {
	s, err := r.manageableSite(ctx, orgID, siteID, "change visitor authentication settings")
	if err != nil {
		return nil, err
	}
	return r.changePublishingAuth(ctx, s, func(upd *ent.SitePublishingAuthUpdateOne, fresh []byte) error {
		upd.SetSealedKey(fresh)
		return nil
	})
}

// changePublishingAuth makes the site's settings when it has none, then applies change (when not
// nil) with a freshly sealed key at hand, in one transaction. The key is sealed before the
// transaction starts: the first use of the server key writes it, which must not wait behind the
// transaction's own write lock (SQLite). Two requests making the settings at once both get the
// ones made first.
func (r *Resolver) changePublishingAuth(ctx context.Context, s *ent.Site, change func(*ent.SitePublishingAuthUpdateOne, []byte) error) (*ent.SitePublishingAuth, error) {
	fresh, err := r.newSigningKey(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	var a *ent.SitePublishingAuth
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		err := tx.SitePublishingAuth.Create().SetOrganizationID(s.OrganizationID).SetSiteID(s.ID).SetSealedKey(fresh).
			OnConflictColumns(sitepublishingauth.FieldSiteID).DoNothing().Exec(ctx)
		if err != nil && !isNoRows(err) {
			return err
		}
		if a, err = tx.SitePublishingAuth.Query().Where(sitepublishingauth.SiteID(s.ID)).Only(ctx); err != nil || change == nil {
			return err
		}
		upd := tx.SitePublishingAuth.UpdateOne(a)
		if err := change(upd, fresh); err != nil {
			return err
		}
		a, err = upd.Save(ctx)
		return err
	})
	return a, err
}
