package model

import "github.com/binderyhq/bindery/ent"

// Nodes returns the OpenID Connect providers of the page.
func (c *OIDCProviderConnection) Nodes() []*ent.OIDCProvider {
	return nodesOf(c.Edges, func(e *OIDCProviderEdge) *ent.OIDCProvider { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *OIDCProviderConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
