package document

import (
	"errors"
	"fmt"
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
	seen := map[string]bool{}
	walk(doc.Nodes, func(n *Node) {
		e, _ := n.Data["expression"].(string)
		key := n.Type + " " + e
		switch {
		case n.Object == ObjectBlock && n.Type == "if" && !seen[key]:
			conditions = append(conditions, e)
		case n.Object == ObjectInline && n.Type == "expression" && !seen[key]:
			values = append(values, e)
		default:
			return
		}
		seen[key] = true
	})
	return conditions, values
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
// when shown and left out when not, each expression inline replaced by a text of its value. doc
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
		case n.Object == ObjectBlock && n.Type == "if":
			if ev.Shows(str(n.Data, "expression")) {
				out = append(out, evaluated(n.Nodes, ev)...)
			}
		case n.Object == ObjectInline && n.Type == "expression":
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
