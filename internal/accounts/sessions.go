package accounts

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/session"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/id"
)

// sessionPrefix marks session secrets, as tokenPrefix marks tokens; the two never mix.
const sessionPrefix = "bds_"

// SessionLifetime is how long a browser session lasts after its sign-in; it does not slide.
const SessionLifetime = 12 * time.Hour

// ErrInvalidSession is returned when a session cookie is unknown, expired, ended or malformed.
var ErrInvalidSession = errors.New("invalid session")

// NewSession describes a browser session begun by a SAML provider's sign-in.
type NewSession struct {
	UserID, OrganizationID, ProviderID string
	ExpiresAt                          time.Time
}

// CreateSession stores a session (only its secret's hash) through sessions, a client of the
// caller's transaction used as the system viewer, and returns the secret for the cookie.
func CreateSession(ctx context.Context, sessions *ent.SessionClient, s NewSession) (string, error) {
	secret := sessionPrefix + id.Random(40)
	err := sessions.Create().SetSecretHash(hashToken(secret)).SetUserID(s.UserID).
		SetOrganizationID(s.OrganizationID).SetProviderID(s.ProviderID).SetExpiresAt(s.ExpiresAt).Exec(System(ctx))
	if err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	return secret, nil
}

// EndSession deletes the session of a secret, and any expired session with it. Ending an unknown
// session is not an error: the cookie is gone either way.
func EndSession(ctx context.Context, c *ent.Client, secret string, now time.Time) error {
	_, err := c.Session.Delete().Where(session.Or(session.SecretHash(hashToken(secret)), session.ExpiresAtLT(now))).Exec(System(ctx))
	return err
}

// AuthenticateSession returns the viewer a session secret stands for, at now: one statement
// reads the session with its user (the memberships come from the cache as for tokens).
// Returns ErrInvalidSession when the secret is not a live session of this server.
func (a *Authenticator) AuthenticateSession(ctx context.Context, secret string, now time.Time) (*viewer.Viewer, error) {
	if !strings.HasPrefix(secret, sessionPrefix) || len(secret) > 200 {
		return nil, ErrInvalidSession
	}
	sys := System(ctx)
	hash := hashToken(secret)
	var rows []sessionRow
	err := a.client.Session.Query().Where(session.SecretHash(hash)).Modify(func(s *sql.Selector) {
		u := sql.Table(user.Table)
		s.Join(u).On(s.C(session.FieldUserID), u.C(user.FieldID))
		s.Select(s.C(session.FieldSecretHash), s.C(session.FieldUserID), s.C(session.FieldOrganizationID),
			s.C(session.FieldExpiresAt), u.C(user.FieldEmail), u.C(user.FieldAccessVersion))
	}).Scan(sys, &rows)
	if err != nil {
		return nil, err
	}
	if len(rows) != 1 || subtle.ConstantTimeCompare(rows[0].SecretHash, hash) != 1 || !now.Before(rows[0].ExpiresAt) {
		return nil, ErrInvalidSession
	}
	r := rows[0]
	m, err := a.memberships(sys, r.UserID, r.AccessVersion)
	if err != nil {
		return nil, err
	}
	return viewer.NewSessionUser(r.UserID, r.Email, r.OrganizationID, m.roles, m.sso), nil
}

// sessionRow is a session with what authentication reads of its user.
type sessionRow struct {
	SecretHash     []byte    `json:"secret_hash"`
	UserID         string    `json:"user_id"`
	OrganizationID string    `json:"organization_id"`
	ExpiresAt      time.Time `json:"expires_at"`
	Email          string    `json:"email"`
	AccessVersion  int64     `json:"access_version"`
}
