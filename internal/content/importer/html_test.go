package importer

import (
	"net/url"
	"strings"
	"testing"
)

const guidePage = `<!doctype html><html><head><title> Intro —
	Docs </title></head><body><nav><a href="/">Home</a><a href="../api/">API</a></nav>
<main><h1>Getting <em>started</em></h1><p>Read <a href="install.html#req">install</a> and <a href="https://go.dev">Go</a>.</p>
<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul><ol><li>first</li></ol>
<pre><code class="language-go">func main() {}
</code></pre>
<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>
<p><img src="../img/logo.png" alt="Logo"> <img src="../img/logo.png"> <img src="data:image/png;base64,AAAA"></p>
<script>alert(1)</script><form><input value="secret"></form></main><footer>Copyright</footer></body></html>`

func mustParse(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestConvertHTML(t *testing.T) {
	p, err := ConvertHTML(mustParse(t, "http://docs.test/guide/intro.html"), []byte(guidePage))
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "Intro — Docs" {
		t.Errorf("title %q", p.Title)
	}
	for _, want := range []string{
		"# Getting *started*\n",
		"[install](http://docs.test/guide/install.html#req)",
		"[Go](https://go.dev)",
		"- one\n- two\n",
		"  - nested",
		"1. first",
		"```go\nfunc main() {}\n```",
		"| A | B |\n|---|---|\n| 1 | 2 |",
		"![Logo](http://docs.test/img/logo.png)",
	} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, p.Markdown)
		}
	}
	for _, gone := range []string{"Home", "alert", "secret", "Copyright", "THE END"} {
		if strings.Contains(p.Markdown, gone) {
			t.Errorf("Markdown keeps %q:\n%s", gone, p.Markdown)
		}
	}
	wantLinks := "http://docs.test/ http://docs.test/api/ http://docs.test/guide/install.html#req https://go.dev"
	if got := joinURLs(p.Links); got != wantLinks {
		t.Errorf("links %s, want %s", got, wantLinks)
	}
	if got := joinURLs(p.Images); got != "http://docs.test/img/logo.png" {
		t.Errorf("images %s", got)
	}
}

func TestConvertHTMLContentAndBase(t *testing.T) {
	tests := []struct {
		name, html, want, links string
	}{
		{"article without main", `<body><p>chrome</p><article><p>the text</p></article></body>`, "the text", ""},
		{"role main", `<body><div>chrome</div><div role="main">the text</div></body>`, "the text", ""},
		{"body", `<body><p>the text <a href="x">x</a></p></body>`, "the text [x](http://docs.test/a/x)", "http://docs.test/a/x"},
		{"base href", `<head><base href="/other/"></head><body><a href="x">x</a></body>`, "[x](http://docs.test/other/x)", "http://docs.test/other/x"},
		{"not HTML at all", "just text", "just text", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ConvertHTML(mustParse(t, "http://docs.test/a/b"), []byte(tt.html))
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(p.Markdown) != tt.want {
				t.Errorf("Markdown %q, want %q", p.Markdown, tt.want)
			}
			if got := joinURLs(p.Links); got != tt.links {
				t.Errorf("links %q, want %q", got, tt.links)
			}
		})
	}
}

func joinURLs(us []*url.URL) string {
	var s []string
	for _, u := range us {
		s = append(s, u.String())
	}
	return strings.Join(s, " ")
}

func FuzzConvertHTML(f *testing.F) {
	f.Add([]byte(guidePage))
	f.Add([]byte(`<base href="http://[::1"><a href="%zz">x</a><img src=":">`))
	f.Add([]byte(`<table><tr><td rowspan=9999>x</td></tr></table><pre><code>` + "```" + `</code></pre>`))
	page := mustParse(f, "http://docs.test/a/b")
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := ConvertHTML(page, src)
		if err != nil {
			return
		}
		for _, u := range append(p.Links, p.Images...) {
			if !u.IsAbs() {
				t.Fatalf("relative URL %s", u)
			}
		}
	})
}
