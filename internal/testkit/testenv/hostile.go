package testenv

import (
	"fmt"
	"strings"
)

// HostileDocument is a GraphQL document built to cost the server time or memory before it is
// refused (issue 15), the extensions.code of its refusal and words of its message.
type HostileDocument struct {
	Name, Query, Code, Says string
}

// HostileGraphQL returns the documents of issue 15's table and others like them: each must be
// refused in a few milliseconds without growing the server's memory, by a message that names
// the bound. The rest tests send them; bench measures their refusal.
func HostileGraphQL() []HostileDocument {
	const shape, limit = "SHAPE_LIMIT_EXCEEDED", "limit of"
	const parse, invalid = "GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED"
	return []HostileDocument{
		{"RepeatedField", "{" + strings.Repeat(" viewer { id }", 3700) + " }", shape, limit},
		{"RepeatedTypename", "{" + strings.Repeat(" __typename", 14000) + " }", shape, limit},
		{"AliasedFields", repeated("{ ", 1000, func(i int) string { return fmt.Sprintf("s%d: viewer { id } ", i) }, "}"), shape, limit},
		{"DistinctArguments", repeated("{ organizations(first: 1) { edges { node { ", 1000, func(i int) string {
			return fmt.Sprintf("s%d: spaces(first: %d) { totalCount } ", i, i)
		}, "} } } }"), shape, limit},
		{"DoublingFragments", repeated("{ ...F0 }", 24, func(i int) string {
			return fmt.Sprintf(" fragment F%d on Query { ...F%d ...F%d }", i, i+1, i+1)
		}, " fragment F24 on Query { viewer { id } }"), shape, limit},
		{"FragmentCycle", "{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }", shape, "spreads itself"},
		{"ManyDirectives", "{ viewer" + strings.Repeat(" @include(if: true)", 100) + " { id } }", shape, limit},
		{"ManySpreads", "{ ...V" + strings.Repeat(" ...V", 600) + " } fragment V on Query { viewer { id } }", shape, limit},
		{"WideNestedSelection", "{ viewer { " + strings.Repeat("id ", 500) + "} }", shape, limit},
		{"DeepNesting", strings.Repeat("{ a ", 3000) + strings.Repeat("}", 3000), shape, limit},
		{"ManyComments", "{ viewer { id } }" + strings.Repeat("\n#", 20_000), parse, "token limit"},
		{"LongList", "{ viewer(x: [" + strings.Repeat("1 ", 14_900) + "]) { id } }", shape, limit},
		{"HugeString", `{ viewer(x: "` + strings.Repeat("x", 900_000) + `") { id } }`, invalid, "Unknown argument"},
		{"LongName", "{ " + strings.Repeat("a", 900_000) + " }", shape, limit},
		{"ManyVariables", repeated("query Q(", 3000, func(i int) string { return fmt.Sprintf("$v%d: Int ", i) }, ") { viewer { id } }"),
			shape, limit},
		{"ManyOperations", repeated("", 1500, func(i int) string { return fmt.Sprintf("query Q%d { __typename } ", i) }, ""),
			invalid, "operation"},
	}
}

// repeated is head, part(0)…part(n-1), then tail.
func repeated(head string, n int, part func(i int) string, tail string) string {
	var b strings.Builder
	b.WriteString(head)
	for i := range n {
		b.WriteString(part(i))
	}
	b.WriteString(tail)
	return b.String()
}
