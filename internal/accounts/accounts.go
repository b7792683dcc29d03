// Package accounts issues and checks API tokens and creates users: the work of `bindery
// bootstrap`, `bindery user create`, `bindery token …`, the first start of a server, and the
// authentication of every request. It signs people in through organizations' SAML providers
// (SSO) and administers those providers (SAMLProviders): their rows, sessions and checks are
// kept here, beside the sign-in that reads them, so that internal/sso stays the stateless
// protocol. It acts as the explicit system viewer where it must.
package accounts

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	stdsql "database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/apitoken"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/readcache"
	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/txn"
)

// tokenPrefix marks Bindery tokens, so leaked ones are easy to recognise in logs and scanners.
const tokenPrefix = "bdy_"

// ErrInvalidToken is returned when a bearer token is unknown, revoked or malformed.
var ErrInvalidToken = errors.New("invalid token")

// System returns ctx acting as the system viewer, for the CLI and background jobs.
func System(ctx context.Context) context.Context {
	return privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
}

// HashSecret is how a random, high-entropy secret (an API token, a session, a share link key) is
// stored: its SHA-256, looked up by index and compared in constant time. A fast hash is right for
// such secrets (decision 19); passwords would need a slow one.
func HashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// CreateToken issues a new token for a user and returns it; only its hash is stored.
func CreateToken(ctx context.Context, c *ent.Client, userID, label string) (string, error) {
	_, token, err := createToken(System(ctx), c.APIToken, userID, label)
	return token, err
}

// TokenLabelMax bounds the label of a token a user issues through the API (the reference
// client's APITokenLabel).
const TokenLabelMax = 50

// IssueToken issues a new token for a user who asks for one through the API, labelled label
// (trimmed, at most TokenLabelMax characters), and returns its row (without the token) and the
// token, which is not stored: only its hash is. Returns INVALID naming the label.
func IssueToken(ctx context.Context, c *ent.Client, userID, label string) (*ent.APIToken, string, error) {
	label, err := check.Trimmed("label", label, 0, TokenLabelMax)
	if err != nil {
		return nil, "", err
	}
	var t *ent.APIToken
	var token string
	err = txn.Run(ctx, c, func(tx *ent.Tx) error {
		if t, token, err = createToken(System(ctx), tx.APIToken, userID, label); err != nil {
			return err
		}
		return recordToken(ctx, tx, audit.APITokenCreated, t)
	})
	return t, token, err
}

// recordToken records a user's token created or revoked in the audit log of each organization the
// user is a member of (a token acts in all of them), in the transaction tx that makes the change.
func recordToken(ctx context.Context, tx *ent.Tx, action string, t *ent.APIToken) error {
	orgs, err := tx.Member.Query().Where(member.UserID(t.UserID)).Select(member.FieldOrganizationID).Strings(System(ctx))
	if err != nil {
		return err
	}
	for _, orgID := range orgs {
		err := audit.Record(ctx, tx.Client(), audit.Entry{Organization: orgID, Action: action, TargetType: "api-token",
			TargetID: t.ID, TargetLabel: t.Label, Payload: map[string]any{"user": t.UserID}})
		if err != nil {
			return err
		}
	}
	return nil
}

func createToken(sys context.Context, tokens *ent.APITokenClient, userID, label string) (*ent.APIToken, string, error) {
	token := tokenPrefix + id.Random(40)
	t, err := tokens.Create().SetUserID(userID).SetLabel(label).SetTokenHash(HashSecret(token)).Save(sys)
	if err != nil {
		return nil, "", fmt.Errorf("create token: %w", err)
	}
	return t, token, nil
}

// RevokeToken deletes a token. Returns ErrInvalidToken when it is unknown.
func RevokeToken(ctx context.Context, c *ent.Client, token string) error {
	n, err := c.APIToken.Delete().Where(apitoken.TokenHash(HashSecret(token))).Exec(System(ctx))
	if err == nil && n == 0 {
		return ErrInvalidToken
	}
	return err
}

// RevokeUserToken deletes a user's token by its id. Returns NOT_FOUND when the user has no
// token with the id.
func RevokeUserToken(ctx context.Context, c *ent.Client, userID, tokenID string) error {
	return txn.Run(ctx, c, func(tx *ent.Tx) error {
		t, err := tx.APIToken.Query().Where(apitoken.ID(tokenID), apitoken.UserID(userID)).Only(System(ctx))
		if ent.IsNotFound(err) {
			return apperr.NotFoundf("you have no API token with the id %q", check.Truncate(tokenID, 80))
		}
		if err != nil {
			return err
		}
		if err := tx.APIToken.DeleteOne(t).Exec(System(ctx)); err != nil {
			return err
		}
		return recordToken(ctx, tx, audit.APITokenRevoked, t)
	})
}

// RevokeUserTokens deletes every token of a user and returns how many there were.
func RevokeUserTokens(ctx context.Context, c *ent.Client, userID string) (int, error) {
	return c.APIToken.Delete().Where(apitoken.UserID(userID)).Exec(System(ctx))
}

// Authenticate returns the viewer a bearer token stands for, with their memberships.
// Returns ErrInvalidToken when the token is not one this server issued and still holds.
func Authenticate(ctx context.Context, c *ent.Client, token string) (*viewer.Viewer, error) {
	return NewAuthenticator(c).Authenticate(ctx, token)
}

// Authenticator turns tokens into viewers for a server. It keeps each user's memberships under
// their access version (users.access_version, moved by every write of their memberships:
// rule.AccessVersions), and reads the token, its user and that version on every request: one
// statement, whatever the number of organizations, and a membership changed through any process
// is read again at the user's next request.
type Authenticator struct {
	client *ent.Client
	mu     sync.Mutex
	cached map[string]memberships // by user id
	// Tokens and sessions read by requests that track a read cache, by hash, kept while the
	// database is unchanged (internal/readcache): a repeated request reads no row.
	tokens   *readcache.Table[string, tokenRow]
	sessions *readcache.Table[string, sessionRow]
}

// memberships are a user's organization roles (nil for a guest) at one access version, and the
// organizations among them that enforce single sign-on (their sso flag moves the versions of their
// members too: rule.SSOVersions).
type memberships struct {
	version int64
	roles   map[string]*viewer.Role
	sso     map[string]bool
}

// maxCachedUsers bounds the cache: past it, it starts again empty.
const maxCachedUsers = 10000

// NewAuthenticator returns an authenticator over the client.
func NewAuthenticator(c *ent.Client) *Authenticator {
	return &Authenticator{client: c, cached: map[string]memberships{},
		tokens: readcache.NewTable[string, tokenRow](maxCachedUsers), sessions: readcache.NewTable[string, sessionRow](maxCachedUsers)}
}

// Authenticate returns the viewer a bearer token stands for, with their memberships.
// Returns ErrInvalidToken when the token is not one this server issued and still holds.
func (a *Authenticator) Authenticate(ctx context.Context, token string) (*viewer.Viewer, error) {
	if !strings.HasPrefix(token, tokenPrefix) || len(token) > 200 {
		return nil, ErrInvalidToken
	}
	sys := System(ctx)
	hash := HashSecret(token)
	rows, err := a.lookUpToken(sys, hash)
	if err != nil {
		return nil, err
	}
	// The lookup is by hash; compare in constant time anyway, so no path times on token bytes.
	if len(rows) != 1 || subtle.ConstantTimeCompare(rows[0].TokenHash, hash) != 1 {
		return nil, ErrInvalidToken
	}
	m, err := a.memberships(sys, rows[0].UserID, rows[0].AccessVersion)
	if err != nil {
		return nil, err
	}
	return viewer.NewUser(rows[0].UserID, rows[0].Email, m.roles), nil
}

// tokenRow is a token with what authentication reads of its user.
type tokenRow struct {
	TokenHash     []byte
	UserID        string
	Email         string
	AccessVersion int64
}

// tokenLookup reads a token by hash with what authentication needs of its user. Every request
// with a token runs it, so it is written once rather than built by ent's query builder per
// request (a quarter of a point read's CPU went to building and scanning it, decision 270).
// The user is read by the id a subquery finds, not joined: SQLite ran the join in 12–16 µs and
// this in 7 (decision 335). "$1" is a placeholder on both databases: SQLite numbers $N
// parameters as PostgreSQL does.
var tokenLookup = "SELECT (" + tokenColumn(apitoken.FieldTokenHash) + "), u." + user.FieldID +
	", u." + user.FieldEmail + ", u." + user.FieldAccessVersion +
	" FROM " + user.Table + " AS u WHERE u." + user.FieldID + " = (" + tokenColumn(apitoken.FieldUserID) + ")"

// tokenColumn selects a column of the token whose hash is $1.
func tokenColumn(column string) string {
	return "SELECT " + column + " FROM " + apitoken.Table + " WHERE " + apitoken.FieldTokenHash + " = $1"
}

// lookUpToken returns the rows of tokenLookup for hash (none or one: token hashes are unique):
// the row kept at the database's version, or those read.
func (a *Authenticator) lookUpToken(ctx context.Context, hash []byte) ([]tokenRow, error) {
	return lookUp(ctx, a.tokens, hash, func() ([]tokenRow, error) {
		return queryRows(sqlplan.ByKey(ctx), a.client, tokenLookup, hash, func(rows *stdsql.Rows, r *tokenRow) error {
			return rows.Scan(&r.TokenHash, &r.UserID, &r.Email, &r.AccessVersion)
		})
	})
}

// lookUp returns the row kept in t for a secret's hash at the database's version, or those read
// (none or one), keeping the one found.
func lookUp[T any](ctx context.Context, t *readcache.Table[string, T], hash []byte, read func() ([]T, error)) ([]T, error) {
	if row, ok := t.Get(ctx, string(hash)); ok {
		return []T{row}, nil
	}
	rows, err := read()
	if err == nil && len(rows) == 1 {
		t.Put(ctx, string(hash), rows[0])
	}
	return rows, err
}

// queryRows runs a statement of one argument and scans each row it answers into a T.
func queryRows[T any](ctx context.Context, c *ent.Client, query string, arg any, scan func(*stdsql.Rows, *T) error) ([]T, error) {
	rows, err := c.QueryContext(ctx, query, arg)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []T
	for rows.Next() {
		var r T
		if err := scan(rows, &r); err != nil {
			return nil, err
		}
		found = append(found, r)
	}
	return found, rows.Err()
}

// memberships returns the user's memberships at version: from the cache, or read and
// kept. The version was read before the memberships, so a change in between leaves an older
// version with newer roles in the cache, which the next request reads again.
func (a *Authenticator) memberships(ctx context.Context, userID string, version int64) (memberships, error) {
	a.mu.Lock()
	m, ok := a.cached[userID]
	a.mu.Unlock()
	if !ok || m.version != version {
		var rows []membershipRow
		err := a.client.Member.Query().Where(member.UserID(userID), member.Disabled(false)).Modify(func(s *sql.Selector) {
			o := sql.Table(organization.Table)
			s.Join(o).On(s.C(member.FieldOrganizationID), o.C(organization.FieldID))
			s.Select(s.C(member.FieldOrganizationID), s.C(member.FieldRole), o.C(organization.FieldSSO))
		}).Scan(ctx, &rows)
		if err != nil {
			return memberships{}, err
		}
		m = memberships{version: version, roles: make(map[string]*viewer.Role, len(rows)), sso: map[string]bool{}}
		for _, r := range rows {
			var role *viewer.Role
			if r.Role.Valid {
				role = new(viewer.Role(r.Role.String))
			}
			m.roles[r.OrganizationID] = role
			if r.SSO {
				m.sso[r.OrganizationID] = true
			}
		}
		a.mu.Lock()
		if len(a.cached) >= maxCachedUsers {
			a.cached = map[string]memberships{}
		}
		a.cached[userID] = m
		a.mu.Unlock()
	}
	return m, nil // shared: viewers copy their memberships before changing them
}

// membershipRow is what authentication reads of a membership.
type membershipRow struct {
	OrganizationID string         `json:"organization_id"`
	Role           sql.NullString `json:"role"`
	SSO            bool           `json:"sso"`
}

// NewUser describes a user to create.
type NewUser struct {
	Email, Name string
	OrgID       string       // optional: organization to join
	Role        *viewer.Role // role there; nil for a guest
}

// CreateUser creates a user (and, with OrgID, their membership) and a first token for them, in
// one transaction.
func CreateUser(ctx context.Context, c *ent.Client, nu NewUser) (u *ent.User, token string, err error) {
	sys := System(ctx)
	err = txn.Run(sys, c, func(tx *ent.Tx) error {
		u, token, err = createUser(sys, tx, nu)
		return err
	})
	return u, token, err
}

func createUser(sys context.Context, tx *ent.Tx, nu NewUser) (*ent.User, string, error) {
	email := strings.ToLower(strings.TrimSpace(nu.Email))
	if !strings.Contains(email, "@") {
		return nil, "", fmt.Errorf("--email: %q is not an email address", nu.Email)
	}
	if strings.TrimSpace(nu.Name) == "" {
		return nil, "", errors.New("--name: must not be empty")
	}
	u, err := tx.User.Create().SetEmail(email).SetDisplayName(strings.TrimSpace(nu.Name)).Save(sys)
	if ent.IsConstraintError(err) {
		return nil, "", fmt.Errorf("--email: a user with the email %s exists already", email)
	}
	if err != nil {
		return nil, "", err
	}
	if nu.OrgID != "" {
		if exists, err := tx.Organization.Query().Where(organization.ID(nu.OrgID)).Exist(sys); err != nil || !exists {
			return nil, "", errors.Join(err, fmt.Errorf("--org: no organization has the id %q", nu.OrgID))
		}
		if err := tx.Member.Create().SetOrganizationID(nu.OrgID).SetUserID(u.ID).SetNillableRole(nu.Role).Exec(sys); err != nil {
			return nil, "", err
		}
	}
	_, token, err := createToken(sys, tx.APIToken, u.ID, "cli")
	return u, token, err
}

// Bootstrap creates, in one transaction, a user, an organization they administer, and a token.
func Bootstrap(ctx context.Context, c *ent.Client, email, name, orgTitle string) (u *ent.User, org *ent.Organization, token string, err error) {
	title := strings.TrimSpace(orgTitle)
	if n := len([]rune(title)); n < 2 || n > 255 {
		return nil, nil, "", fmt.Errorf("--org: the title must be 2..255 characters (got %d)", n)
	}
	sys := System(ctx)
	admin := viewer.RoleAdmin
	err = txn.Run(sys, c, func(tx *ent.Tx) error {
		if org, err = tx.Organization.Create().SetTitle(title).Save(sys); err != nil {
			return err
		}
		u, token, err = createUser(sys, tx, NewUser{Email: email, Name: name, OrgID: org.ID, Role: &admin})
		return err
	})
	return u, org, token, err
}

// UserByEmail finds a user by email. Returns an error naming the email when there is none.
func UserByEmail(ctx context.Context, c *ent.Client, email string) (*ent.User, error) {
	u, err := c.User.Query().Where(user.Email(strings.ToLower(strings.TrimSpace(email)))).Only(System(ctx))
	if ent.IsNotFound(err) {
		return nil, fmt.Errorf("--email: no user has the email %s", email)
	}
	return u, err
}

// IsEmpty reports whether the database holds no user yet (a first start).
func IsEmpty(ctx context.Context, c *ent.Client) (bool, error) {
	exists, err := c.User.Query().Exist(System(ctx))
	return !exists, err
}
