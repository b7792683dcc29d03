package model

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent/space"
)

// The GraphQL enums of spaces write their values in upper case with "_" for "-" (SHARE_LINK is
// share-link); any case is read back, as gqlparser matches enum values of variables
// case-insensitively (like Role).

// marshalEnum returns the marshaller writing the enum value s. Each value's is made once and
// kept: the values are ent's enum values, a few dozen in all, and a nested query writes hundreds
// (a closure and a buffer each before). Past enumsKeptMax distinct values, which only values that
// are no enum's would reach, the marshaller is made for the call.
func marshalEnum(s string) graphql.Marshaler {
	enums.mu.RLock()
	m, ok := enums.kept[s]
	enums.mu.RUnlock()
	if ok {
		return m
	}
	quoted := appendEnum(make([]byte, 0, len(s)+2), s)
	m = graphql.WriterFunc(func(w io.Writer) { _, _ = w.Write(quoted) })
	enums.mu.Lock()
	if len(enums.kept) < enumsKeptMax {
		enums.kept[s] = m
	}
	enums.mu.Unlock()
	return m
}

// enums are the marshallers marshalEnum made, by enum value.
var enums = struct {
	mu   sync.RWMutex
	kept map[string]graphql.Marshaler
}{kept: map[string]graphql.Marshaler{}}

const enumsKeptMax = 1000

// appendEnum appends the GraphQL name of the enum value s, quoted: byte by byte for the lower-case
// ASCII letters, digits and '-' of ent's enum values (a nested query writes hundreds of them;
// upper-casing, replacing and quoting each as strings cost three allocations), through strconv for
// anything else.
func appendEnum(b []byte, s string) []byte {
	start := len(b)
	b = append(b, '"')
	for i := range len(s) {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z':
			b = append(b, c-'a'+'A')
		case c == '-':
			b = append(b, '_')
		case '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || c == '_':
			b = append(b, c)
		default:
			return strconv.AppendQuote(b[:start], strings.ToUpper(strings.ReplaceAll(s, "-", "_")))
		}
	}
	return append(b, '"')
}

func unmarshalEnum(v any) string {
	s, _ := v.(string)
	return strings.ToLower(strings.ReplaceAll(s, "_", "-"))
}

// unmarshalChecked reads a GraphQL enum value into an ent enum its validator accepts; the error
// names what it is and its values.
func unmarshalChecked[T ~string](v any, valid func(T) error, what string) (T, error) {
	e := T(unmarshalEnum(v))
	if valid(e) != nil {
		return "", fmt.Errorf("%v is not a %s", v, what)
	}
	return e, nil
}

// MarshalSpaceVisibility writes a space visibility as its GraphQL enum value.
func MarshalSpaceVisibility(v space.Visibility) graphql.Marshaler { return marshalEnum(string(v)) }

// UnmarshalSpaceVisibility reads a GraphQL enum value into a space visibility.
func UnmarshalSpaceVisibility(v any) (space.Visibility, error) {
	return unmarshalChecked(v, space.VisibilityValidator,
		"space visibility (one of PUBLIC, UNLISTED, SHARE_LINK, VISITOR_AUTH, IN_COLLECTION, PRIVATE)")
}

// MarshalSpaceEditMode writes a space edit mode as its GraphQL enum value.
func MarshalSpaceEditMode(m space.EditMode) graphql.Marshaler { return marshalEnum(string(m)) }

// UnmarshalSpaceEditMode reads a GraphQL enum value into a space edit mode.
func UnmarshalSpaceEditMode(v any) (space.EditMode, error) {
	return unmarshalChecked(v, space.EditModeValidator, "space edit mode (LIVE or LOCKED)")
}
