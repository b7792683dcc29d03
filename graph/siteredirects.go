package graph

import (
	"context"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/siteredirect"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/redirects"
)

// Site redirects translate between GraphQL and internal/redirects, which holds their rules.

// redirects is the site redirects as this resolver's viewer writes them, one site at a time
// (sites.Service.WriteStructure).
func (r *Resolver) redirects() *redirects.Service {
	writeSite := func(ctx context.Context, orgID, siteID, action string, fn func(tx *ent.Tx, s *ent.Site) error) error {
		return r.sitesService().WriteStructure(ctx, orgID, siteID, action, fn)
	}
	return &redirects.Service{Client: r.Client, Now: r.now, WriteSite: writeSite, SpaceTree: r.spaceTree}
}

// SiteMissingPath is where a site sends its admitted reader from a path that names no page
// (redirects.Service.Missing): the published pages ask it, as content by URL does.
func (r *Resolver) SiteMissingPath(ctx context.Context, siteID, path, spaceID, pagePath string, urls redirects.URLs) (redirects.Missing, error) {
	return r.redirects().Missing(ctx, siteID, path, spaceID, pagePath, urls)
}

// spaceTree is the tree of a space's current content, as the viewer reads it.
func (r *Resolver) spaceTree(ctx context.Context, spaceID string) (*tree.Tree, error) {
	content, err := r.SpaceContent(ctx, spaceID, nil)
	if err != nil {
		return nil, err
	}
	return content.Tree, nil
}

// redirectOrders maps the list's orders to their columns.
var redirectOrders = map[model.SiteRedirectOrder]string{
	model.SiteRedirectOrderCreatedAt: siteredirect.FieldCreatedAt,
	model.SiteRedirectOrderUpdatedAt: siteredirect.FieldUpdatedAt,
	model.SiteRedirectOrderSource:    siteredirect.FieldSource,
}

// siteRedirects is Site.redirects: a page of the site's live redirects (drafts when draft is
// true), newest first unless ordered otherwise; search keeps those whose source contains it.
// Returns INVALID for a search too long to be in a source.
func (r *Resolver) siteRedirects(ctx context.Context, s *ent.Site, first *int, after, search *string, draft *bool,
	orderBy *model.SiteRedirectOrder) (*model.SiteRedirectConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	f := loader.RedirectFilter{Draft: derefOr(draft, false), Search: derefOr(search, ""),
		Order: redirectOrders[derefOr(orderBy, model.SiteRedirectOrderCreatedAt)]}
	if err := check.Text("search", f.Search, 0, redirects.MaxSource); err != nil {
		return nil, err
	}
	p, err := loader.For(ctx, r.Client).SiteRedirectPage(ctx, s, f, args)
	if err != nil {
		return nil, err
	}
	cursorOf := func(red *ent.SiteRedirect) page.Cursor {
		return page.Cursor{Key: loader.RedirectSortKey(red, f.Order), ID: red.ID}
	}
	return &model.SiteRedirectConnection{
		Edges: edges(ctx, p.Items, cursorOf, func(c string, n *ent.SiteRedirect) *model.SiteRedirectEdge {
			return &model.SiteRedirectEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// redirectUpdatedAt is SiteRedirect.updatedAt: absent until the redirect changed after its
// creation (a new redirect has both times equal).
func redirectUpdatedAt(red *ent.SiteRedirect) *time.Time {
	if red.UpdatedAt.Equal(red.CreatedAt) {
		return nil
	}
	return &red.UpdatedAt
}

// siteRedirectDestination is SiteRedirect.destination.
func siteRedirectDestination(red *ent.SiteRedirect) *model.SiteRedirectDestination {
	kind := model.SiteRedirectDestinationKind(strings.ToUpper(strings.ReplaceAll(string(red.DestinationKind), "-", "_")))
	return &model.SiteRedirectDestination{Kind: kind, SiteSectionID: red.DestinationSectionID,
		SiteSpaceID: red.DestinationSiteSpaceID, PageID: red.DestinationPageID, URL: red.DestinationURL}
}

// destinationInput is a destination given, for internal/redirects.
func destinationInput(in *model.SiteRedirectDestinationInput) *redirects.DestinationInput {
	if in == nil {
		return nil
	}
	return &redirects.DestinationInput{Kind: redirects.DestinationKind(in.Kind), SiteSectionID: in.SiteSectionID,
		SiteSpaceID: in.SiteSpaceID, PageID: in.PageID, URL: in.URL, SpaceID: in.SpaceID, Path: in.Path}
}

func createRedirectInput(in model.CreateSiteRedirectInput) redirects.CreateInput {
	return redirects.CreateInput{Source: in.Source, Destination: destinationInput(in.Destination),
		CaptureWildcard: derefOr(in.CaptureWildcard, false), Draft: derefOr(in.Draft, false), Permanent: derefOr(in.Permanent, false)}
}

func updateRedirectInput(in model.UpdateSiteRedirectInput) redirects.UpdateInput {
	return redirects.UpdateInput{Source: in.Source, Destination: destinationInput(in.Destination),
		CaptureWildcard: in.CaptureWildcard, Draft: in.Draft, Permanent: in.Permanent}
}

// bulkUpsertSiteRedirects is Mutation.bulkUpsertSiteRedirects (redirects.Service.BulkUpsert).
func (r *Resolver) bulkUpsertSiteRedirects(ctx context.Context, orgID, siteID string, in []*model.SiteRedirectUpsertInput) ([]*model.SiteRedirectUpsertResult, error) {
	items := make([]redirects.UpsertItem, len(in))
	for i, it := range in {
		items[i] = redirects.UpsertItem{Source: it.Source, Intent: redirects.Intent(derefOr(it.Intent, "")),
			CaptureWildcard: it.CaptureWildcard, Permanent: it.Permanent,
			Destination: destinationInput(it.Destination.Value()), HasDestination: it.Destination.IsSet()}
	}
	results, err := r.redirects().BulkUpsert(ctx, orgID, siteID, items)
	if err != nil {
		return nil, err
	}
	out := make([]*model.SiteRedirectUpsertResult, len(results))
	for i, res := range results {
		out[i] = &model.SiteRedirectUpsertResult{Status: model.SiteRedirectUpsertStatus(res.Status), Source: res.Source,
			Draft: res.Draft, ID: res.ID, Error: res.Error}
	}
	return out, nil
}

// siteRedirectTarget is Site.redirect and getSiteRedirectBySource: the redirect a reader of source
// follows (redirects.Find), and the URL it leads to ("" when its destination is not there any
// more, or not one the viewer sees), with the request's share key when it is on the site
// (keyedURL). Returns INVALID for a source that is not one; nil when no redirect matches.
func (r *Resolver) siteRedirectTarget(ctx context.Context, s *ent.Site, source string) (*model.SiteRedirectTarget, error) {
	red, suffix, err := redirects.Find(ctx, r.Client, s.ID, source)
	if red == nil || err != nil {
		return nil, err
	}
	target, err := redirects.URL(ctx, red, suffix, apiURLs{r: r, site: s})
	if err != nil {
		return nil, err
	}
	if target != "" && red.DestinationKind != siteredirect.DestinationKindExternal {
		target = keyedURL(ctx, s.ID, target) // never on an address outside the site
	}
	return &model.SiteRedirectTarget{Redirect: red, Target: target}, nil
}

// apiURLs are the published URLs of a site's destinations, for a member reading its redirects
// (without a share key: siteRedirectTarget adds the request's).
type apiURLs struct {
	r    *Resolver
	site *ent.Site
}

func (a apiURLs) Section(ctx context.Context, id string) (string, error) {
	sec, err := a.r.Client.SiteSection.Query().Where(sitesection.ID(id), sitesection.SiteID(a.site.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return a.r.sectionURL(a.site, sec), nil
}

func (a apiURLs) SiteSpace(ctx context.Context, id string) (string, error) {
	ss, err := a.r.siteSpace(ctx, a.site, id)
	if apperr.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return a.r.siteSpaceBaseURL(ctx, ss)
}

func (a apiURLs) Page(ctx context.Context, siteSpaceID, pageID string) (string, error) {
	ss, err := a.r.siteSpace(ctx, a.site, siteSpaceID)
	if apperr.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	content, err := a.r.SpaceContent(ctx, ss.SpaceID, nil)
	if apperr.IsNotFound(err) || err == nil && content.Tree.Page(pageID) == nil {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	u, err := a.r.siteSpaceBaseURL(ctx, ss)
	return u + content.Tree.Path(pageID), err
}
