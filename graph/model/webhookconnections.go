package model

import "github.com/binderyhq/bindery/ent"

// Nodes returns the webhooks of the page.
func (c *WebhookConnection) Nodes() []*ent.Webhook {
	return nodesOf(c.Edges, func(e *WebhookEdge) *ent.Webhook { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *WebhookConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the deliveries of the page.
func (c *WebhookDeliveryConnection) Nodes() []*ent.WebhookDelivery {
	return nodesOf(c.Edges, func(e *WebhookDeliveryEdge) *ent.WebhookDelivery { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *WebhookDeliveryConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
