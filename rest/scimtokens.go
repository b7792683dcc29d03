package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

// SCIMToken is the wire shape of a SCIM token (issue 40's contract; the reference client has
// none): the token itself only in the answer that issues it.
type SCIMToken struct {
	Object    string    `json:"object"`
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"createdAt"`
	Token     string    `json:"token,omitempty"`
}

func scimToken(_ context.Context, t *ent.SCIMToken) (SCIMToken, error) {
	return SCIMToken{Object: "scim-token", ID: t.ID, CreatedAt: t.CreatedAt}, nil
}

func (a *api) listSCIMTokens(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, scimToken, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.SCIMToken], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().ScimTokens(ctx, o, limit, page)
	})
}

func (a *api) createSCIMToken(w http.ResponseWriter, r *http.Request) {
	created, err := a.r.Mutation().CreateSCIMToken(r.Context(), chi.URLParam(r, "organizationId"))
	respondWith(w, r, http.StatusCreated, created, err, func(ctx context.Context, c *model.CreatedSCIMToken) (SCIMToken, error) {
		t, err := scimToken(ctx, c.ScimToken)
		t.Token = c.Token
		return t, err
	})
}

func (a *api) revokeSCIMToken(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().RevokeSCIMToken(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "tokenId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}
