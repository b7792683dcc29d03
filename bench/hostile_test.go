package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testenv"
)

// BenchmarkHostileGraphQL sends documents whose validation once cost seconds and gigabytes
// (issue 15) and reports how many static-bytes requests one refusal costs (x-baseline).
func BenchmarkHostileGraphQL(b *testing.B) {
	var fragments strings.Builder
	fragments.WriteString("{ ...F0 }")
	for i := range 24 {
		fmt.Fprintf(&fragments, " fragment F%d on Query { ...F%d ...F%d }", i, i+1, i+1)
	}
	fragments.WriteString(" fragment F24 on Query { viewer { id } }")
	docs := map[string]string{
		"RepeatedField":     "{" + strings.Repeat(" viewer { id }", 3700) + " }",
		"RepeatedTypename":  "{" + strings.Repeat(" __typename", 14000) + " }",
		"DoublingFragments": fragments.String(),
	}
	e := testenv.New(b)
	admin, _ := e.Bootstrap("admin@example.com", "Bench")
	for name, doc := range docs {
		b.Run(name, func(b *testing.B) {
			compare(b, refused(b, e, admin, doc))
		})
	}
}

// refused posts a GraphQL document and fails the benchmark unless the shape limits refuse it.
func refused(b *testing.B, e *testenv.Env, a testenv.Actor, doc string) func() {
	return func() {
		g := e.GraphQL(a, doc, nil)
		if g.Code() != "SHAPE_LIMIT_EXCEEDED" {
			b.Fatalf("not refused by its shape: %+v", g.Errors)
		}
	}
}
