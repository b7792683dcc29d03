package pdf

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	pdfreader "github.com/ledongthuc/pdf"
)

// parsed is a rendered PDF read back: the lines of text of each page and the bookmark tree.
type parsed struct {
	raw     []byte
	pages   [][]string
	outline pdfreader.Outline
}

// mustRender renders doc and reads the result back with an independent PDF reader, failing the
// test unless it is a well-formed PDF.
func mustRender(tb testing.TB, doc Document) parsed {
	tb.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, doc); err != nil {
		tb.Fatalf("Render: %v", err)
	}
	raw := buf.Bytes()
	if !bytes.HasPrefix(raw, []byte("%PDF-")) {
		tb.Fatalf("output starts with %q, want %%PDF-", raw[:min(len(raw), 8)])
	}
	if !bytes.HasSuffix(bytes.TrimRight(raw, "\r\n"), []byte("%%EOF")) {
		tb.Fatalf("output does not end with %%%%EOF")
	}
	r, err := pdfreader.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		tb.Fatalf("the PDF does not open: %v", err)
	}
	p := parsed{raw: raw, outline: r.Outline()}
	for i := 1; i <= r.NumPage(); i++ {
		p.pages = append(p.pages, pageText(r.Page(i)))
	}
	return p
}

// hasLine reports whether page i (from 0) has a line of text that is exactly want.
func (p parsed) hasLine(i int, want string) bool { return slices.Contains(p.pages[i], want) }

// text is all the text of the document, one line per line.
func (p parsed) text() string {
	var all []string
	for _, lines := range p.pages {
		all = append(all, lines...)
	}
	return strings.Join(all, "\n")
}

// titles are the bookmark titles, depth first, indented by level.
func (p parsed) titles() []string {
	var out []string
	var walk func(o pdfreader.Outline, level int)
	walk = func(o pdfreader.Outline, level int) {
		for _, c := range o.Child {
			out = append(out, strings.Repeat("  ", level)+c.Title)
			walk(c, level+1)
		}
	}
	walk(p.outline, 0)
	return out
}

func TestRender(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		doc := Document{Title: "Handbook: Rework onboarding", Pages: []Page{
			{Title: "Getting started", Markdown: "Welcome **aboard**.\n\n- one\n- two\n"},
			{Title: "Install", Depth: 1, Markdown: "```sh\nmake run\n```\n"},
			{Title: "Configure", Depth: 2, Markdown: "| flag | default |\n|---|---|\n| `--addr` | 127.0.0.1:8080 |\n"},
			{Title: "Upgrade", Depth: 1, Markdown: "> Read the notes first.\n"},
			{Title: "Reference", Markdown: "See [the API](https://example.com/api)."},
		}}
		p := mustRender(t, doc)
		if len(p.pages) != len(doc.Pages) {
			t.Fatalf("%d PDF pages, want one per page (%d)", len(p.pages), len(doc.Pages))
		}
		for i, want := range []string{"1  Getting started", "1.1  Install", "1.1.1  Configure", "1.2  Upgrade", "2  Reference"} {
			if !p.hasLine(i, want) {
				t.Errorf("page %d lines %q lack the title %q", i+1, p.pages[i], want)
			}
		}
		if !p.hasLine(0, "Handbook: Rework onboarding") {
			t.Errorf("first page %q lacks the document title", p.pages[0])
		}
		if !p.hasLine(1, "Handbook: Rework onboarding") {
			t.Errorf("second page %q lacks the document title in its header", p.pages[1])
		}
		wantOutline := []string{"1 Getting started", "  1.1 Install", "    1.1.1 Configure", "  1.2 Upgrade", "2 Reference"}
		if got := p.titles(); strings.Join(got, "|") != strings.Join(wantOutline, "|") {
			t.Errorf("bookmarks %q, want %q", got, wantOutline)
		}
		for _, want := range []string{"Welcome aboard.", "•one", "make run", "--addr127.0.0.1:8080", "Read the notes first.", "See the API."} {
			if !strings.Contains(p.text(), want) {
				t.Errorf("text %q lacks the line %q", p.text(), want)
			}
		}
	})
	t.Run("EmptyDocument", func(t *testing.T) {
		p := mustRender(t, Document{})
		if len(p.pages) != 1 || !p.hasLine(0, "This document has no pages.") {
			t.Errorf("pages %q, want one page saying there are none", p.pages)
		}
	})
	t.Run("LongPageFlowsOntoMorePages", func(t *testing.T) {
		body := strings.Repeat("A paragraph of some length, repeated to fill more than one page of text. ", 20)
		body = strings.Repeat(body+"\n\n", 30)
		p := mustRender(t, Document{Pages: []Page{{Title: "Long", Markdown: body}, {Title: "Short"}}})
		if len(p.pages) < 3 {
			t.Fatalf("%d PDF pages, want the long page on several", len(p.pages))
		}
		if last := len(p.pages) - 1; !p.hasLine(last, "2  Short") {
			t.Errorf("last PDF page %q is not the second page", p.pages[last])
		}
		if second := strings.Join(p.pages[1], " "); !strings.Contains(second, "A paragraph") {
			t.Errorf("second PDF page %q does not continue the long page", second)
		}
	})
	t.Run("Concurrent", func(t *testing.T) { // shared font tables and parser, under -race
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				var buf bytes.Buffer
				doc := Document{Pages: []Page{{Title: fmt.Sprint(i), Markdown: "**b** *i* `c` Ünï"}}}
				if err := Render(&buf, doc); err != nil {
					t.Errorf("Render: %v", err)
				}
			})
		}
		wg.Wait()
	})
	t.Run("DepthsOutOfOrder", func(t *testing.T) {
		doc := Document{Pages: []Page{{Title: "A", Depth: 3}, {Title: "B", Depth: 5}, {Title: "C", Depth: -2}}}
		want := []string{"1 A", "  1.1 B", "2 C"}
		if got := mustRender(t, doc).titles(); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("bookmarks %q, want %q", got, want)
		}
	})
}

func TestRenderUnicode(t *testing.T) {
	doc := Document{Title: "Dokumentation für Straßen", Pages: []Page{
		{Title: "Café ü ß", Markdown: "Łódź, Dvořák, Ős, Ærø, Ελληνικά, Кириллица.\n\n中文 and 😀 lack glyphs."},
		{Title: "中文标题", Markdown: "**Fett** und *kursiv*: äöü"},
	}}
	p := mustRender(t, doc)
	tests := []struct {
		page int
		line string
	}{
		{0, "Dokumentation für Straßen"},
		{0, "1  Café ü ß"},
		{0, "Łódź, Dvořák, Ős, Ærø, Ελληνικά, Кириллица."},
		{0, "\uFFFD\uFFFD and \uFFFD lack glyphs."}, // no glyph: U+FFFD, not a failure
		{1, "2  \uFFFD\uFFFD\uFFFD\uFFFD"},
		{1, "Fett und kursiv: äöü"},
	}
	for _, tt := range tests {
		if !p.hasLine(tt.page, tt.line) {
			t.Errorf("page %d lines %q lack %q", tt.page+1, p.pages[tt.page], tt.line)
		}
	}
	if got, want := p.titles(), []string{"1 Café ü ß", "2 \uFFFD\uFFFD\uFFFD\uFFFD"}; !slices.Equal(got, want) {
		t.Errorf("bookmarks %q, want %q", got, want)
	}
}

func TestRenderLinks(t *testing.T) {
	md := "[safe](https://example.com/a?b=c) [mail](mailto:ada@example.com) [script](javascript:alert(1)) " +
		"[relative](../other) <https://auto.example.com> [accent](https://example.com/café)"
	raw := mustRender(t, Document{Pages: []Page{{Title: "Links", Markdown: md}}}).raw
	tests := []struct {
		target string
		linked bool
	}{
		{"https://example.com/a?b=c", true},
		{"mailto:ada@example.com", true},
		{"https://auto.example.com", true},
		{"https://example.com/caf%C3%A9", true},
		{"javascript:", false},
		{"../other", false},
	}
	for _, tt := range tests {
		if got := bytes.Contains(raw, []byte("/URI ("+tt.target)); got != tt.linked {
			t.Errorf("link annotation to %q present: %v, want %v", tt.target, got, tt.linked)
		}
	}
}

// hostileMarkdown are bodies that have broken Markdown renderers: deep nesting, huge lines,
// bytes that are not text.
var hostileMarkdown = map[string]string{
	"DeepQuotes":      strings.Repeat(">", 5000) + " deep",
	"DeepLists":       deepList(300),
	"DeepEmphasis":    strings.Repeat("*_", 2000) + "x" + strings.Repeat("_*", 2000),
	"HugeWord":        strings.Repeat("x", 200_000),
	"HugeLine":        strings.Repeat("word ", 60_000),
	"HugeCodeLine":    "```\n" + strings.Repeat("y", 100_000) + "\n```",
	"InvalidUTF8":     "caf\xc3 \xff\xfe **b\xc0ld** `c\x80de` [l\xe9nk](https://exa\xffmple.com)",
	"NUL":             "a\x00b **\x00** `\x00`\n\n```\n\x00\x00\n```\n# \x00",
	"ControlChars":    "bell\a tab\tvertical\v form\f escape\x1b[31m del\x7f c1\u0085 zwj\u200d bom\ufeff",
	"Astral":          "😀𝔘𐍈 " + strings.Repeat("\U0010FFFF", 100),
	"WideTable":       "|" + strings.Repeat(" a |", 200) + "\n|" + strings.Repeat("---|", 200) + "\n|" + strings.Repeat(" b |", 200),
	"TallTableRow":    "| a | b |\n|---|---|\n| " + strings.Repeat("long cell text ", 3000) + " | x |",
	"HugeListNumber":  "999999999. nine\n1000000000. ten",
	"ManyBlankLines":  strings.Repeat("\n", 100_000),
	"EmptyFences":     "```\n```\n\n```",
	"OnlyHTML":        "<script>alert(1)</script>\n<!-- comment -->\n<br/>",
	"ImagesAndLinks":  "[![alt *x*](i.png)](https://e.com) ![](x.png) [](https://e.com)",
	"CarriageReturns": "a\r\nb\rc\n\r\n- x\r- y",
}

// deepList is n bullet lists, each nested in the previous one's item.
func deepList(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s- level %d\n", strings.Repeat("  ", i), i)
	}
	return b.String()
}

func TestRenderHostileMarkdown(t *testing.T) {
	for name, md := range hostileMarkdown {
		t.Run(name, func(t *testing.T) {
			p := mustRender(t, Document{Title: md[:min(len(md), 300)], Pages: []Page{{Title: md[:min(len(md), 300)], Markdown: md}}})
			if len(p.pages) == 0 {
				t.Fatal("no pages")
			}
		})
	}
}

func FuzzRender(f *testing.F) {
	for _, md := range hostileMarkdown {
		if len(md) < 4096 {
			f.Add("title", 0, md)
		}
	}
	f.Add("Café", 1, "# h\n\n- [x] a\n  1. b\n\n> q\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n\n```go\nx\n```\n---\n")
	f.Add("", -1, "")
	f.Fuzz(func(t *testing.T, title string, depth int, md string) {
		var buf bytes.Buffer
		doc := Document{Title: title, Pages: []Page{{Title: title, Depth: depth, Markdown: md}, {Title: md, Depth: depth + 1}}}
		if err := Render(&buf, doc); err != nil {
			t.Fatalf("Render: %v", err)
		}
		if !bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")) {
			t.Fatal("not a PDF")
		}
	})
}

// BenchmarkRender renders a document of 500 pages of about 3.5 KB of mixed Markdown each (about
// 2,000 PDF pages).
func BenchmarkRender(b *testing.B) {
	doc := Document{Title: "Benchmark"}
	for i := range 500 {
		doc.Pages = append(doc.Pages, Page{Title: fmt.Sprintf("Page %d", i), Depth: i % 3, Markdown: benchPage})
	}
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		if err := Render(&buf, doc); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(buf.Len()), "bytes/pdf")
	}
}

var benchPage = strings.Repeat("## Section\n\nSome **bold** and *italic* text with `code` and a [link](https://example.com) "+
	"that goes on for a while so that it wraps across a few lines of the page. Ünïcödé too.\n\n"+
	"- item one\n- item two\n  - nested\n\n```go\nfunc f() int { return 42 }\n```\n\n"+
	"| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n", 12)
