package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

// siteAdaptiveSchema is Site.adaptiveSchema: the site's visitor schema, nil until one is set.
func siteAdaptiveSchema(s *ent.Site) *model.SiteAdaptiveSchema {
	if s.AdaptiveSchema == nil || s.AdaptiveSchemaUpdatedAt == nil {
		return nil
	}
	return &model.SiteAdaptiveSchema{JSONSchema: s.AdaptiveSchema, UpdatedAt: *s.AdaptiveSchemaUpdatedAt}
}

// updateSiteAdaptiveSchema is Mutation.updateSiteAdaptiveSchema
// (sites.Service.UpdateAdaptiveSchema).
func (r *Resolver) updateSiteAdaptiveSchema(ctx context.Context, orgID, siteID string, raw any) (*model.SiteAdaptiveSchema, error) {
	s, err := r.sitesService().UpdateAdaptiveSchema(ctx, orgID, siteID, raw)
	if err != nil {
		return nil, err
	}
	return siteAdaptiveSchema(s), nil
}
