package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
)

// OIDCProvider is the wire shape of an OpenID Connect provider (issue 40's contract; the
// reference client has none). The client secret is never part of it.
type OIDCProvider struct {
	Object       string       `json:"object"`
	ID           string       `json:"id"`
	Label        string       `json:"label"`
	Issuer       string       `json:"issuer"`
	ClientID     string       `json:"clientId"`
	Scopes       []string     `json:"scopes"`
	EmailDomains []string     `json:"emailDomains"`
	GroupsClaim  *string      `json:"groupsClaim"`
	DefaultRole  *viewer.Role `json:"defaultRole"`
	CreatedAt    time.Time    `json:"createdAt"`
	URLs         oidcURLs     `json:"urls"`
}

type oidcURLs struct {
	Login    string `json:"login"`
	Callback string `json:"callback"`
}

func (a *api) oidcProvider(ctx context.Context, p *ent.OIDCProvider) (OIDCProvider, error) {
	u, err := a.r.OIDCProvider().Urls(ctx, p)
	if err != nil {
		return OIDCProvider{}, err
	}
	return OIDCProvider{Object: "oidc-provider", ID: p.ID, Label: p.Label, Issuer: p.Issuer, ClientID: p.ClientID,
		Scopes: p.Scopes, EmailDomains: p.EmailDomains, GroupsClaim: p.GroupsClaim, DefaultRole: p.DefaultRole,
		CreatedAt: p.CreatedAt, URLs: oidcURLs{Login: u.Login, Callback: u.Callback}}, nil
}

// oidcProviderBody is the body of a create (label, issuer, clientId and clientSecret required)
// or a patch (all optional; null removes groupsClaim or defaultRole).
type oidcProviderBody struct {
	Label        notNull[string]   `json:"label"`
	Issuer       notNull[string]   `json:"issuer"`
	ClientID     notNull[string]   `json:"clientId"`
	ClientSecret notNull[string]   `json:"clientSecret"`
	Scopes       notNull[[]string] `json:"scopes"`
	EmailDomains notNull[[]string] `json:"emailDomains"`
	GroupsClaim  nullable[string]  `json:"groupsClaim"`
	DefaultRole  nullable[role]    `json:"defaultRole"`
}

func (a *api) listOIDCProviders(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.oidcProvider, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.OIDCProvider], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().OidcProviders(ctx, o, limit, page)
	})
}

func (a *api) createOIDCProvider(w http.ResponseWriter, r *http.Request) {
	var body oidcProviderBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	for i, v := range []*string{body.Label.Value, body.Issuer.Value, body.ClientID.Value, body.ClientSecret.Value} {
		if v == nil {
			writeError(w, r, missing([]string{"label", "issuer", "clientId", "clientSecret"}[i]))
			return
		}
	}
	p, err := a.r.Mutation().CreateOIDCProvider(r.Context(), chi.URLParam(r, "organizationId"), model.CreateOIDCProviderInput{
		Label: *body.Label.Value, Issuer: *body.Issuer.Value, ClientID: *body.ClientID.Value, ClientSecret: *body.ClientSecret.Value,
		Scopes: body.Scopes.Or(nil), EmailDomains: body.EmailDomains.Or(nil), GroupsClaim: body.GroupsClaim.Value,
		DefaultRole: rolePtr(body.DefaultRole.Value),
	})
	respondWith(w, r, http.StatusCreated, p, err, a.oidcProvider)
}

func (a *api) getOIDCProvider(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := a.r.Organization().OidcProvider(ctx, o, chi.URLParam(r, "providerId"))
	respondWith(w, r, http.StatusOK, p, err, a.oidcProvider)
}

func (a *api) updateOIDCProvider(w http.ResponseWriter, r *http.Request) {
	var body oidcProviderBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in := model.UpdateOIDCProviderInput{Label: body.Label.Value, Issuer: body.Issuer.Value, ClientID: body.ClientID.Value,
		ClientSecret: body.ClientSecret.Value, Scopes: body.Scopes.Or(nil), EmailDomains: body.EmailDomains.Or(nil),
		GroupsClaim: omittable(body.GroupsClaim, same[string]), DefaultRole: omittable(body.DefaultRole, asRole)}
	p, err := a.r.Mutation().UpdateOIDCProvider(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "providerId"), in)
	respondWith(w, r, http.StatusOK, p, err, a.oidcProvider)
}

func (a *api) deleteOIDCProvider(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteOIDCProvider(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "providerId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}
