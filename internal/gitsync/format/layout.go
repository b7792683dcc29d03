package format

import (
	"cmp"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/binderyhq/bindery/internal/content/links"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// layout places pages and files as Git Sync does: the first top-level page is the root folder's
// README.md; a page with child pages is "<folder>/README.md" and its children go in <folder>, any
// other page is "<slug>.md"; a group has no file, its pages go in a folder of its slug. Paths are
// unique letter case aside (a repository may be checked out on a case-insensitive disk).
type layout struct {
	Layout
	root  string
	taken map[string]bool // lower-cased paths given out
	// groups is the folder of each group (it has no file), to know a group again by it.
	groups map[string]string
}

func newLayout(t *tree.Tree, root string) *layout {
	l := &layout{Layout: Layout{Pages: map[string]string{}, Files: map[string]string{}, Reusables: map[string]string{}},
		root: strings.Trim(path.Clean("/"+root), "/"), taken: map[string]bool{}, groups: map[string]string{}}
	for _, reserved := range []string{Readme, Summary} {
		l.taken[strings.ToLower(l.at(reserved))] = true
	}
	l.placePages(t, "", "")
	l.placeFiles(t.Files())
	l.placeReusables(t.Reusables())
	return l
}

// at is the path of p, relative to the root folder, from the top of the repository.
func (l *layout) at(p string) string { return path.Join(l.root, p) }

// placePages places the children of parent, in folder dir of the root folder.
func (l *layout) placePages(t *tree.Tree, parent, dir string) {
	for i, p := range t.Children(parent) {
		slug := cmp.Or(p.Slug, p.ID)
		folder := path.Join(dir, slug)
		kids := len(t.Children(p.ID)) > 0
		switch {
		case parent == "" && i == 0 && p.Type != tree.TypeGroup:
			l.Pages[p.ID] = l.at(Readme)
		case p.Type == tree.TypeGroup:
			l.groups[p.ID] = l.at(folder)
		case kids:
			l.Pages[p.ID] = l.unique(path.Join(folder, Readme), "")
		default:
			l.Pages[p.ID] = l.unique(folder, ".md")
		}
		l.placePages(t, p.ID, folder)
	}
}

// placeFiles places the files under .gitbook/assets by name, in order of name then id; a name
// taken already gets a number, "image (1).png".
func (l *layout) placeFiles(files []*tree.File) {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b *tree.File) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.ID, b.ID))
	})
	for _, f := range files {
		name := assetName(f.Name, f.ID)
		ext := path.Ext(name)
		l.Files[f.ID] = l.unique(path.Join(AssetsDir, strings.TrimSuffix(name, ext)), ext)
	}
}

// assetName is a file name fit for any disk: its last path segment without control characters
// and the characters Windows refuses, the id when nothing is left.
func assetName(name, id string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || strings.ContainsRune(`/\:*?"<>|`, r) || r == unicode.ReplacementChar {
			return '-'
		}
		return r
	}, name)
	name = strings.Trim(name, ". ")
	if name == "" {
		return id
	}
	return name
}

// unique is the path stem+ext under the root folder, numbered "stem (1)ext" when taken.
func (l *layout) unique(stem, ext string) string {
	p := l.at(stem + ext)
	for n := 1; l.taken[strings.ToLower(p)]; n++ {
		p = l.at(fmt.Sprintf("%s (%d)%s", stem, n, ext))
	}
	l.taken[strings.ToLower(p)] = true
	return p
}

// linkTarget is what a stored body's link destination becomes in the Markdown file at from:
// the relative path of the page (with its anchor) or file it names; ok is false for a page or
// file the space does not have. Other destinations are kept.
func (l *layout) linkTarget(from, dest string) (string, bool) {
	t, ok := links.Parse(dest)
	if !ok {
		return dest, true
	}
	var to string
	switch t.Kind {
	case links.Page:
		to, ok = l.Pages[t.Ref]
	case links.File:
		to, ok = l.Files[t.Ref]
	default:
		return dest, true
	}
	if !ok {
		return "", false
	}
	rel := relative(path.Dir(from), to)
	if t.Anchor != "" {
		rel += "#" + t.Anchor
	}
	return escapeDest(rel), true
}

// relative is the path of to from the folder dir, both from the top of the repository.
func relative(dir, to string) string {
	from := strings.Split(dir, "/")
	if dir == "." {
		from = nil
	}
	parts := strings.Split(to, "/")
	common := 0
	for common < len(from) && common < len(parts)-1 && from[common] == parts[common] {
		common++
	}
	up := strings.Repeat("../", len(from)-common)
	return up + strings.Join(parts[common:], "/")
}

// escapeDest writes a relative path as a Markdown link destination: percent-encoded where a
// destination could not hold it (spaces, parentheses), "./" before a first segment that would
// read as a URL scheme.
func escapeDest(rel string) string {
	p, anchor, _ := strings.Cut(rel, "#")
	escaped := (&url.URL{Path: p}).EscapedPath()
	escaped = strings.NewReplacer("(", "%28", ")", "%29").Replace(escaped)
	if first, _, _ := strings.Cut(escaped, "/"); strings.Contains(first, ":") {
		escaped = "./" + escaped
	}
	if anchor != "" {
		escaped += "#" + strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29").Replace(anchor)
	}
	return escaped
}
