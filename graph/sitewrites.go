package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/sites"
)

// updateSite is Mutation.updateSite (sites.Service.Update).
func (r *Resolver) updateSite(ctx context.Context, orgID, siteID string, in model.UpdateSiteInput) (*ent.Site, error) {
	settings := sites.Settings{Title: in.Title, Basename: in.Basename, Visibility: in.Visibility,
		DefaultSiteSpace: in.DefaultSiteSpace, DefaultSiteSection: in.DefaultSiteSection, Proxy: nullable(in.Proxy), Hostname: nullable(in.Hostname)}
	if in.AdaptiveContent != nil {
		settings.AdaptiveContent = &in.AdaptiveContent.Enabled
	}
	return r.sitesService().Update(ctx, orgID, siteID, settings)
}

// deleteSite is Mutation.deleteSite (sites.Service.Delete).
func (r *Resolver) deleteSite(ctx context.Context, orgID, siteID string) (bool, error) {
	err := r.sitesService().Delete(ctx, orgID, siteID)
	return err == nil, err
}

// setPublished is Mutation.publishSite and Mutation.unpublishSite (sites.Service.SetPublished).
func (r *Resolver) setPublished(ctx context.Context, orgID, siteID string, published bool) (*ent.Site, error) {
	return r.sitesService().SetPublished(ctx, orgID, siteID, published)
}
