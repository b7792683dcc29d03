// Package crawl fetches a website to import: the start page, then the same-site pages it links
// to, breadth first, then the images those pages show, every request through the SSRF-guarded
// client, as the site's robots.txt allows, and the whole within named bounds.
package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/temoto/robotstxt"

	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/text"
)

// Limits bound one website import.
type Limits struct {
	MaxPages      int           // pages fetched, the start page included
	MaxDepth      int           // links followed from the start page to reach a page
	MaxPageBytes  int64         // the largest page (HTML) fetched
	MaxFiles      int           // images downloaded
	MaxFileBytes  int64         // the largest image (a file of a revision holds at most edit.MaxFileSize)
	MaxTotalBytes int64         // everything fetched together
	Timeout       time.Duration // the whole crawl; what is fetched by then is imported
	Parallel      int           // requests at once
}

// DefaultLimits fit the request deadline of 30 seconds, with room to write the revision.
var DefaultLimits = Limits{MaxPages: 500, MaxDepth: 10, MaxPageBytes: 2 << 20, MaxFiles: 500,
	MaxFileBytes: edit.MaxFileSize, MaxTotalBytes: 64 << 20, Timeout: 20 * time.Second, Parallel: 4}

// Result is a crawled site.
type Result struct {
	Site importer.Site
	// Found is how many pages and images the crawl came across, imported or not (the bounds,
	// failed requests and non-HTML answers leave some out).
	Found int
}

// Crawl fetches the site of start. The start page must answer 200 with HTML, else its error is
// returned (fetch.ErrRefused when its address, or a redirect's, is refused); other pages and
// images that fail are left out. Same-site means the host of the start page after redirects.
func Crawl(ctx context.Context, client *fetch.Client, start *url.URL, lim Limits) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	c := &crawler{client: client, lim: lim, seenPages: map[string]bool{}, seenFiles: map[string]bool{}}
	first, err := c.page(ctx, start)
	if err != nil {
		return nil, err
	}
	c.site = first.url.Host
	c.robots = c.readRobots(ctx, first.url)
	c.seenPages[importer.PageKey(first.url)] = true
	pages := []*fetched{first}
	level := []*fetched{first}
	for depth := 1; depth <= lim.MaxDepth && len(level) > 0 && ctx.Err() == nil; depth++ {
		level = c.fetchPages(ctx, c.unseenLinks(level, len(pages)))
		pages = append(pages, level...)
	}
	return c.result(ctx, pages), nil
}

// crawler is the state of one crawl.
type crawler struct {
	client    *fetch.Client
	lim       Limits
	site      string // host of the start page
	robots    *robotstxt.RobotsData
	seenPages map[string]bool
	seenFiles map[string]bool
	bytes     atomic.Int64
}

// fetched is a page fetched and converted.
type fetched struct {
	url  *url.URL
	html *importer.HTMLPage
}

// page fetches and converts one page.
func (c *crawler) page(ctx context.Context, u *url.URL) (*fetched, error) {
	res, err := c.get(ctx, u, c.lim.MaxPageBytes)
	if err != nil {
		return nil, err
	}
	if res.ContentType != "text/html" && res.ContentType != "application/xhtml+xml" {
		return nil, fmt.Errorf("%s is not an HTML page (%s)", res.URL.Redacted(), res.ContentType)
	}
	// A page is not the caller's text: stray NULs and bytes of another encoding are cleaned, not
	// refused, so that one odd page does not fail the import (decision 210).
	converted, err := importer.ConvertHTML(res.URL, []byte(text.Clean(string(res.Body))))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", res.URL.Redacted(), err)
	}
	return &fetched{url: res.URL, html: converted}, nil
}

// get fetches u within the byte budget; only a 200 answer is content.
func (c *crawler) get(ctx context.Context, u *url.URL, max int64) (*fetch.Response, error) {
	if c.bytes.Load() >= c.lim.MaxTotalBytes {
		return nil, fmt.Errorf("the import fetched %d bytes already", c.lim.MaxTotalBytes)
	}
	res, err := c.client.Get(ctx, u, max)
	if err != nil {
		return nil, err
	}
	c.bytes.Add(int64(len(res.Body)))
	if res.Status != 200 {
		return nil, fmt.Errorf("%s answered %d", res.URL.Redacted(), res.Status)
	}
	return res, nil
}

// maxRobotsBytes is how much of a robots.txt is read (RFC 9309 asks crawlers to read 500 KiB at
// least).
const maxRobotsBytes = 512 << 10

// readRobots reads the rules the site's robots.txt (RFC 9309) gives Bindery's importer, else
// every agent. The start page is fetched whatever they say, since a person asked for it; the
// rules decide which of the pages and images it leads to are. A site without the file (4xx)
// allows everything; one whose file cannot be read (5xx, an error, a file too large) allows
// nothing more than the start page, as the RFC asks.
func (c *crawler) readRobots(ctx context.Context, site *url.URL) *robotstxt.RobotsData {
	status, body := http.StatusServiceUnavailable, []byte(nil)
	res, err := c.client.Get(ctx, &url.URL{Scheme: site.Scheme, Host: site.Host, Path: "/robots.txt"}, maxRobotsBytes)
	if err == nil {
		c.bytes.Add(int64(len(res.Body)))
		status, body = res.Status, res.Body
	}
	robots, err := robotstxt.FromStatusAndBytes(status, body)
	if err != nil { // a status the library does not know: as unreadable
		robots, _ = robotstxt.FromStatusAndBytes(http.StatusServiceUnavailable, nil)
	}
	return robots
}

// allowed reports whether the site's robots.txt lets Bindery fetch u.
func (c *crawler) allowed(u *url.URL) bool {
	target := u.EscapedPath()
	if u.RawQuery != "" {
		target += "?" + u.RawQuery
	}
	return c.robots.TestAgent(target, fetch.Agent)
}

// unseenLinks returns the same-site page links of the pages not met before, in order, as many as
// the page bound leaves room for after have pages.
func (c *crawler) unseenLinks(pages []*fetched, have int) []*url.URL {
	var out []*url.URL
	for _, p := range pages {
		for _, l := range p.html.Links {
			key := importer.PageKey(l)
			if !c.samePage(l) || c.seenPages[key] {
				continue
			}
			c.seenPages[key] = true
			if have+len(out) < c.lim.MaxPages && c.allowed(l) {
				out = append(out, l)
			}
		}
	}
	return out
}

// samePage reports whether a link may lead to a page of the site.
func (c *crawler) samePage(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, c.site) && !notPage[strings.ToLower(path.Ext(u.Path))]
}

// notPage are extensions of links not worth fetching as pages.
var notPage = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".webp": true,
	".ico": true, ".pdf": true, ".zip": true, ".gz": true, ".tar": true, ".css": true, ".js": true, ".json": true,
	".xml": true, ".mp3": true, ".mp4": true, ".webm": true, ".woff": true, ".woff2": true, ".ttf": true, ".exe": true}

// fetchPages fetches pages at once (Parallel at a time) and returns those that are same-site HTML
// not seen under another URL (a redirect) nor redirected to where robots.txt disallows, in the
// order of urls.
func (c *crawler) fetchPages(ctx context.Context, urls []*url.URL) []*fetched {
	got := make([]*fetched, len(urls))
	c.parallel(len(urls), func(i int) {
		got[i], _ = c.page(ctx, urls[i]) // a page that fails is left out
	})
	var out []*fetched
	for i, p := range got {
		if p == nil || !strings.EqualFold(p.url.Host, c.site) || !c.allowed(p.url) {
			continue
		}
		if key := importer.PageKey(p.url); key != importer.PageKey(urls[i]) {
			if c.seenPages[key] {
				continue // redirected to a page met already
			}
			c.seenPages[key] = true
		}
		out = append(out, p)
	}
	return out
}

// parallel runs fn for 0..n-1, Parallel at a time, and waits.
func (c *crawler) parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, max(1, c.lim.Parallel))
	for i := range n {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			fn(i)
		}()
	}
	wg.Wait()
}

// result downloads the images of the pages and assembles the site.
func (c *crawler) result(ctx context.Context, pages []*fetched) *Result {
	var images []*url.URL
	r := &Result{Site: importer.Site{Dialect: importer.DialectWebsite}}
	for _, p := range pages {
		r.Site.Pages = append(r.Site.Pages, importer.Page{Location: p.url, Title: p.html.Title, Markdown: p.html.Markdown})
		r.Site.Report = append(r.Site.Report, p.html.Report(p.url))
		for _, img := range p.html.Images {
			if key := importer.FileKey(img); !c.seenFiles[key] {
				c.seenFiles[key] = true
				images = append(images, img)
			}
		}
	}
	r.Found = len(c.seenPages) + len(images)
	images = slices.DeleteFunc(images, func(u *url.URL) bool { return !c.allowed(u) })
	images = images[:min(len(images), c.lim.MaxFiles)]
	files := make([]*importer.File, len(images))
	c.parallel(len(images), func(i int) { files[i] = c.image(ctx, images[i]) })
	for _, f := range files {
		if f != nil {
			r.Site.Files = append(r.Site.Files, *f)
		}
	}
	return r
}

// image downloads one image; nil when it fails or is not an image.
func (c *crawler) image(ctx context.Context, u *url.URL) *importer.File {
	res, err := c.get(ctx, u, c.lim.MaxFileBytes)
	if err != nil || !strings.HasPrefix(res.ContentType, "image/") {
		return nil
	}
	return &importer.File{Location: u, Name: fileName(res.URL), ContentType: res.ContentType, Data: res.Body}
}

// fileName is the last segment of an image's path, else "image", at most 200 bytes.
func fileName(u *url.URL) string {
	name := path.Base(u.Path)
	if name == "/" || name == "." || name == "" {
		return "image"
	}
	if len(name) > 200 {
		name = name[len(name)-200:]
	}
	return text.Clean(name)
}
