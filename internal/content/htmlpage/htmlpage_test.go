package htmlpage

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// siteURLs knows pages p1 and p2 and file f1.
type siteURLs struct{}

func (siteURLs) Page(id string) string {
	return map[string]string{"p1": "/sites/docs/intro", "p2": "/sites/docs/guides/setup"}[id]
}

func (siteURLs) File(id string) string {
	return map[string]string{"f1": "/sites/docs/~files/f1/diagram.png"}[id]
}

func render(src string) string { return string(Render(src, siteURLs{}).Body) }

func TestRenderMarkdown(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"Table", "| a | b |\n|---|---|\n| 1 | 2 |\n", []string{"<table>", "<th>a</th>", "<td>2</td>"}},
		{"TaskList", "- [x] done\n- [ ] todo\n", []string{`<input checked="" disabled="" type="checkbox"`, `<input disabled="" type="checkbox"`}},
		{"Footnote", "Text[^1].\n\n[^1]: The note.\n", []string{`<sup id="fnref:1">`, `href="#fn:1"`, `<li id="fn:1"`, "The note."}},
		{"Strikethrough", "~~gone~~", []string{"<del>gone</del>"}},
		{"HeadingAnchor", "## Getting started\n", []string{`<h2 id="getting-started">Getting started</h2>`}},
		{"Code", "```go\nfunc main() {}\n```\n", []string{`<pre class="chroma"><code class="language-go">`, `<span class="kd">func</span>`}},
		{"CodeUnknownLanguage", "```nolang\na < b\n```\n", []string{`<code class="language-nolang">a &lt; b`}},
		{"IndentedCode", "    x := 1\n", []string{"<pre class=\"chroma\"><code>x := 1"}},
		{"PageLink", "[Intro](/pages/p1)", []string{`<a href="/sites/docs/intro">Intro</a>`}},
		{"PageLinkAnchor", "[Setup](/pages/p2#linux)", []string{`<a href="/sites/docs/guides/setup#linux">Setup</a>`}},
		{"UnreachablePage", "See [hidden *page*](/pages/p9) now", []string{"See hidden <em>page</em> now"}},
		{"File", "![A diagram](/files/f1)", []string{`<img src="/sites/docs/~files/f1/diagram.png" alt="A diagram">`}},
		{"UnknownFile", "![A diagram](/files/f9)", []string{"<p>A diagram</p>"}},
		{"External", "[Go](https://go.dev)", []string{`<a href="https://go.dev" rel="nofollow">Go</a>`}},
		{"Anchor", "[Below](#below)", []string{`<a href="#below">Below</a>`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := render(c.src)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("want %q in\n%s", w, got)
				}
			}
		})
	}
}

// TestMarkdownLinks: the Markdown readers receive links pages and files where the HTML does,
// with every other byte as stored.
func TestMarkdownLinks(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"PageLink", "Read [Intro](/pages/p1).", "Read [Intro](/sites/docs/intro)."},
		{"PageLinkAnchor", "[Setup](/pages/p2#linux)", "[Setup](/sites/docs/guides/setup#linux)"},
		{"UnreachablePage", "See [hidden *page*](/pages/p9) now", "See hidden *page* now"},
		{"File", "![A diagram](/files/f1 \"Title\")", "![A diagram](/sites/docs/~files/f1/diagram.png \"Title\")"},
		{"UnknownFile", "![A diagram](/files/f9)", "A diagram"},
		{"Reference", "[Intro][i] and [Gone][g]\n\n[i]: /pages/p1\n[g]: /pages/p9\n", "[Intro][i] and Gone\n\n[i]: /sites/docs/intro\n[g]: #\n"},
		{"External", "[Go](https://go.dev) [Below](#below)", "[Go](https://go.dev) [Below](#below)"},
		{"InCode", "`[Intro](/pages/p1)`", "`[Intro](/pages/p1)`"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Markdown(c.src, siteURLs{}); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestRenderRefusesScript(t *testing.T) {
	hostile := []string{
		"<script>alert(1)</script>",
		"<img src=x onerror=alert(1)>",
		"[x](javascript:alert(1))",
		"[x](JaVaScRiPt:alert(1))",
		"![x](javascript:alert(1))",
		"[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
		"<a href=\"javascript:alert(1)\">x</a>",
		"<svg onload=alert(1)>",
		"<iframe src=https://evil.example>",
		"<style>body{display:none}</style>",
		"```\"><script>alert(1)</script>\nx\n```",
		"``` onmouseover=alert(1)\nx\n```",
		"[x](/pages/p1\" onclick=\"alert(1))",
		"<details open ontoggle=alert(1)>",
		"<object data=x></object><embed src=x>",
		"<form action=https://evil.example><input name=q></form>",
	}
	for _, src := range hostile {
		if bad := unsafeMarkup(render(src)); bad != "" {
			t.Errorf("%q renders %s", src, bad)
		}
	}
}

// unsafeMarkup names the first element or attribute of page that could run script or leave the
// page, or returns "".
func unsafeMarkup(page string) string {
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			switch tok.Data {
			case "script", "iframe", "style", "svg", "object", "embed", "form", "link", "meta", "base":
				return "element " + tok.Data
			}
			for _, a := range tok.Attr {
				v := strings.ToLower(strings.TrimSpace(a.Val))
				if strings.HasPrefix(a.Key, "on") || a.Key == "style" || strings.HasPrefix(v, "javascript:") ||
					strings.HasPrefix(v, "data:") || strings.HasPrefix(v, "vbscript:") {
					return "attribute " + a.Key + "=" + a.Val
				}
			}
		}
	}
}

func TestRenderHeadings(t *testing.T) {
	p := Render("# Guide\n\n## Install *it*\n\ntext\n\n### On Linux\n\n## Install it\n", siteURLs{})
	want := []Heading{{1, "guide", "Guide"}, {2, "install-it", "Install it"}, {3, "on-linux", "On Linux"}, {2, "install-it-1", "Install it"}}
	if len(p.Headings) != len(want) {
		t.Fatalf("headings %+v, want %+v", p.Headings, want)
	}
	for i := range want {
		if p.Headings[i] != want[i] {
			t.Errorf("heading %d: %+v, want %+v", i, p.Headings[i], want[i])
		}
	}
}

func TestLongCodeIsNotHighlighted(t *testing.T) {
	src := "```go\n" + strings.Repeat("x := 1\n", maxHighlighted/7+1) + "```\n"
	if got := render(src); strings.Contains(got, `<span class=`) {
		t.Fatal("a code block over the bound was highlighted")
	}
}

func TestCodeCSS(t *testing.T) {
	css := CodeCSS()
	if !strings.Contains(css, ".chroma .k ") || !strings.Contains(css, `[data-theme="dark"] .chroma .k `) {
		t.Fatalf("code CSS lacks light or dark keyword rules:\n%.500s", css)
	}
}

func FuzzRender(f *testing.F) {
	for _, s := range []string{"# a\n", "[x](/pages/p1#a)", "![x](/files/f1)", "```go\nx\n```", "| a |\n|---|\n| b |",
		"<script>x</script>", "[^1]\n\n[^1]: y", "- [ ] t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if bad := unsafeMarkup(string(Render(src, siteURLs{}).Body)); bad != "" {
			t.Fatalf("%q renders %s", src, bad)
		}
	})
}

// BenchmarkRender renders a 30 KB page of prose, links, a table and highlighted code.
func BenchmarkRender(b *testing.B) {
	src := "# Guide\n\n" + strings.Repeat("## Step\n\nRead [the intro](/pages/p1#a) and ![a diagram](/files/f1), "+
		"or [Go](https://go.dev).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```go\nfunc main() { fmt.Println(\"hi\") }\n```\n\n", 120)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Render(src, siteURLs{})
	}
}
