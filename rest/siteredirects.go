package rest

import (
	"context"
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
)

// siteRedirectRoutes are the routes of a site's redirects (the reference's site-redirects).
func (a *api) siteRedirectRoutes(r chi.Router) {
	const site = "/orgs/{organizationId}/sites/{siteId}"
	r.Get(site+"/redirects", a.listSiteRedirects)
	r.Post(site+"/redirects", a.createSiteRedirect)
	r.Put(site+"/redirects", a.bulkUpsertSiteRedirects)
	r.Patch(site+"/redirects/{siteRedirectId}", a.updateSiteRedirect)
	r.Delete(site+"/redirects/{siteRedirectId}", a.deleteSiteRedirect)
	r.Get(site+"/redirect", a.getSiteRedirectBySource)
}

func (a *api) listSiteRedirects(w http.ResponseWriter, r *http.Request) {
	q := query{r}
	draft, err := q.boolean("draft")
	if err != nil {
		writeError(w, r, err)
		return
	}
	order, err := q.oneOf("orderBy", "createdAt", "updatedAt", "source")
	if err != nil {
		writeError(w, r, err)
		return
	}
	orderBy := redirectOrders[order]
	serveList(w, r, a.siteRedirect, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.SiteRedirect], error) {
		s, err := a.siteOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Site().Redirects(ctx, s, limit, page, q.str("search"), draft, orderBy)
	})
}

// redirectOrders maps the list's orderBy values to the resolver's orders ("" is the default).
var redirectOrders = map[string]*model.SiteRedirectOrder{
	"createdAt": ptr(model.SiteRedirectOrderCreatedAt),
	"updatedAt": ptr(model.SiteRedirectOrderUpdatedAt),
	"source":    ptr(model.SiteRedirectOrderSource),
}

func ptr[T any](v T) *T { return &v }

type createSiteRedirectBody struct {
	Source          *string          `json:"source"`
	Destination     *destinationBody `json:"destination"`
	CaptureWildcard notNull[bool]    `json:"captureWildcard"`
	Draft           notNull[bool]    `json:"draft"`
	Permanent       notNull[bool]    `json:"permanent"`
}

func (a *api) createSiteRedirect(w http.ResponseWriter, r *http.Request) {
	var body createSiteRedirectBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	dest, err := body.Destination.input("destination")
	if err == nil && body.Source == nil {
		err = missing("source")
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	red, err := a.r.Mutation().CreateSiteRedirect(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		model.CreateSiteRedirectInput{Source: *body.Source, Destination: dest, CaptureWildcard: body.CaptureWildcard.Value,
			Draft: body.Draft.Value, Permanent: body.Permanent.Value})
	if err == nil {
		w.Header().Set("Location", a.url("/v1/orgs/"+red.OrganizationID+"/sites/"+red.SiteID+"/redirects/"+red.ID))
	}
	respondWith(w, r, http.StatusCreated, red, err, a.siteRedirect)
}

type updateSiteRedirectBody struct {
	Source          notNull[string]          `json:"source"`
	Destination     notNull[destinationBody] `json:"destination"`
	CaptureWildcard notNull[bool]            `json:"captureWildcard"`
	Draft           notNull[bool]            `json:"draft"`
	Permanent       notNull[bool]            `json:"permanent"`
}

func (a *api) updateSiteRedirect(w http.ResponseWriter, r *http.Request) {
	var body updateSiteRedirectBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in := model.UpdateSiteRedirectInput{Source: body.Source.Value, CaptureWildcard: body.CaptureWildcard.Value,
		Draft: body.Draft.Value, Permanent: body.Permanent.Value}
	if body.Destination.Value != nil {
		dest, err := body.Destination.Value.input("destination")
		if err != nil {
			writeError(w, r, err)
			return
		}
		in.Destination = dest
	}
	red, err := a.r.Mutation().UpdateSiteRedirect(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "siteRedirectId"), in)
	respondWith(w, r, http.StatusOK, red, err, a.siteRedirect)
}

// deleteSiteRedirect answers 205 when the redirect was deleted, 204 when the site had no such
// redirect (the reference's two statuses).
func (a *api) deleteSiteRedirect(w http.ResponseWriter, r *http.Request) {
	deleted, err := a.r.Mutation().DeleteSiteRedirect(r.Context(), chi.URLParam(r, "organizationId"),
		chi.URLParam(r, "siteId"), chi.URLParam(r, "siteRedirectId"))
	respondEmpty(w, r, resetOrNoContent(deleted), err)
}

type bulkUpsertSiteRedirectsBody struct {
	Redirects *[]upsertItem `json:"redirects"`
}

func (a *api) bulkUpsertSiteRedirects(w http.ResponseWriter, r *http.Request) {
	var body bulkUpsertSiteRedirectsBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Redirects == nil {
		writeError(w, r, missing("redirects"))
		return
	}
	items := make([]*model.SiteRedirectUpsertInput, len(*body.Redirects))
	for i, it := range *body.Redirects {
		in, err := it.input(fmt.Sprintf("redirects[%d]", i))
		if err != nil {
			writeError(w, r, err)
			return
		}
		items[i] = in
	}
	results, err := a.r.Mutation().BulkUpsertSiteRedirects(r.Context(), chi.URLParam(r, "organizationId"),
		chi.URLParam(r, "siteId"), items)
	respondWith(w, r, http.StatusOK, results, err, bulkResults)
}

// getSiteRedirectBySource answers the redirect a reader of `source` follows and where it leads;
// with `shareKey`, a destination on the site carries the key (decision 161).
func (a *api) getSiteRedirectBySource(w http.ResponseWriter, r *http.Request) {
	s, r, err := a.sharedSiteOf(r)
	source := query{r}.str("source")
	if err == nil && source == nil {
		err = missing("source")
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	found, err := a.r.Site().Redirect(r.Context(), s, *source)
	if err == nil && found == nil {
		err = apperr.NotFoundf("source: no redirect of this site matches %q", truncate(*source, 80))
	}
	respondWith(w, r, http.StatusOK, found, err, a.redirectTarget)
}
