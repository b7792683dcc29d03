package generated

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestObjectFieldsWriteAsTheFieldSet: an object is written byte for byte as gqlgen's field set
// writes it — in order, nulls included, an alias seen again left out, a name JSON must escape
// escaped.
func TestObjectFieldsWriteAsTheFieldSet(t *testing.T) {
	for _, c := range []struct {
		name    string
		aliases []string
	}{
		{"Empty", nil},
		{"One", []string{"id"}},
		{"Several", []string{"__typename", "id", "title", "createdBy"}},
		{"AliasAgain", []string{"id", "title", "id", "x_1", "title"}},
		{"NotAName", []string{"id", "a\"b\\c\n", "é", "<&>\u2028\x01"}},
		{"Many", manyAliases(3 * manyFields)},
	} {
		t.Run(c.name, func(t *testing.T) {
			fields := make([]graphql.CollectedField, len(c.aliases))
			for i, a := range c.aliases {
				fields[i] = graphql.CollectedField{Field: &ast.Field{Alias: a, Name: a}}
			}
			set := graphql.NewFieldSet(fields)
			for i := range fields {
				set.Values[i] = graphql.MarshalInt(i)
				if i%3 == 2 {
					set.Values[i] = graphql.Null
				}
			}
			var want, got bytes.Buffer
			set.MarshalGQL(&want)
			objectFields{set, fields}.MarshalGQL(&got)
			if got.String() != want.String() {
				t.Errorf("wrote %s, the field set writes %s", got.String(), want.String())
			}
		})
	}
}

// manyAliases is n aliases, then every tenth of them again.
func manyAliases(n int) []string {
	aliases := make([]string, 0, n+n/10)
	for i := range n {
		aliases = append(aliases, "f"+strconv.Itoa(i))
	}
	for i := range n / 10 {
		aliases = append(aliases, "f"+strconv.Itoa(i*10))
	}
	return aliases
}
