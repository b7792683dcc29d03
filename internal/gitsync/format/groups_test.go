package format

import (
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// groupedSpace has two groups, one whose slug is not its title's, holding pages nested three
// deep (and a hidden one, which SUMMARY.md does not list), after two pages outside any group.
func groupedSpace() *space {
	return newSpace().
		page(tree.Page{ID: "home", Title: "Welcome", Slug: "welcome"}, "Start with [install](/pages/install).\n").
		page(tree.Page{ID: "intro", Title: "Introduction", Slug: "introduction"}, "Why.\n").
		page(tree.Page{ID: "guides", Title: "Guides", Slug: "guides", Type: tree.TypeGroup}, "").
		page(tree.Page{ID: "install", Parent: "guides", Title: "Install", Slug: "install"}, "Pick a system.\n").
		page(tree.Page{ID: "linux", Parent: "install", Title: "Linux", Slug: "linux"}, "Packages.\n").
		page(tree.Page{ID: "debian", Parent: "linux", Title: "Debian", Slug: "debian"}, "apt, see [the users](/pages/users).\n").
		page(tree.Page{ID: "configure", Parent: "guides", Title: "Configure", Slug: "configure"}, "Set it.\n").
		page(tree.Page{ID: "draft", Parent: "guides", Title: "Draft", Slug: "draft", Hidden: true}, "Not yet.\n").
		page(tree.Page{ID: "ref", Title: "API reference", Slug: "api", Type: tree.TypeGroup}, "").
		page(tree.Page{ID: "endpoints", Parent: "ref", Title: "Endpoints", Slug: "endpoints"}, "All of them.\n").
		page(tree.Page{ID: "users", Parent: "endpoints", Title: "Users", Slug: "users"}, "GET /users, back [home](/pages/home).\n")
}

// files is a repository's Markdown and configuration by path (the space has no files).
func files(entries []Entry) map[string]string {
	out := map[string]string{}
	for _, e := range entries {
		out[e.Path] = string(e.Data)
	}
	return out
}

// TestGroupsRoundTrip: groups are "##" headings of SUMMARY.md with their pages listed beneath
// and in their folders; importing that export over the space keeps every id, type and order key,
// and into an empty space gives groups again, whose export is byte for byte the first.
func TestGroupsRoundTrip(t *testing.T) {
	s := groupedSpace()
	base := s.content()
	entries, _ := Export(base)
	repo := files(entries)
	wantSummary := "# Table of contents\n\n* [Welcome](README.md)\n* [Introduction](introduction.md)\n\n## Guides\n\n" +
		"* [Install](guides/install/README.md)\n  * [Linux](guides/install/linux/README.md)\n    * [Debian](guides/install/linux/debian.md)\n" +
		"* [Configure](guides/configure.md)\n\n## API reference\n\n* [Endpoints](api/endpoints/README.md)\n  * [Users](api/endpoints/users.md)\n"
	if repo[Summary] != wantSummary {
		t.Fatalf("SUMMARY.md:\n%s\nwant:\n%s", repo[Summary], wantSummary)
	}
	ups := exported(s, "")

	over, err := Import(base, ups, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if len(over.Changed) != 0 || over.Paths["guides"] != "" {
		t.Fatalf("over the space: changed %v, paths %v", over.Changed, over.Paths)
	}

	fresh, err := Import(Space{Tree: tree.New(nil), Bodies: map[string]string{}}, ups, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if d := fresh.Tree.ByPath("guides/draft"); d == nil || !d.Hidden {
		t.Fatalf("the hidden page of a group: %+v", d)
	}
	var groups []string
	fresh.Tree.Walk(func(p *tree.Page, path string) {
		if p.Type == tree.TypeGroup {
			groups = append(groups, path+"="+p.Title)
		}
	})
	if !slices.Equal(groups, []string{"guides=Guides", "api=API reference"}) {
		t.Fatalf("groups %v", groups)
	}
	again, _ := Export(Space{Tree: fresh.Tree, Bodies: fresh.Bodies})
	if got := files(again); len(got) != len(repo) {
		t.Fatalf("exported again: %v", got)
	}
	for p, data := range files(again) {
		if data != repo[p] {
			t.Fatalf("%s exported again:\n%s\nfirst:\n%s", p, data, repo[p])
		}
	}
}

// TestGroupRenamedKeepsItsID: a group whose heading changed is the base's group of the folder
// its pages are in, renamed; its pages stay as they are.
func TestGroupRenamedKeepsItsID(t *testing.T) {
	s := groupedSpace()
	base := s.content()
	ups := exported(s, "")
	ups = replaceFile(ups, Summary, strings.Replace(string(fileOf(ups, Summary)), "## API reference", "## The API", 1))
	got, err := Import(base, ups, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	ref := got.Tree.Page("ref")
	if ref == nil || ref.Type != tree.TypeGroup || ref.Title != "The API" || ref.Slug != "api" || !slices.Equal(got.Changed, []string{"ref"}) {
		t.Fatalf("group %+v, changed %v", ref, got.Changed)
	}
	if got.Tree.Page("users").Parent != "endpoints" || got.Tree.Page("endpoints").Parent != "ref" {
		t.Fatal("the group's pages moved")
	}
}

// TestGitBookGroupsImport: GitBook's SUMMARY.md, its title heading aside, makes a group of each
// "##" heading, holding the pages listed beneath it until the next.
func TestGitBookGroupsImport(t *testing.T) {
	ups := []importer.Upload{
		{Path: Summary, Data: []byte("# Table of contents\n\n* [Home](README.md)\n\n## First steps\n\n* [Setup](first-steps/setup.md)\n\n## More\n\n* [FAQ](more/faq.md)\n")},
		{Path: Readme, Data: []byte("# Home\n")},
		{Path: "first-steps/setup.md", Data: []byte("# Setup\n")},
		{Path: "more/faq.md", Data: []byte("# FAQ\n")},
	}
	got, err := Import(Space{Tree: tree.New(nil), Bodies: map[string]string{}}, ups, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	got.Tree.Walk(func(p *tree.Page, path string) { out = append(out, p.Type+":"+path) })
	if want := []string{"document:page", "group:first-steps", "document:first-steps/setup", "group:more", "document:more/faq"}; !slices.Equal(out, want) {
		t.Fatalf("pages %v, want %v", out, want)
	}
}
