package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sites"
)

// siteSections lists a site's sections by position key, then id.
func (r *Resolver) siteSections(ctx context.Context, s *ent.Site, first *int, after *string) (*model.SiteSectionConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := loader.For(ctx, r.Client).SiteSectionPage(ctx, s, args)
	if err != nil {
		return nil, err
	}
	return &model.SiteSectionConnection{
		Edges: edges(ctx, p.Items, sectionCursor, func(c string, n *ent.SiteSection) *model.SiteSectionEdge {
			return &model.SiteSectionEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func sectionCursor(s *ent.SiteSection) page.Cursor { return page.Cursor{Key: s.Position, ID: s.ID} }

// defaultSection returns a site's default section, nil when it has no sections.
func (r *Resolver) defaultSection(ctx context.Context, s *ent.Site) (*ent.SiteSection, error) {
	if s.DefaultSectionID == nil {
		return nil, nil
	}
	return loader.Get(ctx, r.Client, loader.SiteSections, s, func(s *ent.Site) string { return derefOr(s.DefaultSectionID, "") })
}

// siteOf returns the site of a section, a section group or a site space, the sites of its
// whole level loaded together.
func siteOf[T comparable](ctx context.Context, r *Resolver, item T, key func(T) string) (*ent.Site, error) {
	s, err := loader.Get(ctx, r.Client, loader.Sites, item, key)
	if err == nil && s == nil {
		return nil, apperr.NotFoundf("site not found")
	}
	return s, err
}

// sectionURL is where site s serves its section sec (publish): the site's URL, then the
// section's path unless it is the default section.
func (r *Resolver) sectionURL(s *ent.Site, sec *ent.SiteSection) string {
	u := r.siteURL(s) + "/"
	if !sec.IsDefault {
		u += sec.Path + "/"
	}
	return u
}

// siteSectionURL is SiteSection.url: sectionURL with the share key resolved for the site
// (keyedURL), its site looked up for the whole level at once.
func (r *Resolver) siteSectionURL(ctx context.Context, sec *ent.SiteSection) (string, error) {
	s, err := siteOf(ctx, r, sec, func(sec *ent.SiteSection) string { return sec.SiteID })
	if err != nil {
		return "", err
	}
	return keyedURL(ctx, s.ID, r.sectionURL(s, sec)), nil
}

// sectionGroupOf returns the group of a section, nil when it is in none.
func (r *Resolver) sectionGroupOf(ctx context.Context, sec *ent.SiteSection) (*ent.SiteSectionGroup, error) {
	if sec.SectionGroupID == nil {
		return nil, nil
	}
	return loader.Get(ctx, r.Client, loader.SiteSectionGroups, sec, func(s *ent.SiteSection) string { return derefOr(s.SectionGroupID, "") })
}

// sectionSiteSpaces returns a section's site spaces, in order.
func (r *Resolver) sectionSiteSpaces(ctx context.Context, sec *ent.SiteSection) ([]*ent.SiteSpace, error) {
	return loader.For(ctx, r.Client).SectionSiteSpaces(ctx, sec)
}

// sectionDefaultSiteSpace returns the site space readers of a section land on.
func (r *Resolver) sectionDefaultSiteSpace(ctx context.Context, sec *ent.SiteSection) (*ent.SiteSpace, error) {
	all, err := r.sectionSiteSpaces(ctx, sec)
	for _, ss := range all {
		if ss.IsDefault {
			return ss, err
		}
	}
	return nil, err
}

// createSiteSection is Mutation.createSiteSection (sites.Service.CreateSection).
func (r *Resolver) createSiteSection(ctx context.Context, orgID, siteID string, in model.CreateSiteSectionInput) (*ent.SiteSection, error) {
	return r.sitesService().CreateSection(ctx, orgID, siteID, sites.NewSection{SpaceID: in.SpaceID, Title: in.Title,
		Icon: in.Icon, SectionGroupID: in.SectionGroupID})
}

// updateSiteSection is Mutation.updateSiteSection (sites.Service.UpdateSection).
func (r *Resolver) updateSiteSection(ctx context.Context, orgID, siteID, id string, in model.UpdateSiteSectionInput) (*ent.SiteSection, error) {
	return r.sitesService().UpdateSection(ctx, orgID, siteID, id, sites.SectionChange{Title: in.Title, Path: in.Path,
		DefaultSiteSpace: in.DefaultSiteSpace, Condition: nullable(in.Condition), Icon: nullable(in.Icon),
		Description: nullable(in.Description), SectionGroupID: nullable(in.SectionGroupID)})
}

// moveSiteSection is Mutation.moveSiteSection (sites.Service.MoveSection).
func (r *Resolver) moveSiteSection(ctx context.Context, orgID, siteID, id string, pos *model.SiteStructurePositionInput) (*ent.SiteSection, error) {
	return r.sitesService().MoveSection(ctx, orgID, siteID, id, structurePosition(pos))
}

// deleteSiteSection is Mutation.deleteSiteSection (sites.Service.DeleteSection).
func (r *Resolver) deleteSiteSection(ctx context.Context, orgID, siteID, id string) (bool, error) {
	err := r.sitesService().DeleteSection(ctx, orgID, siteID, id)
	return err == nil, err
}
