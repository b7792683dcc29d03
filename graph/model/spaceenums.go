package model

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent/space"
)

// The GraphQL enums of spaces write their values in upper case with "_" for "-" (SHARE_LINK is
// share-link); any case is read back, as gqlparser matches enum values of variables
// case-insensitively (like Role).

func marshalEnum(s string) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(strings.ToUpper(strings.ReplaceAll(s, "-", "_"))))
	})
}

func unmarshalEnum(v any) string {
	s, _ := v.(string)
	return strings.ToLower(strings.ReplaceAll(s, "_", "-"))
}

// MarshalSpaceVisibility writes a space visibility as its GraphQL enum value.
func MarshalSpaceVisibility(v space.Visibility) graphql.Marshaler { return marshalEnum(string(v)) }

// UnmarshalSpaceVisibility reads a GraphQL enum value into a space visibility.
func UnmarshalSpaceVisibility(v any) (space.Visibility, error) {
	vis := space.Visibility(unmarshalEnum(v))
	if space.VisibilityValidator(vis) != nil {
		return "", fmt.Errorf("%v is not a space visibility (one of PUBLIC, UNLISTED, SHARE_LINK, VISITOR_AUTH, IN_COLLECTION, PRIVATE)", v)
	}
	return vis, nil
}

// MarshalSpaceEditMode writes a space edit mode as its GraphQL enum value.
func MarshalSpaceEditMode(m space.EditMode) graphql.Marshaler { return marshalEnum(string(m)) }

// UnmarshalSpaceEditMode reads a GraphQL enum value into a space edit mode.
func UnmarshalSpaceEditMode(v any) (space.EditMode, error) {
	m := space.EditMode(unmarshalEnum(v))
	if space.EditModeValidator(m) != nil {
		return "", fmt.Errorf("%v is not a space edit mode (LIVE or LOCKED)", v)
	}
	return m, nil
}
