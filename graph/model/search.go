package model

// Nodes returns the pages of a page of search results.
func (c *SearchPageConnection) Nodes() []*SearchPage {
	return nodesOf(c.Edges, func(e *SearchPageEdge) *SearchPage { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SearchPageConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the spaces of a page of organization search results.
func (c *SearchSpaceConnection) Nodes() []*SearchSpace {
	return nodesOf(c.Edges, func(e *SearchSpaceEdge) *SearchSpace { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SearchSpaceConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
