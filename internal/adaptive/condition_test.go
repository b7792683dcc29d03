package adaptive

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// siteSchema is a schema with a claim of every kind.
var siteSchema = withClaims(`"isBetaUser":` + boolClaim + `,"plan":` + enumClaim +
	`,"name":{"type":"string","description":"d"},"seats":{"type":"number","description":"d"}` +
	`,"roles":{"type":"array","description":"d","items":{"type":"string","description":"d"}}` +
	`,"org":{"type":"object","description":"d","properties":{"partner":` + boolClaim + `},"additionalProperties":false}` +
	`,"unsigned":{"type":"object","description":"Unsigned claims of the site visitor.","properties":{"fromNewsletter":` +
	boolClaim + `},"additionalProperties":false}`)

func TestCheckCondition(t *testing.T) {
	s := mustSchema(t, siteSchema)
	t.Run("OK", func(t *testing.T) {
		for _, c := range []string{
			"visitor.claims.isBetaUser",
			"visitor.claims.unsigned.fromNewsletter && !visitor.claims.isBetaUser",
			"not visitor.claims.isBetaUser or visitor.claims.org.partner",
			`visitor.claims.plan == "pro"`,
			`"team" != visitor.claims.plan`,
			`visitor.claims.plan in ["pro", "team"]`,
			`visitor.claims.plan not in ["free"]`,
			`visitor.claims.seats >= 10 and visitor.claims.name startsWith "A"`,
			`visitor.claims.name == "anything" || visitor.claims.name contains "x"`,
			`"admin" in visitor.claims.roles`,
			`visitor.claims["isBetaUser"] && visitor.claims?.org?.partner`,
			"visitor.claims.isBetaUser ? visitor.claims.seats * 2 > 1.5 : -visitor.claims.seats < 0",
			"if visitor.claims.isBetaUser { true } else { false }",
			"visitor.claims.seats ** 2 > 4 && visitor.claims.seats / 2 != 1 && visitor.claims.seats + 1 - 1 == visitor.claims.seats",
			"true",
			`"a" + "b" == visitor.claims.name`,
			"1 + 2.5 < visitor.claims.seats + 1",
			"visitor.claims.isBetaUser\n\t&& visitor.claims.org.partner",
			"true" + strings.Repeat(" ", maxConditionLen-4),
			`visitor.claims.name == "` + strings.Repeat("é", maxConditionLen-25) + `"`,
		} {
			if err := CheckCondition(c, s); err != nil {
				t.Errorf("CheckCondition(%q): %v", c, err)
			}
		}
	})
	for _, tc := range []struct {
		name, condition string
		column          int
		message         string
	}{
		{"ErrEmpty", "", 0, "must be 1..1024 characters, not 0"},
		{"ErrTooLong", "true" + strings.Repeat(" ", maxConditionLen-3), 0, "must be 1..1024 characters, not 1025"},
		{"ErrSyntax", "visitor.claims.isBetaUser &&", 28, "syntax error: unexpected token EOF"},
		{"ErrSyntaxStrictEquals", "visitor.claims.isBetaUser === true", 29, `syntax error: unexpected token Operator("=")`},
		{"ErrSyntaxLine2", "visitor.claims.isBetaUser\n&& )", 30, "syntax error: unexpected token Bracket(\")\")"},
		{"ErrUnknownClaim", "visitor.claims.isBeta", 16, "unknown claim visitor.claims.isBeta"},
		{"ErrUnknownClaimLater", "visitor.claims.unsigned.fromNewsletter && !visitor.claims.isBeta", 59, "unknown claim visitor.claims.isBeta"},
		{"ErrUnknownUnsigned", "visitor.claims.unsigned.isBetaUser", 25, "unknown claim visitor.claims.unsigned.isBetaUser"},
		{"ErrFieldOfBoolean", "visitor.claims.isBetaUser.x", 27, "unknown claim visitor.claims.isBetaUser.x"},
		{"ErrUnknownBracket", `visitor.claims["is beta"]`, 16, `unknown claim visitor.claims.is beta`},
		{"ErrVisitorField", "visitor.user", 9, "unknown name visitor.user"},
		{"ErrUnknownName", "user.isBeta", 1, "unknown name user"},
		{"ErrEnv", "$env.visitor.claims.isBetaUser", 1, "unknown name $env"},
		{"ErrVisitorAlone", "visitor", 1, "visitor is not a value"},
		{"ErrNotBooleanString", "visitor.claims.plan", 1, "must be a boolean (expected bool, but got string)"},
		{"ErrNotBooleanNumber", "visitor.claims.seats + 1", 1, "must be a boolean (expected bool, but got float64)"},
		{"ErrNotBooleanObject", "visitor.claims.org", 1, "must be a boolean"},
		{"ErrTypes", "visitor.claims.isBetaUser + 1 > 0", 27, "invalid operation: + (mismatched types bool and int)"},
		{"ErrTypesClaims", "visitor.claims.plan > visitor.claims.seats", 21, "invalid operation: > (mismatched types string and float64)"},
		{"ErrBuiltin", "len(visitor.claims.roles) > 0", 1, "function len is not allowed"},
		{"ErrPredicate", `all(visitor.claims.roles, # == "a")`, 1, "function all is not allowed"},
		{"ErrCall", "foo(1)", 1, "function calls are not allowed"},
		{"ErrMethod", `visitor.claims.name.startsWith("a")`, 21, "function calls are not allowed"},
		{"ErrPipe", `visitor.claims.roles | len() > 0`, 24, "function len is not allowed"},
		{"ErrLet", "let x = true; x", 5, "variables (let) are not allowed"},
		{"ErrSequence", "true; false", 1, "a condition is one expression"},
		{"ErrRange", "1..3 == nil", 2, "ranges (..) are not allowed"},
		{"ErrMatches", `visitor.claims.name matches "a+"`, 21, "matches (regular expressions) is not allowed"},
		{"ErrIndex", `visitor.claims.roles[0] == "a"`, 22, "only claims can be read (visitor.claims.<name>), not an index"},
		{"ErrComputedName", `visitor.claims[visitor.claims.name]`, 31, "only claims can be read"},
		{"ErrSlice", `visitor.claims.roles[0:1] == nil`, 21, "slices are not allowed"},
		{"ErrMap", `{"a": true} == nil`, 1, "maps are not allowed"},
		{"ErrMemberOfLiteral", `{"a": true}.a`, 1, "only claims can be read (visitor.claims.<name>)"},
		{"ErrBytes", `b"abc" == nil`, 1, "this expression is not allowed"},
		{"ErrEnumValue", `visitor.claims.plan == "gold"`, 24, `"gold" is not a value of visitor.claims.plan (one of "free", "pro", "team")`},
		{"ErrEnumValueLeft", `"gold" != visitor.claims.plan`, 1, `"gold" is not a value of visitor.claims.plan`},
		{"ErrEnumValueIn", `visitor.claims.plan in ["pro", "gold"]`, 32, `"gold" is not a value of visitor.claims.plan`},
		{"ErrJoin", `visitor.claims.name + "a" == "ba"`, 21, "+ adds numbers only"},
		{"ErrJoinInTernary", `(visitor.claims.isBetaUser ? visitor.claims.name : "x") + "" == ""`, 57, "+ adds numbers only"},
		{"ErrNilCoalescing", "visitor.claims ?? false", 16, "?? is not allowed"},
		{"ErrDivideByZero", "1 % 0 == 1", 3, "integer divide by zero"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assertConditionError(t, CheckCondition(tc.condition, s), tc.column, tc.message)
		})
	}
	t.Run("NoSchema", func(t *testing.T) {
		if err := CheckCondition("true && !false", nil); err != nil {
			t.Errorf("CheckCondition(true && !false, nil): %v", err)
		}
		assertConditionError(t, CheckCondition("visitor.claims.unsigned.x", nil), 16, "unknown claim visitor.claims.unsigned")
	})
}

// assertConditionError fails the test unless err is an *Error of a condition at column whose
// message starts with message.
func assertConditionError(tb testing.TB, err error, column int, message string) {
	tb.Helper()
	var e *Error
	if !errors.As(err, &e) {
		tb.Fatalf("error %v, want an *Error", err)
	}
	if e.Path != "condition" || e.Column != column || !strings.HasPrefix(e.Message, message) {
		tb.Errorf("error %q, want column %d and a message starting %q", err, column, message)
	}
}

func TestErrorText(t *testing.T) {
	err := CheckCondition("visitor.claims.isBeta", mustSchema(t, siteSchema))
	if want := "condition: column 16: unknown claim visitor.claims.isBeta"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	_, err = ParseSchemaJSON([]byte(withClaims(`"plan":{"type":"integer","description":"d"}`)))
	want := `jsonSchema.properties.plan.type: must be "boolean", "string", "number", "array" or "object"`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

func TestEvaluate(t *testing.T) {
	s := mustSchema(t, siteSchema)
	for _, tc := range []struct {
		name, condition, claims string
		want                    bool
	}{
		{"Bool", "visitor.claims.isBetaUser", `{"isBetaUser":true}`, true},
		{"BoolFalse", "visitor.claims.isBetaUser", `{"isBetaUser":false}`, false},
		{"MissingIsFalse", "visitor.claims.isBetaUser", `{}`, false},
		{"MissingNegated", "!visitor.claims.isBetaUser", `{}`, true},
		{"WrongTypeIsZero", "visitor.claims.isBetaUser", `{"isBetaUser":"true"}`, false},
		{"NoClaims", `!visitor.claims.isBetaUser && visitor.claims.plan == "" && visitor.claims.seats == 0`, `null`, true},
		{"Unsigned", "visitor.claims.unsigned.fromNewsletter && !visitor.claims.isBetaUser", `{"unsigned":{"fromNewsletter":true}}`, true},
		{"UnsignedNotObject", "visitor.claims.unsigned.fromNewsletter", `{"unsigned":true}`, false},
		{"Enum", `visitor.claims.plan == "pro"`, `{"plan":"pro"}`, true},
		{"EnumOtherValue", `visitor.claims.plan in ["pro", "team"]`, `{"plan":"gold"}`, false},
		{"MissingStringIsEmpty", `visitor.claims.name == ""`, `{}`, true},
		{"Number", "visitor.claims.seats >= 10", `{"seats":12}`, true},
		{"NumberWrongType", "visitor.claims.seats == 0", `{"seats":"12"}`, true},
		{"Array", `"admin" in visitor.claims.roles`, `{"roles":["reader","admin"]}`, true},
		{"ArrayWrongElements", `"3" in visitor.claims.roles || "true" in visitor.claims.roles`, `{"roles":[3,true,null]}`, false},
		{"ArrayMissing", `visitor.claims.roles == []`, `{}`, true},
		{"Object", "visitor.claims.org.partner", `{"org":{"partner":true}}`, true},
		{"ObjectMissing", "!visitor.claims.org.partner", `{"org":null}`, true},
		{"UnknownClaimsIgnored", "visitor.claims.isBetaUser", `{"isBetaUser":true,"other":{"x":1}}`, true},
		{"Conditional", `visitor.claims.isBetaUser ? visitor.claims.seats > 1 : visitor.claims.name endsWith "z"`, `{"name":"xyz"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var claims map[string]any
			if err := json.Unmarshal([]byte(tc.claims), &claims); err != nil {
				t.Fatal(err)
			}
			got, err := Evaluate(tc.condition, s, claims)
			if err != nil || got != tc.want {
				t.Errorf("Evaluate(%q, %s) = %v, %v; want %v", tc.condition, tc.claims, got, err, tc.want)
			}
		})
	}
	t.Run("GoNumbers", func(t *testing.T) {
		for _, seats := range []any{12, int64(12), 12.0, json.Number("12")} {
			got, err := Evaluate("visitor.claims.seats == 12", s, map[string]any{"seats": seats})
			if err != nil || !got {
				t.Errorf("seats %T: %v, %v; want true", seats, got, err)
			}
		}
	})
	t.Run("ErrCondition", func(t *testing.T) {
		_, err := Evaluate("visitor.claims.isBeta", s, nil)
		assertConditionError(t, err, 16, "unknown claim visitor.claims.isBeta")
	})
}

func TestConditionConcurrent(t *testing.T) {
	c, err := Compile("visitor.claims.unsigned.fromNewsletter && visitor.claims.seats > 1", mustSchema(t, siteSchema))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			claims := map[string]any{"seats": float64(i), "unsigned": map[string]any{"fromNewsletter": true}}
			if got, err := c.Eval(claims); err != nil || got != (i > 1) {
				t.Errorf("seats %d: %v, %v", i, got, err)
			}
		})
	}
	wg.Wait()
}

// TestConditionBounded runs conditions of the greatest length built to be costly, against large
// claims: each compiles and runs in well under a second (about a millisecond without -race).
func TestConditionBounded(t *testing.T) {
	s := mustSchema(t, siteSchema)
	roles := make([]any, 10000)
	for i := range roles {
		roles[i] = strings.Repeat("r", 64)
	}
	claims := map[string]any{"name": strings.Repeat("n", 1<<20), "roles": roles}
	for _, c := range []string{
		strings.Repeat("!", maxConditionLen-4) + "true",
		strings.Repeat("-", maxConditionLen-6) + "1 > 0",
		strings.Repeat("(", 510) + "true" + strings.Repeat(")", 510),
		"1 in [" + strings.Repeat("1,", 507) + "1]",
		strings.Repeat("2**", 339) + "2>1",
		strings.Repeat(`visitor.claims.name contains "x"||`, 30) + "true",
		strings.Repeat(`visitor.claims.roles==visitor.claims.roles&&`, 23) + "true",
		strings.Repeat(`"x" in visitor.claims.roles||`, 35) + "true",
	} {
		if n := len([]rune(c)); n < maxConditionLen-30 || n > maxConditionLen {
			t.Fatalf("%.40q… has %d characters, want about %d", c, n, maxConditionLen)
		}
		start := time.Now()
		got, err := Evaluate(c, s, claims)
		if took := time.Since(start); err != nil || !got || took > time.Second {
			t.Errorf("%.40q…: %v, %v after %v; want true within a second", c, got, err, took)
		}
	}
}

// TestCompiledOncePerRevision: a condition is compiled once per text of the schema it is
// compiled against (a revision of the site's setting), and a new schema text compiles it anew.
func TestCompiledOncePerRevision(t *testing.T) {
	first := mustSchema(t, siteSchema)
	again := mustSchema(t, siteSchema)
	if first != again {
		t.Fatal("the same schema text was parsed twice")
	}
	const condition = "visitor.claims.isBetaUser"
	c1, err1 := Compile(condition, first)
	c2, err2 := Compile(condition, again)
	if err1 != nil || err2 != nil || c1 != c2 {
		t.Fatalf("compiled twice for one revision: %p %v, %p %v", c1, err1, c2, err2)
	}
	revised := mustSchema(t, withClaims(`"isBetaUser":`+boolClaim))
	c3, err := Compile(condition, revised)
	if err != nil || c3 == c1 {
		t.Fatalf("a revised schema reused the old compilation: %p %v", c3, err)
	}
	if ok, _ := c3.Eval(map[string]any{"isBetaUser": true}); !ok {
		t.Fatal("the recompiled condition does not run")
	}
	// A failure is kept too, and answers the same error.
	_, bad1 := Compile("visitor.claims.nope", revised)
	_, bad2 := Compile("visitor.claims.nope", revised)
	if bad1 == nil || bad1 != bad2 {
		t.Fatalf("failures: %v, %v", bad1, bad2)
	}
}

func TestCheckSyntax(t *testing.T) {
	for _, ok := range []string{
		"visitor.claims.plan == \"pro\"",
		"visitor.claims.unsigned.beta && !visitor.claims.anything.nested",
		"\"admin\" in visitor.claims.roles",
	} {
		if err := CheckSyntax(ok); err != nil {
			t.Errorf("CheckSyntax(%q) = %v, want nil", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"":                                 "condition: must be 1..1024 characters, not 0",
		"visitor.claims.a &&":              "condition: column 19: syntax error",
		"len(visitor.claims.roles) > 1":    "condition: column 1: function len is not allowed",
		"user.isAdmin":                     "condition: column 1: unknown name user",
		strings.Repeat("a", 1025):          "condition: must be 1..1024 characters, not 1025",
		"visitor.claims.roles[0] == \"a\"": "condition: column 22: only claims can be read",
	} {
		err := CheckSyntax(bad)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("CheckSyntax(%.40q) = %v, want %q…", bad, err, want)
		}
	}
}
