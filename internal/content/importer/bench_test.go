package importer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"

	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/testkit/cputime"
)

// BenchmarkBuild200 lays out and applies a 200-page site with 20 images: the part of a website
// import between fetching and writing the revision.
func BenchmarkBuild200(b *testing.B) {
	body := strings.Repeat("A paragraph of documentation, with **some** *markup* and `code`.\n\n", 20)
	var site Site
	for i := range 20 {
		site.Files = append(site.Files, File{Location: mustParse(b, fmt.Sprintf("http://docs.test/img/%d.png", i)),
			Name: "figure.png", ContentType: "image/png", Data: make([]byte, 8<<10)})
	}
	for i := range 200 {
		site.Pages = append(site.Pages, webPage(b, fmt.Sprintf("http://docs.test/s%d/p%d", i%9, i), "",
			fmt.Sprintf("# Page %d\n\n%s![figure](http://docs.test/img/%d.png) [next](http://docs.test/s%d/p%d)\n", i, body, i%20, (i+1)%9, i+1)))
	}
	b.ResetTimer()
	for range b.N {
		if _, err := Build(tree.New(nil), site, testEnv()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImportLargeMDX imports a 2 MB Docusaurus page (admonitions, tabs, links by /docs/ path,
// a component kept as text) from the upload to the content batches applied, against goldmark
// parsing the page's converted Markdown once: the import's cost in passes of the parser.
func BenchmarkImportLargeMDX(b *testing.B) {
	section := "## Part\n\n:::tip Tip\nText with a [link](/docs/intro) and ![a figure](/img/a.png).\n:::\n\n" +
		"<Tabs>\n<TabItem value=\"a\">A [b](./intro.md)</TabItem>\n</Tabs>\n\n<Custom />\n\n"
	md := "# Large\n\n" + strings.Repeat(section, (2<<20)/len(section))
	uploads := []Upload{{Path: "docs/large.mdx", Data: []byte(md)}, {Path: "docs/intro.md", Data: []byte("# Intro\n")},
		{Path: "static/img/a.png", Data: make([]byte, 64)}}
	site, err := FromUploads(uploads)
	if err != nil {
		b.Fatal(err)
	}
	var converted []byte // the large page's, the longest
	for _, pg := range site.Pages {
		if len(pg.Markdown) > len(converted) {
			converted = []byte(pg.Markdown)
		}
	}
	b.Run("GoldmarkParse", func(b *testing.B) {
		cputime.Loop(b, func() { goldmark.DefaultParser().Parse(text.NewReader(converted)) })
	})
	b.Run("Import", func(b *testing.B) {
		cputime.Loop(b, func() {
			site, err := FromUploads(uploads)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Build(tree.New(nil), site, testEnv()); err != nil {
				b.Fatal(err)
			}
		})
	})
}
