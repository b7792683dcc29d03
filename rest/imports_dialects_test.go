package rest_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/document"
)

// dialectSites are the small Docusaurus, MkDocs and GitBook sites the importer's tests hold.
const dialectSites = "../internal/content/importer/testdata"

// siteFiles reads a test site as an upload's files.
func siteFiles(t *testing.T, name string) map[string][]byte {
	t.Helper()
	root := filepath.Join(dialectSites, name)
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// filesBody is an import of files as a list of files.
func filesBody(files map[string][]byte) map[string]any {
	var list []any
	for _, p := range slices.Sorted(mapsKeys(files)) {
		list = append(list, map[string]any{"path": p, "base64": base64.StdEncoding.EncodeToString(files[p])})
	}
	return map[string]any{"source": "markdown", "files": list}
}

// zipBody is an import of files as a zip archive, entries named as given.
func zipBody(t *testing.T, files map[string][]byte) map[string]any {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, p := range slices.Sorted(mapsKeys(files)) {
		fw, err := w.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(files[p])
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return map[string]any{"source": "markdown", "zip": base64.StdEncoding.EncodeToString(buf.Bytes())}
}

func mapsKeys(m map[string][]byte) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// importedPage is a page of an imported tree.
type importedPage struct {
	ID, Title, Slug, Path string
	Hidden                bool
	Pages                 []importedPage
}

// tree reads the imported page tree: a line per page, "path title", " (hidden)" for a hidden one.
func (f *importFixture) tree(t *testing.T, target string) (string, map[string]string) {
	t.Helper()
	var out struct{ Pages []importedPage }
	r := f.e.Do(f.admin, "GET", f.path(target+"/content/pages"), nil)
	crWant(t, r, http.StatusOK)
	r.JSON(t, &out)
	var b strings.Builder
	ids := map[string]string{}
	var walk func([]importedPage)
	walk = func(pages []importedPage) {
		for _, p := range pages {
			fmt.Fprintf(&b, "%s %s", p.Path, p.Title)
			if p.Hidden {
				b.WriteString(" (hidden)")
			}
			b.WriteString("\n")
			ids[p.Path] = p.ID
			walk(p.Pages)
		}
	}
	walk(out.Pages)
	return b.String(), ids
}

// blocksOf reads a page as internal/document reads its Markdown: its top-level block types and
// where its links and images lead ("page:ID", "page:ID#anchor", "file:ID", "url:…").
func (f *importFixture) blocksOf(t *testing.T, target, page string) (types, refs []string) {
	t.Helper()
	doc := document.FromMarkdown(f.markdownOf(t, target, page))
	if err := document.Validate(doc); err != nil {
		t.Fatalf("page %s: %v", page, err)
	}
	for _, b := range doc.Nodes {
		types = append(types, b.Type)
	}
	var walk func([]*document.Node)
	walk = func(nodes []*document.Node) {
		for _, n := range nodes {
			if ref, ok := n.Data["ref"].(map[string]any); ok && (n.Type == "link" || n.Type == "image") {
				refs = append(refs, refText(ref))
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	walk(doc.Nodes)
	return types, refs
}

func refText(ref map[string]any) string {
	switch kind := ref["kind"].(string); kind {
	case "anchor":
		return fmt.Sprintf("page:%v#%v", ref["page"], ref["anchor"])
	default:
		return fmt.Sprintf("%s:%v", kind, ref[kind])
	}
}

// wantImported checks the imported tree (as tree writes it) and that the one file imported is
// named file (none for ""), and returns the pages' ids by path and the file's id.
func (f *importFixture) wantImported(t *testing.T, target, file, want string) (ids map[string]string, fileID string) {
	t.Helper()
	tree, ids := f.tree(t, target)
	if tree != want {
		t.Fatalf("tree:\n%s\nwant:\n%s", tree, want)
	}
	_, files := f.content(t, target)
	if file == "" && len(files) == 0 {
		return ids, ""
	}
	if len(files) != 1 || files[0].Name != file {
		t.Fatalf("files %+v, want %s: the one file a page links to", files, file)
	}
	return ids, files[0].ID
}

// pageWant is what an imported page holds: block types among its top-level ones, in order, and
// every link and image, where they lead.
type pageWant struct {
	path   string
	blocks []string
	refs   []string
}

// checkPages checks imported pages, found by path among ids.
func (f *importFixture) checkPages(t *testing.T, target string, ids map[string]string, pages []pageWant) {
	t.Helper()
	for _, p := range pages {
		types, refs := f.blocksOf(t, target, ids[p.path])
		wantSubsequence(t, p.path+" blocks", types, p.blocks...)
		if !slices.Equal(refs, p.refs) {
			t.Errorf("%s links %q, want %q", p.path, refs, p.refs)
		}
	}
}

// dialectAnswer is an import's answer with Bindery's report.
type dialectAnswer struct {
	importAnswer
	Dialect string
	Report  []struct {
		Path, Result        string
		Converted, Warnings []string
	}
}

// reportOf finds a file's report in an answer.
func reportOf(t *testing.T, a dialectAnswer, path string) (result string, converted, warnings []string) {
	t.Helper()
	for _, r := range a.Report {
		if r.Path == path {
			return r.Result, r.Converted, r.Warnings
		}
	}
	t.Fatalf("no report for %s in %+v", path, a.Report)
	return "", nil, nil
}

// wantHolding asserts each of want is a substring of some item of list.
func wantHolding(t *testing.T, what string, list []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.ContainsFunc(list, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("%s %q: none holds %q", what, list, w)
		}
	}
}

// wantSubsequence asserts want appears in list in order.
func wantSubsequence(t *testing.T, what string, list []string, want ...string) {
	t.Helper()
	i := 0
	for _, s := range list {
		if i < len(want) && s == want[i] {
			i++
		}
	}
	if i < len(want) {
		t.Errorf("%s %q lacks %q in that order", what, list, want)
	}
}

func TestImportDocusaurus(t *testing.T) {
	for _, via := range []string{"files", "zip"} {
		t.Run(via, func(t *testing.T) {
			f := newImportFixture(t)
			files := siteFiles(t, "docusaurus")
			body := filesBody(files)
			if via == "zip" {
				body = zipBody(t, files)
			}
			a := f.postDialect(t, "", body)
			if a.Dialect != "docusaurus" {
				t.Fatalf("dialect %q", a.Dialect)
			}
			ids, logo := f.wantImported(t, "", "logo.png", `introduction Introduction
guides Guides
guides/setup Installing Acme
guides/configure Configure
tutorial-basics Tutorial - Basics
tutorial-basics/create-a-page Create a page
tutorial-basics/deploy-your-site Deploy your site
reference Reference
reference/api API
`)
			f.checkPages(t, "", ids, []pageWant{
				{"introduction", []string{"heading-1", "hint"}, []string{"page:" + ids["guides/setup"], "page:" + ids["guides/configure"] + "#ports",
					"page:" + ids["tutorial-basics/create-a-page"], "page:" + ids["tutorial-basics/deploy-your-site"], "page:" + ids["reference/api"] + "#list"}},
				{"guides/setup", []string{"hint", "list-ordered", "hint", "hint", "hint"}, []string{"page:" + ids["introduction"]}},
				{"guides/configure", []string{"tabs", "hint", "expandable"}, []string{"page:" + ids["introduction"], "file:" + logo}},
				{"tutorial-basics/create-a-page", []string{"hint"}, []string{"page:" + ids["guides/setup"]}},
				{"tutorial-basics/deploy-your-site", []string{"tabs"}, nil},
			})
			result, converted, warnings := reportOf(t, a, "docs/guides/configure.mdx")
			if result != "page" {
				t.Errorf("configure.mdx: %s", result)
			}
			wantHolding(t, "configure.mdx converted", converted, "<Tabs> → tabs", `<TabItem> → tab "Linux"`, "<Admonition> → warning hint",
				"<details> → expandable", "the import of @theme/Tabs is dropped")
			wantHolding(t, "configure.mdx warnings", warnings, "line 8: an MDX import statement is kept as text",
				"line 39: <Highlight> is a component Bindery does not convert; kept as text")
			_, converted, _ = reportOf(t, a, "docs/guides/install.md")
			wantHolding(t, "install.md converted", converted, "line 10: :::tip admonition → success hint", `slug "/setup"`)
			for path, want := range map[string]string{"sidebars.js": "skipped", "blog/2024-05-01-welcome.md": "skipped",
				"docs/guides/_category_.json": "layout", "docusaurus.config.js": "layout", "static/img/logo.png": "file"} {
				if result, _, _ := reportOf(t, a, path); result != want {
					t.Errorf("%s: %s, want %s", path, result, want)
				}
			}
		})
	}
}

func TestImportMkDocs(t *testing.T) {
	f := newImportFixture(t)
	a := f.postDialect(t, "/change-requests/1", zipBody(t, siteFiles(t, "mkdocs")))
	if a.Dialect != "mkdocs" {
		t.Fatalf("dialect %q", a.Dialect)
	}
	ids, diagram := f.wantImported(t, "/change-requests/1", "diagram.png", `home Home
getting-started Getting started
getting-started/installation Installation
getting-started/configure Configure
reference Reference
reference/api API
notes Notes (hidden)
`)
	f.checkPages(t, "/change-requests/1", ids, []pageWant{
		{"home", []string{"heading-1", "hint", "paragraph", "images"}, []string{"page:" + ids["getting-started/configure"],
			"page:" + ids["getting-started/installation"], "file:" + diagram}},
		{"getting-started/installation", []string{"tabs", "expandable", "expandable", "hint"}, []string{"page:" + ids["getting-started/configure"] + "#containers"}},
		{"getting-started/configure", []string{"hint", "heading-1"}, []string{"page:" + ids["reference/api"] + "#auth"}},
	})
	_, converted, _ := reportOf(t, a, "documentation/getting-started/install.md")
	wantHolding(t, "install.md converted", converted, `line 3: === "Linux" content tab → tab`, "line 15: ??? question collapsible → expandable",
		"line 23: !!! warning admonition → warning hint")
	_, converted, warnings := reportOf(t, a, "mkdocs.yml")
	wantHolding(t, "mkdocs.yml converted", converted, "docs_dir: documentation/", `the section "Reference" → an empty page`)
	wantHolding(t, "mkdocs.yml warnings", warnings, `the nav entry "GitHub" links to https://github.com/acme/acme`)
	if result, _, warnings := reportOf(t, a, "README.md"); result != "skipped" || len(warnings) != 1 || !strings.Contains(warnings[0], "outside the docs_dir") {
		t.Errorf("README.md: %s %q", result, warnings)
	}
	if _, _, warnings := reportOf(t, a, "documentation/drafts/notes.md"); len(warnings) != 1 || !strings.Contains(warnings[0], "imported hidden") {
		t.Errorf("notes.md: %q", warnings)
	}
}

func TestImportGitBookRepository(t *testing.T) {
	f := newImportFixture(t)
	a := f.postDialect(t, "", filesBody(siteFiles(t, "gitbook")))
	if a.Dialect != "gitbook" {
		t.Fatalf("dialect %q", a.Dialect)
	}
	ids, _ := f.wantImported(t, "", "", `intro Introduction
quickstart Quickstart
guides Guides
guides/setup Setup
guides/setup/advanced Advanced setup
unlisted Unlisted (hidden)
`)
	f.checkPages(t, "", ids, []pageWant{
		{"intro", nil, []string{"page:" + ids["quickstart"]}},
		{"quickstart", []string{"hint", "tabs"}, nil},
		{"guides/setup", nil, []string{"page:" + ids["guides/setup/advanced"]}},
		{"guides/setup/advanced", []string{"heading-1", "expandable"}, nil},
	})
	if result, converted, _ := reportOf(t, a, ".gitbook.yaml"); result != "layout" || !strings.Contains(converted[0], "root: docs/") {
		t.Errorf(".gitbook.yaml: %s %q", result, converted)
	}
}

// TestImportHostileUploads: what an upload must not do gets a clear error naming the file, or a
// warning in the report; never a crash or an unbounded answer.
func TestImportHostileUploads(t *testing.T) {
	f := newImportFixture(t)
	for name, path := range map[string]string{"ErrZipParent": "../evil.md", "ErrZipAbsolute": "/etc/evil.md", "ErrZipBackslashes": `..\..\evil.md`,
		"ErrZipNestedParent": "docs/../../evil.md"} {
		t.Run(name, func(t *testing.T) {
			body := zipBody(t, map[string][]byte{"docs/intro.md": []byte("# Intro\n"), path: []byte("# Evil\n")})
			crWantError(t, f.e.Do(f.admin, "POST", f.path("/content/import"), body), http.StatusBadRequest, "zip:", "must stay inside the upload")
		})
	}
	t.Run("OKDeeplyNestedAdmonitions", func(t *testing.T) {
		md := "# Deep\n\n" + strings.Repeat(":::note\n", 3000) + "text\n" + strings.Repeat(":::\n", 3000) +
			strings.Repeat("<details>\n", 3000) + strings.Repeat("!!! note\n", 10)
		a := f.postDialect(t, "", filesBody(map[string][]byte{"docs/deep.mdx": []byte(md)}))
		_, converted, warnings := reportOf(t, a, "docs/deep.mdx")
		if len(converted) > 51 || len(warnings) != 51 || !strings.Contains(warnings[0], "nested more than 16 deep") ||
			!strings.HasPrefix(warnings[50], "and ") {
			t.Fatalf("converted %d, warnings %d: %q", len(converted), len(warnings), warnings[:2])
		}
	})
	t.Run("OKLargeFile", func(t *testing.T) {
		section := "## Part\n\n:::tip Tip\nText with a [link](/docs/intro).\n:::\n\n<Tabs>\n<TabItem value=\"a\">A</TabItem>\n</Tabs>\n\n<Custom />\n\n"
		// 512 KB: 2 MB took over the 30 s request deadline on PostgreSQL under the race detector.
		md := "# Large\n\n" + strings.Repeat(section, (512<<10)/len(section))
		a := f.postDialect(t, "", filesBody(map[string][]byte{"docs/large.mdx": []byte(md), "docs/intro.md": []byte("# Intro\n")}))
		_, converted, warnings := reportOf(t, a, "docs/large.mdx")
		if len(converted) != 51 || len(warnings) != 51 {
			t.Fatalf("converted %d, warnings %d: the report lists 50 of each and counts the rest", len(converted), len(warnings))
		}
	})
}

// postDialect posts an import, expects 201 and a valid answer, and decodes it with its report.
func (f *importFixture) postDialect(t *testing.T, target string, body any) dialectAnswer {
	t.Helper()
	var a dialectAnswer
	f.importResponse(t, f.reviewer, target, body).JSON(t, &a)
	return a
}

// TestImportReportGraphQL: GraphQL's import answers the dialect and the report as REST does.
func TestImportReportGraphQL(t *testing.T) {
	f := newImportFixture(t)
	body := filesBody(siteFiles(t, "mkdocs"))
	var d struct {
		ImportChangeRequestContent struct {
			Dialect string
			Report  []struct {
				Path, Result        string
				Converted, Warnings []string
			}
		}
	}
	gqlOK(t, f.e.GraphQL(f.reviewer, `mutation($s: ID!, $in: ContentImportInput!) {
		importChangeRequestContent(spaceId: $s, changeRequest: "1", input: $in) { dialect report { path result converted warnings } } }`,
		map[string]any{"s": f.space, "in": map[string]any{"source": "markdown", "files": body["files"]}}), &d)
	a := d.ImportChangeRequestContent
	if a.Dialect != "mkdocs" || len(a.Report) != 9 {
		t.Fatalf("answer %+v", a)
	}
	for _, r := range a.Report {
		if r.Path == "documentation/index.md" && (r.Result != "page" || len(r.Converted) != 1 || r.Warnings == nil) {
			t.Errorf("index.md: %+v", r)
		}
	}
}
