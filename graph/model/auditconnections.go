package model

import "github.com/binderyhq/bindery/ent"

// Nodes returns the audit events of the page.
func (c *AuditEventConnection) Nodes() []*ent.AuditEvent {
	return nodesOf(c.Edges, func(e *AuditEventEdge) *ent.AuditEvent { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *AuditEventConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
