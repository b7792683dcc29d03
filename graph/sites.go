package graph

import (
	"context"
	"fmt"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of sites and site spaces (spec/03 Limits).
const (
	siteTitleMin, siteTitleMax = 2, 128
	sitePathMax                = 100
	siteSpacesMax              = 1000 // spaces named in one create
	pageIDMax                  = 100  // a site space's home page id (ids are far shorter)
)

// site returns a site of an organization the viewer sees.
// Returns NOT_FOUND if either does not exist or the viewer may not see it.
func (r *Resolver) site(ctx context.Context, orgID, siteID string) (*ent.Site, error) {
	if _, err := r.organization(ctx, orgID); err != nil {
		return nil, err
	}
	s, err := r.Client.Site.Query().Where(site.ID(siteID), site.OrganizationID(orgID)).Only(sqlplan.ByKey(ctx))
	return s, notFound(err, "site")
}

// manageableSite returns a site the viewer may change (creators and admins of its organization).
// Returns NOT_FOUND or FORBIDDEN.
func (r *Resolver) manageableSite(ctx context.Context, orgID, siteID, action string) (*ent.Site, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleCreate, action); err != nil {
		return nil, err
	}
	return r.site(ctx, orgID, siteID)
}

func (r *Resolver) sites(ctx context.Context, o *ent.Organization, first *int, after, spaceID, title *string, published *bool) (*model.SiteConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	if !rule.HasOrgRole(viewer.FromContext(ctx), o.ID, viewer.RoleRead) {
		return nil, apperr.Forbiddenf("guests may not list the organization's sites")
	}
	f := loader.SiteFilter{Space: derefOr(spaceID, ""), Title: strings.TrimSpace(derefOr(title, ""))}
	if err := checkText("title", f.Title, 0, siteTitleMax); err != nil {
		return nil, err
	}
	if published != nil {
		f.Published = fmt.Sprint(*published)
	}
	p, err := loader.For(ctx, r.Client).SitePage(ctx, o, f, args)
	if err != nil {
		return nil, err
	}
	return &model.SiteConnection{
		Edges: edges(ctx, p.Items, siteCursor, func(c string, n *ent.Site) *model.SiteEdge {
			return &model.SiteEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func siteCursor(s *ent.Site) page.Cursor { return page.Cursor{Key: s.Title, ID: s.ID} }

func sitePermissions(ctx context.Context, s *ent.Site) *model.SitePermissions {
	p := rule.ForSite(viewer.FromContext(ctx), s.OrganizationID)
	return &model.SitePermissions{
		View: p.View, Access: p.Access, Edit: p.Edit, Create: p.Create, Admin: p.Admin,
		InstallIntegration: p.InstallIntegration, ViewAdaptiveSchema: p.ViewAdaptiveSchema,
		EditAdaptiveSchema: p.EditAdaptiveSchema,
	}
}

// siteProxy is Site.proxy: the origin proxied to the site's own URL, or nil.
func (r *Resolver) siteProxy(s *ent.Site) *model.SiteProxy {
	if s.ProxyOrigin == nil {
		return nil
	}
	return &model.SiteProxy{Origin: *s.ProxyOrigin, Target: r.siteURL(s)}
}

// createSite creates a site whose site spaces are the given spaces, in order, the first one the
// default; or, with in.NewSpace, a new space titled like the site.
func (r *Resolver) createSite(ctx context.Context, orgID string, in model.CreateSiteInput) (*ent.Site, error) {
	o, err := r.requireOrgRole(ctx, orgID, viewer.RoleCreate, "create sites")
	if err != nil {
		return nil, err
	}
	title, err := siteTitle(in.Title, o.Title)
	if err != nil {
		return nil, err
	}
	newSpace := derefOr(in.NewSpace, false)
	if newSpace && len(in.Spaces) > 0 {
		return nil, apperr.Invalidf("spaces: name spaces or ask for a new space, not both")
	}
	spaces, err := r.spacesForSite(ctx, orgID, "spaces", in.Spaces)
	if err != nil {
		return nil, err
	}
	var s *ent.Site
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		create := tx.Site.Create().SetOrganizationID(orgID).SetTitle(title).
			SetNillableType(in.Type).SetNillableVisibility(in.Visibility)
		if s, err = create.Save(ctx); err != nil {
			return err
		}
		if newSpace {
			sp, err := r.newSpaceFor(ctx, tx, orgID, title)
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
	return r.site(ctx, orgID, s.ID)
}

// siteTitle is the title of a new site: the one given, checked, or the organization's.
func siteTitle(given *string, orgTitle string) (string, error) {
	if given != nil {
		return trimmedText("title", *given, siteTitleMin, siteTitleMax)
	}
	return cut(orgTitle, siteTitleMax), nil
}

// cut returns the first max characters of s, without surrounding spaces.
func cut(s string, max int) string {
	if runes := []rune(s); len(runes) > max {
		s = string(runes[:max])
	}
	return strings.TrimSpace(s)
}

// spacesForSite returns the live spaces named by ids, in order: each a space of the organization
// the viewer can read. Returns NOT_FOUND naming the first that is not, INVALID for a repeat.
func (r *Resolver) spacesForSite(ctx context.Context, orgID, field string, ids []string) ([]*ent.Space, error) {
	if len(ids) > siteSpacesMax {
		return nil, apperr.Invalidf("%s: at most %d spaces (got %d)", field, siteSpacesMax, len(ids))
	}
	seen := make(map[string]bool, len(ids))
	spaces := make([]*ent.Space, len(ids))
	for i, id := range ids {
		if seen[id] {
			return nil, apperr.Invalidf("%s[%d]: space %q is named twice", field, i, truncate(id, 80))
		}
		seen[id] = true
		s, err := r.spaceForSite(ctx, orgID, fmt.Sprintf("%s[%d]", field, i), id)
		if err != nil {
			return nil, err
		}
		spaces[i] = s
	}
	return spaces, nil
}

// spaceForSite returns the live space id of the organization, if the viewer can read it.
// Returns NOT_FOUND naming the field otherwise.
func (r *Resolver) spaceForSite(ctx context.Context, orgID, field, id string) (*ent.Space, error) {
	s, err := r.space(ctx, id)
	if isNotFound(err) || err == nil && s.OrganizationID != orgID {
		return nil, apperr.NotFoundf("%s: no space of this organization has the id %q", field, truncate(id, 80))
	}
	return s, err
}

// freePath returns base, or base-2, base-3 … the first that is not taken, and takes it.
func freePath(base string, taken map[string]bool) string {
	if runes := []rune(base); len(runes) > sitePathMax-6 { // room for a "-N" suffix
		base = strings.TrimRight(string(runes[:sitePathMax-6]), "-")
	}
	path := base
	for n := 2; taken[path]; n++ {
		path = fmt.Sprintf("%s-%d", base, n)
	}
	taken[path] = true
	return path
}
