package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sites"
)

// siteSectionGroups lists a site's section groups, in order.
func (r *Resolver) siteSectionGroups(ctx context.Context, s *ent.Site, first *int, after *string) (*model.SiteSectionGroupConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := loader.For(ctx, r.Client).SiteSectionGroupPage(ctx, s, args)
	if err != nil {
		return nil, err
	}
	return &model.SiteSectionGroupConnection{
		Edges: edges(ctx, p.Items, groupCursor, func(c string, n *ent.SiteSectionGroup) *model.SiteSectionGroupEdge {
			return &model.SiteSectionGroupEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func groupCursor(g *ent.SiteSectionGroup) page.Cursor { return page.Cursor{Key: g.Position, ID: g.ID} }

// groupSections returns a group's sections, in order.
func (r *Resolver) groupSections(ctx context.Context, g *ent.SiteSectionGroup) ([]*ent.SiteSection, error) {
	return loader.For(ctx, r.Client).GroupSections(ctx, g)
}

// createSiteSectionGroup is Mutation.createSiteSectionGroup (sites.Service.CreateGroup).
func (r *Resolver) createSiteSectionGroup(ctx context.Context, orgID, siteID string, in model.CreateSiteSectionGroupInput) (*ent.SiteSectionGroup, error) {
	return r.sitesService().CreateGroup(ctx, orgID, siteID, sites.NewGroup{Title: in.Title, Icon: in.Icon, Sections: in.Sections})
}

// updateSiteSectionGroup is Mutation.updateSiteSectionGroup (sites.Service.UpdateGroup).
func (r *Resolver) updateSiteSectionGroup(ctx context.Context, orgID, siteID, id string, in model.UpdateSiteSectionGroupInput) (*ent.SiteSectionGroup, error) {
	return r.sitesService().UpdateGroup(ctx, orgID, siteID, id, sites.GroupChange{Title: in.Title, Icon: nullable(in.Icon)})
}

// addSiteSectionToGroup is Mutation.addSiteSectionToGroup (sites.Service.AddSectionToGroup).
func (r *Resolver) addSiteSectionToGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) (*ent.SiteSectionGroup, error) {
	return r.sitesService().AddSectionToGroup(ctx, orgID, siteID, groupID, sectionID)
}

// removeSiteSectionFromGroup is Mutation.removeSiteSectionFromGroup
// (sites.Service.RemoveSectionFromGroup).
func (r *Resolver) removeSiteSectionFromGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) (*ent.SiteSectionGroup, error) {
	return r.sitesService().RemoveSectionFromGroup(ctx, orgID, siteID, groupID, sectionID)
}

// moveSiteSectionGroup is Mutation.moveSiteSectionGroup (sites.Service.MoveGroup).
func (r *Resolver) moveSiteSectionGroup(ctx context.Context, orgID, siteID, id string, pos *model.SiteStructurePositionInput) (*ent.SiteSectionGroup, error) {
	return r.sitesService().MoveGroup(ctx, orgID, siteID, id, structurePosition(pos))
}

// deleteSiteSectionGroup is Mutation.deleteSiteSectionGroup (sites.Service.DeleteGroup).
func (r *Resolver) deleteSiteSectionGroup(ctx context.Context, orgID, siteID, id string) (bool, error) {
	err := r.sitesService().DeleteGroup(ctx, orgID, siteID, id)
	return err == nil, err
}
