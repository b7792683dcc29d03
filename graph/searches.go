package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/search"
)

// Searches translate between GraphQL (and REST, which calls these resolvers) and
// internal/search, which ranks the spaces' current content among those the viewer may read;
// graph pages the ranked results.

// searchService is the full-text search as this resolver's viewer makes it.
func (r *Resolver) searchService() *search.Service {
	return &search.Service{Client: r.Client, Index: r.Search, ActiveTrees: r.content().ActiveTrees}
}

// searchSpace is Space.search: the pages of a space's current content that match query, best
// first. Returns INVALID for a bad query, page size or page token.
func (r *Resolver) searchSpace(ctx context.Context, s *ent.Space, query string, first *int, after *string) (*model.SearchPageConnection, error) {
	return r.SearchSpaceWithout(ctx, s, query, first, after, nil)
}

// SearchSpaceWithout is searchSpace leaving the pages without out of the results and their count
// (the pages a published site's reader does not see), so a page of results is as full as the
// matches allow (search.Service.SpacePages). Returns INVALID for a bad query, page size or page
// token.
func (r *Resolver) SearchSpaceWithout(ctx context.Context, s *ent.Space, query string, first *int, after *string, without *search.PageSet) (*model.SearchPageConnection, error) {
	q, limit, err := search.NewQuery(query, first, after)
	if err != nil {
		return nil, err
	}
	q.Without = without
	rows, total, err := r.searchService().SpacePages(ctx, s, q)
	if err != nil {
		return nil, err
	}
	conn := &model.SearchPageConnection{}
	conn.Edges, conn.PageInfo, conn.TotalCount = rankedPage(ctx, rows, limit, total,
		func(c string, n *search.PageResult) *model.SearchPageEdge {
			return &model.SearchPageEdge{Cursor: c, Node: n}
		})
	return conn, nil
}

// searchOrganization is Organization.search: the spaces of an organization that hold pages
// matching query, the space with the best page first, each with its best pages
// (search.Service.OrganizationSpaces). Returns INVALID for a bad query, page size or page token.
func (r *Resolver) searchOrganization(ctx context.Context, o *ent.Organization, query string, first *int, after *string) (*model.SearchSpaceConnection, error) {
	q, limit, err := search.NewQuery(query, first, after)
	if err != nil {
		return nil, err
	}
	rows, total, err := r.searchService().OrganizationSpaces(ctx, o.ID, q)
	if err != nil {
		return nil, err
	}
	conn := &model.SearchSpaceConnection{}
	conn.Edges, conn.PageInfo, conn.TotalCount = rankedPage(ctx, rows, limit, total,
		func(c string, n *search.SpaceResult) *model.SearchSpaceEdge {
			return &model.SearchSpaceEdge{Cursor: c, Node: n}
		})
	return conn, nil
}

// rankedPage cuts results read with one extra down to a page of a connection: its edges, where
// it ends and the total count.
func rankedPage[T, E any](ctx context.Context, rows []search.Ranked[T], limit, total int, edge func(cursor string, node T) E) ([]E, *model.PageInfo, int) {
	p := page.Trim(rows, limit, total, search.Ranked[T].Cursor)
	return edges(ctx, p.Items, search.Ranked[T].Cursor, func(c string, r search.Ranked[T]) E { return edge(c, r.Node) }), pageInfo(p), p.Count
}
