package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

// TranslationSettings is the wire shape of spec/01 TranslationSettings (the reference client's
// `translations` operations are another resource: decision 148).
type TranslationSettings struct {
	Object      string                                `json:"object"`
	ID          string                                `json:"id"`
	Title       string                                `json:"title"`
	Languages   []string                              `json:"languages"`
	CreatedAt   time.Time                             `json:"createdAt"`
	UpdatedAt   time.Time                             `json:"updatedAt"`
	Permissions *model.TranslationSettingsPermissions `json:"permissions"`
	URLs        urls                                  `json:"urls"`
}

func (a *api) translationSettings(ctx context.Context, t *ent.TranslationSettings) (TranslationSettings, error) {
	perms, err := a.r.TranslationSettings().Permissions(ctx, t)
	return TranslationSettings{Object: "translation-settings", ID: t.ID, Title: t.Title, Languages: t.Languages,
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt, Permissions: perms,
		URLs: urls{Location: a.url("/v1/orgs/" + t.OrganizationID + "/translations/" + t.ID)}}, err
}

func (a *api) listTranslationSettings(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.translationSettings, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.TranslationSettings], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().TranslationSettings(ctx, o, limit, page)
	})
}

// translationSettingsBody is the body of createTranslationSettings and updateTranslationSettings.
type translationSettingsBody struct {
	Title     notNull[string]   `json:"title"`
	Languages notNull[[]string] `json:"languages"`
}

// translationSettingsInput decodes the body of a create or a put: title required, languages
// optional (not null).
func translationSettingsInput(r *http.Request) (model.TranslationSettingsInput, error) {
	var body translationSettingsBody
	if err := decodeBody(r, &body); err != nil {
		return model.TranslationSettingsInput{}, err
	}
	if body.Title.Value == nil {
		return model.TranslationSettingsInput{}, missing("title")
	}
	return model.TranslationSettingsInput{Title: *body.Title.Value, Languages: body.Languages.Or(nil)}, nil
}

func (a *api) createTranslationSettings(w http.ResponseWriter, r *http.Request) {
	in, err := translationSettingsInput(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	t, err := a.r.Mutation().CreateTranslationSettings(r.Context(), chi.URLParam(r, "organizationId"), in)
	respondWith(w, r, http.StatusCreated, t, err, a.translationSettings)
}

func (a *api) getTranslationSettings(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	t, err := a.r.Organization().TranslationSetting(ctx, o, chi.URLParam(r, "translationSettingsId"))
	respondWith(w, r, http.StatusOK, t, err, a.translationSettings)
}

func (a *api) updateTranslationSettings(w http.ResponseWriter, r *http.Request) {
	in, err := translationSettingsInput(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	t, err := a.r.Mutation().UpdateTranslationSettings(r.Context(), chi.URLParam(r, "organizationId"),
		chi.URLParam(r, "translationSettingsId"), in)
	respondWith(w, r, http.StatusOK, t, err, a.translationSettings)
}

func (a *api) deleteTranslationSettings(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteTranslationSettings(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "translationSettingsId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}
