package publish

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/sites"
)

// markdownType is the media type of pages' Markdown.
const markdownType = "text/markdown"

// maxPageURL bounds the URL get_page takes: no page of a site has a longer one.
const maxPageURL = 8 << 10

// searchInput is the search tool's argument.
type searchInput struct {
	Query string `json:"query" jsonschema:"the words to look for"`
}

// searchOutput is the search tool's answer: the pages found, best first, at absolute URLs.
type searchOutput struct {
	Query   string         `json:"query"`
	Results []searchResult `json:"results"`
}

// search runs the site's search over every site space the reader sees (each space's results
// ranked, taken in turns: the first of each, then the second…), as the results page reads
// them, and answers the first searchResults at absolute URLs. Fails with the search's own
// message for a query it refuses.
func (m *mcpSite) search(_ context.Context, _ *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, searchOutput, error) {
	s := m.s
	out := searchOutput{Query: strings.TrimSpace(in.Query), Results: []searchResult{}}
	if out.Query == "" {
		return nil, out, apperr.Invalidf("query is empty")
	}
	var ranked [][]searchResult
	for _, ss := range listed(s.visit.SiteSpaces) {
		content, err := s.content(s.ctx, ss.SpaceID)
		if apperr.IsNotFound(err) {
			continue // a space without content yet has no pages
		}
		if err != nil {
			return nil, out, err
		}
		v := &searchView{Query: out.Query}
		if err := s.search(v, location{Section: s.sectionOf(ss), SiteSpace: ss}, content, searchResults); err != nil {
			return nil, out, err
		}
		if v.Problem != "" {
			return nil, out, apperr.Invalidf("%s", v.Problem)
		}
		ranked = append(ranked, v.Results)
	}
	for i := 0; len(out.Results) < searchResults; i++ {
		more := false
		for _, results := range ranked {
			if i < len(results) && len(out.Results) < searchResults {
				out.Results = append(out.Results, s.absoluteResult(results[i]))
				more = true
			}
		}
		if !more {
			break
		}
	}
	return nil, out, nil
}

// absoluteResult is a search result with absolute URLs.
func (s *siteView) absoluteResult(r searchResult) searchResult {
	r.URL = s.origin + r.URL
	for i := range r.Sections {
		r.Sections[i].URL = s.origin + r.Sections[i].URL
	}
	return r
}

// getPageInput is the get_page tool's argument.
type getPageInput struct {
	URL string `json:"url" jsonschema:"the page's URL on the site, absolute or as a path of the site"`
}

// getPage answers a page's Markdown, as its .md URL answers it. Fails with NOT_FOUND's message
// when the URL names no page the reader sees.
func (m *mcpSite) getPage(_ context.Context, _ *mcp.CallToolRequest, in getPageInput) (*mcp.CallToolResult, any, error) {
	md, err := m.s.markdownAt(in.URL)
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: md}}}, nil, nil
}

// markdownAt is the Markdown of the page at a URL of the site (absolute, or a path of the
// site). Returns NOT_FOUND for a URL of another site or host, and
// for one that names no page the reader sees.
func (s *siteView) markdownAt(raw string) (string, error) {
	path, ok := s.sitePath(raw)
	if !ok {
		return "", errPageNotFound
	}
	loc, ok := s.locate(strings.TrimSuffix(path, ".md"))
	if !ok {
		return "", errPageNotFound
	}
	content, err := s.content(s.ctx, loc.SiteSpace.SpaceID)
	if err != nil {
		return "", err
	}
	p := s.findPage(loc, content.Tree)
	if p == nil {
		return "", errPageNotFound
	}
	doc, specs, decided, err := s.readerDocument(content, p)
	if err != nil {
		return "", err
	}
	return s.markdownOf(loc, content.Tree, p, specs, evaluated(doc, decided))
}

// sitePath is the path inside the site of a URL of it: an absolute URL at the site's origin
// under its base, or a path (under the base, or from the site's root); false for anything else.
func (s *siteView) sitePath(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || len(raw) > maxPageURL || u.Opaque != "" || u.User != nil {
		return "", false
	}
	path := u.Path
	if u.Scheme != "" || u.Host != "" {
		if !strings.EqualFold(u.Scheme+"://"+u.Host, s.origin) {
			return "", false
		}
		if path == s.base {
			return "", true
		}
		rest, ok := strings.CutPrefix(path, s.base+"/")
		return rest, ok
	}
	if rest, ok := strings.CutPrefix(path, s.base+"/"); ok && s.base != "" {
		path = rest
	}
	return strings.Trim(path, "/"), true
}

// siteMap is the list_pages tool's answer: the site's sections, their variants and pages.
type siteMap struct {
	Title    string       `json:"title"`
	URL      string       `json:"url"`
	Sections []sectionMap `json:"sections"`
}

// sectionMap is a section of the site (the site itself for a site without sections).
type sectionMap struct {
	Title    string       `json:"title"`
	URL      string       `json:"url"`
	Variants []variantMap `json:"variants"`
}

// variantMap is a site space of a section: its title, URL and pages.
type variantMap struct {
	Title   string    `json:"title"`
	URL     string    `json:"url"`
	Default bool      `json:"default"`
	Pages   []pageMap `json:"pages"`
}

// pageMap is a page readers can navigate to; a group has no URL, only pages.
type pageMap struct {
	Title       string    `json:"title"`
	URL         string    `json:"url,omitempty"`
	Description string    `json:"description,omitempty"`
	Pages       []pageMap `json:"pages,omitempty"`
}

// listPages answers the site's structure as the reader sees it, with absolute URLs: the
// sections (or the site, without sections), their site spaces but hidden ones, and their pages
// but hidden ones, as JSON.
func (m *mcpSite) listPages(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	s := m.s
	out := siteMap{Title: s.visit.Site.Title, URL: s.origin + s.base + "/", Sections: []sectionMap{}}
	sections := s.visit.Sections
	if len(sections) == 0 {
		sections = append(sections, nil)
	}
	for _, sec := range sections {
		sm := sectionMap{Title: out.Title, URL: s.origin + s.sectionURL(sec), Variants: []variantMap{}}
		if sec != nil {
			sm.Title = sec.Title
		}
		for _, ss := range listed(s.visit.SiteSpacesOf(sites.SectionID(sec))) {
			vm := variantMap{Title: siteSpaceTitle(ss), URL: s.origin + s.siteSpaceURL(sec, ss), Default: ss.IsDefault, Pages: []pageMap{}}
			content, err := s.content(s.ctx, ss.SpaceID)
			if err != nil && !apperr.IsNotFound(err) {
				return nil, nil, err
			}
			if content != nil {
				vm.Pages = s.pageMaps(location{Section: sec, SiteSpace: ss}, content, "")
			}
			sm.Variants = append(sm.Variants, vm)
		}
		out.Sections = append(out.Sections, sm)
	}
	text, err := json.Marshal(out)
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, StructuredContent: out}, nil, nil
}

// pageMaps are the pages below parent readers can navigate to, as the sidebar lists them.
func (s *siteView) pageMaps(loc location, content *graph.Content, parent string) []pageMap {
	t := content.Tree
	var out []pageMap
	for _, p := range t.Children(parent) {
		if p.Hidden {
			continue
		}
		pm := pageMap{Title: p.Title, Description: p.Description, Pages: s.pageMaps(loc, content, p.ID)}
		if p.Type != tree.TypeGroup {
			pm.URL = s.origin + s.pageURL(loc, t, p)
		}
		out = append(out, pm)
	}
	return out
}

// listResources answers resources/list with the pages readers can navigate to, as llms.txt
// lists them, at their absolute URLs; other methods pass to the server.
func (m *mcpSite) listResources(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "resources/list" {
			return next(ctx, method, req)
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}}
		m.s.eachPage(func(loc location, t *tree.Tree, p *tree.Page) {
			res.Resources = append(res.Resources, &mcp.Resource{URI: m.s.origin + m.s.pageURL(loc, t, p), Name: p.Title,
				Title: p.Title, Description: p.Description, MIMEType: markdownType})
		})
		return res, nil
	}
}

// readResource answers resources/read of a page: its Markdown, as get_page reads it.
func (m *mcpSite) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	md, err := m.s.markdownAt(req.Params.URI)
	if apperr.IsNotFound(err) {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	if err != nil {
		return nil, toolError(ctx, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: markdownType, Text: md}}}, nil
}
