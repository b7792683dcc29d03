package format

import (
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/content/tree"
)

func (s *space) reusable(id, title, body string) *space {
	r := &tree.Reusable{ID: id, Title: title}
	if body != "" {
		r.Body = tree.Hash([]byte(body))
		s.bodies[r.Body] = body
	}
	s.entries = append(s.entries, tree.Entry{Reusable: r})
	return s
}

// reusableSample places two reusable contents, one in a nested page, one linking to a page.
func reusableSample() *space {
	return roundTripSample().
		reusable("warn", "Backup warning", "Back up **first**. See [install](/pages/install).\n").
		reusable("help", "Need help?", "Ask us.\n\n{% include \"/reusable-contents/warn\" %}\n").
		page(tree.Page{ID: "ops", Parent: "guide", Title: "Operations", Slug: "ops"},
			"Before:\n\n{% include \"/reusable-contents/warn\" %}\n\nAfter.\n\n{% include \"/reusable-contents/help\" %}\n")
}

func TestReusableContentsExportAsGitBookIncludes(t *testing.T) {
	s := reusableSample()
	entries, l := Export(s.content())
	files := map[string]string{}
	for _, e := range entries {
		files[e.Path] = string(e.Data)
	}
	if l.Reusables["warn"] != ".gitbook/includes/backup-warning.md" || l.Reusables["help"] != ".gitbook/includes/need-help.md" {
		t.Fatalf("reusables at %v", l.Reusables)
	}
	if got := files["guide/ops.md"]; !strings.Contains(got, "{% include \"../.gitbook/includes/backup-warning.md\" %}\n\nAfter.\n\n{% include \"../.gitbook/includes/need-help.md\" %}") {
		t.Fatalf("the page:\n%s", got)
	}
	if got, want := files[".gitbook/includes/backup-warning.md"], "---\ntitle: Backup warning\n---\n\nBack up **first**. See [install](../../guide/install.md).\n"; got != want {
		t.Fatalf("the include:\n%q\nwant\n%q", got, want)
	}
	if got := files[".gitbook/includes/need-help.md"]; !strings.Contains(got, "title: \"Need help?\"") && !strings.Contains(got, "title: Need help?") ||
		!strings.Contains(got, `{% include "backup-warning.md" %}`) {
		t.Fatalf("the nested include:\n%s", got)
	}
	if p := Paths(s.content().Tree, "docs"); p["warn"] != "docs/.gitbook/includes/backup-warning.md" {
		t.Fatalf("paths %v", p)
	}
}

func TestReusableContentsImportBack(t *testing.T) {
	for _, root := range []string{"", "docs"} {
		s := reusableSample()
		base := s.content()
		base.Root = root
		ups := exported(s, root)
		got, err := Import(base, ups, testEnv())
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Changed) != 0 || len(got.Bodies) != 0 || len(got.Warnings) != 0 {
			t.Fatalf("root %q: changed %v, bodies %v, warnings %v", root, got.Changed, got.Bodies, got.Warnings)
		}
		if got.Paths["warn"] != strings.TrimPrefix(root+"/.gitbook/includes/backup-warning.md", "/") {
			t.Fatalf("paths %v", got.Paths)
		}

		// Into an empty space: new ids, the same titles and bodies, the placements naming them.
		fresh, err := Import(newSpace().content(), exported(s, ""), testEnv())
		if err != nil {
			t.Fatal(err)
		}
		byTitle := map[string]*tree.Reusable{}
		for _, r := range fresh.Tree.Reusables() {
			byTitle[r.Title] = r
		}
		warn, help := byTitle["Backup warning"], byTitle["Need help?"]
		if warn == nil || help == nil || len(byTitle) != 2 {
			t.Fatalf("reusables %v", byTitle)
		}
		if b := fresh.Bodies[warn.Body]; !strings.HasPrefix(b, "Back up **first**. See [install](/pages/") {
			t.Fatalf("warn body %q", b)
		}
		if b := fresh.Bodies[help.Body]; b != "Ask us.\n\n{% include \"/reusable-contents/"+warn.ID+"\" %}\n" {
			t.Fatalf("help body %q", b)
		}
		var ops *tree.Page
		fresh.Tree.Walk(func(p *tree.Page, _ string) {
			if p.Title == "Operations" {
				ops = p
			}
		})
		if b := fresh.Bodies[ops.Body]; !strings.Contains(b, "{% include \"/reusable-contents/"+warn.ID+"\" %}") ||
			!strings.Contains(b, "{% include \"/reusable-contents/"+help.ID+"\" %}") {
			t.Fatalf("ops body %q", b)
		}
	}
}

func TestReusableContentsImportChanges(t *testing.T) {
	s := reusableSample()
	base := s.content()
	base.Known = map[string]string{"warn": ".gitbook/includes/backup-warning.md", "help": ".gitbook/includes/need-help.md"}
	ups := exported(s, "")

	// An edited include file updates its reusable content, nothing else.
	edited := replaceFile(ups, ".gitbook/includes/backup-warning.md", "---\ntitle: Backup warning\n---\n\nBack up **twice**.\n")
	got, err := Import(base, edited, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Changed, " ") != "warn" || got.Bodies[got.Tree.Reusable("warn").Body] != "Back up **twice**.\n" {
		t.Fatalf("changed %v bodies %v", got.Changed, got.Bodies)
	}

	// A removed file removes the content the last sync wrote; a new file adds one; a content the
	// repository never had stays.
	s.reusable("local", "Only here", "Never synced.\n")
	base = s.content()
	base.Known = map[string]string{"warn": ".gitbook/includes/backup-warning.md", "help": ".gitbook/includes/need-help.md"}
	changed := slices.DeleteFunc(slices.Clone(ups), func(u importer.Upload) bool { return u.Path == ".gitbook/includes/need-help.md" })
	changed = replaceFile(changed, ".gitbook/includes/new.md", "---\ntitle: New one\n---\n\nNew.\n")
	changed = replaceFile(changed, "guide/ops.md", "# Operations\n\n{% include \"../.gitbook/includes/new.md\" %}\n")
	got, err = Import(base, changed, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if got.Tree.Reusable("help") != nil || got.Tree.Reusable("local") == nil || got.Tree.Reusable("warn") == nil || len(got.Tree.Reusables()) != 3 {
		t.Fatalf("reusables %v", got.Tree.Reusables())
	}
	var added *tree.Reusable
	for _, r := range got.Tree.Reusables() {
		if r.Title == "New one" {
			added = r
		}
	}
	if added == nil || !strings.Contains(got.Bodies[got.Tree.Page("ops").Body], "/reusable-contents/"+added.ID) {
		t.Fatalf("added %v, ops %q", added, got.Bodies[got.Tree.Page("ops").Body])
	}
}

// TestReusableContentsHostileIncludes: an include tag that is absolute, leaves the repository,
// names a file outside .gitbook/includes or one that is not there stays as text with a warning;
// nothing outside the repository's files is read.
func TestReusableContentsHostileIncludes(t *testing.T) {
	s := reusableSample()
	base := s.content()
	hostile := []string{"../../etc/passwd", "/etc/passwd", "../../../../.gitbook/includes/backup-warning.md",
		"../secret.md", "../.gitbook/includes/missing.md", "file:///etc/passwd", "../.gitbook/assets/logo.png"}
	body := "# Operations\n\n"
	for _, h := range hostile {
		body += "{% include \"" + h + "\" %}\n\n"
	}
	got, err := Import(base, replaceFile(exported(s, ""), "guide/ops.md", body), testEnv())
	if err != nil {
		t.Fatal(err)
	}
	stored := got.Bodies[got.Tree.Page("ops").Body]
	for _, h := range hostile {
		if !strings.Contains(stored, "{% include \""+h+"\" %}") {
			t.Errorf("%s was not kept as it is: %q", h, stored)
		}
	}
	if strings.Contains(stored, "/reusable-contents/") || len(got.Warnings) != len(hostile) {
		t.Fatalf("stored %q warnings %v", stored, got.Warnings)
	}
	for _, w := range got.Warnings {
		if !strings.HasPrefix(w, "guide/ops.md: the include ") {
			t.Fatalf("warning %q", w)
		}
	}
}

// TestReusableContentsShowTheirOwnImages: an image (and a file block's file) only a reusable
// content shows is imported with it, its link naming the file by id, and exported back to the
// same asset; importing the own export changes nothing.
func TestReusableContentsShowTheirOwnImages(t *testing.T) {
	s := reusableSample().
		file("diagram", "diagram.png", []byte("PNG diagram")).
		file("sheet", "sheet.pdf", []byte("PDF sheet")).
		reusable("fig", "Figure", "![Diagram](/files/diagram)\n\n{% file src=\"/files/sheet\" %}\n")
	ups := exported(s, "")
	if got := string(fileOf(ups, ".gitbook/includes/figure.md")); !strings.Contains(got, "![Diagram](../assets/diagram.png)") ||
		!strings.Contains(got, `{% file src="../assets/sheet.pdf" %}`) {
		t.Fatalf("the include:\n%s", got)
	}
	fresh, err := Import(newSpace().content(), ups, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*tree.File{}
	for _, f := range fresh.Tree.Files() {
		byName[f.Name] = f
	}
	diagram, sheet := byName["diagram.png"], byName["sheet.pdf"]
	if diagram == nil || sheet == nil || diagram.Blob != tree.Hash([]byte("PNG diagram")) || sheet.Blob != tree.Hash([]byte("PDF sheet")) {
		t.Fatalf("files %v", byName)
	}
	if fresh.Paths[diagram.ID] != ".gitbook/assets/diagram.png" {
		t.Fatalf("paths %v", fresh.Paths)
	}
	var fig *tree.Reusable
	for _, r := range fresh.Tree.Reusables() {
		if r.Title == "Figure" {
			fig = r
		}
	}
	if b := fresh.Bodies[fig.Body]; b != "![Diagram](/files/"+diagram.ID+")\n\n{% file src=\"/files/"+sheet.ID+"\" %}\n" {
		t.Fatalf("the figure's body %q", b)
	}
	blobs := map[string][]byte{}
	for _, b := range fresh.Blobs {
		blobs[b.Hash] = b.Data
	}
	again := &space{entries: fresh.Tree.Entries(), bodies: fresh.Bodies, blobs: map[string][]byte{}}
	for _, f := range fresh.Tree.Files() {
		again.blobs[f.ID] = blobs[f.Blob]
	}
	back := exported(again, "")
	for _, p := range []string{".gitbook/includes/figure.md", ".gitbook/assets/diagram.png", ".gitbook/assets/sheet.pdf"} {
		if string(fileOf(back, p)) != string(fileOf(ups, p)) {
			t.Fatalf("%s exported back as %q, was %q", p, fileOf(back, p), fileOf(ups, p))
		}
	}
	base := s.content()
	if got, err := Import(base, ups, testEnv()); err != nil || len(got.Changed) != 0 {
		t.Fatalf("the own export: changed %v, %v", got.Changed, err)
	}
}
