package model

import "github.com/binderyhq/bindery/internal/search"

// Nodes returns the pages of a page of search results.
func (c *SearchPageConnection) Nodes() []*search.PageResult {
	return nodesOf(c.Edges, func(e *SearchPageEdge) *search.PageResult { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SearchPageConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the spaces of a page of organization search results.
func (c *SearchSpaceConnection) Nodes() []*search.SpaceResult {
	return nodesOf(c.Edges, func(e *SearchSpaceEdge) *search.SpaceResult { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SearchSpaceConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
