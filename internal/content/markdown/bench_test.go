package markdown

import (
	"strings"
	"testing"
)

// benchPage is a 68 KB page: 400 paragraphs with 1,600 links of every kind, and code blocks.
var benchPage = "---\ndescription: A page\n---\n# Guide\n\n" + strings.Repeat(
	"Read [the intro](./intro.md), [setup](../setup/README.md#linux) and ![a diagram](./diagram.png "+
		"\"Diagram\"), or <https://example.com/docs>.\n\n```sh\n[not a link](./x.md)\n```\n\n", 400)

func BenchmarkResolve(b *testing.B) {
	r := Resolver{Tree: everythingTree{}, FileByID: func(string) bool { return true }, From: "x",
		FileRefs: map[string]string{"diagram.png": "F1"}}
	b.SetBytes(int64(len(benchPage)))
	for b.Loop() {
		r.Resolve(benchPage)
	}
}

func BenchmarkParse(b *testing.B) {
	b.SetBytes(int64(len(benchPage)))
	for b.Loop() {
		Parse(benchPage)
	}
}

// BenchmarkNestedImages is a hostile page: 40,000 nested images ("![![…](x)](x)", 320 KB).
func BenchmarkNestedImages(b *testing.B) {
	page := strings.Repeat("![", 40000) + strings.Repeat("](x)", 40000)
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		Links(page)
	}
}
