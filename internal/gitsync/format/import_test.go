package format

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// exported is a space's export as repository files.
func exported(s *space, root string) []importer.Upload {
	c := s.content()
	c.Root = root
	entries, _ := Export(c)
	var ups []importer.Upload
	for _, e := range entries {
		data := e.Data
		if e.File != "" {
			data = s.blobs[e.File]
		}
		ups = append(ups, importer.Upload{Path: e.Path, Data: data})
	}
	return ups
}

func replaceFile(ups []importer.Upload, p string, data string) []importer.Upload {
	out := slices.Clone(ups)
	for i := range out {
		if out[i].Path == p {
			out[i].Data = []byte(data)
			return out
		}
	}
	return append(out, importer.Upload{Path: p, Data: []byte(data)})
}

func TestImportOfTheOwnExportChangesNothing(t *testing.T) {
	for _, root := range []string{"", "docs"} {
		s := roundTripSample()
		base := s.content()
		base.Root = root
		got, err := Import(base, exported(s, root), testEnv())
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Changed) != 0 || len(got.Bodies) != 0 || len(got.Blobs) != 0 {
			t.Fatalf("root %q: changed %v, %d bodies, %d blobs", root, got.Changed, len(got.Bodies), len(got.Blobs))
		}
		// Every page was read from the file the export gave it (groups have none).
		if want := Paths(base.Tree, root); !maps.Equal(got.Paths, want) {
			t.Fatalf("root %q: read from %v, exported to %v", root, got.Paths, want)
		}
	}
}

func TestImportChangesOnlyWhatTheCommitChanged(t *testing.T) {
	s := roundTripSample()
	base := s.content()
	ups := replaceFile(exported(s, ""), "guide/install.md", "---\nicon: 🚀\n---\n\n# Install\n\n## Requirements\n\nNone now. Back to [the start](../README.md).\n")
	got, err := Import(base, ups, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	// The page changed; the image it no longer shows stays, since the repository still has it.
	if strings.Join(got.Changed, " ") != "install" || len(got.Bodies) != 1 || got.Tree.File("shot") == nil {
		t.Fatalf("changed %v, bodies %v", got.Changed, got.Bodies)
	}
	body := got.Bodies[got.Tree.Page("install").Body]
	if !strings.Contains(body, "None now") || !strings.Contains(body, "](/pages/home)") {
		t.Fatalf("body %q", body)
	}
	// A new page listed in SUMMARY.md is added under its parent; a page whose file is gone goes.
	ups = replaceFile(ups, "SUMMARY.md", strings.Replace(string(fileOf(ups, "SUMMARY.md")), "* [Guide](guide/README.md)\n",
		"* [Guide](guide/README.md)\n  * [Extra](guide/extra.md)\n", 1))
	ups = replaceFile(ups, "guide/extra.md", "# Extra\n\nMore.\n")
	ups = slices.DeleteFunc(ups, func(u importer.Upload) bool { return u.Path == "secret.md" })
	got, err = Import(base, ups, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if got.Tree.Page("secret") != nil || got.Tree.Page("install") == nil || got.Tree.Page("guide") == nil {
		t.Fatal("pages kept or lost")
	}
	var extra *tree.Page
	got.Tree.Walk(func(p *tree.Page, _ string) {
		if p.Title == "Extra" {
			extra = p
		}
	})
	if extra == nil || extra.Parent != "guide" || !slices.Contains(got.Changed, "secret") || !slices.Contains(got.Changed, extra.ID) {
		t.Fatalf("extra %+v, changed %v", extra, got.Changed)
	}
}

func fileOf(ups []importer.Upload, p string) []byte {
	for _, u := range ups {
		if u.Path == p {
			return u.Data
		}
	}
	return nil
}

// TestImportFirstPageWithChildren imports the export of a space whose first page has pages
// under it: the README's children are in the folder of its slug.
func TestImportFirstPageWithChildren(t *testing.T) {
	s := newSpace().
		page(tree.Page{ID: "guides", Title: "Guides", Slug: "guides"}, "Every guide.\n").
		page(tree.Page{ID: "start", Parent: "guides", Title: "Getting started", Slug: "getting-started"}, "Install.\n").
		page(tree.Page{ID: "cafe", Parent: "guides", Title: "Café", Slug: "café"}, "Crème.\n").
		page(tree.Page{ID: "api", Title: "API", Slug: "api"}, "Endpoints.\n")
	got, err := Import(s.content(), exported(s, ""), testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Changed) != 0 {
		var b strings.Builder
		got.Tree.Walk(func(p *tree.Page, path string) { fmt.Fprintf(&b, "%s %s %s\n", p.ID, path, p.Title) })
		t.Fatalf("changed %v\n%s", got.Changed, b.String())
	}
}

// TestReimportAgreesWithImport lays commits that change pages' files and an asset over the base
// by rereading those files alone, and gets what reading the whole repository gets.
func TestReimportAgreesWithImport(t *testing.T) {
	s := roundTripSample()
	base := s.content()
	ups := exported(s, "")
	ups = replaceFile(ups, "guide/install.md", "---\ndescription: Set it up\n---\n\n# Install\n\n## Requirements\n\nNone now. Back to [the start](../README.md), see ![logo](../.gitbook/assets/logo.png).\n")
	ups = replaceFile(ups, "guide/README.md", "# Guide\n\nThe guide, shorter: [configure](configure/README.md#top).\n")
	ups = replaceFile(ups, ".gitbook/assets/logo.png", "PNG logo, redrawn")
	changed := []importer.Upload{{Path: "guide/install.md", Data: fileOf(ups, "guide/install.md")},
		{Path: "guide/README.md", Data: fileOf(ups, "guide/README.md")},
		{Path: ".gitbook/assets/logo.png", Data: fileOf(ups, ".gitbook/assets/logo.png")},
		{Path: ".github/workflows/build.yml", Data: []byte("not the content")}}
	whole, err := Import(base, ups, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := Reimport(base, changed, testEnv())
	if err != nil || !ok {
		t.Fatalf("ok %v, %v", ok, err)
	}
	if strings.Join(got.Changed, " ") != strings.Join(whole.Changed, " ") || strings.Join(got.Changed, " ") != "guide install logo" {
		t.Fatalf("changed %v, the whole import's %v", got.Changed, whole.Changed)
	}
	for _, id := range []string{"guide", "install"} {
		a, b := got.Tree.Page(id), whole.Tree.Page(id)
		if a.Title != b.Title || a.Description != b.Description || a.Emoji != b.Emoji || got.Bodies[a.Body] != whole.Bodies[b.Body] {
			t.Fatalf("%s: reread %+v %q, imported %+v %q", id, a, got.Bodies[a.Body], b, whole.Bodies[b.Body])
		}
	}
	if got.Tree.Page("install").Emoji != "" || got.Tree.File("logo").Blob != tree.Hash([]byte("PNG logo, redrawn")) || len(got.Blobs) != 1 {
		t.Fatalf("install %+v, logo %+v", got.Tree.Page("install"), got.Tree.File("logo"))
	}
	// What changes the layout is left to Import: a new page, a removed one, the table of contents.
	for _, c := range [][]importer.Upload{
		{{Path: "guide/extra.md", Data: []byte("# Extra\n")}},
		{{Path: "secret.md"}},
		{{Path: "SUMMARY.md", Data: []byte("# Table of contents\n")}},
		{{Path: ".gitbook.yaml", Data: []byte("root: ./docs/\n")}},
	} {
		if _, ok, err := Reimport(base, c, testEnv()); ok || err != nil {
			t.Fatalf("%s: ok %v, %v", c[0].Path, ok, err)
		}
	}
}
