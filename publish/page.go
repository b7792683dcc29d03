package publish

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html/template"
	"io"
	"net/http"
	neturl "net/url"
	"slices"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/content/htmlpage"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/openapispecs"
	"github.com/binderyhq/bindery/internal/search"
	"github.com/binderyhq/bindery/internal/sites"
)

// pageView is what the page template shows.
type pageView struct {
	SiteTitle, Title, Description, Canonical string
	Home                                     string
	Look                                     *look
	NoIndex                                  bool
	Sections                                 []link // tabs; empty for a site without sections
	Variants                                 []link // the section's site spaces, when more than one
	Nav                                      []navItem
	Body                                     template.HTML
	Outline                                  []htmlpage.Heading
	Prev, Next                               *link
	Updated                                  time.Time
	Markdown                                 string // URL of the page's Markdown
	Feedback                                 string // where the page's feedback form posts; "" for none
	Clicks                                   string // where the page's script reports clicks on links out of the site; "" for none
	Site                                     string // the site's root path: links elsewhere lead out of it
	SearchURL                                string // where the search box sends its query
	MaxQuery                                 int    // the longest query search takes
	Search                                   *searchView
}

// searchView is a search's results page.
type searchView struct {
	Query   string
	Problem string // why the query could not run, for the reader
	Results []searchResult
}

// searchResult is a page found, on the results page and in search as you type's JSON.
type searchResult struct {
	link
	Ancestors string          `json:"ancestors"`
	Sections  []searchSection `json:"sections"`
}

type searchSection struct {
	link
	Body string `json:"body"`
}

type link struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Current bool   `json:"-"`
}

// navItem is an entry of the sidebar: a page and its children. Its fields are its own, not a
// link's embedded: the template finds an embedded struct's fields by a search that allocates, for
// each field of each entry.
type navItem struct {
	Title, URL string
	Current    bool
	Group      bool // a group heading, with no page of its own
	Children   []navItem
}

type errorView struct {
	Status int // 0 for an answer that is no error
	Text   string
	Retry  string // where to start again (a site's sign-in); "": the page is not there
	Detail string // what went wrong, when not that the page is missing
	Back   string // the page to go back to
}

// servePage answers a page of the site, as HTML or (path ending in .md) as Markdown.
func (s *siteView) servePage(w http.ResponseWriter, req *http.Request, path string) {
	asMarkdown := strings.HasSuffix(path, ".md")
	loc, ok := s.locate(strings.TrimSuffix(path, ".md"))
	if !ok {
		s.missingPage(w, req, path, nil)
		return
	}
	switch loc.PagePath {
	case searchSegment:
		s.serveSearch(w, req, loc)
		return
	case searchSegment + jsonSuffix:
		s.serveSuggestions(w, req, loc)
		return
	}
	content, err := s.content(s.ctx, loc.SiteSpace.SpaceID)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	p := s.findPage(loc, content.Tree)
	if p == nil {
		s.missingPage(w, req, path, &pageAt{loc: loc, content: content})
		return
	}
	doc, specs, decided, err := s.readerDocument(content, p)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	s.recordView(req, path, loc, p, asMarkdown)
	// The page changes with the versions of the specs it shows and what the reader's claims decide.
	shows := path + specs.Key() + decided
	if asMarkdown {
		shows += "?" + s.readerQuery // the Markdown's links carry it
	}
	tag := s.etag(content.Revision.ID, shows, s.lookOf(loc.SiteSpace))
	if s.notModified(w, req, tag) {
		return
	}
	if asMarkdown {
		s.serveMarkdown(w, req, loc, content.Tree, p, specs, evaluated(doc, decided))
		return
	}
	page, err := s.h.rendered(tag, func(b *bytes.Buffer) error {
		v := s.pageView(loc, content, p, doc, specs)
		b.Grow(len(v.Body) + pageFrameBytes)
		s.render(b, v)
		return nil
	})
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	s.writeHeaders(w, s.lookOf(loc.SiteSpace), s.visit.Site.Visibility != "public" || p.NoIndex)
	_, _ = w.Write(page)
}

// pageFrameBytes is about what a page writes around its content (the sidebar, the header, the
// footer): room made for it beside the content before the page is written.
const pageFrameBytes = 16 << 10

// readerDocument reads a page's document as the reader sees it (pageSpecs), evaluated by the
// reader's claims when it holds expressions, and names what the claims decided ("" for nothing).
func (s *siteView) readerDocument(content *graph.Content, p *tree.Page) (*document.Document, *openapispecs.PageSpecs, string, error) {
	doc, specs, err := s.pageSpecs(content.Tree, p)
	if err != nil {
		return nil, nil, "", err
	}
	decided := s.decisions(s.expressionsKey(content.Revision.ID, p, doc), doc)
	if decided != "" {
		doc = document.Evaluate(doc, s.visit)
	}
	return doc, specs, decided, nil
}

// expressionsKey names a page's document for its expressions (expressionsOf): its body, when
// the document is the body's own (it places no reusable content, and document.Dereference
// returned it), which every page and revision holding that body share; else its revision and
// page.
func (s *siteView) expressionsKey(revisionID string, p *tree.Page, doc *document.Document) string {
	if body, err := s.h.r.PageDocument(s.ctx, p); err == nil && body == doc {
		return "body " + p.Body
	}
	return revisionID + "/" + p.ID
}

// evaluated is a page's document as readerDocument read it when the reader's claims decided
// something in it, else nil: its Markdown is then the page's as written.
func evaluated(doc *document.Document, decided string) *document.Document {
	if decided == "" {
		return nil
	}
	return doc
}

// pageSpecs reads a page's document, with the reusable contents it places put in, and the OpenAPI
// specs of the site's organization that its operation blocks name.
func (s *siteView) pageSpecs(t *tree.Tree, p *tree.Page) (*document.Document, *openapispecs.PageSpecs, error) {
	doc, err := s.h.r.DereferencedPageDocument(s.ctx, t, p)
	if err != nil {
		return nil, nil, err
	}
	specs, err := s.h.r.PageSpecs(s.ctx, s.visit.Site.OrganizationID, document.OpenAPIRefs(doc))
	return doc, specs, err
}

// findPage returns the page at the location's page path ("" for the site space's landing page);
// a group's path leads to its first page (sites.Location.PageIn).
func (s *siteView) findPage(loc location, t *tree.Tree) *tree.Page {
	return loc.PageIn(t, func() *tree.Page { return s.landingOf(loc.SiteSpace, t) })
}

// serveMarkdown answers a page's Markdown: its title as a heading, then its body, with the
// reusable contents it places put in, with the links readers follow (markdownLinks); when the page
// holds expressions, evaluated is its document as the reader's claims decide it.
func (s *siteView) serveMarkdown(w http.ResponseWriter, req *http.Request, loc location, t *tree.Tree, p *tree.Page,
	specs htmlpage.Operations, evaluated *document.Document) {
	md, err := s.markdownOf(loc, t, p, specs, evaluated)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	_, _ = io.WriteString(w, md)
}

// markdownOf is a page's Markdown as serveMarkdown answers it.
func (s *siteView) markdownOf(loc location, t *tree.Tree, p *tree.Page, specs htmlpage.Operations, evaluated *document.Document) (string, error) {
	body, err := s.h.r.PlacedPageMarkdown(s.ctx, t, p)
	if evaluated != nil {
		body = document.Markdown(evaluated)
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("# %s\n\n%s", p.Title, htmlpage.MarkdownWith(body, s.markdownLinks(loc, t), specs)), nil
}

func (s *siteView) pageView(loc location, content *graph.Content, p *tree.Page, doc *document.Document, specs htmlpage.Operations) pageView {
	links := siteLinks{s: s, loc: loc, t: content.Tree}
	rendered := htmlpage.DocumentWith(doc, links, specs)
	url := s.pageURL(loc, content.Tree, p)
	v := pageView{
		Title: p.Title, Description: p.Description, Canonical: s.origin + url,
		NoIndex: s.visit.Site.Visibility != "public" || p.NoIndex,
		Body:    rendered.Body, Outline: outline(rendered.Headings), Updated: p.UpdatedAt,
		Markdown: strings.TrimSuffix(url, "/") + ".md",
		Feedback: strings.TrimSuffix(url, "/") + "/" + feedbackSegment,
		Clicks:   strings.TrimSuffix(url, "/") + "/" + clickSegment, Site: s.base + "/",
	}
	if loc.PagePath == "" || url == s.siteSpaceURL(loc.Section, loc.SiteSpace) {
		v.Markdown = s.markdownURL(loc, content.Tree, p)
	}
	s.frame(&v, loc, content.Tree, p.ID)
	v.Prev, v.Next = s.neighbours(loc, content.Tree, p)
	return v
}

// frame fills what every page of a site space shows around its content: the site's look, section
// tabs, variants, the sidebar (current: the page read, "" for none) and the search box.
func (s *siteView) frame(v *pageView, loc location, t *tree.Tree, current string) {
	s.frameLook(v, siteLinks{s: s, loc: loc, t: t})
	for _, sec := range s.visit.Sections {
		v.Sections = append(v.Sections, link{Title: sec.Title, URL: s.sectionURL(sec), Current: sec.ID == sites.SectionID(loc.Section)})
	}
	if variants := listed(s.visit.SiteSpacesOf(sites.SectionID(loc.Section))); len(variants) > 1 {
		for _, ss := range variants {
			v.Variants = append(v.Variants, link{Title: siteSpaceTitle(ss), URL: s.siteSpaceURL(loc.Section, ss), Current: ss.ID == loc.SiteSpace.ID})
		}
	}
	v.Nav = s.nav(loc, t, "", current)
	v.SearchURL = s.siteSpaceURL(loc.Section, loc.SiteSpace) + searchSegment
	v.MaxQuery = search.MaxQueryLength
}

// frameLook sets the page's look with its links resolved in the site space read, the site's
// title, and where the title leads.
func (s *siteView) frameLook(v *pageView, links siteLinks) {
	v.Look = s.lookOf(links.loc.SiteSpace).resolved(links)
	v.SiteTitle, v.Home = v.Look.Title, s.base+"/"
	if home, _ := links.ref(v.Look.home); home != "" {
		v.Home = home
	}
}

// listed keeps the site spaces the site's navigation shows: not hidden ones (decision 178).
func listed(siteSpaces []*ent.SiteSpace) []*ent.SiteSpace {
	return slices.DeleteFunc(slices.Clone(siteSpaces), func(ss *ent.SiteSpace) bool { return ss.Hidden })
}

// siteSpaceTitle is a site space's title on the site: the one it was given, else its space's.
func siteSpaceTitle(ss *ent.SiteSpace) string {
	if ss.Title != nil {
		return *ss.Title
	}
	if sp := ss.Edges.Space; sp != nil && sp.Title != "" {
		return sp.Title
	}
	return ss.Path
}

// outline keeps the headings of levels 2 and 3: the page's title is level 1.
func outline(hs []htmlpage.Heading) []htmlpage.Heading {
	var out []htmlpage.Heading
	for _, h := range hs {
		if h.Level == 2 || h.Level == 3 {
			out = append(out, h)
		}
	}
	return out
}

// nav is the sidebar below parent: the pages that are not hidden, opened down to the current
// page (the children of the top level, of groups, and of the current page and its ancestors),
// so a space of thousands of pages makes a sidebar of tens.
func (s *siteView) nav(loc location, t *tree.Tree, parent, current string) []navItem {
	var items []navItem
	for _, p := range t.Children(parent) {
		if p.Hidden {
			continue
		}
		it := navItem{Title: p.Title, URL: s.pageURL(loc, t, p), Current: p.ID == current, Group: p.Type == tree.TypeGroup}
		if it.Group || t.IsUnder(current, p.ID) {
			it.Children = s.nav(loc, t, p.ID, current)
		}
		items = append(items, it)
	}
	return items
}

// neighbours are the previous and next documents in reading order.
func (s *siteView) neighbours(loc location, t *tree.Tree, p *tree.Page) (prev, next *link) {
	if !inReadingOrder(p) {
		return nil, nil
	}
	if q := neighbour(t, p.ID, t.Prev); q != nil {
		prev = &link{Title: q.Title, URL: s.pageURL(loc, t, q)}
	}
	if q := neighbour(t, p.ID, t.Next); q != nil {
		next = &link{Title: q.Title, URL: s.pageURL(loc, t, q)}
	}
	return prev, next
}

// neighbour is the first page in reading order from page id on, in the direction step takes
// through the tree, nil for none.
func neighbour(t *tree.Tree, id string, step func(string) *tree.Page) *tree.Page {
	for q, seen := step(id), 0; q != nil && seen <= t.PageCount(); q, seen = step(q.ID), seen+1 {
		if inReadingOrder(q) {
			return q
		}
	}
	return nil
}

// inReadingOrder says whether a page is one that previous and next lead to: a document not
// hidden from the navigation.
func inReadingOrder(p *tree.Page) bool { return p.Type == tree.TypeDocument && !p.Hidden }

// siteLinks gives htmlpage the site's URLs of the pages and files of one site space.
type siteLinks struct {
	s   *siteView
	loc location
	t   *tree.Tree
	// markdown gives, for the Markdown readers receive, the pages' Markdown and the files at
	// readerURLs: an agent reads Markdown on, and may keep no cookies.
	markdown bool
}

// markdownLinks are the links of the Markdown of a page of the site space at loc showing t.
func (s *siteView) markdownLinks(loc location, t *tree.Tree) siteLinks {
	return siteLinks{s: s, loc: loc, t: t, markdown: true}
}

func (l siteLinks) Page(id string) string {
	p := l.t.Page(id)
	switch {
	case p == nil:
		return ""
	case l.markdown:
		return l.s.readerURL(l.s.markdownURL(l.loc, l.t, p))
	}
	return l.s.pageURL(l.loc, l.t, p)
}

// ref is the URL of a content reference (customization's links), and whether it leaves the
// site: a URL, a page or an anchor of the site space read, or a site space the reader sees;
// "" for others (a page of another space, users, collections, files…).
func (l siteLinks) ref(to map[string]any) (url string, external bool) {
	switch text(to, "kind") {
	case "url":
		url = webURL(text(to, "url"))
		return url, url != ""
	case "page", "anchor":
		if space := text(to, "space"); space != "" && space != l.loc.SiteSpace.SpaceID {
			return "", false
		}
		url = l.Page(text(to, "page"))
		if anchor := text(to, "anchor"); url != "" && anchor != "" {
			url += "#" + (&neturl.URL{Fragment: anchor}).EscapedFragment()
		}
		return url, false
	case "space":
		for _, ss := range l.s.visit.SiteSpaces {
			if ss.SpaceID == text(to, "space") {
				return l.s.siteSpaceURL(l.s.sectionOf(ss), ss), false
			}
		}
	}
	return "", false
}

// PageTitle is the title of a page of the site space read, for content references.
func (l siteLinks) PageTitle(id string) string {
	if p := l.t.Page(id); p != nil {
		return p.Title
	}
	return ""
}

// FileName is the name of a file of the site space read, for file blocks.
func (l siteLinks) FileName(id string) string {
	if f := l.t.File(id); f != nil {
		return f.Name
	}
	return ""
}

func (l siteLinks) File(id string) string {
	if l.t.File(id) == nil {
		return ""
	}
	path := l.s.base + "/~files/" + l.loc.SiteSpace.ID + "/" + id
	if l.markdown {
		return l.s.readerURL(path)
	}
	return path
}

// writeHTML writes a page with the headers every page carries.
func (s *siteView) writeHTML(w http.ResponseWriter, v pageView) {
	s.writeHeaders(w, v.Look, v.NoIndex)
	s.render(w, v)
}

// writeHeaders sets the headers every page with this look carries.
func (s *siteView) writeHeaders(w http.ResponseWriter, l *look, noIndex bool) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", l.csp)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "strict-origin-when-cross-origin")
	if noIndex {
		w.Header().Set("X-Robots-Tag", "noindex")
	}
}

// render writes a page: its body between the two parts of the page template, as it is (through
// the template, text/template would copy it into a buffer of its own first). An error is a reader
// gone away or a template bug the tests catch.
func (s *siteView) render(w io.Writer, v pageView) {
	if pages.ExecuteTemplate(w, "page-start", v) != nil {
		return
	}
	if _, err := io.WriteString(w, string(v.Body)); err == nil {
		_ = pages.ExecuteTemplate(w, "page-end", v)
	}
}

// serveFile answers a file of a site space (…/~files/{siteSpaceId}/{fileId}) with a redirect to
// its signed download URL; a file that only pages hidden from the reader link to is 404.
func (s *siteView) serveFile(w http.ResponseWriter, req *http.Request, path string) {
	siteSpaceID, fileID, _ := strings.Cut(path, "/")
	ss := s.siteSpaceByID(siteSpaceID)
	if ss == nil {
		s.h.fail(w, req, errPageNotFound)
		return
	}
	content, err := s.content(s.ctx, ss.SpaceID)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	f, err := content.File(fileID)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	if hidden, err := s.hiddenFiles(content); err != nil || hidden[fileID] {
		s.h.fail(w, req, firstErr(err, errPageNotFound))
		return
	}
	url, err := s.h.r.FileDownloadURL(s.ctx, content.Revision.ID, f)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	http.Redirect(w, req, url, http.StatusFound)
}

// sitemapURL is one <url> of sitemap.xml.
type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod"`
}

// eachPage calls fn for every page readers can navigate to, site space by site space (hidden
// site spaces, like hidden pages, are left out).
func (s *siteView) eachPage(fn func(loc location, t *tree.Tree, p *tree.Page)) {
	for _, ss := range listed(s.visit.SiteSpaces) {
		content, err := s.content(s.ctx, ss.SpaceID)
		if err != nil {
			continue // a space without content yet has no pages
		}
		loc := location{Section: s.sectionOf(ss), SiteSpace: ss}
		content.Tree.Walk(func(p *tree.Page, _ string) {
			if p.Type == tree.TypeDocument && !p.Hidden {
				fn(loc, content.Tree, p)
			}
		})
	}
}

func (s *siteView) sectionOf(ss *ent.SiteSpace) *ent.SiteSection {
	for _, sec := range s.visit.Sections {
		if ss.SectionID != nil && *ss.SectionID == sec.ID {
			return sec
		}
	}
	return nil
}

// serveSitemap answers sitemap.xml: every page, with its last change.
func (s *siteView) serveSitemap(w http.ResponseWriter) {
	var urls []sitemapURL
	s.eachPage(func(loc location, t *tree.Tree, p *tree.Page) {
		if !p.NoIndex {
			urls = append(urls, sitemapURL{Loc: s.origin + s.pageURL(loc, t, p), LastMod: p.UpdatedAt.UTC().Format(time.RFC3339)})
		}
	})
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	fmt.Fprint(w, xml.Header)
	_ = xml.NewEncoder(w).Encode(struct {
		XMLName xml.Name     `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
		URLs    []sitemapURL `xml:"url"`
	}{URLs: urls})
}

// serveLLMs answers llms.txt (llmstxt.org): the site's title, then its pages with links to their
// Markdown, at readerURLs as the pages' Markdown links them.
func (s *siteView) serveLLMs(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "# %s\n\n", s.visit.Site.Title)
	s.eachPage(func(loc location, t *tree.Tree, p *tree.Page) {
		line := fmt.Sprintf("- [%s](%s)", markdown.EscapeLinkText(p.Title), s.markdownLinks(loc, t).Page(p.ID))
		if p.Description != "" {
			line += ": " + p.Description
		}
		fmt.Fprintln(w, line)
	})
}
