package graph

import (
	"context"
	"math"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/search"
)

// Search reads the full-text index (internal/search) of the spaces' current content: one space's
// pages, or an organization's spaces with their best pages, only ever among live spaces the
// viewer may read. Results are ranked; a page token holds how many results earlier pages showed.

// Result types of search results (the reference's resultType).
const (
	ResultTypePage    = "page"    // the page matched on its own title and description
	ResultTypeSection = "section" // the page matched on the text of a section
)

// searchSpace returns the pages of a space's current content that match query, best first.
// A deleted space has none. Returns INVALID for a bad query, page size or page token.
func (r *Resolver) searchSpace(ctx context.Context, s *ent.Space, query string, first *int, after *string) (*model.SearchPageConnection, error) {
	return r.SearchSpaceWithout(ctx, s, query, first, after, nil)
}

// SearchSpaceWithout is searchSpace leaving the pages without out of the results and their count
// (the pages a published site's reader does not see), so a page of results is as full as the
// matches allow. Returns INVALID for a bad query, page size or page token.
func (r *Resolver) SearchSpaceWithout(ctx context.Context, s *ent.Space, query string, first *int, after *string, without *search.PageSet) (*model.SearchPageConnection, error) {
	q, limit, err := searchQuery(query, first, after)
	if err != nil {
		return nil, err
	}
	q.Without = without
	if s.DeletedAt != nil {
		return &model.SearchPageConnection{PageInfo: &model.PageInfo{}}, nil
	}
	q.Spaces = []string{s.ID}
	hits, total, err := r.Search.Pages(ctx, r.Client, q)
	if err != nil {
		return nil, err
	}
	trees, err := r.content().ActiveTrees(ctx, []*ent.Space{s})
	if err != nil {
		return nil, err
	}
	var rows []ranked[*model.SearchPage]
	for _, h := range hits {
		if p := searchPage(h, trees[s.ID], q.Terms); p != nil {
			rows = append(rows, ranked[*model.SearchPage]{position: h.Rank, id: h.PageID, node: p})
		}
	}
	conn := &model.SearchPageConnection{}
	conn.Edges, conn.PageInfo, conn.TotalCount = rankedPage(ctx, rows, limit, total,
		func(c string, n *model.SearchPage) *model.SearchPageEdge {
			return &model.SearchPageEdge{Cursor: c, Node: n}
		})
	return conn, nil
}

// searchOrganization returns the spaces of an organization that hold pages matching query, the
// space with the best page first, each with its best pages. Only the live spaces the viewer may
// read are searched. Returns INVALID for a bad query, page size or page token.
func (r *Resolver) searchOrganization(ctx context.Context, o *ent.Organization, query string, first *int, after *string) (*model.SearchSpaceConnection, error) {
	q, limit, err := searchQuery(query, first, after)
	if err != nil {
		return nil, err
	}
	if q.Spaces, err = r.readableSpacesHolding(ctx, o.ID, q.Terms); err != nil {
		return nil, err
	}
	hits, total, err := r.Search.Spaces(ctx, r.Client, q)
	if err != nil {
		return nil, err
	}
	rows, err := r.searchSpaces(ctx, hits, q)
	if err != nil {
		return nil, err
	}
	conn := &model.SearchSpaceConnection{}
	conn.Edges, conn.PageInfo, conn.TotalCount = rankedPage(ctx, rows, limit, total,
		func(c string, n *model.SearchSpace) *model.SearchSpaceEdge {
			return &model.SearchSpaceEdge{Cursor: c, Node: n}
		})
	return conn, nil
}

// searchSpaces makes the results of matching spaces, in order, with their positions among all
// results (a space deleted since the index answered is left out).
func (r *Resolver) searchSpaces(ctx context.Context, hits []search.Space, q search.Query) ([]ranked[*model.SearchSpace], error) {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.SpaceID
	}
	spaces, err := r.Client.Space.Query().Where(space.IDIn(ids...), space.DeletedAtIsNil()).All(ctx)
	if err != nil {
		return nil, err
	}
	trees, err := r.content().ActiveTrees(ctx, spaces)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*ent.Space, len(spaces))
	for _, s := range spaces {
		byID[s.ID] = s
	}
	var rows []ranked[*model.SearchSpace]
	for i, h := range hits {
		s := byID[h.SpaceID]
		if s == nil {
			continue
		}
		node := &model.SearchSpace{Space: s, Score: score(h.Score)}
		for _, hp := range h.Pages {
			if p := searchPage(hp, trees[s.ID], q.Terms); p != nil {
				node.Pages = append(node.Pages, p)
			}
		}
		rows = append(rows, ranked[*model.SearchSpace]{position: q.Offset + i + 1, id: s.ID, node: node})
	}
	return rows, nil
}

// searchQuery checks a search's query and pagination and returns the index's query (without
// its spaces) and the page size.
func searchQuery(query string, first *int, after *string) (search.Query, int, error) {
	terms, err := search.ParseQuery(query)
	if err != nil {
		return search.Query{}, 0, err
	}
	args, err := page.NewArgs(first, after)
	if err != nil {
		return search.Query{}, 0, err
	}
	offset, err := searchOffset(args.After)
	return search.Query{Terms: terms, Offset: offset, Limit: args.Limit + 1}, args.Limit, err
}

// maxSearchOffset bounds the position a page token may hold.
const maxSearchOffset = 1 << 30

// searchOffset reads a search's page token: the position of the last result shown.
// Returns INVALID when the token is not one of a search.
func searchOffset(after *page.Cursor) (int, error) {
	if after == nil {
		return 0, nil
	}
	n, ok := after.Key.(float64)
	if !ok || n < 0 || n > maxSearchOffset || n != math.Trunc(n) {
		return 0, apperr.Invalidf("page: the page token does not belong to this list")
	}
	return int(n), nil
}

// ranked is a search result with its position among all the results (1 first), from which the
// next page continues.
type ranked[T any] struct {
	position int
	id       string
	node     T
}

func rankedCursor[T any](r ranked[T]) page.Cursor { return page.Cursor{Key: r.position, ID: r.id} }

// rankedPage cuts results read with one extra down to a page of a connection: its edges, where
// it ends and the total count.
func rankedPage[T, E any](ctx context.Context, rows []ranked[T], limit, total int, edge func(cursor string, node T) E) ([]E, *model.PageInfo, int) {
	p := page.Trim(rows, limit, total, rankedCursor)
	return edges(ctx, p.Items, rankedCursor, func(c string, r ranked[T]) E { return edge(c, r.node) }), pageInfo(p), p.Count
}

// readableSpacesHolding lists the live spaces of an organization that the viewer may read (the
// Space policy filters them) and whose content holds a match of terms: the scope of a search of
// the whole organization, as long as the matches, however many spaces the organization holds.
func (r *Resolver) readableSpacesHolding(ctx context.Context, orgID string, terms search.Terms) ([]string, error) {
	return r.Client.Space.Query().Where(space.DeletedAtIsNil(), predicate.Space(r.Search.Holding(orgID, terms))).IDs(ctx)
}

// searchPage makes the result of a matching page from its place in the space's current tree; nil
// when the tree does not hold it (the index answered after a change the tree read missed).
func searchPage(h search.Page, t *tree.Tree, terms search.Terms) *model.SearchPage {
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
	out := &model.SearchPage{ID: p.ID, Title: p.Title, Description: p.Description, Path: path,
		Score: score(h.Score), Rank: h.Rank, ResultType: resultType, Ancestors: ancestorTitles(t, p)}
	for _, sec := range h.Sections {
		s := &model.SearchSection{ID: p.ID, Title: p.Title, Path: path, Body: sec.Excerpt,
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
