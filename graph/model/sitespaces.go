package model

import "github.com/binderyhq/bindery/ent"

// Nodes returns the site spaces of the page.
func (c *SiteSpaceConnection) Nodes() []*ent.SiteSpace {
	return nodesOf(c.Edges, func(e *SiteSpaceEdge) *ent.SiteSpace { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SiteSpaceConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
