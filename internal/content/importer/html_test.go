package importer

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/document"
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

// docusaurusPage is a page of a Docusaurus 3 site: an admonition with its default title and one
// with its own, tabs, a <details>.
const docusaurusPage = `<html><body><main><article><h1>Configure</h1>
<div class="theme-admonition theme-admonition-tip admonition_xJq3 alert alert--success"><div class="admonitionHeading_Gvgb"><span class="admonitionIcon_Rf37"><svg viewBox="0 0 12 16"><path d="M6.5 0"></path></svg></span>tip</div><div class="admonitionContent_BuS1"><p>Use <strong>tabs</strong>.</p></div></div>
<div class="theme-admonition theme-admonition-danger admonition_xJq3 alert alert--danger"><div class="admonitionHeading_Gvgb"><span class="admonitionIcon_Rf37"><svg></svg></span>Take care</div><div class="admonitionContent_BuS1"><p>Never as root.</p></div></div>
<div class="tabs-container tabList__CuJ"><ul role="tablist" aria-orientation="horizontal" class="tabs"><li role="tab" tabindex="0" aria-selected="true" class="tabs__item tabs__item--active">Linux</li><li role="tab" tabindex="-1" aria-selected="false" class="tabs__item">macOS</li></ul><div class="margin-top--md"><div role="tabpanel" class="tabItem_Ymn6"><p>Edit <code>/etc/acme.yaml</code>.</p></div><div role="tabpanel" class="tabItem_Ymn6" hidden=""><p>Edit the plist.</p></div></div></div>
<details class="details_lb9f alert alert--info" data-collapsed="true"><summary>Why YAML?</summary><div><div class="collapsibleContent_i85q"><p>Easy to read.</p></div></div></details>
</article></main></body></html>`

// mkdocsPage is a page of an MkDocs Material site: an admonition, a collapsible, content tabs.
const mkdocsPage = `<html><body><div class="md-content"><article class="md-content__inner md-typeset"><h1 id="install">Install</h1>
<div class="admonition warning">
<p class="admonition-title">Heads up</p>
<p>The installer needs <code>curl</code>.</p>
</div>
<details class="question">
<summary>Why not a container?</summary>
<p>You may.</p>
</details>
<div class="tabbed-set tabbed-alternate" data-tabs="1:2"><input checked="checked" id="__tabbed_1_1" name="__tabbed_1" type="radio" /><input id="__tabbed_1_2" name="__tabbed_1" type="radio" /><div class="tabbed-labels"><label for="__tabbed_1_1">C</label><label for="__tabbed_1_2">C++</label></div>
<div class="tabbed-content">
<div class="tabbed-block">
<p>Plain C.</p>
</div>
<div class="tabbed-block">
<p>With classes.</p>
</div>
</div>
</div>
</article></div></body></html>`

func TestConvertHTMLDocsBlocks(t *testing.T) {
	tests := []struct {
		name, page string
		want       []string
		blocks     []string
		converted  []string
	}{
		{"Docusaurus", docusaurusPage, []string{"{% hint style=\"success\" %}\nUse **tabs**.\n{% endhint %}",
			"{% hint style=\"danger\" %}\n**Take care**\n\nNever as root.\n{% endhint %}",
			"{% tabs %}\n{% tab title=\"Linux\" %}\nEdit `/etc/acme.yaml`.\n{% endtab %}\n\n{% tab title=\"macOS\" %}\nEdit the plist.\n{% endtab %}\n{% endtabs %}",
			"<details>\n\n<summary>Why YAML?</summary>\n\nEasy to read.\n\n</details>"},
			[]string{"heading-1", "hint", "hint", "tabs", "expandable"},
			[]string{"an admonition (tip) → success hint", "an admonition (danger) → danger hint", "tabs → tabs", "<details> → expandable"}},
		{"MkDocs", mkdocsPage, []string{"{% hint style=\"warning\" %}\n**Heads up**\n\nThe installer needs `curl`.\n{% endhint %}",
			"<details>\n\n<summary>Why not a container?</summary>\n\nYou may.\n\n</details>",
			"{% tabs %}\n{% tab title=\"C\" %}\nPlain C.\n{% endtab %}\n\n{% tab title=\"C++\" %}\nWith classes.\n{% endtab %}\n{% endtabs %}"},
			[]string{"heading-1", "hint", "expandable", "tabs"},
			[]string{"an admonition (warning) → warning hint", "<details> → expandable", "tabs → tabs"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := mustParse(t, "https://docs.test/docs/configure")
			p, err := ConvertHTML(u, []byte(tt.page))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(p.Markdown, w) {
					t.Errorf("Markdown lacks:\n%s\nin:\n%s", w, p.Markdown)
				}
			}
			var got []string
			for _, b := range document.FromMarkdown(p.Markdown).Nodes {
				got = append(got, b.Type)
			}
			if !slices.Equal(got, tt.blocks) {
				t.Errorf("blocks %q, want %q", got, tt.blocks)
			}
			r := p.Report(u)
			if r.Path != "https://docs.test/docs/configure" || !slices.Equal(r.Converted, tt.converted) {
				t.Errorf("report %+v, want converted %q", r, tt.converted)
			}
		})
	}
}
