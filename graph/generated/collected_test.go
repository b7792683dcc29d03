package generated

import (
	"slices"
	"sync"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestCollectedFieldsAsCollectFields: the fields kept for a selection set and an object type are
// graphql.CollectFields' for them, the type's fragments included and another type's left out,
// from any number of resolvers at once.
func TestCollectedFieldsAsCollectFields(t *testing.T) {
	oc := &graphql.OperationContext{Doc: &ast.QueryDocument{}}
	sel := ast.SelectionSet{
		&ast.Field{Alias: "id", Name: "id"},
		&ast.InlineFragment{TypeCondition: "User", SelectionSet: ast.SelectionSet{&ast.Field{Alias: "email", Name: "email"}}},
		&ast.InlineFragment{TypeCondition: "Space", SelectionSet: ast.SelectionSet{&ast.Field{Alias: "title", Name: "title"}}},
	}
	user, space := []string{"User", "Node"}, []string{"Space", "Node"}
	aliases := func(fields []graphql.CollectedField) []string {
		var out []string
		for _, f := range fields {
			out = append(out, f.Alias)
		}
		return out
	}
	var c collectedFields
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, satisfies := range [][]string{user, space, user} {
				got, want := aliases(c.of(oc, sel, satisfies)), aliases(graphql.CollectFields(oc, sel, satisfies))
				if !slices.Equal(got, want) {
					t.Errorf("%v: collected %v, CollectFields %v", satisfies, got, want)
				}
			}
		})
	}
	wg.Wait()
	if got := aliases(c.of(oc, sel, user)); !slices.Equal(got, []string{"id", "email"}) {
		t.Errorf("a User's fields: %v", got)
	}
	if got := aliases(c.of(oc, sel[:1], user)); !slices.Equal(got, []string{"id"}) {
		t.Errorf("the first selection alone: %v", got)
	}
}
