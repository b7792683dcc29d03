package publish

import (
	"net/http"
	"strings"

	"github.com/binderyhq/bindery/graph/apperr"
	"github.com/binderyhq/bindery/graph/content/tree"
)

// searchSegment is the path, inside a site space, of its search results page. "~" is in no page
// slug, so it names no page.
const searchSegment = "~search"

// searchResults is how many pages a results page lists.
const searchResults = 20

// serveSearch answers a site space's search results page (?q=), a page that works without script.
func (s *siteView) serveSearch(w http.ResponseWriter, req *http.Request, loc location) {
	content, err := s.h.r.SpaceContent(s.ctx, loc.siteSpace.SpaceID, nil)
	if err != nil {
		s.h.fail(w, err)
		return
	}
	q := strings.TrimSpace(req.URL.Query().Get("q"))
	v := pageView{Title: "Search", NoIndex: true, Search: &searchView{Query: q}}
	s.frame(&v, loc, content.Tree, "")
	v.Canonical = s.h.baseURL + v.SearchURL
	if q != "" {
		if err := s.search(v.Search, loc, content.Tree); err != nil {
			s.h.fail(w, err)
			return
		}
	}
	s.writeHTML(w, v)
}

// search fills the results of a query over the site space's pages.
func (s *siteView) search(v *searchView, loc location, t *tree.Tree) error {
	limit := searchResults
	conn, err := s.h.r.Space().Search(s.ctx, loc.siteSpace.Edges.Space, v.Query, &limit, nil)
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
