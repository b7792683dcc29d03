package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/document"
)

// TestDocumentExpressions writes documents with if blocks and expressions and reads them back,
// whole and evaluated (getPageDocumentInRevisionById's evaluated); expressions adaptive content
// refuses, hostile ones among them, are 400 naming their path, quickly, and change nothing.
func TestDocumentExpressions(t *testing.T) {
	f := newContentFixture(t)
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests"), map[string]any{"subject": "Adaptive"}), http.StatusCreated)
	para := func(nodes ...*document.Node) *document.Node { return document.Block("paragraph", nil, nodes...) }
	text := func(s string) *document.Node { return document.Text(document.NewLeaf(s)) }
	expression := func(e string) *document.Node { return document.Inline("expression", map[string]any{"expression": e}) }
	ifBlock := func(e string, blocks ...*document.Node) *document.Node {
		return document.Block("if", map[string]any{"expression": e}, blocks...)
	}
	doc := document.New(
		para(text("Hi "), expression("visitor.claims.name"), text(", "), expression("1 + 1")),
		ifBlock("visitor.claims.beta", para(text("Beta."))),
		ifBlock("1 < 2", para(text("Always."))),
		ifBlock("false", para(text("Never."))),
	)
	r := f.e.Do(f.admin, "POST", f.spacePath("/change-requests/2/content"), map[string]any{"changes": []any{
		map[string]any{"operation": "insert_page", "title": "Adaptive", "document": map[string]any{"document": doc}},
	}})
	crWant(t, r, http.StatusOK)
	var p struct {
		ID       string
		Document json.RawMessage
	}
	f.get(t, f.reader, "/change-requests/2/content/path/adaptive?format=document").JSON(t, &p)
	if got, want := compact(t, p.Document), compact(t, must(json.Marshal(doc))); got != want {
		t.Errorf("document read back %s\nwant %s", got, want)
	}
	revision := f.get(t, f.reader, "/change-requests/2").Map(t)["revision"].(string)
	for q, want := range map[string]*document.Document{
		"":                 document.FromMarkdown(document.Markdown(doc)),
		"?evaluated=false": doc,
		"?evaluated=true":  document.New(para(text("Hi "), text(""), text(", "), text("2")), para(text("Always."))),
		"?evaluated=deterministic-only": document.New(para(text("Hi "), expression("visitor.claims.name"), text(", "), text("2")),
			ifBlock("visitor.claims.beta", para(text("Beta."))), para(text("Always."))),
	} {
		got := compact(t, f.get(t, f.reader, "/revisions/"+revision+"/page/"+p.ID+"/document"+q).Body)
		if got != compact(t, must(json.Marshal(want))) {
			t.Errorf("%s: document %s", q, got)
		}
	}

	deep := strings.Repeat("(", 3000) + "visitor.claims.a" + strings.Repeat(")", 3000)
	for name, c := range map[string]struct {
		doc  *document.Document
		path string
	}{
		"ErrSyntax":      {document.New(ifBlock("visitor.claims.a ===", para(text("x")))), "nodes[0].data.expression: column"},
		"ErrFunction":    {document.New(para(expression(`len(visitor.claims.a)`))), "nodes[0].nodes[0].data.expression: column 1: function len"},
		"ErrHuge":        {document.New(para(expression(strings.Repeat("visitor.claims.a + ", 50000) + "1"))), "nodes[0].nodes[0].data.expression: must be 1..1024"},
		"ErrDeep":        {document.New(ifBlock(deep)), "nodes[0].data.expression: must be 1..1024"},
		"ErrInvalidUTF8": {document.New(ifBlock("visitor.claims.a == \xff\xfe", para(text("x")))), "nodes[0].data.expression: column"},
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			r := f.e.Do(f.admin, "POST", f.spacePath("/change-requests/2/content"), map[string]any{"changes": []any{
				map[string]any{"operation": "insert_page", "title": "Bad " + name, "document": map[string]any{"document": c.doc}},
			}})
			crWantError(t, r, http.StatusBadRequest, "changes[0].document", c.path)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	var tree struct{ Pages []wirePage }
	f.get(t, f.reader, "/change-requests/2/content/pages").JSON(t, &tree)
	walkPages(tree.Pages, func(p wirePage) {
		if strings.HasPrefix(p.Title, "Bad ") {
			t.Errorf("a refused page was written: %s", p.Title)
		}
	})
}
