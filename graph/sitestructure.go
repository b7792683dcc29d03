package graph

import (
	"context"
	"slices"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/sites"
)

// The rules of a site's structure are internal/sites'. A site with sections is arranged in two levels: the top level holds the sections outside any
// group and the section groups, in one order; each group holds its sections in an order of its
// own. Order is by position key (internal/content/orderkey), then id, as for collections and spaces.
// A site's levels are short (its sections and groups), so placing an item reads its whole level.
// Every write of a site's structure first locks the site's row (lockSite), so those writes take
// turns and never place two items from the same stale neighbours.

// siteStructure returns how a site is arranged: its top level when it has sections, else its site
// spaces, each in order. Group's sections come from their own lookups (Site.structure's groups of
// a page of sites are one level).
func (r *Resolver) siteStructure(ctx context.Context, s *ent.Site) (*model.SiteStructure, error) {
	top, err := loader.For(ctx, r.Client).SiteTop(ctx, s)
	if err != nil {
		return nil, err
	}
	items := make([]sites.StructItem, 0, len(top.Sections)+len(top.Groups))
	byID := make(map[string]model.SiteStructureItem, cap(items))
	for _, sec := range top.Sections {
		items = append(items, sites.StructItem{ID: sec.ID, Key: sec.Position})
		byID[sec.ID] = sec
	}
	for _, g := range top.Groups {
		items = append(items, sites.StructItem{ID: g.ID, Key: g.Position, Group: true})
		byID[g.ID] = g
	}
	slices.SortFunc(items, sites.CompareItems)
	out := &model.SiteStructure{Items: make([]model.SiteStructureItem, len(items)), SiteSpaces: []*ent.SiteSpace{}}
	for i, it := range items {
		out.Items[i] = byID[it.ID]
	}
	if len(items) == 0 {
		out.SiteSpaces = append(out.SiteSpaces, top.SiteSpaces...)
	}
	return out, nil
}

// structurePosition is a position in a site's structure as internal/sites takes it (nil: at
// the end of its level).
func structurePosition(pos *model.SiteStructurePositionInput) *sites.StructurePosition {
	if pos == nil {
		return nil
	}
	return &sites.StructurePosition{Before: structurePointer(pos.Before), After: structurePointer(pos.After)}
}

func structurePointer(p *model.SiteStructurePointerInput) *sites.StructurePointer {
	if p == nil {
		return nil
	}
	return &sites.StructurePointer{Section: p.Section, Group: p.Group}
}
