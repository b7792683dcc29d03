package adaptive

import (
	"encoding/json"

	"github.com/expr-lang/expr/types"
)

// noClaims is visitor.claims of a site without a schema.
var noClaims = &claim{kind: kindObject}

// anyClaims is visitor.claims when no schema is known (CheckSyntax): every claim name is
// accepted, and reads anyClaims again.
var anyClaims = &claim{kind: kindObject}

// exprType returns the type the expression checker gives the claim: a boolean is a bool, a string
// a string, a number a float64, an array an array of its items, an object a map of its claims.
func (c *claim) exprType() types.Type {
	switch c.kind {
	case kindBool:
		return types.Bool
	case kindString:
		return types.String
	case kindNumber:
		return types.Float64
	case kindArray:
		return types.Array(c.items.exprType())
	}
	m := make(types.Map, len(c.props))
	for name, sub := range c.props {
		m[name] = sub.exprType()
	}
	return m
}

// value returns v as the claim's type for a run: a value of another type, or none, is the zero
// value (false, "", 0, an empty array, an object of zero values); array elements of another type
// are left out. Claims the schema does not have are dropped.
func (c *claim) value(v any) any {
	switch c.kind {
	case kindBool:
		b, _ := v.(bool)
		return b
	case kindString:
		s, _ := v.(string)
		return s
	case kindNumber:
		return number(v)
	case kindArray:
		return c.items.array(v)
	}
	in, _ := v.(map[string]any)
	out := make(map[string]any, len(c.props))
	for name, sub := range c.props {
		out[name] = sub.value(in[name])
	}
	return out
}

// array returns the elements of v that have the type of c, the items of an array claim.
func (c *claim) array(v any) []any {
	in, _ := v.([]any)
	out := make([]any, 0, len(in))
	for _, e := range in {
		if c.has(e) {
			out = append(out, c.value(e))
		}
	}
	return out
}

// has says whether v is a value of c, a boolean, string or number claim.
func (c *claim) has(v any) bool {
	switch v.(type) {
	case bool:
		return c.kind == kindBool
	case string:
		return c.kind == kindString
	case float64, json.Number, int, int64:
		return c.kind == kindNumber
	}
	return false
}

// number returns v as a float64: decoded JSON holds float64 or json.Number; claims built in Go
// may hold int or int64. Anything else is 0.
func number(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case json.Number:
		f, _ := n.Float64()
		return f
	case int:
		return float64(n)
	case int64:
		return float64(n)
	}
	return 0
}
