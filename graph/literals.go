package graph

import (
	"context"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/text"
)

// textLiterals refuses an operation whose document spells a string that cannot be stored as text
// (text.Check): GraphQL's own escapes ("\u0000", "\u{0}") make a NUL that the JSON body around
// the document does not show. Variables are JSON, checked with the body (rest's limitBody).
type textLiterals struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = textLiterals{}

// ExtensionName implements graphql.HandlerExtension.
func (textLiterals) ExtensionName() string { return "TextLiterals" }

// Validate implements graphql.HandlerExtension.
func (textLiterals) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator: a BAD_REQUEST error naming
// the argument (field.argument.inputField) whose literal holds bad text.
func (textLiterals) MutateOperationContext(_ context.Context, rc *graphql.OperationContext) *gqlerror.Error {
	err := checkDocument(rc.Doc)
	if err == nil {
		return nil
	}
	gerr := gqlerror.Errorf("%s", apperr.As(err).Message)
	errcode.Set(gerr, apperr.Invalid.Code())
	return gerr
}

// checkDocument returns the first literal of doc that text.Check refuses, as its error.
func checkDocument(doc *ast.QueryDocument) error {
	for _, op := range doc.Operations {
		for _, v := range op.VariableDefinitions {
			if err := checkLiteral("$"+v.Variable, v.DefaultValue); err != nil {
				return err
			}
		}
		if err := checkDirectives(op.Directives); err != nil {
			return err
		}
		if err := checkSelections(op.SelectionSet); err != nil {
			return err
		}
	}
	for _, f := range doc.Fragments {
		if err := checkSelections(f.SelectionSet); err != nil {
			return err
		}
	}
	return nil
}

func checkSelections(set ast.SelectionSet) error {
	for _, sel := range set {
		var err error
		switch sel := sel.(type) {
		case *ast.Field:
			if err = checkArguments(sel.Name, sel.Arguments); err == nil {
				err = checkSelections(sel.SelectionSet)
			}
			if err == nil {
				err = checkDirectives(sel.Directives)
			}
		case *ast.InlineFragment:
			if err = checkDirectives(sel.Directives); err == nil {
				err = checkSelections(sel.SelectionSet)
			}
		case *ast.FragmentSpread:
			err = checkDirectives(sel.Directives)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func checkDirectives(ds ast.DirectiveList) error {
	for _, d := range ds {
		if err := checkArguments("@"+d.Name, d.Arguments); err != nil {
			return err
		}
	}
	return nil
}

func checkArguments(owner string, args ast.ArgumentList) error {
	for _, a := range args {
		if err := checkLiteral(owner+"."+a.Name, a.Value); err != nil {
			return err
		}
	}
	return nil
}

// checkLiteral checks the strings of a literal value, naming each by its path under name.
func checkLiteral(name string, v *ast.Value) error {
	if v == nil {
		return nil
	}
	switch v.Kind {
	case ast.StringValue, ast.BlockValue:
		return text.Check(name, v.Raw)
	case ast.ListValue:
		for i, c := range v.Children {
			if err := checkLiteral(name+"["+strconv.Itoa(i)+"]", c.Value); err != nil {
				return err
			}
		}
	case ast.ObjectValue:
		for _, c := range v.Children {
			if err := checkLiteral(name+"."+c.Name, c.Value); err != nil {
				return err
			}
		}
	}
	return nil
}
