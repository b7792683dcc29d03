package scim

import (
	"fmt"
	"slices"
	"strings"

	filter "github.com/scim2/filter-parser/v2"

	"github.com/binderyhq/bindery/internal/apperr"
)

// maxOperations bounds the operations of one PATCH.
const maxOperations = 1000

// Operation is one operation of a PATCH (RFC 7644 §3.5.2), its path and value validated against
// the resource's schema (elimity-com/scim): op is "add", "replace" or "remove" (lowercased, as
// Entra ID sends "Replace"); a nil path for add and replace means the value is an object of
// attributes.
type Operation struct {
	Op    string
	Path  *filter.Path
	Value any
}

// Apply applies operations in order to a resource's attributes (keyed by the schema's names, the
// extensions' under their schema URI), changing attrs. Returns INVALID (noTarget) for an
// operation without a target, or over maxOperations.
func Apply(attrs map[string]any, ops []Operation) error {
	if len(ops) > maxOperations {
		return apperr.Invalidf("invalidValue: at most %d operations a request (got %d)", maxOperations, len(ops))
	}
	for _, op := range ops {
		if err := apply(attrs, op); err != nil {
			return err
		}
	}
	return nil
}

func apply(attrs map[string]any, op Operation) error {
	if op.Path == nil {
		values, ok := op.Value.(map[string]any)
		if !ok || op.Op == "remove" {
			return apperr.Invalidf("noTarget: a %s without a path takes an object of attributes", op.Op)
		}
		for name, v := range values {
			if sub, ok := v.(map[string]any); ok && strings.HasPrefix(name, "urn:") { // an extension's attributes
				setIn(attrs, name, nil, sub, op.Op)
				continue
			}
			setIn(attrs, name, nil, v, op.Op)
		}
		return nil
	}
	target := attrs
	if uri := op.Path.AttributePath.URI(); uri != "" {
		target = childMap(attrs, uri)
	}
	name := op.Path.AttributePath.AttributeName
	sub := op.Path.AttributePath.SubAttribute
	if op.Path.ValueExpression != nil {
		return applyToElements(target, name, op)
	}
	if op.Op == "remove" {
		return remove(target, name, sub, op.Value)
	}
	setIn(target, name, sub, op.Value, op.Op)
	return nil
}

// setIn adds or replaces the attribute name (its sub-attribute sub when not nil) of target: an add
// to a multi-valued attribute appends, an add of an object merges into it.
func setIn(target map[string]any, name string, sub *string, value any, op string) {
	if sub != nil {
		childMap(target, name)[*sub] = value
		return
	}
	key := keyOf(target, name)
	if op == "add" {
		switch old := target[key].(type) {
		case []any:
			if more, ok := value.([]any); ok {
				target[key] = appendNew(old, more)
				return
			}
		case map[string]any:
			if more, ok := value.(map[string]any); ok {
				for k, v := range more {
					old[k] = v
				}
				return
			}
		}
	}
	target[key] = value
}

// appendNew appends to list the values it does not hold yet.
func appendNew(list, values []any) []any {
	out := slices.Clone(list)
	held := identities(list)
	for _, v := range values {
		if id := identity(v); !held[id] {
			held[id] = true
			out = append(out, v)
		}
	}
	return out
}

// remove removes the attribute name of target (its sub-attribute sub), or, given values (Entra
// ID removes members so), those of its values that have the same "value".
func remove(target map[string]any, name string, sub *string, values any) error {
	key := keyOf(target, name)
	if sub != nil {
		if m, ok := target[key].(map[string]any); ok {
			delete(m, *sub)
		}
		return nil
	}
	drop, isList := values.([]any)
	list, multi := target[key].([]any)
	if !isList || !multi {
		delete(target, key)
		return nil
	}
	dropped := identities(drop)
	target[key] = slices.DeleteFunc(slices.Clone(list), func(o any) bool { return dropped[identity(o)] })
	return nil
}

// applyToElements applies op to the elements of the multi-valued attribute name that match its
// path's filter (emails[type eq "work"].value, members[value eq "…"]). An add or replace that
// matches none adds an element made of the filter's equality and the value, as Entra ID expects
// of emails[type eq "work"].value.
func applyToElements(target map[string]any, name string, op Operation) error {
	key := keyOf(target, name)
	list, _ := target[key].([]any)
	matched := false
	kept := []any{}
	for _, e := range list {
		elem, ok := e.(map[string]any)
		if !ok || !matches(elem, op.Path.ValueExpression) {
			kept = append(kept, e)
			continue
		}
		matched = true
		if op.Op == "remove" && op.Path.SubAttribute == nil {
			continue
		}
		kept = append(kept, updated(elem, op))
	}
	if !matched {
		if op.Op == "remove" {
			return nil // nothing to remove: the state asked for holds
		}
		elem, ok := newElement(op)
		if !ok {
			return apperr.Invalidf("noTarget: no value of %s matches %s", name, op.Path.ValueExpression)
		}
		kept = append(kept, elem)
	}
	target[key] = kept
	return nil
}

// updated is an element matched by op's filter after op.
func updated(elem map[string]any, op Operation) map[string]any {
	out := map[string]any{}
	for k, v := range elem {
		out[k] = v
	}
	sub := op.Path.SubAttribute
	switch {
	case sub != nil && op.Op == "remove":
		delete(out, keyOf(out, *sub))
	case sub != nil:
		out[keyOf(out, *sub)] = op.Value
	default:
		if values, ok := op.Value.(map[string]any); ok {
			for k, v := range values {
				out[k] = v
			}
		}
	}
	return out
}

// newElement is the element an add or replace through a filter `attr eq "literal"` that matches
// nothing makes: that attribute and the value (at the path's sub-attribute). ok is false for any
// other filter.
func newElement(op Operation) (map[string]any, bool) {
	eq, ok := op.Path.ValueExpression.(*filter.AttributeExpression)
	if !ok || eq.Operator != filter.EQ {
		return nil, false
	}
	elem := map[string]any{eq.AttributePath.AttributeName: eq.CompareValue}
	if op.Path.SubAttribute != nil {
		elem[*op.Path.SubAttribute] = op.Value
		return elem, true
	}
	values, ok := op.Value.(map[string]any)
	for k, v := range values {
		elem[k] = v
	}
	return elem, ok
}

// matches reports whether an element of a multi-valued attribute passes a filter: comparisons
// of strings ignore case (the sub-attributes filtered on — type, value, display — are not
// case-exact, but for ids, which never differ by case alone).
func matches(elem map[string]any, e filter.Expression) bool {
	switch e := e.(type) {
	case *filter.AttributeExpression:
		v, present := elem[keyOf(elem, e.AttributePath.AttributeName)]
		return compare(v, present, e.Operator, e.CompareValue)
	case *filter.LogicalExpression:
		if e.Operator == filter.AND {
			return matches(elem, e.Left) && matches(elem, e.Right)
		}
		return matches(elem, e.Left) || matches(elem, e.Right)
	case *filter.NotExpression:
		return !matches(elem, e.Expression)
	}
	return false
}

// compare applies a filter's comparison to a value (present or not).
func compare(v any, present bool, op filter.CompareOperator, ref any) bool {
	if op == filter.PR {
		return present && v != nil
	}
	if !present {
		return op == filter.NE
	}
	a, b := strings.ToLower(fmt.Sprint(v)), strings.ToLower(fmt.Sprint(ref))
	switch op {
	case filter.EQ:
		return a == b
	case filter.NE:
		return a != b
	case filter.CO:
		return strings.Contains(a, b)
	case filter.SW:
		return strings.HasPrefix(a, b)
	case filter.EW:
		return strings.HasSuffix(a, b)
	}
	return false // gt, lt, ge, le: no sub-attribute of a multi-valued one of ours orders
}

// identity is what makes a value of a multi-valued attribute one: an object's "value", else the
// value itself.
func identity(v any) string {
	if m, ok := v.(map[string]any); ok {
		return fmt.Sprint(m["value"])
	}
	return fmt.Sprint(v)
}

// identities is the set of the values' identities.
func identities(values []any) map[string]bool {
	set := make(map[string]bool, len(values))
	for _, v := range values {
		set[identity(v)] = true
	}
	return set
}

// childMap is the object held by target under name (case-insensitive), made when absent.
func childMap(target map[string]any, name string) map[string]any {
	key := keyOf(target, name)
	if m, ok := target[key].(map[string]any); ok {
		return m
	}
	m := map[string]any{}
	target[key] = m
	return m
}

// keyOf is the key of target that names the attribute name: attribute names are
// case-insensitive (RFC 7643 §2.1), so an existing key of another case is the one.
func keyOf(target map[string]any, name string) string {
	for k := range target {
		if strings.EqualFold(k, name) {
			return k
		}
	}
	return name
}
