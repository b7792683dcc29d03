package model

import "github.com/binderyhq/bindery/ent"

// Nodes returns the share links of the page.
func (c *SiteShareLinkConnection) Nodes() []*ent.SiteShareLink {
	return nodesOf(c.Edges, func(e *SiteShareLinkEdge) *ent.SiteShareLink { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SiteShareLinkConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
