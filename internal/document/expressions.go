package document

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/binderyhq/bindery/internal/adaptive"
)

// Conditional blocks (`if`, shown when data.expression is true) and expression inlines (data.expression
// shown as text) hold expressions of adaptive content (internal/adaptive): they read the visitor's
// claims, and a published site evaluates them for each reader. Markdown writes them as GitBook does:
//
//	{% if visitor.claims.plan == "pro" %}
//	blocks
//	{% endif %}
//
// and an expression as <code class="expression">visitor.claims.name</code>.

// ifOpen is the tag line that opens the if block b; ifClose closes it.
func ifOpen(b *Node) string { return "{% if " + str(b.Data, "expression") + " %}" }

const ifClose = "{% endif %}"

// checkExpression checks data.expression of an if or an expression: what adaptive content
// accepts of an expression written where no one site's schema applies (adaptive.CheckSyntax), on
// one line for an if (its tag is one line) and without "%}" (which would end the tag).
func checkExpression(path string, n *Node) error {
	expression, ok := n.Data["expression"].(string)
	if !ok {
		return fmt.Errorf("%s.data.expression: the expression of an %s is required", path, n.Type)
	}
	if n.Type == "if" && (strings.ContainsAny(expression, "\r\n") || strings.Contains(expression, "%}")) {
		return fmt.Errorf("%s.data.expression: the expression of an if is one line without %%}", path)
	}
	if err := adaptive.CheckSyntax(expression); err != nil {
		var ae *adaptive.Error
		if errors.As(err, &ae) {
			ae.Path = path + ".data.expression"
		}
		return err
	}
	return nil
}

// Evaluator decides conditional blocks and expression inlines for one reader.
type Evaluator interface {
	// Shows reports whether an if block of the expression is shown.
	Shows(expression string) bool
	// Value is the text an expression inline of the expression shows.
	Value(expression string) string
}

// Expressions returns the distinct expressions of doc's conditional blocks and of its expression
// inlines, in document order; none for a document that every reader sees alike.
func Expressions(doc *Document) (conditions, values []string) {
	seenIf, seenValue := map[string]bool{}, map[string]bool{}
	walk(doc.Nodes, func(n *Node) {
		switch {
		case n.Object == ObjectBlock && n.Type == "if":
			conditions = appendNew(conditions, seenIf, n)
		case n.Object == ObjectInline && n.Type == "expression":
			values = appendNew(values, seenValue, n)
		}
	})
	return conditions, values
}

// appendNew appends n's expression to list unless seen holds it, and adds it to seen.
func appendNew(list []string, seen map[string]bool, n *Node) []string {
	e, _ := n.Data["expression"].(string)
	if seen[e] {
		return list
	}
	seen[e] = true
	return append(list, e)
}

// walk calls visit for every node under nodes, fragments included, depth first in order.
func walk(nodes []*Node, visit func(*Node)) {
	for _, n := range nodes {
		visit(n)
		walk(n.Nodes, visit)
		walk(n.Fragments, visit)
	}
}

// Evaluate returns doc as the reader ev decides for sees it: each if block replaced by its blocks
// when shown and left out when not (or when it has no expression), each expression inline replaced by a text of its value. doc
// is not changed; a document without expressions is returned as it is.
func Evaluate(doc *Document, ev Evaluator) *Document {
	if c, v := Expressions(doc); len(c) == 0 && len(v) == 0 {
		return doc
	}
	out := *doc
	out.Nodes = evaluated(doc.Nodes, ev)
	if out.Nodes == nil {
		out.Nodes = []*Node{}
	}
	return &out
}

// evaluated is nodes with if blocks and expression inlines decided by ev.
func evaluated(nodes []*Node, ev Evaluator) []*Node {
	var out []*Node
	for _, n := range nodes {
		switch {
		case n.Object == ObjectBlock && n.Type == "if" && decides(ev, n):
			if e := str(n.Data, "expression"); e != "" && ev.Shows(e) { // no expression shows nothing
				out = append(out, evaluated(n.Nodes, ev)...)
			}
		case n.Object == ObjectInline && n.Type == "expression" && decides(ev, n):
			out = append(out, Text(NewLeaf(ev.Value(str(n.Data, "expression")))))
		case len(n.Nodes) == 0 && len(n.Fragments) == 0:
			out = append(out, n)
		default:
			c := *n
			c.Nodes = evaluated(n.Nodes, ev)
			if n.Fragments != nil {
				c.Fragments = append([]*Node{}, evaluated(n.Fragments, ev)...)
			}
			out = append(out, &c)
		}
	}
	return out
}

// partialEvaluator is an Evaluator that decides some expressions only: the nodes of the others
// stay as they are.
type partialEvaluator interface {
	Evaluator
	Decides(expression string) bool
}

// decides says whether ev decides the if block or expression n.
func decides(ev Evaluator, n *Node) bool {
	p, ok := ev.(partialEvaluator)
	return !ok || p.Decides(str(n.Data, "expression"))
}

// The Evaluators of an API read's `evaluated` (getPageDocumentInRevisionById): an API reader is no
// visitor of a site, so no claim is known. WithoutClaims decides every expression as for a reader
// without claims: one that reads no claim (a constant) runs, one that reads a claim fails closed
// (its block hidden, its value empty) as a published site does for an expression that does not
// compile against its schema. DeterministicOnly decides only those that read no claim and leaves
// the others in the document.
var (
	WithoutClaims     Evaluator = withoutClaims{}
	DeterministicOnly Evaluator = deterministicOnly{}
)

type withoutClaims struct{}

func (withoutClaims) Shows(expression string) bool {
	ok, err := adaptive.Evaluate(expression, nil, nil)
	return err == nil && ok
}

func (withoutClaims) Value(expression string) string {
	v, _ := adaptive.EvaluateText(expression, nil, nil)
	return v
}

type deterministicOnly struct{ withoutClaims }

// Decides says whether the expression reads no claim: it compiles without a schema.
func (deterministicOnly) Decides(expression string) bool {
	_, err := adaptive.CompileValue(expression, nil)
	return err == nil
}

// Nobody is the Evaluator of a reader of no claims known: it shows no if block and no expression's
// value, for what every reader may see (the search index).
var Nobody Evaluator = nobody{}

type nobody struct{}

func (nobody) Shows(string) bool   { return false }
func (nobody) Value(string) string { return "" }

// ifTag is how an if block's tag starts (ifLine), wherever it is.
var ifTag = regexp.MustCompile(`\{%\s*if\s`)

// mayHoldExpressions says whether body may hold an if block or an expression: without the start
// of either, reading its document would find none (a page of hints and tabs is not parsed for it).
func mayHoldExpressions(body string) bool {
	return strings.Contains(body, expressionOpen) || strings.Contains(body, "{%") && ifTag.MatchString(body)
}

// ForEveryone returns a page body without what only some readers see: its if blocks and the values
// of its expressions (Evaluate with Nobody), or the body as it is when it has none.
func ForEveryone(body string) string {
	if !mayHoldExpressions(body) {
		return body
	}
	doc := FromMarkdown(body)
	if c, v := Expressions(doc); len(c)+len(v) == 0 {
		return body
	}
	return Markdown(Evaluate(doc, Nobody))
}
