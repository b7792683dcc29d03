package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/graph/model"
)

type updateSiteBody struct {
	Title           notNull[string]         `json:"title"`
	Visibility      notNull[siteVisibility] `json:"visibility"`
	Basename        notNull[string]         `json:"basename"`
	AdaptiveContent notNull[struct {
		Enabled *bool `json:"enabled"`
	}] `json:"adaptiveContent"`
	DefaultSiteSpace   notNull[string]  `json:"defaultSiteSpace"`
	DefaultSiteSection notNull[string]  `json:"defaultSiteSection"`
	Proxy              nullable[string] `json:"proxy"`
	// Hostname is Bindery's extension of the reference's body: the site's custom hostname.
	Hostname nullable[string] `json:"hostname"`
}

// updateSite answers PATCH …/sites/{siteId}: title, visibility, basename, adaptiveContent,
// defaultSiteSpace, defaultSiteSection (none of them null), proxy and hostname (null removes
// either).
func (a *api) updateSite(w http.ResponseWriter, r *http.Request) {
	var body updateSiteBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in := model.UpdateSiteInput{Title: body.Title.Value, Visibility: (*site.Visibility)(body.Visibility.Value),
		Basename: body.Basename.Value, DefaultSiteSpace: body.DefaultSiteSpace.Value,
		DefaultSiteSection: body.DefaultSiteSection.Value, Proxy: omittable(body.Proxy, same[string]),
		Hostname: omittable(body.Hostname, same[string])}
	if ac := body.AdaptiveContent.Value; ac != nil {
		if ac.Enabled == nil {
			writeError(w, r, missing("adaptiveContent.enabled"))
			return
		}
		in.AdaptiveContent = &model.SiteAdaptiveContentInput{Enabled: *ac.Enabled}
	}
	s, err := a.r.Mutation().UpdateSite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), in)
	respondWith(w, r, http.StatusOK, s, err, a.site)
}

func (a *api) deleteSite(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteSite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"))
	respondEmpty(w, r, http.StatusResetContent, err)
}

// publishSite answers POST …/sites/{siteId}/publish with the site (never a checkout: a
// self-hosted server has no plans to pay for).
func (a *api) publishSite(w http.ResponseWriter, r *http.Request) {
	s, err := a.r.Mutation().PublishSite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"))
	respondWith(w, r, http.StatusOK, s, err, a.site)
}

func (a *api) unpublishSite(w http.ResponseWriter, r *http.Request) {
	s, err := a.r.Mutation().UnpublishSite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"))
	respondWith(w, r, http.StatusOK, s, err, a.site)
}
