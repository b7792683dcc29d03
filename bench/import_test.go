package bench

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// Shape of the benchmark site: a home page, sections, and pages in each section.
const (
	siteSections        = 9
	sitePagesPerSection = 21
	siteImages          = 20
	sitePages           = 1 + siteSections + siteSections*sitePagesPerSection // 200
)

// benchSite serves a documentation site of sitePages pages of about 4 KB of HTML each (headings,
// a list, code, a table, links to neighbours, an image of 8 KB from a set of siteImages).
func benchSite() http.Handler {
	image := make([]byte, 8<<10)
	body := strings.Repeat("<p>A paragraph of documentation, with <strong>some</strong> <em>markup</em> and <code>code</code>.</p>\n", 20)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var s, p int
		switch {
		case strings.HasPrefix(r.URL.Path, "/img/"):
			w.Header().Set("Content-Type", "image/png")
			w.Write(image)
			return
		case r.URL.Path == "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<main><h1>Home</h1><ul>")
			for s := range siteSections {
				fmt.Fprintf(w, `<li><a href="/s%d/">Section %d</a></li>`, s, s)
			}
			fmt.Fprint(w, "</ul></main>")
			return
		}
		n, _ := fmt.Sscanf(r.URL.Path, "/s%d/p%d", &s, &p)
		if n == 0 {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		title := fmt.Sprintf("Section %d", s)
		if n == 2 {
			title = fmt.Sprintf("Page %d.%d", s, p)
		}
		fmt.Fprintf(w, `<html><head><title>%s</title></head><body><nav><a href="/">Home</a></nav><main><h1>%s</h1>%s
			<ul><li>one</li><li>two</li></ul><pre><code class="language-go">func main() { fmt.Println(%d) }
</code></pre><table><tr><th>Key</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
			<p><img src="/img/%d.png" alt="figure"></p><ul>`, title, title, body, p, (s*sitePagesPerSection+p)%siteImages)
		if n == 1 {
			for i := range sitePagesPerSection {
				fmt.Fprintf(w, `<li><a href="/s%d/p%d">Page %d.%d</a></li>`, s, i, s, i)
			}
		} else {
			fmt.Fprintf(w, `<li><a href="/s%d/p%d">next</a></li><li><a href="/s%d/">up</a></li>`, s, (p+1)%sitePagesPerSection, s)
		}
		fmt.Fprint(w, "</ul></main></body></html>")
	})
}

// BenchmarkImportWebsite200 imports a 200-page local website (served on 127.0.0.2, which the
// server's allow-list opens) into a new space per iteration: crawl, conversion and one revision.
// The bound to keep is 10 s per import.
func BenchmarkImportWebsite200(b *testing.B) {
	site := fetchtest.Serve(b, "127.0.0.2", benchSite())
	allow, err := fetch.ParseAllow("127.0.0.2")
	if err != nil {
		b.Fatal(err)
	}
	e := testenv.New(b, testenv.WithoutReadCache, func(o *server.Options) { o.FetchAllow = allow })
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		space := call(b, e, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"Imported"}`)["id"].(string)
		b.StartTimer()
		var answer map[string]any
		total += timed(func() {
			answer = call(b, e, admin, "POST", "/v1/spaces/"+space+"/content/import", fmt.Sprintf(`{"source":"website","url":%q}`, site.URL+"/"))
		})
		if got := answer["importedResources"]; got != float64(sitePages+siteImages) {
			b.Fatalf("imported %v resources, want %d pages and %d images", got, sitePages, siteImages)
		}
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/import")
}
