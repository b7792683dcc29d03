package adaptive

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
)

// maxConditionLen is the most characters (runes) a condition has (spec/03 Limits).
const maxConditionLen = 1024

// Condition is a compiled condition, ready to run for many visitors. It is immutable and safe
// for concurrent use.
type Condition struct {
	program *vm.Program
	claims  *claim // visitor.claims of the schema it was compiled against
}

// The kinds of expression: a condition, whose result is a boolean, and a value shown as text (an
// expression inline of a page), whose result is any value.
type resultKind bool

const (
	asCondition resultKind = true
	asValue     resultKind = false
)

// Compile parses a condition and checks it against the claims of s (visitor.claims.<name>,
// visitor.claims.unsigned.<name>): only the operators and names the package documentation lists,
// only claims s has, and a boolean result. A nil s is a site without a schema: no claim is known.
// It returns an *Error naming the column of the problem. A condition compiled before against a
// schema of the same text is not compiled again.
func Compile(condition string, s *Schema) (*Condition, error) {
	return compileCached(condition, s, asCondition)
}

// CompileValue is Compile for an expression whose result is shown as text (an expression inline
// of a page): the same names, operators and checks, and any result type.
func CompileValue(expression string, s *Schema) (*Condition, error) {
	return compileCached(expression, s, asValue)
}

// compileCached compiles an expression of the kind, or returns it compiled before.
func compileCached(condition string, s *Schema, kind resultKind) (*Condition, error) {
	if len(condition) > utf8.UTFMax*maxConditionLen {
		return compile(condition, s, kind) // refused by its length: not worth a place in the cache
	}
	key := conditionKey{schema: keyOf(s), condition: condition, kind: kind}
	if c, ok := conditions.Get(key); ok {
		return c.condition, c.err
	}
	c, err := compile(condition, s, kind)
	conditions.Add(key, compiledCondition{condition: c, err: err})
	return c, err
}

// compile parses, type-checks and compiles an expression of the kind against the claims of s.
func compile(condition string, s *Schema, kind resultKind) (*Condition, error) {
	tree, err := parse(condition)
	if err != nil {
		return nil, err
	}
	claims := noClaims
	if s != nil {
		claims = s.root
	}
	if err := checkNode(tree.Node, claims); err != nil {
		return nil, err
	}
	env := types.Map{"visitor": types.Map{"claims": claims.exprType()}}
	options := []expr.Option{expr.Env(env), expr.DisableAllBuiltins()}
	if kind == asCondition {
		options = append(options, expr.AsBool())
	}
	program, err := expr.Compile(condition, options...)
	if err != nil {
		return nil, fromExpr(err, "")
	}
	if err := checkJoins(program.Node()); err != nil {
		return nil, err
	}
	return &Condition{program: program, claims: claims}, nil
}

// CheckCondition compiles and type-checks a condition against the claims of s, as Compile does,
// and returns its *Error, or nil.
func CheckCondition(condition string, s *Schema) error {
	_, err := Compile(condition, s)
	return err
}

// CheckSyntax checks what can be checked of a condition without a schema, for a condition
// written where no one schema applies (a page, whose space may be in several sites): its length,
// its syntax, and that it holds only the operators and names the package documentation lists,
// reading any claim. Types, enum values and string joins are checked when it is compiled against
// a site's schema. It returns an *Error naming the column of the problem, or nil.
func CheckSyntax(condition string) error {
	tree, err := parse(condition)
	if err != nil {
		return err
	}
	if err := checkNode(tree.Node, anyClaims); err != nil {
		return err
	}
	return nil
}

// parse checks a condition's length and parses it.
func parse(condition string) (*parser.Tree, error) {
	if n := utf8.RuneCountInString(condition); n < 1 || n > maxConditionLen {
		return nil, conditionError(0, "must be 1..%d characters, not %d", maxConditionLen, n)
	}
	tree, err := parser.Parse(condition)
	if err != nil {
		return nil, fromExpr(err, "syntax error: ")
	}
	return tree, nil
}

// Evaluate compiles a condition against s and runs it for a visitor's claims, as Compile and
// Condition.Eval do. A caller that runs one condition for many visitors compiles it once.
func Evaluate(condition string, s *Schema, claims map[string]any) (bool, error) {
	c, err := Compile(condition, s)
	if err != nil {
		return false, err
	}
	return c.Eval(claims)
}

// Eval runs the condition for a visitor's claims: the decoded claims of their token, with their
// unsigned claims as a nested "unsigned" object. A claim that is missing or of another type than
// the schema says is the zero value (false, "", 0, an empty array); claims the schema does not
// have are ignored. A run takes time linear in the condition and the claims it reads.
// It returns an *Error if the run fails.
func (c *Condition) Eval(claims map[string]any) (bool, error) {
	out, err := c.run(claims)
	if err != nil {
		return false, err
	}
	b, ok := out.(bool)
	if !ok {
		return false, conditionError(1, "must be a boolean, not %T", out)
	}
	return b, nil
}

// Text runs an expression compiled with CompileValue for a visitor's claims, as Eval does, and
// writes its result as text: a string as it is, a number in its shortest form, a boolean as
// true or false, nil as nothing, an array as its elements apart by ", ".
// It returns an *Error if the run fails.
func (c *Condition) Text(claims map[string]any) (string, error) {
	out, err := c.run(claims)
	if err != nil {
		return "", err
	}
	return text(out), nil
}

// EvaluateText compiles an expression with CompileValue against s and runs it with Text.
func EvaluateText(expression string, s *Schema, claims map[string]any) (string, error) {
	c, err := CompileValue(expression, s)
	if err != nil {
		return "", err
	}
	return c.Text(claims)
}

func (c *Condition) run(claims map[string]any) (any, error) {
	env := map[string]any{"visitor": map[string]any{"claims": c.claims.value(claims)}}
	out, err := expr.Run(c.program, env)
	if err != nil {
		return nil, fromExpr(err, "")
	}
	return out, nil
}

// text writes a result of an expression as text.
func text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = text(e)
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}

// fromExpr turns an error of expr into an *Error, its message after prefix. An error with no
// position is about the condition as a whole: its result type.
func fromExpr(err error, prefix string) *Error {
	var fe *file.Error
	if errors.As(err, &fe) {
		return conditionError(fe.From+1, "%s%s", prefix, fe.Message)
	}
	return conditionError(1, "must be a boolean (%v)", err)
}
