// Package viewer says who is asking: an authenticated user with their organization memberships,
// an anonymous visitor of a published site, or the system itself (the CLI and background jobs).
// The privacy rules in ent/rule read it.
package viewer

import (
	"context"
	"maps"
	"slices"
	"sync"
)

// Viewer is the caller of one request. It is safe for concurrent use: GraphQL resolvers of one
// request run in parallel and may record a membership the request itself created.
type Viewer struct {
	UserID  string
	Email   string
	system  bool
	visitor bool

	mu          sync.RWMutex
	memberships map[string]*Role // organization id → role; a nil role is a guest
	ownsThem    bool             // memberships is v's own, not the map it was given (change copies it)
	cache       map[string]any   // facts loaded once per request (Remember)
	shareKeys   []string         // share-link keys presented in this request (PresentShareKey)
	admitted    []string         // spaces a published site admitted a visitor to (Admit)

	session    bool            // authenticated by a browser session cookie, not a bearer token
	sessionOrg string          // the organization whose single sign-on provider began the session
	ssoBlocked map[string]bool // organizations withheld from the session → whether they enforce SSO
}

// NewUser returns the viewer for an authenticated user with their memberships
// (organization id → role, nil for a guest). The viewer never changes the map it is given (it
// copies it before recording a change), so one map may serve the viewers of many requests.
func NewUser(userID, email string, memberships map[string]*Role) *Viewer {
	return &Viewer{UserID: userID, Email: email, memberships: memberships}
}

// ownMemberships makes v's memberships its own to change: a copy of those it was given, at the
// first change. v.mu is held for writing.
func (v *Viewer) ownMemberships() {
	if !v.ownsThem {
		own := make(map[string]*Role, len(v.memberships)+1)
		maps.Copy(own, v.memberships)
		v.memberships, v.ownsThem = own, true
	}
}

// NewSessionUser returns the viewer of a browser session that a single sign-on provider of
// sessionOrg began. It is a member of sessionOrg only: its memberships of other organizations are
// withheld (SSORequired tells why), since sessionOrg's provider vouches for the person to
// sessionOrg alone — an organization's admin configures its provider, and must not be able to
// sign in as someone for another organization (API tokens keep working everywhere).
// ssoEnforced names the organizations that enforce single sign-on.
func NewSessionUser(userID, email, sessionOrg string, memberships map[string]*Role, ssoEnforced map[string]bool) *Viewer {
	v := NewUser(userID, email, memberships)
	v.session, v.sessionOrg = true, sessionOrg
	for orgID := range v.memberships {
		if orgID != sessionOrg {
			if v.ssoBlocked == nil {
				v.ssoBlocked = map[string]bool{}
			}
			v.ssoBlocked[orgID] = ssoEnforced[orgID]
			v.ownMemberships()
			delete(v.memberships, orgID)
		}
	}
	return v
}

// IsSession reports whether v was authenticated by a browser session cookie.
func (v *Viewer) IsSession() bool { return v != nil && v.session }

// SSORequired reports whether v is a member of the organization whose membership was withheld
// from this browser session, begun through another organization's single sign-on.
func (v *Viewer) SSORequired(orgID string) bool {
	_, withheld := v.withheld(orgID)
	return withheld
}

// SSOEnforced reports whether the organization whose membership was withheld from this session
// (SSORequired) enforces single sign-on through its own providers.
func (v *Viewer) SSOEnforced(orgID string) bool {
	enforced, _ := v.withheld(orgID)
	return enforced
}

func (v *Viewer) withheld(orgID string) (enforced, withheld bool) {
	if v == nil {
		return false, false
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	enforced, withheld = v.ssoBlocked[orgID]
	return enforced, withheld
}

// SSORequiredOrganizations lists the organizations whose memberships were withheld (SSORequired).
func (v *Viewer) SSORequiredOrganizations() []string {
	if v == nil {
		return nil
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	ids := make([]string, 0, len(v.ssoBlocked))
	for id := range v.ssoBlocked {
		ids = append(ids, id)
	}
	return ids
}

// System is the explicit viewer of the CLI and background jobs: the privacy rules allow it everything.
func System() *Viewer { return &Viewer{system: true} }

// Visitor is the viewer of a reader of a published site: no user, no membership. It reads only
// what the site it visits admits it to (Admit), and what is open to anyone.
func Visitor() *Viewer { return &Viewer{visitor: true} }

// IsVisitor reports whether v is a published site's visitor.
func (v *Viewer) IsVisitor() bool { return v != nil && v.visitor }

// Admit records spaces a published site admits its visitor to read, for the rest of the request.
// Only the published-site resolvers call it, after checking the site's audience (its
// visibility, share link or visitor token); other viewers are never admitted.
func (v *Viewer) Admit(spaceIDs ...string) {
	if !v.IsVisitor() {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, id := range spaceIDs {
		if !slices.Contains(v.admitted, id) {
			v.admitted = append(v.admitted, id)
		}
	}
}

// Admitted lists the spaces a published site admitted this visitor to (nil when none).
func (v *Viewer) Admitted() []string {
	if v == nil {
		return nil
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	return append([]string(nil), v.admitted...)
}

// IsSystem reports whether v is the system viewer.
func (v *Viewer) IsSystem() bool { return v != nil && v.system }

// Membership reports whether v belongs to the organization, and with which role (empty for a guest).
func (v *Viewer) Membership(orgID string) (role Role, member bool) {
	if v == nil {
		return "", false
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	r, ok := v.memberships[orgID]
	if !ok || r == nil {
		return "", ok
	}
	return *r, true
}

// OrganizationIDs lists the organizations v belongs to whose role is at least min;
// with min empty, every organization v belongs to, guests included.
func (v *Viewer) OrganizationIDs(min Role) []string {
	if v == nil {
		return nil
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	ids := make([]string, 0, len(v.memberships))
	for id, r := range v.memberships {
		if min == "" || (r != nil && r.AtLeast(min)) {
			ids = append(ids, id)
		}
	}
	return ids
}

// SetMembership records a membership the current request created or changed, so later reads
// in the same request see it. A nil role is a guest.
func (v *Viewer) SetMembership(orgID string, role *Role) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.ownMemberships()
	v.memberships[orgID] = role
}

// DropMembership forgets a membership the current request removed.
func (v *Viewer) DropMembership(orgID string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.ownMemberships()
	delete(v.memberships, orgID)
}

// PresentShareKey records a share-link key the caller presented: for the rest of the request, the
// space with share-link visibility and that key is readable to them. An empty key is ignored.
func (v *Viewer) PresentShareKey(key string) {
	if v == nil || key == "" {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if !slices.Contains(v.shareKeys, key) {
		v.shareKeys = append(v.shareKeys, key)
	}
}

// ShareKeys lists the share-link keys presented in this request (nil when none).
func (v *Viewer) ShareKeys() []string {
	if v == nil {
		return nil
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	return append([]string(nil), v.shareKeys...)
}

type ctxKey struct{}

// NewContext returns ctx carrying v.
func NewContext(ctx context.Context, v *Viewer) context.Context {
	return context.WithValue(ctx, ctxKey{}, v)
}

// FromContext returns the viewer of ctx, or nil when there is none.
func FromContext(ctx context.Context) *Viewer {
	v, _ := ctx.Value(ctxKey{}).(*Viewer)
	return v
}

// Remember returns the value cached under key, loading it first when there is none; callers that
// load at the same time all get the first value stored. A viewer
// lives one request long, so this caches facts about the viewer for one request.
func (v *Viewer) Remember(key string, load func() (any, error)) (any, error) {
	v.mu.RLock()
	val, ok := v.cache[key]
	v.mu.RUnlock()
	if ok {
		return val, nil
	}
	val, err := load()
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if kept, ok := v.cache[key]; ok { // a sibling resolver remembered it meanwhile: one value for all
		return kept, nil
	}
	if v.cache == nil {
		v.cache = map[string]any{}
	}
	v.cache[key] = val
	return val, nil
}

// Forget drops what Remember cached under key (a write changed it). A nil viewer is allowed.
func (v *Viewer) Forget(key string) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.cache, key)
}
