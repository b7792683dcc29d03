package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/sites"
)

// siteSpaceCustomization is SiteSpace.customization (sites.SiteSpaceCustomization). Its site is
// looked up for the whole level.
func (r *Resolver) siteSpaceCustomization(ctx context.Context, ss *ent.SiteSpace) (map[string]any, error) {
	s, err := loader.Get(ctx, r.Client, loader.Sites, ss, func(ss *ent.SiteSpace) string { return ss.SiteID })
	if err == nil && s == nil {
		err = apperr.NotFoundf("site not found")
	}
	if err != nil {
		return nil, err
	}
	return sites.SiteSpaceCustomization(ctx, s, ss), nil
}

// updateSiteCustomization is Mutation.updateSiteCustomization (sites.Service.UpdateCustomization).
func (r *Resolver) updateSiteCustomization(ctx context.Context, orgID, siteID string, raw any) (map[string]any, error) {
	return r.sitesService().UpdateCustomization(ctx, orgID, siteID, raw)
}

// overrideSiteSpaceCustomization is Mutation.overrideSiteSpaceCustomization
// (sites.Service.OverrideSiteSpaceCustomization).
func (r *Resolver) overrideSiteSpaceCustomization(ctx context.Context, orgID, siteID, siteSpaceID string, raw any) (map[string]any, error) {
	return r.sitesService().OverrideSiteSpaceCustomization(ctx, orgID, siteID, siteSpaceID, raw)
}

// deleteSiteSpaceCustomization is Mutation.deleteSiteSpaceCustomization
// (sites.Service.DeleteSiteSpaceCustomization).
func (r *Resolver) deleteSiteSpaceCustomization(ctx context.Context, orgID, siteID, siteSpaceID string) (bool, error) {
	return r.sitesService().DeleteSiteSpaceCustomization(ctx, orgID, siteID, siteSpaceID)
}
