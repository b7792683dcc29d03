package rest

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
)

// SAMLProvider is the wire shape of spec/01 SamlProvider. ssoURL, entityID and certificate are
// left out while unset (a pending provider): the reference declares them strings.
type SAMLProvider struct {
	Object      string       `json:"object"`
	ID          string       `json:"id"`
	Label       string       `json:"label"`
	SSOURL      *string      `json:"ssoURL,omitempty"`
	EntityID    *string      `json:"entityID,omitempty"`
	Certificate *string      `json:"certificate,omitempty"`
	DefaultTeam *Team        `json:"defaultTeam,omitempty"`
	DefaultRole *viewer.Role `json:"defaultRole"`
	CreatedAt   time.Time    `json:"createdAt"`
	Status      string       `json:"status"`
	Service     samlService  `json:"service"`
	URLs        urls         `json:"urls"`
}

type samlService struct {
	ACSURL   string `json:"acsURL"`
	StartURL string `json:"startURL"`
	EntityID string `json:"entityID"`
}

// SSOLogin is the wire shape of spec/01 SSO login info.
type SSOLogin struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	StartURL string `json:"startURL"`
}

func (a *api) samlProvider(ctx context.Context, p *ent.SAMLProvider) (SAMLProvider, error) {
	pr := a.r.SAMLProvider()
	status, _ := pr.Status(ctx, p)
	service, _ := pr.Service(ctx, p)
	w := SAMLProvider{Object: "saml-provider", ID: p.ID, Label: p.Label, SSOURL: p.SSOURL, EntityID: p.EntityID,
		Certificate: p.Certificate, DefaultRole: p.DefaultRole, CreatedAt: p.CreatedAt, Status: strings.ToLower(string(status)),
		Service: samlService{ACSURL: service.AcsURL, StartURL: service.StartURL, EntityID: service.EntityID},
		URLs:    urls{Location: a.url("/v1/orgs/" + p.OrganizationID + "/saml/" + p.ID)}}
	t, err := pr.DefaultTeam(ctx, p)
	if err != nil || t == nil {
		return w, err
	}
	team, err := a.team(ctx, t)
	w.DefaultTeam = &team
	return w, err
}

func (a *api) listSAMLProviders(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.samlProvider, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.SAMLProvider], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().SamlProviders(ctx, o, limit, page)
	})
}

// samlProviderBody is the body of a create (label required) or a patch (all optional; null
// removes an optional field).
type samlProviderBody struct {
	Label       notNull[string]  `json:"label"`
	EntityID    nullable[string] `json:"entityID"`
	Certificate nullable[string] `json:"certificate"`
	SSOURL      nullable[string] `json:"ssoURL"`
	DefaultTeam nullable[string] `json:"defaultTeam"`
	DefaultRole nullable[role]   `json:"defaultRole"`
}

func (a *api) createSAMLProvider(w http.ResponseWriter, r *http.Request) {
	var body samlProviderBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Label.Value == nil {
		writeError(w, r, missing("label"))
		return
	}
	p, err := a.r.Mutation().CreateSAMLProvider(r.Context(), chi.URLParam(r, "organizationId"), model.CreateSAMLProviderInput{
		Label: *body.Label.Value, EntityID: body.EntityID.Value, Certificate: body.Certificate.Value, SsoURL: body.SSOURL.Value,
		DefaultTeam: body.DefaultTeam.Value, DefaultRole: rolePtr(body.DefaultRole.Value),
	})
	respondWith(w, r, http.StatusCreated, p, err, a.samlProvider)
}

func (a *api) getSAMLProvider(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := a.r.Organization().SamlProvider(ctx, o, chi.URLParam(r, "samlProviderId"))
	respondWith(w, r, http.StatusOK, p, err, a.samlProvider)
}

func (a *api) updateSAMLProvider(w http.ResponseWriter, r *http.Request) {
	var body samlProviderBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in := model.UpdateSAMLProviderInput{
		EntityID: omittable(body.EntityID, same[string]), Certificate: omittable(body.Certificate, same[string]),
		SsoURL: omittable(body.SSOURL, same[string]), DefaultTeam: omittable(body.DefaultTeam, same[string]),
		DefaultRole: omittable(body.DefaultRole, asRole), Label: body.Label.Value,
	}
	p, err := a.r.Mutation().UpdateSAMLProvider(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "samlProviderId"), in)
	respondWith(w, r, http.StatusOK, p, err, a.samlProvider)
}

func (a *api) deleteSAMLProvider(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteSAMLProvider(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "samlProviderId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}

// listSSOLogins answers the sign-in entries of an organization's active providers. It needs no
// token: a sign-in page reads it before anyone is signed in (decision 146).
func (a *api) listSSOLogins(w http.ResponseWriter, r *http.Request) {
	logins, err := a.r.SSO().Logins(r.Context(), chi.URLParam(r, "organizationId"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	items := make([]SSOLogin, len(logins))
	for i, l := range logins {
		items[i] = SSOLogin{ID: l.ID, Label: l.Label, StartURL: l.StartURL}
	}
	writeJSON(w, http.StatusOK, ssoLogins{items})
}

// ssoLogins answers GET /orgs/{organizationId}/sso: every item, without pages.
type ssoLogins struct {
	Items []SSOLogin `json:"items"`
}
