package accounts

import (
	"context"
	"crypto/subtle"
	stdsql "database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

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
	err := sessions.Create().SetSecretHash(HashSecret(secret)).SetUserID(s.UserID).
		SetOrganizationID(s.OrganizationID).SetProviderID(s.ProviderID).SetExpiresAt(s.ExpiresAt).Exec(System(ctx))
	if err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	return secret, nil
}

// EndSession deletes the session of a secret, and any expired session with it. Ending an unknown
// session is not an error: the cookie is gone either way.
func EndSession(ctx context.Context, c *ent.Client, secret string, now time.Time) error {
	_, err := c.Session.Delete().Where(session.Or(session.SecretHash(HashSecret(secret)), session.ExpiresAtLT(now))).Exec(System(ctx))
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
	hash := HashSecret(secret)
	rows, err := lookUp(sys, a.sessions, hash, func() ([]sessionRow, error) {
		return queryRows(sys, a.client, sessionLookup, hash, func(rows *stdsql.Rows, r *sessionRow) error {
			return rows.Scan(&r.SecretHash, &r.UserID, &r.OrganizationID, &r.ExpiresAt, &r.Email, &r.AccessVersion)
		})
	})
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
	SecretHash     []byte
	UserID         string
	OrganizationID string
	ExpiresAt      time.Time
	Email          string
	AccessVersion  int64
}

// sessionLookup reads a session by hash with what authentication needs of its user, written
// once as tokenLookup is.
var sessionLookup = "SELECT s." + session.FieldSecretHash + ", s." + session.FieldUserID +
	", s." + session.FieldOrganizationID + ", s." + session.FieldExpiresAt +
	", u." + user.FieldEmail + ", u." + user.FieldAccessVersion +
	" FROM " + session.Table + " AS s JOIN " + user.Table + " AS u ON u." + user.FieldID + " = s." + session.FieldUserID +
	" WHERE s." + session.FieldSecretHash + " = $1"
