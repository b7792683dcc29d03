package search

import (
	"context"
	"math"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/page"
)

// Searches of the spaces' current content as a viewer makes them: one space's pages, or an
// organization's spaces with their best pages, only ever among live spaces the viewer may read
// (the Space policy filters them). Results are ranked; a page token holds how many results
// earlier pages showed.

// Result types of search results (the reference's resultType).
const (
	ResultTypePage    = "page"    // the page matched on its own title and description
	ResultTypeSection = "section" // the page matched on the text of a section
)

// Service searches the index of one server as the viewer of a context may.
type Service struct {
	Client *ent.Client
	Index  Index
	// ActiveTrees returns the tree of each space's current content, by space id (none for a
	// space without content).
	ActiveTrees func(ctx context.Context, spaces []*ent.Space) (map[string]*tree.Tree, error)
}

// PageResult is a page that a search matched, with its best matching sections.
type PageResult struct {
	ID          string
	Title       string
	Description string // "" when the page has none
	Path        string
	Score       float64 // its best section's score
	Rank        int     // its position among all the results of the search, 1 first
	ResultType  string  // ResultTypePage or ResultTypeSection
	Sections    []*SectionResult
	Ancestors   []string // the titles of the pages above it, from the top level down
}

// SectionResult is a section of a page that a search matched: the text under one of its
// headings, or before the first.
type SectionResult struct {
	ID         string // the page's id, then # and the heading's anchor
	Title      string // the heading; the page's title for the text before the first heading
	Path       string // the page's path, then # and the heading's anchor
	Body       string // an excerpt of the section's text around the first match
	Score      float64
	ResultType string // its page's
}

// SpaceResult is a space that an organization search matched, with its best pages.
type SpaceResult struct {
	Space *ent.Space
	Score float64 // its best page's score
	Pages []*PageResult
}

// Ranked is a search result with its position among all the results (1 first), from which the
// next page continues.
type Ranked[T any] struct {
	Position int
	ID       string
	Node     T
}

// Cursor is where the page of results after r starts.
func (r Ranked[T]) Cursor() page.Cursor { return page.Cursor{Key: r.Position, ID: r.ID} }

// NewQuery checks a search's query and pagination and returns the index's query (without its
// spaces) and the page size. Returns INVALID for a bad query, page size or page token.
func NewQuery(query string, first *int, after *string) (Query, int, error) {
	terms, err := ParseQuery(query)
	if err != nil {
		return Query{}, 0, err
	}
	args, err := page.NewArgs(first, after)
	if err != nil {
		return Query{}, 0, err
	}
	offset, err := offsetOf(args.After)
	return Query{Terms: terms, Offset: offset, Limit: args.Limit + 1}, args.Limit, err
}

// maxOffset bounds the position a page token may hold.
const maxOffset = 1 << 30

// offsetOf reads a search's page token: the position of the last result shown.
// Returns INVALID when the token is not one of a search.
func offsetOf(after *page.Cursor) (int, error) {
	if after == nil {
		return 0, nil
	}
	n, ok := after.Key.(float64)
	if !ok || n < 0 || n > maxOffset || n != math.Trunc(n) {
		return 0, apperr.Invalidf("page: the page token does not belong to this list")
	}
	return int(n), nil
}

// SpacePages returns the pages of a space's current content that match q, best first, with the
// total count; a deleted space has none.
func (svc *Service) SpacePages(ctx context.Context, s *ent.Space, q Query) ([]Ranked[*PageResult], int, error) {
	if s.DeletedAt != nil {
		return nil, 0, nil
	}
	q.Spaces = []string{s.ID}
	hits, total, err := svc.Index.Pages(ctx, svc.Client, q)
	if err != nil {
		return nil, 0, err
	}
	trees, err := svc.ActiveTrees(ctx, []*ent.Space{s})
	if err != nil {
		return nil, 0, err
	}
	var rows []Ranked[*PageResult]
	for _, h := range hits {
		if p := pageResult(h, trees[s.ID], q.Terms); p != nil {
			rows = append(rows, Ranked[*PageResult]{Position: h.Rank, ID: h.PageID, Node: p})
		}
	}
	return rows, total, nil
}

// OrganizationSpaces returns the spaces of an organization that hold pages matching q, the space
// with the best page first, each with its best pages, and the total count. Only the live spaces
// the viewer may read are searched.
func (svc *Service) OrganizationSpaces(ctx context.Context, orgID string, q Query) ([]Ranked[*SpaceResult], int, error) {
	var err error
	if q.Spaces, err = svc.readableSpacesHolding(ctx, orgID, q.Terms); err != nil {
		return nil, 0, err
	}
	hits, total, err := svc.Index.Spaces(ctx, svc.Client, q)
	if err != nil {
		return nil, 0, err
	}
	rows, err := svc.spaceResults(ctx, hits, q)
	return rows, total, err
}

// readableSpacesHolding lists the live spaces of an organization that the viewer may read (the
// Space policy filters them) and whose content holds a match of terms: the scope of a search of
// the whole organization, as long as the matches, however many spaces the organization holds.
func (svc *Service) readableSpacesHolding(ctx context.Context, orgID string, terms Terms) ([]string, error) {
	return svc.Client.Space.Query().Where(space.DeletedAtIsNil(), predicate.Space(svc.Index.Holding(orgID, terms))).IDs(ctx)
}

// spaceResults makes the results of matching spaces, in order, with their positions among all
// results (a space deleted since the index answered is left out).
func (svc *Service) spaceResults(ctx context.Context, hits []Space, q Query) ([]Ranked[*SpaceResult], error) {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.SpaceID
	}
	spaces, err := svc.Client.Space.Query().Where(space.IDIn(ids...), space.DeletedAtIsNil()).All(ctx)
	if err != nil {
		return nil, err
	}
	trees, err := svc.ActiveTrees(ctx, spaces)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*ent.Space, len(spaces))
	for _, s := range spaces {
		byID[s.ID] = s
	}
	var rows []Ranked[*SpaceResult]
	for i, h := range hits {
		s := byID[h.SpaceID]
		if s == nil {
			continue
		}
		node := &SpaceResult{Space: s, Score: score(h.Score)}
		for _, hp := range h.Pages {
			if p := pageResult(hp, trees[s.ID], q.Terms); p != nil {
				node.Pages = append(node.Pages, p)
			}
		}
		rows = append(rows, Ranked[*SpaceResult]{Position: q.Offset + i + 1, ID: s.ID, Node: node})
	}
	return rows, nil
}

// pageResult makes the result of a matching page from its place in the space's current tree; nil
// when the tree does not hold it (the index answered after a change the tree read missed).
func pageResult(h Page, t *tree.Tree, terms Terms) *PageResult {
	if t == nil {
		return nil
	}
	p := t.Page(h.PageID)
	if p == nil {
		return nil
	}
	resultType := ResultTypeSection
	if terms.AllIn(p.Title + " " + p.Description) {
		resultType = ResultTypePage
	}
	path := t.Path(p.ID)
	out := &PageResult{ID: p.ID, Title: p.Title, Description: p.Description, Path: path,
		Score: score(h.Score), Rank: h.Rank, ResultType: resultType, Ancestors: ancestorTitles(t, p)}
	for _, sec := range h.Sections {
		s := &SectionResult{ID: p.ID, Title: p.Title, Path: path, Body: sec.Excerpt,
			Score: score(sec.Score), ResultType: resultType}
		if sec.Anchor != "" {
			s.ID, s.Title, s.Path = p.ID+"#"+sec.Anchor, sec.Heading, path+"#"+sec.Anchor
		}
		out.Sections = append(out.Sections, s)
	}
	return out
}

// ancestorTitles are the titles of the pages above p, from the top level down.
func ancestorTitles(t *tree.Tree, p *tree.Page) []string {
	titles := []string{}
	for parent := t.Page(p.Parent); parent != nil && len(titles) < t.PageCount(); parent = t.Page(parent.Parent) {
		titles = append([]string{parent.Title}, titles...)
	}
	return titles
}

// score is a relevance score as the reference bounds it: at least 0.
func score(s float64) float64 { return max(0, s) }
