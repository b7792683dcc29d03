package bench

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// BenchmarkPublishedRedirect10k is an anonymous reader's GET of an old path of a published site
// over a space of 10,000 pages (100 sections of 100), after a merge renamed the section page
// above it (100 moved pages recorded) and with 500 site redirects (half of them wildcards): the
// path names no page, matches no site redirect, and answers 308 to the page's new URL. x-page is
// its time over that of reading the page itself (cached by its ETag); rename-merge-ms is the merge
// that renamed the section.
func BenchmarkPublishedRedirect10k(b *testing.B) {
	big := bigSite(b)
	e, admin, org, space, site := big.Env, big.admin, big.org, big.space, big.site
	var items []string
	for i := range 500 {
		source := fmt.Sprintf("/old-%d", i)
		if i%2 == 0 {
			source += "/*"
		}
		items = append(items, fmt.Sprintf(`{"source":%q,"destination":{"kind":"external","url":"https://example.com/"}}`, source))
	}
	call(b, e, admin, "PUT", "/v1/orgs/"+org+"/sites/"+site+"/redirects", `{"redirects":[`+strings.Join(items, ",")+`]}`)
	crs := "/v1/spaces/" + space + "/change-requests"
	number := fmt.Sprint(call(b, e, admin, "POST", crs, `{}`)["number"])
	call(b, e, admin, "POST", crs+"/"+number+"/content", `{"changes":[{"operation":"update_page","page":"s0057","slug":"renamed-57"}]}`)
	renameMerge := timed(func() { call(b, e, admin, "POST", crs+"/"+number+"/merge", "") })

	old := redirected(b, e, "/sites/big/page-0-of-section-57/page-42-of-section-57", "/sites/big/renamed-57/page-42-of-section-57")
	page := get(b, e, testenv.Actor{}, "/sites/big/renamed-57/page-42-of-section-57")
	page()
	compare(b, old)
	b.StopTimer()
	var pageTime, oldTime time.Duration
	for range 5 {
		pageTime += perRequest(40, page)
		oldTime += perRequest(40, old)
	}
	b.ReportMetric(float64(oldTime)/float64(pageTime), "x-page")
	b.ReportMetric(float64(renameMerge)/1e6, "rename-merge-ms")
}

// redirected returns a GET of path that must answer 308 to location.
func redirected(b *testing.B, e *testenv.Env, path, location string) func() {
	client := *e.Server.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return func() {
		res, err := client.Get(e.Server.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusPermanentRedirect || res.Header.Get("Location") != location {
			b.Fatalf("%s: %d to %q", path, res.StatusCode, res.Header.Get("Location"))
		}
	}
}
