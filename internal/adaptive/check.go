package adaptive

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/ast"
)

// refused names the kinds of expression a condition may not hold, with why when it is not plain.
var refused = map[string]string{
	"..":      "ranges (..) are not allowed",
	"matches": "matches (regular expressions) is not allowed",
	"??":      "?? is not allowed (a missing claim is already false, \"\", 0 or empty)",
}

// checkNode reports the first part of n a condition may not hold: a name other than
// visitor.claims.<claim>, a claim the schema lacks, a function call, a variable, a range, a
// regular expression, or a string compared with an enum claim that it is not a value of.
func checkNode(n ast.Node, claims *claim) *Error {
	switch n := n.(type) {
	case *ast.NilNode, *ast.BoolNode, *ast.StringNode, *ast.IntegerNode, *ast.FloatNode:
		return nil
	case *ast.IdentifierNode:
		return unknownName(n)
	case *ast.MemberNode:
		_, err := resolve(n, claims)
		return err
	case *ast.ChainNode:
		return checkNode(n.Node, claims)
	case *ast.UnaryNode:
		return checkNode(n.Node, claims)
	case *ast.BinaryNode:
		return checkBinary(n, claims)
	case *ast.ConditionalNode:
		return checkAll(claims, n.Cond, n.Exp1, n.Exp2)
	case *ast.ArrayNode:
		return checkAll(claims, n.Nodes...)
	case *ast.BuiltinNode:
		return at(n, "function %s is not allowed", n.Name)
	case *ast.CallNode:
		return at(n, "function calls are not allowed")
	case *ast.VariableDeclaratorNode:
		return at(n, "variables (let) are not allowed")
	case *ast.SequenceNode:
		return at(n, "a condition is one expression (no ;)")
	case *ast.SliceNode:
		return at(n, "slices are not allowed")
	case *ast.MapNode:
		return at(n, "maps are not allowed")
	}
	return at(n, "this expression is not allowed")
}

// checkAll checks nodes in order.
func checkAll(claims *claim, nodes ...ast.Node) *Error {
	for _, n := range nodes {
		if err := checkNode(n, claims); err != nil {
			return err
		}
	}
	return nil
}

// checkBinary checks an operator and its operands, then a comparison of an enum claim.
func checkBinary(n *ast.BinaryNode, claims *claim) *Error {
	if why, ok := refused[n.Operator]; ok {
		return at(n, "%s", why)
	}
	if err := checkAll(claims, n.Left, n.Right); err != nil {
		return err
	}
	switch n.Operator {
	case "==", "!=":
		if err := checkEnum(n.Left, n.Right, claims); err != nil {
			return err
		}
		return checkEnum(n.Right, n.Left, claims)
	case "in", "not in":
		list, ok := n.Right.(*ast.ArrayNode)
		if !ok {
			return nil
		}
		for _, value := range list.Nodes {
			if err := checkEnum(n.Left, value, claims); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkEnum reports value, a string literal, when side is an enum claim that it is not a value
// of; "" is always allowed, the value of a missing claim.
func checkEnum(side, value ast.Node, claims *claim) *Error {
	s, ok := value.(*ast.StringNode)
	if !ok || s.Value == "" {
		return nil
	}
	m, ok := side.(*ast.MemberNode)
	if !ok {
		return nil
	}
	c, _ := resolve(m, claims)
	if c == nil || c.kind != kindString || c.enum == nil || slices.Contains(c.enum, s.Value) {
		return nil
	}
	return at(s, "%q is not a value of %s (%s)", s.Value, m, quoteAll(c.enum))
}

// checkJoins reports a + that joins strings in n, a type-checked tree: chained, each join would
// copy all the strings before it, a run quadratic in the size of the claims.
func checkJoins(n ast.Node) *Error {
	var j joins
	ast.Walk(&n, &j)
	return j.err
}

// joins is an ast.Visitor that keeps the first + whose result is not a number.
type joins struct {
	err *Error
}

// Visit keeps n if it is the first + whose result is not a number.
func (j *joins) Visit(n *ast.Node) {
	b, ok := (*n).(*ast.BinaryNode)
	if !ok || b.Operator != "+" || j.err != nil {
		return
	}
	if t := b.Type(); t == nil || (t.Kind() != reflect.Int && t.Kind() != reflect.Float64) {
		j.err = at(b, "+ adds numbers only: joining strings is not allowed")
	}
}

// resolve returns the claim that m reads: visitor.claims, then claims by name. It reports a name
// other than visitor.claims, a claim the schema lacks, and an index or computed name.
func resolve(m *ast.MemberNode, claims *claim) (*claim, *Error) {
	names, err := memberNames(m)
	if err != nil {
		return nil, err
	}
	if names[0].Value != "claims" {
		return nil, at(names[0], "unknown name visitor.%s; a condition reads visitor.claims.<name>", names[0].Value)
	}
	c, path := claims, "visitor.claims"
	for _, name := range names[1:] {
		path += "." + name.Value
		if c == anyClaims {
			continue
		}
		if c = c.props[name.Value]; c == nil {
			return nil, at(name, "unknown claim %s", path)
		}
	}
	return c, nil
}

// memberNames returns the names m reads after `visitor`, outermost first.
func memberNames(m *ast.MemberNode) ([]*ast.StringNode, *Error) {
	var names []*ast.StringNode
	var n ast.Node = m
	for {
		switch x := n.(type) {
		case *ast.MemberNode:
			name, ok := x.Property.(*ast.StringNode)
			if !ok {
				return nil, at(x.Property, "only claims can be read (visitor.claims.<name>), not an index")
			}
			names = append(names, name)
			n = x.Node
		case *ast.IdentifierNode:
			if x.Value != "visitor" {
				return nil, unknownName(x)
			}
			slices.Reverse(names)
			return names, nil
		default:
			return nil, at(x, "only claims can be read (visitor.claims.<name>)")
		}
	}
}

// unknownName reports a name standing alone: only visitor.claims.<name> is known.
func unknownName(n *ast.IdentifierNode) *Error {
	if n.Value == "visitor" {
		return at(n, "visitor is not a value; a condition reads visitor.claims.<name>")
	}
	return at(n, "unknown name %s; a condition reads visitor.claims.<name>", n.Value)
}

// at returns an *Error at the column where n starts.
func at(n ast.Node, format string, args ...any) *Error {
	return conditionError(n.Location().From+1, format, args...)
}

// quoteAll lists enum values for an error: the first ten, quoted.
func quoteAll(values []string) string {
	const shown = 10
	quoted := make([]string, 0, shown+1)
	for i, v := range values {
		if i == shown {
			quoted = append(quoted, "…")
			break
		}
		quoted = append(quoted, strconv.Quote(v))
	}
	return "one of " + strings.Join(quoted, ", ")
}
