package publish

import (
	"context"
	"fmt"
	"net/http"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/sites"
)

// siteView is one request's view of a site: the structure the reader may see and where its URLs
// start.
type siteView struct {
	h     *Handler
	ctx   context.Context
	visit *sites.Visit
	base  string // "/sites/{ref}", "" on the site's own hostname
	// origin is the scheme and host of the site's URLs, for the absolute ones (originOf).
	origin string
	// readerQuery is the part of the request's query that says who the reader is (readerQuery):
	// the links of the Markdown answered carry it.
	readerQuery string
	// landings are the landing pages of the trees read, found once per tree (firstDocument).
	landings map[*tree.Tree]*tree.Page
	look     *look // the look of the site space read (lookOf)
	// hidden is, by revision id, what the reader's claims hide in the contents read (content):
	// the ETag's part of what the reader sees.
	hidden map[string]hiding
}

// location is where a path of the site leads (sites.Location).
type location = sites.Location

// locate splits a path into section, site space and page path (sites.Visit.Locate).
func (s *siteView) locate(path string) (location, bool) { return s.visit.Locate(path) }

// sectionURL is the URL of a section's default site space.
func (s *siteView) sectionURL(sec *ent.SiteSection) string {
	if sec == nil || sec.IsDefault {
		return s.base + "/"
	}
	return s.base + "/" + sec.Path + "/"
}

// siteSpaceURL is the URL of a site space's first page.
func (s *siteView) siteSpaceURL(sec *ent.SiteSection, ss *ent.SiteSpace) string {
	if ss.IsDefault {
		return s.sectionURL(sec)
	}
	return s.sectionURL(sec) + ss.Path + "/"
}

// pageURL is the URL of a page of a site space; its landing page is its root.
func (s *siteView) pageURL(loc location, t *tree.Tree, p *tree.Page) string {
	if first := s.landingOf(loc.SiteSpace, t); first != nil && first.ID == p.ID {
		return s.siteSpaceURL(loc.Section, loc.SiteSpace)
	}
	return s.siteSpaceURL(loc.Section, loc.SiteSpace) + t.Path(p.ID)
}

// markdownURL is where a page's Markdown is served.
func (s *siteView) markdownURL(loc location, t *tree.Tree, p *tree.Page) string {
	return s.siteSpaceURL(loc.Section, loc.SiteSpace) + t.Path(p.ID) + ".md"
}

// readerURL is the absolute URL of a path of the site for a reader who may keep no cookies (an
// agent reading the site's Markdown): with the parameters of the request's URL that said who the
// reader is, so that following it reads the site as the reader who was given the URL.
func (s *siteView) readerURL(path string) string {
	if s.readerQuery == "" {
		return s.origin + path
	}
	return s.origin + path + "?" + s.readerQuery
}

// landingOf is the page readers land on in a site space showing t (sites.Landing).
func (s *siteView) landingOf(ss *ent.SiteSpace, t *tree.Tree) *tree.Page {
	return sites.Landing(ss, t, func() *tree.Page { return s.landing(t) })
}

// landing is sites.FirstDocument of t, found once per request.
func (s *siteView) landing(t *tree.Tree) *tree.Page {
	if p, ok := s.landings[t]; ok {
		return p
	}
	if s.landings == nil {
		s.landings = map[*tree.Tree]*tree.Page{}
	}
	s.landings[t] = sites.FirstDocument(t)
	return s.landings[t]
}

// serveRobots answers robots.txt: unlisted sites ask not to be indexed.
func (s *siteView) serveRobots(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.visit.Site.Visibility != "public" {
		fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
		return
	}
	fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s%s/sitemap.xml\n", s.origin, s.base)
}
