package bench

import (
	"context"
	"testing"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testenv"
)

// BenchmarkPublishedPage10k is an anonymous reader's GET of a page deep in a published site over
// a space of 10,000 pages (100 sections of 100): the site's structure and the space's revision
// are read, the rendered page comes from the cache by its ETag. first-ms is the first read, which
// also loads the tree and renders the page.
func BenchmarkPublishedPage10k(b *testing.B) {
	e := bigSite(b)
	read := get(b, e.Env, testenv.Actor{}, "/sites/big/page-0-of-section-57/page-42-of-section-57")
	first := perRequest(1, read)
	compare(b, read)
	b.ReportMetric(float64(first)/1e6, "first-ms")
}

// publishedSite is a server with a published site ("big") over one space.
type publishedSite struct {
	*testenv.Env
	admin            testenv.Actor
	org, space, site string
}

// bigSite publishes a site over a space of 10,000 pages (100 sections of 100).
func bigSite(b *testing.B) publishedSite {
	e := publishedSite{Env: testenv.New(b)}
	e.admin, e.org = e.Bootstrap("admin@example.com", "Bench")
	e.space = e.Do(e.admin, "POST", "/v1/orgs/"+e.org+"/spaces", map[string]any{"title": "Big"}).Map(b)["id"].(string)
	e.WriteRevision(e.space, "", wideTree(100, 100))
	e.site = e.Do(e.admin, "POST", "/v1/orgs/"+e.org+"/sites", map[string]any{"title": "Big docs", "spaces": []string{e.space}}).Map(b)["id"].(string)
	e.Store.Client.Site.UpdateOneID(e.site).SetPublished(true).SetBasename("big").ExecX(accounts.System(context.Background()))
	return e
}
