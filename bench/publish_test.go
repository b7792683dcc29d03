package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/pagebodies"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// BenchmarkPublishedPage10k is an anonymous reader's GET of a page deep in a published site over
// a space of 10,000 pages (100 sections of 100): the site's structure and the space's revision
// are read, the rendered page comes from the cache by its ETag. first-ms is the first read, which
// also loads the tree and renders the page.
func BenchmarkPublishedPage10k(b *testing.B) { readDeepPage(b, bigSite(b)) }

// BenchmarkPublishedPage10kKept is BenchmarkPublishedPage10k with the read cache, as `bindery
// serve` runs: the page read again from an unchanged database is the answer kept (decision 367).
func BenchmarkPublishedPage10kKept(b *testing.B) {
	readDeepPage(b, publishedSiteOn(b, testenv.New(b), wideTree(100, 100)))
}

// BenchmarkPublishedPage10kConditions is BenchmarkPublishedPage10k where each of the 100
// sections' top page has a condition of its own that only section 57's satisfies for a reader
// without claims: the reader sees 100 of the 10,000 pages. Each request runs the 100 conditions
// (compiled once) and reads the visible tree from its cache.
func BenchmarkPublishedPage10kConditions(b *testing.B) {
	e, _ := conditionedSite(b)
	readDeepPage(b, e)
}

// readDeepPage measures an anonymous reader's GET of a page of section 57 against the baseline,
// and reports the first read apart.
func readDeepPage(b *testing.B, e publishedSite) {
	read := get(b, e.Env, testenv.Actor{}, "/sites/big/page-0-of-section-57/page-42-of-section-57")
	first := perRequest(1, read)
	compare(b, read)
	b.ReportMetric(float64(first)/1e6, "first-ms")
}

// BenchmarkPublishedPage2000Blocks is an anonymous reader's GET of a published page of 2,000
// blocks, 20 of them highlighted code (pagebodies.Blocks: hints, tables, lists, tabs,
// expandables, formulas and paragraphs of links), computed: the server keeps no answers, and
// each request reads a page of its own of the 2,100 sharing that body, so the rendered pages
// kept by ETag never answer and every request renders the page; the body's document is parsed
// once and shared, as the content store keeps parsed bodies by hash. Plain reads the pages of the
// same tree with BenchmarkPublishedPage10k's 16-line body: the cost of a computed page without
// the blocks.
func BenchmarkPublishedPage2000Blocks(b *testing.B) {
	b.Run("Blocks", func(b *testing.B) { readEachPage(b, wideTreeOf(sections2100, 100, pagebodies.Blocks(20))) })
	b.Run("Plain", func(b *testing.B) { readEachPage(b, wideTree(sections2100, 100)) })
}

// sections2100 are the sections of 100 pages of a tree of 2,100 pages: more than the rendered
// pages a server keeps (2,048).
const sections2100 = 21

// readEachPage measures, against the baseline, an anonymous reader's GET of each page of a site
// over content (a wideTree of sections2100 sections) in turn.
func readEachPage(b *testing.B, content testenv.Content) {
	e := publishedSiteOf(b, content)
	var reads []func()
	for p := range 100 {
		for s := range sections2100 {
			path := fmt.Sprintf("/sites/big/page-0-of-section-%d", s)
			if p > 0 {
				path += fmt.Sprintf("/page-%d-of-section-%d", p, s)
			}
			reads = append(reads, get(b, e.Env, testenv.Actor{}, path))
		}
	}
	next := 0
	compare(b, func() {
		reads[next%len(reads)]()
		next++
	})
}

// BenchmarkPublishedSearch10kConditions is search as you type on the site of
// BenchmarkPublishedPage10kConditions, its pages indexed as in BenchmarkSearchSpace100k, for a
// word found in about 600 sections: by a reader without claims, from whom 9,900 of the 10,000
// pages are hidden and left out by the search, and by a reader with the claim, who sees every page.
func BenchmarkPublishedSearch10kConditions(b *testing.B) {
	e, content := conditionedSite(b)
	words := seedSearch(b, e.Env, e.space, content)
	path := "/sites/big/~search.json?q=" + words[300]
	b.Run("HidingNone", func(b *testing.B) { compare(b, get(b, e.Env, testenv.Actor{}, path+"&visitor.beta=true")) })
	b.Run("Hiding9900", func(b *testing.B) { compare(b, get(b, e.Env, testenv.Actor{}, path)) })
}

// conditionedSite is bigSite where each of the 100 sections' top page has a condition of its own
// that only section 57's satisfies for a reader without claims (unsigned claim beta shows them
// all), and its content.
func conditionedSite(b *testing.B) (publishedSite, testenv.Content) {
	content := wideTree(100, 100)
	for s := range 100 {
		p := *content.Tree.Page(fmt.Sprintf("s%04d", s))
		p.Condition = fmt.Sprintf("visitor.claims.unsigned.beta || %d == 57", s)
		content.Tree.SetPage(&p)
	}
	e := publishedSiteOf(b, content)
	e.Store.Client.Site.UpdateOneID(e.site).SetAdaptiveSchema(map[string]any{"type": "object", "additionalProperties": false,
		"properties": map[string]any{"unsigned": map[string]any{"type": "object", "description": "Unsigned claims of the site visitor.",
			"additionalProperties": false, "properties": map[string]any{"beta": map[string]any{"type": "boolean", "description": "Beta."}}}}}).
		ExecX(accounts.System(context.Background()))
	return e, content
}

// publishedSite is a server with a published site ("big") over one space.
type publishedSite struct {
	*testenv.Env
	admin            testenv.Actor
	org, space, site string
}

// bigSite publishes a site over a space of 10,000 pages (100 sections of 100).
func bigSite(b *testing.B) publishedSite { return publishedSiteOf(b, wideTree(100, 100)) }

// publishedSiteOf publishes a site ("big") over a space of the given content, on a server that
// computes every answer.
func publishedSiteOf(b *testing.B, content testenv.Content) publishedSite {
	return publishedSiteOn(b, testenv.New(b, testenv.WithoutReadCache), content)
}

// publishedSiteOn publishes a site ("big") over a space of the given content on env's server.
func publishedSiteOn(b *testing.B, env *testenv.Env, content testenv.Content) publishedSite {
	e := publishedSite{Env: env}
	e.admin, e.org = e.Bootstrap("admin@example.com", "Bench")
	e.space = e.Do(e.admin, "POST", "/v1/orgs/"+e.org+"/spaces", map[string]any{"title": "Big"}).Map(b)["id"].(string)
	e.WriteRevision(e.space, "", content)
	e.site = e.Do(e.admin, "POST", "/v1/orgs/"+e.org+"/sites", map[string]any{"title": "Big docs", "spaces": []string{e.space}}).Map(b)["id"].(string)
	e.Store.Client.Site.UpdateOneID(e.site).SetPublished(true).SetBasename("big").ExecX(accounts.System(context.Background()))
	return e
}
