package limits

import (
	"context"
	"fmt"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/99designs/gqlgen/graphql"
)

// TestStaticRemembersWithinBudget: Static remembers operations by query text within its budget
// of text bytes, the least recently used going first.
func TestStaticRemembersWithinBudget(t *testing.T) {
	const texts = 100
	s := NewStatic(texts*len("{ name } #00")/2, Depth(3))
	for i := range texts {
		op := &ast.OperationDefinition{Operation: ast.Query, SelectionSet: ast.SelectionSet{&ast.Field{Name: "name"}}}
		opCtx := &graphql.OperationContext{RawQuery: fmt.Sprintf("{ name } #%02d", i), Doc: &ast.QueryDocument{}, Operation: op}
		if err := s.MutateOperationContext(context.Background(), opCtx); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.passed.Bytes(); n == 0 || n > texts*len("{ name } #00")/2 {
		t.Fatalf("remembered %d bytes of query text, want some within the budget", n)
	}
	if _, ok := s.passed.Get(staticKey{query: "{ name } #99"}); !ok {
		t.Fatal("the last operation checked is not remembered")
	}
	if _, ok := s.passed.Get(staticKey{query: "{ name } #00"}); ok {
		t.Fatal("the first operation checked is still remembered past the budget")
	}
}
