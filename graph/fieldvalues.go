package graph

import (
	"context"
	"encoding/json"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/customfields"
)

// spaceFieldValues lists the custom field values of a space the viewer reads, by field name.
// Whoever reads the space reads its values and their definitions (guests with a grant and readers
// of a public space included); the loader reads them with the policy's decision made.
func (r *Resolver) spaceFieldValues(ctx context.Context, s *ent.Space) ([]*model.CustomFieldValue, error) {
	rows, err := loader.For(ctx, r.Client).SpaceFieldValues(ctx, s)
	if err != nil {
		return nil, err
	}
	out := make([]*model.CustomFieldValue, 0, len(rows))
	for _, v := range rows {
		if v.Edges.CustomField != nil {
			out = append(out, &model.CustomFieldValue{CustomField: v.Edges.CustomField, Value: json.RawMessage(v.Value)})
		}
	}
	return out, nil
}

// setSpaceFieldValues is Mutation.setSpaceCustomFields (customfields.Service.SetSpaceValues).
func (r *Resolver) setSpaceFieldValues(ctx context.Context, spaceID string, values []*model.CustomFieldValueInput) (*ent.Space, error) {
	in := make([]customfields.Value, len(values))
	for i, v := range values {
		in[i] = customfields.Value{Name: v.Name, Value: v.Value}
	}
	return r.customFieldService().SetSpaceValues(ctx, spaceID, in)
}
