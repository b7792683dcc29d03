package limits

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/99designs/gqlgen/graphql"
)

// TestStaticForgetsCollectedOperations: what Static remembers of an operation goes when the
// operation is collected, so it holds no more than the query cache keeps.
func TestStaticForgetsCollectedOperations(t *testing.T) {
	s := NewStatic(Depth(3))
	for range 10 {
		op := &ast.OperationDefinition{Operation: ast.Query, SelectionSet: ast.SelectionSet{&ast.Field{Name: "name"}}}
		if err := s.MutateOperationContext(context.Background(), &graphql.OperationContext{Doc: &ast.QueryDocument{}, Operation: op}); err != nil {
			t.Fatal(err)
		}
	}
	remembered := func() (n int) {
		s.passed.Range(func(any, any) bool { n++; return true })
		return n
	}
	if n := remembered(); n != 10 {
		t.Fatalf("remembered %d operations, want 10", n)
	}
	for deadline := time.Now().Add(10 * time.Second); remembered() > 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%d operations still remembered after they were collected", remembered())
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
