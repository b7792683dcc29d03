package model

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent/customfield"
)

// MarshalCustomFieldType writes a custom field type as its GraphQL enum value (multi-select is
// MULTI_SELECT).
func MarshalCustomFieldType(t customfield.Type) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(strings.ToUpper(strings.ReplaceAll(string(t), "-", "_"))))
	})
}

// UnmarshalCustomFieldType reads a GraphQL enum value into a custom field type. Any case is
// accepted, as gqlparser matches enum values of variables case-insensitively (like Role).
func UnmarshalCustomFieldType(v any) (customfield.Type, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("custom field type must be a string")
	}
	t := customfield.Type(strings.ToLower(strings.ReplaceAll(s, "_", "-")))
	if customfield.TypeValidator(t) != nil {
		return "", fmt.Errorf("%q is not a custom field type (one of TEXT, NUMBER, BOOLEAN, SELECT, MULTI_SELECT)", s)
	}
	return t, nil
}
