package model

import "github.com/binderyhq/bindery/ent"

// Nodes returns the redirects of the page.
func (c *SiteRedirectConnection) Nodes() []*ent.SiteRedirect {
	return nodesOf(c.Edges, func(e *SiteRedirectEdge) *ent.SiteRedirect { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SiteRedirectConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
