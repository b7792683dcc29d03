package crawl

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
	"github.com/binderyhq/bindery/internal/text"
)

// site serves a small documentation site: / links to /a and /b (and elsewhere); /a to /a/deep;
// /slow takes a second.
func site() http.Handler {
	text := fetchtest.File{ContentType: "text/plain", Data: []byte("text")}
	s := fetchtest.Site{Pages: map[string]string{
		"/": `<title>Home</title><a href="/a">A</a> <a href="b">B</a> <a href="/old-b">B again</a> <a href="/doc.pdf">pdf</a>
			<a href="/missing">404</a> <a href="/data.txt">text</a> <a href="http://127.0.0.1:1/x">off-site</a> <a href="mailto:x@y">mail</a>
			<img src="/logo.png"><img src="/not-an-image.png"><img src="/big.png">`,
		"/a":      `<h1>A</h1><a href="/a/deep">deep</a><img src="/logo.png">`,
		"/a/deep": `<h1>Deep</h1><a href="/a/deeper">deeper</a>`,
		"/b":      `<h1>B</h1>`,
		"/slow":   `<p>late</p>`,
	}, Files: map[string]fetchtest.File{
		"/logo.png":         {ContentType: "image/png", Data: []byte("PNG")},
		"/big.png":          {ContentType: "image/png", Data: make([]byte, 5000)},
		"/not-an-image.png": text,
		"/data.txt":         text,
	}, Redirects: map[string]string{"/old-b": "/b"}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(time.Second)
		}
		s.ServeHTTP(w, r)
	})
}

// serve starts the site on 127.0.0.2 and returns its URL and a client allowed to reach it.
func serve(t *testing.T) (string, *fetch.Client) {
	t.Helper()
	s := fetchtest.Serve(t, "127.0.0.2", site())
	allow, err := fetch.ParseAllow("127.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	return s.URL, fetch.New(allow)
}

func crawl(t *testing.T, start string, lim Limits) (*Result, error) {
	base, client := serve(t)
	u, err := url.Parse(base + start)
	if err != nil {
		t.Fatal(err)
	}
	return Crawl(context.Background(), client, u, lim)
}

// paths lists the pages and files of a result by URL path.
func paths(r *Result) string {
	var out []string
	for _, p := range r.Site.Pages {
		out = append(out, p.Location.Path)
	}
	for _, f := range r.Site.Files {
		out = append(out, "file:"+f.Location.Path)
	}
	return strings.Join(out, " ")
}

func TestCrawl(t *testing.T) {
	small := DefaultLimits
	small.MaxFileBytes = 1000
	tests := []struct {
		name  string
		edit  func(*Limits)
		want  string
		found int // page URLs met (the home page, 5 it links to, /a/deep, /a/deeper) and the 3 images
	}{
		{"everything", nil, "/ /a /b /a/deep file:/logo.png", 11},
		{"depth 1", func(l *Limits) { l.MaxDepth = 1 }, "/ /a /b file:/logo.png", 9},
		{"three pages", func(l *Limits) { l.MaxPages = 3 }, "/ /a /b file:/logo.png", 10},
		{"one page, no files", func(l *Limits) { l.MaxPages, l.MaxFiles = 1, 0 }, "/", 9},
		{"byte budget spent by the start page", func(l *Limits) { l.MaxTotalBytes = 10 }, "/", 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := small
			if tt.edit != nil {
				tt.edit(&lim)
			}
			r, err := crawl(t, "/", lim)
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(r); got != tt.want || r.Found != tt.found {
				t.Fatalf("got %q (found %d), want %q (found %d)", got, r.Found, tt.want, tt.found)
			}
		})
	}
}

func TestCrawlStartPage(t *testing.T) {
	tests := []struct {
		start string
		lim   func(*Limits)
		want  string
	}{
		{"/missing", nil, "answered 404"},
		{"/data.txt", nil, "not an HTML page (text/plain)"},
		{"/", func(l *Limits) { l.MaxPageBytes = 10 }, "response too large"},
		{"/slow", func(l *Limits) { l.Timeout = 100 * time.Millisecond }, "could not connect to 127.0.0.2"},
	}
	for _, tt := range tests {
		t.Run(tt.start, func(t *testing.T) {
			lim := DefaultLimits
			if tt.lim != nil {
				tt.lim(&lim)
			}
			_, err := crawl(t, tt.start, lim)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}

// TestCrawlRobots: the site's robots.txt decides which linked pages and images are fetched, the
// group naming Bindery's importer before the one for every agent; the start page is fetched
// whatever it says.
func TestCrawlRobots(t *testing.T) {
	tests := []struct {
		name, start string
		status      int
		robots      string
		want        string
	}{
		{"for every agent", "/", 200, "User-agent: *\nDisallow: /a\nDisallow: /logo.png", "/ /b"},
		{"for Bindery", "/", 200, "User-agent: *\nDisallow: /\n\nUser-agent: bindery-import\nDisallow: /b", "/ /a /a/deep file:/logo.png"},
		{"allow within a disallowed folder", "/", 200, "User-agent: *\nDisallow: /a\nAllow: /a/deep", "/ /b file:/logo.png"},
		{"the start page whatever it says", "/a", 200, "User-agent: *\nDisallow: /", "/a"},
		{"no file", "/", 404, "", "/ /a /b /a/deep file:/logo.png"},
		{"an unreadable file", "/", 503, "", "/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.NewServeMux()
			h.Handle("/", site())
			h.HandleFunc("/robots.txt", func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.robots)
			})
			s := fetchtest.Serve(t, "127.0.0.2", h)
			allow, _ := fetch.ParseAllow("127.0.0.2")
			start, _ := url.Parse(s.URL + tt.start)
			lim := DefaultLimits
			lim.MaxFileBytes = 1000
			r, err := Crawl(context.Background(), fetch.New(allow), start, lim)
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(r); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCrawlRobotsRedirect: an allowed link that redirects where robots.txt disallows is not
// imported.
func TestCrawlRobotsRedirect(t *testing.T) {
	s := fetchtest.Serve(t, "127.0.0.2", fetchtest.Site{
		Pages:     map[string]string{"/": `<a href="/old">old</a>`, "/new": `<h1>New</h1>`},
		Redirects: map[string]string{"/old": "/new"},
		Files:     map[string]fetchtest.File{"/robots.txt": {ContentType: "text/plain", Data: []byte("User-agent: *\nDisallow: /new")}},
	})
	allow, _ := fetch.ParseAllow("127.0.0.2")
	start, _ := url.Parse(s.URL + "/")
	r, err := Crawl(context.Background(), fetch.New(allow), start, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(r); got != "/" {
		t.Fatalf("got %q, want only the start page", got)
	}
}

func TestCrawlRefusesLoopback(t *testing.T) {
	base, _ := serve(t)
	u, _ := url.Parse(base + "/")
	_, err := Crawl(context.Background(), fetch.New(fetch.Allow{}), u, DefaultLimits)
	if !errors.Is(err, fetch.ErrRefused) {
		t.Fatalf("err %v, want refused", err)
	}
}

func TestFileName(t *testing.T) {
	for in, want := range map[string]string{"/img/logo.png": "logo.png", "/": "image", "": "image",
		"/" + strings.Repeat("x", 300) + ".png": strings.Repeat("x", 196) + ".png"} {
		if got := fileName(&url.URL{Path: in}); got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCrawlCleansText: a page's NULs and bytes of another encoding (Latin-1 here), and an image
// name decoded from its URL, are cleaned into text every database stores (decision 210).
func TestCrawlCleansText(t *testing.T) {
	s := fetchtest.Serve(t, "127.0.0.2", fetchtest.Site{Pages: map[string]string{
		"/": "<title>Caf\xe9\x00</title><main><h1>Men\xfc</h1><p>a\x00b &#0; <img src=\"/img/x%00y%ff.png\"></p></main>",
	}, Files: map[string]fetchtest.File{"/img/x\x00y\xff.png": {ContentType: "image/png", Data: []byte("PNG")}}})
	allow, err := fetch.ParseAllow("127.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(s.URL + "/")
	r, err := Crawl(context.Background(), fetch.New(allow), u, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Site.Pages) != 1 || len(r.Site.Files) != 1 {
		t.Fatalf("pages %d, files %d", len(r.Site.Pages), len(r.Site.Files))
	}
	p, f := r.Site.Pages[0], r.Site.Files[0]
	for _, s := range []string{p.Title, p.Markdown, f.Name} {
		if text.Problem(s) != "" {
			t.Fatalf("not clean: %q", s)
		}
	}
	if p.Title != "Caf\uFFFD" || !strings.Contains(p.Markdown, "Men\uFFFD") || !strings.Contains(p.Markdown, "ab") {
		t.Fatalf("title %q, markdown %q", p.Title, p.Markdown)
	}
}
