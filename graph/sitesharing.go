package graph

import (
	"context"
	"net/url"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sites"
)

// Share links translate between GraphQL and internal/sites, which holds their rules; the list
// stays here, read through the loaders.

// siteShareLinks is Site.shareLinks: a page of the site's share links, newest first; search keeps
// those whose name contains it or whose key it is. Returns FORBIDDEN for members who may not
// manage the site.
func (r *Resolver) siteShareLinks(ctx context.Context, s *ent.Site, first *int, after, search *string) (*model.SiteShareLinkConnection, error) {
	if err := sites.RequireManager(ctx, s, "see a site's share links"); err != nil {
		return nil, err
	}
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	f := loader.ShareLinkFilter{Search: derefOr(search, "")}
	if err := check.Text("search", f.Search, 0, sites.ShareKeyMax); err != nil {
		return nil, err
	}
	if f.Search != "" {
		f.KeyHash = string(accounts.HashSecret(f.Search))
	}
	p, err := loader.For(ctx, r.Client).ShareLinkPage(ctx, s, f, args)
	if err != nil {
		return nil, err
	}
	return &model.SiteShareLinkConnection{
		Edges: edges(ctx, p.Items, shareLinkCursor, func(c string, n *ent.SiteShareLink) *model.SiteShareLinkEdge {
			return &model.SiteShareLinkEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func shareLinkCursor(l *ent.SiteShareLink) page.Cursor {
	return page.Cursor{Key: l.CreatedAt, ID: l.ID}
}

// createSiteShareLink is Mutation.createSiteShareLink (sites.Service.CreateShareLink), with the
// URL that opens the site with the key.
func (r *Resolver) createSiteShareLink(ctx context.Context, orgID, siteID string, in model.CreateSiteShareLinkInput) (*model.CreatedSiteShareLink, error) {
	c, err := r.sitesService().CreateShareLink(ctx, orgID, siteID, in.Name)
	if err != nil {
		return nil, err
	}
	return &model.CreatedSiteShareLink{ShareLink: c.Link, Key: c.Key, URL: SharedURL(r.siteURL(c.Site), c.Key)}, nil
}

// SharedURL is a URL of a site's reader (its published URL, a site space's) that opens a
// share-link site with key.
func SharedURL(u, key string) string { return u + "?shareKey=" + url.QueryEscape(key) }

// updateSiteShareLink is Mutation.updateSiteShareLink (sites.Service.UpdateShareLink).
func (r *Resolver) updateSiteShareLink(ctx context.Context, orgID, siteID, linkID string, in model.UpdateSiteShareLinkInput) (*ent.SiteShareLink, error) {
	return r.sitesService().UpdateShareLink(ctx, orgID, siteID, linkID, in.Name, in.Active)
}

// deleteSiteShareLink is Mutation.deleteSiteShareLink (sites.Service.DeleteShareLink).
func (r *Resolver) deleteSiteShareLink(ctx context.Context, orgID, siteID, linkID string) (bool, error) {
	return r.sitesService().DeleteShareLink(ctx, orgID, siteID, linkID)
}

// SiteShareKey resolves the `shareKey` of a site's GET operations (sites.Service.ShareKey): the
// answer's published URLs then carry it.
func (r *Resolver) SiteShareKey(ctx context.Context, s *ent.Site, key *string) (*string, error) {
	return r.sitesService().ShareKey(ctx, s, key)
}
