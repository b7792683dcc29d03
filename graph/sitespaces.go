package graph

import (
	"context"
	"fmt"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sites"
)

// Site spaces translate between GraphQL and internal/sites, which holds their rules (orders,
// paths, defaults, the site's counter and lock); the lists and fields read through the loaders
// stay here.

// siteSpace returns a site space of site s that the viewer sees (sites.Service.SiteSpace).
func (r *Resolver) siteSpace(ctx context.Context, s *ent.Site, id string) (*ent.SiteSpace, error) {
	return r.sitesService().SiteSpace(ctx, s, id)
}

// siteSpaces is Site.siteSpaces: a page of the site spaces the viewer sees (def true: only the
// defaults of their levels; false: only the others).
func (r *Resolver) siteSpaces(ctx context.Context, s *ent.Site, first *int, after *string, def *bool) (*model.SiteSpaceConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	var f loader.SiteSpaceFilter
	if def != nil {
		f.Default = fmt.Sprint(*def)
	}
	p, err := loader.For(ctx, r.Client).SiteSpacePage(ctx, s, f, args)
	if err != nil {
		return nil, err
	}
	return &model.SiteSpaceConnection{
		Edges: edges(ctx, p.Items, siteSpaceCursor, func(c string, n *ent.SiteSpace) *model.SiteSpaceEdge {
			return &model.SiteSpaceEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func siteSpaceCursor(ss *ent.SiteSpace) page.Cursor { return page.Cursor{Key: ss.Position, ID: ss.ID} }

// siteSpaceSpace is SiteSpace.space, looked up for every site space of the level at once.
func (r *Resolver) siteSpaceSpace(ctx context.Context, ss *ent.SiteSpace) (*ent.Space, error) {
	sp, err := loader.Get(ctx, r.Client, loader.Spaces, ss, func(ss *ent.SiteSpace) string { return ss.SpaceID })
	if err == nil && sp == nil {
		return nil, apperr.NotFoundf("space not found")
	}
	return sp, err
}

// siteSpaceTitle is SiteSpace.title: the one it was given, else its space's.
func (r *Resolver) siteSpaceTitle(ctx context.Context, ss *ent.SiteSpace) (string, error) {
	if ss.Title != nil {
		return *ss.Title, nil
	}
	sp, err := r.siteSpaceSpace(ctx, ss)
	if err != nil {
		return "", err
	}
	return sp.Title, nil
}

// siteURL is Site.url: where the site is served (publish), named by its basename, else its id.
func (r *Resolver) siteURL(s *ent.Site) string {
	return strings.TrimRight(r.BaseURL, "/") + "/sites/" + derefOr(s.Basename, s.ID)
}

// siteSpaceURL is SiteSpace.url: siteSpaceBaseURL with the share key resolved for the site
// (keyedURL).
func (r *Resolver) siteSpaceURL(ctx context.Context, ss *ent.SiteSpace) (string, error) {
	u, err := r.siteSpaceBaseURL(ctx, ss)
	return keyedURL(ctx, ss.SiteID, u), err
}

// siteSpaceBaseURL is where its site serves a site space (publish): the site's URL, then its
// section's path unless that is the site's default section, then its own path unless it is the
// default of its level. Its site and section are looked up for the whole level at once.
func (r *Resolver) siteSpaceBaseURL(ctx context.Context, ss *ent.SiteSpace) (string, error) {
	s, err := siteOf(ctx, r, ss, func(ss *ent.SiteSpace) string { return ss.SiteID })
	if err != nil {
		return "", err
	}
	u := r.siteURL(s) + "/"
	if ss.SectionID != nil {
		sec, err := loader.Get(ctx, r.Client, loader.SiteSections, ss, func(ss *ent.SiteSpace) string { return derefOr(ss.SectionID, "") })
		if err != nil {
			return "", err
		}
		if sec != nil {
			u = r.sectionURL(s, sec)
		}
	}
	if !ss.IsDefault {
		u += ss.Path + "/"
	}
	return u, nil
}

// addSiteSpace is Mutation.addSiteSpace (sites.Service.AddSiteSpace).
func (r *Resolver) addSiteSpace(ctx context.Context, orgID, siteID string, in model.AddSiteSpaceInput) (*ent.SiteSpace, error) {
	return r.sitesService().AddSiteSpace(ctx, orgID, siteID, sites.NewSiteSpace{SpaceID: in.SpaceID, SectionID: in.SectionID,
		Title: in.Title, PageID: in.PageID})
}

// updateSiteSpace is Mutation.updateSiteSpace (sites.Service.UpdateSiteSpace).
func (r *Resolver) updateSiteSpace(ctx context.Context, orgID, siteID, id string, in model.UpdateSiteSpaceInput) (*ent.SiteSpace, error) {
	return r.sitesService().UpdateSiteSpace(ctx, orgID, siteID, id, sites.SiteSpaceChange{Path: in.Path, SpaceID: in.SpaceID,
		Condition: nullable(in.Condition), PageID: nullable(in.PageID), Title: nullable(in.Title), Hidden: in.Hidden})
}

// moveSiteSpace is Mutation.moveSiteSpace (sites.Service.MoveSiteSpace).
func (r *Resolver) moveSiteSpace(ctx context.Context, orgID, siteID, id string, in model.MoveSiteSpaceInput) (*ent.SiteSpace, error) {
	var pos sites.Position
	if in.Position != nil {
		pos = sites.Position{Before: in.Position.Before, After: in.Position.After}
	}
	return r.sitesService().MoveSiteSpace(ctx, orgID, siteID, id, pos)
}

// deleteSiteSpace is Mutation.deleteSiteSpace (sites.Service.DeleteSiteSpace).
func (r *Resolver) deleteSiteSpace(ctx context.Context, orgID, siteID, id string) (bool, error) {
	err := r.sitesService().DeleteSiteSpace(ctx, orgID, siteID, id)
	return err == nil, err
}

// siteDefaultSpace is Site.defaultSiteSpace.
func (r *Resolver) siteDefaultSpace(ctx context.Context, s *ent.Site) (*ent.SiteSpace, error) {
	return loader.For(ctx, r.Client).SiteDefaultSpace(ctx, s)
}
