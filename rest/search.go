package rest

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/search"
)

// SearchPageResult is the wire shape of a page a search found (reference SearchPageResult).
type SearchPageResult struct {
	ID          string                `json:"id"`
	Title       string                `json:"title"`
	Description string                `json:"description"`
	Path        string                `json:"path"`
	Score       float64               `json:"score"`
	Rank        int                   `json:"rank"`
	ResultType  string                `json:"resultType"`
	Sections    []SearchSectionResult `json:"sections"`
	Ancestors   []searchAncestor      `json:"ancestors"`
	URLs        appURL                `json:"urls"`
}

// SearchSectionResult is the wire shape of a section of a found page (reference SearchSectionResult).
type SearchSectionResult struct {
	ID         string  `json:"id"`
	Title      string  `json:"title"`
	Path       string  `json:"path"`
	Score      float64 `json:"score"`
	ResultType string  `json:"resultType"`
	Body       string  `json:"body"`
	URLs       appURL  `json:"urls"`
}

type searchAncestor struct {
	Title string `json:"title"`
}

// SearchSpaceResult is the wire shape of a space an organization search found (reference
// SearchSpaceResult).
type SearchSpaceResult struct {
	Type  string             `json:"type"`
	ID    string             `json:"id"`
	Title string             `json:"title"`
	Score float64            `json:"score"`
	Pages []SearchPageResult `json:"pages"`
}

// searchSpace answers GET /v1/spaces/{spaceId}/search: `query` (required, at most 512
// characters), `page`, `limit`.
func (a *api) searchSpace(w http.ResponseWriter, r *http.Request) {
	var space *ent.Space
	conv := func(_ context.Context, p *search.PageResult) (SearchPageResult, error) {
		return a.searchPageResult(space, p), nil
	}
	serveList(w, r, conv, func(ctx context.Context, limit *int, page *string) (model.Connection[*search.PageResult], error) {
		s, err := a.r.Query().Space(ctx, chi.URLParam(r, "spaceId"), nil)
		if err != nil {
			return nil, err
		}
		space = s
		return a.r.Space().Search(ctx, s, searchText(r), limit, page)
	})
}

// searchOrganization answers GET /v1/orgs/{organizationId}/search: `query` (required, at most
// 512 characters), `page`, `limit`.
func (a *api) searchOrganization(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.searchSpaceResult, func(ctx context.Context, limit *int, page *string) (model.Connection[*search.SpaceResult], error) {
		o, err := a.r.Query().Organization(ctx, chi.URLParam(r, "organizationId"))
		if err != nil {
			return nil, err
		}
		return a.r.Organization().Search(ctx, o, searchText(r), limit, page)
	})
}

// searchText is the `query` parameter; absent, it is "", which the resolver refuses.
func searchText(r *http.Request) string { return r.URL.Query().Get("query") }

func (a *api) searchSpaceResult(_ context.Context, s *search.SpaceResult) (SearchSpaceResult, error) {
	w := SearchSpaceResult{Type: "space", ID: s.Space.ID, Title: s.Space.Title, Score: s.Score,
		Pages: make([]SearchPageResult, len(s.Pages))}
	for i, p := range s.Pages {
		w.Pages[i] = a.searchPageResult(s.Space, p)
	}
	return w, nil
}

// fragment escapes "#anchor" for a URL ("" stays "").
func fragment(f string) string {
	if f == "" {
		return ""
	}
	return "#" + (&url.URL{Fragment: strings.TrimPrefix(f, "#")}).EscapedFragment()
}

// searchPageResult converts a found page of space; its URLs are the page's and its sections'
// places in the app.
func (a *api) searchPageResult(space *ent.Space, p *search.PageResult) SearchPageResult {
	pageURL := a.url("/o/" + space.OrganizationID + "/s/" + space.ID + "/" + escapePath(p.Path))
	w := SearchPageResult{ID: p.ID, Title: p.Title, Description: p.Description, Path: p.Path, Score: p.Score,
		Rank: p.Rank, ResultType: p.ResultType, Sections: make([]SearchSectionResult, len(p.Sections)),
		Ancestors: make([]searchAncestor, len(p.Ancestors)), URLs: appURL{App: pageURL}}
	for i, s := range p.Sections {
		w.Sections[i] = SearchSectionResult{ID: s.ID, Title: s.Title, Path: s.Path, Score: s.Score,
			ResultType: s.ResultType, Body: s.Body, URLs: appURL{App: pageURL + fragment(strings.TrimPrefix(s.Path, p.Path))}}
	}
	for i, t := range p.Ancestors {
		w.Ancestors[i] = searchAncestor{Title: t}
	}
	return w
}
