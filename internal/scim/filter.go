package scim

import (
	"fmt"

	"entgo.io/ent/dialect/sql"
	filter "github.com/scim2/filter-parser/v2"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

// predicateOf turns a list's filter (RFC 7644 §3.4.2.2, parsed and checked against the schema by
// elimity-com/scim) into the predicate of a query: comparisons `eq` of the attributes that
// attribute supports, joined by `and` and `or`; nil matches everything. Returns INVALID
// (invalidFilter) for any other: the providers' lookups (userName, externalId, displayName) are
// equalities, and anything else would be a scan.
func predicateOf[P ~func(*sql.Selector)](f filter.Expression, attribute func(*filter.AttributeExpression, string) (P, bool)) (P, error) {
	switch e := f.(type) {
	case nil:
		return func(*sql.Selector) {}, nil
	case *filter.AttributeExpression:
		value, isString := e.CompareValue.(string)
		if p, ok := attribute(e, value); ok && isString && e.Operator == filter.EQ {
			return p, nil
		}
	case *filter.LogicalExpression:
		left, err := predicateOf(e.Left, attribute)
		if err != nil {
			return nil, err
		}
		right, err := predicateOf(e.Right, attribute)
		if err != nil {
			return nil, err
		}
		if e.Operator == filter.AND {
			return P(sql.AndPredicates(left, right)), nil
		}
		return P(sql.OrPredicates(left, right)), nil
	}
	return nil, apperr.Invalidf("invalidFilter: %s is not supported: filter with attr eq \"value\" (userName, externalId or id of users; displayName, externalId or id of groups), joined by and / or",
		check.Truncate(fmt.Sprint(f), 200))
}
