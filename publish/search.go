package publish

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/apperr"
)

// searchSegment is the path, inside a site space, of its search results page. "~" is in no page
// slug, so it names no page.
const searchSegment = "~search"

// searchResults is how many pages a results page lists, and suggestions how many search as
// you type shows.
const (
	searchResults = 20
	suggestions   = 8
)

// jsonSuffix ends the path of the search that answers JSON (~search.json), for search as you type.
const jsonSuffix = ".json"

// serveSearch answers a site space's search results page (?q=), a page that works without script.
func (s *siteView) serveSearch(w http.ResponseWriter, req *http.Request, loc location) {
	content, err := s.content(s.ctx, loc.SiteSpace.SpaceID)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	q := strings.TrimSpace(req.URL.Query().Get("q"))
	v := pageView{Title: "Search", NoIndex: true, Search: &searchView{Query: q}}
	s.frame(&v, loc, content.Tree, "")
	v.Canonical = s.origin + v.SearchURL
	if q != "" {
		if err := s.search(v.Search, loc, content, searchResults); err != nil {
			s.h.fail(w, req, err)
			return
		}
		s.recordSearch(req, q, v.Search)
	}
	s.writeHTML(w, v)
}

// serveSuggestions answers search as you type (…/~search.json?q=): the first results of the
// query as JSON, {"query", "results": [{"title", "url", "ancestors", "sections": [{"title",
// "url", "body"}]}]}, read as the results page reads them. A query search refuses is 400.
func (s *siteView) serveSuggestions(w http.ResponseWriter, req *http.Request, loc location) {
	content, err := s.content(s.ctx, loc.SiteSpace.SpaceID)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	v := &searchView{Query: strings.TrimSpace(req.URL.Query().Get("q")), Results: []searchResult{}}
	if v.Query != "" {
		if err := s.search(v, loc, content, suggestions); err != nil {
			s.h.fail(w, req, err)
			return
		}
	}
	if v.Problem != "" {
		writeJSONError(w, http.StatusBadRequest, v.Problem)
		return
	}
	s.setCacheControl(w)
	writeJSON(w, http.StatusOK, map[string]any{"query": v.Query, "results": v.Results})
}

// search fills the first results of a query over the site space's pages (content as the reader
// sees it); the pages they do not see are left out by the search itself, so it finds as many
// results as the matches allow.
func (s *siteView) search(v *searchView, loc location, content *graph.Content, limit int) error {
	t := content.Tree
	conn, err := s.h.r.SearchSpaceWithout(s.ctx, loc.SiteSpace.Edges.Space, v.Query, &limit, nil, s.unsearched(content))
	if e := apperr.As(err); e != nil && e.Kind == apperr.Invalid {
		v.Problem = e.Message
		return nil
	}
	if err != nil {
		return err
	}
	for _, edge := range conn.Edges {
		hit := edge.Node
		p := t.Page(hit.ID)
		if p == nil || p.Hidden {
			continue
		}
		r := searchResult{link: link{Title: hit.Title, URL: s.pageURL(loc, t, p)}, Ancestors: strings.Join(hit.Ancestors, " › ")}
		for _, sec := range hit.Sections {
			_, anchor, _ := strings.Cut(sec.Path, "#")
			url := r.URL
			if anchor != "" {
				url += "#" + anchor
			}
			r.Sections = append(r.Sections, searchSection{link: link{Title: sec.Title, URL: url}, Body: sec.Body})
		}
		v.Results = append(v.Results, r)
	}
	return nil
}

// wantsJSON reports whether a request is search as you type's or the MCP server's, which
// answer errors as JSON too.
func wantsJSON(req *http.Request) bool {
	return strings.HasSuffix(req.URL.Path, searchSegment+jsonSuffix) || strings.HasSuffix(req.URL.Path, "/"+clickSegment) || isMCP(req)
}

// writeJSON answers a value as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeJSONError answers an error as the API does: {"error":{"code","message"}}.
func writeJSONError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": status, "message": message}})
}
