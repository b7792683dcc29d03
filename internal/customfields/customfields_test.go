package customfields

import (
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/internal/apperr"
)

func TestCheckName(t *testing.T) {
	for _, name := range []string{"owner", "team_lead", "tier-2", strings.Repeat("a", 50)} {
		if err := checkName(name); err != nil {
			t.Errorf("checkName(%q) = %v", name, err)
		}
	}
	for name, says := range map[string]string{
		"":                      "name: must not be empty",
		strings.Repeat("a", 51): "name: must be at most 50 characters",
		"Owner":                 "name: must contain only a-z, 0-9, _ and -",
		"team lead":             "name: must contain only a-z, 0-9, _ and -",
		"prénom":                "name: must contain only a-z, 0-9, _ and -",
	} {
		if err := checkName(name); !invalidSaying(err, says) {
			t.Errorf("checkName(%q) = %v, want INVALID %q", name, err, says)
		}
	}
}

func TestOptionalText(t *testing.T) {
	text := func(s string) *string { return &s }
	for _, tc := range []struct {
		in   *string
		want *string
	}{
		{nil, nil},
		{text("   "), nil},
		{text(""), nil},
		{text("  Owner "), text("Owner")},
		{text(strings.Repeat("é", 10)), text(strings.Repeat("é", 10))},
	} {
		got, err := optionalText("title", tc.in, 10)
		if err != nil || (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("optionalText(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	if _, err := optionalText("title", text(strings.Repeat("é", 11)), 10); !invalidSaying(err, "title: must be at most 10 characters") {
		t.Errorf("over the bound: %v", err)
	}
}

func TestCheckOptions(t *testing.T) {
	got, err := checkOptions(customfield.TypeSelect, []string{" low ", "high"})
	if err != nil || strings.Join(got, "|") != "low|high" {
		t.Fatalf("select options = %q, %v", got, err)
	}
	got, err = checkOptions(customfield.TypeText, nil)
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("text field without options = %#v, %v; want an empty list", got, err)
	}
	tooMany := make([]string, 51)
	for i := range tooMany {
		tooMany[i] = strings.Repeat("x", i+1)
	}
	for name, tc := range map[string]struct {
		typ     customfield.Type
		options []string
		says    string
	}{
		"OptionsOnText":  {customfield.TypeText, []string{"a"}, "options: only select and multi-select fields have options (this field is text)"},
		"EmptyOnText":    {customfield.TypeNumber, []string{}, "options: only select and multi-select fields have options"},
		"None":           {customfield.TypeSelect, []string{}, "options: must have 1 to 50 entries (got 0)"},
		"TooMany":        {customfield.TypeMultiSelect, tooMany, "options: must have 1 to 50 entries (got 51)"},
		"Blank":          {customfield.TypeSelect, []string{"a", "  "}, "options[1]: must not be empty"},
		"TooLong":        {customfield.TypeSelect, []string{strings.Repeat("a", 101)}, "options[0]: must be at most 100 characters"},
		"RepeatOnceTrim": {customfield.TypeSelect, []string{"a", " a"}, `options[1]: "a" is listed twice`},
		"RepeatVerbatim": {customfield.TypeMultiSelect, []string{"a", "b", "a"}, `options[2]: "a" is listed twice`},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := checkOptions(tc.typ, tc.options); !invalidSaying(err, tc.says) {
				t.Fatalf("checkOptions = %v, want INVALID %q", err, tc.says)
			}
		})
	}
}

func invalidSaying(err error, says string) bool {
	e := apperr.As(err)
	return e != nil && e.Kind == apperr.Invalid && strings.HasPrefix(e.Message, says)
}
