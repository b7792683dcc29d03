package graph

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/serverkey"
	"github.com/binderyhq/bindery/ent/viewer"
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

// serverKey returns the secret kept for a purpose, creating it on first use. Keys live in the
// database so every server process on one database signs with the same key.
func (r *Resolver) serverKey(ctx context.Context, purpose string) ([]byte, error) {
	if k, ok := r.keys.Load(purpose); ok {
		return k.([]byte), nil
	}
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	err := r.Client.ServerKey.Create().SetPurpose(purpose).SetSecret(secret).
		OnConflictColumns(serverkey.FieldPurpose).DoNothing().Exec(sys)
	if err != nil && !isNoRows(err) {
		return nil, err
	}
	k, err := r.Client.ServerKey.Query().Where(serverkey.Purpose(purpose)).Only(sys)
	if err != nil {
		return nil, err
	}
	r.keys.Store(purpose, k.Secret)
	return k.Secret, nil
}
