package generated

import (
	"context"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// TestMarshalSliceInOrderPaths: each element is marshalled under a field context holding its
// own index, so an error inside it names its place in the list.
func TestMarshalSliceInOrderPaths(t *testing.T) {
	ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, graphql.DefaultRecover)
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Field: graphql.CollectedField{Field: &ast.Field{Alias: "items"}}})
	var paths []string
	ret := marshalSliceInOrder(ctx, 3, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		fc := graphql.GetFieldContext(ctx)
		if fc.Index == nil || *fc.Index != i {
			t.Errorf("element %d: field context index %v", i, fc.Index)
		}
		paths = append(paths, graphql.GetPath(ctx).String())
		return graphql.MarshalInt(i)
	})
	if len(ret) != 3 || paths[0] != "items[0]" || paths[2] != "items[2]" {
		t.Fatalf("marshalled %d elements under paths %v", len(ret), paths)
	}
	ret = marshalSliceInOrder(ctx, 3, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		if i == 1 {
			panic("boom")
		}
		return graphql.MarshalInt(i)
	})
	errs := graphql.GetErrors(ctx)
	if ret != nil || len(errs) != 1 || errs[0].Path.String() != "items[1]" {
		t.Fatalf("a panicking element: list %v, errors %v", ret, gqlerror.List(errs))
	}
}
