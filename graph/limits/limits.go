// Package limits provides gqlgen handler extensions that bound what one GraphQL operation may
// cost, plus a helper for connection complexity. They complement gqlgen's own
// extension.FixedComplexityLimit and handler.Server.SetParserTokenLimit.
//
// ShapeLimit runs first, before gqlgen parses and validates a new document: it counts, from the
// document's tokens, selections, expanded fields, directives, spreads, variables, argument tokens
// and name lengths (SHAPE_LIMIT_EXCEEDED), and tokens, since parsing costs memory per token and
// validation is quadratic in the fields of a selection set. Depth and alias limits run in
// MutateOperationContext, after validation and before anything is executed
// (DEPTH_LIMIT_EXCEEDED, ALIAS_LIMIT_EXCEEDED). A rejected operation gets a response with a single
// error and no data. DocumentCache bounds the validated documents kept, in count and bytes.
//
// The walks are static: @skip and @include are not evaluated, so a field that
// would be skipped still counts. Fragment results are memoised, so documents
// that spread the same fragment many times cost linear time to check.
package limits

import (
	"math"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
)

// Error codes set in extensions.code of a rejected operation's error.
const (
	CodeDepthLimitExceeded = "DEPTH_LIMIT_EXCEEDED"
	CodeAliasLimitExceeded = "ALIAS_LIMIT_EXCEEDED"
)

// DefaultConnectionFirst is the page size ConnectionComplexity assumes when
// the client gives no first argument.
const DefaultConnectionFirst = 100

// ConnectionComplexity returns the complexity of a connection field: first ×
// child, where child is the complexity of the selections under the field.
// A nil first counts as DefaultConnectionFirst and values below 1 count as 1;
// a child below 1 gives 0.
// The product saturates at math.MaxInt so a huge first cannot overflow into a
// small (or negative) complexity. Use it in gqlgen complexity functions:
//
//	c.Query.Books = func(child int, first *int, after *string) int {
//		return limits.ConnectionComplexity(first, child)
//	}
func ConnectionComplexity(first *int, child int) int {
	n := DefaultConnectionFirst
	if first != nil {
		n = max(*first, 1)
	}
	if child <= 0 {
		return 0
	}
	if n > math.MaxInt/child {
		return math.MaxInt
	}
	return n * child
}

// operation returns the operation of opCtx that is about to run.
func operation(opCtx *graphql.OperationContext) *ast.OperationDefinition {
	if opCtx.Operation != nil {
		return opCtx.Operation
	}
	if opCtx.Doc == nil {
		return nil
	}
	return opCtx.Doc.Operations.ForName(opCtx.OperationName)
}

// fragment returns the definition a spread refers to, or nil if unknown.
func fragment(doc *ast.QueryDocument, spread *ast.FragmentSpread) *ast.FragmentDefinition {
	if spread.Definition != nil {
		return spread.Definition
	}
	if doc == nil {
		return nil
	}
	return doc.Fragments.ForName(spread.Name)
}

// limitError builds the GraphQL error returned for an exceeded limit.
func limitError(code, format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	errcode.Set(err, code)
	return err
}

// satAdd adds two non-negative ints, saturating at math.MaxInt.
func satAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
