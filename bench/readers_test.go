package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/testkit/cputime"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// readers is how many readers read a published site at once in BenchmarkPublishedSiteReaders:
// wrk -c16, as the site was measured from outside.
const readers = 16

// BenchmarkPublishedSiteReaders is readers anonymous readers, each on a connection of its own,
// reading random pages of a published docs site of 44 pages (docsSite) over loopback HTTP,
// against readers reading a handler that writes one of those pages' bytes, in alternate rounds.
// Kept runs the server as `bindery serve` does: a page read again from an unchanged database is
// the answer the read cache kept (decision 367). Computed keeps no answers (`bindery serve
// --read-cache-mb 0`): each view visits the site, reads its structure and revision and takes the
// page rendered under its ETag. It reports views/s, the median and 99th percentile of a view's
// time, the baseline's, x-baseline-views (views/s ÷ the baseline's) and the SQL statements a
// view sends. KeptWritesBeside is Kept with 10 commits a second beside the readers (another
// space's title, as an editor or a rate limit's counters commit): each moves the database's
// version, so the views that follow compute their pages again.
func BenchmarkPublishedSiteReaders(b *testing.B) {
	logToDiscard(b)
	content := docsSite()
	b.Run("Kept", func(b *testing.B) { readRandomPages(b, publishedSiteOn(b, testenv.New(b), content), content) })
	b.Run("KeptWritesBeside", func(b *testing.B) {
		e := publishedSiteOn(b, testenv.New(b), content)
		writeBeside(b, e)
		readRandomPages(b, e, content)
	})
	b.Run("Computed", func(b *testing.B) {
		readRandomPages(b, publishedSiteOn(b, testenv.New(b, testenv.KeepingNoAnswers), content), content)
	})
}

// writeBeside changes the title of a space of e's organization outside the site 10 times a
// second until b ends.
func writeBeside(b *testing.B, e publishedSite) {
	other := e.Do(e.admin, "POST", "/v1/orgs/"+e.org+"/spaces", map[string]any{"title": "Other"}).Map(b)["id"].(string)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for n := 0; ; n++ {
			select {
			case <-done:
				return
			case <-tick.C:
				e.Store.Client.Space.UpdateOneID(other).SetTitle(fmt.Sprintf("Other %d", n)).ExecX(accounts.System(context.Background()))
			}
		}
	}()
	b.Cleanup(func() {
		close(done)
		<-stopped
	})
}

// readRandomPages measures readers reading random pages of e's site over content, against the
// same readers reading a handler that writes the bytes of its first page.
func readRandomPages(b *testing.B, e publishedSite, content testenv.Content) {
	var urls []string
	for _, path := range pagePaths(content) {
		urls = append(urls, e.Server.URL+"/sites/big/"+path)
	}
	site := newReaders(urls)
	page := site.body(b, urls[0])
	static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	}))
	b.Cleanup(static.Close)
	baseline := newReaders([]string{static.URL})
	for _, warm := range []*pageReaders{site, baseline} { // every page rendered, every connection open
		if err := warm.read(len(urls) * readers); err != nil {
			b.Fatal(err)
		}
		warm.took = warm.took[:0]
		warm.elapsed, warm.cpu = 0, 0
	}
	b.ResetTimer()
	const round = 50 * readers
	var statements int64
	for done := 0; done < b.N; done += round {
		var err error
		statements += e.StatementsKeeping(func() { err = site.read(round) })
		if err == nil {
			err = baseline.read(round)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(statements)/float64(len(site.took)), "statements/view")
	site.report(b, "")
	baseline.report(b, "baseline-")
	b.ReportMetric(site.viewsPerSecond()/baseline.viewsPerSecond(), "x-baseline-views")
	b.ReportMetric(float64(site.cpu)/float64(baseline.cpu), "x-baseline-cpu")
}

// pagePaths are the paths of the documents of content.
func pagePaths(content testenv.Content) []string {
	var paths []string
	content.Tree.Walk(func(p *tree.Page, path string) {
		if p.Type == "document" {
			paths = append(paths, path)
		}
	})
	return paths
}

// pageReaders are readers that read random URLs of a list, each over a connection of its own,
// and what their reads took.
type pageReaders struct {
	urls    []string
	client  *http.Client
	mu      sync.Mutex
	took    []time.Duration // each view's time, from sending the request to reading the last byte
	elapsed time.Duration   // the wall time of the rounds
	cpu     time.Duration   // the processor time the process spent in the rounds (readers and server)
}

func newReaders(urls []string) *pageReaders {
	transport := &http.Transport{MaxIdleConnsPerHost: readers, MaxConnsPerHost: readers}
	return &pageReaders{urls: urls, client: &http.Client{Transport: transport}}
}

// body returns the body of url, failing b on anything but a 200.
func (r *pageReaders) body(b *testing.B, url string) []byte {
	res, err := r.client.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d %v", url, res.StatusCode, err)
	}
	return body
}

// read sends n views from readers goroutines, recording each view's time, and returns the first
// failure.
func (r *pageReaders) read(n int) error {
	var wg sync.WaitGroup
	errs := make([]error, readers)
	start, startCPU := time.Now(), cputime.Process()
	for c := range readers {
		wg.Go(func() {
			took := make([]time.Duration, 0, n/readers)
			for range n / readers {
				sent := time.Now()
				if errs[c] = r.view(r.urls[rand.IntN(len(r.urls))]); errs[c] != nil {
					return
				}
				took = append(took, time.Since(sent))
			}
			r.mu.Lock()
			r.took = append(r.took, took...)
			r.mu.Unlock()
		})
	}
	wg.Wait()
	r.elapsed += time.Since(start)
	r.cpu += cputime.Process() - startCPU
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// view reads url to its end, as a browser does, and returns an error for anything but a 200.
func (r *pageReaders) view(url string) error {
	res, err := r.client.Get(url)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil || res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %d %v", url, res.StatusCode, err)
	}
	return nil
}

func (r *pageReaders) viewsPerSecond() float64 { return float64(len(r.took)) / r.elapsed.Seconds() }

// report reports the readers' views/s, the median and 99th percentile of a view's time in
// milliseconds, and the processor time a view cost the process, their names prefixed.
func (r *pageReaders) report(b *testing.B, prefix string) {
	slices.Sort(r.took)
	at := func(q float64) float64 { return float64(r.took[int(q*float64(len(r.took)-1))]) / 1e6 }
	b.ReportMetric(r.viewsPerSecond(), prefix+"views/s")
	b.ReportMetric(float64(r.cpu)/float64(len(r.took))/1e6, prefix+"cpu-ms/view")
	b.ReportMetric(at(0.5), prefix+"p50-ms")
	b.ReportMetric(at(0.99), prefix+"p99-ms")
}

// docsSite is the content of a docs site of 44 pages as a Docusaurus project makes them: five
// groups of guides of 8 or 9 pages, each page a few sections of prose with links, code, a hint, a
// list and a table (docsPage), of 40 to 200 blocks.
func docsSite() testenv.Content {
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	var entries []tree.Entry
	bodies := map[string]string{}
	page := 0
	for g, group := range []string{"Getting started", "Guides", "Configuration", "Reference", "Deployment"} {
		id := fmt.Sprintf("g%d", g)
		entries = append(entries, tree.Entry{Page: &tree.Page{ID: id, Order: fmt.Sprintf("a%d", g), Type: "group",
			Title: group, Slug: strings.ToLower(strings.ReplaceAll(group, " ", "-")), CreatedAt: at, UpdatedAt: at}})
		for i := range 8 + min(g, 1) {
			body := docsPage(page)
			hash := tree.Hash([]byte(body))
			bodies[hash] = body
			entries = append(entries, tree.Entry{Page: &tree.Page{ID: fmt.Sprintf("p%d", page), Parent: id, Order: fmt.Sprintf("a%02d", i),
				Type: "document", Title: fmt.Sprintf("%s %d", group, i), Slug: fmt.Sprintf("page-%d", i), Body: hash, CreatedAt: at, UpdatedAt: at}})
			page++
		}
	}
	return testenv.Content{Tree: tree.New(entries), Bodies: bodies}
}

// docsPage is the body of page n of docsSite: 2 to 10 sections of about 20 blocks.
func docsPage(n int) string {
	var b strings.Builder
	b.WriteString("Welcome to this part of the documentation. It explains what the feature does and when to use it.\n\n")
	for s := range 2 + n*7%9 {
		fmt.Fprintf(&b, "## Step %d: configure the service\n\n", s)
		for p := range 12 {
			fmt.Fprintf(&b, "Paragraph %d explains the **setting** and its *default*, with `a_value`, "+
				"[the next page](/pages/p%d) and [the reference](https://example.com/reference/%d).\n\n", p, (n+1)%44, p)
		}
		b.WriteString("{% hint style=\"info\" %}\nRestart the service after changing **this** setting.\n{% endhint %}\n\n")
		b.WriteString("```yaml\nservice:\n  name: docs\n  port: 8080\n  replicas: 3\n```\n\n")
		b.WriteString("* Install the CLI\n* Run `init`\n* Deploy with *care*\n\n")
		b.WriteString("| Option | Default | Meaning |\n| --- | --- | --- |\n| `port` | 8080 | where it listens |\n| `replicas` | 3 | how many run |\n\n")
		b.WriteString("### Troubleshooting\n\nIf it fails, read the logs and try again.\n\n")
	}
	return b.String()
}
