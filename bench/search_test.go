package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/search"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// Search corpus: pages of the wideTree layout, each split into sectionsPerPage sections of
// wordsPerSection words drawn from a vocabulary with a Zipf distribution (as natural text is: a
// few words everywhere, most words rare).
const (
	searchSections     = 100
	searchPerSection   = 100
	sectionsPerPage    = 10 // 100 × 100 pages × 10 = 100,000 sections
	wordsPerSection    = 60
	searchVocabulary   = 20000
	searchSeedPerBatch = 1000 // pages indexed per transaction while seeding
)

// vocabulary makes n distinct pronounceable words, the most frequent first.
func vocabulary(n int) []string {
	syllables := []string{"ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "den", "por", "lin", "gra", "sto", "ber", "qui", "mas"}
	words := make([]string, n)
	for i := range words {
		var b strings.Builder
		for x := i + 1; x > 0; x /= len(syllables) {
			b.WriteString(syllables[x%len(syllables)])
		}
		words[i] = b.String() + "x" // x ends words only: no word begins another
	}
	return words
}

// seedSearch indexes 100,000 sections for the pages of content, directly through the search
// package (authoring them over HTTP would take too long), and returns the vocabulary.
func seedSearch(b testing.TB, e *testenv.Env, spaceID string, content testenv.Content) []string {
	words := vocabulary(searchVocabulary)
	zipf := rand.NewZipf(rand.New(rand.NewPCG(1, 2)), 1.07, 2, searchVocabulary-1)
	text := func(n int) string {
		out := make([]string, n)
		for i := range out {
			out[i] = words[zipf.Uint64()]
		}
		return strings.Join(out, " ")
	}
	var pages []*tree.Page
	content.Tree.Walk(func(p *tree.Page, _ string) { pages = append(pages, p) })
	ctx := accounts.System(context.Background())
	for batch := range slices.Chunk(pages, searchSeedPerBatch) {
		var ids []string
		var sections []search.Section
		for _, p := range batch {
			ids = append(ids, p.ID)
			for i := range sectionsPerPage {
				s := search.Section{PageID: p.ID, Ordinal: i, Title: p.Title, Body: text(wordsPerSection)}
				if i > 0 {
					s.Heading = text(3)
					s.Anchor = fmt.Sprintf("h%d", i)
				}
				sections = append(sections, s)
			}
		}
		tx, err := e.Store.Client.Tx(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := search.New(e.Store.Postgres()).Replace(ctx, tx, spaceID, ids, sections); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	analyzeAfterBulkLoad(b, e)
	return words
}

// BenchmarkSearchSpace100k is GET /v1/spaces/{id}/search over a space of 10,000 pages indexed as
// 100,000 sections, for queries of a word found in about 3,000, 600 and 60 sections, two words, and
// a prefix. It reports the median and the 99th percentile of the request times (the bounds
// are 20 and 50 ms) and the mean as a ratio to the fixed-bytes baseline.
func BenchmarkSearchSpace100k(b *testing.B) {
	e := testenv.New(b, testenv.WithoutReadCache)
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	space := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Big"}).Map(b)["id"].(string)
	content := wideTree(searchSections, searchPerSection)
	e.WriteRevision(space, "", content)
	words := seedSearch(b, e, space, content)
	queries := []struct{ name, query string }{
		{"Rare", words[3000]},
		{"Medium", words[300]},
		{"Common", words[100]},
		{"TwoWords", words[100] + " " + words[300]},
		{"Typing", words[1000][:4]},
		{"Stopword", words[30]},
		{"Everywhere", words[0]},
	}
	for _, q := range queries {
		b.Logf("%s %q: %d pages match", q.name, q.query, matchingPages(b, e, space, q.query))
		b.Run(q.name, func(b *testing.B) {
			read := get(b, e, admin, "/v1/spaces/"+space+"/search?limit=20&query="+url.QueryEscape(q.query))
			var times []time.Duration
			compare(b, func() { times = append(times, timed(read)) })
			times = times[1:] // the warm-up request
			slices.Sort(times)
			b.ReportMetric(ms(times[len(times)/2]), "median-ms")
			b.ReportMetric(ms(times[len(times)*99/100]), "p99-ms")
		})
	}
}

// matchingPages is how many pages of the space a query finds.
func matchingPages(b *testing.B, e *testenv.Env, spaceID, query string) int {
	terms, err := search.ParseQuery(query)
	if err != nil {
		b.Fatal(err)
	}
	_, n, err := search.New(e.Store.Postgres()).Pages(context.Background(), e.Store.Client, search.Query{Terms: terms, Spaces: []string{spaceID}})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
