package importer

import (
	"net/url"
	"path"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"go.yaml.in/yaml/v4"

	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/markdown"
)

// gitbook lays out a GitBook repository as Git Sync writes one: the pages of its root folder (the
// .gitbook.yaml's root, else SUMMARY.md's folder) in the order, nesting and titles of SUMMARY.md,
// a "## Group" of it a group (a top-level page without a document) holding the group's pages;
// the README first.
type gitbook struct {
	*outline
	root, readme, summary string
}

// gitbookSite lays out a GitBook upload; marker is its .gitbook.yaml or SUMMARY.md.
func gitbookSite(ups []upload, marker string) Site {
	b := newSiteBuilder(DialectGitBook, ups)
	g := &gitbook{}
	var n notes
	g.root, g.readme, g.summary = gitbookStructure(ups, marker, &n)
	var drafts []*draft
	var summary []byte
	for _, u := range ups {
		_, inRoot := under(u.path, g.root)
		switch {
		case strings.EqualFold(u.path, g.summary):
			g.summary, summary = u.path, u.data
		case u.path == marker:
		case inRoot && IsMarkdown(u.path):
			drafts = append(drafts, gitbookDraft(u, g.root))
		case IsMarkdown(u.path):
			b.skip(u, "outside the root folder %s/ of .gitbook.yaml", g.root)
		default:
			b.file(u)
		}
	}
	if summary == nil {
		n.warn(0, "%s is not in the upload: the pages are nested by folder", g.summary)
		newOutline(b, g.root, drafts, marker).byFolder()
		b.note(marker, ResultLayout, &n)
		return b.finish()
	}
	g.outline = newOutline(b, g.root, drafts, g.summary)
	g.readSummary(summary)
	g.groupSlugs()
	if readme := g.readme; g.drafts[readme] != nil && !g.placed[readme] {
		g.place(readme, "", nil)
		pages := b.site.Pages
		b.site.Pages = append(pages[len(pages)-1:], pages[:len(pages)-1]...) // the README first
	}
	g.finish("as Git Sync leaves out the pages SUMMARY.md does not list")
	if marker != g.summary {
		b.note(marker, ResultLayout, &n)
	}
	return b.finish()
}

// gitbookDraft is the page of a Markdown file of the root folder, asking for the slug its path
// gives it, as GitBook's: the file's name without its extension, or its folder's for a README.
// The root folder's README asks for none.
func gitbookDraft(u upload, root string) *draft {
	d := nativeDraft(u)
	name := strings.TrimSuffix(path.Base(u.path), path.Ext(u.path))
	if strings.EqualFold(name, "README") {
		name = ""
		if dir := dirOf(u.path); dir != root {
			name = path.Base(dir)
		}
	}
	d.page.Slug = edit.Slugify(name)
	return d
}

// gitbookStructure reads the root folder and the paths of the README and SUMMARY.md from a
// .gitbook.yaml (root, structure.readme, structure.summary), or takes SUMMARY.md's folder.
func gitbookStructure(ups []upload, marker string, n *notes) (root, readme, summary string) {
	if !gitbookConfig.MatchString(path.Base(marker)) {
		root = dirOf(marker)
		return root, path.Join(root, "README.md"), marker
	}
	var cfg struct {
		Root      string `yaml:"root"`
		Structure struct {
			Readme  string `yaml:"readme"`
			Summary string `yaml:"summary"`
		} `yaml:"structure"`
	}
	for _, u := range ups {
		if u.path == marker {
			if err := yaml.Unmarshal(u.data, &cfg); err != nil {
				n.warn(0, "not read: %s", firstLine(err.Error()))
			}
		}
	}
	root = strings.TrimPrefix(path.Join(dirOf(marker), cfg.Root), ".")
	if strings.HasPrefix(root, ".") || path.IsAbs(cfg.Root) {
		n.warn(0, "root %q is outside the upload; the folder of .gitbook.yaml is read instead", cfg.Root)
		root = dirOf(marker)
	}
	readme = path.Join(root, orDefault(cfg.Structure.Readme, "README.md"))
	summary = path.Join(root, orDefault(cfg.Structure.Summary, "SUMMARY.md"))
	n.convert(0, "root: %s/, readme: %s, summary: %s", root, readme, summary)
	return root, readme, summary
}

func orDefault(s, def string) string {
	if s = strings.TrimSpace(s); s != "" {
		return s
	}
	return def
}

// readSummary places the pages SUMMARY.md lists: its lists' links nested as the lists nest, each
// heading below the first level a group holding the lists under it (GitBook writes "##"; its
// "# Table of contents" is the title, no group).
func (g *gitbook) readSummary(src []byte) {
	doc := goldmark.DefaultParser().Parse(text.NewReader(src))
	var group *url.URL
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level > 1 {
				group = g.group(g.root, markdown.TextOf(n, src))
			}
		case *ast.List:
			g.list(n, src, group, 0)
		}
	}
}

// groupSlugs gives each group the slug of the folder its first page's file is in, below the
// root folder: GitBook puts a group's pages in a folder of its slug, which may not be its
// title's (a group renamed), and a re-import matches a group by its folder. The pages of that
// folder SUMMARY.md leaves out go under the group, hidden.
func (g *gitbook) groupSlugs() {
	first := map[*url.URL]string{} // group → the folder of its first page
	for _, pg := range g.b.site.Pages {
		if _, seen := first[pg.Parent]; pg.Parent == nil || seen {
			continue
		}
		rel, _ := under(strings.TrimPrefix(pg.Location.Path, "/"), g.root)
		dir, _, nested := strings.Cut(rel, "/")
		if !nested {
			dir = ""
		}
		first[pg.Parent] = dir
	}
	for i, pg := range g.b.site.Pages {
		if dir := first[pg.Location]; pg.Group && dir != "" {
			g.b.site.Pages[i].Slug = edit.Slugify(dir)
			g.folders[PageKey(fileURL(path.Join(g.root, dir)))] = pg.Location
		}
	}
}

// list places the pages of a SUMMARY.md list under parent.
func (g *gitbook) list(list *ast.List, src []byte, parent *url.URL, depth int) {
	if depth >= maxNesting {
		g.notes.warn(0, "a list is nested more than %d deep; its pages are placed as if it were not listed", maxNesting)
		return
	}
	for item := list.FirstChild(); item != nil; item = item.NextSibling() {
		here := parent
		if link := firstLink(item.FirstChild()); link != nil {
			here = g.entry(link, src, parent)
		}
		for k := item.FirstChild(); k != nil; k = k.NextSibling() {
			if sub, ok := k.(*ast.List); ok {
				g.list(sub, src, here, depth+1)
			}
		}
	}
}

// entry places the page a SUMMARY.md link names and returns its location (parent when it names
// none).
func (g *gitbook) entry(link *ast.Link, src []byte, parent *url.URL) *url.URL {
	title := markdown.TextOf(link, src)
	u, err := url.Parse(string(link.Destination))
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		g.notes.warn(0, "the entry %q links to %s, which is not a page of the upload; left out", title, link.Destination)
		return parent
	}
	if loc := g.place(path.Join(dirOf(g.summary), u.Path), title, parent); loc != nil {
		return loc
	}
	return parent
}

// firstLink is the first link of a list item's first block, nil when none.
func firstLink(n ast.Node) *ast.Link {
	if n == nil {
		return nil
	}
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		if l, ok := k.(*ast.Link); ok {
			return l
		}
	}
	return nil
}
