package redirects

import (
	"context"
	"net/url"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/siteredirect"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Where site redirects lead: destinations checked when written (a section, a site space or a page
// of a site space of the redirect's site; an absolute http(s) URL), and their URLs when followed.

// Bounds of destinations: an external URL, and a page's path given to find it.
const (
	urlMax  = 2048
	pathMax = MovedPathMax
)

// DestinationKind is the kind of a destination given, named as the API names it.
type DestinationKind string

// The kinds of destinations given: PATH names a page by its path in a space shown on the site.
const (
	KindSiteSection DestinationKind = "SITE_SECTION"
	KindSiteSpace   DestinationKind = "SITE_SPACE"
	KindSitePage    DestinationKind = "SITE_PAGE"
	KindExternal    DestinationKind = "EXTERNAL"
	KindPath        DestinationKind = "PATH"
)

// DestinationInput is a destination given: its kind and the fields of that kind.
type DestinationInput struct {
	Kind                                                   DestinationKind
	SiteSectionID, SiteSpaceID, PageID, URL, SpaceID, Path *string
}

// Destination is a checked destination, as it is stored.
type Destination struct {
	kind                                  siteredirect.DestinationKind
	sectionID, siteSpaceID, pageID, toURL *string
}

// ToSection is the destination of a section of the site.
func ToSection(id string) Destination {
	return Destination{kind: siteredirect.DestinationKindSiteSection, sectionID: &id}
}

// ToSiteSpace is the destination of a site space of the site.
func ToSiteSpace(id string) Destination {
	return Destination{kind: siteredirect.DestinationKindSiteSpace, siteSpaceID: &id}
}

// setOn sets the destination on a redirect's creation or update, clearing the fields of other kinds.
func (d Destination) setOn(m *ent.SiteRedirectMutation) {
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
	svc        *Service
	site       *ent.Site
	loaded     bool
	sections   []*ent.SiteSection
	siteSpaces []*ent.SiteSpace // in order
}

func (svc *Service) destinationsOf(s *ent.Site) *destinations {
	return &destinations{svc: svc, site: s}
}

func (d *destinations) load(ctx context.Context) error {
	if d.loaded {
		return nil
	}
	var err error
	if d.sections, err = d.svc.Client.SiteSection.Query().Where(sitesection.SiteID(d.site.ID)).All(ctx); err != nil {
		return err
	}
	d.siteSpaces, err = d.svc.Client.SiteSpace.Query().Where(sitespace.SiteID(d.site.ID)).
		Order(ent.Asc(sitespace.FieldPosition), ent.Asc(sitespace.FieldID)).All(ctx)
	d.loaded = err == nil
	return err
}

// check reads a destination given under field. Returns INVALID naming a field missing or wrong,
// NOT_FOUND naming the id (or path) of what the site does not have.
func (d *destinations) check(ctx context.Context, field string, in *DestinationInput) (Destination, error) {
	if err := d.load(ctx); err != nil {
		return Destination{}, err
	}
	switch in.Kind {
	case KindSiteSection:
		sec, err := d.section(field+".siteSectionId", in.SiteSectionID)
		return Destination{kind: siteredirect.DestinationKindSiteSection, sectionID: sec}, err
	case KindSiteSpace:
		ss, err := d.siteSpace(field+".siteSpaceId", in.SiteSpaceID)
		if err != nil {
			return Destination{}, err
		}
		return ToSiteSpace(ss.ID), nil
	case KindSitePage:
		return d.sitePage(ctx, field, in)
	case KindPath:
		return d.pagePath(ctx, field, in)
	}
	u, err := externalURL(field+".url", in.URL)
	return Destination{kind: siteredirect.DestinationKindExternal, toURL: u}, err
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
	return nil, apperr.NotFoundf("%s: the site has no section %q", field, check.Truncate(want, 80))
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
	return nil, apperr.NotFoundf("%s: the site has no site space %q", field, check.Truncate(want, 80))
}

// sitePage checks a page of a site space: a page of its space's current content.
func (d *destinations) sitePage(ctx context.Context, field string, in *DestinationInput) (Destination, error) {
	ss, err := d.siteSpace(field+".siteSpaceId", in.SiteSpaceID)
	if err != nil {
		return Destination{}, err
	}
	pageID, err := required(field+".pageId", in.PageID)
	if err != nil {
		return Destination{}, err
	}
	return d.pageOf(ctx, ss, func(t *tree.Tree) *tree.Page { return t.Page(pageID) },
		apperr.NotFoundf("%s.pageId: the site space's content has no page %q", field, check.Truncate(pageID, 80)))
}

// pageOf is the site-page destination of the page find finds in a site space's current content.
// Returns missing when it finds none.
func (d *destinations) pageOf(ctx context.Context, ss *ent.SiteSpace, find func(*tree.Tree) *tree.Page, missing error) (Destination, error) {
	t, err := d.svc.SpaceTree(ctx, ss.SpaceID)
	if err != nil {
		return Destination{}, err
	}
	p := find(t)
	if p == nil {
		return Destination{}, missing
	}
	return Destination{kind: siteredirect.DestinationKindSitePage, siteSpaceID: &ss.ID, pageID: &p.ID}, nil
}

// pagePath checks a page named by its path in a space shown on the site (the reference's
// SiteRedirectInputDestinationPath), and names it as a page of the first site space showing the
// space.
func (d *destinations) pagePath(ctx context.Context, field string, in *DestinationInput) (Destination, error) {
	spaceID, err := required(field+".spaceId", in.SpaceID)
	if err != nil {
		return Destination{}, err
	}
	path, err := required(field+".path", in.Path)
	if err != nil {
		return Destination{}, err
	}
	if err := check.Text(field+".path", path, 1, pathMax); err != nil {
		return Destination{}, err
	}
	var ss *ent.SiteSpace
	for _, it := range d.siteSpaces {
		if it.SpaceID == spaceID {
			ss = it
			break
		}
	}
	if ss == nil {
		return Destination{}, apperr.NotFoundf("%s.spaceId: no site space of the site shows the space %q", field, check.Truncate(spaceID, 80))
	}
	return d.pageOf(ctx, ss, func(t *tree.Tree) *tree.Page { return t.ByPath(path) },
		apperr.NotFoundf("%s.path: the space's content has no page at %q", field, check.Truncate(path, 80)))
}

// externalURL checks a destination outside the site: an absolute http(s) URL without user
// information (https://docs.example.com@evil.example reads as the first host and goes to the
// second). Returns INVALID naming the field.
func externalURL(field string, v *string) (*string, error) {
	u, err := required(field, v)
	if err != nil {
		return nil, err
	}
	if err := check.URL(field, u, urlMax); err != nil {
		return nil, err
	}
	if parsed, _ := url.Parse(u); parsed.User != nil {
		return nil, apperr.Invalidf("%s: must not hold a user name or password", field)
	}
	return &u, nil
}

// URLs are the URLs that the destinations of a site's redirects have for someone: "" for a
// destination that is not there for them.
type URLs interface {
	Section(ctx context.Context, id string) (string, error)
	SiteSpace(ctx context.Context, id string) (string, error)
	Page(ctx context.Context, siteSpaceID, pageID string) (string, error)
}

// URL is where a redirect leads through urls, with the part of the path its wildcard matched
// (suffix) appended when it captures it; "" when its destination is not there.
func URL(ctx context.Context, red *ent.SiteRedirect, suffix string, urls URLs) (string, error) {
	var u string
	var err error
	switch red.DestinationKind {
	case siteredirect.DestinationKindSiteSection:
		u, err = urls.Section(ctx, str(red.DestinationSectionID))
	case siteredirect.DestinationKindSiteSpace:
		u, err = urls.SiteSpace(ctx, str(red.DestinationSiteSpaceID))
	case siteredirect.DestinationKindSitePage:
		u, err = urls.Page(ctx, str(red.DestinationSiteSpaceID), str(red.DestinationPageID))
	case siteredirect.DestinationKindExternal:
		u = str(red.DestinationURL)
	}
	if err != nil || u == "" {
		return "", err
	}
	if red.CaptureWildcard {
		u = Append(u, suffix)
	}
	return u, nil
}
