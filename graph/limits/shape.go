package limits

import (
	"context"
	"errors"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
)

// CodeShapeLimitExceeded is the extensions.code of a document refused before validation.
const CodeShapeLimitExceeded = "SHAPE_LIMIT_EXCEEDED"

// Shape bounds what a query document may hold, counted before it is validated: validation's
// overlapping-fields rule is quadratic in the fields of a selection set (graphql-js shipped the
// same hole as CVE-2023-26144), so a few kilobytes of repeated fields, or fragments spreading each
// other, cost seconds and gigabytes there. Counting is linear in the document's tokens: each
// fragment is counted once, however often it is spread.
type Shape struct {
	FieldsPerSet int // selections (fields, spreads, inline fragments) of one selection set
	Fields       int // fields of the whole document with every spread replaced by its fragment
	Directives   int // directives written in the document
	Spreads      int // fragment spreads written in the document
	Variables    int // variables ($name) written in the document, defined or used
	Values       int // tokens inside parentheses (arguments, variable definitions): lists and objects parse into a node a token
	NameLength   int // bytes of the longest name (validation's suggestions cost its square)
}

// ShapeLimit is a gqlgen handler extension that reads each new document's tokens and refuses it,
// before gqlgen parses and validates it, when it exceeds a bound of Shape or the token limit. Documents already in
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
	if min(s.FieldsPerSet, s.Fields, s.Directives, s.Spreads, s.Variables, s.Values, s.NameLength) < 1 {
		return errors.New("limits: shape bounds must be at least 1")
	}
	return nil
}

// MutateOperationParameters implements graphql.OperationParameterMutator: it runs before gqlgen
// parses the document.
func (s ShapeLimit) MutateOperationParameters(ctx context.Context, params *graphql.RawParams) *gqlerror.Error {
	if s.Cache != nil {
		if _, ok := s.Cache.Get(ctx, params.Query); ok {
			return nil
		}
	}
	return s.Scan(params.Query, s.Tokens)
}

// Scan reads a document's tokens once, without building its syntax tree (parsing a 150 KB
// document costs milliseconds and megabytes), and returns the error naming the first bound it
// exceeds, or nil. More than tokens tokens (0: no limit; comments count too, which the parser
// keeps in memory) is refused as gqlgen's parser refuses it. A document that does not lex is
// left to gqlgen's parser, which says why. Each fragment's own fields are counted once; spreads
// are expanded at the end by memoized sums, so the work is linear in the tokens.
func (s Shape) Scan(query string, tokens int) *gqlerror.Error {
	sc := shapeScan{shape: s, fragments: map[string]*definition{}}
	lex := lexer.New(&ast.Source{Input: query})
	for n := 0; ; n++ {
		tok, err := lex.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			break
		}
		if tokens > 0 && n >= tokens {
			gerr := gqlerror.Errorf("exceeded token limit of %d", tokens)
			errcode.Set(gerr, errcode.ParseFailed)
			return gerr
		}
		if err := sc.read(tok); err != nil {
			return err
		}
	}
	return sc.expand()
}

// definition is what an operation or a fragment writes: its fields at every depth, and the
// fragments it spreads (once per spread written).
type definition struct {
	fields  int
	spreads []string
}

// shapeScan follows a document's tokens: the open selection sets with their selections so far
// (sets), the parentheses open (arguments and variable definitions, whose object values use
// braces too), the definition being read and the two tokens before (comments left out).
type shapeScan struct {
	shape               Shape
	operations          []*definition
	fragments           map[string]*definition // by name; definitions sharing a name are one (validation refuses them)
	fragmentNames       []string               // in the order they are defined
	totals              map[string]int         // expanded fields of each fragment counted, -1 while it is expanded
	current             *definition
	sets                []int
	parens              int
	prev, prev2         lexer.Token
	directives, spreads int
	variables, values   int
}

// read takes the next token (not EOF).
func (sc *shapeScan) read(tok lexer.Token) *gqlerror.Error {
	if tok.Kind == lexer.Comment {
		return nil
	}
	prev, prev2 := sc.prev, sc.prev2
	sc.prev, sc.prev2 = tok, prev
	switch {
	case tok.Kind == lexer.Name && len(tok.Value) > sc.shape.NameLength:
		return limitError(CodeShapeLimitExceeded, "the document has a name longer than the limit of %d bytes", sc.shape.NameLength)
	case tok.Kind == lexer.At:
		sc.directives++
		if sc.directives > sc.shape.Directives {
			return limitError(CodeShapeLimitExceeded, "the document has more directives than the limit of %d", sc.shape.Directives)
		}
	case tok.Kind == lexer.Dollar:
		sc.variables++
		if sc.variables > sc.shape.Variables {
			return limitError(CodeShapeLimitExceeded, "the document has more variables than the limit of %d", sc.shape.Variables)
		}
	case sc.parens > 0 || tok.Kind == lexer.ParenL:
		sc.parens += parenStep(tok.Kind)
		sc.values++
		if sc.values > sc.shape.Values {
			return limitError(CodeShapeLimitExceeded, "the document has more tokens in arguments and variable definitions than the limit of %d", sc.shape.Values)
		}
	case tok.Kind == lexer.BraceL:
		if sc.current == nil { // the query shorthand: { … }
			sc.startOperation()
		}
		sc.sets = append(sc.sets, 0)
	case tok.Kind == lexer.BraceR:
		if len(sc.sets) > 0 {
			sc.sets = sc.sets[:len(sc.sets)-1]
		}
		if len(sc.sets) == 0 {
			sc.current = nil // the definition ends
		}
	case len(sc.sets) == 0:
		sc.readDefinitionStart(tok, prev)
	case tok.Kind == lexer.Spread:
		return sc.selection()
	case tok.Kind == lexer.Name:
		return sc.readName(tok, prev, prev2)
	}
	return nil
}

// parenStep is how a token changes the parentheses open.
func parenStep(kind lexer.Type) int {
	switch kind {
	case lexer.ParenL:
		return 1
	case lexer.ParenR:
		return -1
	}
	return 0
}

// readDefinitionStart reads a token outside every selection set and parenthesis: the keyword
// that starts an operation, or the name after the keyword "fragment".
func (sc *shapeScan) readDefinitionStart(tok, prev lexer.Token) {
	if tok.Kind != lexer.Name || sc.current != nil {
		return
	}
	switch {
	case isName(prev, "fragment"):
		sc.current = sc.fragments[tok.Value]
		if sc.current == nil {
			sc.current = &definition{}
			sc.fragments[tok.Value] = sc.current
			sc.fragmentNames = append(sc.fragmentNames, tok.Value)
		}
	case tok.Value == "query" || tok.Value == "mutation" || tok.Value == "subscription":
		sc.startOperation()
	}
}

func isName(tok lexer.Token, value string) bool { return tok.Kind == lexer.Name && tok.Value == value }

func (sc *shapeScan) startOperation() {
	sc.current = &definition{}
	sc.operations = append(sc.operations, sc.current)
}

// readName reads a name in a selection set: a field's, unless it is an alias's field (after the
// colon), a directive's (after @), a spread's fragment, or the "on" of an inline fragment and
// its type.
func (sc *shapeScan) readName(tok, prev, prev2 lexer.Token) *gqlerror.Error {
	switch {
	case prev.Kind == lexer.Spread && tok.Value == "on":
	case prev.Kind == lexer.Spread:
		sc.spreads++
		if sc.spreads > sc.shape.Spreads {
			return limitError(CodeShapeLimitExceeded, "the document has more fragment spreads than the limit of %d", sc.shape.Spreads)
		}
		sc.current.spreads = append(sc.current.spreads, tok.Value)
	case prev.Kind == lexer.Colon || prev.Kind == lexer.At || isName(prev, "on") && prev2.Kind == lexer.Spread:
	default:
		sc.current.fields++
		return sc.selection()
	}
	return nil
}

// selection counts a selection (a field, a spread or an inline fragment) of the innermost set.
func (sc *shapeScan) selection() *gqlerror.Error {
	top := &sc.sets[len(sc.sets)-1]
	*top++
	if *top > sc.shape.FieldsPerSet {
		return limitError(CodeShapeLimitExceeded, "a selection set has more selections than the limit of %d", sc.shape.FieldsPerSet)
	}
	return nil
}

// expand checks the fields of every operation and fragment with their spreads expanded: each
// fragment's total is computed once and memoized (totals), so fragments doubling each other cost
// no more than their spreads.
func (sc *shapeScan) expand() *gqlerror.Error {
	sc.totals = make(map[string]int, len(sc.fragments))
	for _, d := range sc.operations {
		if _, err := sc.total(d); err != nil {
			return err
		}
	}
	for _, name := range sc.fragmentNames {
		if _, err := sc.fragmentTotal(name); err != nil {
			return err
		}
	}
	return nil
}

// total is the fields of d with its spreads expanded, saturating just past the bound.
func (sc *shapeScan) total(d *definition) (int, *gqlerror.Error) {
	n := d.fields
	for _, name := range d.spreads {
		t, err := sc.fragmentTotal(name)
		if err != nil {
			return 0, err
		}
		n = min(satAdd(n, t), sc.shape.Fields+1)
	}
	if n > sc.shape.Fields {
		return 0, limitError(CodeShapeLimitExceeded,
			"the document has more fields than the limit of %d once its fragments are expanded", sc.shape.Fields)
	}
	return n, nil
}

// fragmentTotal is the expanded fields of the fragment named, computed the first time only. An
// unknown fragment counts nothing (validation reports it); one that spreads itself, however
// indirectly, is refused here, since expanding it would never end.
func (sc *shapeScan) fragmentTotal(name string) (int, *gqlerror.Error) {
	if t, seen := sc.totals[name]; seen {
		if t < 0 {
			return 0, limitError(CodeShapeLimitExceeded, "fragment %q spreads itself", name)
		}
		return t, nil
	}
	d := sc.fragments[name]
	if d == nil {
		return 0, nil
	}
	sc.totals[name] = -1 // being expanded
	t, err := sc.total(d)
	if err != nil {
		return 0, err
	}
	sc.totals[name] = t
	return t, nil
}
