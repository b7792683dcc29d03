package sites

import (
	"context"
	"slices"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitesectiongroup"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/orderkey"
	"github.com/binderyhq/bindery/internal/txn"
)

// A site with sections is arranged in two levels: the top level holds the sections outside any
// group and the section groups, in one order; each group holds its sections in an order of its
// own. Order is by position key (internal/content/orderkey), then id, as for collections and spaces.
// A site's levels are short (its sections and groups), so placing an item reads its whole level.
// Every write of a site's structure first locks the site's row (lockSite), so those writes take
// turns and never place two items from the same stale neighbours.

// WriteStructure runs fn in one transaction on a site the viewer manages, the site's row locked
// and read again in it (lockSite). Returns NOT_FOUND for a site the viewer does not see,
// FORBIDDEN below the create role (action says what was refused).
func (svc *Service) WriteStructure(ctx context.Context, orgID, siteID, action string, fn func(tx *ent.Tx, s *ent.Site) error) error {
	s, err := svc.ManageableSite(ctx, orgID, siteID, action)
	if err != nil {
		return err
	}
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		s, err := lockSite(ctx, tx, s.ID)
		if err != nil {
			return err
		}
		return fn(tx, s)
	})
}

// writeSection runs fn as WriteStructure does, on a section of the site read in the transaction.
// Returns NOT_FOUND too for a section the site does not have.
func (svc *Service) writeSection(ctx context.Context, orgID, siteID, id, action string, fn func(tx *ent.Tx, s *ent.Site, sec *ent.SiteSection) error) error {
	return svc.WriteStructure(ctx, orgID, siteID, action, func(tx *ent.Tx, s *ent.Site) error {
		sec, err := tx.SiteSection.Query().Where(sitesection.ID(id), sitesection.SiteID(s.ID)).Only(ctx)
		if err != nil {
			return rule.NotFound(err, "site section")
		}
		return fn(tx, s, sec)
	})
}

// writeGroup runs fn as WriteStructure does, on a section group of the site read in the
// transaction. Returns NOT_FOUND too for a group the site does not have.
func (svc *Service) writeGroup(ctx context.Context, orgID, siteID, id, action string, fn func(tx *ent.Tx, s *ent.Site, g *ent.SiteSectionGroup) error) error {
	return svc.WriteStructure(ctx, orgID, siteID, action, func(tx *ent.Tx, s *ent.Site) error {
		g, err := tx.SiteSectionGroup.Query().Where(sitesectiongroup.ID(id), sitesectiongroup.SiteID(s.ID)).Only(ctx)
		if err != nil {
			return rule.NotFound(err, "site section group")
		}
		return fn(tx, s, g)
	})
}

// StructItem is a section or a section group at one level of a site's structure.
type StructItem struct {
	ID, Key string
	Group   bool
}

// CompareItems orders the items of a level: by position key, then id.
func CompareItems(a, b StructItem) int { return orderkey.Compare(a.Key, a.ID, b.Key, b.ID) }

// structLevel names a level of a site's structure: its top level (group nil) or a group's sections.
type structLevel struct {
	site  string
	group *string
}

// inGroup selects the sections of a group, or those outside any group when group is nil.
func inGroup(group *string) predicate.SiteSection {
	if group == nil {
		return sitesection.SectionGroupIDIsNil()
	}
	return sitesection.SectionGroupID(*group)
}

// items returns the items of the level in order, less self, read through client (a transaction's
// client when placing).
func (lv structLevel) items(ctx context.Context, client *ent.Client, self string) ([]StructItem, error) {
	secs, err := client.SiteSection.Query().Where(sitesection.SiteID(lv.site), inGroup(lv.group), sitesection.IDNEQ(self)).
		Select(sitesection.FieldID, sitesection.FieldPosition).All(ctx)
	if err != nil {
		return nil, err
	}
	items := make([]StructItem, 0, len(secs))
	for _, s := range secs {
		items = append(items, StructItem{ID: s.ID, Key: s.Position})
	}
	if lv.group == nil {
		groups, err := client.SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(lv.site), sitesectiongroup.IDNEQ(self)).
			Select(sitesectiongroup.FieldID, sitesectiongroup.FieldPosition).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, g := range groups {
			items = append(items, StructItem{ID: g.ID, Key: g.Position, Group: true})
		}
	}
	slices.SortFunc(items, CompareItems)
	return items, nil
}

// keysAfter returns n keys for items placed in a row just after lo (nil: at the start) in the
// level, in the transaction of tx: between lo and its next item. When the keys there leave no
// room, the level is renumbered first.
func (lv structLevel) keysAfter(ctx context.Context, tx *ent.Tx, items []StructItem, lo *StructItem, n int) ([]string, error) {
	at := 0
	if lo != nil {
		at = slices.IndexFunc(items, func(it StructItem) bool { return it.ID == lo.ID }) + 1
	}
	loKey, hiKey := "", ""
	if at > 0 {
		loKey = items[at-1].Key
	}
	if at < len(items) {
		hiKey = items[at].Key
	}
	keys := make([]string, n)
	ok := at == len(items) || hiKey != ""
	for i := 0; i < n && ok; i++ {
		keys[i], ok = orderkey.Between(loKey, hiKey)
		loKey = keys[i]
	}
	if ok {
		return keys, nil
	}
	return lv.renumber(ctx, tx, items, at, n)
}

// renumber spreads the keys of the level's items anew, leaving n places before the item at
// index at (at the end for len(items)), and returns the keys of those places.
func (lv structLevel) renumber(ctx context.Context, tx *ent.Tx, items []StructItem, at, n int) ([]string, error) {
	keys := orderkey.Spread(len(items) + n)
	for i, it := range items {
		k := keys[i]
		if i >= at {
			k = keys[i+n]
		}
		if k == it.Key {
			continue
		}
		var err error
		if it.Group {
			err = tx.SiteSectionGroup.UpdateOneID(it.ID).SetPosition(k).Exec(ctx)
		} else {
			err = tx.SiteSection.UpdateOneID(it.ID).SetPosition(k).Exec(ctx)
		}
		if err != nil {
			return nil, err
		}
	}
	return keys[at : at+n], nil
}

// StructurePosition is where an item of a site's structure goes: just before or after another
// (both: they must be neighbours), or at the end of its level (neither).
type StructurePosition struct {
	Before, After *StructurePointer
}

// StructurePointer names an item of a site's structure: exactly one of a section and a group.
type StructurePointer struct {
	Section, Group *string
}

// placed is where a position puts an item: its level and its key there.
type placed struct {
	level structLevel
	key   string
}

// placeInSite returns where pos puts an item (self) of a site: just before or after an item of the
// site's structure, at that item's level, or at the end of level dflt when pos names none. With
// topOnly (section groups) the level must be the top level. Returns INVALID naming the field for
// a pointer that names no other item of the site, for before and after that are not neighbours,
// and for a level a group may not go to.
func placeInSite(ctx context.Context, tx *ent.Tx, siteID, self string, pos *StructurePosition, dflt structLevel, topOnly bool) (placed, error) {
	var before, after *structTarget
	var err error
	if pos != nil && pos.Before != nil {
		if before, err = pointTo(ctx, tx, siteID, self, "position.before", pos.Before, topOnly); err != nil {
			return placed{}, err
		}
	}
	if pos != nil && pos.After != nil {
		if after, err = pointTo(ctx, tx, siteID, self, "position.after", pos.After, topOnly); err != nil {
			return placed{}, err
		}
	}
	lv := dflt
	switch {
	case before != nil:
		lv = before.level
	case after != nil:
		lv = after.level
	}
	items, err := lv.items(ctx, tx.Client(), self)
	if err != nil {
		return placed{}, err
	}
	lo := lastItem(items)
	if before != nil {
		lo = nil
		if i := slices.IndexFunc(items, func(it StructItem) bool { return it.ID == before.item.ID }); i > 0 {
			lo = &items[i-1]
		}
		if after != nil && (lo == nil || lo.ID != after.item.ID) {
			return placed{}, apperr.Invalidf("position: before and after must name neighbours (after just before before)")
		}
	} else if after != nil {
		lo = &after.item
	}
	keys, err := lv.keysAfter(ctx, tx, items, lo, 1)
	if err != nil {
		return placed{}, err
	}
	return placed{level: lv, key: keys[0]}, nil
}

func lastItem(items []StructItem) *StructItem {
	if len(items) == 0 {
		return nil
	}
	return &items[len(items)-1]
}

// structTarget is the item a position's pointer names, and its level.
type structTarget struct {
	item  StructItem
	level structLevel
}

// pointTo returns the item of the site that a pointer names, other than self. Returns INVALID
// naming the field when there is none, or when topOnly and it is not at the top level.
func pointTo(ctx context.Context, tx *ent.Tx, siteID, self, field string, p *StructurePointer, topOnly bool) (*structTarget, error) {
	if (p.Section == nil) == (p.Group == nil) {
		return nil, apperr.Invalidf("%s: must name exactly one section or one section group", field)
	}
	if p.Group != nil {
		g, err := tx.SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(siteID), sitesectiongroup.ID(*p.Group),
			sitesectiongroup.IDNEQ(self)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, apperr.Invalidf("%s: no other section group of this site has the id %q", field, check.Truncate(*p.Group, 80))
		}
		if err != nil {
			return nil, err
		}
		return &structTarget{item: StructItem{ID: g.ID, Key: g.Position, Group: true}, level: structLevel{site: siteID}}, nil
	}
	s, err := tx.SiteSection.Query().Where(sitesection.SiteID(siteID), sitesection.ID(*p.Section), sitesection.IDNEQ(self)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.Invalidf("%s: no other section of this site has the id %q", field, check.Truncate(*p.Section, 80))
	}
	if err != nil {
		return nil, err
	}
	if topOnly && s.SectionGroupID != nil {
		return nil, apperr.Invalidf("%s: section %q is in a group, and section groups go only at the top level of a site", field, s.ID)
	}
	return &structTarget{item: StructItem{ID: s.ID, Key: s.Position}, level: structLevel{site: siteID, group: s.SectionGroupID}}, nil
}

// SectionsInOrder returns a site's sections in the order of its structure (a group's sections in
// the group's place), read through client.
func SectionsInOrder(ctx context.Context, client *ent.Client, siteID string) ([]*ent.SiteSection, error) {
	top, err := structLevel{site: siteID}.items(ctx, client, "")
	if err != nil {
		return nil, err
	}
	secs, err := client.SiteSection.Query().Where(sitesection.SiteID(siteID)).
		Order(ent.Asc(sitesection.FieldPosition), ent.Asc(sitesection.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*ent.SiteSection, len(secs))
	inGroups := map[string][]*ent.SiteSection{}
	for _, s := range secs {
		byID[s.ID] = s
		if s.SectionGroupID != nil {
			inGroups[*s.SectionGroupID] = append(inGroups[*s.SectionGroupID], s)
		}
	}
	out := make([]*ent.SiteSection, 0, len(secs))
	for _, it := range top {
		if it.Group {
			out = append(out, inGroups[it.ID]...)
		} else {
			out = append(out, byID[it.ID])
		}
	}
	return out, nil
}
