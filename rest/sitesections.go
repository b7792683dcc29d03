package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

// listSiteSections lists a site's sections; with `shareKey`, their published URLs carry the key
// (decision 161).
func (a *api) listSiteSections(w http.ResponseWriter, r *http.Request) {
	s, r, err := a.sharedSiteOf(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	serveList(w, r, a.siteSection, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.SiteSection], error) {
		return a.r.Site().Sections(ctx, s, limit, page)
	})
}

type addSectionToSiteBody struct {
	SpaceID            nullable[string] `json:"spaceId"`
	Title              nullable[string] `json:"title"`
	Icon               nullable[string] `json:"icon"`
	SiteSectionGroupID notNull[string]  `json:"siteSectionGroupId"`
}

func (a *api) addSectionToSite(w http.ResponseWriter, r *http.Request) {
	var body addSectionToSiteBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if !body.SpaceID.Set {
		writeError(w, r, missing("spaceId"))
		return
	}
	sec, err := a.r.Mutation().CreateSiteSection(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		model.CreateSiteSectionInput{SpaceID: body.SpaceID.Value, Title: body.Title.Value, Icon: body.Icon.Value,
			SectionGroupID: body.SiteSectionGroupID.Value})
	if err == nil {
		w.Header().Set("Location", a.sitePartLocation(sec.OrganizationID, sec.SiteID, "sections", sec.ID))
	}
	respondWith(w, r, http.StatusCreated, sec, err, a.siteSection)
}

type updateSiteSectionBody struct {
	Title              notNull[string]  `json:"title"`
	Path               notNull[string]  `json:"path"`
	DefaultSiteSpace   notNull[string]  `json:"defaultSiteSpace"`
	Condition          nullable[string] `json:"condition"`
	Icon               nullable[string] `json:"icon"`
	Description        nullable[string] `json:"description"`
	SiteSectionGroupID nullable[string] `json:"siteSectionGroupId"`
}

func (a *api) updateSiteSection(w http.ResponseWriter, r *http.Request) {
	var body updateSiteSectionBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	sec, err := a.r.Mutation().UpdateSiteSection(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSectionId"), model.UpdateSiteSectionInput{
			Title: body.Title.Value, Path: body.Path.Value, DefaultSiteSpace: body.DefaultSiteSpace.Value,
			Condition: omittable(body.Condition, same[string]), Icon: omittable(body.Icon, same[string]),
			Description:    omittable(body.Description, same[string]),
			SectionGroupID: omittable(body.SiteSectionGroupID, same[string]),
		})
	respondWith(w, r, http.StatusOK, sec, err, a.siteSection)
}

func (a *api) deleteSiteSection(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteSiteSection(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSectionId"))
	respondEmpty(w, r, http.StatusResetContent, err)
}

func (a *api) moveSiteSection(w http.ResponseWriter, r *http.Request) {
	pos, err := decodeStructMove[sectionPointer](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	sec, err := a.r.Mutation().MoveSiteSection(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteSectionId"), pos)
	respondWith(w, r, http.StatusOK, sec, err, a.siteSection)
}

// getSiteStructure answers how a site is arranged; with `shareKey`, its published URLs carry the
// key, as listSiteSections' do.
func (a *api) getSiteStructure(w http.ResponseWriter, r *http.Request) {
	s, r, err := a.sharedSiteOf(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	st, err := a.r.Site().Structure(r.Context(), s)
	respondWith(w, r, http.StatusOK, st, err, a.siteStructure(s))
}

// sitePartLocation is the API address of a part of a site: a section or a section group.
func (a *api) sitePartLocation(orgID, siteID, kind, id string) string {
	return a.url("/v1/orgs/" + orgID + "/sites/" + siteID + "/" + kind + "/" + id)
}
