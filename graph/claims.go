package graph

import (
	"context"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/signedurl"
)

// visitorClaimsTTL is how long signed visitor claims stay valid.
const visitorClaimsTTL = time.Hour

// visitorClaims signs (HS256) what a site may learn of a member: who they are and their role.
func (r *Resolver) visitorClaims(ctx context.Context, v *viewer.Viewer, m *ent.Member, now time.Time) (string, error) {
	key, err := r.serverKey(ctx, "visitor-claims")
	if err != nil {
		return "", err
	}
	role := "guest"
	if m.Role != nil {
		role = string(*m.Role)
	}
	claims := jwt.MapClaims{
		"iss": r.BaseURL, "sub": v.UserID, "email": v.Email,
		"organization": m.OrganizationID, "role": role,
		"iat": now.Unix(), "exp": now.Add(visitorClaimsTTL).Unix(),
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(key)
}

// serverKey returns the secret kept for a purpose (serverkey.Keys).
func (r *Resolver) serverKey(ctx context.Context, purpose string) ([]byte, error) {
	return r.keys.Get(ctx, r.Client, purpose)
}

// signer makes and checks this server's signed URLs.
func (r *Resolver) signer() signedurl.Signer {
	return signedurl.Signer{BaseURL: r.BaseURL, Now: r.now, Key: r.serverKey}
}
