package sitecustom

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// check validates one value at path p and returns it as stored: objects keep only the fields
// they know. It returns an *Error naming p (or a path below it) when the value is not valid.
type check func(p string, v any) (any, error)

// Error is a setting that is not valid: the JSON path of the field and what is wrong with it.
type Error struct {
	Path    string
	Message string
}

func (e *Error) Error() string { return e.Path + ": " + e.Message }

func errorf(p, format string, args ...any) error {
	if p == "" {
		p = "request body"
	}
	return &Error{Path: p, Message: fmt.Sprintf(format, args...)}
}

// at is the path of field name under p.
func at(p, name string) string {
	if p == "" {
		return name
	}
	return p + "." + name
}

// kind names the JSON type of v, for messages.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, json.Number, int, int64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// text accepts a string of min..max characters (Unicode code points), valid UTF-8 without NUL.
func text(min, max int) check {
	return func(p string, v any) (any, error) {
		s, ok := v.(string)
		if !ok {
			return nil, errorf(p, "must be a string (got %s)", kind(v))
		}
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return nil, errorf(p, "must be valid UTF-8 text without NUL characters")
		}
		switch n := utf8.RuneCountInString(s); {
		case n < min:
			return nil, errorf(p, "must be at least %d characters (got %d)", min, n)
		case n > max:
			return nil, errorf(p, "must be at most %d characters (got %d)", max, n)
		}
		return s, nil
	}
}

// enum accepts one of values.
func enum(values ...string) check {
	return func(p string, v any) (any, error) {
		s, ok := v.(string)
		if !ok || !slices.Contains(values, s) {
			return nil, errorf(p, "must be one of %s (got %s)", strings.Join(values, ", "), shown(v))
		}
		return s, nil
	}
}

// shown is v for a message: a short quoted string, or its JSON type.
func shown(v any) string {
	if s, ok := v.(string); ok {
		if utf8.RuneCountInString(s) > 40 {
			s = string([]rune(s)[:40]) + "…"
		}
		return fmt.Sprintf("%q", s)
	}
	return kind(v)
}

func boolean(p string, v any) (any, error) {
	if _, ok := v.(bool); !ok {
		return nil, errorf(p, "must be a boolean (got %s)", kind(v))
	}
	return v, nil
}

// integer accepts a whole number min..max.
func integer(min, max int) check {
	return func(p string, v any) (any, error) {
		var f float64
		switch n := v.(type) {
		case float64:
			f = n
		case int:
			f = float64(n)
		case int64:
			f = float64(n)
		case json.Number:
			var err error
			if f, err = n.Float64(); err != nil {
				return nil, errorf(p, "must be a number")
			}
		default:
			return nil, errorf(p, "must be a number (got %s)", kind(v))
		}
		if f != math.Trunc(f) || f < float64(min) || f > float64(max) {
			return nil, errorf(p, "must be a whole number from %d to %d", min, max)
		}
		return int(f), nil
	}
}

var colorPattern = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}){1,2}$`)

// color accepts a CSS hex color, #rgb or #rrggbb.
func color(p string, v any) (any, error) {
	s, ok := v.(string)
	if !ok || !colorPattern.MatchString(s) {
		return nil, errorf(p, "must be a color #rrggbb or #rgb (got %s)", shown(v))
	}
	return s, nil
}

// maxURL bounds every URL (the reference's URL schema).
const maxURL = 2048

// absoluteURL accepts an absolute http or https URL of at most 2048 characters: a published page
// links to it or loads it, so no other scheme (javascript:, data:) gets through.
func absoluteURL(p string, v any) (any, error) {
	if _, err := text(1, maxURL)(p, v); err != nil {
		return nil, err
	}
	u, err := url.Parse(v.(string))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errorf(p, "must be an absolute http or https URL")
	}
	return v, nil
}

// field is a member of an object: its check, and whether it must be there.
type field struct {
	check    check
	required bool
}

func req(c check) field { return field{c, true} }
func opt(c check) field { return field{c, false} }

// object accepts an object with the given fields; fields it does not know are dropped.
func object(fields map[string]field) check {
	return func(p string, v any) (any, error) {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, errorf(p, "must be an object (got %s)", kind(v))
		}
		out := make(map[string]any, len(fields))
		for _, name := range sortedKeys(fields) {
			f := fields[name]
			val, present := m[name]
			if !present {
				if f.required {
					return nil, errorf(at(p, name), "is required")
				}
				continue
			}
			checked, err := f.check(at(p, name), val)
			if err != nil {
				return nil, err
			}
			out[name] = checked
		}
		return out, nil
	}
}

// nullable accepts null (kept as null) or what c accepts.
func nullable(c check) check {
	return func(p string, v any) (any, error) {
		if v == nil {
			return nil, nil
		}
		return c(p, v)
	}
}

// listOf accepts an array of min..max items that c accepts.
func listOf(c check, min, max int) check {
	return func(p string, v any) (any, error) {
		items, ok := v.([]any)
		if !ok {
			return nil, errorf(p, "must be an array (got %s)", kind(v))
		}
		if len(items) < min || len(items) > max {
			return nil, errorf(p, "must have %d to %d items (got %d)", min, max, len(items))
		}
		out := make([]any, len(items))
		for i, it := range items {
			var err error
			if out[i], err = c(fmt.Sprintf("%s[%d]", p, i), it); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
}

// languages are the locales of localized strings (the reference's TranslationLanguage).
var languages = []string{"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko",
	"ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he",
	"uk", "sk", "bg", "hr", "lt", "lv", "et", "sl"}

// localized accepts an object of texts of at most max characters keyed by language.
func localized(max int) check {
	value := text(0, max)
	return func(p string, v any) (any, error) {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, errorf(p, "must be an object of texts by language (got %s)", kind(v))
		}
		out := make(map[string]any, len(m))
		for _, lang := range sortedKeys(m) {
			if !slices.Contains(languages, lang) {
				return nil, errorf(at(p, lang), "is not a language of %s", strings.Join(languages, ", "))
			}
			s, err := value(at(p, lang), m[lang])
			if err != nil {
				return nil, err
			}
			out[lang] = s
		}
		return out, nil
	}
}

// variants accepts an object whose variant is chosen by pick from its fields: a variant's check
// or an error naming what the object lacks.
func variants(pick func(m map[string]any) (check, string)) check {
	return func(p string, v any) (any, error) {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, errorf(p, "must be an object (got %s)", kind(v))
		}
		c, problem := pick(m)
		if c == nil {
			return nil, errorf(p, "%s", problem)
		}
		return c(p, m)
	}
}

// stringOr accepts a string that s accepts, or an object that o accepts.
func stringOr(s, o check) check {
	return func(p string, v any) (any, error) {
		if _, ok := v.(string); ok {
			return s(p, v)
		}
		if _, ok := v.(map[string]any); ok {
			return o(p, v)
		}
		return nil, errorf(p, "must be a string or an object (got %s)", kind(v))
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
