package limits_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/99designs/gqlgen/graphql/handler/extension"

	"github.com/binderyhq/bindery/graph/limits"
)

// counted is a StaticCheck that counts the operations it checked.
type counted struct{ n *atomic.Int64 }

func (counted) ExtensionName() string                   { return "Counted" }
func (counted) Validate(graphql.ExecutableSchema) error { return nil }
func (c counted) MutateOperationContext(context.Context, *graphql.OperationContext) *gqlerror.Error {
	c.n.Add(1)
	return nil
}

// staticExecutor returns an executor for testSchema with a query cache, as the server's, and
// Static over a complexity limit of 100 (books cost first × their fields, 10 when first is not
// given; other fields 1 and their fields), the depth limit 3 and counted; complexities receives each operation's recorded
// complexity.
func staticExecutor(checked *atomic.Int64, complexities *[]int) *executor.Executor {
	exec := executor.New(&graphql.ExecutableSchemaMock{
		SchemaFunc: func() *ast.Schema { return testSchema },
		ComplexityFunc: func(_ context.Context, _, field string, child int, args map[string]any) (int, bool) {
			if field != "books" {
				return 0, false
			}
			first := 10
			switch f := args["first"].(type) {
			case int:
				first = f
			case int64:
				first = int(f)
			}
			return first * child, true
		},
		ExecFunc: func(ctx context.Context) graphql.ResponseHandler {
			stats, _ := graphql.GetOperationContext(ctx).Stats.GetExtension("ComplexityLimit").(*extension.ComplexityStats)
			if stats != nil {
				*complexities = append(*complexities, stats.Complexity)
			}
			return graphql.OneShot(&graphql.Response{Data: []byte(`{"name":"ok"}`)})
		},
	})
	exec.SetQueryCache(limits.NewDocumentCache(10, 1<<20))
	exec.Use(limits.NewStatic(1<<20, extension.FixedComplexityLimit(100), limits.Depth(3), counted{checked}))
	return exec
}

// executeWith is execute with variables.
func executeWith(t *testing.T, exec *executor.Executor, query string, vars map[string]any) map[string]any {
	t.Helper()
	ctx := graphql.StartOperationTrace(context.Background())
	opCtx, errs := exec.CreateOperationContext(ctx, &graphql.RawParams{Query: query, Variables: vars})
	if errs != nil {
		return map[string]any{"errors": errs}
	}
	handler, ctx := exec.DispatchOperation(ctx, opCtx)
	if resp := handler(ctx); len(resp.Errors) > 0 {
		return map[string]any{"errors": resp.Errors}
	}
	return map[string]any{"data": true}
}

// TestStaticChecksAKeptOperationOnce: a document sent again without variables is checked once,
// and its complexity is recorded for every request (ChargeCost charges it).
func TestStaticChecksAKeptOperationOnce(t *testing.T) {
	var checked atomic.Int64
	var complexities []int
	exec := staticExecutor(&checked, &complexities)
	for range 3 {
		if resp := executeWith(t, exec, `{ author(id: "1") { books(first: 2) { title } } }`, nil); resp["errors"] != nil {
			t.Fatalf("refused: %v", resp["errors"])
		}
	}
	if checked.Load() != 1 {
		t.Errorf("checked %d times, want once", checked.Load())
	}
	if want := []int{3, 3, 3}; len(complexities) != 3 || complexities[0] != 3 || complexities[1] != 3 || complexities[2] != 3 {
		t.Errorf("complexities %v, want %v", complexities, want)
	}
}

// TestStaticChecksVariablesEachTime: an operation with variables is checked on every request,
// with its variables.
func TestStaticChecksVariablesEachTime(t *testing.T) {
	var checked atomic.Int64
	var complexities []int
	exec := staticExecutor(&checked, &complexities)
	query := `query($n: Int) { author(id: "1") { books(first: $n) { title } } }`
	for _, n := range []int{2, 5} {
		if resp := executeWith(t, exec, query, map[string]any{"n": n}); resp["errors"] != nil {
			t.Fatalf("first: %d refused: %v", n, resp["errors"])
		}
	}
	resp := executeWith(t, exec, query, map[string]any{"n": 200})
	errs, _ := resp["errors"].(gqlerror.List)
	if len(errs) != 1 || errs[0].Message != "operation has complexity 201, which exceeds the limit of 100" {
		t.Errorf("first: 200 answered %v, want the complexity limit's error", resp)
	}
	if checked.Load() != 2 || len(complexities) != 2 || complexities[0] != 3 || complexities[1] != 6 {
		t.Errorf("checked %d times with complexities %v, want 2 with [3 6]", checked.Load(), complexities)
	}
}

// TestStaticRefusesAgain: an operation a check refused is refused again, by the check.
func TestStaticRefusesAgain(t *testing.T) {
	var checked atomic.Int64
	var complexities []int
	exec := staticExecutor(&checked, &complexities)
	for range 2 {
		resp := executeWith(t, exec, deepQuery(4), nil)
		errs, _ := resp["errors"].(gqlerror.List)
		if len(errs) != 1 || errs[0].Extensions["code"] != limits.CodeDepthLimitExceeded {
			t.Fatalf("answered %v, want the depth limit's error", resp)
		}
	}
	if len(complexities) != 0 {
		t.Errorf("refused operations ran: %v", complexities)
	}
}

// BenchmarkStaticLimits measures what the complexity, depth and alias limits add to the
// operation context of a kept document without variables, checked each time ("each") and
// through Static ("static").
func BenchmarkStaticLimits(b *testing.B) {
	complexity := func(context.Context, string, string, int, map[string]any) (int, bool) { return 0, false }
	for _, name := range []string{"each", "static"} {
		b.Run(name, func(b *testing.B) {
			exec := executor.New(&graphql.ExecutableSchemaMock{
				SchemaFunc:     func() *ast.Schema { return testSchema },
				ComplexityFunc: complexity,
			})
			exec.SetQueryCache(limits.NewDocumentCache(10, 1<<20))
			checks := []limits.StaticCheck{extension.FixedComplexityLimit(5000), limits.Depth(12), limits.Aliases(30)}
			if name == "static" {
				exec.Use(limits.NewStatic(1<<20, checks...))
			} else {
				for _, c := range checks {
					exec.Use(c)
				}
			}
			params := &graphql.RawParams{Query: `{ author(id: "a1b2c3") { id name } }`}
			ctx := graphql.StartOperationTrace(context.Background())
			b.ReportAllocs()
			for b.Loop() {
				if _, errs := exec.CreateOperationContext(ctx, params); errs != nil {
					b.Fatal(errs)
				}
			}
		})
	}
}
