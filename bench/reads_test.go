package bench

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// wideTree is a documentation tree of sections × perSection pages: each section page holds
// perSection-1 pages, all with a body and realistic titles and slugs.
func wideTree(sections, perSection int) testenv.Content {
	return wideTreeOf(sections, perSection, strings.Repeat("A line of a page of documentation, long enough to be typical.\n", 16))
}

// wideTreeOf is wideTree with every page's body the one given.
func wideTreeOf(sections, perSection int, body string) testenv.Content {
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	hash := tree.Hash([]byte(body))
	var entries []tree.Entry
	for s := range sections {
		section := fmt.Sprintf("s%04d", s)
		for i := range perSection {
			id, parent := fmt.Sprintf("%s-%04d", section, i), section
			if i == 0 {
				id, parent = section, ""
			}
			entries = append(entries, tree.Entry{Page: &tree.Page{
				ID: id, Parent: parent, Order: fmt.Sprintf("a%04d", i+s), Type: "document",
				Title: fmt.Sprintf("Page %d of section %d", i, s), Slug: fmt.Sprintf("page-%d-of-section-%d", i, s),
				Body: hash, CreatedAt: at, UpdatedAt: at,
			}})
		}
	}
	return testenv.Content{Tree: tree.New(entries), Bodies: map[string]string{hash: body}}
}

// BenchmarkContentPages10k is GET …/content/pages of a space of 10,000 pages (100 sections of 100):
// the whole tree with each page's computed path. first-ms is the first read, which loads the tree
// from the database and encodes it; the measured reads find both cached by the root hash.
func BenchmarkContentPages10k(b *testing.B) {
	e := testenv.New(b, testenv.WithoutReadCache)
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	space := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Big"}).Map(b)["id"].(string)
	e.WriteRevision(space, "", wideTree(100, 100))
	read := get(b, e, admin, "/v1/spaces/"+space+"/content/pages")
	first := perRequest(1, read)
	compare(b, read)
	b.ReportMetric(float64(first)/1e6, "first-ms") // after compare, whose timer reset drops metrics
}
