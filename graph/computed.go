package graph

import (
	"context"
	"encoding/json"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/computed"
	"github.com/binderyhq/bindery/internal/document"
)

// ComputedDocument is getComputedDocument: the document computed from source (a computed content
// source, as decoded JSON) for the space, its nodes' keys made from seed (internal/computed).
// Returns NOT_FOUND when the viewer cannot read the space, INVALID for a source Bindery does not
// compute or a specification the space's organization does not have.
func (r *Resolver) ComputedDocument(ctx context.Context, spaceID string, source any, seed string) (*document.Document, error) {
	s, err := r.space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(source)
	if err != nil {
		return nil, apperr.Invalidf("source: must be a computed content source")
	}
	return computed.Document(ctx, r.openAPISpecsService(), s.OrganizationID, raw, seed)
}
