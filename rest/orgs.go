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
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, APIInfo{Version: info.Version, Build: info.Build})
}

func (a *api) getViewer(w http.ResponseWriter, r *http.Request) {
	u, err := a.r.Query().Viewer(r.Context())
	a.respondUser(w, r, u, err)
}

func (a *api) getUser(w http.ResponseWriter, r *http.Request) {
	u, err := a.r.Query().User(r.Context(), chi.URLParam(r, "userId"))
	a.respondUser(w, r, u, err)
}

func (a *api) respondUser(w http.ResponseWriter, r *http.Request, u *ent.User, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, a.user(u))
}

func (a *api) listOrganizations(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	limit, err := query{r}.limit()
	if err != nil {
		writeError(w, r, err)
		return
	}
	conn, err := a.r.Query().Organizations(ctx, limit, query{r}.str("page"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	orgs := nodes(conn.Edges, func(e *model.OrganizationEdge) *ent.Organization { return e.Node })
	l, err := list(ctx, orgs, conn.PageInfo, conn.TotalCount, a.organization)
	respond(w, r, http.StatusOK, l, err)
}

func (a *api) createOrganization(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Title        string   `json:"title"`
		EmailDomains []string `json:"emailDomains"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	o, err := a.r.Mutation().CreateOrganization(r.Context(), model.CreateOrganizationInput{Title: body.Title, EmailDomains: body.EmailDomains})
	a.respondOrganization(w, r, http.StatusCreated, o, err)
}

func (a *api) getOrganization(w http.ResponseWriter, r *http.Request) {
	o, err := a.r.Query().Organization(r.Context(), chi.URLParam(r, "organizationId"))
	a.respondOrganization(w, r, http.StatusOK, o, err)
}

func (a *api) updateOrganization(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Title          notNull[string]          `json:"title"`
		EmailDomains   notNull[[]string]        `json:"emailDomains"`
		Hostname       nullable[string]         `json:"hostname"`
		DefaultRole    nullable[role]           `json:"defaultRole"`
		DefaultContent nullable[defaultContent] `json:"defaultContent"`
		Logo           nullable[string]         `json:"logo"`
		SSO            notNull[bool]            `json:"sso"`
		AI             notNull[bool]            `json:"ai"`
		InviteLinks    notNull[bool]            `json:"inviteLinks"`
	}
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
	o, err := a.r.Mutation().UpdateOrganization(r.Context(), chi.URLParam(r, "organizationId"), in)
	a.respondOrganization(w, r, http.StatusOK, o, err)
}

func (a *api) respondOrganization(w http.ResponseWriter, r *http.Request, status int, o *ent.Organization, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	wo, err := a.organization(r.Context(), o)
	respond(w, r, status, wo, err)
}

func (a *api) organizationsForEmailDomain(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	orgs, err := a.r.Query().OrganizationsForEmailDomain(ctx, chi.URLParam(r, "emailDomain"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	items, err := convertAll(ctx, orgs, a.organization)
	respond(w, r, http.StatusOK, struct {
		Organizations []Organization `json:"organizations"`
	}{items}, err)
}

func (a *api) ping(w http.ResponseWriter, r *http.Request) {
	res, err := a.r.Mutation().Ping(r.Context(), chi.URLParam(r, "organizationId"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		ServiceVisitorClaims *string `json:"serviceVisitorClaims,omitempty"`
	}{res.ServiceVisitorClaims})
}

// orgOf loads the organization named in the path.
func (a *api) orgOf(ctx context.Context, r *http.Request) (*ent.Organization, error) {
	return a.r.Query().Organization(ctx, chi.URLParam(r, "organizationId"))
}
