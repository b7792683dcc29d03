package markdown

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/yuin/goldmark/util"
)

// Tree answers questions about the change request's page tree.
type Tree interface {
	PageByID(id string) bool
	PageBySlugPath(path string) (id string, ok bool) // "guides/getting-started"
	// PagePath returns the slug path of a page ("" for unknown) and whether it has child pages.
	PagePath(id string) (path string, hasChildren bool, ok bool)
	// RootPage returns the space's root page, the one Git Sync stores as README.md at the top:
	// the first page at the top level of the tree.
	RootPage() (id string, ok bool)
}

// Resolver rewrites the links of Markdown authored in a change request (updateChangeRequestContent)
// to the ids of the pages and files they name.
type Resolver struct {
	Tree     Tree
	PageRefs map[string]string // batch-local ref → page id (pages inserted in the same batch)
	FileRefs map[string]string // batch-local ref → file id
	FileByID func(id string) bool
	// From is the id of the page being edited; relative links resolve against its place in the
	// tree. "" (or a page the tree does not know) resolves them as from a top-level page, so a
	// page inserted by the batch should be placed in the tree before its links are resolved.
	From string
}

// Resolve rewrites every link/image destination of markdown: page links become "/pages/<id>"
// (keeping "#anchor"), file links "/files/<id>"; external URLs (scheme://, mailto:) are kept as is;
// a relative, /pages/ or /files/ link that matches nothing is replaced by its text (the link
// syntax removed, the text's Markdown kept; an image by its alt text). Every other byte stays as
// it was.
//
// Destinations, in the order they are tried:
//   - "scheme:…", "//host…", "#anchor", "" and paths outside /pages/ and /files/: kept.
//   - "/files/<fileId>": kept when FileByID knows it.
//   - "/pages/<pageId>", then "/pages/<slug path>", "/pages/<slug path>.md",
//     "/pages/<slug path>/README.md", and "/pages/README.md" for the root page.
//   - a batch ref "./<ref>", "./<ref>.md" (PageRefs) or "./<ref>" (FileRefs).
//   - a relative path ("./sibling.md", "../other.md", "./section", "README.md") resolved as Git
//     Sync lays pages out: a page with children is "<path>/README.md", any other "<path>.md", so
//     from "guides/intro" (no children) "./README.md" is its parent "guides" and "../README.md"
//     the root page, while from "guides" (with children) "./intro.md" is its child.
//
// Reference links follow their definition: a definition that resolves is rewritten once; when it
// does not, every link using it is replaced by its text and the (now unused) definition is left.
func (r Resolver) Resolve(markdown string) string {
	return r.ResolveLinks(markdown, Links(markdown))
}

// ResolveLinks is Resolve given the links of markdown (Links, or ParseWithLinks' of a page), so
// that what parsed it already is not parsed again.
func (r Resolver) ResolveLinks(markdown string, links []Link) string {
	return applyEdits(markdown, linkEdits(links, r.target, false))
}

// ForReader rewrites every link/image destination of markdown through target, for the reader of
// a published page: as Resolve does, except that a definition that resolves to nothing has its
// destination replaced by "#", so the Markdown does not show where it pointed. target returns
// what a destination (as written) becomes, ok false for one the reader cannot reach.
func ForReader(markdown string, target func(dest string) (string, bool)) string {
	return applyEdits(markdown, linkEdits(Links(markdown), target, true))
}

// edit replaces markdown[Start:End] by With.
type edit struct {
	Span
	With string
}

// linkEdits returns the rewrites of links through target, in source order; hideUnresolved
// replaces the destination of a definition that resolves to nothing by "#".
func linkEdits(links []Link, target func(string) (string, bool), hideUnresolved bool) []edit {
	var out []edit
	unresolved := map[int]bool{} // Dest offset of a definition that resolves to nothing
	for _, l := range links {
		if l.Kind == Definition {
			dest, ok := target(l.Dest)
			unresolved[l.Start] = !ok
			if !ok && hideUnresolved {
				dest, ok = "#", true
			}
			out = append(out, destEdit(l, dest, ok)...)
		}
	}
	for _, l := range links {
		switch l.Kind {
		case Inline:
			dest, ok := target(l.Dest)
			out = append(out, destEdit(l, dest, ok)...)
			if !ok {
				out = append(out, unwrap(l)...)
			}
		case Reference:
			if unresolved[l.Start] {
				out = append(out, unwrap(l)...)
			}
		}
	}
	return out
}

// destEdit rewrites a link's destination to dest when it resolved to another one.
func destEdit(l Link, dest string, ok bool) []edit {
	if !ok || dest == l.Dest {
		return nil
	}
	return []edit{{Span{l.Start, l.End}, dest}}
}

// unwrap removes a link's syntax around its text: "[", or "![", and "](…)" or "][…]".
func unwrap(l Link) []edit {
	return []edit{{Span{l.Outer.Start, l.Inner.Start}, ""}, {Span{l.Inner.End, l.Outer.End}, ""}}
}

// applyEdits applies non-overlapping edits in one pass; an edit overlapping an earlier one is
// skipped.
func applyEdits(s string, edits []edit) string {
	slices.SortStableFunc(edits, func(a, b edit) int { return a.Start - b.Start })
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, e := range edits {
		if e.Start < at || e.End < e.Start {
			continue
		}
		b.WriteString(s[at:e.Start])
		b.WriteString(e.With)
		at = e.End
	}
	b.WriteString(s[at:])
	return b.String()
}

// hasScheme matches an absolute URL's scheme ("https:", "mailto:"), as RFC 3986 spells it.
var hasScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// target returns what a link destination becomes: ok false when it names a page or file that
// does not exist.
func (r Resolver) target(dest string) (string, bool) {
	raw, anchor := splitAnchor(dest)
	p := decodeDest(raw)
	switch {
	case raw == "" || hasScheme.MatchString(p) || strings.HasPrefix(p, "//"):
		return dest, true
	case strings.HasPrefix(p, "/files/"):
		return r.file(strings.TrimPrefix(p, "/files/"), anchor)
	case p == "/pages" || strings.HasPrefix(p, "/pages/"):
		return withAnchor("/pages/", r.absolutePage(strings.TrimPrefix(p, "/pages")), anchor)
	case strings.HasPrefix(p, "/"):
		return dest, true
	}
	if id, isFile, ok := r.ref(p); ok {
		if isFile {
			return withAnchor("/files/", id, anchor)
		}
		return withAnchor("/pages/", id, anchor)
	}
	return withAnchor("/pages/", r.relativePage(p), anchor)
}

// splitAnchor splits a destination as written at its fragment's "#", the first one that does not
// start a numeric character reference ("&#105;").
func splitAnchor(dest string) (raw, anchor string) {
	for i := 0; i < len(dest); i++ {
		if dest[i] == '#' && (i == 0 || dest[i-1] != '&') {
			return dest[:i], dest[i+1:]
		}
	}
	return dest, ""
}

// decodeDest decodes what a destination's text may escape: Markdown backslash escapes, character
// references and percent-encoding (a destination that is not valid percent-encoding is used as is).
func decodeDest(raw string) string {
	s := string(decodeEscapes([]byte(raw)))
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// withAnchor returns prefix+id, with "#anchor" when there was one; ok is false for no id. The id
// is percent-encoded (ids are base62, so this only guards the Markdown against a Tree that
// answers something else). The anchor is kept as written, its parentheses escaped: they may have
// been balanced by one in the path the id replaces ("(a#b)").
func withAnchor(prefix, id, anchor string) (string, bool) {
	if id == "" {
		return "", false
	}
	if anchor != "" {
		return prefix + url.PathEscape(id) + "#" + escapeParens(anchor), true
	}
	return prefix + url.PathEscape(id), true
}

// escapeParens backslash-escapes the parentheses of a destination that are not escaped yet.
func escapeParens(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]):
			b.WriteString(s[i : i+2])
			i++
		case c == '(' || c == ')':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// file resolves "/files/<id>".
func (r Resolver) file(id, anchor string) (string, bool) {
	if r.FileByID == nil || !r.FileByID(id) {
		return "", false
	}
	return withAnchor("/files/", id, anchor)
}

// ref resolves a batch ref: "./<ref>" or "./<ref>.md" for a page, "./<ref>" for a file.
func (r Resolver) ref(p string) (id string, isFile bool, ok bool) {
	name := strings.TrimPrefix(p, "./")
	if strings.Contains(name, "/") {
		return "", false, false
	}
	for _, key := range []string{name, strings.TrimSuffix(name, ".md")} {
		if id, ok := r.PageRefs[key]; ok {
			return id, false, true
		}
	}
	id, ok = r.FileRefs[name]
	return id, true, ok
}

// absolutePage resolves what follows "/pages": a page id, or a slug path as in relativePage.
func (r Resolver) absolutePage(rest string) string {
	rest = strings.TrimPrefix(rest, "/")
	if rest != "" && r.Tree.PageByID(rest) {
		return rest
	}
	return r.gitPath(path.Clean("/" + rest)[1:])
}

// relativePage resolves a path relative to the page being edited; "" when it names no page.
func (r Resolver) relativePage(rel string) string {
	joined := path.Join(r.dir(), rel)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return "" // above the top of the tree
	}
	if joined == "." {
		joined = ""
	}
	return r.gitPath(joined)
}

// dir is the folder of the page being edited in Git Sync's layout: its own path when it has
// children (it is "<path>/README.md"), else its parent's; "" at the top.
func (r Resolver) dir() string {
	if r.From == "" {
		return ""
	}
	p, hasChildren, ok := r.Tree.PagePath(r.From)
	if !ok || hasChildren {
		return p
	}
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

// gitPath resolves a clean slash path of Git Sync's layout ("guides/intro.md",
// "guides/README.md", "README.md") or a folder-style one ("guides", "") to a page id, "" if none.
func (r Resolver) gitPath(p string) string {
	p = strings.Trim(p, "/")
	dir, file := path.Split(p)
	switch {
	case p == "" || strings.EqualFold(p, "README.md"):
		id, _ := r.Tree.RootPage()
		return id
	case strings.EqualFold(file, "README.md"):
		p = strings.TrimSuffix(dir, "/")
	case strings.HasSuffix(p, ".md"):
		p = strings.TrimSuffix(p, ".md")
	}
	id, _ := r.Tree.PageBySlugPath(p)
	return id
}

// RenameIDs rewrites the destinations "/pages/<id>" and "/files/<id>" whose id ids renames,
// keeping anchors; every other byte stays. A copied space's pages use it to link to each other's
// copies.
func RenameIDs(markdown string, ids map[string]string) string {
	var edits []edit
	for _, l := range Links(markdown) {
		if l.Kind == Reference { // rewritten through its definition
			continue
		}
		raw, anchor := splitAnchor(l.Dest)
		p := decodeDest(raw)
		for _, prefix := range []string{"/pages/", "/files/"} {
			if renamed, ok := ids[strings.TrimPrefix(p, prefix)]; ok && strings.HasPrefix(p, prefix) {
				dest, _ := withAnchor(prefix, renamed, anchor)
				edits = append(edits, edit{Span{l.Start, l.End}, dest})
			}
		}
	}
	return applyEdits(markdown, edits)
}

// EscapeLinkText backslash-escapes what in text would end a link's text or start other syntax
// inside it ("\", "[", "]", "`", "*", "_", "<"), so "[" + EscapeLinkText(title) + "](url)" is a
// link whose text reads title.
func EscapeLinkText(text string) string { return linkTextEscaper.Replace(text) }

var linkTextEscaper = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, "`", "\\`", `*`, `\*`, `_`, `\_`, `<`, `\<`)
