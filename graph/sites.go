package graph

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sites"
)

// Sites translate between GraphQL and internal/sites, which holds their rules; graph keeps the
// lists and fields it reads through its loaders, batched for a whole level of a query.

// sitesService is the sites as this resolver's viewer reads and writes them.
func (r *Resolver) sitesService() *sites.Service {
	return &sites.Service{Client: r.Client, Now: r.now, Organization: r.organization, Space: r.space,
		SpaceTree: r.spaceTree, NewSpace: r.spacesService().NewEmptySpace, Structures: r.readers().structures, Redirects: r.redirects(),
		ActiveTrees: r.content().ActiveTrees, VisitorClaims: r.visitorClaims, PublicHost: r.publicHost(), DNS: r.dns(),
		TLS: sites.TLSCheck{TLSTarget: r.HostnameTLS, Dial: r.Fetcher.Dial}}
}

// publicHost is the host of the server's base URL, lower-cased.
func (r *Resolver) publicHost() string {
	u, err := url.Parse(r.BaseURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// dns is the resolver of custom hostnames' checks.
func (r *Resolver) dns() sites.Resolver {
	if r.DNS == nil {
		return net.DefaultResolver
	}
	return r.DNS
}

// site returns a site of an organization the viewer sees (sites.Service.Site).
func (r *Resolver) site(ctx context.Context, orgID, siteID string) (*ent.Site, error) {
	return r.sitesService().Site(ctx, orgID, siteID)
}

// manageableSite returns a site the viewer may change (sites.Service.ManageableSite).
func (r *Resolver) manageableSite(ctx context.Context, orgID, siteID, action string) (*ent.Site, error) {
	return r.sitesService().ManageableSite(ctx, orgID, siteID, action)
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
	if err := check.Text("title", f.Title, 0, sites.TitleMax); err != nil {
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

// createSite is Mutation.createSite (sites.Service.Create).
func (r *Resolver) createSite(ctx context.Context, orgID string, in model.CreateSiteInput) (*ent.Site, error) {
	return r.sitesService().Create(ctx, orgID, sites.NewSite{Type: in.Type, Visibility: in.Visibility, Title: in.Title,
		Spaces: in.Spaces, NewSpace: derefOr(in.NewSpace, false)})
}
