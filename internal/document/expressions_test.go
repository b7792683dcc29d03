package document

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestExpressionsRefused sends documents whose expressions adaptive content refuses: each is
// refused naming the expression's path, quickly.
func TestExpressionsRefused(t *testing.T) {
	ifOf := func(expr string) string {
		raw, _ := json.Marshal(New(Block("if", map[string]any{"expression": expr}, Block("paragraph", nil, Text(NewLeaf("x"))))))
		return string(raw)
	}
	exprOf := func(expr string) string {
		raw, _ := json.Marshal(New(Block("paragraph", nil, Text(NewLeaf("a ")), Inline("expression", map[string]any{"expression": expr}))))
		return string(raw)
	}
	deep := strings.Repeat("(", 5000) + "visitor.claims.a" + strings.Repeat(")", 5000)
	for _, c := range []struct{ name, raw, want string }{
		{"syntax", ifOf("visitor.claims.a ==="), "nodes[0].data.expression: column"},
		{"javascript", exprOf(`visitor.claims.roles.includes("a")`), "nodes[0].nodes[1].data.expression: column"},
		{"function", ifOf("len(visitor.claims.a) > 1"), "nodes[0].data.expression: column 1: function len is not allowed"},
		{"unknown name", exprOf("space.vars.version"), "nodes[0].nodes[1].data.expression: column 1: unknown name space"},
		{"huge", ifOf(strings.Repeat("visitor.claims.a && ", 100000) + "true"), "nodes[0].data.expression: must be 1..1024 characters"},
		{"deep", exprOf(deep), "nodes[0].nodes[1].data.expression: must be 1..1024 characters"},
		{"nested just under the bound", ifOf(strings.Repeat("!", 1000) + "visitor.claims.a"), ""},
		{"invalid UTF-8", ifOf("visitor.claims.a == \"\xff\""), ""},
		{"empty", ifOf(""), "nodes[0].data.expression: must be 1..1024 characters, not 0"},
		{"missing", `{"object":"document","data":{},"nodes":[{"object":"block","type":"if","data":{},"isVoid":false,"nodes":[]}]}`,
			"nodes[0].data.expression: the expression of an if is required"},
		{"two lines", ifOf("visitor.claims.a\n&& visitor.claims.b"), "nodes[0].data.expression: the expression of an if is one line without %}"},
		{"tag end", ifOf(`visitor.claims.a == "%}"`), "nodes[0].data.expression: the expression of an if is one line without %}"},
		{"if in a hint", `{"object":"document","data":{},"nodes":[{"object":"block","type":"hint","data":{"style":"info"},"isVoid":false,"nodes":[
			{"object":"block","type":"if","data":{"expression":"visitor.claims.a"},"isVoid":false,"nodes":[]}]}]}`,
			`nodes[0].nodes[0]: block type "if" is not allowed here`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(c.raw))
			if got := errString(err); c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
				t.Errorf("Decode = %q, want %q…", got, c.want)
			}
		})
	}
}

// TestExpressionsEncoded stores documents with conditions and expressions as Markdown and reads
// them back the same.
func TestExpressionsEncoded(t *testing.T) {
	doc := New(
		Block("paragraph", nil, Text(NewLeaf("Hi ")), Inline("expression", map[string]any{"expression": `visitor.claims.name + " *" <= "[x]"`})),
		Block("if", map[string]any{"expression": `visitor.claims.plan in ["pro", "team"]`},
			Block("heading-2", nil, Inline("expression", map[string]any{"expression": "visitor.claims.seats * 2"})),
			Block("if", map[string]any{"expression": "!visitor.claims.trial"}, Block("divider", nil))),
		Block("if", map[string]any{"expression": "visitor.claims.unsigned.beta"}),
	)
	raw, _ := json.Marshal(doc)
	back, err := Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	md, err := Encode(back)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	want := "Hi <code class=\"expression\">visitor.claims.name + \" \\*\" \\<= \"\\[x\\]\"</code>\n\n" +
		"{% if visitor.claims.plan in [\"pro\", \"team\"] %}\n### <code class=\"expression\">visitor.claims.seats \\* 2</code>\n\n" +
		"{% if !visitor.claims.trial %}\n***\n{% endif %}\n{% endif %}\n\n{% if visitor.claims.unsigned.beta %}\n{% endif %}\n"
	if md != want {
		t.Errorf("Markdown = %q, want %q", md, want)
	}
}

// TestIfOutsideTopLevel reads an if where the model has none (in a hint): its tags stay as text
// around its blocks, so nothing is dropped and no reader is misled into thinking it hides them.
func TestIfOutsideTopLevel(t *testing.T) {
	md := "{% hint style=\"info\" %}\n{% if visitor.claims.a %}\nsecret\n{% endif %}\n{% endhint %}\n"
	got := Markdown(FromMarkdown(md))
	want := "{% hint style=\"info\" %}\n\\{% if visitor.claims.a %}\n\nsecret\n\n\\{% endif %}\n{% endhint %}\n"
	if got != want {
		t.Errorf("Markdown = %q, want %q", got, want)
	}
}

type claimsEvaluator map[string]string

func (e claimsEvaluator) Shows(expression string) bool   { return e[expression] == "true" }
func (e claimsEvaluator) Value(expression string) string { return e[expression] }

// TestEvaluate decides conditional blocks and expressions for a reader, leaving the document read
// unchanged.
func TestEvaluate(t *testing.T) {
	doc := FromMarkdown("Hi <code class=\"expression\">n</code>!\n\n{% if a %}\nA\n\n{% if b %}\nB\n{% endif %}\n{% endif %}\n\n{% if b %}\nC\n{% endif %}\n")
	before := Markdown(doc)
	conditions, values := Expressions(doc)
	if strings.Join(conditions, ",") != "a,b" || strings.Join(values, ",") != "n" {
		t.Errorf("Expressions = %q %q", conditions, values)
	}
	got := Markdown(Evaluate(doc, claimsEvaluator{"a": "true", "n": "Ada"}))
	if want := "Hi Ada!\n\nA\n"; got != want {
		t.Errorf("Evaluate = %q, want %q", got, want)
	}
	if Markdown(doc) != before {
		t.Error("Evaluate changed the document")
	}
	plain := FromMarkdown("text\n")
	if Evaluate(plain, claimsEvaluator{}) != plain {
		t.Error("a document without expressions is not returned as it is")
	}
}
