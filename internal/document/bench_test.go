package document

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// BenchmarkConvert10kBlocks converts a body of at least 10,000 top-level blocks (the corpus'
// blocks.md repeated) from Markdown to a document and back, against goldmark turning the same
// Markdown into HTML with GFM: a pass over the text that every Markdown reader pays. The issue's
// bound: each way ≤ 50 ms.
func BenchmarkConvert10kBlocks(b *testing.B) {
	unit, err := os.ReadFile("testdata/blocks.md")
	if err != nil {
		b.Fatal(err)
	}
	perUnit := len(FromMarkdown(string(unit)).Nodes)
	body := strings.Repeat(string(unit)+"\n", 10000/perUnit+1)
	doc := FromMarkdown(body)
	if len(doc.Nodes) < 10000 {
		b.Fatalf("%d blocks, want at least 10,000", len(doc.Nodes))
	}
	html := goldmark.New(goldmark.WithExtensions(extension.GFM))
	b.Run("GoldmarkHTML", func(b *testing.B) {
		for b.Loop() {
			var out bytes.Buffer
			if err := html.Convert([]byte(body), &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("FromMarkdown", func(b *testing.B) {
		for b.Loop() {
			FromMarkdown(body)
		}
	})
	b.Run("ToMarkdown", func(b *testing.B) {
		for b.Loop() {
			Markdown(doc)
		}
	})
}
