package limits_test

import (
	"fmt"
	"testing"

	"github.com/binderyhq/bindery/graph/limits"
)

func TestAliasesUnderAtOver(t *testing.T) {
	a := limits.Aliases(2)
	expectOK(t, a, `{ name }`)
	expectOK(t, a, `{ a: name }`)
	expectOK(t, a, `{ a: name b: name }`)
	expectErr(t, a, `{ a: name b: name c: name }`, limits.CodeAliasLimitExceeded,
		"query uses 3 aliases, which exceeds the limit of 2")
}

func TestAliasesNested(t *testing.T) {
	q := `{ x: author(id: "1") { n: name books { t: title } } }`
	expectOK(t, limits.Aliases(3), q)
	expectErr(t, limits.Aliases(2), q, limits.CodeAliasLimitExceeded,
		"query uses 3 aliases, which exceeds the limit of 2")
}

func TestAliasesSameAsNameNotCounted(t *testing.T) {
	expectOK(t, limits.Aliases(0), `{ name: name author(id: "1") { books: books { title } } }`)
}

func TestAliasesInFragmentsCountPerSpread(t *testing.T) {
	// Two aliases in F, spread twice, plus one in the operation: 5.
	q := `
		{ a: author(id: "1") { ...F books { author { ...F } } } }
		fragment F on Author { n1: name n2: name }`
	expectOK(t, limits.Aliases(5), q)
	expectErr(t, limits.Aliases(4), q, limits.CodeAliasLimitExceeded,
		"query uses 5 aliases, which exceeds the limit of 4")
}

func TestAliasesInNestedAndInlineFragments(t *testing.T) {
	q := `
		{ node(id: "1") { ... on Book { t: title author { ...A } } } }
		fragment A on Author { ...B }
		fragment B on Author { n: name }`
	expectOK(t, limits.Aliases(2), q)
	expectErr(t, limits.Aliases(1), q, limits.CodeAliasLimitExceeded,
		"query uses 2 aliases, which exceeds the limit of 1")
}

func TestAliasesUnusedFragmentNotCounted(t *testing.T) {
	q := `
		query Q { name }
		query R { ...F }
		fragment F on Query { a: name b: name }`
	if err := limits.Aliases(0).MutateOperationContext(t.Context(), namedOpContext(t, q, "Q")); err != nil {
		t.Errorf("Q rejected: %v", err)
	}
	if err := limits.Aliases(1).MutateOperationContext(t.Context(), namedOpContext(t, q, "R")); err == nil {
		t.Error("R accepted")
	}
}

func TestAliasesFragmentBombSaturates(t *testing.T) {
	// 70 fragments, each spreading the next twice: 2^70 aliases overflow int.
	q := `{ ...F0 }`
	for i := 0; i < 70; i++ {
		q += fmt.Sprintf("\nfragment F%d on Query { ...F%d ...F%d }", i, i+1, i+1)
	}
	q += "\nfragment F70 on Query { a: name }"
	op := opContext(t, q)
	if got := limits.OperationAliases(op.Doc, op.Operation); got != int(^uint(0)>>1) {
		t.Errorf("aliases = %d, want math.MaxInt", got)
	}
}

func TestAliasesValidate(t *testing.T) {
	if err := limits.Aliases(-1).Validate(nil); err == nil {
		t.Error("negative limit accepted")
	}
}
