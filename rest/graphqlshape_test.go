package rest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testenv"
)

// hostileDocuments are small documents whose validation cost seconds and gigabytes before the
// shape limits (issue 15): each is refused before gqlgen validates it, naming the bound.
func hostileDocuments() map[string]string {
	var spaces strings.Builder
	spaces.WriteString("{ viewer { id } ")
	for i := range 1000 {
		fmt.Fprintf(&spaces, "s%d: viewer { id } ", i)
	}
	spaces.WriteString("}")
	var fragments strings.Builder
	fragments.WriteString("{ ...F0 }")
	for i := range 24 {
		fmt.Fprintf(&fragments, " fragment F%d on Query { ...F%d ...F%d }", i, i+1, i+1)
	}
	fragments.WriteString(" fragment F24 on Query { viewer { id } }")
	return map[string]string{
		"repeated field":        "{" + strings.Repeat(" viewer { id }", 3700) + " }",
		"repeated __typename":   "{" + strings.Repeat(" __typename", 14000) + " }",
		"aliased fields":        spaces.String(),
		"doubling fragments":    fragments.String(),
		"fragment cycle":        "{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }",
		"many directives":       "{ viewer" + strings.Repeat(" @include(if: true)", 100) + " { id } }",
		"many spreads":          "{ ...V" + strings.Repeat(" ...V", 600) + " } fragment V on Query { viewer { id } }",
		"wide nested selection": "{ viewer { " + strings.Repeat("id ", 500) + "} }",
	}
}

func TestGraphQLShapeLimits(t *testing.T) {
	e := testenv.New(t)
	admin, _ := e.Bootstrap("ada@example.com", "Acme")
	for name, doc := range hostileDocuments() {
		t.Run(name, func(t *testing.T) {
			g := e.GraphQL(admin, doc, nil)
			gqlExpectError(t, g, "SHAPE_LIMIT_EXCEEDED")
			if !strings.Contains(g.Errors[0].Message, "limit") && !strings.Contains(g.Errors[0].Message, "spreads itself") {
				t.Errorf("message does not name the bound: %q", g.Errors[0].Message)
			}
		})
	}
	t.Run("OKIntrospection", func(t *testing.T) {
		if g := e.GraphQL(admin, introspectionQuery, nil); len(g.Errors) > 0 {
			t.Fatalf("%+v", g.Errors)
		}
	})
	t.Run("OKFragmentsSpreadOften", func(t *testing.T) {
		doc := "{ viewer { ...U ...U ...U } } fragment U on User { id }"
		if g := e.GraphQL(admin, doc, nil); len(g.Errors) > 0 {
			t.Fatalf("%+v", g.Errors)
		}
	})
}

// introspectionQuery is GraphiQL's: the largest document a legitimate client sends.
const introspectionQuery = `query IntrospectionQuery { __schema { queryType { name } mutationType { name }
  subscriptionType { name } types { ...FullType } directives { name description locations args { ...InputValue } } } }
fragment FullType on __Type { kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue } interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason } possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name
  ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`
