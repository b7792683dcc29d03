package customfields

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/customfield"
)

func TestCheckValue(t *testing.T) {
	fields := map[customfield.Type]*ent.CustomField{}
	for _, typ := range []customfield.Type{customfield.TypeText, customfield.TypeNumber, customfield.TypeBoolean,
		customfield.TypeSelect, customfield.TypeMultiSelect} {
		fields[typ] = &ent.CustomField{Name: "f", Type: typ, Options: []string{"low", "high"}}
	}
	ok := []struct {
		typ       customfield.Type
		raw, want string
	}{
		{customfield.TypeText, `"hello"`, `"hello"`},
		{customfield.TypeText, `"` + strings.Repeat("é", 256) + `"`, `"` + strings.Repeat("é", 256) + `"`},
		{customfield.TypeNumber, ` 12.50 `, `12.50`},
		{customfield.TypeNumber, `-1e308`, `-1e308`},
		{customfield.TypeBoolean, `false`, `false`},
		{customfield.TypeSelect, `[ "low" ]`, `["low"]`},
		{customfield.TypeMultiSelect, `[]`, `[]`},
		{customfield.TypeMultiSelect, `["high", "low"]`, `["high","low"]`},
	}
	for _, tc := range ok {
		got, err := checkValue(fields[tc.typ], json.RawMessage(tc.raw))
		if err != nil || string(got) != tc.want {
			t.Errorf("%s %s = %s, %v; want %s", tc.typ, tc.raw, got, err, tc.want)
		}
	}
	bad := []struct {
		typ       customfield.Type
		raw, says string
	}{
		{customfield.TypeText, `1`, "must be a string of at most 256 characters (text field)"},
		{customfield.TypeText, `"` + strings.Repeat("a", 257) + `"`, "must be a string of at most 256 characters"},
		{customfield.TypeNumber, `"1"`, "must be a number (number field)"},
		{customfield.TypeNumber, `1e400`, "must be a number (number field)"},
		{customfield.TypeBoolean, `"true"`, "must be true or false (boolean field)"},
		{customfield.TypeSelect, `"low"`, "must be a list of the field's options (select field)"},
		{customfield.TypeSelect, `[]`, "must be a list of exactly one of the field's options (select field, got 0)"},
		{customfield.TypeSelect, `["low","high"]`, "must be a list of exactly one of the field's options (select field, got 2)"},
		{customfield.TypeMultiSelect, `["low","medium"]`, "[1] must be one of the field's options"},
		{customfield.TypeMultiSelect, `["low",1]`, "[1] must be one of the field's options"},
		{customfield.TypeMultiSelect, `["low","low"]`, `[1] "low" is listed twice`},
		{customfield.TypeText, `{`, "is not a JSON value"},
		{"date", `"2026-01-02"`, "the field's type date takes no values"},
	}
	for _, tc := range bad {
		f := fields[tc.typ]
		if f == nil {
			f = &ent.CustomField{Name: "f", Type: tc.typ}
		}
		if _, err := checkValue(f, json.RawMessage(tc.raw)); err == nil || !strings.HasPrefix(err.Error(), tc.says) {
			t.Errorf("%s %s: %v, want %q", tc.typ, tc.raw, err, tc.says)
		}
	}
}

func TestCheckValuesOf(t *testing.T) {
	byName := map[string]*ent.CustomField{
		"owner":    {ID: "f1", Name: "owner", Type: customfield.TypeText},
		"priority": {ID: "f2", Name: "priority", Type: customfield.TypeSelect, Options: []string{"low", "high"}},
		"done":     {ID: "f3", Name: "done", Type: customfield.TypeBoolean},
	}
	set, removed, err := checkValuesOf(byName, []Value{
		{Name: "priority", Value: []any{"high"}}, {Name: "owner", Value: "ada"}, {Name: "done", Value: nil},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(set) != 2 || string(set["f1"]) != `"ada"` || string(set["f2"]) != `["high"]` {
		t.Errorf("set = %s", set)
	}
	if strings.Join(removed, ",") != "f3" {
		t.Errorf("removed = %v, want f3", removed)
	}
	// The values are checked in the order of their names: the first failure named is the first name's.
	_, _, err = checkValuesOf(byName, []Value{{Name: "priority", Value: "high"}, {Name: "owner", Value: 1}})
	if !invalidSaying(err, "values.owner: must be a string") {
		t.Errorf("two bad values: %v, want owner's", err)
	}
	_, _, err = checkValuesOf(byName, []Value{{Name: strings.Repeat("x", 60), Value: 1}})
	if !invalidSaying(err, "values."+strings.Repeat("x", 50)+"…: the organization has no custom field of this name") {
		t.Errorf("unknown name: %v", err)
	}
	_, _, err = checkValuesOf(byName, []Value{{Name: "owner", Value: func() {}}})
	if !invalidSaying(err, "values.owner: is not a JSON value") {
		t.Errorf("a value JSON cannot hold: %v", err)
	}
}
