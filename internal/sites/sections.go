package sites

import (
	"context"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitesectiongroup"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/redirects"
)

// Bounds of sections (spec/03 Limits).
const (
	sectionTitleMin, sectionTitleMax = 2, 128
	sectionNewTitleMax               = 64 // a title given on creation
	sectionDescriptionMax            = 256
	iconMax                          = 50
)

// NewSection is a section to create: the space of its first site space (nil: a new space titled
// as the section, else as the site), its title (nil: its space's), icon, and the group it goes in
// (nil: the top level).
type NewSection struct {
	SpaceID, Title, Icon, SectionGroupID *string
}

// SectionChange is an update of a section: absent fields stay as they are; null removes a
// condition, an icon or a description, and takes the section out of its group.
type SectionChange struct {
	Title, Path, DefaultSiteSpace                *string
	Condition, Icon, Description, SectionGroupID check.Nullable[string]
}

// CreateSection adds a section at the end of the site's top level (or of a group) holding the
// space as its first site space, at a path made from its title that no other section holds. The
// first section of a site becomes its default section and takes the site's site spaces, in their
// order, before the new one. Returns NOT_FOUND for a space or a group that is not the site's
// organization's or the site's (naming the field), FORBIDDEN for members below the create role.
func (svc *Service) CreateSection(ctx context.Context, orgID, siteID string, in NewSection) (*ent.SiteSection, error) {
	var sec *ent.SiteSection
	err := svc.WriteStructure(ctx, orgID, siteID, "add sections", func(tx *ent.Tx, s *ent.Site) error {
		sp, err := svc.sectionSpace(ctx, tx, s, in)
		if err != nil {
			return err
		}
		title, err := sectionTitle(in.Title, sp.Title)
		if err != nil {
			return err
		}
		if err := checkIcon(in.Icon); err != nil {
			return err
		}
		if sec, err = addSection(ctx, tx, s, title, in); err != nil {
			return err
		}
		shown := false
		if sec.IsDefault { // the site's first section
			if shown, err = takeSiteSpaces(ctx, tx, s, sec, sp.ID); err != nil || shown {
				return err
			}
		}
		_, err = appendSiteSpaces(ctx, tx, s, &sec.ID, []*ent.Space{sp})
		return err
	})
	return sec, err
}

// addSection writes a new section of a site at the end of its level, at a path made from its
// title that no other section holds; the first section of a site is its default.
func addSection(ctx context.Context, tx *ent.Tx, s *ent.Site, title string, in NewSection) (*ent.SiteSection, error) {
	first, err := hasNoSections(ctx, tx, s.ID)
	if err != nil {
		return nil, err
	}
	if in.SectionGroupID != nil {
		if _, err := groupOfSite(ctx, tx, s.ID, "sectionGroupId", *in.SectionGroupID); err != nil {
			return nil, err
		}
	}
	at, err := placeInSite(ctx, tx, s.ID, "", nil, structLevel{site: s.ID, group: in.SectionGroupID}, false)
	if err != nil {
		return nil, err
	}
	path, err := freeSectionPath(ctx, tx, s.ID, title)
	if err != nil {
		return nil, err
	}
	return tx.SiteSection.Create().SetOrganizationID(s.OrganizationID).SetSiteID(s.ID).SetTitle(title).SetPath(path).
		SetPosition(at.key).SetNillableIcon(in.Icon).SetNillableSectionGroupID(in.SectionGroupID).SetIsDefault(first).Save(ctx)
}

// sectionSpace returns the space of a new section: the one in.SpaceID names, or (nil) a new
// space titled as the section is (else as the site). Returns NOT_FOUND naming spaceId.
func (svc *Service) sectionSpace(ctx context.Context, tx *ent.Tx, s *ent.Site, in NewSection) (*ent.Space, error) {
	if in.SpaceID != nil {
		return svc.spaceFor(ctx, s.OrganizationID, "spaceId", *in.SpaceID)
	}
	title := s.Title
	if in.Title != nil {
		title = *in.Title
	}
	return svc.NewSpace(ctx, tx, s.OrganizationID, strings.TrimSpace(title))
}

// sectionTitle is the title of a new section: the one given, checked, or the space's ("Untitled"
// when that is shorter than a section title may be).
func sectionTitle(given *string, spaceTitle string) (string, error) {
	if given != nil {
		return check.Trimmed("title", *given, sectionTitleMin, sectionNewTitleMax)
	}
	if check.Text("title", spaceTitle, sectionTitleMin, sectionTitleMax) != nil {
		return "Untitled", nil
	}
	return spaceTitle, nil
}

func hasNoSections(ctx context.Context, tx *ent.Tx, siteID string) (bool, error) {
	some, err := tx.SiteSection.Query().Where(sitesection.SiteID(siteID)).Exist(ctx)
	return !some, err
}

// takeSiteSpaces makes sec, a site's first section, its default section, and moves the site
// spaces of the site's root level into it (keeping their order, paths and default). It reports
// whether one of them shows the space spaceID. It reads and moves them as the system, as
// levelSiteSpaces reads a level: those of spaces the viewer may not read go too.
func takeSiteSpaces(ctx context.Context, tx *ent.Tx, s *ent.Site, sec *ent.SiteSection, spaceID string) (bool, error) {
	root, err := levelSiteSpaces(ctx, tx, s.ID, nil)
	if err != nil {
		return false, err
	}
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	if err := tx.SiteSpace.Update().Where(sitespace.SiteID(s.ID), sitespace.SectionIDIsNil()).SetSectionID(sec.ID).Exec(sys); err != nil {
		return false, err
	}
	shown := slices.ContainsFunc(root, func(ss *ent.SiteSpace) bool { return ss.SpaceID == spaceID })
	return shown, tx.Site.UpdateOne(s).SetDefaultSectionID(sec.ID).Exec(ctx)
}

// freeSectionPath returns a path made from title that no section of the site holds.
func freeSectionPath(ctx context.Context, tx *ent.Tx, siteID, title string) (string, error) {
	paths, err := tx.SiteSection.Query().Where(sitesection.SiteID(siteID)).Select(sitesection.FieldPath).Strings(ctx)
	if err != nil {
		return "", err
	}
	taken := make(map[string]bool, len(paths))
	for _, p := range paths {
		taken[p] = true
	}
	return freePath(edit.Slugify(title), taken), nil
}

// UpdateSection changes a section: absent fields stay, null removes condition, icon and
// description, and sectionGroupId moves it into a group or out of its group. Returns INVALID
// naming the field for a bound or a condition that does not hold, NOT_FOUND naming
// defaultSiteSpace or sectionGroupId when they are not the section's or the site's, CONFLICT when
// another section of the site has the path.
func (svc *Service) UpdateSection(ctx context.Context, orgID, siteID, id string, in SectionChange) (*ent.SiteSection, error) {
	var out *ent.SiteSection
	err := svc.writeSection(ctx, orgID, siteID, id, "change sections", func(tx *ent.Tx, s *ent.Site, sec *ent.SiteSection) error {
		upd := tx.SiteSection.UpdateOne(sec)
		if err := svc.sectionChanges(ctx, s, sec, upd, in); err != nil {
			return err
		}
		if err := checkSectionPath(ctx, tx, sec, upd); err != nil {
			return err
		}
		if err := svc.keepSectionURLs(ctx, tx, s, sec, upd); err != nil {
			return err
		}
		if in.DefaultSiteSpace != nil {
			if err := setSectionDefault(ctx, tx, sec, *in.DefaultSiteSpace); err != nil {
				return err
			}
		}
		if in.SectionGroupID.Set {
			if err := regroup(ctx, tx, sec, in.SectionGroupID.Value, "sectionGroupId", upd); err != nil {
				return err
			}
		}
		var err error
		out, err = upd.Save(ctx)
		return err
	})
	return out, err
}

// sectionChanges checks the plain fields of a section's change and sets them on upd. Returns
// INVALID naming the field.
func (svc *Service) sectionChanges(ctx context.Context, s *ent.Site, sec *ent.SiteSection, upd *ent.SiteSectionUpdateOne, in SectionChange) error {
	if err := check.SetTrimmed("title", in.Title, sectionTitleMin, sectionTitleMax, upd.SetTitle); err != nil {
		return err
	}
	if in.Path != nil && *in.Path != sec.Path {
		if err := CheckSegment("path", *in.Path, PathMax); err != nil {
			return err
		}
		upd.SetPath(*in.Path)
	}
	if err := check.SetOrClear(in.Condition, func(c string) error { return CheckCondition(s, c) }, upd.SetCondition, upd.ClearCondition); err != nil {
		return err
	}
	if err := check.SetOrClear(in.Icon, check.TextFunc("icon", 1, iconMax), upd.SetIcon, upd.ClearIcon); err != nil {
		return err
	}
	return check.SetOrClear(in.Description, check.TextFunc("description", 0, sectionDescriptionMax), upd.SetDescription, upd.ClearDescription)
}

// checkSectionPath refuses a path that upd sets when another section of the site holds it.
// Returns CONFLICT naming the path.
func checkSectionPath(ctx context.Context, tx *ent.Tx, sec *ent.SiteSection, upd *ent.SiteSectionUpdateOne) error {
	p, ok := upd.Mutation().Path()
	if !ok || p == sec.Path {
		return nil
	}
	taken, err := tx.SiteSection.Query().Where(sitesection.SiteID(sec.SiteID), sitesection.Path(p), sitesection.IDNEQ(sec.ID)).Exist(ctx)
	if err == nil && taken {
		return apperr.Conflictf("path: another section of this site has the path %q", p)
	}
	return err
}

// keepSectionURLs keeps the URLs of a section whose path upd changes (redirects.Service.KeepOldURLs); the default
// section's path is in no URL.
func (svc *Service) keepSectionURLs(ctx context.Context, tx *ent.Tx, s *ent.Site, sec *ent.SiteSection, upd *ent.SiteSectionUpdateOne) error {
	p, ok := upd.Mutation().Path()
	if !ok || p == sec.Path || sec.IsDefault {
		return nil
	}
	return svc.Redirects.KeepOldURLs(ctx, tx, s, sec.Path, p, redirects.ToSection(sec.ID))
}

// setSectionDefault makes a site space of a section the one its readers land on (the site's
// default site space follows when the section is the default: it is derived). Returns NOT_FOUND
// naming defaultSiteSpace when the section has no such site space.
func setSectionDefault(ctx context.Context, tx *ent.Tx, sec *ent.SiteSection, siteSpaceID string) error {
	ss, err := tx.SiteSpace.Query().Where(sitespace.ID(siteSpaceID), sitespace.SectionID(sec.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.NotFoundf("defaultSiteSpace: no site space of this section has the id %q", check.Truncate(siteSpaceID, 80))
	}
	if err != nil {
		return err
	}
	sys := privacy.DecisionContext(ctx, privacy.Allow) // the level's default may show a space the viewer does not read
	if err := tx.SiteSpace.Update().Where(sitespace.SectionID(sec.ID), sitespace.IsDefault(true), sitespace.IDNEQ(ss.ID)).
		SetIsDefault(false).Exec(sys); err != nil {
		return err
	}
	return tx.SiteSpace.UpdateOne(ss).SetIsDefault(true).Exec(ctx)
}

// MoveSection moves a section just before or after an item of the site's structure (to that
// item's level: into or out of a group), or to the end of its level. Returns INVALID naming a
// pointer that names no other item of the site.
func (svc *Service) MoveSection(ctx context.Context, orgID, siteID, id string, pos *StructurePosition) (*ent.SiteSection, error) {
	var out *ent.SiteSection
	err := svc.writeSection(ctx, orgID, siteID, id, "move sections", func(tx *ent.Tx, s *ent.Site, sec *ent.SiteSection) error {
		at, err := placeInSite(ctx, tx, s.ID, sec.ID, pos, structLevel{site: s.ID, group: sec.SectionGroupID}, false)
		if err != nil {
			return err
		}
		out, err = setGroup(tx.SiteSection.UpdateOne(sec).SetPosition(at.key), at.level.group).Save(ctx)
		return err
	})
	return out, err
}

// DeleteSection deletes a section with its site spaces (the site's count goes down by as
// many). When it was the default section, the one after it in the structure (before it, when it
// was the last) becomes the default; when it was the last section, the site has none again: no
// default section or site space, and no section groups.
func (svc *Service) DeleteSection(ctx context.Context, orgID, siteID, id string) error {
	return svc.writeSection(ctx, orgID, siteID, id, "delete sections", func(tx *ent.Tx, s *ent.Site, sec *ent.SiteSection) error {
		order, err := SectionsInOrder(ctx, tx.Client(), s.ID)
		if err != nil {
			return err
		}
		if _, err := Leave(ctx, tx, sitespace.SectionID(sec.ID)); err != nil {
			return err
		}
		if err := tx.SiteSection.DeleteOne(sec).Exec(ctx); err != nil {
			return err
		}
		upd := tx.Site.UpdateOneID(s.ID)
		i := slices.IndexFunc(order, func(o *ent.SiteSection) bool { return o.ID == sec.ID })
		switch {
		case len(order) == 1:
			if _, err := tx.SiteSectionGroup.Delete().Where(sitesectiongroup.SiteID(s.ID)).Exec(ctx); err != nil {
				return err
			}
			upd.ClearDefaultSectionID()
		case idOr(s.DefaultSectionID) == sec.ID:
			next := i + 1
			if next == len(order) {
				next = i - 1
			}
			if err := makeDefaultSection(ctx, tx, upd, s.ID, order[next].ID, "defaultSiteSection"); err != nil {
				return err
			}
		}
		return upd.Exec(ctx)
	})
}

// makeDefaultSection makes section id of site siteID the site's default section: upd, the site's
// update, takes it, and the section's default flag moves to it. Returns NOT_FOUND naming field
// when the site has no such section.
func makeDefaultSection(ctx context.Context, tx *ent.Tx, upd *ent.SiteUpdateOne, siteID, id, field string) error {
	sec, err := sectionOfSite(ctx, tx, siteID, field, id)
	if err != nil {
		return err
	}
	if err := tx.SiteSection.Update().Where(sitesection.SiteID(siteID), sitesection.IsDefault(true), sitesection.IDNEQ(sec.ID)).
		SetIsDefault(false).Exec(ctx); err != nil {
		return err
	}
	upd.SetDefaultSectionID(sec.ID)
	return tx.SiteSection.UpdateOne(sec).SetIsDefault(true).Exec(ctx)
}
