package importer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/content/tree"
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
