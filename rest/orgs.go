package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

func (a *api) getInfo(w http.ResponseWriter, r *http.Request) {
	info, err := a.r.Query().APIInfo(r.Context())
	respondWith(w, r, http.StatusOK, info, err, func(_ context.Context, i *model.APIInfo) (APIInfo, error) {
		return APIInfo{Version: i.Version, Build: i.Build}, nil
	})
}

func (a *api) getViewer(w http.ResponseWriter, r *http.Request) {
	u, err := a.r.Query().Viewer(r.Context())
	respondWith(w, r, http.StatusOK, u, err, a.userOf)
}

func (a *api) getUser(w http.ResponseWriter, r *http.Request) {
	u, err := a.r.Query().User(r.Context(), chi.URLParam(r, "userId"))
	respondWith(w, r, http.StatusOK, u, err, a.userOf)
}

func (a *api) listOrganizations(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.organization, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.Organization], error) {
		return a.r.Query().Organizations(ctx, limit, page)
	})
}

type createOrganizationBody struct {
	Title        *string  `json:"title"`
	EmailDomains []string `json:"emailDomains"`
}

func (a *api) createOrganization(w http.ResponseWriter, r *http.Request) {
	var body createOrganizationBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Title == nil {
		writeError(w, r, missing("title"))
		return
	}
	o, err := a.r.Mutation().CreateOrganization(r.Context(), model.CreateOrganizationInput{Title: *body.Title, EmailDomains: body.EmailDomains})
	respondWith(w, r, http.StatusCreated, o, err, a.organization)
}

func (a *api) getOrganization(w http.ResponseWriter, r *http.Request) {
	o, err := a.r.Query().Organization(r.Context(), chi.URLParam(r, "organizationId"))
	respondWith(w, r, http.StatusOK, o, err, a.organization)
}

type updateOrganizationBody struct {
	Title          notNull[string]          `json:"title"`
	EmailDomains   notNull[[]string]        `json:"emailDomains"`
	Hostname       nullable[string]         `json:"hostname"`
	DefaultRole    nullable[role]           `json:"defaultRole"`
	DefaultContent nullable[defaultContent] `json:"defaultContent"`
	Logo           nullable[string]         `json:"logo"`
	SSO            notNull[bool]            `json:"sso"`
	AI             notNull[bool]            `json:"ai"`
	InviteLinks    notNull[bool]            `json:"inviteLinks"`
	MergeRules     notNull[mergeRules]      `json:"mergeRules"`
}

func (a *api) updateOrganization(w http.ResponseWriter, r *http.Request) {
	var body updateOrganizationBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in := model.UpdateOrganizationInput{
		Title: body.Title.Value, EmailDomains: body.EmailDomains.Or(nil), Sso: body.SSO.Value, Ai: body.AI.Value, InviteLinks: body.InviteLinks.Value,
		Hostname: omittable(body.Hostname, same[string]), Logo: omittable(body.Logo, same[string]),
		DefaultRole:        omittable(body.DefaultRole, asRole),
		DefaultContentSite: omittable(body.DefaultContent, func(d defaultContent) string { return d.Site }),
	}
	if m := body.MergeRules.Value; m != nil {
		in.MergeRules = m.input()
	}
	o, err := a.r.Mutation().UpdateOrganization(r.Context(), chi.URLParam(r, "organizationId"), in)
	respondWith(w, r, http.StatusOK, o, err, a.organization)
}

func (a *api) organizationsForEmailDomain(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	orgs, err := a.r.Query().OrganizationsForEmailDomain(ctx, chi.URLParam(r, "emailDomain"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	items, err := convertAll(ctx, orgs, a.organization)
	respond(w, r, http.StatusOK, organizationsOfDomain{items}, err)
}

// organizationsOfDomain answers GET /email-domains/{emailDomain}/orgs.
type organizationsOfDomain struct {
	Organizations []Organization `json:"organizations"`
}

func (a *api) ping(w http.ResponseWriter, r *http.Request) {
	res, err := a.r.Mutation().Ping(r.Context(), chi.URLParam(r, "organizationId"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, pingResult{res.ServiceVisitorClaims})
}

// pingResult answers POST /orgs/{organizationId}/ping.
type pingResult struct {
	ServiceVisitorClaims *string `json:"serviceVisitorClaims,omitempty"`
}

// orgOf loads the organization named in the path.
func (a *api) orgOf(ctx context.Context, r *http.Request) (*ent.Organization, error) {
	return a.r.Query().Organization(ctx, chi.URLParam(r, "organizationId"))
}
