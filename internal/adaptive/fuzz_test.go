package adaptive

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzParseSchema(f *testing.F) {
	for _, seed := range []string{
		defaultJSON, siteSchema, withClaims(`"a":` + boolClaim), withClaims(`"a":{"type":"x"}`),
		withUnsigned(`"a":{"type":"array","description":"d","items":` + enumClaim + `}`),
		`{"$ref":"file:///etc/passwd"}`, `[]`, `null`, `{"type":"object"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSchemaJSON(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !strings.HasPrefix(e.Path, "jsonSchema") || e.Column != 0 || e.Message == "" {
				t.Fatalf("error %#v, want an *Error at a path under jsonSchema", err)
			}
			return
		}
		out, err := s.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseSchemaJSON(out)
		if err != nil {
			t.Fatalf("the schema as marshalled (%s) is refused: %v", out, err)
		}
		if out2, _ := again.MarshalJSON(); string(out2) != string(out) {
			t.Fatalf("marshalled twice: %s, then %s", out, out2)
		}
		if err := CheckCondition("true", s); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzCheckCondition(f *testing.F) {
	for _, seed := range []string{
		"visitor.claims.isBetaUser", "visitor.claims.unsigned.fromNewsletter && !visitor.claims.isBetaUser",
		`visitor.claims.plan in ["pro", "team"]`, `"admin" in visitor.claims.roles`, "visitor.claims.seats / 0 > 1",
		"1..3 == nil", `all(visitor.claims.roles, # == "a")`, "let x = 1; x > 0", "visitor.claims.org?.partner ?? false", "visitor.claims??false",
		"visitor.claims.name + visitor.claims.name == visitor.claims.name", "(((true)))", "1 % 0 == 0",
	} {
		f.Add(seed)
	}
	s := mustSchema(f, siteSchema)
	visitors := []map[string]any{
		nil,
		{"isBetaUser": true, "plan": "pro", "name": "Ann", "seats": 3.0, "roles": []any{"admin", 1},
			"org": map[string]any{"partner": true}, "unsigned": map[string]any{"fromNewsletter": true}},
		{"isBetaUser": "x", "seats": "y", "roles": "z", "org": []any{}, "unsigned": 1},
	}
	f.Fuzz(func(t *testing.T, condition string) {
		c, err := Compile(condition, s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Path != "condition" || e.Message == "" ||
				e.Column < 0 || e.Column > utf8.RuneCountInString(condition)+1 {
				t.Fatalf("error %#v, want an *Error in the condition", err)
			}
			return
		}
		if n := utf8.RuneCountInString(condition); n < 1 || n > maxConditionLen {
			t.Fatalf("a condition of %d characters is accepted", n)
		}
		for _, claims := range visitors {
			if _, err := c.Eval(claims); err != nil {
				t.Errorf("Eval(%v): %v", claims, err)
			}
		}
	})
}
