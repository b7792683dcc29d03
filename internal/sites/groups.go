package sites

import (
	"context"
	"fmt"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitesectiongroup"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

// Bounds of section groups (spec/03 Limits).
const (
	groupTitleMin, groupTitleMax = 1, 100
	groupSectionsMax             = 1000 // sections named in one create
)

// NewGroup is a section group to create: its title, icon, and the sections of the site it holds,
// in order.
type NewGroup struct {
	Title    string
	Icon     *string
	Sections []string
}

// GroupChange is an update of a section group: absent fields stay as they are; a null icon is
// removed.
type GroupChange struct {
	Title *string
	Icon  check.Nullable[string]
}

// CreateGroup adds a section group at the end of a site's top level, holding the
// sections named, in that order (each leaves its group). Returns INVALID for a site without
// sections, for a bound, or for a section named twice; NOT_FOUND naming a section the site does not
// have.
func (svc *Service) CreateGroup(ctx context.Context, orgID, siteID string, in NewGroup) (*ent.SiteSectionGroup, error) {
	var g *ent.SiteSectionGroup
	err := svc.WriteStructure(ctx, orgID, siteID, "add section groups", func(tx *ent.Tx, s *ent.Site) error {
		title, err := check.Trimmed("title", in.Title, groupTitleMin, groupTitleMax)
		if err != nil {
			return err
		}
		if err := checkIcon(in.Icon); err != nil {
			return err
		}
		if err := checkSectionIDs(in.Sections); err != nil {
			return err
		}
		none, err := hasNoSections(ctx, tx, s.ID)
		if err != nil {
			return err
		}
		if none {
			return apperr.Invalidf("the site has no sections: add one before grouping them")
		}
		at, err := placeInSite(ctx, tx, s.ID, "", nil, structLevel{site: s.ID}, true)
		if err != nil {
			return err
		}
		g, err = tx.SiteSectionGroup.Create().SetOrganizationID(orgID).SetSiteID(s.ID).SetTitle(title).
			SetNillableIcon(in.Icon).SetPosition(at.key).Save(ctx)
		if err != nil {
			return err
		}
		return groupSectionsNamed(ctx, tx, g, in.Sections)
	})
	return g, err
}

// groupSectionsNamed puts the sections of g's site named by ids at the end of g, in order.
// Returns NOT_FOUND naming the first the site does not have.
func groupSectionsNamed(ctx context.Context, tx *ent.Tx, g *ent.SiteSectionGroup, ids []string) error {
	for i, id := range ids {
		sec, err := sectionOfSite(ctx, tx, g.SiteID, fmt.Sprintf("sections[%d]", i), id)
		if err != nil {
			return err
		}
		upd := tx.SiteSection.UpdateOne(sec)
		if err := regroup(ctx, tx, sec, &g.ID, "sections", upd); err != nil {
			return err
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// checkIcon checks an icon name: 1 to 50 characters. Returns INVALID naming icon.
func checkIcon(icon *string) error {
	if icon == nil {
		return nil
	}
	return check.Text("icon", *icon, 1, iconMax)
}

// checkSectionIDs checks the sections named on a group's creation: at most 1000, none twice.
func checkSectionIDs(ids []string) error {
	if len(ids) > groupSectionsMax {
		return apperr.Invalidf("sections: at most %d sections (got %d)", groupSectionsMax, len(ids))
	}
	seen := make(map[string]bool, len(ids))
	for i, id := range ids {
		if seen[id] {
			return apperr.Invalidf("sections[%d]: section %q is named twice", i, check.Truncate(id, 80))
		}
		seen[id] = true
	}
	return nil
}

// sectionOfSite returns a section of the site in the transaction of tx. Returns NOT_FOUND naming
// the field when the site has none with that id.
func sectionOfSite(ctx context.Context, tx *ent.Tx, siteID, field, id string) (*ent.SiteSection, error) {
	sec, err := tx.SiteSection.Query().Where(sitesection.ID(id), sitesection.SiteID(siteID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("%s: no section of this site has the id %q", field, check.Truncate(id, 80))
	}
	return sec, err
}

// groupOfSite returns a section group of the site in the transaction of tx. Returns NOT_FOUND
// naming the field when the site has none with that id.
func groupOfSite(ctx context.Context, tx *ent.Tx, siteID, field, id string) (*ent.SiteSectionGroup, error) {
	g, err := tx.SiteSectionGroup.Query().Where(sitesectiongroup.ID(id), sitesectiongroup.SiteID(siteID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("%s: no section group of this site has the id %q", field, check.Truncate(id, 80))
	}
	return g, err
}

// regroup sets on upd, sec's update, what puts sec at the end of group (a group of sec's site,
// checked, named by field), or at the top level just after the group it leaves when group is nil;
// nothing when it is there already.
func regroup(ctx context.Context, tx *ent.Tx, sec *ent.SiteSection, group *string, field string, upd *ent.SiteSectionUpdateOne) error {
	if idOr(group) == idOr(sec.SectionGroupID) {
		return nil
	}
	if group != nil {
		if _, err := groupOfSite(ctx, tx, sec.SiteID, field, *group); err != nil {
			return err
		}
	}
	lv := structLevel{site: sec.SiteID, group: group}
	items, err := lv.items(ctx, tx.Client(), sec.ID)
	if err != nil {
		return err
	}
	lo := lastItem(items)
	if group == nil {
		lo = &StructItem{ID: *sec.SectionGroupID} // just after the group it leaves
	}
	keys, err := lv.keysAfter(ctx, tx, items, lo, 1)
	if err != nil {
		return err
	}
	setGroup(upd.SetPosition(keys[0]), group)
	return nil
}

// setGroup sets a section's group on its update, or clears it for nil.
func setGroup(upd *ent.SiteSectionUpdateOne, group *string) *ent.SiteSectionUpdateOne {
	if group == nil {
		return upd.ClearSectionGroupID()
	}
	return upd.SetSectionGroupID(*group)
}

// UpdateGroup changes a group's title or icon: absent fields stay, a null icon is
// removed. Returns INVALID naming the field.
func (svc *Service) UpdateGroup(ctx context.Context, orgID, siteID, id string, in GroupChange) (*ent.SiteSectionGroup, error) {
	var out *ent.SiteSectionGroup
	err := svc.writeGroup(ctx, orgID, siteID, id, "change section groups", func(tx *ent.Tx, _ *ent.Site, g *ent.SiteSectionGroup) error {
		upd := tx.SiteSectionGroup.UpdateOne(g)
		if err := check.SetTrimmed("title", in.Title, groupTitleMin, groupTitleMax, upd.SetTitle); err != nil {
			return err
		}
		if err := check.SetOrClear(in.Icon, check.TextFunc("icon", 1, iconMax), upd.SetIcon, upd.ClearIcon); err != nil {
			return err
		}
		var err error
		out, err = upd.Save(ctx)
		return err
	})
	return out, err
}

// AddSectionToGroup puts a section of the site at the end of a group (from the top level or
// another group); a section in the group already stays where it is. Returns NOT_FOUND naming
// sectionId when the site has no such section.
func (svc *Service) AddSectionToGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) (*ent.SiteSectionGroup, error) {
	return svc.regroupSection(ctx, orgID, siteID, groupID, sectionID, true)
}

// RemoveSectionFromGroup takes a section out of a group, to the top level just after the
// group. Returns NOT_FOUND when the section is not in the group.
func (svc *Service) RemoveSectionFromGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) (*ent.SiteSectionGroup, error) {
	return svc.regroupSection(ctx, orgID, siteID, groupID, sectionID, false)
}

// regroupSection puts a section into a group (in) or takes it out of it, and returns the group.
func (svc *Service) regroupSection(ctx context.Context, orgID, siteID, groupID, sectionID string, in bool) (*ent.SiteSectionGroup, error) {
	var out *ent.SiteSectionGroup
	err := svc.writeGroup(ctx, orgID, siteID, groupID, "change section groups", func(tx *ent.Tx, s *ent.Site, g *ent.SiteSectionGroup) error {
		out = g
		sec, err := sectionOfSite(ctx, tx, s.ID, "sectionId", sectionID)
		if err != nil {
			return err
		}
		if isIn := idOr(sec.SectionGroupID) == g.ID; in == isIn {
			if in {
				return nil
			}
			return apperr.NotFoundf("section %q is not in this section group", check.Truncate(sectionID, 80))
		}
		to := &g.ID
		if !in {
			to = nil
		}
		upd := tx.SiteSection.UpdateOne(sec)
		if err := regroup(ctx, tx, sec, to, "groupId", upd); err != nil {
			return err
		}
		return upd.Exec(ctx)
	})
	return out, err
}

// MoveGroup moves a group just before or after an item of the site's top level, or to
// its end. Returns INVALID naming a pointer that names no other item of the top level.
func (svc *Service) MoveGroup(ctx context.Context, orgID, siteID, id string, pos *StructurePosition) (*ent.SiteSectionGroup, error) {
	var out *ent.SiteSectionGroup
	err := svc.writeGroup(ctx, orgID, siteID, id, "move section groups", func(tx *ent.Tx, s *ent.Site, g *ent.SiteSectionGroup) error {
		at, err := placeInSite(ctx, tx, s.ID, g.ID, pos, structLevel{site: s.ID}, true)
		if err != nil {
			return err
		}
		out, err = tx.SiteSectionGroup.UpdateOne(g).SetPosition(at.key).Save(ctx)
		return err
	})
	return out, err
}

// DeleteGroup deletes a group; its sections stay, at the top level in the group's
// place, in their order.
func (svc *Service) DeleteGroup(ctx context.Context, orgID, siteID, id string) error {
	return svc.writeGroup(ctx, orgID, siteID, id, "delete section groups", func(tx *ent.Tx, s *ent.Site, g *ent.SiteSectionGroup) error {
		secs, err := tx.SiteSection.Query().Where(sitesection.SectionGroupID(g.ID)).
			Order(ent.Asc(sitesection.FieldPosition), ent.Asc(sitesection.FieldID)).All(ctx)
		if err != nil {
			return err
		}
		top := structLevel{site: s.ID}
		items, err := top.items(ctx, tx.Client(), "")
		if err != nil {
			return err
		}
		keys, err := top.keysAfter(ctx, tx, items, &StructItem{ID: g.ID, Group: true}, len(secs))
		if err != nil {
			return err
		}
		for i, sec := range secs {
			if err := tx.SiteSection.UpdateOne(sec).SetPosition(keys[i]).ClearSectionGroupID().Exec(ctx); err != nil {
				return err
			}
		}
		return tx.SiteSectionGroup.DeleteOne(g).Exec(ctx)
	})
}
