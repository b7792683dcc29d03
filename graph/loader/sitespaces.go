package loader

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/internal/page"
)

// SiteSpaceFilter narrows a site's site spaces.
type SiteSpaceFilter struct {
	Default string // "true" or "false": only the defaults of their levels, or only the others; "" for all
}

// SiteSpacePage returns one page of a site's site spaces the viewer sees, by position key (the
// order within each level) then id.
func (l *Loaders) SiteSpacePage(ctx context.Context, s *ent.Site, f SiteSpaceFilter, a page.Args) (Page[*ent.SiteSpace], error) {
	return Get(ctx, l.client, siteSpacePages, s, func(s *ent.Site) pageKey[SiteSpaceFilter] { return pageOf(s.ID, f, a) })
}

var siteSpacePages = pages("site space pages", fromQuery(pageSource[SiteSpaceFilter, *ent.SiteSpace]{
	partition: []string{sitespace.FieldSiteID},
	order:     func(SiteSpaceFilter) page.Order { return page.Order{Column: sitespace.FieldPosition} },
	parentOf:  func(ss *ent.SiteSpace) string { return ss.SiteID },
	idOf:      func(ss *ent.SiteSpace) string { return ss.ID },
	cursorKey: func(ss *ent.SiteSpace, _ SiteSpaceFilter) any { return ss.Position },
}, func(c *ent.Client, f SiteSpaceFilter) *ent.SiteSpaceQuery {
	return c.SiteSpace.Query().Where(f.predicates()...)
}))

func (f SiteSpaceFilter) predicates() []predicate.SiteSpace {
	var where []predicate.SiteSpace
	if f.Default != "" {
		where = append(where, sitespace.IsDefault(f.Default == "true"))
	}
	return where
}

// AllSiteSpaces returns every site space of a site the viewer sees, by position key (the order
// within each level) then id.
func (l *Loaders) AllSiteSpaces(ctx context.Context, s *ent.Site) ([]*ent.SiteSpace, error) {
	return Get(ctx, l.client, allSiteSpaces, s, func(s *ent.Site) string { return s.ID })
}

var allSiteSpaces = NewBatch("all site spaces", func(ctx context.Context, c *ent.Client, ids []string) (map[string][]*ent.SiteSpace, error) {
	rows, err := c.SiteSpace.Query().Where(sitespace.SiteIDIn(ids...)).
		Order(ent.Asc(sitespace.FieldPosition), ent.Asc(sitespace.FieldID)).All(ctx)
	Level(ctx, rows)
	return groupBy(rows, func(ss *ent.SiteSpace) string { return ss.SiteID }), err
})

// Spaces looks up live spaces by id: nil for one the viewer may not read.
var Spaces = byID("spaces", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.Space, error) {
	return c.Space.Query().Where(space.IDIn(ids...), space.DeletedAtIsNil()).All(ctx)
}, func(s *ent.Space) string { return s.ID })

// Sites looks up sites by id: nil for one the viewer may not see.
var Sites = byID("sites", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.Site, error) {
	return c.Site.Query().Where(site.IDIn(ids...)).All(ctx)
}, func(s *ent.Site) string { return s.ID })

// SiteSections looks up site sections by id: nil for one the viewer may not see.
var SiteSections = byID("site sections", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.SiteSection, error) {
	return c.SiteSection.Query().Where(sitesection.IDIn(ids...)).All(ctx)
}, func(s *ent.SiteSection) string { return s.ID })

// SiteDefaultSpace returns a site's default site space: the default of its default section when
// it has one, else of its root level; nil when there is none the viewer sees.
func (l *Loaders) SiteDefaultSpace(ctx context.Context, s *ent.Site) (*ent.SiteSpace, error) {
	return Get(ctx, l.client, siteDefaults, s, func(s *ent.Site) *ent.Site { return s })
}

var siteDefaults = NewBatch("site default spaces", func(ctx context.Context, c *ent.Client, sites []*ent.Site) (map[*ent.Site]*ent.SiteSpace, error) {
	ids := make([]string, len(sites))
	for i, s := range sites {
		ids[i] = s.ID
	}
	rows, err := c.SiteSpace.Query().Where(sitespace.SiteIDIn(ids...), sitespace.IsDefault(true)).All(ctx)
	bySite := map[string][]*ent.SiteSpace{} // the default of each level of a site
	for _, ss := range rows {
		bySite[ss.SiteID] = append(bySite[ss.SiteID], ss)
	}
	found := make(map[*ent.Site]*ent.SiteSpace, len(sites))
	for _, s := range sites {
		for _, ss := range bySite[s.ID] {
			if sameLevel(ss.SectionID, s.DefaultSectionID) {
				found[s] = ss
			}
		}
	}
	return found, err
})

// sameLevel reports whether two section ids name the same level (nil: the root level).
func sameLevel(a, b *string) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}
