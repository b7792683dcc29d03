package rest

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/graph/model"
)

// fieldType is a custom field type in a request body; unknown values are refused with the field's name.
type fieldType customfield.Type

func (t *fieldType) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) != nil || customfield.TypeValidator(customfield.Type(s)) != nil {
		return invalidValue("must be one of text, number, boolean, select, multi-select")
	}
	*t = fieldType(s)
	return nil
}

func (a *api) listCustomFields(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.customField, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.CustomField], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().CustomFields(ctx, o, limit, page)
	})
}

// createCustomFieldBody is the body of createCustomField.
type createCustomFieldBody struct {
	Name        *string    `json:"name"`
	Type        *fieldType `json:"type"`
	Title       *string    `json:"title"`
	Description *string    `json:"description"`
	Placeholder *string    `json:"placeholder"`
	Options     []string   `json:"options"`
}

func (a *api) createCustomField(w http.ResponseWriter, r *http.Request) {
	var body createCustomFieldBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	switch {
	case body.Name == nil:
		writeError(w, r, missing("name"))
		return
	case body.Type == nil:
		writeError(w, r, missing("type"))
		return
	}
	f, err := a.r.Mutation().CreateCustomField(r.Context(), chi.URLParam(r, "organizationId"), model.CreateCustomFieldInput{
		Name: *body.Name, Type: customfield.Type(*body.Type), Title: body.Title, Description: body.Description,
		Placeholder: body.Placeholder, Options: body.Options,
	})
	respondWith(w, r, http.StatusCreated, f, err, a.customField)
}

func (a *api) getCustomField(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	f, err := a.r.Organization().CustomField(ctx, o, chi.URLParam(r, "fieldName"))
	respondWith(w, r, http.StatusOK, f, err, a.customField)
}

// updateCustomFieldBody is the body of updateCustomField.
type updateCustomFieldBody struct {
	Title       nullable[string]  `json:"title"`
	Description nullable[string]  `json:"description"`
	Placeholder nullable[string]  `json:"placeholder"`
	Options     notNull[[]string] `json:"options"`
}

func (a *api) updateCustomField(w http.ResponseWriter, r *http.Request) {
	var body updateCustomFieldBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in := model.UpdateCustomFieldInput{
		Title: omittable(body.Title, same[string]), Description: omittable(body.Description, same[string]),
		Placeholder: omittable(body.Placeholder, same[string]), Options: body.Options.Or(nil),
	}
	f, err := a.r.Mutation().UpdateCustomField(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "fieldName"), in)
	respondWith(w, r, http.StatusOK, f, err, a.customField)
}

func (a *api) deleteCustomField(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteCustomField(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "fieldName"))
	respondEmpty(w, r, http.StatusNoContent, err)
}
