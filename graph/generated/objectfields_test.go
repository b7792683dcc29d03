package generated

import (
	"bytes"
	"io"
	"strconv"
	"sync"
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
			var arena objectArena
			object := arena.next(fields)
			for i := range fields {
				set.Values[i] = graphql.MarshalInt(i)
				if i%3 == 2 {
					set.Values[i] = graphql.Null
				}
				object.set.Values[i] = set.Values[i]
			}
			var want, got bytes.Buffer
			set.MarshalGQL(&want)
			object.MarshalGQL(&got)
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

// TestObjectArenaHandsOutDistinctObjects: objects made by goroutines at once, of any number of
// fields across blocks, each with its own values, none sharing a slot with another.
func TestObjectArenaHandsOutDistinctObjects(t *testing.T) {
	var arena objectArena
	const goroutines, each = 4, 300
	made := make([][]*objectFields, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				fields := make([]graphql.CollectedField, (g+i)%(valuesPerBlock+3)) // some past a block of values
				o := arena.next(fields)
				if len(o.set.Values) != len(fields) || cap(o.set.Values) != len(fields) || o.set.Invalids != 0 {
					t.Errorf("an object of %d fields has %d values (capacity %d), %d invalid", len(fields), len(o.set.Values), cap(o.set.Values), o.set.Invalids)
					return
				}
				for j := range o.set.Values {
					o.set.Values[j] = mark(g*each + i)
				}
				made[g] = append(made[g], o)
			}
		})
	}
	wg.Wait()
	seen := map[*objectFields]bool{}
	for g, objects := range made {
		for i, o := range objects {
			if seen[o] {
				t.Fatal("an object handed out twice")
			}
			seen[o] = true
			for _, v := range o.set.Values {
				if v != mark(g*each+i) {
					t.Fatalf("object %d of goroutine %d: a value another object wrote", i, g)
				}
			}
		}
	}
}

// mark is a value an object's slot holds, comparable to tell whose it is.
type mark int

func (m mark) MarshalGQL(w io.Writer) { io.WriteString(w, strconv.Itoa(int(m))) }
