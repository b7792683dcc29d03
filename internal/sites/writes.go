package sites

import (
	"context"
	"regexp"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of a site's settings (spec/03 Limits).
const (
	basenameMax = 100
	proxyMax    = 512
)

// proxyPattern is the reference's SiteProxyOrigin: a host name and a path, e.g. example.com/docs.
var proxyPattern = regexp.MustCompile(`^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(/[\w-]+)+$`)

// NewSite is a site to create: its type and visibility (nil: the defaults), its title (nil: the
// organization's), and the spaces it shows in order, or a new space titled like the site.
type NewSite struct {
	Type       *site.Type
	Visibility *site.Visibility
	Title      *string
	Spaces     []string
	NewSpace   bool
}

// Create creates a site whose site spaces are the given spaces, in order, the first one the
// default; or, with in.NewSpace, a new space titled like the site.
func (svc *Service) Create(ctx context.Context, orgID string, in NewSite) (*ent.Site, error) {
	o, err := svc.Organization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if err := rule.RequireOrgRole(ctx, orgID, viewer.RoleCreate, "create sites"); err != nil {
		return nil, err
	}
	title, err := siteTitle(in.Title, o.Title)
	if err != nil {
		return nil, err
	}
	if in.NewSpace && len(in.Spaces) > 0 {
		return nil, apperr.Invalidf("spaces: name spaces or ask for a new space, not both")
	}
	spaces, err := svc.spacesFor(ctx, orgID, "spaces", in.Spaces)
	if err != nil {
		return nil, err
	}
	var s *ent.Site
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		create := tx.Site.Create().SetOrganizationID(orgID).SetTitle(title).
			SetNillableType(in.Type).SetNillableVisibility(in.Visibility)
		if s, err = create.Save(ctx); err != nil {
			return err
		}
		if in.NewSpace {
			sp, err := svc.NewSpace(ctx, tx, orgID, title)
			if err != nil {
				return err
			}
			spaces = []*ent.Space{sp}
		}
		_, err = appendSiteSpaces(ctx, tx, s, nil, spaces)
		return err
	})
	if err != nil {
		return nil, err
	}
	return svc.Site(ctx, orgID, s.ID)
}

// siteTitle is the title of a new site: the one given, checked, or the organization's.
func siteTitle(given *string, orgTitle string) (string, error) {
	if given != nil {
		return check.Trimmed("title", *given, TitleMin, TitleMax)
	}
	return check.Cut(orgTitle, TitleMax), nil
}

// Settings is a change of a site's settings: absent fields stay as they are; a null proxy is
// removed.
type Settings struct {
	Title, Basename                      *string
	Visibility                           *site.Visibility
	AdaptiveContent                      *bool
	DefaultSiteSpace, DefaultSiteSection *string
	Proxy                                check.Nullable[string]
	// Hostname is the custom hostname the site is served on (null: none); see CustomHostname.
	Hostname check.Nullable[string]
}

// Update changes a site's settings. It takes the create role in the site's organization; one bad
// field changes nothing. Returns INVALID naming the field, NOT_FOUND naming a default that is not
// the site's, CONFLICT naming a basename or hostname another site holds.
func (svc *Service) Update(ctx context.Context, orgID, siteID string, in Settings) (*ent.Site, error) {
	s, err := svc.ManageableSite(ctx, orgID, siteID, "change sites")
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		locked, err := lockSite(ctx, tx, s.ID)
		if err != nil {
			return err
		}
		upd := tx.Site.UpdateOne(locked)
		if err := setSiteFields(ctx, tx, upd, locked, in); err != nil {
			return err
		}
		if err := svc.setHostname(ctx, tx, upd, locked, in.Hostname); err != nil {
			return err
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		updated := siteEvent(events.SiteUpdated, locked, map[string]any{"fields": events.FieldsChanged(upd.Mutation())})
		if err := events.Record(ctx, tx.Client(), updated); err != nil {
			return err
		}
		if in.DefaultSiteSpace == nil {
			return nil
		}
		return setDefaultSiteSpace(ctx, tx, locked, *in.DefaultSiteSpace, in.DefaultSiteSection)
	})
	if ent.IsConstraintError(err) {
		err = settingTaken(err, in)
	}
	if err != nil {
		return nil, err
	}
	return svc.Site(ctx, orgID, siteID)
}

// checkProxy validates a proxy origin: the reference's SiteProxyOrigin pattern, at most
// proxyMax characters. Returns INVALID naming the field.
func checkProxy(p string) error {
	if err := check.Text("proxy", p, 1, proxyMax); err != nil {
		return err
	}
	if !proxyPattern.MatchString(p) {
		return apperr.Invalidf("proxy: must be a host name and a path, like example.com/docs (got %q)", check.Truncate(p, 80))
	}
	return nil
}

// setSiteFields checks the changes of in to site s and puts them on upd. Returns INVALID naming
// the field, CONFLICT for a basename another site holds, NOT_FOUND for a default section that is
// not the site's.
func setSiteFields(ctx context.Context, tx *ent.Tx, upd *ent.SiteUpdateOne, s *ent.Site, in Settings) error {
	if err := check.SetTrimmed("title", in.Title, TitleMin, TitleMax, upd.SetTitle); err != nil {
		return err
	}
	if in.Visibility != nil {
		upd.SetVisibility(*in.Visibility)
	}
	if in.AdaptiveContent != nil {
		upd.SetAdaptiveContentEnabled(*in.AdaptiveContent)
	}
	if err := check.SetOrClear(in.Proxy, checkProxy, upd.SetProxyOrigin, upd.ClearProxyOrigin); err != nil {
		return err
	}
	if b := in.Basename; b != nil {
		if err := setBasename(ctx, tx, upd, s, *b); err != nil {
			return err
		}
	}
	if id := in.DefaultSiteSection; id != nil {
		return makeDefaultSection(ctx, tx, upd, s.ID, *id, "defaultSiteSection")
	}
	return nil
}

// setBasename checks basename b and gives it to site s, unless another site holds it as its
// basename or its id (sites are served under either). Basenames are unique on the server: whether
// one is taken is read across organizations, and only that is told. Returns INVALID or CONFLICT
// naming basename.
func setBasename(ctx context.Context, tx *ent.Tx, upd *ent.SiteUpdateOne, s *ent.Site, b string) error {
	if err := CheckSegment("basename", b, basenameMax); err != nil || idOr(s.Basename) == b {
		return err
	}
	taken, err := tx.Site.Query().Where(site.Or(site.Basename(b), site.ID(b))).Exist(privacy.DecisionContext(ctx, privacy.Allow))
	if err != nil {
		return err
	}
	if taken {
		return basenameTaken(b)
	}
	upd.SetBasename(b)
	return nil
}

// settingTaken is the CONFLICT of a constraint error err of update in: the basename or the
// hostname another site took meanwhile.
func settingTaken(err error, in Settings) error {
	if in.Hostname.Value != nil && (in.Basename == nil || strings.Contains(err.Error(), "hostname")) {
		return hostnameTaken(*in.Hostname.Value)
	}
	if in.Basename != nil {
		return basenameTaken(*in.Basename)
	}
	return err
}

func basenameTaken(b string) error {
	return apperr.Conflictf("basename: %q is taken by another site", b)
}

// setDefaultSiteSpace makes site space id the default of the site's default level: its default
// section (section, when the update names one, else the site's), or its root level when it has
// none. The caller holds the site's lock. Returns NOT_FOUND naming defaultSiteSpace when the site
// has no such site space the viewer sees, INVALID when it is in another level.
func setDefaultSiteSpace(ctx context.Context, tx *ent.Tx, s *ent.Site, id string, section *string) error {
	ss, err := tx.SiteSpace.Query().Where(sitespace.ID(id), sitespace.SiteID(s.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.NotFoundf("defaultSiteSpace: no site space of this site has the id %q", check.Truncate(id, 80))
	}
	if err != nil {
		return err
	}
	if section == nil {
		section = s.DefaultSectionID
	}
	if idOr(ss.SectionID) != idOr(section) {
		where := "the site's root level"
		if section != nil {
			where = "the site's default section"
		}
		return apperr.Invalidf("defaultSiteSpace: site space %q is not in %s", ss.ID, where)
	}
	if ss.IsDefault {
		return nil
	}
	// The flag moves within the level, over site spaces the viewer may not read too (as
	// levelSiteSpaces reads them): only which one is the default changes.
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	err = tx.SiteSpace.Update().Where(sitespace.SiteID(s.ID), AtLevel(section), sitespace.IsDefault(true)).
		SetIsDefault(false).Exec(sys)
	if err != nil {
		return err
	}
	return tx.SiteSpace.UpdateOne(ss).SetIsDefault(true).Exec(ctx)
}

// Delete deletes a site; its site spaces, sections and section groups go with it (their foreign
// keys cascade), and an organization whose default content it was has none after. It takes the
// create role in the site's organization.
func (svc *Service) Delete(ctx context.Context, orgID, siteID string) error {
	s, err := svc.ManageableSite(ctx, orgID, siteID, "delete sites")
	if err != nil {
		return err
	}
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		// The organization's default content follows the site it names, whoever may change the
		// organization's settings: the site's deletion was decided above.
		sys := privacy.DecisionContext(ctx, privacy.Allow)
		err := tx.Organization.Update().Where(organization.ID(s.OrganizationID), organization.DefaultContentSite(s.ID)).
			ClearDefaultContentSite().Exec(sys)
		if err != nil {
			return err
		}
		return rule.NotFound(tx.Site.DeleteOne(s).Exec(ctx), "site")
	})
}

// SetPublished publishes or unpublishes a site. It takes the create role in the site's
// organization.
func (svc *Service) SetPublished(ctx context.Context, orgID, siteID string, published bool) (*ent.Site, error) {
	action := "publish sites"
	if !published {
		action = "unpublish sites"
	}
	s, err := svc.ManageableSite(ctx, orgID, siteID, action)
	if err != nil {
		return nil, err
	}
	typ := events.SitePublished
	if !published {
		typ = events.SiteUnpublished
	}
	err = events.Write(ctx, svc.Client, siteEvent(typ, s, nil), func(tx *ent.Tx) error {
		s, err = tx.Site.UpdateOne(s).SetPublished(published).Save(ctx)
		return err
	})
	return s, err
}

// siteEvent is an event about a site.
func siteEvent(typ string, s *ent.Site, details map[string]any) events.Event {
	return events.Event{Type: typ, Organization: s.OrganizationID, ObjectKind: "site", ObjectID: s.ID, Site: s.ID, Details: details, Label: s.Title}
}
