package limits

import (
	"context"
	"errors"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/99designs/gqlgen/graphql"
)

// CodeShapeLimitExceeded is the extensions.code of a document refused before validation.
const CodeShapeLimitExceeded = "SHAPE_LIMIT_EXCEEDED"

// Shape bounds what a query document may hold, counted before it is validated: validation's
// overlapping-fields rule is quadratic in the fields of a selection set (graphql-js shipped the
// same hole as CVE-2023-26144), so a few kilobytes of repeated fields, or fragments spreading each
// other, cost seconds and gigabytes there. Counting is linear in the document: each fragment is
// counted once, however often it is spread.
type Shape struct {
	FieldsPerSet int // selections (fields, spreads, inline fragments) of one selection set
	Fields       int // fields of the whole document with every spread replaced by its fragment
	Directives   int // directives written in the document
	Spreads      int // fragment spreads written in the document
}

// ShapeLimit is a gqlgen handler extension that parses each new document itself and refuses it,
// before gqlgen parses and validates it, when it exceeds a bound of Shape. Documents already in
// the query cache (validated and within bounds) are not counted again.
type ShapeLimit struct {
	Shape
	Tokens int // the parser's token limit, as the server's own parse uses
	Cache  graphql.Cache[*ast.QueryDocument]
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = ShapeLimit{}

// ExtensionName implements graphql.HandlerExtension.
func (ShapeLimit) ExtensionName() string { return "ShapeLimit" }

// Validate implements graphql.HandlerExtension; it rejects bounds below 1.
func (s ShapeLimit) Validate(graphql.ExecutableSchema) error {
	if s.FieldsPerSet < 1 || s.Fields < 1 || s.Directives < 1 || s.Spreads < 1 {
		return errors.New("limits: shape bounds must be at least 1")
	}
	return nil
}

// MutateOperationParameters implements graphql.OperationParameterMutator: it runs before gqlgen
// parses the document. A document that does not parse is left to gqlgen, which says why.
func (s ShapeLimit) MutateOperationParameters(ctx context.Context, params *graphql.RawParams) *gqlerror.Error {
	if s.Cache != nil {
		if _, ok := s.Cache.Get(ctx, params.Query); ok {
			return nil
		}
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: params.Query}, s.Tokens)
	if err != nil {
		return nil
	}
	return s.Check(doc)
}

// Check returns the error naming the first bound doc exceeds, or nil.
func (s Shape) Check(doc *ast.QueryDocument) *gqlerror.Error {
	c := shapeCounter{shape: s, doc: doc, expanded: map[string]int{}}
	for _, op := range doc.Operations {
		c.directives += len(op.Directives)
		if err := c.walk(op.SelectionSet); err != nil {
			return err
		}
	}
	for _, f := range doc.Fragments {
		c.directives += len(f.Directives)
		if _, err := c.fragmentFields(f.Name); err != nil {
			return err
		}
	}
	switch {
	case c.directives > s.Directives:
		return limitError(CodeShapeLimitExceeded, "the document has %d directives, over the limit of %d", c.directives, s.Directives)
	case c.spreads > s.Spreads:
		return limitError(CodeShapeLimitExceeded, "the document has %d fragment spreads, over the limit of %d", c.spreads, s.Spreads)
	}
	return nil
}

// shapeCounter counts a document's selections once each; expanded memoizes each fragment's
// fields with its spreads expanded (-1 while the fragment is being counted, to stop at cycles).
type shapeCounter struct {
	shape               Shape
	doc                 *ast.QueryDocument
	expanded            map[string]int
	directives, spreads int
}

// walk counts an operation's selection set and checks its expanded fields against the bound.
func (c *shapeCounter) walk(set ast.SelectionSet) *gqlerror.Error {
	n, err := c.fields(set)
	if err != nil {
		return err
	}
	return c.checkFields(n)
}

func (c *shapeCounter) checkFields(n int) *gqlerror.Error {
	if n > c.shape.Fields {
		return limitError(CodeShapeLimitExceeded,
			"the document has more fields than the limit of %d once its fragments are expanded", c.shape.Fields)
	}
	return nil
}

// fields returns the fields of set with spreads expanded, saturating just past the bound so
// that fragments doubling each other cannot overflow.
func (c *shapeCounter) fields(set ast.SelectionSet) (int, *gqlerror.Error) {
	if len(set) > c.shape.FieldsPerSet {
		return 0, limitError(CodeShapeLimitExceeded,
			"a selection set has %d selections, over the limit of %d", len(set), c.shape.FieldsPerSet)
	}
	total := 0
	for _, sel := range set {
		var n int
		var err *gqlerror.Error
		switch sel := sel.(type) {
		case *ast.Field:
			c.directives += len(sel.Directives)
			n, err = c.fields(sel.SelectionSet)
			n = satAdd(n, 1)
		case *ast.InlineFragment:
			c.directives += len(sel.Directives)
			n, err = c.fields(sel.SelectionSet)
		case *ast.FragmentSpread:
			c.directives += len(sel.Directives)
			c.spreads++
			n, err = c.fragmentFields(sel.Name)
		}
		if err != nil {
			return 0, err
		}
		total = min(satAdd(total, n), c.shape.Fields+1)
	}
	return total, nil
}

// fragmentFields returns the expanded fields of the fragment named, counting it the first time
// only. An unknown fragment counts nothing (validation reports it); a cycle is refused here,
// since expanding it would never end.
func (c *shapeCounter) fragmentFields(name string) (int, *gqlerror.Error) {
	if n, ok := c.expanded[name]; ok {
		if n < 0 {
			return 0, limitError(CodeShapeLimitExceeded, "fragment %q spreads itself", name)
		}
		return n, nil
	}
	def := c.doc.Fragments.ForName(name)
	if def == nil {
		return 0, nil
	}
	c.expanded[name] = -1
	n, err := c.fields(def.SelectionSet)
	if err != nil {
		return 0, err
	}
	if err := c.checkFields(n); err != nil {
		return 0, err
	}
	c.expanded[name] = n
	return n, nil
}
