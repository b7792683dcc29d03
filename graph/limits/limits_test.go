package limits_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"

	"github.com/binderyhq/bindery/graph/limits"
)

// testSchema is deep enough to build queries of any depth:
// author → books → author → books …
var testSchema = gqlparser.MustLoadSchema(&ast.Source{Name: "test.graphql", Input: `
	interface Node { id: ID! }
	type Author implements Node {
		id: ID!
		name: String!
		books(first: Int): [Book!]!
	}
	type Book implements Node {
		id: ID!
		title: String!
		author: Author!
	}
	type Query {
		author(id: ID!): Author
		node(id: ID!): Node
		name: String!
	}
`})

// mutator is what both extensions implement.
type mutator interface {
	MutateOperationContext(context.Context, *graphql.OperationContext) *gqlerror.Error
}

// opContext parses and validates query against testSchema the way the
// gqlgen executor does before it calls MutateOperationContext.
func opContext(t *testing.T, query string) *graphql.OperationContext {
	t.Helper()
	return namedOpContext(t, query, "")
}

// namedOpContext is opContext for the operation called name.
func namedOpContext(t *testing.T, query, name string) *graphql.OperationContext {
	t.Helper()
	doc, errs := gqlparser.LoadQuery(testSchema, query)
	if len(errs) > 0 {
		t.Fatalf("query does not validate: %v", errs)
	}
	return &graphql.OperationContext{
		RawQuery:      query,
		OperationName: name,
		Doc:           doc,
		Operation:     doc.Operations.ForName(name),
	}
}

// run applies m to query and returns its error, if any.
func run(t *testing.T, m mutator, query string) *gqlerror.Error {
	t.Helper()
	return m.MutateOperationContext(context.Background(), opContext(t, query))
}

// expectOK fails the test when m rejects query.
func expectOK(t *testing.T, m mutator, query string) {
	t.Helper()
	if err := run(t, m, query); err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// expectErr fails the test unless m rejects query with code and message.
func expectErr(t *testing.T, m mutator, query, code, message string) {
	t.Helper()
	err := run(t, m, query)
	if err == nil {
		t.Fatalf("expected %s, got no error", code)
	}
	if err.Message != message {
		t.Errorf("message = %q, want %q", err.Message, message)
	}
	if got := err.Extensions["code"]; got != code {
		t.Errorf("extensions.code = %v, want %s", got, code)
	}
}

// deepQuery returns a query of exactly depth levels of nested fields.
func deepQuery(depth int) string {
	// author(1) books(2) author(3) books(4) … ending in a scalar.
	var open, end strings.Builder
	for i := 1; i < depth; i++ {
		if i == 1 {
			open.WriteString(`author(id: "1") { `)
		} else if i%2 == 0 {
			open.WriteString("books { ")
		} else {
			open.WriteString("author { ")
		}
		end.WriteString(" }")
	}
	leaf := "name"
	if depth > 1 && (depth-1)%2 == 0 {
		leaf = "title"
	}
	return "{ " + open.String() + leaf + end.String() + " }"
}

func TestConnectionComplexity(t *testing.T) {
	ptr := func(n int) *int { return &n }
	cases := []struct {
		name  string
		first *int
		child int
		want  int
	}{
		{"nil first defaults to 100", nil, 3, 300},
		{"first times child", ptr(10), 4, 40},
		{"zero first counts as 1", ptr(0), 5, 5},
		{"negative first counts as 1", ptr(-7), 5, 5},
		{"zero child", ptr(10), 0, 0},
		{"negative child", ptr(10), -3, 0},
		{"overflow saturates", ptr(math.MaxInt / 2), 3, math.MaxInt},
	}
	for _, c := range cases {
		if got := limits.ConnectionComplexity(c.first, c.child); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
}

// newExecutor returns a gqlgen executor for testSchema guarded by the
// limits, as handler.Server would build it.
func newExecutor() *executor.Executor {
	exec := executor.New(&graphql.ExecutableSchemaMock{
		SchemaFunc: func() *ast.Schema { return testSchema },
		ExecFunc: func(context.Context) graphql.ResponseHandler {
			return graphql.OneShot(&graphql.Response{Data: []byte(`{"name":"ok"}`)})
		},
	})
	exec.Use(limits.Depth(3))
	exec.Use(limits.Aliases(1))
	return exec
}

// execute runs query the way gqlgen's POST transport does and returns the
// JSON-decoded response.
func execute(t *testing.T, exec *executor.Executor, query string) map[string]any {
	t.Helper()
	ctx := graphql.StartOperationTrace(context.Background())
	opCtx, errs := exec.CreateOperationContext(ctx, &graphql.RawParams{Query: query})
	var resp *graphql.Response
	if errs != nil {
		resp = exec.DispatchError(graphql.WithOperationContext(ctx, opCtx), errs)
	} else {
		handler, ctx := exec.DispatchOperation(ctx, opCtx)
		resp = handler(ctx)
	}
	body, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("bad response %s: %v", body, err)
	}
	return out
}

func TestExecutorAcceptsWithinLimits(t *testing.T) {
	resp := execute(t, newExecutor(), `{ a: author(id: "1") { books { title } } }`)
	if resp["errors"] != nil || resp["data"] == nil {
		t.Fatalf("response %v", resp)
	}
}

func TestExecutorRejects(t *testing.T) {
	cases := []struct{ query, code, message string }{
		{deepQuery(4), limits.CodeDepthLimitExceeded, "query depth 4 exceeds the limit of 3"},
		{`{ a: name b: name }`, limits.CodeAliasLimitExceeded, "query uses 2 aliases, which exceeds the limit of 1"},
	}
	for _, c := range cases {
		resp := execute(t, newExecutor(), c.query)
		if resp["data"] != nil {
			t.Errorf("%s: response has data: %v", c.code, resp)
		}
		errs, _ := resp["errors"].([]any)
		if len(errs) != 1 {
			t.Fatalf("%s: errors = %v", c.code, resp["errors"])
		}
		e := errs[0].(map[string]any)
		ext, _ := e["extensions"].(map[string]any)
		if e["message"] != c.message || ext["code"] != c.code {
			t.Errorf("%s: error = %v", c.code, e)
		}
	}
}
