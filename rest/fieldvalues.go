package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/graph/model"
)

// CustomFieldValue is the wire shape of a space's custom field value.
type CustomFieldValue struct {
	CustomField CustomField `json:"customField"`
	Value       any         `json:"value"`
}

func (a *api) customFieldValue(ctx context.Context, v *model.CustomFieldValue) (CustomFieldValue, error) {
	f, err := a.customField(ctx, v.CustomField)
	return CustomFieldValue{CustomField: f, Value: v.Value}, err
}

func (a *api) listSpaceCustomFields(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, err := a.r.Query().Space(ctx, chi.URLParam(r, "spaceId"), nil)
	if err != nil {
		writeError(w, r, err)
		return
	}
	values, err := a.r.Space().CustomFields(ctx, s)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out, err := convertAll(ctx, values, a.customFieldValue)
	respond(w, r, http.StatusOK, out, err)
}

// spaceCustomFieldsBody is the body of updateSpaceCustomFields: values by field name.
type spaceCustomFieldsBody struct {
	Values map[string]struct {
		Value json.RawMessage `json:"value"`
	} `json:"values"`
}

func (a *api) updateSpaceCustomFields(w http.ResponseWriter, r *http.Request) {
	var body spaceCustomFieldsBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Values == nil {
		writeError(w, r, missing("values"))
		return
	}
	names := make([]string, 0, len(body.Values))
	for name := range body.Values {
		names = append(names, name)
	}
	sort.Strings(names)
	in := make([]*model.CustomFieldValueInput, len(names))
	for i, name := range names {
		v := body.Values[name].Value
		if v == nil {
			writeError(w, r, missing("values."+name+".value"))
			return
		}
		in[i] = &model.CustomFieldValueInput{Name: name, Value: v}
	}
	_, err := a.r.Mutation().SetSpaceCustomFields(r.Context(), chi.URLParam(r, "spaceId"), in)
	respondEmpty(w, r, http.StatusNoContent, err)
}
