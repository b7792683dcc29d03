package sites

import (
	"context"
	"errors"
	"maps"
	"strings"
	"sync"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/sitepublishingauth"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/adaptive"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/readcache"
	"github.com/binderyhq/bindery/internal/sitecustom"
)

// Published sites as their readers see them (the publish/ surface). A reader is a
// viewer.Visitor: Visit finds the site, checks that the reader is in its audience, keeps the
// sections and site spaces the reader's claims show, and admits the reader to their spaces, so
// every content read after it goes through the usual privacy rules.

// errNotVisitor is a programming error: published sites are read by visitors only.
var errNotVisitor = errors.New("VisitSite needs a visitor viewer")

// Audience is what a reader presents to a published site.
type Audience struct {
	ShareKey string         // a share link's key, for share-link sites
	Token    string         // a visitor token (a JWT signed with the site's key), for visitor-auth sites
	Claims   map[string]any // the reader's unsigned claims, under "unsigned", for adaptive content
}

// SiteRef names a published site: by its basename or id under /sites/, or by the custom
// hostname a request came to.
type SiteRef struct {
	Name     string
	Hostname string
}

// Visit is a published site as one reader may see it.
type Visit struct {
	Site *ent.Site
	// Sections are the sections the reader sees, in order; none for a site without sections.
	Sections []*ent.SiteSection
	// SiteSpaces are the site spaces the reader sees, in order (each with its space loaded):
	// those of the sections above, or the root level's for a site without sections.
	SiteSpaces []*ent.SiteSpace

	rows   *siteRows        // what the visit was made from
	schema *adaptive.Schema // the site's visitor schema, nil for none
	claims map[string]any   // the reader's claims, as conditions read them
	shown  map[string]bool  // condition → whether it shows its object to the reader, as decided
}

// Shows reports whether an object with this condition ("" for none), such as a page, is shown to
// the reader. A condition that does not compile against the site's schema (one written where the
// schema was not known, a page's) hides its object: failing closed. Each distinct condition is
// run once per visit; compiling is cached across visits (adaptive.Compile).
func (v *Visit) Shows(condition string) bool {
	if ok, decided := v.shown[condition]; decided {
		return ok
	}
	if v.shown == nil {
		v.shown = map[string]bool{}
	}
	v.shown[condition] = shows(&condition, v.schema, v.claims)
	return v.shown[condition]
}

// Value is the text an expression inline of a page shows the reader (adaptive.EvaluateText). An
// expression that does not compile against the site's schema, or fails to run, shows nothing:
// failing closed, as Shows does.
func (v *Visit) Value(expression string) string {
	text, err := adaptive.EvaluateText(expression, v.schema, v.claims)
	if err != nil {
		return ""
	}
	return text
}

// SiteSpacesOf returns the site spaces of a section ("" for the root level), in order.
func (v *Visit) SiteSpacesOf(sectionID string) []*ent.SiteSpace {
	var out []*ent.SiteSpace
	for _, ss := range v.SiteSpaces {
		if idOr(ss.SectionID) == sectionID {
			out = append(out, ss)
		}
	}
	return out
}

// Customization returns the settings a reader of a site space sees (the site's, with the site
// space's override over them, as SiteSpace.customization answers a visitor), less the header
// links whose condition the reader's claims do not satisfy. The settings before that are worked
// out once per site space and kept with the site's rows: the caller must not change what it
// returns.
func (v *Visit) Customization(ss *ent.SiteSpace) map[string]any {
	settings := v.rows.settingsOf(ss)
	header, _ := settings["header"].(map[string]any)
	if header == nil {
		return settings
	}
	links, _ := header["links"].([]any)
	shown := []any{}
	for _, l := range links {
		if v.showsLink(l) {
			shown = append(shown, l)
		}
	}
	header = maps.Clone(header)
	header["links"] = shown
	settings = maps.Clone(settings)
	settings["header"] = header
	return settings
}

// showsLink reports whether the reader's claims satisfy the condition of a header link of the
// settings.
func (v *Visit) showsLink(link any) bool {
	item, _ := link.(map[string]any)
	condition, _ := item["condition"].(string)
	return shows(&condition, v.schema, v.claims)
}

// Made returns what build makes of the settings a reader of a site space sees (Customization),
// built once per kept rows, site space and header links shown, so a view of an unchanged
// database builds nothing. Its use is a page's look (publish), which is all of the settings a
// view reads; the caller must not change what it returns.
func (v *Visit) Made(ss *ent.SiteSpace, build func(settings map[string]any) any) any {
	key := madeKey{siteSpace: ss.ID, shown: v.linksShown(ss)}
	if made, ok := v.rows.made.Load(key); ok {
		return made
	}
	made, _ := v.rows.made.LoadOrStore(key, build(v.Customization(ss)))
	return made
}

// madeKey names what Made made: of a site space's settings with some of its header links shown.
type madeKey struct {
	siteSpace string
	shown     string // a byte per header link of the settings: 1 shown, 0 not
}

// linksShown names the header links of a site space's settings the reader's claims show (madeKey).
func (v *Visit) linksShown(ss *ent.SiteSpace) string {
	header, _ := v.rows.settingsOf(ss)["header"].(map[string]any)
	links, _ := header["links"].([]any)
	shown := make([]byte, len(links))
	for i, l := range links {
		shown[i] = '0'
		if v.showsLink(l) {
			shown[i] = '1'
		}
	}
	return string(shown)
}

// settingsOf returns the settings readers of a site space see before conditions (the site's,
// with the site space's override over them), worked out at the first call.
func (rows *siteRows) settingsOf(ss *ent.SiteSpace) map[string]any {
	if settings, ok := rows.settings.Load(ss.ID); ok {
		return settings.(map[string]any)
	}
	settings, _ := rows.settings.LoadOrStore(ss.ID, sitecustom.Public(sitecustom.Effective(rows.site.Customization, ss.Customization)))
	return settings.(map[string]any)
}

// Visit returns the published site ref names for a reader with the given audience, and admits
// the reader to the spaces it shows, so that every content read after it goes through the usual
// privacy rules. Returns NOT_FOUND for an unknown
// or unpublished site, and for a reader outside its audience where telling would say the site
// exists; UNAUTHENTICATED when the site wants credentials the reader lacks.
func (svc *Service) Visit(ctx context.Context, ref SiteRef, a Audience) (*Visit, error) {
	v := viewer.FromContext(ctx)
	if !v.IsVisitor() {
		return nil, apperr.Internalw(errNotVisitor)
	}
	// Readers are no members: the site's rows are read past the tenant filter, and this function
	// decides, from the site's published flag and audience, what the reader may see.
	structure := privacy.DecisionContext(ctx, privacy.Allow)
	rows, err := svc.Structures.Read(structure, ref, func() (*siteRows, error) { return svc.siteRows(structure, ref) })
	if err != nil {
		return nil, err
	}
	claims, err := svc.admitsAudience(structure, rows.site, a)
	if err != nil {
		return nil, err
	}
	visit := rows.visibleTo(claims)
	for _, ss := range visit.SiteSpaces {
		v.Admit(ss.SpaceID)
	}
	return visit, nil
}

// Structures keeps, by the reference that named it, the rows of a published site its readers'
// visits read, under the database's version (readcache.Table): a reader's visit to an unchanged
// database reads none (decision 400).
type Structures = readcache.Table[SiteRef, *siteRows]

// NewStructures returns a table of the rows of at most size sites.
func NewStructures(size int) *Structures { return readcache.NewTable[SiteRef, *siteRows](size) }

// siteRows are the rows of a published site a visit reads, shared by the visits that take them
// from Structures and never changed: the site, its sections in the order of its structure, and
// its site spaces over live spaces in order, each with its space.
type siteRows struct {
	site       *ent.Site
	sections   []*ent.SiteSection
	siteSpaces []*ent.SiteSpace
	schema     *adaptive.Schema // the site's visitor schema, nil for none
	settings   sync.Map         // site space id → its settings before conditions (settingsOf)
	made       sync.Map         // madeKey → what Made made of a site space's settings
}

// siteRows reads the rows of the published site ref names. Returns NOT_FOUND for an unknown or
// unpublished site.
func (svc *Service) siteRows(ctx context.Context, ref SiteRef) (*siteRows, error) {
	s, err := svc.Client.Site.Query().Where(siteNamed(ref), site.Published(true)).Order(ent.Asc(site.FieldCreatedAt)).First(ctx)
	if err != nil {
		return nil, rule.NotFound(err, "site")
	}
	sections, err := SectionsInOrder(ctx, svc.Client, s.ID)
	if err != nil {
		return nil, err
	}
	siteSpaces, err := svc.Client.SiteSpace.Query().
		Where(sitespace.SiteID(s.ID), sitespace.HasSpaceWith(space.DeletedAtIsNil())).
		WithSpace().Order(ent.Asc(sitespace.FieldPosition), ent.Asc(sitespace.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	return &siteRows{site: s, sections: sections, siteSpaces: siteSpaces, schema: Schema(s)}, nil
}

// admitsAudience checks the reader against the site's visibility and returns the claims
// conditions read: a visitor token's (signed), with the unsigned ones under "unsigned".
// Returns NOT_FOUND for a share-link site without an active link's key (the site's existence is
// not told), UNAUTHENTICATED for a visitor-auth site without a valid token.
func (svc *Service) admitsAudience(ctx context.Context, s *ent.Site, a Audience) (map[string]any, error) {
	claims := map[string]any{"unsigned": a.Claims["unsigned"]}
	switch s.Visibility {
	case site.VisibilityPublic, site.VisibilityUnlisted:
	case site.VisibilityShareLink:
		if a.ShareKey == "" || len(a.ShareKey) > ShareKeyMax {
			return nil, apperr.NotFoundf("site not found")
		}
		if _, err := svc.ShareLink(ctx, s, a.ShareKey); err != nil {
			return nil, apperr.NotFoundf("site not found")
		}
	case site.VisibilityVisitorAuth:
		signed, err := svc.VisitorClaims(ctx, s, a.Token)
		if err != nil {
			return nil, err
		}
		for k, v := range signed {
			if k != "unsigned" {
				claims[k] = v
			}
		}
	}
	return claims, nil
}

// Admits returns nil when a reader presenting a is in the audience of the published site s (a
// public or unlisted site, a share-link site with an active link's key, a visitor-auth site with
// a valid token), else what a visit would answer (NOT_FOUND or UNAUTHENTICATED).
func (svc *Service) Admits(ctx context.Context, s *ent.Site, a Audience) error {
	_, err := svc.admitsAudience(ctx, s, a)
	return err
}

// VisitorFallbackURL is where a visitor-auth site sends readers without a valid token: its
// publishing auth's fallback URL, "" when it has none.
func (svc *Service) VisitorFallbackURL(ctx context.Context, ref SiteRef) string {
	structure := privacy.DecisionContext(ctx, privacy.Allow)
	a, err := svc.Client.SitePublishingAuth.Query().Where(sitepublishingauth.HasSiteWith(siteNamed(ref))).Only(structure)
	if err != nil || a.FallbackURL == nil {
		return ""
	}
	return *a.FallbackURL
}

// SignInCallbackPath is where in a site (after its base) the OpenID Connect provider of a site
// with sign-in sends its readers back.
const SignInCallbackPath = "~signin/callback"

// SignInSettings returns the published visitor-auth site ref names and its visitor
// authentication settings when they name an OpenID Connect provider readers sign in with, read
// with the system's rights (a reader signing in has no other). Returns NOT_FOUND otherwise.
func (svc *Service) SignInSettings(ctx context.Context, ref SiteRef) (*ent.Site, *ent.SitePublishingAuth, error) {
	structure := privacy.DecisionContext(ctx, privacy.Allow)
	a, err := svc.Client.SitePublishingAuth.Query().Where(sitepublishingauth.OidcProviderIDNotNil(),
		sitepublishingauth.HasSiteWith(siteNamed(ref), site.Published(true), site.VisibilityEQ(site.VisibilityVisitorAuth))).
		WithSite().Order(ent.Asc(sitepublishingauth.FieldID)).First(structure)
	if err != nil {
		return nil, nil, rule.NotFound(err, "site with sign-in")
	}
	return a.Edges.Site, a, nil
}

// visibleTo is the visit of a reader with these claims: the sections and site spaces whose
// condition the claims satisfy.
func (rows *siteRows) visibleTo(claims map[string]any) *Visit {
	schema := rows.schema
	visit := &Visit{Site: rows.site, rows: rows, schema: schema, claims: claims}
	shown := map[string]bool{"": len(rows.sections) == 0} // section id ("" for the root level) → shown
	for _, sec := range rows.sections {
		if shows(sec.Condition, schema, claims) {
			visit.Sections = append(visit.Sections, sec)
			shown[sec.ID] = true
		}
	}
	for _, ss := range rows.siteSpaces {
		if shown[idOr(ss.SectionID)] && shows(ss.Condition, schema, claims) {
			visit.SiteSpaces = append(visit.SiteSpaces, ss)
		}
	}
	return visit
}

// siteNamed selects the site a reference names.
func siteNamed(ref SiteRef) predicate.Site {
	if ref.Hostname != "" {
		return site.Hostname(strings.ToLower(ref.Hostname))
	}
	return site.Or(site.Basename(ref.Name), site.ID(ref.Name))
}

// shows reports whether an object with this condition is shown to a reader with these claims.
// A condition that no longer compiles hides the object: failing closed.
func shows(condition *string, schema *adaptive.Schema, claims map[string]any) bool {
	if condition == nil || strings.TrimSpace(*condition) == "" {
		return true
	}
	ok, err := adaptive.Evaluate(*condition, schema, claims)
	return err == nil && ok
}
