package publish_test

import (
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
)

// planSchema declares the unsigned claims the expressions of TestPageExpressions read.
func planSchema() map[string]any {
	claim := func(typ, description string) map[string]any {
		return map[string]any{"type": typ, "description": description}
	}
	return map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
		"unsigned": map[string]any{"type": "object", "description": "Unsigned claims of the site visitor.", "additionalProperties": false,
			"properties": map[string]any{"beta": claim("boolean", "Wants beta features."), "name": claim("string", "What to call them.")}}}}
}

// TestPageExpressions: a page's if blocks and expressions are decided for each reader, in HTML and
// Markdown; two readers with different claims get different pages, readers with the same claims
// the same, and neither is answered the other's from the cache of rendered pages. Search finds
// none of the conditional text, for anyone.
func TestPageExpressions(t *testing.T) {
	f := newSiteFixture(t)
	f.write(t, page("Adaptive", "Hello <code class=\"expression\">visitor.claims.unsigned.name</code>!\n\n"+
		"{% if visitor.claims.unsigned.beta %}\nBeta text: Quokka.\n{% endif %}\n\n"+
		"{% if !visitor.claims.unsigned.beta %}\nStable text.\n{% endif %}\n\n"+
		"{% if visitor.claims.undeclared %}\nNever shown.\n{% endif %}\n", "ref", "adaptive"))
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme").SetAdaptiveSchema(planSchema()) })

	beta, stable, stableToo := f.reader(t), f.reader(t), f.reader(t)
	for i := range 2 { // the second time from the cache of rendered pages
		_, b := beta("/sites/acme/adaptive?visitor.beta=true&visitor.name=Ada")
		_, s := stable("/sites/acme/adaptive?visitor.name=Bob")
		_, s2 := stableToo("/sites/acme/adaptive?visitor.name=Bob")
		if !strings.Contains(b, "Hello Ada!") || !strings.Contains(b, "Quokka") || strings.Contains(b, "Stable text") {
			t.Errorf("pass %d: the beta reader's page:\n%s", i, b)
		}
		if !strings.Contains(s, "Hello Bob!") || strings.Contains(s, "Quokka") || !strings.Contains(s, "Stable text") {
			t.Errorf("pass %d: the stable reader's page:\n%s", i, s)
		}
		if s2 != s {
			t.Errorf("pass %d: two readers with the same claims got different pages", i)
		}
		for _, page := range []string{b, s} {
			if strings.Contains(page, "Never shown") || strings.Contains(page, "visitor.claims") {
				t.Errorf("pass %d: a page shows an expression or what fails to compile:\n%s", i, page)
			}
		}
	}
	if _, md := beta("/sites/acme/adaptive.md"); !strings.Contains(md, "Hello Ada!") || !strings.Contains(md, "Quokka") || strings.Contains(md, "Stable") {
		t.Errorf("the beta reader's Markdown:\n%s", md)
	}
	if _, md := stable("/sites/acme/adaptive.md"); !strings.Contains(md, "Hello Bob!") || strings.Contains(md, "Quokka") || strings.Contains(md, "{% if") {
		t.Errorf("the stable reader's Markdown:\n%s", md)
	}
	for _, read := range []func(string) (int, string){beta, stable} {
		if _, body := read("/sites/acme/~search.json?q=quokka"); strings.Contains(body, "adaptive") {
			t.Errorf("search finds conditional text: %s", body)
		}
	}
}
