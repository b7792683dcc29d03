package limits

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/99designs/gqlgen/graphql/errcode"
)

var testShape = Shape{FieldsPerSet: 10, Fields: 40, Directives: 3, Spreads: 6, Variables: 4, Values: 40, NameLength: 8}

func TestShapeScan(t *testing.T) {
	for _, c := range []struct{ doc, refused string }{
		{"{ a b c { d e } }", ""},
		{"{ a { ...F ...F ...F } } fragment F on T { b c }", ""},
		{"query Q($v: In = {a: {b: 1}} @d) @e { a: b(x: {y: [1, {z: 2}]}) { ... on T { c } ... @f { d } } }", ""},
		{"# a comment { a b c d e f g h i j k }\n{ a }", ""},
		{`{ a(s: "{ b c d e f g h i j k l }") }`, ""},
		{"fragment query on T { a } query fragment { ...query }", ""},
		{"{" + strings.Repeat(" a", 11) + " }", "more selections than the limit of 10"},
		{"{ a {" + strings.Repeat(" b", 11) + " } }", "more selections than the limit of 10"},
		{"{ a {" + strings.Repeat(" x: b", 11) + " } }", "more selections than the limit of 10"},
		{"{" + strings.Repeat(" ... on T { a }", 11) + " }", "more selections than the limit of 10"},
		{"{ ...F0 } fragment F0 on T { ...F1 ...F1 ...F1 } fragment F1 on T { ...F2 ...F2 } fragment F2 on T { a b c d e f g h i j }", "limit of 40"},
		{"{ ...A } fragment A on T { ...B } fragment B on T { ...A }", `fragment "A" spreads itself`},
		{"{ a } fragment A on T { ...A }", `fragment "A" spreads itself`},
		{"{ a @x @y b @z @w }", "more directives than the limit of 3"},
		{"query ($a: Int @x, $b: Int @y, $c: Int @z, $d: Int @w) { a }", "more directives than the limit of 3"},
		{"{ ...F ...F ...F ...F ...F ...F ...F } fragment F on T { a }", "more fragment spreads than the limit of 6"},
		{"{ ...Unknown }", ""},
		{"query ($a: Int, $b: Int) { a(x: $a, y: $b) }", ""},
		{"query ($a: Int, $b: Int) { a(x: $a, y: $b, z: $a) }", "more variables than the limit of 4"},
		{"{ abcdefgh }", ""},
		{"{ abcdefghi }", "a name longer than the limit of 8 bytes"},
		{`{ a(x: "abcdefghi") }`, ""},
		{"{ a(x: [" + strings.Repeat("1 ", 34) + "]) }", ""}, // 40 tokens from ( to )
		{"{ a(x: [" + strings.Repeat("1 ", 35) + "]) }", "more tokens in arguments and variable definitions than the limit of 40"},
		// An unused fragment is counted too (validation refuses it, but only after its own work),
		// and so is a second fragment of the same name.
		{"{ a } fragment U on T {" + strings.Repeat(" b", 11) + " }", "more selections"},
		{"{ ...U } fragment U on T { a } fragment U on T {" + strings.Repeat(" b", 11) + " }", "more selections"},
	} {
		got := ""
		if e := testShape.Scan(c.doc, 0); e != nil {
			got = e.Message
		}
		if c.refused == "" && got != "" || c.refused != "" && !strings.Contains(got, c.refused) {
			t.Errorf("%.60q: refused %q, want %q", c.doc, got, c.refused)
		}
	}
}

func TestShapeScanTokenLimit(t *testing.T) {
	for _, doc := range []string{"{ a(x: [1, 2, 3, 4]) }", "# 1\n# 2\n# 3\n# 4\n# 5\n# 6\n{ a }"} {
		e := testShape.Scan(doc, 7)
		if e == nil || e.Message != "exceeded token limit of 7" || e.Extensions["code"] != errcode.ParseFailed {
			t.Errorf("%q: %v, want the parser's token limit", doc, e)
		}
	}
	if e := testShape.Scan("{ a(x: [1, 2]) }", 11); e != nil { // { a ( x : [ 1 2 ] ) }
		t.Errorf("refused within the limit: %v", e)
	}
}

// FuzzShapeScan: any document is scanned without panicking, and a document that parses is
// refused by the scan exactly when its syntax tree exceeds a bound of its structure (counted by
// shapeOfTree).
func FuzzShapeScan(f *testing.F) {
	for _, s := range []string{"{ a b { c } }", "{ ...F } fragment F on T { ...F }", "{ a @x(if: true) { ... on T { b } } }",
		"{ ...F0 } fragment F0 on T { ...F1 ...F1 } fragment F1 on T { a }", "query Q($v: Int @d) { a(x: $v) @y }",
		"{ a(o: {b: {c: 1}}) { d } }", "fragment on on on { on: on }", "{ ... { a } ... on T @x { b } }"} {
		f.Add(s)
	}
	// Variables, values and names are counted token by token alone: the tree is compared on the rest.
	structure := testShape
	structure.Variables, structure.Values, structure.NameLength = math.MaxInt, math.MaxInt, math.MaxInt
	f.Fuzz(func(t *testing.T, doc string) {
		scanned := structure.Scan(doc, 0)
		if scanned != nil && !strings.Contains(scanned.Message, "limit") && !strings.Contains(scanned.Message, "spreads itself") {
			t.Fatalf("refusal without its bound: %q", scanned.Message)
		}
		d, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: doc}, 2000)
		if err != nil {
			return
		}
		if tree := shapeOfTree(structure, d); (tree == "") != (scanned == nil) {
			t.Fatalf("the scan says %v, the syntax tree %q", scanned, tree)
		}
	})
}

// shapeOfTree names the first bound a parsed document exceeds, or "": the scan's reference,
// counted on the syntax tree.
func shapeOfTree(s Shape, doc *ast.QueryDocument) string {
	c := treeCounter{shape: s, fragments: map[string]*definition{}}
	for _, op := range doc.Operations {
		d := &definition{}
		c.directives += len(op.Directives)
		for _, v := range op.VariableDefinitions {
			c.directives += len(v.Directives)
		}
		c.set(d, op.SelectionSet)
		c.sc.operations = append(c.sc.operations, d)
	}
	for _, f := range doc.Fragments {
		d := c.fragments[f.Name]
		if d == nil {
			d = &definition{}
			c.fragments[f.Name] = d
			c.sc.fragmentNames = append(c.sc.fragmentNames, f.Name)
		}
		c.directives += len(f.Directives)
		c.set(d, f.SelectionSet)
	}
	switch {
	case c.wide:
		return "a selection set is too wide"

	case c.directives > s.Directives:
		return "too many directives"
	case c.spreads > s.Spreads:
		return "too many spreads"
	}
	c.sc.shape, c.sc.fragments = s, c.fragments
	if err := c.sc.expand(); err != nil {
		return err.Message
	}
	return ""
}

type treeCounter struct {
	shape               Shape
	fragments           map[string]*definition
	sc                  shapeScan // for expand, which the scan and the tree share
	wide                bool
	directives, spreads int
}

func (c *treeCounter) set(d *definition, set ast.SelectionSet) {
	c.wide = c.wide || len(set) > c.shape.FieldsPerSet
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			d.fields++
			c.directives += len(sel.Directives)
			c.set(d, sel.SelectionSet)
		case *ast.InlineFragment:
			c.directives += len(sel.Directives)
			c.set(d, sel.SelectionSet)
		case *ast.FragmentSpread:
			c.directives += len(sel.Directives)
			c.spreads++
			d.spreads = append(d.spreads, sel.Name)
		}
	}
}

func TestDocumentCacheKeepsItsBudget(t *testing.T) {
	ctx := context.Background()
	c := NewDocumentCache(1000, 10_000)
	doc := &ast.QueryDocument{}
	for i := range 100 {
		c.Add(ctx, strings.Repeat("x", 500)+string(rune('a'+i%26))+strings.Repeat("y", i), doc)
		if c.Bytes() > 10_000 {
			t.Fatalf("after %d documents the cache holds %d bytes, over its budget", i+1, c.Bytes())
		}
	}
	c.Add(ctx, strings.Repeat("z", 1001), doc) // over a tenth of the budget: not kept
	if _, ok := c.Get(ctx, strings.Repeat("z", 1001)); ok {
		t.Error("a document over a tenth of the budget was kept")
	}
	small := "{ viewer { id } }"
	c.Add(ctx, small, doc)
	if got, ok := c.Get(ctx, small); !ok || got != doc {
		t.Error("a small document was not kept")
	}
}
