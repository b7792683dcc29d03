package model

import "github.com/binderyhq/bindery/ent"

// Nodes returns the SCIM tokens of the page.
func (c *SCIMTokenConnection) Nodes() []*ent.SCIMToken {
	return nodesOf(c.Edges, func(e *SCIMTokenEdge) *ent.SCIMToken { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SCIMTokenConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
