package publish

import (
	"context"
	"fmt"
	"net/http"
	"strings"

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

// location is where a path leads: a section (nil for a site without sections), one of its site
// spaces, and the rest of the path inside that space.
type location struct {
	section   *ent.SiteSection
	siteSpace *ent.SiteSpace
	pagePath  string
}

// locate splits a path into section, site space and page path: a segment naming a section or a
// site space that is not the default picks it; otherwise the default one is meant.
func (s *siteView) locate(path string) (location, bool) {
	var loc location
	head, rest := firstSegment(path)
	if len(s.visit.Sections) > 0 {
		loc.section = pick(s.visit.Sections, head, func(x *ent.SiteSection) (string, bool) { return x.Path, x.IsDefault })
		if loc.section.Path == head && !loc.section.IsDefault {
			head, rest = firstSegment(rest)
		}
	}
	siteSpaces := s.visit.SiteSpacesOf(sectionID(loc.section))
	if len(siteSpaces) == 0 {
		return loc, false
	}
	loc.siteSpace = pick(siteSpaces, head, func(x *ent.SiteSpace) (string, bool) { return x.Path, x.IsDefault })
	if loc.siteSpace.Path == head && !loc.siteSpace.IsDefault {
		head, rest = firstSegment(rest)
	}
	loc.pagePath = strings.Trim(head+"/"+rest, "/")
	return loc, true
}

// pick returns the item whose path is segment, else the default item, else the first.
func pick[T any](items []T, segment string, pathOf func(T) (string, bool)) T {
	for _, it := range items {
		if p, _ := pathOf(it); p == segment {
			return it
		}
	}
	for _, it := range items {
		if _, isDefault := pathOf(it); isDefault {
			return it
		}
	}
	return items[0]
}

func firstSegment(path string) (head, rest string) {
	head, rest, _ = strings.Cut(strings.Trim(path, "/"), "/")
	return head, rest
}

func sectionID(sec *ent.SiteSection) string {
	if sec == nil {
		return ""
	}
	return sec.ID
}

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
	if first := s.landingOf(loc.siteSpace, t); first != nil && first.ID == p.ID {
		return s.siteSpaceURL(loc.section, loc.siteSpace)
	}
	return s.siteSpaceURL(loc.section, loc.siteSpace) + t.Path(p.ID)
}

// markdownURL is where a page's Markdown is served.
func (s *siteView) markdownURL(loc location, t *tree.Tree, p *tree.Page) string {
	return s.siteSpaceURL(loc.section, loc.siteSpace) + t.Path(p.ID) + ".md"
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

// landingOf is the page readers land on in a site space showing t: its home page when that is a
// document of t (decision 178), else the space's first document.
func (s *siteView) landingOf(ss *ent.SiteSpace, t *tree.Tree) *tree.Page {
	if ss.PageID != nil {
		if p := t.Page(*ss.PageID); p != nil && p.Type == tree.TypeDocument {
			return p
		}
	}
	return s.landing(t)
}

// landing is firstDocument of t, found once per request.
func (s *siteView) landing(t *tree.Tree) *tree.Page {
	if p, ok := s.landings[t]; ok {
		return p
	}
	if s.landings == nil {
		s.landings = map[*tree.Tree]*tree.Page{}
	}
	s.landings[t] = firstDocument(t)
	return s.landings[t]
}

// firstDocument is the first page with content in tree order: the space's landing page.
func firstDocument(t *tree.Tree) *tree.Page { return firstDocumentUnder(t, "") }

// firstDocumentUnder is the first page with content below parent in tree order (a page, then the
// pages under it). It stops there: a redirect's URL is made per request, and walking a whole
// 10,000-page tree to find the landing page cost five times the page itself.
func firstDocumentUnder(t *tree.Tree, parent string) *tree.Page {
	for _, p := range t.Children(parent) {
		if p.Type == tree.TypeDocument && !p.Hidden {
			return p
		}
		if first := firstDocumentUnder(t, p.ID); first != nil {
			return first
		}
	}
	return nil
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
