package rest_test

import (
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestGraphQLShapeLimits sends the hostile documents of issue 15 and others like them: each is
// refused before gqlgen parses and validates it, naming the bound (bench measures how fast).
func TestGraphQLShapeLimits(t *testing.T) {
	e := testenv.New(t)
	admin, _ := e.Bootstrap("ada@example.com", "Acme")
	for _, doc := range testenv.HostileGraphQL() {
		t.Run(doc.Name, func(t *testing.T) {
			g := e.GraphQL(admin, doc.Query, nil)
			gqlExpectError(t, g, doc.Code)
			if !strings.Contains(g.Errors[0].Message, doc.Says) {
				t.Errorf("message %.200q does not say %q", g.Errors[0].Message, doc.Says)
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
