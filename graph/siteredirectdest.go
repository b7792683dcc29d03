package graph

import (
	"context"
	"net/url"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/siteredirect"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/graph/content/tree"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	sourcepath "github.com/binderyhq/bindery/internal/siteredirect"
)

// Where site redirects lead: destinations checked when written (a section, a site space or a page
// of a site space of the redirect's site; an absolute http(s) URL), and their URLs when followed.

// Bounds of destinations: an external URL, and a page's path given to find it.
const (
	redirectURLMax  = 2048
	redirectPathMax = movedPathMax
)

// redirectDestination is a checked destination, as it is stored.
type redirectDestination struct {
	kind                                  siteredirect.DestinationKind
	sectionID, siteSpaceID, pageID, toURL *string
}

// setOn sets the destination on a redirect's creation or update, clearing the fields of other kinds.
func (d redirectDestination) setOn(m *ent.SiteRedirectMutation) {
	m.SetDestinationKind(d.kind)
	setOrClearString(d.sectionID, m.SetDestinationSectionID, m.ClearDestinationSectionID)
	setOrClearString(d.siteSpaceID, m.SetDestinationSiteSpaceID, m.ClearDestinationSiteSpaceID)
	setOrClearString(d.pageID, m.SetDestinationPageID, m.ClearDestinationPageID)
	setOrClearString(d.toURL, m.SetDestinationURL, m.ClearDestinationURL)
}

func setOrClearString(v *string, set func(string), clear func()) {
	if v != nil {
		set(*v)
	} else {
		clear()
	}
}

// destinations checks the destinations of one site's redirects, reading the site's sections and
// the site spaces the viewer sees once, however many redirects it checks.
type destinations struct {
	r          *Resolver
	site       *ent.Site
	loaded     bool
	sections   []*ent.SiteSection
	siteSpaces []*ent.SiteSpace // in order
}

func (r *Resolver) destinationsOf(s *ent.Site) *destinations { return &destinations{r: r, site: s} }

func (d *destinations) load(ctx context.Context) error {
	if d.loaded {
		return nil
	}
	var err error
	if d.sections, err = d.r.Client.SiteSection.Query().Where(sitesection.SiteID(d.site.ID)).All(ctx); err != nil {
		return err
	}
	d.siteSpaces, err = d.r.Client.SiteSpace.Query().Where(sitespace.SiteID(d.site.ID)).
		Order(ent.Asc(sitespace.FieldPosition), ent.Asc(sitespace.FieldID)).All(ctx)
	d.loaded = err == nil
	return err
}

// check reads a destination given under field. Returns INVALID naming a field missing or wrong,
// NOT_FOUND naming the id (or path) of what the site does not have.
func (d *destinations) check(ctx context.Context, field string, in *model.SiteRedirectDestinationInput) (redirectDestination, error) {
	if err := d.load(ctx); err != nil {
		return redirectDestination{}, err
	}
	switch in.Kind {
	case model.SiteRedirectDestinationInputKindSiteSection:
		sec, err := d.section(field+".siteSectionId", in.SiteSectionID)
		return redirectDestination{kind: siteredirect.DestinationKindSiteSection, sectionID: sec}, err
	case model.SiteRedirectDestinationInputKindSiteSpace:
		ss, err := d.siteSpace(field+".siteSpaceId", in.SiteSpaceID)
		if err != nil {
			return redirectDestination{}, err
		}
		return redirectDestination{kind: siteredirect.DestinationKindSiteSpace, siteSpaceID: &ss.ID}, nil
	case model.SiteRedirectDestinationInputKindSitePage:
		return d.sitePage(ctx, field, in)
	case model.SiteRedirectDestinationInputKindPath:
		return d.pagePath(ctx, field, in)
	}
	u, err := externalURL(field+".url", in.URL)
	return redirectDestination{kind: siteredirect.DestinationKindExternal, toURL: u}, err
}

// required returns a field's value. Returns INVALID when it is absent or empty.
func required(field string, v *string) (string, error) {
	if v == nil || *v == "" {
		return "", apperr.Invalidf("%s: required for this kind of destination", field)
	}
	return *v, nil
}

func (d *destinations) section(field string, id *string) (*string, error) {
	want, err := required(field, id)
	if err != nil {
		return nil, err
	}
	for _, sec := range d.sections {
		if sec.ID == want {
			return &sec.ID, nil
		}
	}
	return nil, apperr.NotFoundf("%s: the site has no section %q", field, truncate(want, 80))
}

func (d *destinations) siteSpace(field string, id *string) (*ent.SiteSpace, error) {
	want, err := required(field, id)
	if err != nil {
		return nil, err
	}
	for _, ss := range d.siteSpaces {
		if ss.ID == want {
			return ss, nil
		}
	}
	return nil, apperr.NotFoundf("%s: the site has no site space %q", field, truncate(want, 80))
}

// sitePage checks a page of a site space: a page of its space's current content.
func (d *destinations) sitePage(ctx context.Context, field string, in *model.SiteRedirectDestinationInput) (redirectDestination, error) {
	ss, err := d.siteSpace(field+".siteSpaceId", in.SiteSpaceID)
	if err != nil {
		return redirectDestination{}, err
	}
	pageID, err := required(field+".pageId", in.PageID)
	if err != nil {
		return redirectDestination{}, err
	}
	return d.pageOf(ctx, ss, func(t *tree.Tree) *tree.Page { return t.Page(pageID) },
		apperr.NotFoundf("%s.pageId: the site space's content has no page %q", field, truncate(pageID, 80)))
}

// pageOf is the site-page destination of the page find finds in a site space's current content.
// Returns missing when it finds none.
func (d *destinations) pageOf(ctx context.Context, ss *ent.SiteSpace, find func(*tree.Tree) *tree.Page, missing error) (redirectDestination, error) {
	content, err := d.r.SpaceContent(ctx, ss.SpaceID, nil)
	if err != nil {
		return redirectDestination{}, err
	}
	p := find(content.Tree)
	if p == nil {
		return redirectDestination{}, missing
	}
	return redirectDestination{kind: siteredirect.DestinationKindSitePage, siteSpaceID: &ss.ID, pageID: &p.ID}, nil
}

// pagePath checks a page named by its path in a space shown on the site (the reference's
// SiteRedirectInputDestinationPath), and names it as a page of the first site space showing the
// space.
func (d *destinations) pagePath(ctx context.Context, field string, in *model.SiteRedirectDestinationInput) (redirectDestination, error) {
	spaceID, err := required(field+".spaceId", in.SpaceID)
	if err != nil {
		return redirectDestination{}, err
	}
	path, err := required(field+".path", in.Path)
	if err != nil {
		return redirectDestination{}, err
	}
	if err := checkText(field+".path", path, 1, redirectPathMax); err != nil {
		return redirectDestination{}, err
	}
	var ss *ent.SiteSpace
	for _, it := range d.siteSpaces {
		if it.SpaceID == spaceID {
			ss = it
			break
		}
	}
	if ss == nil {
		return redirectDestination{}, apperr.NotFoundf("%s.spaceId: no site space of the site shows the space %q", field, truncate(spaceID, 80))
	}
	return d.pageOf(ctx, ss, func(t *tree.Tree) *tree.Page { return t.ByPath(path) },
		apperr.NotFoundf("%s.path: the space's content has no page at %q", field, truncate(path, 80)))
}

// externalURL checks a destination outside the site: an absolute http(s) URL without user
// information (https://docs.example.com@evil.example reads as the first host and goes to the
// second). Returns INVALID naming the field.
func externalURL(field string, v *string) (*string, error) {
	u, err := required(field, v)
	if err != nil {
		return nil, err
	}
	if err := checkURL(field, u, redirectURLMax); err != nil {
		return nil, err
	}
	if parsed, _ := url.Parse(u); parsed.User != nil {
		return nil, apperr.Invalidf("%s: must not hold a user name or password", field)
	}
	return &u, nil
}

// RedirectURLs are the URLs that the destinations of a site's redirects have for someone: "" for
// a destination that is not there for them.
type RedirectURLs interface {
	Section(ctx context.Context, id string) (string, error)
	SiteSpace(ctx context.Context, id string) (string, error)
	Page(ctx context.Context, siteSpaceID, pageID string) (string, error)
}

// RedirectURL is where a redirect leads through urls, with the part of the path its wildcard
// matched (suffix) appended when it captures it; "" when its destination is not there.
func RedirectURL(ctx context.Context, red *ent.SiteRedirect, suffix string, urls RedirectURLs) (string, error) {
	var u string
	var err error
	switch red.DestinationKind {
	case siteredirect.DestinationKindSiteSection:
		u, err = urls.Section(ctx, derefOr(red.DestinationSectionID, ""))
	case siteredirect.DestinationKindSiteSpace:
		u, err = urls.SiteSpace(ctx, derefOr(red.DestinationSiteSpaceID, ""))
	case siteredirect.DestinationKindSitePage:
		u, err = urls.Page(ctx, derefOr(red.DestinationSiteSpaceID, ""), derefOr(red.DestinationPageID, ""))
	case siteredirect.DestinationKindExternal:
		u = derefOr(red.DestinationURL, "")
	}
	if err != nil || u == "" {
		return "", err
	}
	if red.CaptureWildcard {
		u = sourcepath.Append(u, suffix)
	}
	return u, nil
}

// apiURLs are the published URLs of a site's destinations, for a member reading its redirects
// (without a share key: siteRedirectTarget adds the request's).
type apiURLs struct {
	r    *Resolver
	site *ent.Site
}

func (a apiURLs) Section(ctx context.Context, id string) (string, error) {
	sec, err := a.r.Client.SiteSection.Query().Where(sitesection.ID(id), sitesection.SiteID(a.site.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return a.r.sectionURL(a.site, sec), nil
}

func (a apiURLs) SiteSpace(ctx context.Context, id string) (string, error) {
	ss, err := a.r.siteSpace(ctx, a.site, id)
	if isNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return a.r.siteSpaceBaseURL(ctx, ss)
}

func (a apiURLs) Page(ctx context.Context, siteSpaceID, pageID string) (string, error) {
	ss, err := a.r.siteSpace(ctx, a.site, siteSpaceID)
	if isNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	content, err := a.r.SpaceContent(ctx, ss.SpaceID, nil)
	if isNotFound(err) || err == nil && content.Tree.Page(pageID) == nil {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	u, err := a.r.siteSpaceBaseURL(ctx, ss)
	return u + content.Tree.Path(pageID), err
}

// matchRedirect returns the redirect of a site that a reader of path (canonical) follows among
// its live redirects (or its drafts): the one of that exact source, else the wildcard one with the
// longest prefix; and the part of the path its wildcard matched. nil when none matches. One
// statement, through the indexes of sources and prefixes.
func matchRedirect(ctx context.Context, client *ent.Client, siteID string, draft bool, path string) (*ent.SiteRedirect, string, error) {
	rows, err := client.SiteRedirect.Query().Where(siteredirect.SiteID(siteID), siteredirect.Draft(draft),
		siteredirect.Or(siteredirect.Source(path), siteredirect.PrefixIn(sourcepath.Prefixes(path)...))).All(ctx)
	if err != nil {
		return nil, "", err
	}
	candidates := make([]sourcepath.Source, len(rows))
	for i, red := range rows {
		candidates[i] = sourcepath.Source{Path: red.Source, Prefix: derefOr(red.Prefix, "")}
	}
	i, suffix, ok := sourcepath.Best(candidates, path)
	if !ok {
		return nil, "", nil
	}
	return rows[i], suffix, nil
}

// SiteRedirectFor returns the live redirect of a visited site that its reader follows at path
// (from the site's root, decoded, as net/http gives it), and the part of the path its wildcard
// matched; nil when none does. VisitSite admitted the reader and read the site's rows past the
// tenant filter (readers are no members); its redirects are read so too.
func (r *Resolver) SiteRedirectFor(ctx context.Context, visit *SiteVisit, path string) (*ent.SiteRedirect, string, error) {
	path = "/" + strings.Trim(path, "/")
	return matchRedirect(privacy.DecisionContext(ctx, privacy.Allow), r.Client, visit.Site.ID, false, sourcepath.Canonical(path))
}
