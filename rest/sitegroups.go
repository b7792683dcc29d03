package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

func (a *api) listSiteSectionGroups(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.siteSectionGroup, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.SiteSectionGroup], error) {
		s, err := a.siteOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Site().SectionGroups(ctx, s, limit, page)
	})
}

type addSectionGroupToSiteBody struct {
	Title    *string          `json:"title"`
	Icon     nullable[string] `json:"icon"`
	Sections []string         `json:"sections"`
}

func (a *api) addSectionGroupToSite(w http.ResponseWriter, r *http.Request) {
	var body addSectionGroupToSiteBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Title == nil {
		writeError(w, r, missing("title"))
		return
	}
	g, err := a.r.Mutation().CreateSiteSectionGroup(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		model.CreateSiteSectionGroupInput{Title: *body.Title, Icon: body.Icon.Value, Sections: body.Sections})
	if err == nil {
		w.Header().Set("Location", a.sitePartLocation(g.OrganizationID, g.SiteID, "section-groups", g.ID))
	}
	respondWith(w, r, http.StatusCreated, g, err, a.siteSectionGroup)
}

type updateSiteSectionGroupBody struct {
	Title notNull[string]  `json:"title"`
	Icon  nullable[string] `json:"icon"`
}

func (a *api) updateSiteSectionGroup(w http.ResponseWriter, r *http.Request) {
	var body updateSiteSectionGroupBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	g, err := a.r.Mutation().UpdateSiteSectionGroup(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSectionGroupId"),
		model.UpdateSiteSectionGroupInput{Title: body.Title.Value, Icon: omittable(body.Icon, same[string])})
	respondWith(w, r, http.StatusOK, g, err, a.siteSectionGroup)
}

func (a *api) deleteSiteSectionGroup(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteSiteSectionGroup(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSectionGroupId"))
	respondEmpty(w, r, http.StatusResetContent, err)
}

// addSectionToGroupBody is the body of addSectionToGroup.
type addSectionToGroupBody struct {
	SectionID *string `json:"sectionId"`
}

// addSectionToGroup puts a section of the site at the end of a group (spec/02; the reference
// client moves sections with updateSiteSectionById's siteSectionGroupId, which works too).
func (a *api) addSectionToGroup(w http.ResponseWriter, r *http.Request) {
	var body addSectionToGroupBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.SectionID == nil {
		writeError(w, r, missing("sectionId"))
		return
	}
	g, err := a.r.Mutation().AddSiteSectionToGroup(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSectionGroupId"), *body.SectionID)
	respondWith(w, r, http.StatusCreated, g, err, a.siteSectionGroup)
}

func (a *api) removeSectionFromGroup(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().RemoveSiteSectionFromGroup(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSectionGroupId"), chi.URLParam(r, "siteSectionId"))
	respondEmpty(w, r, http.StatusResetContent, err)
}

func (a *api) moveSiteSectionGroup(w http.ResponseWriter, r *http.Request) {
	pos, err := decodeStructMove[groupPointer](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	g, err := a.r.Mutation().MoveSiteSectionGroup(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSectionGroupId"), pos)
	respondWith(w, r, http.StatusOK, g, err, a.siteSectionGroup)
}
