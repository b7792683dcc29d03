package limits

import (
	"context"
	"errors"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/99designs/gqlgen/graphql"
)

// AliasLimit is a gqlgen handler extension that rejects operations using
// more than Max aliases. Create it with Aliases.
type AliasLimit struct {
	Max int
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = AliasLimit{}

// Aliases returns an extension rejecting operations that use more than limit
// aliases in total. Every field whose alias differs from its name counts,
// in the operation and in the fragments it uses; a fragment's aliases count
// once per spread of it.
func Aliases(limit int) AliasLimit {
	return AliasLimit{Max: limit}
}

// ExtensionName implements graphql.HandlerExtension.
func (AliasLimit) ExtensionName() string { return "AliasLimit" }

// Validate implements graphql.HandlerExtension; it rejects a negative Max.
func (a AliasLimit) Validate(graphql.ExecutableSchema) error {
	if a.Max < 0 {
		return errors.New("limits: alias limit can not be negative")
	}
	return nil
}

// MutateOperationContext implements graphql.OperationContextMutator: it
// returns an ALIAS_LIMIT_EXCEEDED error when the operation has too many
// aliases.
func (a AliasLimit) MutateOperationContext(_ context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	op := operation(opCtx)
	if op == nil {
		return nil
	}
	n := OperationAliases(opCtx.Doc, op)
	if n > a.Max {
		return limitError(CodeAliasLimitExceeded,
			"query uses %d aliases, which exceeds the limit of %d", n, a.Max)
	}
	return nil
}

// OperationAliases returns the number of aliases op uses, resolving
// fragment spreads against doc, as counted by Aliases. The count saturates
// at math.MaxInt.
func OperationAliases(doc *ast.QueryDocument, op *ast.OperationDefinition) int {
	w := aliasWalker{doc: doc, memo: map[string]int{}, visiting: map[string]bool{}}
	return w.selectionSet(op.SelectionSet)
}

// aliasWalker counts aliases. memo holds the count of fragments already
// walked; visiting holds the fragments on the current path, so a recursive
// fragment ends the walk instead of looping.
type aliasWalker struct {
	doc      *ast.QueryDocument
	memo     map[string]int
	visiting map[string]bool
}

// selectionSet returns the number of aliases in set and below it.
func (w aliasWalker) selectionSet(set ast.SelectionSet) int {
	n := 0
	for _, sel := range set {
		n = satAdd(n, w.selection(sel))
	}
	return n
}

// selection returns the number of aliases in sel and below it.
func (w aliasWalker) selection(sel ast.Selection) int {
	switch sel := sel.(type) {
	case *ast.Field:
		n := w.selectionSet(sel.SelectionSet)
		if sel.Alias != "" && sel.Alias != sel.Name {
			n = satAdd(n, 1)
		}
		return n
	case *ast.InlineFragment:
		return w.selectionSet(sel.SelectionSet)
	case *ast.FragmentSpread:
		return w.spread(sel)
	}
	return 0
}

// spread returns the number of aliases in the fragment a spread refers to.
func (w aliasWalker) spread(sel *ast.FragmentSpread) int {
	if n, ok := w.memo[sel.Name]; ok {
		return n
	}
	def := fragment(w.doc, sel)
	if def == nil || w.visiting[sel.Name] {
		return 0
	}
	w.visiting[sel.Name] = true
	n := w.selectionSet(def.SelectionSet)
	delete(w.visiting, sel.Name)
	w.memo[sel.Name] = n
	return n
}
