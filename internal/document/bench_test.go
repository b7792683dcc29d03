package document

import (
	"bytes"
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/binderyhq/bindery/internal/testkit/cputime"
)

// BenchmarkConvert10kBlocks converts a body of at least 10,000 top-level blocks (the corpus'
// blocks.md repeated) from Markdown to a document and back, against goldmark turning the same
// Markdown into HTML with GFM: a pass over the text that every Markdown reader pays, and
// ParseCommonMark, goldmark's parse with no extension. FromMarkdown reads the body with the quick
// reader; FromGoldmark with goldmark's path, which reads what the quick reader gives up on (Parse
// is its goldmark parse alone). The ServeGC runs collect garbage as `bindery serve` does (GOGC
// 400, decision 337), the others at Go's default (GOGC 100). The bound: each way ≤ 50 ms.
func BenchmarkConvert10kBlocks(b *testing.B) {
	unit, err := os.ReadFile("testdata/blocks.md")
	if err != nil {
		b.Fatal(err)
	}
	perUnit := len(FromMarkdown(string(unit)).Nodes)
	body := strings.Repeat(string(unit)+"\n", 10000/perUnit+1)
	src := []byte(body)
	if _, ok := newConverter(src).quick(src); !ok {
		b.Fatal("the quick reader gave up on the body")
	}
	doc := FromMarkdown(body)
	if len(doc.Nodes) < 10000 {
		b.Fatalf("%d blocks, want at least 10,000", len(doc.Nodes))
	}
	html := goldmark.New(goldmark.WithExtensions(extension.GFM))
	b.Run("GoldmarkHTML", func(b *testing.B) {
		cputime.Loop(b, func() {
			var out bytes.Buffer
			if err := html.Convert([]byte(body), &out); err != nil {
				b.Fatal(err)
			}
		})
	})
	commonMark := goldmark.New().Parser()
	b.Run("ParseCommonMark", func(b *testing.B) {
		cputime.Loop(b, func() { commonMark.Parse(text.NewReader([]byte(body))) })
	})
	b.Run("Parse", func(b *testing.B) { cputime.Loop(b, func() { gitbookMarkdown.Parse(text.NewReader([]byte(body))) }) })
	b.Run("FromGoldmark", func(b *testing.B) { cputime.Loop(b, func() { fromGoldmark([]byte(body)) }) })
	b.Run("FromMarkdown", func(b *testing.B) { cputime.Loop(b, func() { FromMarkdown(body) }) })
	b.Run("ToMarkdown", func(b *testing.B) { cputime.Loop(b, func() { Markdown(doc) }) })
	b.Run("FromMarkdownServeGC", func(b *testing.B) { atServeGC(func() { cputime.Loop(b, func() { FromMarkdown(body) }) }) })
	b.Run("ToMarkdownServeGC", func(b *testing.B) { atServeGC(func() { cputime.Loop(b, func() { Markdown(doc) }) }) })
}

// atServeGC runs fn with the collector set as `bindery serve` sets it when GOGC is not set.
func atServeGC(fn func()) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	fn()
}

// BenchmarkHostileDetails reads 44 KB of `<details>` that never close, and 2,000 nested ones that
// do: each must cost about what a pass over the text costs (matched in one pass, nesting bounded),
// not its square.
func BenchmarkHostileDetails(b *testing.B) {
	for name, md := range map[string]string{
		"Unclosed": strings.Repeat("<details>\n\n", 4000),
		"Nested":   strings.Repeat("<details>\n\n", 2000) + strings.Repeat("</details>\n\n", 2000),
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				FromMarkdown(md)
			}
		})
	}
}

// BenchmarkHostileTags reads 5,000 nested if blocks and 5,000 nested hints, against a baseline of
// the same lines not nested: tag blocks deeper than maxTagDepth are text, so the cost stays
// linear (unbounded, 5,000 nested ifs took minutes).
func BenchmarkHostileTags(b *testing.B) {
	const n = 5000
	nested := func(open, end string) string {
		return strings.Repeat(open+"\n", n) + "x\n" + strings.Repeat(end+"\n", n)
	}
	for _, c := range []struct{ name, md string }{
		{"baseline", strings.Repeat("{% if visitor.claims.a %}\nx\n{% endif %}\n\n", n)},
		{"ifs", nested("{% if visitor.claims.a %}", "{% endif %}")},
		{"hints", nested(`{% hint style="info" %}`, "{% endhint %}")},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				FromMarkdown(c.md)
			}
		})
	}
}
