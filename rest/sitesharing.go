package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
)

// siteSharingRoutes are the routes of who reads a site and how it looks to them: share links,
// visitor authentication settings, the visitor schema, customization.
func (a *api) siteSharingRoutes(r chi.Router) {
	const site = "/orgs/{organizationId}/sites/{siteId}"
	r.Get(site+"/share-links", a.listSiteShareLinks)
	r.Post(site+"/share-links", a.createSiteShareLink)
	r.Patch(site+"/share-links/{shareLinkId}", a.updateSiteShareLink)
	r.Delete(site+"/share-links/{shareLinkId}", a.deleteSiteShareLink)
	r.Get(site+"/publishing/auth", a.getSitePublishingAuth)
	r.Patch(site+"/publishing/auth", a.updateSitePublishingAuth)
	r.Post(site+"/publishing/auth/regenerate", a.regenerateSitePublishingAuth)
	r.Get(site+"/adaptive-schema", a.getSiteAdaptiveSchema)
	r.Put(site+"/adaptive-schema", a.updateSiteAdaptiveSchema)
	r.Get(site+"/customization", a.getSiteCustomization)
	r.Put(site+"/customization", a.updateSiteCustomization)
	r.Get(site+"/site-spaces/{siteSpaceId}/customization", a.getSiteSpaceCustomization)
	r.Patch(site+"/site-spaces/{siteSpaceId}/customization", a.overrideSiteSpaceCustomization)
	r.Delete(site+"/site-spaces/{siteSpaceId}/customization", a.deleteSiteSpaceCustomization)
}

// ShareLink is the wire shape of a site's share link (the reference client's ShareLink).
// urls.published, which holds the key, is only in the answer that creates the link.
type ShareLink struct {
	Object    string        `json:"object"`
	ID        string        `json:"id"`
	CreatedAt time.Time     `json:"createdAt"`
	Name      string        `json:"name"`
	Active    bool          `json:"active"`
	URLs      shareLinkURLs `json:"urls"`
}

type shareLinkURLs struct {
	Published string `json:"published,omitempty"`
}

func (a *api) shareLink(_ context.Context, l *ent.SiteShareLink) (ShareLink, error) {
	return ShareLink{Object: "share-link", ID: l.ID, CreatedAt: l.CreatedAt, Name: l.Name, Active: l.Active}, nil
}

// sharedSiteOf loads the site named in the path, and returns r carrying its share key
// (withShareKey).
func (a *api) sharedSiteOf(r *http.Request) (*ent.Site, *http.Request, error) {
	s, err := a.siteOf(r.Context(), r)
	if err != nil {
		return nil, r, err
	}
	r, err = a.withShareKey(r, s)
	return s, r, err
}

// withShareKey returns r carrying the share key of its `shareKey` parameter, resolved for site s
// (NOT_FOUND when it is no active link's key of the site): the published URLs the resolvers write
// for the request carry it (graph.WithSiteShareKey).
func (a *api) withShareKey(r *http.Request, s *ent.Site) (*http.Request, error) {
	key, err := a.r.SiteShareKey(r.Context(), s, query{r}.str("shareKey"))
	if err != nil || key == nil {
		return r, err
	}
	return r.WithContext(graph.WithSiteShareKey(r.Context(), s.ID, *key)), nil
}

func (a *api) listSiteShareLinks(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.shareLink, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.SiteShareLink], error) {
		s, err := a.siteOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Site().ShareLinks(ctx, s, limit, page, query{r}.str("search"))
	})
}

type createSiteShareLinkBody struct {
	Name *string `json:"name"`
}

func (a *api) createSiteShareLink(w http.ResponseWriter, r *http.Request) {
	var body createSiteShareLinkBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Name == nil {
		writeError(w, r, missing("name"))
		return
	}
	created, err := a.r.Mutation().CreateSiteShareLink(r.Context(), chi.URLParam(r, "organizationId"),
		chi.URLParam(r, "siteId"), model.CreateSiteShareLinkInput{Name: *body.Name})
	if err != nil {
		writeError(w, r, err)
		return
	}
	l := created.ShareLink
	wire, _ := a.shareLink(r.Context(), l)
	wire.URLs.Published = created.URL
	w.Header().Set("Location", a.url("/v1/orgs/"+l.OrganizationID+"/sites/"+l.SiteID+"/share-links/"+l.ID))
	respond(w, r, http.StatusCreated, wire, nil)
}

type updateSiteShareLinkBody struct {
	Name   notNull[string] `json:"name"`
	Active notNull[bool]   `json:"active"`
}

func (a *api) updateSiteShareLink(w http.ResponseWriter, r *http.Request) {
	var body updateSiteShareLinkBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	l, err := a.r.Mutation().UpdateSiteShareLink(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		chi.URLParam(r, "shareLinkId"), model.UpdateSiteShareLinkInput{Name: body.Name.Value, Active: body.Active.Value})
	respondWith(w, r, http.StatusOK, l, err, a.shareLink)
}

// deleteSiteShareLink answers 205 when the link was deleted, 204 when the site had no such link
// (the reference's two statuses).
func (a *api) deleteSiteShareLink(w http.ResponseWriter, r *http.Request) {
	deleted, err := a.r.Mutation().DeleteSiteShareLink(r.Context(), chi.URLParam(r, "organizationId"),
		chi.URLParam(r, "siteId"), chi.URLParam(r, "shareLinkId"))
	respondEmpty(w, r, resetOrNoContent(deleted), err)
}

// resetOrNoContent is 205 when something was deleted, 204 when there was nothing to delete.
func resetOrNoContent(deleted bool) int {
	if deleted {
		return http.StatusResetContent
	}
	return http.StatusNoContent
}

// PublishingAuth is the wire shape of a site's visitor authentication settings (the reference
// client's SitePublishingAuth). The backend is always custom: Bindery has no integrations. oidc
// is Bindery's extension: the OpenID Connect provider of the organization readers sign in with.
type PublishingAuth struct {
	Object      string                   `json:"object"`
	Backend     string                   `json:"backend"`
	PrivateKey  string                   `json:"privateKey"`
	FallbackURL *string                  `json:"fallbackURL,omitempty"`
	LogoutURL   *string                  `json:"logoutURL,omitempty"`
	OIDC        *model.SiteVisitorSignIn `json:"oidc,omitempty"`
}

func (a *api) publishingAuth(ctx context.Context, p *ent.SitePublishingAuth) (PublishingAuth, error) {
	key, err := a.r.SitePublishingAuth().PrivateKey(ctx, p)
	if err != nil {
		return PublishingAuth{}, err
	}
	signIn, err := a.r.SitePublishingAuth().Oidc(ctx, p)
	return PublishingAuth{Object: "publishing-auth", Backend: "custom", PrivateKey: key,
		FallbackURL: p.FallbackURL, LogoutURL: p.LogoutURL, OIDC: signIn}, err
}

func (a *api) getSitePublishingAuth(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, err := a.siteOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := a.r.Site().PublishingAuth(ctx, s)
	respondWith(w, r, http.StatusOK, p, err, a.publishingAuth)
}

// authBackend is the backend of visitor authentication in a request body: only custom.
type authBackend string

func (b *authBackend) UnmarshalJSON(raw []byte) error {
	if string(raw) != `"custom"` {
		return invalidValue("must be custom (Bindery has no authentication integrations)")
	}
	*b = "custom"
	return nil
}

type updateSitePublishingAuthBody struct {
	Backend     authBackend      `json:"backend"`
	FallbackURL nullable[string] `json:"fallbackURL"`
	LogoutURL   nullable[string] `json:"logoutURL"`
	// OIDC is Bindery's extension: {providerId, claims?}, null removes it.
	OIDC nullable[model.SiteVisitorSignInInput] `json:"oidc"`
}

func (a *api) updateSitePublishingAuth(w http.ResponseWriter, r *http.Request) {
	var body updateSitePublishingAuthBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	p, err := a.r.Mutation().UpdateSitePublishingAuth(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"),
		model.UpdateSitePublishingAuthInput{FallbackURL: omittable(body.FallbackURL, same[string]),
			LogoutURL: omittable(body.LogoutURL, same[string]), Oidc: omittable(body.OIDC, same[model.SiteVisitorSignInInput])})
	respondWith(w, r, http.StatusOK, p, err, a.publishingAuth)
}

func (a *api) regenerateSitePublishingAuth(w http.ResponseWriter, r *http.Request) {
	p, err := a.r.Mutation().RegenerateSitePublishingAuth(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"))
	respondWith(w, r, http.StatusOK, p, err, a.publishingAuth)
}

func (a *api) getSiteCustomization(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, err := a.siteOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	settings, err := a.r.Site().Customization(ctx, s)
	respond(w, r, http.StatusOK, settings, err)
}

func (a *api) updateSiteCustomization(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	settings, err := a.r.Mutation().UpdateSiteCustomization(r.Context(), chi.URLParam(r, "organizationId"),
		chi.URLParam(r, "siteId"), body)
	respond(w, r, http.StatusOK, settings, err)
}

func (a *api) getSiteSpaceCustomization(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, err := a.siteOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	ss, err := a.r.Site().SiteSpace(ctx, s, chi.URLParam(r, "siteSpaceId"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	settings, err := a.r.SiteSpace().Customization(ctx, ss)
	respond(w, r, http.StatusOK, settings, err)
}

func (a *api) overrideSiteSpaceCustomization(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	settings, err := a.r.Mutation().OverrideSiteSpaceCustomization(r.Context(), chi.URLParam(r, "organizationId"),
		chi.URLParam(r, "siteId"), chi.URLParam(r, "siteSpaceId"), body)
	respond(w, r, http.StatusOK, settings, err)
}

// deleteSiteSpaceCustomization answers 205 when the override was removed, 204 when there was none.
func (a *api) deleteSiteSpaceCustomization(w http.ResponseWriter, r *http.Request) {
	deleted, err := a.r.Mutation().DeleteSiteSpaceCustomization(r.Context(), chi.URLParam(r, "organizationId"),
		chi.URLParam(r, "siteId"), chi.URLParam(r, "siteSpaceId"))
	respondEmpty(w, r, resetOrNoContent(deleted), err)
}

// AdaptiveSchema is the wire shape of a site's visitor schema (the reference's SiteAdaptiveSchema).
type AdaptiveSchema struct {
	Object     string    `json:"object"`
	JSONSchema any       `json:"jsonSchema"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

func (a *api) adaptiveSchema(_ context.Context, m *model.SiteAdaptiveSchema) (AdaptiveSchema, error) {
	return AdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: m.JSONSchema, UpdatedAt: m.UpdatedAt}, nil
}

// getSiteAdaptiveSchema answers 404 for a site without a schema, as the reference does.
func (a *api) getSiteAdaptiveSchema(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, err := a.siteOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	m, err := a.r.Site().AdaptiveSchema(ctx, s)
	if err == nil && m == nil {
		err = apperr.NotFoundf("adaptive schema not found: the site has none (PUT one first)")
	}
	respondWith(w, r, http.StatusOK, m, err, a.adaptiveSchema)
}

type updateSiteAdaptiveSchemaBody struct {
	JSONSchema notNull[map[string]any] `json:"jsonSchema"`
}

func (a *api) updateSiteAdaptiveSchema(w http.ResponseWriter, r *http.Request) {
	var body updateSiteAdaptiveSchemaBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.JSONSchema.Value == nil {
		writeError(w, r, missing("jsonSchema"))
		return
	}
	m, err := a.r.Mutation().UpdateSiteAdaptiveSchema(r.Context(), chi.URLParam(r, "organizationId"),
		chi.URLParam(r, "siteId"), *body.JSONSchema.Value)
	respondWith(w, r, http.StatusOK, m, err, a.adaptiveSchema)
}
