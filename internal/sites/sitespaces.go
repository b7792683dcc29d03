package sites

import (
	"context"
	"slices"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/orderkey"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/redirects"
	"github.com/binderyhq/bindery/internal/txn"
)

// AtLevel selects the site spaces of a section, or of the root level when section is nil.
func AtLevel(section *string) predicate.SiteSpace {
	if section == nil {
		return sitespace.SectionIDIsNil()
	}
	return sitespace.SectionID(*section)
}

// Leave removes, in tx, the site spaces matching where, and returns how many it removed:
// their sites are locked first (in id order, so writers of several sites cannot deadlock), each
// site's counter goes down by its site spaces removed, and each level whose default left gets
// its first remaining site space as default. It writes as the system: the removal was decided
// by the caller (a site manager removing a site space, or a space leaving the sites of its
// organization on its deletion or transfer, which the space's policy decided), and the counters
// and defaults only follow it, whoever may otherwise write those sites.
func Leave(ctx context.Context, tx *ent.Tx, where predicate.SiteSpace) (int, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	siteIDs, err := tx.SiteSpace.Query().Where(where).Unique(true).Select(sitespace.FieldSiteID).Strings(sys)
	if err != nil || len(siteIDs) == 0 {
		return 0, err
	}
	if _, err := tx.Site.Query().Where(site.IDIn(siteIDs...)).Order(site.ByID()).Modify(txn.ForUpdate).IDs(sys); err != nil {
		return 0, err
	}
	gone, err := tx.SiteSpace.Query().Where(where).All(sys) // again, under the sites' locks
	if err != nil {
		return 0, err
	}
	ids, perSite := make([]string, len(gone)), map[string]int{}
	for i, ss := range gone {
		ids[i] = ss.ID
		perSite[ss.SiteID]++
	}
	if _, err := tx.SiteSpace.Delete().Where(sitespace.IDIn(ids...)).Exec(sys); err != nil {
		return 0, err
	}
	for siteID, n := range perSite {
		if err := tx.Site.UpdateOneID(siteID).AddSiteSpacesCount(-n).Exec(sys); err != nil {
			return 0, err
		}
	}
	for _, ss := range gone {
		if !ss.IsDefault {
			continue
		}
		if err := electDefault(sys, tx, ss.SiteID, ss.SectionID); err != nil {
			return 0, err
		}
	}
	return len(gone), nil
}

// electDefault makes the first site space of a level its default (a level without site spaces
// has none).
func electDefault(ctx context.Context, tx *ent.Tx, siteID string, section *string) error {
	first, err := tx.SiteSpace.Query().Where(sitespace.SiteID(siteID), AtLevel(section)).
		Order(ent.Asc(sitespace.FieldPosition), ent.Asc(sitespace.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return tx.SiteSpace.UpdateOne(first).SetIsDefault(true).Exec(ctx)
}

// A site space shows a space on a site, in a level: one of the site's sections, or its root level
// (section nil). The site spaces of a level are in one order (position keys, then id), each at a
// path no other holds there, and one of them is the level's default. Every write that adds or
// removes site spaces locks their site first (PostgreSQL; SQLite has one writer), so concurrent
// writes to a site queue: orders, paths, defaults and the site's counter stay whole.

// SiteSpace returns a site space of site s that the viewer sees. Returns NOT_FOUND otherwise.
func (svc *Service) SiteSpace(ctx context.Context, s *ent.Site, id string) (*ent.SiteSpace, error) {
	ss, err := svc.Client.SiteSpace.Query().Where(sitespace.ID(id), sitespace.SiteID(s.ID)).Only(ctx)
	return ss, rule.NotFound(err, "site space")
}

// ManageableSiteSpace returns a site the viewer may change and one of its site spaces.
// Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) ManageableSiteSpace(ctx context.Context, orgID, siteID, id, action string) (*ent.Site, *ent.SiteSpace, error) {
	s, err := svc.ManageableSite(ctx, orgID, siteID, action)
	if err != nil {
		return nil, nil, err
	}
	ss, err := svc.SiteSpace(ctx, s, id)
	return s, ss, err
}

// NewSiteSpace is a site space to add: the space it shows (nil: a new space titled like the
// site, or as Title), its level (nil: the site's default section, else the root level), its
// title and home page (nil: its space's).
type NewSiteSpace struct {
	SpaceID, SectionID, Title, PageID *string
}

// AddSiteSpace shows a space on a site, after the site spaces of its level, with the title and
// home page given (decision 178). It takes the create role in the site's organization. Returns
// NOT_FOUND naming spaceId, sectionId or pageId, INVALID naming title or pageId, CONFLICT when
// the space is already in that level.
func (svc *Service) AddSiteSpace(ctx context.Context, orgID, siteID string, in NewSiteSpace) (*ent.SiteSpace, error) {
	s, err := svc.ManageableSite(ctx, orgID, siteID, "add spaces to sites")
	if err != nil {
		return nil, err
	}
	title, err := siteSpaceTitle(in.Title)
	if err != nil {
		return nil, err
	}
	sp, err := svc.spaceWithHome(ctx, orgID, in.SpaceID, in.PageID)
	if err != nil {
		return nil, err
	}
	var added []*ent.SiteSpace
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		locked, err := lockSite(ctx, tx, s.ID)
		if err != nil {
			return err
		}
		section, err := levelFor(ctx, tx, locked, in.SectionID)
		if err != nil {
			return err
		}
		if sp == nil {
			spaceTitle := locked.Title
			if title != nil {
				spaceTitle = *title
			}
			if sp, err = svc.NewSpace(ctx, tx, locked.OrganizationID, spaceTitle); err != nil {
				return err
			}
		}
		if added, err = appendSiteSpaces(ctx, tx, locked, section, []*ent.Space{sp}); err != nil || title == nil && in.PageID == nil {
			return err
		}
		return tx.SiteSpace.UpdateOne(added[0]).SetNillableTitle(title).SetNillablePageID(in.PageID).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return svc.SiteSpace(ctx, s, added[0].ID)
}

// siteSpaceTitle checks a site space's title given on its creation: nil when none is given,
// else trimmed, 2 to 128 characters (the reference's SiteTitle). Returns INVALID naming title.
func siteSpaceTitle(title *string) (*string, error) {
	if title == nil {
		return nil, nil
	}
	t, err := check.Trimmed("title", *title, TitleMin, TitleMax)
	return &t, err
}

// spaceWithHome returns the space a new site space shows (nil for a new space), after checking
// its home page. Returns NOT_FOUND naming spaceId or pageId, INVALID naming pageId.
func (svc *Service) spaceWithHome(ctx context.Context, orgID string, spaceID, pageID *string) (*ent.Space, error) {
	if spaceID == nil {
		if pageID != nil {
			return nil, apperr.Invalidf("pageId: a new space has no pages yet (add the site space, then set its home page)")
		}
		return nil, nil
	}
	sp, err := svc.spaceFor(ctx, orgID, "spaceId", *spaceID)
	if err == nil && pageID != nil {
		err = svc.checkHomePage(ctx, sp.ID, *pageID)
	}
	return sp, err
}

// checkHomePage checks that pageID names a document page of the space's current content: a
// site space's custom home page. Returns NOT_FOUND or INVALID naming pageId.
func (svc *Service) checkHomePage(ctx context.Context, spaceID, pageID string) error {
	if err := check.Text("pageId", pageID, 1, pageIDMax); err != nil {
		return err
	}
	t, err := svc.SpaceTree(ctx, spaceID)
	if err != nil && !apperr.IsNotFound(err) {
		return err
	}
	var p *tree.Page
	if t != nil {
		p = t.Page(pageID)
	}
	switch {
	case p == nil:
		return apperr.NotFoundf("pageId: space %q has no page with the id %q", spaceID, check.Truncate(pageID, 80))
	case p.Type != "document":
		return apperr.Invalidf("pageId: page %q is a %s; a home page must be a document", pageID, p.Type)
	}
	return nil
}

// levelFor returns the level a site space is added to: the section named (one of the site's),
// else the site's default section, else the root level (nil). Returns NOT_FOUND naming sectionId.
func levelFor(ctx context.Context, tx *ent.Tx, s *ent.Site, sectionID *string) (*string, error) {
	if sectionID == nil {
		return s.DefaultSectionID, nil
	}
	ok, err := tx.SiteSection.Query().Where(sitesection.ID(*sectionID), sitesection.SiteID(s.ID)).Exist(ctx)
	if err == nil && !ok {
		err = apperr.NotFoundf("sectionId: no section of this site has the id %q", check.Truncate(*sectionID, 80))
	}
	return sectionID, err
}

// appendSiteSpaces adds spaces to site s, in tx, after the site spaces of a level (section; nil
// for the root level), each at a path made from its space's title that nothing of the level
// holds; the first becomes the level's default when it has none, and the site's counter goes up.
// The caller holds the site's lock (lockSite). Returns the new site spaces, CONFLICT when a
// space is already in the level.
func appendSiteSpaces(ctx context.Context, tx *ent.Tx, s *ent.Site, section *string, spaces []*ent.Space) ([]*ent.SiteSpace, error) {
	if len(spaces) == 0 {
		return nil, nil
	}
	sibs, err := levelSiteSpaces(ctx, tx, s.ID, section)
	if err != nil {
		return nil, err
	}
	taken, err := takenPaths(ctx, tx, s.ID, section, sibs)
	if err != nil {
		return nil, err
	}
	for _, sp := range spaces {
		if err := spaceFree(sibs, "", sp.ID); err != nil {
			return nil, err
		}
	}
	keys, err := appendKeys(ctx, tx, sibs, len(spaces))
	if err != nil {
		return nil, err
	}
	hasDefault := slices.ContainsFunc(sibs, func(o *ent.SiteSpace) bool { return o.IsDefault })
	creates := make([]*ent.SiteSpaceCreate, len(spaces))
	for i, sp := range spaces {
		creates[i] = tx.SiteSpace.Create().SetOrganizationID(s.OrganizationID).SetSiteID(s.ID).SetSpaceID(sp.ID).
			SetNillableSectionID(section).SetPath(freePath(edit.Slugify(sp.Title), taken)).SetPosition(keys[i]).
			SetIsDefault(!hasDefault && i == 0)
	}
	added, err := tx.SiteSpace.CreateBulk(creates...).Save(ctx)
	if err != nil {
		return nil, err
	}
	return added, tx.Site.UpdateOneID(s.ID).AddSiteSpacesCount(len(added)).Exec(ctx)
}

// levelSiteSpaces returns the site spaces of a level of a site in their order. It reads them as
// the system: those of spaces the viewer may not read also hold paths, places and defaults; only
// these are used, none is returned to the viewer.
func levelSiteSpaces(ctx context.Context, tx *ent.Tx, siteID string, section *string) ([]*ent.SiteSpace, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	return tx.SiteSpace.Query().Where(sitespace.SiteID(siteID), AtLevel(section)).
		Order(ent.Asc(sitespace.FieldPosition), ent.Asc(sitespace.FieldID)).All(sys)
}

// takenPaths returns the paths visitors reach in a level: its site spaces' (sibs), and at the
// root level those of the site's sections too.
func takenPaths(ctx context.Context, tx *ent.Tx, siteID string, section *string, sibs []*ent.SiteSpace) (map[string]bool, error) {
	taken := make(map[string]bool, len(sibs))
	for _, o := range sibs {
		taken[o.Path] = true
	}
	if section != nil {
		return taken, nil
	}
	paths, err := tx.SiteSection.Query().Where(sitesection.SiteID(siteID)).Select(sitesection.FieldPath).
		Strings(privacy.DecisionContext(ctx, privacy.Allow))
	for _, p := range paths {
		taken[p] = true
	}
	return taken, err
}

// appendKeys returns n position keys after the last of sibs, renumbering the level when the last
// key leaves no room after it.
func appendKeys(ctx context.Context, tx *ent.Tx, sibs []*ent.SiteSpace, n int) ([]string, error) {
	last := ""
	if len(sibs) > 0 {
		last = sibs[len(sibs)-1].Position
	}
	keys := make([]string, 0, n)
	for range n {
		k, ok := orderkey.Between(last, "")
		if !ok {
			return renumberLevel(ctx, tx, sibs, len(sibs), n)
		}
		keys, last = append(keys, k), k
	}
	return keys, nil
}

// renumberLevel spreads the keys of a level's site spaces (sibs, in order) anew, leaving room
// for n site spaces at index at, and returns the keys of that room. It writes as the system, for
// the reason levelSiteSpaces reads so: only position keys change, in the same order.
func renumberLevel(ctx context.Context, tx *ent.Tx, sibs []*ent.SiteSpace, at, n int) ([]string, error) {
	keys := orderkey.Spread(len(sibs) + n)
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	for i, o := range sibs {
		k := keys[i]
		if i >= at {
			k = keys[i+n]
		}
		if k == o.Position {
			continue
		}
		if err := tx.SiteSpace.UpdateOneID(o.ID).SetPosition(k).Exec(sys); err != nil {
			return nil, err
		}
	}
	return keys[at : at+n], nil
}

// SiteSpaceChange is an update of a site space: absent fields stay as they are; null removes a
// condition, a home page or a title.
type SiteSpaceChange struct {
	Path, SpaceID            *string
	Condition, PageID, Title check.Nullable[string]
	Hidden                   *bool
}

// UpdateSiteSpace changes a site space: its path (unique in its level), condition, space (one
// not yet in its level), home page, title and hidden flag. It takes the create role in the site's
// organization. Every field is checked before anything is written. Returns INVALID naming the
// field, NOT_FOUND naming spaceId or pageId, CONFLICT naming a path or space another site space
// (or section) of the level holds.
func (svc *Service) UpdateSiteSpace(ctx context.Context, orgID, siteID, id string, in SiteSpaceChange) (*ent.SiteSpace, error) {
	s, ss, err := svc.ManageableSiteSpace(ctx, orgID, siteID, id, "change site spaces")
	if err != nil {
		return nil, err
	}
	c, err := svc.checkSiteSpaceChange(ctx, s, ss, in)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if _, err := lockSite(ctx, tx, s.ID); err != nil {
			return err
		}
		upd, err := c.apply(ctx, tx, ss)
		if err != nil {
			return err
		}
		if err := svc.keepSiteSpaceURLs(ctx, tx, s, ss, c.in.Path); err != nil {
			return err
		}
		return rule.NotFound(upd.Exec(ctx), "site space")
	})
	if err != nil {
		return nil, err
	}
	return svc.SiteSpace(ctx, s, ss.ID)
}

// checkedSiteSpaceChange is an update of a site space, checked.
type checkedSiteSpaceChange struct {
	in    SiteSpaceChange
	space *ent.Space // the space it shows instead; nil when that stays
}

// checkSiteSpaceChange checks an update of ss of site s: a path that changes, the condition
// against the site's visitor schema, a new space (one of the organization the viewer reads), the
// home page (a document of the space it will show), the title (then trimmed).
func (svc *Service) checkSiteSpaceChange(ctx context.Context, s *ent.Site, ss *ent.SiteSpace, in SiteSpaceChange) (*checkedSiteSpaceChange, error) {
	c := &checkedSiteSpaceChange{in: in}
	if in.Path != nil && *in.Path != ss.Path {
		if err := CheckSegment("path", *in.Path, PathMax); err != nil {
			return nil, err
		}
	}
	if cond := in.Condition.Value; cond != nil {
		if err := CheckCondition(s, *cond); err != nil {
			return nil, err
		}
	}
	spaceID := ss.SpaceID
	if in.SpaceID != nil && *in.SpaceID != ss.SpaceID {
		sp, err := svc.spaceFor(ctx, s.OrganizationID, "spaceId", *in.SpaceID)
		if err != nil {
			return nil, err
		}
		c.space, spaceID = sp, sp.ID
	}
	if p := in.PageID.Value; p != nil {
		if err := svc.checkHomePage(ctx, spaceID, *p); err != nil {
			return nil, err
		}
	}
	if in.Title.Value != nil {
		t, err := siteSpaceTitle(in.Title.Value)
		if err != nil {
			return nil, err
		}
		c.in.Title.Value = t
	}
	return c, nil
}

// apply returns the update of ss in tx, the site's row locked: a new path and a new space must be
// free in its level. A new space takes the home page given, else none (the old space's page is
// none of the new one's).
func (c *checkedSiteSpaceChange) apply(ctx context.Context, tx *ent.Tx, ss *ent.SiteSpace) (*ent.SiteSpaceUpdateOne, error) {
	upd := tx.SiteSpace.UpdateOneID(ss.ID).SetNillableHidden(c.in.Hidden)
	if p := c.in.Path; p != nil && *p != ss.Path {
		if err := pathFree(ctx, tx, ss, *p); err != nil {
			return nil, err
		}
		upd.SetPath(*p)
	}
	if c.space != nil {
		sibs, err := levelSiteSpaces(ctx, tx, ss.SiteID, ss.SectionID)
		if err == nil {
			err = spaceFree(sibs, ss.ID, c.space.ID)
		}
		if err != nil {
			return nil, err
		}
		upd.SetSpaceID(c.space.ID)
		if !c.in.PageID.Set {
			upd.ClearPageID()
		}
	}
	_ = check.SetOrClear(c.in.Condition, nil, upd.SetCondition, upd.ClearCondition)
	_ = check.SetOrClear(c.in.PageID, nil, upd.SetPageID, upd.ClearPageID)
	_ = check.SetOrClear(c.in.Title, nil, upd.SetTitle, upd.ClearTitle)
	return upd, nil
}

// keepSiteSpaceURLs keeps the URLs of a site space whose path changes to path (redirects.Service.KeepOldURLs):
// they start with its section's path, unless that is the default section; the default site
// space of a level has its path in no URL.
func (svc *Service) keepSiteSpaceURLs(ctx context.Context, tx *ent.Tx, s *ent.Site, ss *ent.SiteSpace, path *string) error {
	if path == nil || *path == ss.Path || ss.IsDefault {
		return nil
	}
	section := ""
	if ss.SectionID != nil {
		sec, err := tx.SiteSection.Get(ctx, *ss.SectionID)
		if err != nil {
			return err
		}
		if !sec.IsDefault {
			section = sec.Path + "/"
		}
	}
	return svc.Redirects.KeepOldURLs(ctx, tx, s, section+ss.Path, section+*path, redirects.ToSiteSpace(ss.ID))
}

// spaceFree returns CONFLICT when a site space of sibs other than self already shows the space.
func spaceFree(sibs []*ent.SiteSpace, self, spaceID string) error {
	if slices.ContainsFunc(sibs, func(o *ent.SiteSpace) bool { return o.ID != self && o.SpaceID == spaceID }) {
		return apperr.Conflictf("spaceId: the space %q is already on this site at this level", spaceID)
	}
	return nil
}

// pathFree returns CONFLICT when path is held by another site space of ss's level, or, at the
// root level, by a section of the site.
func pathFree(ctx context.Context, tx *ent.Tx, ss *ent.SiteSpace, path string) error {
	sibs, err := levelSiteSpaces(ctx, tx, ss.SiteID, ss.SectionID)
	if err != nil {
		return err
	}
	sibs = slices.DeleteFunc(sibs, func(o *ent.SiteSpace) bool { return o.ID == ss.ID })
	taken, err := takenPaths(ctx, tx, ss.SiteID, ss.SectionID, sibs)
	if err == nil && taken[path] {
		err = apperr.Conflictf("path: %q is taken by another site space or section of this level", path)
	}
	return err
}

// Position is where a site space goes among the others of its level: just before Before, just
// after After (both: they must be neighbours), or at the end (neither).
type Position struct {
	Before, After *string
}

// MoveSiteSpace moves a site space among the site spaces of its level: just before or after one
// of them, or to the end. It takes the create role in the site's organization. Only the moved row
// changes unless its neighbours' keys leave no room (then the level is renumbered in the same
// transaction). Returns INVALID naming a pointer that names no other site space of the level.
func (svc *Service) MoveSiteSpace(ctx context.Context, orgID, siteID, id string, pos Position) (*ent.SiteSpace, error) {
	s, ss, err := svc.ManageableSiteSpace(ctx, orgID, siteID, id, "move site spaces")
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if _, err := lockSite(ctx, tx, s.ID); err != nil {
			return err
		}
		key, err := placeSiteSpace(ctx, tx, ss, pos)
		if err != nil {
			return err
		}
		return rule.NotFound(tx.SiteSpace.UpdateOneID(ss.ID).SetPosition(key).Exec(ctx), "site space")
	})
	if err != nil {
		return nil, err
	}
	return svc.SiteSpace(ctx, s, ss.ID)
}

// placeSiteSpace returns the position key of ss among the other site spaces of its level, where
// pos says.
func placeSiteSpace(ctx context.Context, tx *ent.Tx, ss *ent.SiteSpace, pos Position) (string, error) {
	sibs, err := levelSiteSpaces(ctx, tx, ss.SiteID, ss.SectionID)
	if err != nil {
		return "", err
	}
	sibs = slices.DeleteFunc(sibs, func(o *ent.SiteSpace) bool { return o.ID == ss.ID })
	at, err := insertionIndex(sibs, pos)
	if err != nil {
		return "", err
	}
	lo, hi := "", ""
	if at > 0 {
		lo = sibs[at-1].Position
	}
	if at < len(sibs) {
		hi = sibs[at].Position
	}
	if at == len(sibs) || hi != "" { // an empty key bounds nothing from above: renumber
		if key, ok := orderkey.Between(lo, hi); ok {
			return key, nil
		}
	}
	keys, err := renumberLevel(ctx, tx, sibs, at, 1)
	if err != nil {
		return "", err
	}
	return keys[0], nil
}

// insertionIndex returns the index in sibs (the other site spaces of a level, in order) where a
// site space goes, as pos says. Returns INVALID naming the pointer that names none of sibs.
func insertionIndex(sibs []*ent.SiteSpace, pos Position) (int, error) {
	find := func(field string, id *string) (int, error) {
		i := slices.IndexFunc(sibs, func(o *ent.SiteSpace) bool { return o.ID == *id })
		if i < 0 {
			return 0, apperr.Invalidf("%s: no other site space of this level has the id %q", field, check.Truncate(*id, 80))
		}
		return i, nil
	}
	switch {
	case pos.Before == nil && pos.After == nil:
		return len(sibs), nil
	case pos.Before == nil:
		after, err := find("position.after", pos.After)
		return after + 1, err
	}
	before, err := find("position.before", pos.Before)
	if err != nil || pos.After == nil {
		return before, err
	}
	after, err := find("position.after", pos.After)
	if err == nil && after != before-1 {
		err = apperr.Invalidf("position: before and after must name neighbours (after just before before)")
	}
	return before, err
}

// DeleteSiteSpace removes a site space from its site (Leave). It takes the create role in the
// site's organization.
func (svc *Service) DeleteSiteSpace(ctx context.Context, orgID, siteID, id string) error {
	_, ss, err := svc.ManageableSiteSpace(ctx, orgID, siteID, id, "remove site spaces")
	if err != nil {
		return err
	}
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		n, err := Leave(ctx, tx, sitespace.ID(ss.ID))
		if err == nil && n == 0 {
			err = apperr.NotFoundf("site space not found")
		}
		return err
	})
}
