package rest_test

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
)

// largeRepoPage is one page of largeGitBookRepository: its file and its place in SUMMARY.md.
type largeRepoPage struct {
	title, file string
	depth       int // under its group
	children    []*largeRepoPage
}

// largeGitBookRepository writes a GitBook repository of 500 pages in four SUMMARY.md groups,
// nested four deep, each page one of the document model's test pages (every GitBook block)
// with its page links made relative paths to other pages and its files to seven images under
// .gitbook/assets, as GitBook's Git Sync writes them.
func largeGitBookRepository(t *testing.T) map[string]string {
	var bodies []string
	for _, name := range []string{"gitbook", "blocks", "nested", "inlines", "text"} {
		b, err := os.ReadFile(filepath.Join("..", "internal", "document", "testdata", name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, string(b))
	}
	var pages []*largeRepoPage
	var groups [4][]*largeRepoPage // the top-level pages of each group
	for i := range 500 {
		p := &largeRepoPage{title: fmt.Sprintf("Page %d", i)}
		group := i / 125
		switch j := i % 125; {
		case j%25 == 0:
			groups[group] = append(groups[group], p)
		case j%5 == 0: // under its section
			s := pages[i-i%25]
			s.children, p.depth = append(s.children, p), 1
		default: // a chain of four under it
			parent := pages[i-1]
			parent.children, p.depth = append(parent.children, p), parent.depth+1
		}
		pages = append(pages, p)
	}
	var placeIn func(dir string, ps []*largeRepoPage)
	placeIn = func(dir string, ps []*largeRepoPage) {
		for _, p := range ps {
			slug := strings.ReplaceAll(strings.ToLower(p.title), " ", "-")
			if p.file = dir + slug + ".md"; len(p.children) > 0 {
				p.file = dir + slug + "/README.md"
				placeIn(dir+slug+"/", p.children)
			}
		}
	}
	summary := "# Table of contents\n\n* [Welcome](README.md)\n"
	var list func(ps []*largeRepoPage, indent string)
	list = func(ps []*largeRepoPage, indent string) {
		for _, p := range ps {
			summary += fmt.Sprintf("%s* [%s](%s)\n", indent, p.title, p.file)
			list(p.children, indent+"  ")
		}
	}
	for g, top := range groups {
		placeIn(fmt.Sprintf("group-%d/", g), top)
		summary += fmt.Sprintf("\n## Group %d\n\n", g)
		list(top, "")
	}
	files := map[string]string{
		".gitbook.yaml": "root: ./\nstructure:\n    readme: README.md\n    summary: SUMMARY.md\n",
		"SUMMARY.md":    summary,
		"README.md":     "# Welcome\n\nFive hundred pages follow.\n",
	}
	for i := range 7 {
		files[fmt.Sprintf(".gitbook/assets/image-%d.png", i)] = fmt.Sprintf("PNG %d", i)
	}
	relative := func(from, to string) string {
		rel, err := filepath.Rel(path.Dir(from), to)
		if err != nil {
			t.Fatal(err)
		}
		return rel
	}
	pageRef, fileRef := regexp.MustCompile(`/pages/[A-Za-z0-9]+`), regexp.MustCompile(`/files/[A-Za-z0-9]+`)
	for i, p := range pages {
		body := pageRef.ReplaceAllString(bodies[i%len(bodies)], relative(p.file, pages[(i*7)%500].file))
		body = fileRef.ReplaceAllString(body, relative(p.file, fmt.Sprintf(".gitbook/assets/image-%d.png", i%7)))
		files[p.file] = "# " + p.title + "\n\n" + body
	}
	return files
}

// TestGitSyncLargeRepositoryRoundTrip imports a 500-page GitBook repository with groups, nested
// pages, images and every GitBook block from a real bare repository, exports it to a second one,
// imports that into another space and exports again: both spaces hold the same tree and every
// export is the source repository, byte for byte.
func TestGitSyncLargeRepositoryRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("500 pages through git twice")
	}
	f := newContentFixture(t, allowLocalGit)
	source, _ := gitrepo.Bare(t)
	gitrepo.Push(t, source, largeGitBookRepository(t), "Five hundred pages")

	importInto := func(url string) (space string, tree []string) {
		space = createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Large"})["id"].(string)
		crWant(t, f.e.Do(f.admin, "POST", "/v1/spaces/"+space+"/git/import",
			map[string]any{"url": url, "ref": "refs/heads/main"}), http.StatusNoContent)
		f.e.RunDueJobs()
		var tr struct{ Pages []wirePage }
		f.e.Do(f.admin, "GET", "/v1/spaces/"+space+"/content/pages", nil).JSON(t, &tr)
		walkPages(tr.Pages, func(p wirePage) { tree = append(tree, p.Type+":"+p.Path+":"+p.Title) })
		return space, tree
	}
	exportFrom := func(space string) map[string]string {
		out, _ := gitrepo.Bare(t)
		crWant(t, f.e.Do(f.admin, "POST", "/v1/spaces/"+space+"/git/export",
			map[string]any{"url": out, "ref": "refs/heads/main", "commitMessage": "Export", "standalone": true}), http.StatusNoContent)
		return gitrepo.Files(t, out)
	}

	first, tree := importInto(source)
	groups := 0
	for _, p := range tree {
		if strings.HasPrefix(p, "group:") {
			groups++
		}
	}
	if len(tree) != 505 || groups != 4 {
		t.Fatalf("%d pages, %d groups imported; want 501 pages and 4 groups", len(tree)-groups, groups)
	}
	var files struct{ Items []wireFile }
	f.e.Do(f.admin, "GET", "/v1/spaces/"+first+"/content/files", nil).JSON(t, &files)
	if len(files.Items) != 7 {
		t.Fatalf("%d files imported, want the 7 images", len(files.Items))
	}

	exported := exportFrom(first)
	copied, _ := gitrepo.Bare(t)
	gitrepo.Push(t, copied, exported, "The export")
	second, again := importInto(copied)
	if !slices.Equal(tree, again) {
		t.Fatalf("the export imported as another tree:\n%v\nwant\n%v", again, tree)
	}
	if got := exportFrom(second); !maps.Equal(got, exported) {
		t.Fatal("exporting the reimported space wrote other files than the first export")
	}
	want := largeGitBookRepository(t)
	for name, text := range want {
		if exported[name] != text {
			t.Fatalf("%s exported as\n%s\nwant\n%s", name, exported[name], text)
		}
	}
	if len(exported) != len(want) {
		t.Fatalf("%d files exported, the source has %d", len(exported), len(want))
	}
}
