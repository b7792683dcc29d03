package graph

import (
	"context"
	"maps"
	"strings"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/appurl"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/sites"
)

// PublishedURLContent is what a published site's URL shows its reader: the site as the reader
// sees it, the section and site space the URL leads to, the space's published content and the
// page.
type PublishedURLContent struct {
	URL      appurl.Site
	Visit    *sites.Visit
	Location sites.Location
	Content  *Content
	Page     *tree.Page
	// ShareKey is the share key the URL or the caller presented, "" for none.
	ShareKey string
	// Redirect, when not "", is where the reader is sent instead and the rest but URL and Visit
	// is unset: the fallback URL of a visitor-auth site the reader has no valid token for
	// (redirectOnError), or, when External, the destination outside the site of the site's
	// redirect that matches the URL.
	Redirect string
	External bool
}

// PublishedContentByURL reads what a published site's URL shows (appurl.ParseSite) to a reader
// presenting the URL's credentials (its `shareKey` or `share`, `jwt_token` and `visitor.*`
// parameters) and those of a, which come first: whoever asks, the answer is a reader's, not a member's.
// With redirectOnError, a visitor-auth site with a fallback URL answers a reader without a valid
// token with a Redirect to it. Returns INVALID for a URL that is not a site's, UNAUTHENTICATED for
// a visitor-auth site without a valid token, NOT_FOUND for a URL that shows the reader no page.
func (r *Resolver) PublishedContentByURL(ctx context.Context, raw string, a sites.Audience, redirectOnError bool) (*PublishedURLContent, error) {
	return r.publishedContentAt(ctx, raw, a, redirectOnError, 0)
}

// publishedContentAt is PublishedContentByURL after hops redirects of the site.
func (r *Resolver) publishedContentAt(ctx context.Context, raw string, a sites.Audience, redirectOnError bool, hops int) (*PublishedURLContent, error) {
	u, err := appurl.ParseSite("url", r.BaseURL, raw)
	if err != nil {
		return nil, err
	}
	if a, err = audienceOf(u, a); err != nil {
		return nil, err
	}
	ctx = viewer.NewContext(ctx, viewer.Visitor())
	ref := sites.SiteRef{Name: u.Name, Hostname: u.Hostname}
	visit, err := r.VisitSite(ctx, ref, a)
	if e := apperr.As(err); e != nil && e.Kind == apperr.Unauthenticated && redirectOnError {
		if fallback := r.VisitorFallbackURL(ctx, ref); fallback != "" {
			return &PublishedURLContent{URL: u, Redirect: fallback}, nil
		}
	}
	if err != nil {
		return nil, err
	}
	found := &PublishedURLContent{URL: u, Visit: visit, ShareKey: a.ShareKey}
	var ok bool
	if found.Location, ok = visit.Locate(strings.TrimSuffix(u.Path, ".md")); ok {
		if found.Content, err = r.AdmittedSpaceContent(ctx, found.Location.SiteSpace.SpaceID); err != nil {
			return nil, err
		}
		found.Page = found.Location.PageIn(found.Content.Tree, found.landing)
	}
	if found.Page != nil && shownWithAncestors(visit, found.Content.Tree, found.Page) {
		return found, nil
	}
	return r.followMissing(ctx, raw, found, a, hops)
}

// maxRedirectHops bounds the site redirects followed for one URL (a chain, or a loop).
const maxRedirectHops = 5

// followMissing answers a URL that names no page its reader sees as the site would send the
// reader (redirects.Service.Missing): to the destination of the site's redirect that matches
// it, read again, or to the page that left its path (decision 522). NOT_FOUND when neither
// applies, when the redirect leaves the site, or after maxRedirectHops redirects.
func (r *Resolver) followMissing(ctx context.Context, raw string, found *PublishedURLContent, a sites.Audience, hops int) (*PublishedURLContent, error) {
	notFound := apperr.NotFoundf("url: no published page at %q", check.Truncate(raw, 100))
	var spaceID string
	if found.Content != nil {
		spaceID = found.Location.SiteSpace.SpaceID
	}
	m, err := r.SiteMissingPath(ctx, found.Visit.Site.ID, found.URL.Path, spaceID, found.Location.PagePath, siteURLs{r, found})
	switch {
	case err != nil:
		return nil, err
	case m.External:
		return &PublishedURLContent{URL: found.URL, Visit: found.Visit, Redirect: m.URL, External: true}, nil
	case m.URL != "" && hops < maxRedirectHops:
		return r.publishedContentAt(ctx, m.URL, a, false, hops+1)
	case m.MovedPage != "":
		found.Page = found.Content.Tree.Page(m.MovedPage)
		if found.Page != nil && shownWithAncestors(found.Visit, found.Content.Tree, found.Page) {
			found.Location.PagePath = found.Content.Tree.Path(found.Page.ID)
			return found, nil
		}
	}
	return nil, notFound
}

// landing is the landing page of the found site space.
func (c *PublishedURLContent) landing() *tree.Page {
	return sites.Landing(c.Location.SiteSpace, c.Content.Tree, func() *tree.Page { return sites.FirstDocument(c.Content.Tree) })
}

// siteURLs are the URLs of redirects' destinations on the site a URL named, at its origin: only
// what its reader sees (redirects.URLs).
type siteURLs struct {
	r *Resolver
	c *PublishedURLContent
}

func (u siteURLs) root() string { return u.c.URL.Origin + u.c.URL.BasePath }

func (u siteURLs) Section(_ context.Context, id string) (string, error) {
	for _, sec := range u.c.Visit.Sections {
		if sec.ID == id {
			return u.root() + sites.SectionBasePath(sec), nil
		}
	}
	return "", nil
}

func (u siteURLs) SiteSpace(_ context.Context, id string) (string, error) {
	loc := u.c.Visit.LocationOf(id)
	if loc.SiteSpace == nil {
		return "", nil
	}
	return u.root() + loc.BasePath(), nil
}

func (u siteURLs) Page(ctx context.Context, siteSpaceID, pageID string) (string, error) {
	loc := u.c.Visit.LocationOf(siteSpaceID)
	if loc.SiteSpace == nil {
		return "", nil
	}
	c, err := u.r.AdmittedSpaceContent(ctx, loc.SiteSpace.SpaceID)
	if err != nil || c.Tree.Page(pageID) == nil {
		return "", err
	}
	return u.root() + loc.BasePath() + c.Tree.Path(pageID), nil
}

// audienceOf completes a with the credentials and claims of the URL's query, as a reader's
// browser presents them to the site (publish): a's own come first.
func audienceOf(u appurl.Site, a sites.Audience) (sites.Audience, error) {
	if a.ShareKey == "" {
		a.ShareKey = firstOf(u.Query.Get("shareKey"), u.Query.Get("share"))
	}
	if a.Token == "" {
		a.Token = u.Query.Get("jwt_token")
	}
	unsigned := map[string]any{}
	sites.SetQueryClaims(unsigned, u.Query)
	given, _ := a.Claims["unsigned"].(map[string]any)
	maps.Copy(unsigned, given)
	if len(unsigned) > sites.MaxUnsignedClaims {
		return a, apperr.Invalidf("visitor: at most %d unsigned claims", sites.MaxUnsignedClaims)
	}
	a.Claims = map[string]any{"unsigned": unsigned}
	return a, nil
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// shownWithAncestors reports whether the reader's claims show page p and every page above it.
func shownWithAncestors(visit *sites.Visit, t *tree.Tree, p *tree.Page) bool {
	for ; p != nil; p = t.Page(p.Parent) {
		if !visit.Shows(p.Condition) {
			return false
		}
	}
	return true
}

// CanonicalPath is the path of the page below the site's root as readers link it: its site
// space's path, then the page's (none for the site space's landing page).
func (c *PublishedURLContent) CanonicalPath() string {
	if landing := c.landing(); landing != nil && landing.ID == c.Page.ID {
		return c.Location.BasePath()
	}
	return c.Location.BasePath() + c.Content.Tree.Path(c.Page.ID)
}

// CanonicalURL is the page's absolute URL as the site links it, at the URL's own origin.
func (c *PublishedURLContent) CanonicalURL() string {
	return c.URL.Origin + c.URL.BasePath + c.CanonicalPath()
}

// publishedContentByURL is Query.publishedContentByUrl.
func (r *Resolver) publishedContentByURL(ctx context.Context, raw string, v *model.PublishedURLVisitorInput) (*model.PublishedURLContent, error) {
	var a sites.Audience
	if v != nil {
		if v.JwtToken != nil {
			a.Token = *v.JwtToken
		}
		claims, ok := v.UnsignedClaims.(map[string]any)
		if v.UnsignedClaims != nil && !ok {
			return nil, apperr.Invalidf("visitor.unsignedClaims: must be an object")
		}
		a.Claims = map[string]any{"unsigned": claims}
	}
	found, err := r.PublishedContentByURL(ctx, raw, a, false)
	if err != nil {
		return nil, err
	}
	if found.External { // PublishedURLContent has no form for it: REST answers the redirect
		return nil, apperr.NotFoundf("url: the site redirects %q outside itself, to %s", check.Truncate(raw, 100), found.Redirect)
	}
	loc := found.Location
	out := &model.PublishedURLContent{OrganizationID: found.Visit.Site.OrganizationID, SiteID: found.Visit.Site.ID,
		SiteSpaceID: loc.SiteSpace.ID, SpaceID: loc.SiteSpace.SpaceID, RevisionID: found.Content.Revision.ID,
		PageID: found.Page.ID, Pathname: loc.PagePath, BasePath: found.URL.BasePath + loc.BasePath(),
		SiteBasePath: found.URL.BasePath, CanonicalURL: found.CanonicalURL()}
	if loc.Section != nil {
		out.SiteSectionID = &loc.Section.ID
	}
	return out, nil
}
