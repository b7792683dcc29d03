package importer

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/orderkey"
	"github.com/binderyhq/bindery/internal/content/tree"
)

func testEnv() edit.Env {
	n := 0
	return edit.Env{Now: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC),
		NewID:   func() string { n++; return fmt.Sprintf("id%03d", n) },
		Version: func(string) (*tree.Tree, error) { return nil, fmt.Errorf("no versions") }}
}

func webPage(t testing.TB, u, title, md string) Page {
	return Page{Location: mustParse(t, u), Title: title, Markdown: md}
}

// outlineOf lists the pages of a tree in order, indented by depth, with their titles.
func outlineOf(t *tree.Tree) string {
	var b strings.Builder
	t.Walk(func(p *tree.Page, path string) {
		fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", strings.Count(path, "/")), p.Title)
	})
	return b.String()
}

// body returns the stored Markdown of the page with the given title.
func body(t *testing.T, o *Outcome, title string) string {
	t.Helper()
	var found string
	o.Tree.Walk(func(p *tree.Page, _ string) {
		if p.Title == title {
			found = o.Bodies[p.Body]
		}
	})
	return found
}

func pageID(o *Outcome, title string) string {
	var id string
	o.Tree.Walk(func(p *tree.Page, _ string) {
		if p.Title == title {
			id = p.ID
		}
	})
	return id
}

func TestBuildWebsite(t *testing.T) {
	existing := tree.New([]tree.Entry{{Page: &tree.Page{ID: "old", Title: "Existing", Slug: "existing", Order: orderkey.Spread(1)[0], Type: "document"}}})
	site := Site{
		Pages: []Page{
			webPage(t, "http://docs.test/", "Home", "# Welcome\n\nSee [install](http://docs.test/guide/install.html#req), [guide](https://docs.test/guide/) and [gone](http://docs.test/gone).\n\n![logo](http://docs.test/img/logo.png)"),
			webPage(t, "http://docs.test/guide/install.html", "Install — Docs", "Steps.\n\n[back][home]\n\n[home]: http://docs.test/index.html\n"),
			webPage(t, "http://docs.test/guide/", "Guide", "# Guide\n\n![logo again](http://docs.test/img/logo.png) ![remote](https://cdn.test/x.png)"),
			webPage(t, "http://docs.test/api/users", "Users", "<https://docs.test/guide/> `[x](http://docs.test/guide/)`"),
			webPage(t, "http://docs.test/guide/index.html", "Duplicate of the guide", "dropped"),
			webPage(t, "http://docs.test/empty", "", ""),
		},
		Files: []File{
			{Location: mustParse(t, "http://docs.test/img/logo.png"), Name: "logo.png", ContentType: "image/png", Data: []byte("PNG")},
			{Location: mustParse(t, "http://docs.test/img/unused.png"), Name: "unused.png", ContentType: "image/png", Data: []byte("unused")},
		},
	}
	o, err := Build(existing, site, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	want := "Existing\nWelcome\nGuide\n  Install — Docs\nUsers\nUntitled\n"
	if got := outlineOf(o.Tree); got != want {
		t.Fatalf("outline:\n%s\nwant:\n%s", got, want)
	}
	if o.Pages != 5 || o.Files != 1 || len(o.Tree.Files()) != 1 || len(o.Blobs) != 1 {
		t.Fatalf("pages %d files %d (tree %d, blobs %d)", o.Pages, o.Files, len(o.Tree.Files()), len(o.Blobs))
	}
	logo := o.Tree.Files()[0].ID
	guide, install := pageID(o, "Guide"), pageID(o, "Install — Docs")
	checks := map[string][]string{
		"Welcome": {"[install](/pages/" + install + "#req)", "[guide](/pages/" + guide + ")",
			"[gone](http://docs.test/gone)", "![logo](/files/" + logo + ")"},
		"Install — Docs": {"[home]: /pages/" + pageID(o, "Welcome")},
		"Guide":          {"![logo again](/files/" + logo + ")", "![remote](https://cdn.test/x.png)"},
		"Users":          {"<https://docs.test/guide/>", "`[x](http://docs.test/guide/)`"},
	}
	for title, wants := range checks {
		b := body(t, o, title)
		for _, w := range wants {
			if !strings.Contains(b, w) {
				t.Errorf("%s: body lacks %q:\n%s", title, w, b)
			}
		}
	}
	if o.Tree.Page("old") == nil || len(o.Changed) != 6 {
		t.Errorf("changed %d keys, want the 5 pages and the file", len(o.Changed))
	}
}

// TestBuildManyPages crosses the batch size: parents inserted by an earlier batch are named by id.
func TestBuildManyPages(t *testing.T) {
	var site Site
	for s := range 3 {
		site.Pages = append(site.Pages, webPage(t, fmt.Sprintf("http://docs.test/s%d", s), "", fmt.Sprintf("# Section %d", s)))
	}
	for i := range 120 {
		site.Pages = append(site.Pages, webPage(t, fmt.Sprintf("http://docs.test/s%d/p%d", i%3, i), "",
			fmt.Sprintf("# Page %d\n\n[next](../s%d/p%d)", i, (i+1)%3, (i+1)%120)))
	}
	o, err := Build(tree.New(nil), site, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if o.Pages != 123 || len(o.Tree.Children("")) != 3 {
		t.Fatalf("%d pages, %d at the top", o.Pages, len(o.Tree.Children("")))
	}
	for s, sec := range o.Tree.Children("") {
		if n := len(o.Tree.Children(sec.ID)); n != 40 || sec.Title != fmt.Sprintf("Section %d", s) {
			t.Errorf("%s holds %d pages", sec.Title, n)
		}
	}
	link := regexp.MustCompile(`\[next\]\(/pages/(\w+)\)`)
	o.Tree.Walk(func(p *tree.Page, _ string) {
		if !strings.HasPrefix(p.Title, "Page ") {
			return
		}
		m := link.FindStringSubmatch(o.Bodies[p.Body])
		var i int
		fmt.Sscanf(p.Title, "Page %d", &i)
		if m == nil || o.Tree.Page(m[1]) == nil || o.Tree.Page(m[1]).Title != fmt.Sprintf("Page %d", (i+1)%120) {
			t.Fatalf("%s: %q", p.Title, o.Bodies[p.Body])
		}
	})
}

func TestPageTitle(t *testing.T) {
	long := strings.Repeat("é", 300)
	tests := []struct{ own, fallback, want string }{
		{"Own", "Fallback", "Own"},
		{"", " Fall \n back ", "Fall back"},
		{"", "", "Untitled"},
		{long, "", strings.Repeat("é", 255) + "…"},
	}
	for _, tt := range tests {
		if got := pageTitle(tt.own, tt.fallback); got != tt.want {
			t.Errorf("pageTitle(%.10q, %q) = %.20q", tt.own, tt.fallback, got)
		}
	}
}

// TestBuildLongHeading: a heading longer than a title may be still imports, shortened.
func TestBuildLongHeading(t *testing.T) {
	site := Site{Pages: []Page{webPage(t, "http://docs.test/a", "", "# "+strings.Repeat("word ", 100)+"\n\nText.")}}
	o, err := Build(tree.New(nil), site, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	p := o.Tree.Children("")[0]
	if n := len([]rune(p.Title)); n > maxTitle || n < maxTitle-5 || !strings.HasSuffix(p.Title, "…") || o.Bodies[p.Body] != "Text." {
		t.Fatalf("title %q body %q", p.Title, o.Bodies[p.Body])
	}
}

func TestKeys(t *testing.T) {
	same := [][]string{
		{"http://Docs.test/guide/", "https://docs.test/guide", "http://docs.test/guide/index.html", "http://docs.test/guide.html?x=1#y"},
		{"file:///guide/README.md", "file:///guide/readme.md", "file:///guide.md", "file:///guide/"},
		{"http://docs.test/", "http://docs.test", "http://docs.test/index.htm"},
	}
	for _, group := range same {
		for _, u := range group[1:] {
			if a, b := PageKey(mustParse(t, group[0])), PageKey(mustParse(t, u)); a != b {
				t.Errorf("PageKey(%s) = %q, PageKey(%s) = %q", group[0], a, u, b)
			}
		}
	}
	if a, b := FileKey(mustParse(t, "http://docs.test/a.png?w=1")), FileKey(mustParse(t, "http://docs.test/a.png?w=2")); a == b {
		t.Errorf("queries choose other files")
	}
	if got := segments(PageKey(mustParse(t, "http://docs.test/a/b/"))); strings.Join(got, ",") != "a,b" {
		t.Errorf("segments %v", got)
	}
}
