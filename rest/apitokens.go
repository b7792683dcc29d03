package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

// APIToken is the wire shape of a personal API token (the reference client's UserAPIToken);
// Token is set only in the answer that created it (UserAPITokenExtended).
type APIToken struct {
	ID        string    `json:"id"`
	Label     string    `json:"label"`
	CreatedAt time.Time `json:"createdAt"`
	Token     string    `json:"token,omitempty"`
}

func apiToken(_ context.Context, t *ent.APIToken) (APIToken, error) {
	return APIToken{ID: t.ID, Label: t.Label, CreatedAt: t.CreatedAt}, nil
}

func (a *api) listAPITokens(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, apiToken, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.APIToken], error) {
		return a.r.Query().APITokens(ctx, limit, page)
	})
}

// createAPITokenBody is the body of createAPIToken.
type createAPITokenBody struct {
	Label notNull[string] `json:"label"`
}

func (a *api) createAPIToken(w http.ResponseWriter, r *http.Request) {
	var body createAPITokenBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	created, err := a.r.Mutation().CreateAPIToken(r.Context(), model.CreateAPITokenInput{Label: body.Label.Value})
	if err != nil {
		writeError(w, r, err)
		return
	}
	t, _ := apiToken(r.Context(), created.APIToken)
	t.Token = created.Token
	writeJSON(w, http.StatusCreated, t)
}

func (a *api) revokeAPIToken(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().RevokeAPIToken(r.Context(), chi.URLParam(r, "tokenId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}
