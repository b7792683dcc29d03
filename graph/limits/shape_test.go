package limits

import (
	"context"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

var testShape = Shape{FieldsPerSet: 10, Fields: 40, Directives: 3, Spreads: 6}

func checkShape(t testing.TB, doc string) string {
	t.Helper()
	d, err := parser.ParseQuery(&ast.Source{Input: doc})
	if err != nil {
		t.Fatalf("parse %q: %v", doc, err)
	}
	if e := testShape.Check(d); e != nil {
		return e.Message
	}
	return ""
}

func TestShapeCheck(t *testing.T) {
	for _, c := range []struct{ doc, refused string }{
		{"{ a b c { d e } }", ""},
		{"{ a { ...F ...F ...F } } fragment F on T { b c }", ""},
		{"{" + strings.Repeat(" a", 11) + " }", "11 selections, over the limit of 10"},
		{"{ a {" + strings.Repeat(" b", 11) + " } }", "11 selections"},
		{"{ ...F0 } fragment F0 on T { ...F1 ...F1 ...F1 } fragment F1 on T { ...F2 ...F2 } fragment F2 on T { a b c d e f g h i j }", "limit of 40"},
		{"{ ...A } fragment A on T { ...B } fragment B on T { ...A }", `fragment "A" spreads itself`},
		{"{ a @x @y b @z @w }", "4 directives, over the limit of 3"},
		{"{ ...F ...F ...F ...F ...F ...F ...F } fragment F on T { a }", "7 fragment spreads, over the limit of 6"},
		{"{ ...Unknown }", ""},
		// An unused fragment is counted too (validation refuses it, but only after its own work).
		{"{ a } fragment U on T {" + strings.Repeat(" b", 11) + " }", "11 selections"},
	} {
		got := checkShape(t, c.doc)
		if c.refused == "" && got != "" || c.refused != "" && !strings.Contains(got, c.refused) {
			t.Errorf("%.60q: refused %q, want %q", c.doc, got, c.refused)
		}
	}
}

// FuzzShapeCheck: any document that parses is counted without panicking, in time linear in its
// size (fragments counted once), and a refusal always names its bound.
func FuzzShapeCheck(f *testing.F) {
	for _, s := range []string{"{ a b { c } }", "{ ...F } fragment F on T { ...F }", "{ a @x(if: true) { ... on T { b } } }",
		"{ ...F0 } fragment F0 on T { ...F1 ...F1 } fragment F1 on T { a }", "query Q($v: Int) { a(x: $v) @y }"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		d, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: doc}, 2000)
		if err != nil {
			return
		}
		if e := testShape.Check(d); e != nil && !strings.Contains(e.Message, "limit") && !strings.Contains(e.Message, "spreads itself") {
			t.Fatalf("refusal without its bound: %q", e.Message)
		}
	})
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
