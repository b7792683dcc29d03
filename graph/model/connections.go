package model

import "github.com/binderyhq/bindery/ent"

// Connection is what every connection offers a REST list: its nodes, where the page ends, and
// the total count of matching items.
type Connection[N any] interface {
	Nodes() []N
	Info() (*PageInfo, int)
}

func nodesOf[E, N any](edges []E, node func(E) N) []N {
	out := make([]N, len(edges))
	for i, e := range edges {
		out[i] = node(e)
	}
	return out
}

// Nodes returns the organizations of the page.
func (c *OrganizationConnection) Nodes() []*ent.Organization {
	return nodesOf(c.Edges, func(e *OrganizationEdge) *ent.Organization { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *OrganizationConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the members of the page.
func (c *MemberConnection) Nodes() []*ent.Member {
	return nodesOf(c.Edges, func(e *MemberEdge) *ent.Member { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *MemberConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the teams of the page.
func (c *TeamConnection) Nodes() []*ent.Team {
	return nodesOf(c.Edges, func(e *TeamEdge) *ent.Team { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *TeamConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the team memberships of the page.
func (c *TeamMemberConnection) Nodes() []*ent.TeamMember {
	return nodesOf(c.Edges, func(e *TeamMemberEdge) *ent.TeamMember { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *TeamMemberConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the invite links of the page.
func (c *InviteLinkConnection) Nodes() []*ent.InviteLink {
	return nodesOf(c.Edges, func(e *InviteLinkEdge) *ent.InviteLink { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *InviteLinkConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the custom fields of the page.
func (c *CustomFieldConnection) Nodes() []*ent.CustomField {
	return nodesOf(c.Edges, func(e *CustomFieldEdge) *ent.CustomField { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *CustomFieldConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the collections of the page.
func (c *CollectionConnection) Nodes() []*ent.Collection {
	return nodesOf(c.Edges, func(e *CollectionEdge) *ent.Collection { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *CollectionConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the spaces of the page.
func (c *SpaceConnection) Nodes() []*ent.Space {
	return nodesOf(c.Edges, func(e *SpaceEdge) *ent.Space { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SpaceConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the grants of the page.
func (c *PermissionGrantConnection) Nodes() []*ent.PermissionGrant {
	return nodesOf(c.Edges, func(e *PermissionGrantEdge) *ent.PermissionGrant { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *PermissionGrantConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the members with access of the page.
func (c *ContentAccessConnection) Nodes() []*ContentAccess {
	return nodesOf(c.Edges, func(e *ContentAccessEdge) *ContentAccess { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *ContentAccessConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the sites of the page.
func (c *SiteConnection) Nodes() []*ent.Site {
	return nodesOf(c.Edges, func(e *SiteEdge) *ent.Site { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SiteConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the OpenAPI specs of the page.
func (c *OpenAPISpecConnection) Nodes() []*ent.OpenAPISpec {
	return nodesOf(c.Edges, func(e *OpenAPISpecEdge) *ent.OpenAPISpec { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *OpenAPISpecConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the spec versions of the page.
func (c *OpenAPISpecVersionConnection) Nodes() []*ent.OpenAPISpecVersion {
	return nodesOf(c.Edges, func(e *OpenAPISpecVersionEdge) *ent.OpenAPISpecVersion { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *OpenAPISpecVersionConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
