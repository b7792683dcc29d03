package generated

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
)

// marshalSliceInOrder replaces graphql.MarshalSliceConcurrently in the generated executor
// (internal/gqlgentune, decision 197): the same contract — each element marshalled with a field
// context holding its index, a panic reported as the element's error and the list nulled — on the
// caller's goroutine, one element after another. The worker limit and panic-handler flags of the
// original signature are accepted and ignored: there are no workers, and panics are always
// recovered.
func marshalSliceInOrder(ctx context.Context, length int, _ int64, _ bool,
	marshalElement func(ctx context.Context, i int) graphql.Marshaler,
) graphql.Array {
	ret := make(graphql.Array, length)
	// The elements' field contexts and indexes in two allocations, not two per element.
	indexes := make([]int, length)
	fieldContexts := make([]graphql.FieldContext, length)
	for i := range length {
		indexes[i] = i
		fieldContexts[i].Index = &indexes[i]
		elementCtx := graphql.WithFieldContext(ctx, &fieldContexts[i])
		if !marshalRecovering(elementCtx, ret, i, marshalElement) {
			return nil
		}
	}
	return ret
}

// marshalRecovering marshals element i into ret, reporting whether it did without panicking.
func marshalRecovering(ctx context.Context, ret graphql.Array, i int,
	marshalElement func(ctx context.Context, i int) graphql.Marshaler,
) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			graphql.AddError(ctx, graphql.Recover(ctx, r))
			ok = false
		}
	}()
	ret[i] = marshalElement(ctx, i)
	return true
}
