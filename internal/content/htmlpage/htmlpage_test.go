package htmlpage

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/testkit/cputime"
	"github.com/binderyhq/bindery/internal/testkit/pagebodies"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// siteURLs knows pages p1 and p2 and file f1.
type siteURLs struct{}

func (siteURLs) Page(id string) string {
	return map[string]string{"p1": "/sites/docs/intro", "p2": "/sites/docs/guides/setup"}[id]
}

func (siteURLs) File(id string) string {
	return map[string]string{"f1": "/sites/docs/~files/f1/diagram.png"}[id]
}

func (siteURLs) PageTitle(id string) string {
	return map[string]string{"p1": "Introduction", "p2": "Setup"}[id]
}

func (siteURLs) FileName(id string) string { return map[string]string{"f1": "diagram.png"}[id] }

func render(src string) string { return string(renderMarkdown(src, siteURLs{}).Body) }

// renderMarkdown renders stored Markdown as a published page is: its document, rendered.
func renderMarkdown(src string, links Links) Page { return Document(document.FromMarkdown(src), links) }

// TestRenderBlocks renders a page holding every block the document model supports against its
// golden HTML (go test -run TestRenderBlocks -update rewrites it).
func TestRenderBlocks(t *testing.T) {
	src, err := os.ReadFile("testdata/blocks.md")
	if err != nil {
		t.Fatal(err)
	}
	got := render(string(src))
	if *update {
		if err := os.WriteFile("testdata/blocks.html", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/blocks.html")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the rendered page differs from testdata/blocks.html (-update rewrites it):\n%s", got)
	}
	if bad := unsafeMarkup(got); bad != "" {
		t.Errorf("the page renders %s", bad)
	}
}

// TestRenderInlines renders texts with every mark, colors, links of every kind, bare URLs and
// footnotes against their golden HTML, and the benchmarks' page of 100 blocks against its own
// (go test -run TestRenderInlines -update rewrites them): the renderer's speed work keeps every byte.
func TestRenderInlines(t *testing.T) {
	src, err := os.ReadFile("testdata/inlines.md")
	if err != nil {
		t.Fatal(err)
	}
	for golden, md := range map[string]string{"testdata/inlines.html": string(src), "testdata/blocks100.html": pagebodies.Blocks(1)} {
		got := render(md)
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("the rendered page differs from %s (-update rewrites it):\n%s", golden, got)
		}
	}
}

// TestRenderBlock: what each block renders as, and what users relied on from the CommonMark
// renderer before it (links rewritten, hidden pages as text, anchors, tables, task lists).
func TestRenderBlock(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"Paragraph", "Hello **bold** *it* ~~gone~~ `x < y`", []string{"<p>Hello <strong>bold</strong> <em>it</em> <del>gone</del> <code>x &lt; y</code></p>"}},
		{"HardBreak", "a\\\nb", []string{"<p>a<br>\nb</p>"}},
		{"EmojiAndIcons", "Yes 👍🏽 <i class=\"fa-check\" style=\"color:$success;\">:check:</i>", []string{
			`<p>Yes 👍🏽 <span class="icon icon-check color-success" role="img" aria-label="check"></span></p>`}},
		{"Mention", `See [x](/pages/p1 "mention") and [gone](/pages/hidden "mention").`, []string{
			`<p>See <a class="mention" href="`}},
		{"Color", `<mark style="color:red;background-color:$tint;">**x**</mark>`, []string{
			`<p><mark class="color" data-text="red" data-background="tint"><strong>x</strong></mark></p>`}},
		{"UnevaluatedConditions", "{% if visitor.claims.a %}\nSecret.\n{% endif %}\n\nHi <code class=\"expression\">visitor.claims.n</code>.", []string{
			"<p>Hi .</p>"}},
		{"TagMarks", "Press <kbd>Ctrl</kbd>, H<sub>2</sub>O, x<sup>**2**</sup>", []string{"<p>Press <kbd>Ctrl</kbd>, H<sub>2</sub>O, x<sup><strong>2</strong></sup></p>"}},
		{"Heading", "## Getting started\n", []string{`<h2 id="getting-started">Getting started</h2>`}},
		{"HeadingLevels", "## A\n\n### B\n\n#### C\n", []string{`<h2 id="a">A</h2>`, `<h3 id="b">B</h3>`, `<h4 id="c">C</h4>`}},
		{"Table", "| a | b |\n|---|--:|\n| 1 | 2 |\n", []string{"<table>", "<th>a</th>", `<th class="align-right">b</th>`, `<td class="align-right">2</td>`}},
		{"TaskList", "- [x] done\n- [ ] todo\n", []string{`<ul class="tasks">`, `<li><input type="checkbox" disabled checked> done</li>`, `<li><input type="checkbox" disabled> todo</li>`}},
		{"OrderedStart", "3. c\n4. d\n", []string{`<ol start="3">`, "<li>c</li>"}},
		{"Code", "```go\nfunc main() {}\n```\n", []string{`<figure class="code"><pre class="chroma"><code class="language-go"><span class="line"><span class="kd">func</span>`}},
		{"CodeUnknownLanguage", "```nolang\na < b\n```\n", []string{`<code class="language-nolang"><span class="line">a &lt; b` + "\n</span>"}},
		{"CodeTitleLineNumbersWrap", "{% code title=\"a.sh\" lineNumbers=\"true\" overflow=\"wrap\" %}\n```\nls\n```\n{% endcode %}\n",
			[]string{`<figure class="code" data-wrap><figcaption>a.sh</figcaption><pre class="chroma" data-line-numbers><code>`}},
		{"IndentedCode", "    x := 1\n", []string{`<pre class="chroma"><code><span class="line">x := 1`}},
		{"Hint", "{% hint style=\"warning\" %}\nCareful.\n{% endhint %}\n",
			[]string{`<div class="hint" data-style="warning" role="alert"><p class="hint-label">Warning</p>` + "\n<p>Careful.</p>\n</div>"}},
		{"HintInfo", "{% hint style=\"info\" %}\nNote.\n{% endhint %}\n", []string{`role="note"><p class="hint-label">Info</p>`}},
		{"Tabs", "{% tabs %}\n{% tab title=\"A\" %}\nOne.\n{% endtab %}\n{% tab %}\nTwo.\n{% endtab %}\n{% endtabs %}\n", []string{
			`<div class="tabs"><div role="tablist"><button type="button" role="tab" id="tabs:1:0" aria-controls="tabs:1:0:panel" aria-selected="true">A</button>` +
				`<button type="button" role="tab" id="tabs:1:1" aria-controls="tabs:1:1:panel" aria-selected="false" tabindex="-1">Tab 2</button></div>`,
			`<div role="tabpanel" id="tabs:1:0:panel" aria-labelledby="tabs:1:0" tabindex="0"><p>One.</p>`,
			`<div role="tabpanel" id="tabs:1:1:panel" aria-labelledby="tabs:1:1" tabindex="0" hidden><p>Two.</p>`}},
		{"Expandable", "<details>\n<summary>More *info*</summary>\n\nBody.\n\n</details>\n",
			[]string{`<details class="expandable"><summary>More *info*</summary>` + "\n<p>Body.</p>\n</details>"}},
		{"Stepper", "{% stepper %}\n{% step %}\nOne.\n{% endstep %}\n{% step %}\nTwo.\n{% endstep %}\n{% endstepper %}\n",
			[]string{`<ol class="stepper"><li class="step"><p>One.</p>` + "\n</li><li class=\"step\"><p>Two.</p>\n</li></ol>"}},
		{"Columns", "{% columns %}\n{% column %}\nL.\n{% endcolumn %}\n{% column %}\nR.\n{% endcolumn %}\n{% endcolumns %}\n",
			[]string{`<div class="columns"><div class="column"><p>L.</p>` + "\n</div><div class=\"column\"><p>R.</p>\n</div></div>"}},
		{"Math", "$$\nx^2\n$$\n", []string{`<div class="math"><math display="block"><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">x^2</annotation></semantics></math></div>`}},
		{"MathUnreadable", "$$\n\\nope{<b>}\n$$\n", []string{`<div class="math"><code class="tex">\nope{&lt;b&gt;}</code></div>`}},
		{"InlineMath", "So $$a$$.", []string{`<p>So <math><semantics><mrow><mi>a</mi></mrow>`}},
		{"Divider", "***\n", []string{"<hr>"}},
		{"Quote", "> q\n", []string{"<blockquote><p>q</p>\n</blockquote>"}},
		{"PageLink", "[Intro](/pages/p1)", []string{`<a href="/sites/docs/intro">Intro</a>`}},
		{"PageLinkAnchor", "[Setup](/pages/p2#linux)", []string{`<a href="/sites/docs/guides/setup#linux">Setup</a>`}},
		{"UnreachablePage", "See [hidden *page*](/pages/p9) now", []string{"<p>See hidden <em>page</em> now</p>"}},
		{"SpaceLink", "[Other](/spaces/s1)", []string{"<p>Other</p>"}},
		{"File", "![A diagram](/files/f1)", []string{`<figure class="image"><img src="/sites/docs/~files/f1/diagram.png" alt="A diagram" loading="lazy"></figure>`}},
		{"UnknownFile", "![A diagram](/files/f9)", []string{"<p>A diagram</p>"}},
		{"InlineImage", "An ![icon](/files/f1) here", []string{`<p>An <img src="/sites/docs/~files/f1/diagram.png" alt="icon"> here</p>`}},
		{"Caption", `<figure><img src="/files/f1" alt="D"><figcaption><p>The &lt;caption&gt;</p></figcaption></figure>`,
			[]string{`<figcaption>The &lt;caption&gt;</figcaption>`}},
		{"FileBlock", `{% file src="/files/f1" %}`, []string{`<p class="file"><a href="/sites/docs/~files/f1/diagram.png">diagram.png</a></p>`}},
		{"FileBlockUnknown", `{% file src="/files/f9" %}`, []string{""}},
		{"ContentRef", "{% content-ref url=\"/pages/p2\" %}\n[x](/pages/p2)\n{% endcontent-ref %}\n",
			[]string{`<p class="content-ref"><a class="card" href="/sites/docs/guides/setup">Setup</a></p>`}},
		{"External", "[Go](https://go.dev)", []string{`<a href="https://go.dev" rel="nofollow">Go</a>`}},
		{"Anchor", "[Below](#below)", []string{`<a href="#below">Below</a>`}},
		{"BareURL", "See https://go.dev/doc/. Or www.example.com!", []string{
			`See <a href="https://go.dev/doc/" rel="nofollow">https://go.dev/doc/</a>. Or <a href="http://www.example.com" rel="nofollow">www.example.com</a>!`}},
		{"BareURLInCode", "`https://go.dev`", []string{"<code>https://go.dev</code>"}},
		{"Footnote", "Text[^1] and[^n].\n\n[^1]: The note.\n\n[^n]: The *second*.\n\n[^unused]: No.\n", []string{
			`Text<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup> and<sup id="fnref:2">`,
			`<div class="footnotes" role="doc-endnotes"><hr><ol>` + "\n" + `<li id="fn:1"><p>The note. <a href="#fnref:1" class="footnote-backref" role="doc-backlink">↩︎</a></p></li>` +
				"\n" + `<li id="fn:2"><p>The <em>second</em>. <a href="#fnref:2"`}},
		{"FootnoteUndefined", "Text[^9].", []string{"<p>Text[^9].</p>"}},
		{"RawHTMLIsText", "<div>x</div>", []string{"<p>&lt;div&gt;x&lt;/div&gt;</p>"}},
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

// TestRenderDocument renders what the Markdown encoding does not make: a table without its
// header, a list's start decoded from JSON, a block the model does not support.
func TestRenderDocument(t *testing.T) {
	table := document.Block("table", map[string]any{
		"view":       map[string]any{"type": "grid", "columns": []any{"c0"}, "hideHeader": true},
		"definition": map[string]any{"c0": map[string]any{"id": "c0", "title": "Hidden", "type": "text"}},
		"records": map[string]any{"r1": map[string]any{"orderIndex": "a1", "values": map[string]any{"c0": "f1"}},
			"r0": map[string]any{"orderIndex": "a0", "values": map[string]any{"c0": "f0"}}},
	})
	table.Fragments = []*document.Node{document.Fragment("f0", para("first")), document.Fragment("f1", para("second"))}
	doc := document.New(table,
		document.Block("list-ordered", map[string]any{"start": float64(7)}, document.Block("list-item", nil, para("seven"))),
		document.Block("drawing", nil, para("kept")))
	got := string(Document(doc, siteURLs{}).Body)
	for _, want := range []string{`<div class="table"><table><tbody>` + "\n<tr><td>first</td></tr>\n<tr><td>second</td></tr>",
		`<ol start="7">`, "<p>kept</p>"} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "Hidden") {
		t.Errorf("a hidden header shows:\n%s", got)
	}
}

func para(s string) *document.Node {
	return document.Block("paragraph", nil, document.Text(document.NewLeaf(s)))
}

// TestEmbeds: the providers of the allow list play in a sandboxed frame; anything else is a link,
// and a URL that is not http(s) is text.
func TestEmbeds(t *testing.T) {
	cases := []struct{ url, player string }{
		{"https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"},
		{"https://youtu.be/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"},
		{"https://m.youtube.com/shorts/abc_DEF-123", "https://www.youtube-nocookie.com/embed/abc_DEF-123"},
		{"https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"},
		{"https://vimeo.com/76979871/abcdef", "https://player.vimeo.com/video/76979871?h=abcdef"},
		{"https://www.loom.com/share/0123abcd", "https://www.loom.com/embed/0123abcd"},
		{"https://codepen.io/ada/pen/xyzAB", "https://codepen.io/ada/embed/xyzAB?default-tab=result"},
		{"https://www.figma.com/design/KEY123/Name?node-id=1-2", "https://www.figma.com/embed?embed_host=bindery&amp;url=https%3A%2F%2Fwww.figma.com%2Fdesign%2FKEY123%2FName%3Fnode-id%3D1-2"},
		{"https://www.youtube.com/watch?v=%22%3E%3Cscript%3E", ""},
		{"https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ", ""},
		{"https://evil.example/?youtube.com", ""},
		{"https://codepen.io/ada/pen/x/../../evil", ""},
		{"https://user@www.youtube.com/watch?v=dQw4w9WgXcQ", ""},
	}
	for _, c := range cases {
		got := render(`{% embed url="` + c.url + `" %}`)
		switch {
		case c.player == "" && strings.Contains(got, "<iframe"):
			t.Errorf("%s plays: %s", c.url, got)
		case c.player == "" && !strings.Contains(got, `<p class="embed"><a class="card" href="`):
			t.Errorf("%s is not a link: %s", c.url, got)
		case c.player != "" && !strings.Contains(got, `<iframe src="`+c.player+`"`):
			t.Errorf("%s: want the player %s in %s", c.url, c.player, got)
		case c.player != "" && !strings.Contains(got, `sandbox="allow-scripts allow-same-origin allow-popups allow-presentation"`):
			t.Errorf("%s: the frame is not sandboxed: %s", c.url, got)
		}
	}
	if got := render(`{% embed url="javascript:alert(1)" %}`); got != "<p class=\"embed\">javascript:alert(1)</p>\n" {
		t.Errorf("a javascript: embed renders %s", got)
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

// hostileMarkdown are pages written to inject script or leave the page.
var hostileMarkdown = []string{
	"<script>alert(1)</script>",
	"<img src=x onerror=alert(1)>",
	"[x](javascript:alert(1))",
	"[x](JaVaScRiPt:alert(1))",
	"[x](<java\tscript:alert(1)>)",
	"[x]( javascript:alert(1))",
	"[x](&#106;avascript:alert(1))",
	"![x](javascript:alert(1))",
	"![x](data:image/svg+xml;base64,PHN2Zz4=)",
	"[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
	"[x](vbscript:msgbox(1))",
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
	"{% code title=\"&#x22;><script>alert(1)</script>\" %}\n```\nx\n```\n{% endcode %}",
	"{% code title='x' lineNumbers=\"true onload=alert(1)\" %}\n```\nx\n```\n{% endcode %}",
	"<figure><img src=\"javascript:alert(1)\" alt=\"&#x22; onerror=&#x22;alert(1)\"><figcaption><p>&#x3C;script>alert(1)&#x3C;/script></p></figcaption></figure>",
	"<figure><img src=\"/files/f1\" alt=\"x&#x22; onerror=&#x22;alert(1)\"><figcaption><p>&#x22;><img src=x onerror=alert(1)></p></figcaption></figure>",
	"{% tabs %}\n{% tab title=\"&#x22;><script>alert(1)</script>\" %}\nx\n{% endtab %}\n{% endtabs %}",
	"{% hint style=\"info&#x22; onmouseover=&#x22;alert(1)\" %}\nx\n{% endhint %}",
	"<details>\n<summary><img src=x onerror=alert(1)></summary>\n\nx\n\n</details>",
	"{% embed url=\"javascript:alert(1)\" %}",
	"{% embed url=\"https://www.youtube.com/watch?v=x&#x22;onload=&#x22;alert(1)\" %}",
	"{% embed url=\"https://evil.example/&#x22;><script>alert(1)</script>\" %}",
	"{% content-ref url=\"javascript:alert(1)\" %}\n[x](javascript:alert(1))\n{% endcontent-ref %}",
	"$$\n</math><script>alert(1)</script>\n$$",
	"$$\n\\text{</mtext><script>alert(1)</script>}\n$$",
	"Inline $$\\text{\"><img src=x onerror=alert(1)>}$$ math",
	"```\n</code></pre><script>alert(1)</script>\n```",
	"| <script>alert(1)</script> |\n|---|\n| <img src=x onerror=alert(1)> |",
	"See http://x.example/\"onmouseover=\"alert(1) and www.x.example/<script>",
}

func TestRenderRefusesScript(t *testing.T) {
	for _, src := range hostileMarkdown {
		if bad := unsafeMarkup(render(src)); bad != "" {
			t.Errorf("%q renders %s:\n%s", src, bad, render(src))
		}
	}
}

// TestRenderRefusesScriptInDocuments: documents sent as JSON reach the renderer with any data;
// none injects markup or a dangerous URL.
func TestRenderRefusesScriptInDocuments(t *testing.T) {
	js := "javascript:alert(1)"
	inject := `"><script>alert(1)</script><x y="`
	link := func(url string) *document.Node {
		return document.Inline("link", map[string]any{"ref": map[string]any{"kind": "url", "url": url}}, document.Text(document.NewLeaf(inject)))
	}
	image := document.Block("image", map[string]any{"ref": map[string]any{"kind": "url", "url": js}, "alt": inject})
	caption := document.Block("image", map[string]any{"ref": map[string]any{"kind": "url", "url": "/a.png"}, "alt": inject})
	caption.Fragments = []*document.Node{document.Fragment("caption", para(inject))}
	expandable := document.Block("expandable", nil)
	expandable.Fragments = []*document.Node{document.Fragment("expandable-title", para(inject)), document.Fragment("expandable-body", para(inject))}
	docs := []*document.Document{
		document.New(document.Block("paragraph", nil, link(js), link(" javascript:alert(1)"), link("JAVASCRIPT:x"), link("data:text/html,x"), link("java\nscript:x"))),
		document.New(document.Block("images", nil, image, caption)),
		document.New(document.Block("code", map[string]any{"title": inject, "syntax": inject, "lineNumbers": inject, "overflow": inject},
			document.Block("code-line", nil, document.Text(document.NewLeaf(inject))))),
		document.New(document.Block("hint", map[string]any{"style": inject}, para(inject))),
		document.New(document.Block("tabs", nil, document.Block("tabs-item", map[string]any{"title": inject}, para(inject)))),
		document.New(expandable),
		document.New(document.Block("embed", map[string]any{"url": js}), document.Block("embed", map[string]any{"url": "https://x.example/" + inject})),
		document.New(document.Block("content-ref", map[string]any{"ref": map[string]any{"kind": "url", "url": js}})),
		document.New(document.Block("file", map[string]any{"ref": map[string]any{"kind": "file", "file": inject}})),
		document.New(document.Block("math", map[string]any{"formula": inject}), document.Block("paragraph", nil,
			document.Inline("inline-math", map[string]any{"formula": inject}),
			document.Inline("inline-image", map[string]any{"ref": map[string]any{"kind": "url", "url": js}, "alt": inject}))),
		document.New(document.Block("list-ordered", map[string]any{"start": inject}, document.Block("list-item", nil, para(inject)))),
		document.New(document.Block("heading-2", nil, document.Text(document.NewLeaf(inject)))),
	}
	for i, doc := range docs {
		got := string(Document(doc, siteURLs{}).Body)
		if bad := unsafeMarkup(got); bad != "" || strings.Contains(got, "<script") {
			t.Errorf("document %d renders %s:\n%s", i, bad, got)
		}
	}
}

// unsafeMarkup names the first element or attribute of page that could run script or leave the
// page, or returns "": only the elements this package writes, no event handler or style, URLs
// of safe schemes only, frames only from the players of the allow list and sandboxed.
func unsafeMarkup(page string) string {
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if !slices.Contains(elements, tok.Data) {
				return "element " + tok.Data
			}
			if bad := unsafeAttributes(tok); bad != "" {
				return bad
			}
		}
	}
}

// elements are what the renderer writes, MathML's included.
var elements = strings.Fields(`p br strong em del code a img sup h2 h3 h4 ul ol li input blockquote div figure figcaption pre span
	button details summary section table thead tbody tr th td hr iframe math semantics annotation mrow mi mn mo mtext mspace msub msup
	msubsup munder mover munderover mfrac msqrt mroot mstyle mtable mtr mtd`)

func unsafeAttributes(tok html.Token) string {
	for _, a := range tok.Attr {
		v := strings.ToLower(strings.TrimSpace(a.Val))
		switch {
		case strings.HasPrefix(a.Key, "on") || a.Key == "style" || a.Key == "srcdoc":
			return "attribute " + a.Key + "=" + a.Val
		case (a.Key == "href" || a.Key == "src") && !allowedScheme(a.Val, "http", "https", "mailto"):
			return "attribute " + a.Key + "=" + a.Val
		case strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "data:") || strings.HasPrefix(v, "vbscript:"):
			return "attribute " + a.Key + "=" + a.Val
		}
	}
	if tok.Data == "iframe" {
		src := attr(tok, "src")
		if !slices.ContainsFunc(FrameOrigins(), func(o string) bool { return strings.HasPrefix(src, o+"/") }) ||
			attr(tok, "sandbox") != "allow-scripts allow-same-origin allow-popups allow-presentation" {
			return "frame " + src
		}
	}
	return ""
}

func attr(tok html.Token, key string) string {
	for _, a := range tok.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func TestRenderHeadings(t *testing.T) {
	p := renderMarkdown("# Guide\n\n## Install *it*\n\ntext\n\n### On `Linux`\n\n## Install it\n\n## See [the docs](/pages/p1)\n", siteURLs{})
	want := []Heading{{2, "guide", "Guide"}, {2, "install-it", "Install it"}, {3, "on-linux", "On Linux"},
		{2, "install-it-1", "Install it"}, {2, "see-the-docs", "See the docs"}}
	if !slices.Equal(p.Headings, want) {
		t.Fatalf("headings %+v, want %+v", p.Headings, want)
	}
}

// TestHeadingAnchorsAreSearchAnchors: a heading's id is the anchor search gives its section, so
// that a result links to it.
func TestHeadingAnchorsAreSearchAnchors(t *testing.T) {
	body := "Intro.\n\n# Guide\n\n## Install *it*\n\n### On `Linux` $$x^2$$\n\n## See [the docs](/pages/p1) ![logo](/files/f1)\n\n" +
		"## Install it\n\n## A  B \\& C\n\n## Émoji ✓ 2\n\n## !!!\n"
	var want []string
	for _, s := range markdown.Sections(body)[1:] {
		want = append(want, s.Anchor)
	}
	var got []string
	for _, h := range renderMarkdown(body, siteURLs{}).Headings {
		got = append(got, h.ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("heading ids %q, search anchors %q", got, want)
	}
}

// TestManyEqualHeadings: headings' anchors are numbered as search numbers its sections', in
// linear time (20,000 equal headings took seconds when each count started from 1).
func TestManyEqualHeadings(t *testing.T) {
	hs := renderMarkdown("## Part 2\n\n"+strings.Repeat("## Part\n\n", 20000), siteURLs{}).Headings
	got := []string{hs[0].ID, hs[1].ID, hs[2].ID, hs[3].ID, hs[len(hs)-1].ID}
	if want := []string{"part-2", "part", "part-1", "part-3", "part-20000"}; !slices.Equal(got, want) {
		t.Fatalf("anchors %q, want %q", got, want)
	}
}

func TestLongCodeIsNotHighlighted(t *testing.T) {
	src := "```go\n" + strings.Repeat("x := 1\n", maxHighlighted/7+1) + "```\n"
	if got := render(src); strings.Contains(got, `<span class="kd`) || strings.Contains(got, `<span class="o`) {
		t.Fatal("a code block over the bound was highlighted")
	}
}

func TestCodeCSS(t *testing.T) {
	css := CodeCSS()
	if !strings.Contains(css, ".chroma .k ") || !strings.Contains(css, "[data-mode=dark] .chroma .k ") ||
		!strings.Contains(css, "[data-mode=system] .chroma .k ") {
		t.Fatalf("code CSS lacks light or dark keyword rules:\n%.500s", css)
	}
}

func FuzzRender(f *testing.F) {
	for _, s := range append([]string{"# a\n", "[x](/pages/p1#a)", "![x](/files/f1)", "```go\nx\n```", "| a |\n|---|\n| b |",
		"<script>x</script>", "[^1]\n\n[^1]: y", "- [ ] t", "{% tabs %}\n{% tab title=\"a\" %}\nx\n{% endtab %}\n{% endtabs %}", "$$\nx^2\n$$",
		"{% embed url=\"https://youtu.be/abcdefg\" %}", "<details>\n<summary>t</summary>\n\nb\n\n</details>"}, hostileMarkdown...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if bad := unsafeMarkup(render(src)); bad != "" {
			t.Fatalf("%q renders %s", src, bad)
		}
	})
}

// BenchmarkRender renders a 30 KB page of prose, links, a table and highlighted code.
func BenchmarkRender(b *testing.B) {
	src := "# Guide\n\n" + strings.Repeat("## Step\n\nRead [the intro](/pages/p1#a) and ![a diagram](/files/f1), "+
		"or [Go](https://go.dev).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```go\nfunc main() { fmt.Println(\"hi\") }\n```\n\n", 120)
	b.SetBytes(int64(len(src)))
	cputime.Loop(b, func() { renderMarkdown(src, siteURLs{}) })
}

// BenchmarkRender2000Blocks renders a page of 2,000 blocks, 20 of them code (the issue's
// published page), from Markdown (FromMarkdown included) and from its document.
func BenchmarkRender2000Blocks(b *testing.B) {
	src := pagebodies.Blocks(20)
	doc := document.FromMarkdown(src)
	if len(doc.Nodes) < 2000 {
		b.Fatalf("%d blocks", len(doc.Nodes))
	}
	b.Run("Markdown", func(b *testing.B) { cputime.Loop(b, func() { renderMarkdown(src, siteURLs{}) }) })
	b.Run("Document", func(b *testing.B) { cputime.Loop(b, func() { Document(doc, siteURLs{}) }) })
}
