package limits

import (
	"context"
	"errors"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/99designs/gqlgen/graphql"
)

// DepthLimit is a gqlgen handler extension that rejects operations whose
// selection depth exceeds Max. Create it with Depth.
type DepthLimit struct {
	Max int
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = DepthLimit{}

// Depth returns an extension rejecting operations deeper than limit. A
// top-level field is depth 1, each nested selection set adds one. Fields
// inside fragment spreads and inline fragments count at the depth of the
// spread. Introspection fields (names starting with "__") and everything
// under them are not counted.
func Depth(limit int) DepthLimit {
	return DepthLimit{Max: limit}
}

// ExtensionName implements graphql.HandlerExtension.
func (DepthLimit) ExtensionName() string { return "DepthLimit" }

// Validate implements graphql.HandlerExtension; it rejects a negative Max.
func (d DepthLimit) Validate(graphql.ExecutableSchema) error {
	if d.Max < 0 {
		return errors.New("limits: depth limit can not be negative")
	}
	return nil
}

// MutateOperationContext implements graphql.OperationContextMutator: it
// returns a DEPTH_LIMIT_EXCEEDED error when the operation is too deep.
func (d DepthLimit) MutateOperationContext(_ context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	op := operation(opCtx)
	if op == nil {
		return nil
	}
	depth := OperationDepth(opCtx.Doc, op)
	if depth > d.Max {
		return limitError(CodeDepthLimitExceeded,
			"query depth %d exceeds the limit of %d", depth, d.Max)
	}
	return nil
}

// OperationDepth returns the selection depth of op, resolving fragment
// spreads against doc, as counted by Depth.
func OperationDepth(doc *ast.QueryDocument, op *ast.OperationDefinition) int {
	w := depthWalker{doc: doc, memo: map[string]int{}, visiting: map[string]bool{}}
	return w.selectionSet(op.SelectionSet)
}

// depthWalker measures selection depth. memo holds the depth of fragments
// already measured; visiting holds the fragments on the current path, so a
// recursive fragment ends the walk instead of looping.
type depthWalker struct {
	doc      *ast.QueryDocument
	memo     map[string]int
	visiting map[string]bool
}

// selectionSet returns the depth of the deepest selection in set.
func (w depthWalker) selectionSet(set ast.SelectionSet) int {
	deepest := 0
	for _, sel := range set {
		deepest = max(deepest, w.selection(sel))
	}
	return deepest
}

// selection returns the depth of one selection relative to its parent.
func (w depthWalker) selection(sel ast.Selection) int {
	switch sel := sel.(type) {
	case *ast.Field:
		if strings.HasPrefix(sel.Name, "__") {
			return 0
		}
		return 1 + w.selectionSet(sel.SelectionSet)
	case *ast.InlineFragment:
		return w.selectionSet(sel.SelectionSet)
	case *ast.FragmentSpread:
		return w.spread(sel)
	}
	return 0
}

// spread returns the depth of the fragment a spread refers to.
func (w depthWalker) spread(sel *ast.FragmentSpread) int {
	if d, ok := w.memo[sel.Name]; ok {
		return d
	}
	def := fragment(w.doc, sel)
	if def == nil || w.visiting[sel.Name] {
		return 0
	}
	w.visiting[sel.Name] = true
	d := w.selectionSet(def.SelectionSet)
	delete(w.visiting, sel.Name)
	w.memo[sel.Name] = d
	return d
}
