package bench

import (
	"fmt"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// linkedPages is a flat space of n pages, each linking to the next one, to a missing page and to
// the same web page: n bodies, 2n+1 link targets.
func linkedPages(n int) testenv.Content {
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	c := testenv.Content{Bodies: map[string]string{}}
	var entries []tree.Entry
	for i := range n {
		body := fmt.Sprintf("Next: [page %d](/pages/p%05d). Gone: [old](/pages/old%05d). See [the site](https://example.com/).\n",
			i+1, (i+1)%n, i)
		hash := tree.Hash([]byte(body))
		c.Bodies[hash] = body
		entries = append(entries, tree.Entry{Page: &tree.Page{
			ID: fmt.Sprintf("p%05d", i), Order: fmt.Sprintf("a%05d", i), Type: "document",
			Title: fmt.Sprintf("Page %d", i), Slug: fmt.Sprintf("page-%d", i), Body: hash, CreatedAt: at, UpdatedAt: at,
		}})
	}
	c.Tree = tree.New(entries)
	return c
}

// BenchmarkSpaceLinks10k is GET /v1/spaces/{spaceId}/links?limit=100 of a space of 10,000 pages
// whose links were stored as a duplicate stores them (the benchmark writes the content below the
// API, which stores no links, then duplicates the space): every link of the revision is
// checked and sorted for each request, and 100 are answered with their locations. The duplicate
// leaves the targets of the bodies it stored in memory, so first-ms, the first read, finds them
// there too.
func BenchmarkSpaceLinks10k(b *testing.B) {
	e := testenv.New(b, testenv.WithoutReadCache)
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	space := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Linked"}).Map(b)["id"].(string)
	e.WriteRevision(space, "", linkedPages(10000))
	var copied string
	dup := timed(func() { copied = call(b, e, admin, "POST", "/v1/spaces/"+space+"/duplicate", "")["id"].(string) })
	read := get(b, e, admin, "/v1/spaces/"+copied+"/links?limit=100")
	first := perRequest(1, read)
	compare(b, read)
	b.ReportMetric(float64(first)/1e6, "first-ms") // after compare, whose timer reset drops metrics
	b.ReportMetric(float64(dup)/1e6, "duplicate-ms")
}
