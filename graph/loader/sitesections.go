package loader

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitesectiongroup"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/internal/page"
)

// SiteSectionGroups looks up section groups by id: nil for one the viewer may not see.
var SiteSectionGroups = byID("site section groups", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.SiteSectionGroup, error) {
	return c.SiteSectionGroup.Query().Where(sitesectiongroup.IDIn(ids...)).All(ctx)
}, func(g *ent.SiteSectionGroup) string { return g.ID })

// SiteSectionPage returns one page of a site's sections, by position key then id: the keys of the
// top level and of each group interleave (the site's structure gives the tree).
func (l *Loaders) SiteSectionPage(ctx context.Context, s *ent.Site, a page.Args) (Page[*ent.SiteSection], error) {
	return Get(ctx, l.client, sectionPages, s, func(s *ent.Site) pageKey[struct{}] { return pageOf(s.ID, struct{}{}, a) })
}

var sectionPages = pages("site section pages", fromQuery(pageSource[struct{}, *ent.SiteSection]{
	partition: []string{sitesection.FieldSiteID},
	order:     func(struct{}) page.Order { return page.Order{Column: sitesection.FieldPosition} },
	parentOf:  func(s *ent.SiteSection) string { return s.SiteID },
	idOf:      func(s *ent.SiteSection) string { return s.ID },
	cursorKey: func(s *ent.SiteSection, _ struct{}) any { return s.Position },
}, func(c *ent.Client, _ struct{}) *ent.SiteSectionQuery {
	return c.SiteSection.Query()
}))

// SiteSectionGroupPage returns one page of a site's section groups, in their order.
func (l *Loaders) SiteSectionGroupPage(ctx context.Context, s *ent.Site, a page.Args) (Page[*ent.SiteSectionGroup], error) {
	return Get(ctx, l.client, sectionGroupPages, s, func(s *ent.Site) pageKey[struct{}] { return pageOf(s.ID, struct{}{}, a) })
}

var sectionGroupPages = pages("site section group pages", fromQuery(pageSource[struct{}, *ent.SiteSectionGroup]{
	partition: []string{sitesectiongroup.FieldSiteID},
	order:     func(struct{}) page.Order { return page.Order{Column: sitesectiongroup.FieldPosition} },
	parentOf:  func(g *ent.SiteSectionGroup) string { return g.SiteID },
	idOf:      func(g *ent.SiteSectionGroup) string { return g.ID },
	cursorKey: func(g *ent.SiteSectionGroup, _ struct{}) any { return g.Position },
}, func(c *ent.Client, _ struct{}) *ent.SiteSectionGroupQuery {
	return c.SiteSectionGroup.Query()
}))

// SectionSiteSpaces returns the site spaces of a section, in order.
func (l *Loaders) SectionSiteSpaces(ctx context.Context, s *ent.SiteSection) ([]*ent.SiteSpace, error) {
	return Get(ctx, l.client, sectionSiteSpaces, s, func(s *ent.SiteSection) string { return s.ID })
}

var sectionSiteSpaces = NewBatch("section site spaces", func(ctx context.Context, c *ent.Client, ids []string) (map[string][]*ent.SiteSpace, error) {
	rows, err := c.SiteSpace.Query().Where(sitespace.SectionIDIn(ids...)).
		Order(ent.Asc(sitespace.FieldPosition), ent.Asc(sitespace.FieldID)).All(ctx)
	Level(ctx, rows)
	return groupBy(rows, func(ss *ent.SiteSpace) string { return derefString(ss.SectionID) }), err
})

// GroupSections returns the sections of a section group, in order.
func (l *Loaders) GroupSections(ctx context.Context, g *ent.SiteSectionGroup) ([]*ent.SiteSection, error) {
	return Get(ctx, l.client, groupSections, g, func(g *ent.SiteSectionGroup) string { return g.ID })
}

var groupSections = NewBatch("group sections", func(ctx context.Context, c *ent.Client, ids []string) (map[string][]*ent.SiteSection, error) {
	rows, err := c.SiteSection.Query().Where(sitesection.SectionGroupIDIn(ids...)).
		Order(ent.Asc(sitesection.FieldPosition), ent.Asc(sitesection.FieldID)).All(ctx)
	Level(ctx, rows)
	return groupBy(rows, func(s *ent.SiteSection) string { return derefString(s.SectionGroupID) }), err
})

// SiteTop is the top level of a site's structure: the sections outside any group and the section
// groups, each in order; and the site spaces outside any section (those of a site without
// sections), in order.
type SiteTop struct {
	Sections   []*ent.SiteSection
	Groups     []*ent.SiteSectionGroup
	SiteSpaces []*ent.SiteSpace
}

// SiteTop returns the top level of a site's structure.
func (l *Loaders) SiteTop(ctx context.Context, s *ent.Site) (SiteTop, error) {
	return Get(ctx, l.client, siteTops, s, func(s *ent.Site) string { return s.ID })
}

// siteTops reads the top levels of sites in three statements, whatever their number; each kind
// of row read is a level of its own.
var siteTops = NewBatch("site tops", func(ctx context.Context, c *ent.Client, ids []string) (map[string]SiteTop, error) {
	secs, err := c.SiteSection.Query().Where(sitesection.SiteIDIn(ids...), sitesection.SectionGroupIDIsNil()).
		Order(ent.Asc(sitesection.FieldPosition), ent.Asc(sitesection.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	groups, err := c.SiteSectionGroup.Query().Where(sitesectiongroup.SiteIDIn(ids...)).
		Order(ent.Asc(sitesectiongroup.FieldPosition), ent.Asc(sitesectiongroup.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	spaces, err := c.SiteSpace.Query().Where(sitespace.SiteIDIn(ids...), sitespace.SectionIDIsNil()).
		Order(ent.Asc(sitespace.FieldPosition), ent.Asc(sitespace.FieldID)).All(ctx)
	Level(ctx, secs)
	Level(ctx, groups)
	Level(ctx, spaces)
	tops := make(map[string]SiteTop, len(ids))
	for id, list := range groupBy(secs, func(s *ent.SiteSection) string { return s.SiteID }) {
		tops[id] = SiteTop{Sections: list}
	}
	for id, list := range groupBy(groups, func(g *ent.SiteSectionGroup) string { return g.SiteID }) {
		t := tops[id]
		t.Groups = list
		tops[id] = t
	}
	for id, list := range groupBy(spaces, func(ss *ent.SiteSpace) string { return ss.SiteID }) {
		t := tops[id]
		t.SiteSpaces = list
		tops[id] = t
	}
	return tops, err
})

// groupBy lists rows by key, keeping their order.
func groupBy[K comparable, V any](rows []V, key func(V) K) map[K][]V {
	m := map[K][]V{}
	for _, r := range rows {
		m[key(r)] = append(m[key(r)], r)
	}
	return m
}
