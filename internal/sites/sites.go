// Package sites holds the rules of an organization's sites: creating, changing, publishing and
// deleting them; the site spaces that show its spaces in levels (the root level, or a section)
// with their orders, paths, defaults and the site's counter; the sections and section groups of
// its structure; share links and the keys that open a site; customization (the site's, a site
// space's override) and the answers readers get of it; the visitor schema and the conditions
// checked against it. Members with a role read a site; creators and admins of its organization
// change it, one write at a time per site (its row is locked). The privacy rules of ent/rule
// decide who reads and writes each row. It knows nothing of the surfaces: graph and rest
// translate, and graph keeps the reads it batches.
package sites

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/redirects"
	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of sites and site spaces (spec/03 Limits).
const (
	TitleMin, TitleMax = 2, 128
	PathMax            = 100
	spacesMax          = 1000 // spaces named in one create
	pageIDMax          = 100  // a site space's home page id (ids are far shorter)
)

// Service is the sites of one server, as the viewer of a context reads and writes them.
type Service struct {
	Client *ent.Client
	// Now is the current time, as stored.
	Now func(context.Context) time.Time
	// Organization reads an organization the viewer belongs to. Returns NOT_FOUND otherwise,
	// FORBIDDEN to a session its single sign-on refuses.
	Organization func(ctx context.Context, id string) (*ent.Organization, error)
	// Space reads a live space the viewer reads. Returns NOT_FOUND otherwise.
	Space func(ctx context.Context, id string) (*ent.Space, error)
	// SpaceTree is the tree of a space's current content, as the viewer reads it. Returns
	// NOT_FOUND when there is none.
	SpaceTree func(ctx context.Context, spaceID string) (*tree.Tree, error)
	// NewSpace makes, in tx, an empty space at the top level of the organization, titled title
	// (cut to a space title's bound), for a viewer who may create there. Returns FORBIDDEN
	// otherwise.
	NewSpace func(ctx context.Context, tx *ent.Tx, orgID, title string) (*ent.Space, error)
	// Structures keeps the rows of published sites their readers' visits read (Visit).
	Structures *Structures
	// Redirects keeps the URLs of renamed site spaces and sections.
	Redirects *redirects.Service
	// ActiveTrees returns the tree of each space's current content, by space id (none for a
	// space without content).
	ActiveTrees func(ctx context.Context, spaces []*ent.Space) (map[string]*tree.Tree, error)
	// VisitorClaims verifies a reader's visitor token for a visitor-auth site and returns its
	// claims. Returns UNAUTHENTICATED naming what is wrong.
	VisitorClaims func(ctx context.Context, s *ent.Site, token string) (map[string]any, error)
	// PublicHost is the host name (or address) clients reach this server at: a custom
	// hostname's DNS must lead there, and no site may take it.
	PublicHost string
	// DNS answers the lookups of custom hostnames' checks; TLS makes their TLS handshakes.
	DNS Resolver
	TLS TLSCheck
}

// Site returns a site of an organization the viewer sees. Returns NOT_FOUND if either does not
// exist or the viewer may not see it.
func (svc *Service) Site(ctx context.Context, orgID, siteID string) (*ent.Site, error) {
	if _, err := svc.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	s, err := svc.Client.Site.Query().Where(site.ID(siteID), site.OrganizationID(orgID)).Only(sqlplan.ByKey(ctx))
	return s, rule.NotFound(err, "site")
}

// ManageableSite returns a site the viewer may change (creators and admins of its
// organization); action says what, for the refusal. Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) ManageableSite(ctx context.Context, orgID, siteID, action string) (*ent.Site, error) {
	if _, err := svc.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	if err := rule.RequireOrgRole(ctx, orgID, viewer.RoleCreate, action); err != nil {
		return nil, err
	}
	return svc.Site(ctx, orgID, siteID)
}

// lockSite reads a site again in tx, locking its row on PostgreSQL (SQLite's one writer already
// serializes), so that the writes to one site's site spaces queue and each sees the others'.
func lockSite(ctx context.Context, tx *ent.Tx, siteID string) (*ent.Site, error) {
	s, err := tx.Site.Query().Where(site.ID(siteID)).Modify(txn.ForUpdate).Only(ctx)
	return s, rule.NotFound(err, "site")
}

// spacesFor returns the live spaces named by ids, in order: each a space of the organization
// the viewer can read. Returns NOT_FOUND naming the first that is not, INVALID for a repeat.
func (svc *Service) spacesFor(ctx context.Context, orgID, field string, ids []string) ([]*ent.Space, error) {
	if len(ids) > spacesMax {
		return nil, apperr.Invalidf("%s: at most %d spaces (got %d)", field, spacesMax, len(ids))
	}
	seen := make(map[string]bool, len(ids))
	spaces := make([]*ent.Space, len(ids))
	for i, id := range ids {
		if seen[id] {
			return nil, apperr.Invalidf("%s[%d]: space %q is named twice", field, i, check.Truncate(id, 80))
		}
		seen[id] = true
		s, err := svc.spaceFor(ctx, orgID, fmt.Sprintf("%s[%d]", field, i), id)
		if err != nil {
			return nil, err
		}
		spaces[i] = s
	}
	return spaces, nil
}

// spaceFor returns the live space id of the organization, if the viewer can read it.
// Returns NOT_FOUND naming the field otherwise.
func (svc *Service) spaceFor(ctx context.Context, orgID, field, id string) (*ent.Space, error) {
	s, err := svc.Space(ctx, id)
	if apperr.IsNotFound(err) || err == nil && s.OrganizationID != orgID {
		return nil, apperr.NotFoundf("%s: no space of this organization has the id %q", field, check.Truncate(id, 80))
	}
	return s, err
}

// freePath returns base, or base-2, base-3 … the first that is not taken, and takes it.
func freePath(base string, taken map[string]bool) string {
	if runes := []rune(base); len(runes) > PathMax-6 { // room for a "-N" suffix
		base = strings.TrimRight(string(runes[:PathMax-6]), "-")
	}
	path := base
	for n := 2; taken[path]; n++ {
		path = fmt.Sprintf("%s-%d", base, n)
	}
	taken[path] = true
	return path
}

// CheckSegment validates a segment of a site's URLs (a site space's path, a site's basename):
// 1 to max characters, lower-case letters and digits of any script, '-', '_' and '.', starting
// and ending with a letter or digit. Returns INVALID naming the field.
func CheckSegment(field, s string, max int) error {
	if err := check.Text(field, s, 1, max); err != nil {
		return err
	}
	runes := []rune(s)
	for i, r := range runes {
		alnum := unicode.IsDigit(r) || unicode.IsLetter(r) && !unicode.IsUpper(r) && !unicode.IsTitle(r)
		edge := i == 0 || i == len(runes)-1
		if !alnum && (edge || !strings.ContainsRune("-_.", r)) {
			return apperr.Invalidf("%s: must be lower-case letters, digits, '-', '_' or '.', starting and ending with a letter or digit (got %q)",
				field, check.Truncate(s, 80))
		}
	}
	return nil
}

// idOr is the id p points to, "" for none.
func idOr(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
