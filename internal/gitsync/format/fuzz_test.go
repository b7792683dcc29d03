package format

import (
	"testing"

	"github.com/binderyhq/bindery/internal/content/importer"
)

// FuzzImport lays repositories of any SUMMARY.md, README.md, page and .gitbook.yaml over a space's
// content: no input panics, and what is laid holds every page it nests under a page it has.
func FuzzImport(f *testing.F) {
	s := roundTripSample()
	ups := exported(s, "")
	f.Add(string(fileOf(ups, "SUMMARY.md")), string(fileOf(ups, "README.md")), string(fileOf(ups, "guide/install.md")), "root: ./\n")
	f.Add("## Group\n\n* [A](a/../../x.md)\n  * [B](<b c.md>)\n", "---\nicon: \xff\n---\n# \x00\n", "[x](../../etc/passwd)", "root: ../..\nstructure:\n  summary: /etc/passwd\n")
	f.Fuzz(func(t *testing.T, summary, readme, page, config string) {
		files := []importer.Upload{{Path: "SUMMARY.md", Data: []byte(summary)}, {Path: "README.md", Data: []byte(readme)},
			{Path: "guide/install.md", Data: []byte(page)}, {Path: ".gitbook.yaml", Data: []byte(config)}}
		got, err := Import(s.content(), files, testEnv())
		if err != nil {
			return
		}
		for _, e := range got.Tree.Entries() {
			if p := e.Page; p != nil && p.Parent != "" && got.Tree.Page(p.Parent) == nil {
				t.Fatalf("page %s under a page the tree does not have", p.ID)
			}
		}
	})
}
