package rest

import (
	"context"
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
	serveList(w, r, a.invite, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.InviteLink], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().Invites(ctx, o, limit, page)
	})
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
	respondWith(w, r, http.StatusCreated, i, err, a.invite)
}

func (a *api) getInvite(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	i, err := a.r.Organization().Invite(ctx, o, chi.URLParam(r, "inviteId"))
	respondWith(w, r, http.StatusOK, i, err, a.invite)
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
	respondWith(w, r, http.StatusOK, i, err, a.invite)
}

func (a *api) deleteInvite(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteInviteLink(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "inviteId"))
	respondEmpty(w, r, http.StatusResetContent, err)
}

func (a *api) joinWithInvite(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().JoinOrganization(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "inviteId"))
	respond(w, r, http.StatusOK, struct{}{}, err)
}
