package model

import "github.com/binderyhq/bindery/ent"

// SiteStructure is how a site is arranged (getSiteStructure): the top level of a site with
// sections (its sections outside any group and its section groups, in one order), or the site
// spaces of a site without sections, in order.
type SiteStructure struct {
	Items      []SiteStructureItem
	SiteSpaces []*ent.SiteSpace
}

// Type is SECTIONS for a site with sections, SITE_SPACES otherwise.
func (s *SiteStructure) Type() SiteStructureType {
	if len(s.Items) > 0 {
		return SiteStructureTypeSections
	}
	return SiteStructureTypeSiteSpaces
}

// SiteStructureItem is an item of a site's top level: a *ent.SiteSection or a
// *ent.SiteSectionGroup.
type SiteStructureItem any

// Nodes returns the sections of the page.
func (c *SiteSectionConnection) Nodes() []*ent.SiteSection {
	return nodesOf(c.Edges, func(e *SiteSectionEdge) *ent.SiteSection { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SiteSectionConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the section groups of the page.
func (c *SiteSectionGroupConnection) Nodes() []*ent.SiteSectionGroup {
	return nodesOf(c.Edges, func(e *SiteSectionGroupEdge) *ent.SiteSectionGroup { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SiteSectionGroupConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
