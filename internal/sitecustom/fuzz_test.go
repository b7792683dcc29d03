package sitecustom

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzParse checks, for any JSON object, that Parse either refuses it with an error naming a path
// or returns settings that are a fixed point (parsing them again gives them back) and whose
// effective form parses again to the same effective form; and the same for site space overrides.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{rich, `{}`, `{"styling": {"font": {"id": "x"}}}`, `{"favicon": {"icon": null}}`,
		`{"title": null, "styling": {"icons": null}}`, `{"header": {"links": [{"title": "", "to": null, "links": []}]}}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var raw map[string]any
		if json.Unmarshal(data, &raw) != nil {
			return
		}
		if s, err := Parse(raw); checkRefusal(t, err) {
			again, err := Parse(s)
			if err != nil || !reflect.DeepEqual(again, s) {
				t.Fatalf("Parse is not a fixed point: %v then %v (%v)", s, again, err)
			}
			eff := Effective(s)
			reparsed, err := Parse(eff)
			if err != nil || !reflect.DeepEqual(Effective(reparsed), eff) {
				t.Fatalf("the effective settings %v do not parse back (%v)", eff, err)
			}
		}
		if patch, err := ParseOverride(raw); checkRefusal(t, err) {
			o := ApplyOverride(nil, patch)
			again, err := ParseOverride(o)
			if err != nil || !reflect.DeepEqual(ApplyOverride(nil, again), o) {
				t.Fatalf("an applied override %v does not parse back (%v)", o, err)
			}
			if _, err := Parse(Effective(nil, o)); err != nil {
				t.Fatalf("the effective settings of override %v do not parse: %v", o, err)
			}
		}
	})
}

// checkRefusal reports whether err is nil; any other error must be an *Error naming a path.
func checkRefusal(t *testing.T, err error) bool {
	t.Helper()
	var e *Error
	if err != nil && (!errors.As(err, &e) || e.Path == "" || e.Message == "") {
		t.Fatalf("a refusal without a path: %v", err)
	}
	return err == nil
}
