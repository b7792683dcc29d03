package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

// inviteBody is the body of creating or updating an invite link: the role it grants
// (null invites guests). Space and collection invites come with spaces and collections.
type inviteBody struct {
	Role nullable[role] `json:"role"`
}

func (b inviteBody) role() *role { return b.Role.Value }

func (a *api) listInvites(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	limit, err := query{r}.limit()
	if err != nil {
		writeError(w, r, err)
		return
	}
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	conn, err := a.r.Organization().Invites(ctx, o, limit, query{r}.str("page"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	items := nodes(conn.Edges, func(e *model.InviteLinkEdge) *ent.InviteLink { return e.Node })
	l, err := list(ctx, items, conn.PageInfo, conn.TotalCount, a.invite)
	respond(w, r, http.StatusOK, l, err)
}

func (a *api) createInvite(w http.ResponseWriter, r *http.Request) {
	var body inviteBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if !body.Role.Set {
		writeError(w, r, missing("role"))
		return
	}
	i, err := a.r.Mutation().CreateInviteLink(r.Context(), chi.URLParam(r, "organizationId"),
		model.CreateInviteLinkInput{Role: rolePtr(body.role())})
	a.respondInvite(w, r, http.StatusCreated, i, err)
}

func (a *api) getInvite(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	i, err := a.r.Organization().Invite(ctx, o, chi.URLParam(r, "inviteId"))
	a.respondInvite(w, r, http.StatusOK, i, err)
}

func (a *api) updateInvite(w http.ResponseWriter, r *http.Request) {
	var body inviteBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if !body.Role.Set {
		writeError(w, r, missing("role"))
		return
	}
	i, err := a.r.Mutation().UpdateInviteLink(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "inviteId"),
		model.UpdateInviteLinkInput{Role: rolePtr(body.role())})
	a.respondInvite(w, r, http.StatusOK, i, err)
}

func (a *api) respondInvite(w http.ResponseWriter, r *http.Request, status int, i *ent.InviteLink, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	wi, err := a.invite(r.Context(), i)
	respond(w, r, status, wi, err)
}

func (a *api) deleteInvite(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteInviteLink(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "inviteId"))
	respondEmpty(w, r, http.StatusResetContent, err)
}

func (a *api) joinWithInvite(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().JoinOrganization(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "inviteId"))
	respond(w, r, http.StatusOK, struct{}{}, err)
}
