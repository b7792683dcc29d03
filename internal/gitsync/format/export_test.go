package format

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/content/orderkey"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
)

// space builds a space's content: pages under their parents in the order given, their bodies,
// and files.
type space struct {
	entries []tree.Entry
	bodies  map[string]string
	blobs   map[string][]byte // file id → bytes
	order   map[string]int    // parent → siblings so far
}

func newSpace() *space {
	return &space{bodies: map[string]string{}, blobs: map[string][]byte{}, order: map[string]int{}}
}

func (s *space) page(p tree.Page, body string) *space {
	p.Order = orderkey.Spread(10000)[s.order[p.Parent]]
	s.order[p.Parent]++
	p.Type = cmpOr(p.Type, tree.TypeDocument)
	if body != "" {
		p.Body = tree.Hash([]byte(body))
		s.bodies[p.Body] = body
	}
	s.entries = append(s.entries, tree.Entry{Page: &p})
	return s
}

func (s *space) file(id, name string, data []byte) *space {
	s.entries = append(s.entries, tree.Entry{File: &tree.File{ID: id, Name: name, ContentType: "image/png", Blob: tree.Hash(data), Size: int64(len(data))}})
	s.blobs[id] = data
	return s
}

func (s *space) content() Space { return Space{Tree: tree.New(s.entries), Bodies: s.bodies} }

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func sample() *space {
	return roundTripSample().
		page(tree.Page{ID: "readme", Parent: "configure", Title: "Read me", Slug: "readme"}, "Clashes with configure/README.md, [gone](/pages/nowhere).\n")
}

// roundTripSample has no page whose path is numbered: the importer derives a numbered path's
// slug from it ("readme (1).md" → "readme-1").
func roundTripSample() *space {
	return newSpace().
		page(tree.Page{ID: "home", Title: "Welcome", Slug: "welcome"}, "See [install](/pages/install#requirements) and ![logo](/files/logo).\n").
		page(tree.Page{ID: "guide", Title: "Guide", Slug: "guide", Description: "How to use it"}, "The guide.\n\n{% content-ref url=\"/pages/advanced\" %}\n[/pages/advanced](/pages/advanced)\n{% endcontent-ref %}\n").
		page(tree.Page{ID: "install", Parent: "guide", Title: "Install", Slug: "install", Emoji: "🚀"}, "## Requirements\n\n<figure><img src=\"/files/shot\" alt=\"A shot\"><figcaption><p>Caption</p></figcaption></figure>\n\nBack to [the start](/pages/home).\n").
		page(tree.Page{ID: "configure", Parent: "guide", Title: "Configure", Slug: "configure"}, "{% file src=\"/files/other\" %}\n\n```md\n[not a link](/pages/home)\n{% content-ref url=\"/pages/home\" %}\n```\n").
		page(tree.Page{ID: "advanced", Parent: "configure", Title: "A *starred* title", Slug: "advanced"}, "Deep.\n").
		page(tree.Page{ID: "secret", Title: "Secret", Slug: "secret", Hidden: true}, "Hidden.\n").
		file("logo", "logo.png", []byte("PNG logo")).
		file("shot", "image.png", []byte("PNG shot")).
		file("other", "image.png", []byte("PNG other"))
}

func TestExportLayout(t *testing.T) {
	entries, l := Export(sample().content())
	var paths []string
	for _, e := range entries {
		paths = append(paths, e.Path)
	}
	want := ".gitbook.yaml .gitbook/assets/image (1).png .gitbook/assets/image.png .gitbook/assets/logo.png README.md SUMMARY.md " +
		"guide/README.md guide/configure/README.md guide/configure/advanced.md guide/configure/readme (1).md guide/install.md secret.md"
	if got := strings.Join(paths, " "); got != want {
		t.Fatalf("paths:\n%s\nwant:\n%s", got, want)
	}
	wantSummary := "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n" +
		"  * [Configure](guide/configure/README.md)\n    * [A \\*starred\\* title](guide/configure/advanced.md)\n" +
		"    * [Read me](guide/configure/readme%20%281%29.md)\n"
	if got := string(entry(t, entries, "SUMMARY.md").Data); got != wantSummary {
		t.Fatalf("SUMMARY.md:\n%s\nwant:\n%s", got, wantSummary)
	}
	install := string(entry(t, entries, "guide/install.md").Data)
	wantInstall := "---\nicon: 🚀\n---\n# Install\n\n## Requirements\n\n<figure><img src=\"../.gitbook/assets/image%20%281%29.png\" alt=\"A shot\"><figcaption><p>Caption</p></figcaption></figure>\n\nBack to [the start](../README.md).\n"
	if install != wantInstall {
		t.Fatalf("install.md:\n%s\nwant:\n%s", install, wantInstall)
	}
	configure := string(entry(t, entries, "guide/configure/README.md").Data)
	if !strings.Contains(configure, "{% file src=\"../../.gitbook/assets/image.png\" %}") ||
		!strings.Contains(configure, "[not a link](/pages/home)\n{% content-ref url=\"/pages/home\" %}") {
		t.Fatalf("configure:\n%s", configure)
	}
	if got := string(entry(t, entries, "guide/configure/readme (1).md").Data); !strings.HasSuffix(got, "README.md, gone.\n") {
		t.Fatalf("a link to no page keeps its text: %q", got)
	}
	if l.Pages["home"] != "README.md" || l.Files["shot"] != ".gitbook/assets/image (1).png" {
		t.Fatalf("layout %v", l)
	}
}

func entry(t *testing.T, entries []Entry, p string) Entry {
	t.Helper()
	for _, e := range entries {
		if e.Path == p {
			return e
		}
	}
	t.Fatalf("no %s", p)
	return Entry{}
}

func TestExportIsDeterministic(t *testing.T) {
	a, _ := Export(sample().content())
	for range 5 {
		b, _ := Export(sample().content())
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatal("two exports of the same content differ")
		}
	}
}

func TestExportRootGroupsAndRedirects(t *testing.T) {
	s := newSpace().
		page(tree.Page{ID: "home", Title: "Home", Slug: "home"}, "Hi.\n").
		page(tree.Page{ID: "ref", Title: "Reference", Slug: "reference", Type: tree.TypeGroup}, "").
		page(tree.Page{ID: "api", Parent: "ref", Title: "API", Slug: "api"}, "The API.\n").
		content()
	s.Root, s.Redirects = "docs", map[string]string{"old/api": "api", "gone": "nowhere"}
	entries, _ := Export(s)
	if got, want := string(entry(t, entries, ".gitbook.yaml").Data), "root: ./docs/\nstructure:\n    readme: README.md\n    summary: SUMMARY.md\nredirects:\n    old/api: reference/api.md\n"; got != want {
		t.Fatalf(".gitbook.yaml:\n%s\nwant:\n%s", got, want)
	}
	if got, want := string(entry(t, entries, "docs/SUMMARY.md").Data), "# Table of contents\n\n* [Home](README.md)\n\n## Reference\n\n* [API](reference/api.md)\n"; got != want {
		t.Fatalf("SUMMARY.md:\n%s\nwant:\n%s", got, want)
	}
	entry(t, entries, "docs/README.md")
	entry(t, entries, "docs/reference/api.md")
}

// TestExportImportRoundTrip exports a space and imports the repository into an empty one: the
// same pages in the same places with the same titles, slugs, descriptions, icons, hidden flags
// and bodies, links to the same pages and files.
func TestExportImportRoundTrip(t *testing.T) {
	roundTrip(t, roundTripSample())
}

func roundTrip(t *testing.T, s *space) {
	t.Helper()
	content := s.content()
	entries, _ := Export(content)
	var ups []importer.Upload
	for _, e := range entries {
		data := e.Data
		if e.File != "" {
			data = s.blobs[e.File]
		}
		ups = append(ups, importer.Upload{Path: e.Path, Data: data})
	}
	site, err := importer.FromUploads(ups)
	if err != nil {
		t.Fatal(err)
	}
	o, err := importer.Build(tree.New(nil), site, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	want := describe(content.Tree, content.Bodies, s.blobs)
	got := describe(o.Tree, o.Bodies, blobsOf(o))
	if got != want {
		t.Fatalf("imported:\n%s\nexported:\n%s", got, want)
	}
}

func blobsOf(o *importer.Outcome) map[string][]byte {
	out := map[string][]byte{}
	for _, b := range o.Blobs {
		for _, f := range o.Tree.Files() {
			if f.Blob == b.Hash {
				out[f.ID] = b.Data
			}
		}
	}
	return out
}

// refPattern is a reference to a page or file in a document's JSON.
var refPattern = regexp.MustCompile(`"(page|file)":"([A-Za-z0-9]+)"`)

// describe lists a tree's pages in order with what a round trip keeps, their bodies as JSON
// documents (what the Markdown means), ids replaced by the titles of the pages and the bytes of
// the files they name. The first page's slug is left out:
// README.md names none.
func describe(t *tree.Tree, bodies map[string]string, blobs map[string][]byte) string {
	var b strings.Builder
	first := true
	t.Walk(func(p *tree.Page, path string) {
		slug := p.Slug
		if first {
			slug, first = "", false
		}
		doc, err := json.Marshal(document.FromMarkdown(bodies[p.Body]))
		if err != nil {
			panic(err)
		}
		body := refPattern.ReplaceAllStringFunc(string(doc), func(ref string) string {
			m := refPattern.FindStringSubmatch(ref)
			if m[1] == "file" {
				return "file:" + string(blobs[m[2]])
			}
			if q := t.Page(m[2]); q != nil {
				return "page:" + q.Title
			}
			return ref
		})
		fmt.Fprintf(&b, "%s%s slug=%s desc=%q emoji=%q hidden=%v\n%s\n", strings.Repeat("  ", strings.Count(path, "/")),
			p.Title, slug, p.Description, p.Emoji, p.Hidden, body)
	})
	return b.String()
}

func testEnv() edit.Env {
	n := 0
	return edit.Env{Now: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC),
		NewID:   func() string { n++; return fmt.Sprintf("id%04d", n) },
		Version: func(string) (*tree.Tree, error) { return nil, fmt.Errorf("no versions") }}
}

// TestExportImportRoundTripLarge round-trips 500 pages nested four deep under top-level
// sections, with images and every GitBook block of the document model's test pages.
func TestExportImportRoundTripLarge(t *testing.T) {
	var bodies []string
	for _, name := range []string{"blocks", "gitbook", "inlines", "nested", "text", "adaptive", "openapi"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "document", "testdata", name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, string(b))
	}
	s := newSpace()
	for i := range 20 {
		s.file(fmt.Sprintf("f%d", i), fmt.Sprintf("image-%d.png", i%7), []byte(fmt.Sprintf("PNG %d", i)))
	}
	pageRef, fileRef := regexp.MustCompile(`/pages/[A-Za-z0-9]+`), regexp.MustCompile(`/files/[A-Za-z0-9]+`)
	for i := range 500 {
		parent := ""
		switch {
		case i%25 == 0: // a section at the top level
		case i%5 == 0: // under its section
			parent = fmt.Sprintf("p%d", i-i%25)
		default: // a chain of four under it
			parent = fmt.Sprintf("p%d", i-1)
		}
		body := pageRef.ReplaceAllString(bodies[i%len(bodies)], fmt.Sprintf("/pages/p%d", (i*7)%500))
		body = fileRef.ReplaceAllString(body, fmt.Sprintf("/files/f%d", i%20))
		s.page(tree.Page{ID: fmt.Sprintf("p%d", i), Parent: parent, Title: fmt.Sprintf("Page %d", i), Slug: fmt.Sprintf("page-%d", i)}, body)
	}
	roundTrip(t, s)
}

// TestDeltaIsWhatExportChanges exports the changes between two contents as the entries of the
// second's export that differ from the first's, or leaves them to Export when paths move.
func TestDeltaIsWhatExportChanges(t *testing.T) {
	before := roundTripSample().content()
	edited := roundTripSample()
	for i, e := range edited.entries {
		if e.Page != nil && e.Page.ID == "install" {
			p := *e.Page
			p.Title, p.Body = "Installing", tree.Hash([]byte("New text.\n"))
			edited.bodies[p.Body] = "New text.\n"
			edited.entries[i] = tree.Entry{Page: &p}
		}
	}
	after := edited.content()
	got, ok := Delta(before, after, []string{"install"})
	want, _ := Export(after)
	if !ok || len(got) != 2 || got[0].Path != "SUMMARY.md" || got[1].Path != "guide/install.md" {
		t.Fatalf("ok %v, entries %v", ok, got)
	}
	for _, e := range got {
		if w := entry(t, want, e.Path); string(w.Data) != string(e.Data) {
			t.Fatalf("%s:\n%s\nwant:\n%s", e.Path, e.Data, w.Data)
		}
	}
	renamed := roundTripSample().page(tree.Page{ID: "new", Title: "New", Slug: "new"}, "New.\n").content()
	if _, ok := Delta(before, renamed, []string{"new"}); ok {
		t.Fatal("a new page's path is not a delta")
	}
}
