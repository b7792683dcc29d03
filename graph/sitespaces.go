package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/orderkey"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/redirects"
	"github.com/binderyhq/bindery/internal/sites"
	"github.com/binderyhq/bindery/internal/txn"
)

// A site space shows a space on a site, in a level: one of the site's sections, or its root level
// (section nil). The site spaces of a level are in one order (position keys, then id), each at a
// path no other holds there, and one of them is the level's default. Every write that adds or
// removes site spaces locks their site first (PostgreSQL; SQLite has one writer), so concurrent
// writes to a site queue: orders, paths, defaults and the site's counter stay whole.

// siteSpace returns a site space of site s that the viewer sees. Returns NOT_FOUND otherwise.
func (r *Resolver) siteSpace(ctx context.Context, s *ent.Site, id string) (*ent.SiteSpace, error) {
	ss, err := r.Client.SiteSpace.Query().Where(sitespace.ID(id), sitespace.SiteID(s.ID)).Only(ctx)
	return ss, notFound(err, "site space")
}

// manageableSiteSpace returns a site the viewer may change and one of its site spaces.
// Returns NOT_FOUND or FORBIDDEN.
func (r *Resolver) manageableSiteSpace(ctx context.Context, orgID, siteID, id, action string) (*ent.Site, *ent.SiteSpace, error) {
	s, err := r.manageableSite(ctx, orgID, siteID, action)
	if err != nil {
		return nil, nil, err
	}
	ss, err := r.siteSpace(ctx, s, id)
	return s, ss, err
}

// siteSpaces is Site.siteSpaces: a page of the site spaces the viewer sees (def true: only the
// defaults of their levels; false: only the others).
func (r *Resolver) siteSpaces(ctx context.Context, s *ent.Site, first *int, after *string, def *bool) (*model.SiteSpaceConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	var f loader.SiteSpaceFilter
	if def != nil {
		f.Default = fmt.Sprint(*def)
	}
	p, err := loader.For(ctx, r.Client).SiteSpacePage(ctx, s, f, args)
	if err != nil {
		return nil, err
	}
	return &model.SiteSpaceConnection{
		Edges: edges(ctx, p.Items, siteSpaceCursor, func(c string, n *ent.SiteSpace) *model.SiteSpaceEdge {
			return &model.SiteSpaceEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func siteSpaceCursor(ss *ent.SiteSpace) page.Cursor { return page.Cursor{Key: ss.Position, ID: ss.ID} }

// siteSpaceSpace is SiteSpace.space, looked up for every site space of the level at once.
func (r *Resolver) siteSpaceSpace(ctx context.Context, ss *ent.SiteSpace) (*ent.Space, error) {
	sp, err := loader.Get(ctx, r.Client, loader.Spaces, ss, func(ss *ent.SiteSpace) string { return ss.SpaceID })
	if err == nil && sp == nil {
		return nil, apperr.NotFoundf("space not found")
	}
	return sp, err
}

// siteSpaceTitle is SiteSpace.title: the one it was given, else its space's.
func (r *Resolver) siteSpaceTitle(ctx context.Context, ss *ent.SiteSpace) (string, error) {
	if ss.Title != nil {
		return *ss.Title, nil
	}
	sp, err := r.siteSpaceSpace(ctx, ss)
	if err != nil {
		return "", err
	}
	return sp.Title, nil
}

// siteURL is Site.url: where the site is served (publish), named by its basename, else its id.
func (r *Resolver) siteURL(s *ent.Site) string {
	return strings.TrimRight(r.BaseURL, "/") + "/sites/" + derefOr(s.Basename, s.ID)
}

// siteSpaceURL is SiteSpace.url: siteSpaceBaseURL with the share key resolved for the site
// (keyedURL).
func (r *Resolver) siteSpaceURL(ctx context.Context, ss *ent.SiteSpace) (string, error) {
	u, err := r.siteSpaceBaseURL(ctx, ss)
	return keyedURL(ctx, ss.SiteID, u), err
}

// siteSpaceBaseURL is where its site serves a site space (publish): the site's URL, then its
// section's path unless that is the site's default section, then its own path unless it is the
// default of its level. Its site and section are looked up for the whole level at once.
func (r *Resolver) siteSpaceBaseURL(ctx context.Context, ss *ent.SiteSpace) (string, error) {
	s, err := siteOf(ctx, r, ss, func(ss *ent.SiteSpace) string { return ss.SiteID })
	if err != nil {
		return "", err
	}
	u := r.siteURL(s) + "/"
	if ss.SectionID != nil {
		sec, err := loader.Get(ctx, r.Client, loader.SiteSections, ss, func(ss *ent.SiteSpace) string { return derefOr(ss.SectionID, "") })
		if err != nil {
			return "", err
		}
		if sec != nil {
			u = r.sectionURL(s, sec)
		}
	}
	if !ss.IsDefault {
		u += ss.Path + "/"
	}
	return u, nil
}

// addSiteSpace shows a space on a site (in.SpaceID nil: a new space titled like the site, or as
// in.Title), after the site spaces of its level, with the title and home page given (decision
// 178). It takes the create role in the site's organization. Returns NOT_FOUND naming spaceId,
// sectionId or pageId, INVALID naming title or pageId, CONFLICT when the space is already in that
// level.
func (r *Resolver) addSiteSpace(ctx context.Context, orgID, siteID string, in model.AddSiteSpaceInput) (*ent.SiteSpace, error) {
	s, err := r.manageableSite(ctx, orgID, siteID, "add spaces to sites")
	if err != nil {
		return nil, err
	}
	title, err := siteSpaceTitleInput(in.Title)
	if err != nil {
		return nil, err
	}
	sp, err := r.spaceWithHome(ctx, orgID, in.SpaceID, in.PageID)
	if err != nil {
		return nil, err
	}
	var added []*ent.SiteSpace
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		locked, err := lockSite(ctx, tx, s.ID)
		if err != nil {
			return err
		}
		section, err := levelFor(ctx, tx, locked, in.SectionID)
		if err != nil {
			return err
		}
		if sp == nil {
			if sp, err = r.newSpaceFor(ctx, tx, locked.OrganizationID, derefOr(title, locked.Title)); err != nil {
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
	return r.siteSpace(ctx, s, added[0].ID)
}

// siteSpaceTitleInput checks a site space's title given on its creation: nil when none is given,
// else trimmed, 2 to 128 characters (the reference's SiteTitle). Returns INVALID naming title.
func siteSpaceTitleInput(title *string) (*string, error) {
	if title == nil {
		return nil, nil
	}
	t, err := trimmedText("title", *title, siteTitleMin, siteTitleMax)
	return &t, err
}

// spaceWithHome returns the space a new site space shows (nil for a new space), after checking
// its home page. Returns NOT_FOUND naming spaceId or pageId, INVALID naming pageId.
func (r *Resolver) spaceWithHome(ctx context.Context, orgID string, spaceID, pageID *string) (*ent.Space, error) {
	if spaceID == nil {
		if pageID != nil {
			return nil, apperr.Invalidf("pageId: a new space has no pages yet (add the site space, then set its home page)")
		}
		return nil, nil
	}
	sp, err := r.spaceForSite(ctx, orgID, "spaceId", *spaceID)
	if err == nil && pageID != nil {
		err = r.checkHomePage(ctx, sp.ID, *pageID)
	}
	return sp, err
}

// checkHomePage checks that pageID names a document page of the space's current content: a
// site space's custom home page. Returns NOT_FOUND or INVALID naming pageId.
func (r *Resolver) checkHomePage(ctx context.Context, spaceID, pageID string) error {
	if err := checkText("pageId", pageID, 1, pageIDMax); err != nil {
		return err
	}
	content, err := r.SpaceContent(ctx, spaceID, nil)
	if err != nil && !isNotFound(err) {
		return err
	}
	var p *tree.Page
	if content != nil {
		p = content.Tree.Page(pageID)
	}
	switch {
	case p == nil:
		return apperr.NotFoundf("pageId: space %q has no page with the id %q", spaceID, truncate(pageID, 80))
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
		err = apperr.NotFoundf("sectionId: no section of this site has the id %q", truncate(*sectionID, 80))
	}
	return sectionID, err
}

// newSpaceFor makes, in tx, a space of the organization for a site: titled like the site (cut to
// the space title bound), at the end of the organization's top level, empty.
func (r *Resolver) newSpaceFor(ctx context.Context, tx *ent.Tx, orgID, siteTitle string) (*ent.Space, error) {
	if err := r.checkCreateIn(ctx, orgID, nil); err != nil {
		return nil, err
	}
	return r.insertSpaceTx(ctx, tx, orgID, nil, nil, tree.EmptyRoot, func(c *ent.SpaceCreate) {
		c.SetTitle(cut(siteTitle, maxSpaceTitle)).SetDefaultLevel(space.DefaultLevelInherit)
	})
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
	return tx.SiteSpace.Query().Where(sitespace.SiteID(siteID), sites.AtLevel(section)).
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

// lockSite reads a site again in tx, locking its row on PostgreSQL (SQLite's one writer already
// serializes), so that the writes to one site's site spaces queue and each sees the others'.
func lockSite(ctx context.Context, tx *ent.Tx, siteID string) (*ent.Site, error) {
	s, err := tx.Site.Query().Where(site.ID(siteID)).Modify(txn.ForUpdate).Only(ctx)
	return s, notFound(err, "site")
}

// updateSiteSpace changes a site space: its path (unique in its level), condition, space (one
// not yet in its level), home page, title (null removes those three) and hidden flag. It takes the
// create role in the site's organization. Every field is checked before anything is written.
// Returns INVALID naming the field, NOT_FOUND naming spaceId or pageId, CONFLICT naming a path or
// space another site space (or section) of the level holds.
func (r *Resolver) updateSiteSpace(ctx context.Context, orgID, siteID, id string, in model.UpdateSiteSpaceInput) (*ent.SiteSpace, error) {
	s, ss, err := r.manageableSiteSpace(ctx, orgID, siteID, id, "change site spaces")
	if err != nil {
		return nil, err
	}
	c, err := r.checkSiteSpaceChange(ctx, s, ss, in)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if _, err := lockSite(ctx, tx, s.ID); err != nil {
			return err
		}
		upd, err := c.apply(ctx, tx, ss)
		if err != nil {
			return err
		}
		if err := r.keepSiteSpaceURLs(ctx, tx, s, ss, c.in.Path); err != nil {
			return err
		}
		return notFound(upd.Exec(ctx), "site space")
	})
	if err != nil {
		return nil, err
	}
	return r.siteSpace(ctx, s, ss.ID)
}

// siteSpaceChange is an update of a site space, checked.
type siteSpaceChange struct {
	in    model.UpdateSiteSpaceInput
	space *ent.Space                 // the space it shows instead; nil when that stays
	title graphql.Omittable[*string] // in.Title, trimmed
}

// checkSiteSpaceChange checks an update of ss of site s: a path that changes, the condition
// against the site's visitor schema, a new space (one of the organization the viewer reads), the
// home page (a document of the space it will show), the title.
func (r *Resolver) checkSiteSpaceChange(ctx context.Context, s *ent.Site, ss *ent.SiteSpace, in model.UpdateSiteSpaceInput) (*siteSpaceChange, error) {
	c := &siteSpaceChange{in: in, title: in.Title}
	if in.Path != nil && *in.Path != ss.Path {
		if err := checkSegment("path", *in.Path, sitePathMax); err != nil {
			return nil, err
		}
	}
	if cond := in.Condition.Value(); cond != nil {
		if err := checkSiteCondition(ctx, s, *cond); err != nil {
			return nil, err
		}
	}
	spaceID := ss.SpaceID
	if in.SpaceID != nil && *in.SpaceID != ss.SpaceID {
		sp, err := r.spaceForSite(ctx, s.OrganizationID, "spaceId", *in.SpaceID)
		if err != nil {
			return nil, err
		}
		c.space, spaceID = sp, sp.ID
	}
	if p := in.PageID.Value(); p != nil {
		if err := r.checkHomePage(ctx, spaceID, *p); err != nil {
			return nil, err
		}
	}
	if in.Title.Value() != nil {
		t, err := siteSpaceTitleInput(in.Title.Value())
		if err != nil {
			return nil, err
		}
		c.title = graphql.OmittableOf(t)
	}
	return c, nil
}

// apply returns the update of ss in tx, the site's row locked: a new path and a new space must be
// free in its level. A new space takes the home page given, else none (the old space's page is
// none of the new one's).
func (c *siteSpaceChange) apply(ctx context.Context, tx *ent.Tx, ss *ent.SiteSpace) (*ent.SiteSpaceUpdateOne, error) {
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
		if !c.in.PageID.IsSet() {
			upd.ClearPageID()
		}
	}
	_ = setOrClear(c.in.Condition, nil, upd.SetCondition, upd.ClearCondition)
	_ = setOrClear(c.in.PageID, nil, upd.SetPageID, upd.ClearPageID)
	_ = setOrClear(c.title, nil, upd.SetTitle, upd.ClearTitle)
	return upd, nil
}

// keepSiteSpaceURLs keeps the URLs of a site space whose path changes to path (redirects.Service.KeepOldURLs):
// they start with its section's path, unless that is the default section; the default site
// space of a level has its path in no URL.
func (r *Resolver) keepSiteSpaceURLs(ctx context.Context, tx *ent.Tx, s *ent.Site, ss *ent.SiteSpace, path *string) error {
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
	return r.redirects().KeepOldURLs(ctx, tx, s, section+ss.Path, section+*path, redirects.ToSiteSpace(ss.ID))
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

// checkSegment validates a segment of a site's URLs (a site space's path, a site's basename):
// 1 to max characters, lower-case letters and digits of any script, '-', '_' and '.', starting
// and ending with a letter or digit. Returns INVALID naming the field.
func checkSegment(field, s string, max int) error {
	if err := checkText(field, s, 1, max); err != nil {
		return err
	}
	runes := []rune(s)
	for i, r := range runes {
		alnum := unicode.IsDigit(r) || unicode.IsLetter(r) && !unicode.IsUpper(r) && !unicode.IsTitle(r)
		edge := i == 0 || i == len(runes)-1
		if !alnum && (edge || !strings.ContainsRune("-_.", r)) {
			return apperr.Invalidf("%s: must be lower-case letters, digits, '-', '_' or '.', starting and ending with a letter or digit (got %q)",
				field, truncate(s, 80))
		}
	}
	return nil
}

// moveSiteSpace moves a site space among the site spaces of its level: just before or after one
// of them, or to the end. It takes the create role in the site's organization. Only the moved row
// changes unless its neighbours' keys leave no room (then the level is renumbered in the same
// transaction). Returns INVALID naming a pointer that names no other site space of the level.
func (r *Resolver) moveSiteSpace(ctx context.Context, orgID, siteID, id string, in model.MoveSiteSpaceInput) (*ent.SiteSpace, error) {
	s, ss, err := r.manageableSiteSpace(ctx, orgID, siteID, id, "move site spaces")
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if _, err := lockSite(ctx, tx, s.ID); err != nil {
			return err
		}
		key, err := placeSiteSpace(ctx, tx, ss, in.Position)
		if err != nil {
			return err
		}
		return notFound(tx.SiteSpace.UpdateOneID(ss.ID).SetPosition(key).Exec(ctx), "site space")
	})
	if err != nil {
		return nil, err
	}
	return r.siteSpace(ctx, s, ss.ID)
}

// placeSiteSpace returns the position key of ss among the other site spaces of its level, where
// pos says (at the end when nil).
func placeSiteSpace(ctx context.Context, tx *ent.Tx, ss *ent.SiteSpace, pos *model.SiteSpacePositionInput) (string, error) {
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
// site space goes: just before pos.Before, just after pos.After (both: they must be neighbours),
// or at the end. Returns INVALID naming the pointer that names none of sibs.
func insertionIndex(sibs []*ent.SiteSpace, pos *model.SiteSpacePositionInput) (int, error) {
	find := func(field string, id *string) (int, error) {
		i := slices.IndexFunc(sibs, func(o *ent.SiteSpace) bool { return o.ID == *id })
		if i < 0 {
			return 0, apperr.Invalidf("%s: no other site space of this level has the id %q", field, truncate(*id, 80))
		}
		return i, nil
	}
	switch {
	case pos == nil || pos.Before == nil && pos.After == nil:
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

// deleteSiteSpace removes a site space from its site (sites.Leave). It takes the create role in
// the site's organization.
func (r *Resolver) deleteSiteSpace(ctx context.Context, orgID, siteID, id string) (bool, error) {
	_, ss, err := r.manageableSiteSpace(ctx, orgID, siteID, id, "remove site spaces")
	if err != nil {
		return false, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		n, err := sites.Leave(ctx, tx, sitespace.ID(ss.ID))
		if err == nil && n == 0 {
			err = apperr.NotFoundf("site space not found")
		}
		return err
	})
	return err == nil, err
}

// siteDefaultSpace is Site.defaultSiteSpace.
func (r *Resolver) siteDefaultSpace(ctx context.Context, s *ent.Site) (*ent.SiteSpace, error) {
	return loader.For(ctx, r.Client).SiteDefaultSpace(ctx, s)
}
