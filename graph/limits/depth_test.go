package limits_test

import (
	"fmt"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/99designs/gqlgen/graphql/introspection"

	"github.com/binderyhq/bindery/graph/limits"
)

func TestDepthQueryHelper(t *testing.T) {
	for depth := 1; depth <= 9; depth++ {
		op := opContext(t, deepQuery(depth))
		if got := limits.OperationDepth(op.Doc, op.Operation); got != depth {
			t.Errorf("OperationDepth(deepQuery(%d)) = %d", depth, got)
		}
	}
}

func TestDepthUnderAtOver(t *testing.T) {
	d := limits.Depth(5)
	expectOK(t, d, deepQuery(4))
	expectOK(t, d, deepQuery(5))
	expectErr(t, d, deepQuery(6), limits.CodeDepthLimitExceeded,
		"query depth 6 exceeds the limit of 5")
}

func TestDepthMessage(t *testing.T) {
	expectErr(t, limits.Depth(12), deepQuery(14), limits.CodeDepthLimitExceeded,
		"query depth 14 exceeds the limit of 12")
}

func TestDepthTakesDeepestBranch(t *testing.T) {
	q := `{ name author(id: "1") { name books { title author { name } } } }`
	expectOK(t, limits.Depth(4), q)
	expectErr(t, limits.Depth(3), q, limits.CodeDepthLimitExceeded,
		"query depth 4 exceeds the limit of 3")
}

func TestDepthFragmentSpread(t *testing.T) {
	// books(2) author(3) name(4) inside the fragment, spread at depth 2.
	q := `
		{ author(id: "1") { ...AuthorBooks } }
		fragment AuthorBooks on Author { books { author { name } } }`
	expectOK(t, limits.Depth(4), q)
	expectErr(t, limits.Depth(3), q, limits.CodeDepthLimitExceeded,
		"query depth 4 exceeds the limit of 3")
}

func TestDepthNestedFragments(t *testing.T) {
	q := `
		{ author(id: "1") { ...A } }
		fragment A on Author { books { ...B } }
		fragment B on Book { author { ...C } }
		fragment C on Author { books { title } }`
	expectOK(t, limits.Depth(5), q)
	expectErr(t, limits.Depth(4), q, limits.CodeDepthLimitExceeded,
		"query depth 5 exceeds the limit of 4")
}

func TestDepthFragmentSpreadTwiceAtDifferentDepths(t *testing.T) {
	// The memoised fragment depth is relative to each spread.
	q := `
		{ author(id: "1") { ...Name books { author { ...Name } } } }
		fragment Name on Author { name }`
	expectOK(t, limits.Depth(4), q)
	expectErr(t, limits.Depth(3), q, limits.CodeDepthLimitExceeded,
		"query depth 4 exceeds the limit of 3")
}

func TestDepthInlineFragment(t *testing.T) {
	q := `{ node(id: "1") { id ... on Book { author { books { title } } } } }`
	expectOK(t, limits.Depth(4), q)
	expectErr(t, limits.Depth(3), q, limits.CodeDepthLimitExceeded,
		"query depth 4 exceeds the limit of 3")
}

func TestDepthIntrospectionNotCounted(t *testing.T) {
	expectOK(t, limits.Depth(12), introspection.Query)
	expectOK(t, limits.Depth(1), `{ __type(name: "Book") { fields { type { ofType { ofType { name } } } } } }`)
	expectOK(t, limits.Depth(2), `{ author(id: "1") { __typename } name }`)
	expectErr(t, limits.Depth(1), `{ __schema { types { name } } author(id: "1") { name } }`,
		limits.CodeDepthLimitExceeded, "query depth 2 exceeds the limit of 1")
}

func TestDepthIntrospectionOnlyHasDepthZero(t *testing.T) {
	op := opContext(t, introspection.Query)
	if got := limits.OperationDepth(op.Doc, op.Operation); got != 0 {
		t.Errorf("introspection depth = %d, want 0", got)
	}
}

func TestDepthSelectsNamedOperation(t *testing.T) {
	q := "query Shallow { name }\nquery Deep " + deepQuery(6)
	op := namedOpContext(t, q, "Shallow")
	if err := limits.Depth(1).MutateOperationContext(t.Context(), op); err != nil {
		t.Errorf("Shallow rejected: %v", err)
	}
	op = namedOpContext(t, q, "Deep")
	if err := limits.Depth(5).MutateOperationContext(t.Context(), op); err == nil {
		t.Error("Deep accepted")
	}
}

func TestDepthRecursiveFragmentDoesNotLoop(t *testing.T) {
	// The validator rejects fragment cycles, so build one by hand.
	op := opContext(t, `
		{ author(id: "1") { ...A } }
		fragment A on Author { books { author { name } } }`)
	frag := op.Doc.Fragments.ForName("A")
	inner := frag.SelectionSet[0].(*ast.Field).SelectionSet[0].(*ast.Field)
	inner.SelectionSet = append(inner.SelectionSet, &ast.FragmentSpread{Name: "A", Definition: frag})
	if got := limits.OperationDepth(op.Doc, op.Operation); got != 4 {
		t.Errorf("depth with a fragment cycle = %d, want 4", got)
	}
	if got := limits.OperationAliases(op.Doc, op.Operation); got != 0 {
		t.Errorf("aliases with a fragment cycle = %d, want 0", got)
	}
}

func TestDepthFragmentBombIsFast(t *testing.T) {
	// 40 fragments, each spreading the next twice: 2^40 paths.
	q := `{ author(id: "1") { ...F0 } }`
	for i := 0; i < 40; i++ {
		q += fmt.Sprintf("\nfragment F%d on Author { name ...F%d books { author { ...F%d } } }", i, i+1, i+1)
	}
	q += "\nfragment F40 on Author { name }"
	op := opContext(t, q)
	if got := limits.OperationDepth(op.Doc, op.Operation); got != 82 {
		t.Errorf("depth = %d, want 82", got)
	}
}

func TestDepthValidate(t *testing.T) {
	if err := limits.Depth(-1).Validate(nil); err == nil {
		t.Error("negative limit accepted")
	}
	if err := limits.Depth(0).Validate(nil); err != nil {
		t.Errorf("zero limit rejected: %v", err)
	}
}
