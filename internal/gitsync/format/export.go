// Package format lays a space's content out as a GitBook repository, the layout Git Sync writes
// and the importer (internal/content/importer) reads back: README.md the first page, SUMMARY.md
// the table of contents (its "##" headings the top-level groups, its nested lists the pages'
// nesting, its link texts their titles), one Markdown file per page in GitBook-flavoured Markdown
// with front matter, the files under .gitbook/assets/, and .gitbook.yaml naming the root and the
// redirects. It is pure and deterministic: the same content gives the same bytes.
package format

import (
	"bytes"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// The files every exported repository has, relative to its root folder.
const (
	Readme    = "README.md"
	Summary   = "SUMMARY.md"
	Config    = ".gitbook.yaml" // at the top of the repository, whatever the root
	AssetsDir = ".gitbook/assets"
	// IncludesDir holds the reusable contents, one Markdown file each, as GitBook writes them.
	IncludesDir = ".gitbook/includes"
)

// Space is the content to lay out.
type Space struct {
	Tree   *tree.Tree
	Bodies map[string]string // stored Markdown by body hash, for every page with a body
	// Root is the folder of the repository the content goes in ("" or "docs"); .gitbook.yaml
	// names it.
	Root string
	// Redirects are .gitbook.yaml's redirects: an old path of the repository's readers → the id
	// of the page it now leads to. One naming no page is left out.
	Redirects map[string]string
	// Known are where the last sync read or wrote the pages and files (id → path from the top of
	// the repository), which an import matches before the export's layout: a repository not in
	// Bindery's layout keeps its ids (Import).
	Known map[string]string
}

// Entry is one file of the repository.
type Entry struct {
	Path string // from the top of the repository
	Data []byte // the bytes, nil for a file of the space
	File string // the id of the space's file whose bytes this is; "" for another entry
	Page string // the id of the page whose Markdown this is; "" for another entry
	// Reusable is the id of the reusable content whose file this is; "" for another entry.
	Reusable string
}

// Layout is where the pages and files went, paths from the top of the repository.
type Layout struct {
	Pages map[string]string // page id → its Markdown file (a group has none)
	Files map[string]string // file id → its asset
	// Reusables are the reusable contents' files under .gitbook/includes: id → path.
	Reusables map[string]string
}

// Export lays the space out: its entries sorted by path, and where each page and file went.
func Export(s Space) ([]Entry, Layout) {
	l := newLayout(s.Tree, s.Root)
	entries := []Entry{
		{Path: Config, Data: config(l, s.Redirects)},
		{Path: l.at(Summary), Data: summary(s.Tree, l)},
	}
	s.Tree.Walk(func(p *tree.Page, _ string) {
		if at, ok := l.Pages[p.ID]; ok {
			entries = append(entries, Entry{Path: at, Page: p.ID, Data: []byte(l.pageMarkdown(p, s.Bodies[p.Body]))})
		}
	})
	for id, at := range l.Files {
		entries = append(entries, Entry{Path: at, File: id})
	}
	for _, r := range s.Tree.Reusables() {
		entries = append(entries, Entry{Path: l.Reusables[r.ID], Reusable: r.ID, Data: []byte(l.reusableMarkdown(r, s.Bodies[r.Body]))})
	}
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return entries, l.Layout
}

// Paths is where Export puts the tree's pages, files and reusable contents (a group has no
// file): page id → its Markdown file, file id → its asset, reusable content id → its file under
// .gitbook/includes, from the top of the repository. It reads no body.
func Paths(t *tree.Tree, root string) map[string]string {
	l := newLayout(t, root)
	out := maps.Clone(l.Pages)
	maps.Copy(out, l.Files)
	maps.Copy(out, l.Reusables)
	return out
}

// pageMarkdown is the page's whole Markdown (front matter, title heading, body) with its links
// to pages and files — and its GitBook blocks' (content-refs, files, figures) — rewritten to
// their paths relative to the page's file. A link to a page or file the space does not have is
// replaced by its text, as a reader's page has it; a block naming one is kept as it is.
func (l *layout) pageMarkdown(p *tree.Page, body string) string {
	body = l.repositoryBody(l.Pages[p.ID], body)
	return markdown.Render(markdown.Parsed{Title: p.Title, Description: p.Description, Emoji: p.Emoji, Body: body})
}

// repositoryBody is a stored body as the file at from has it: its links to pages and files, its
// GitBook blocks' (content-refs, files, figures) and its include tags rewritten to their paths
// relative to the file (decision 583).
func (l *layout) repositoryBody(from, body string) string {
	target := func(dest string) (string, bool) { return l.linkTarget(from, dest) }
	body = markdown.RewriteBlockRefs(markdown.ForReader(body, target), target)
	body = markdown.RewriteIncludes(body, func(src string) (string, bool) { return l.includeTarget(from, src) })
	return contentRefLink.ReplaceAllStringFunc(body, func(block string) string {
		m := contentRefLink.FindStringSubmatch(block)
		return m[1] + "[" + markdown.EscapeLinkText(m[2]) + "](" + m[2] + ")"
	})
}

// contentRefLink is a content-ref block's first line and the link under it, which GitBook writes
// as the path twice ("[guide.md](guide.md)") where a stored body has the page's "/pages/<id>".
var contentRefLink = regexp.MustCompile(`(?m)^(\{%\s*content-ref\s+url="([^"]*)"\s*%\}\n)\[[^\]\n]*\]\([^)\n]*\)$`)

// Delta is the export of after as the entries that differ from the export of before, the
// contents of one space: the pages and files of changed (keys of the entries that differ between
// the two trees) and SUMMARY.md or .gitbook.yaml when they differ. It needs the bodies of the
// changed pages only (after.Bodies). ok is false when a page, group or file has another path in
// after's layout than in before's (one added, removed, renamed or moved): the pages linking to
// it change too, and only Export, reading every page, finds them.
func Delta(before, after Space, changed []string) (entries []Entry, ok bool) {
	lb, la := newLayout(before.Tree, before.Root), newLayout(after.Tree, after.Root)
	if !maps.Equal(lb.Pages, la.Pages) || !maps.Equal(lb.Files, la.Files) || !maps.Equal(lb.groups, la.groups) ||
		!maps.Equal(lb.Reusables, la.Reusables) {
		return nil, false
	}
	if c := config(la, after.Redirects); !bytes.Equal(c, config(lb, before.Redirects)) {
		entries = append(entries, Entry{Path: Config, Data: c})
	}
	if s := summary(after.Tree, la); !bytes.Equal(s, summary(before.Tree, lb)) {
		entries = append(entries, Entry{Path: la.at(Summary), Data: s})
	}
	for _, key := range changed {
		e, ok := after.Tree.Entry(key)
		switch {
		case !ok:
		case e.Page != nil && la.Pages[e.Page.ID] != "":
			entries = append(entries, Entry{Path: la.Pages[e.Page.ID], Page: e.Page.ID, Data: []byte(la.pageMarkdown(e.Page, after.Bodies[e.Page.Body]))})
		case e.File != nil:
			entries = append(entries, Entry{Path: la.Files[e.File.ID], File: e.File.ID})
		case e.Reusable != nil:
			entries = append(entries, Entry{Path: la.Reusables[e.Reusable.ID], Reusable: e.Reusable.ID,
				Data: []byte(la.reusableMarkdown(e.Reusable, after.Bodies[e.Reusable.Body]))})
		}
	}
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return entries, true
}
