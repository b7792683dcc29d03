// Package visitorauth authenticates the readers of visitor-auth sites: each site has settings
// with a signing key (random, sealed under a server key) that its admins read to sign their
// readers' tokens, HS256 JWTs; a reader's token is verified against it, and its claims then show
// the reader the site's adaptive content.
package visitorauth

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/sitepublishingauth"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/serverkey"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of visitor authentication: the signing key made by the server, the URLs of the settings
// (the reference's URL schema), and a visitor token's length before it is parsed.
const (
	signingKeyLength = 43 // base62 characters: about 256 random bits, an HS256 key's size
	urlMax           = 2048
	maxToken         = 8 << 10
)

// Service is the visitor authentication of one server's sites. The callers check who may
// manage a site's settings.
type Service struct {
	Client *ent.Client
	Keys   *serverkey.Keys
	// Now is the current time, as stored.
	Now func(context.Context) time.Time
}

// Settings returns a site's visitor authentication settings, made with a fresh signing key on
// first read.
func (s Service) Settings(ctx context.Context, site *ent.Site) (*ent.SitePublishingAuth, error) {
	a, err := s.Client.SitePublishingAuth.Query().Where(sitepublishingauth.SiteID(site.ID)).Only(ctx)
	if !ent.IsNotFound(err) {
		return a, err
	}
	return s.Change(ctx, site, nil)
}

// newSigningKey makes a random signing key for a site and returns it sealed.
func (s Service) newSigningKey(ctx context.Context, siteID string) ([]byte, error) {
	return s.Keys.Seal(ctx, s.Client, signingKeyLabel(siteID), []byte(id.Random(signingKeyLength)))
}

// signingKeyLabel binds a sealed signing key to its site.
func signingKeyLabel(siteID string) string { return "site-publishing-auth:" + siteID }

// Key is the signing key of a site's settings, unsealed.
func (s Service) Key(ctx context.Context, a *ent.SitePublishingAuth) (string, error) {
	key, err := s.Keys.Unseal(ctx, s.Client, signingKeyLabel(a.SiteID), a.SealedKey)
	return string(key), err
}

// CheckURL is the check of a URL of the settings (field names it): absolute http(s). Returns
// INVALID naming the field.
func CheckURL(field string) func(string) error {
	return func(u string) error { return check.URL(field, u, urlMax) }
}

// Regenerate replaces the site's signing key with a fresh one.
func (s Service) Regenerate(ctx context.Context, site *ent.Site) (*ent.SitePublishingAuth, error) {
	return s.Change(ctx, site, func(upd *ent.SitePublishingAuthUpdateOne, fresh []byte) error {
		upd.SetSealedKey(fresh)
		return nil
	})
}

// Change makes the site's settings when it has none, then applies change (when not nil) with a
// freshly sealed key at hand, in one transaction. The key is sealed before the transaction
// starts: the first use of the server key writes it, which must not wait behind the
// transaction's own write lock (SQLite). Two requests making the settings at once both get the
// ones made first.
func (s Service) Change(ctx context.Context, site *ent.Site, change func(*ent.SitePublishingAuthUpdateOne, []byte) error) (*ent.SitePublishingAuth, error) {
	fresh, err := s.newSigningKey(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	var a *ent.SitePublishingAuth
	err = txn.Run(ctx, s.Client, func(tx *ent.Tx) error {
		err := tx.SitePublishingAuth.Create().SetOrganizationID(site.OrganizationID).SetSiteID(site.ID).SetSealedKey(fresh).
			OnConflictColumns(sitepublishingauth.FieldSiteID).DoNothing().Exec(ctx)
		if err != nil && !errors.Is(err, sql.ErrNoRows) { // PostgreSQL's ON CONFLICT DO NOTHING returns no row
			return err
		}
		if a, err = tx.SitePublishingAuth.Query().Where(sitepublishingauth.SiteID(site.ID)).Only(ctx); err != nil || change == nil {
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

// Verify checks a visitor-auth site's reader token: a JWT signed with HS256 by the site's
// signing key (the key its admins read from …/publishing/auth), unexpired, with an expiry. It
// returns the token's claims. Returns UNAUTHENTICATED naming what is wrong.
func (s Service) Verify(ctx context.Context, site *ent.Site, token string) (jwt.MapClaims, error) {
	if token == "" {
		return nil, apperr.Unauthenticatedf("this site is for authenticated visitors: open it with ?jwt_token=<visitor token>")
	}
	if len(token) > maxToken {
		return nil, apperr.Unauthenticatedf("the visitor token is over %d bytes", maxToken)
	}
	// Holding a valid token is the permission: the settings are read with the system's rights.
	a, err := s.Client.SitePublishingAuth.Query().Where(sitepublishingauth.SiteID(site.ID)).
		Only(privacy.DecisionContext(ctx, privacy.Allow))
	if ent.IsNotFound(err) {
		return nil, apperr.Unauthenticatedf("this site has no visitor authentication key yet")
	}
	if err != nil {
		return nil, err
	}
	key, err := s.Key(ctx, a)
	if err != nil {
		return nil, err
	}
	claims := jwt.MapClaims{}
	_, err = jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return []byte(key), nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithExpirationRequired(), jwt.WithTimeFunc(func() time.Time { return s.Now(ctx) }))
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, apperr.Unauthenticatedf("the visitor token has expired")
	case err != nil:
		return nil, apperr.Unauthenticatedf("the visitor token is not valid for this site")
	}
	return claims, nil
}
