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
	e := testenv.New(b)
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	space := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Big"}).Map(b)["id"].(string)
	e.WriteRevision(space, "", wideTree(100, 100))
	site := e.Do(admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Big docs", "spaces": []string{space}}).Map(b)["id"].(string)
	e.Store.Client.Site.UpdateOneID(site).SetPublished(true).SetBasename("big").ExecX(accounts.System(context.Background()))
	read := get(b, e, testenv.Actor{}, "/sites/big/page-0-of-section-57/page-42-of-section-57")
	first := perRequest(1, read)
	compare(b, read)
	b.ReportMetric(float64(first)/1e6, "first-ms")
}
