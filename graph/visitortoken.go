package graph

import (
	"context"
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/sitepublishingauth"
	"github.com/binderyhq/bindery/internal/apperr"
)

// maxVisitorToken bounds a visitor token's length before it is parsed.
const maxVisitorToken = 8 << 10

// verifyVisitorToken checks a visitor-auth site's reader token: a JWT signed with HS256 by the
// site's publishing-auth key (the key its admins read from …/publishing/auth), unexpired, with an
// expiry. It returns the token's claims. Returns UNAUTHENTICATED naming what is wrong.
func (r *Resolver) verifyVisitorToken(ctx context.Context, s *ent.Site, token string) (jwt.MapClaims, error) {
	if token == "" {
		return nil, apperr.Unauthenticatedf("this site is for authenticated visitors: open it with ?jwt_token=<visitor token>")
	}
	if len(token) > maxVisitorToken {
		return nil, apperr.Unauthenticatedf("the visitor token is over %d bytes", maxVisitorToken)
	}
	// Holding a valid token is the permission: the settings are read with the system's rights.
	a, err := r.Client.SitePublishingAuth.Query().Where(sitepublishingauth.SiteID(s.ID)).
		Only(privacy.DecisionContext(ctx, privacy.Allow))
	if ent.IsNotFound(err) {
		return nil, apperr.Unauthenticatedf("this site has no visitor authentication key yet")
	}
	if err != nil {
		return nil, err
	}
	key, err := r.publishingAuthKey(ctx, a)
	if err != nil {
		return nil, err
	}
	claims := jwt.MapClaims{}
	_, err = jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return []byte(key), nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithExpirationRequired(), jwt.WithTimeFunc(func() time.Time { return r.now(ctx) }))
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, apperr.Unauthenticatedf("the visitor token has expired")
	case err != nil:
		return nil, apperr.Unauthenticatedf("the visitor token is not valid for this site")
	}
	return claims, nil
}
