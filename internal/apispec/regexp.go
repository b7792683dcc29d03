package apispec

import (
	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSON Schema's patterns are ECMA-262 regular expressions, and the reference document uses what
// RE2 (Go's regexp) lacks: SiteRedirectSourcePath has lookaheads. dlclark/regexp2 in its ECMAScript
// mode (already a dependency, through chroma) compiles them all.

// ecmaRegexp is a pattern compiled by regexp2.
type ecmaRegexp regexp2.Regexp

func (re *ecmaRegexp) MatchString(s string) bool {
	matched, err := (*regexp2.Regexp)(re).MatchString(s)
	return err == nil && matched
}

func (re *ecmaRegexp) String() string { return (*regexp2.Regexp)(re).String() }

// compileECMA is the compiler's regexp engine.
func compileECMA(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(pattern, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	return (*ecmaRegexp)(re), nil
}
