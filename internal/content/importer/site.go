// Package importer turns content from outside — a crawled website, uploaded Markdown files — into
// pages and files of a revision: pages nested by their URL or file path (or by the table of
// contents an upload brings), links between imported pages rewritten to "/pages/<id>", links to
// imported files (images) to "/files/<id>". It is pure: the fetching is done by its callers.
//
// An upload is read in the docs-as-code dialect it is written in (dialect.go): Docusaurus
// (docusaurus.go, mdx.go, admonitions.go), MkDocs Material (mkdocs.go, admonitions.go), a GitBook
// repository (gitbook.go), or plain Markdown laid out as Git Sync lays out a space. Each dialect's
// constructs are rewritten as GitBook-flavoured Markdown, the encoding pages are stored in, and the
// Site's Report says per file what was converted and what was kept as text.
package importer

import (
	"net/url"
	"path"
	"strings"
)

// Site is content to import.
type Site struct {
	// Pages in order: siblings keep this order, and a page's parent is the nearest page whose
	// path is a proper prefix of its own (the root path "/" is never a parent: a site's home
	// page is a sibling of its sections).
	Pages []Page
	Files []File
	// Shown are Markdown that is no page but shows files (a GitBook repository's reusable
	// contents): the files they link to are imported as those pages link to are.
	Shown []Shown
	// Outline says that Pages are in their table of contents' order and each page's Parent names
	// its parent (nil: the top level), rather than nesting by path.
	Outline bool
	// Dialect is what the content was read as: one of the Dialect constants.
	Dialect string
	// Report says, per uploaded file, what it became and what converting it did.
	Report []FileReport
}

// Page is a document to import.
type Page struct {
	// Location is where links name the page: its URL, or "file:///dir/name.md" for an upload.
	// Relative links of its Markdown resolve against it.
	Location *url.URL
	Title    string // used when the Markdown has no title of its own
	Markdown string

	// What an upload's dialect says of the page; zero for plain uploads and websites.

	// NavTitle is the title its table of contents gives it, which wins over the Markdown's own:
	// a leading heading that says something else stays in the body.
	NavTitle string
	Parent   *url.URL // the Location of its parent page when the Site is an Outline
	Hidden   bool     // kept out of the table of contents (a page no outline lists, a draft)
	Slug     string   // the slug it asks for, used when no sibling has it
	// Group says the page is a group (tree.TypeGroup): a top-level page without a document that
	// holds the pages under it, as a GitBook SUMMARY.md's "##" headings.
	Group bool
	// Aliases are other locations links name it by (a Docusaurus doc's URL "/docs/guide/install").
	Aliases []*url.URL
	// DocID is a name links may give it as written, not resolved (a Docusaurus doc id).
	DocID string
}

// Shown is Markdown, not a page's, whose links name files to import; its links are not rewritten.
type Shown struct {
	Location *url.URL // where its relative links resolve from
	Markdown string
}

// File is a file to import (an image a page shows).
type File struct {
	Location    *url.URL // where links name it
	Name        string
	ContentType string
	Data        []byte
	Aliases     []*url.URL // other locations links name it by (Docusaurus' static/img/a.png as /img/a.png)
}

// PageKey is how links find a page: host and path, without query and fragment, and without
// what only spells the same page differently — a trailing "/", "index.html", "README.md", a ".md",
// ".mdx" or ".html" extension. http and https name the same page.
func PageKey(u *url.URL) string {
	p := strings.TrimSuffix(path.Clean("/"+u.Path), "/")
	base := path.Base(p)
	switch strings.ToLower(base) {
	case "index.html", "index.htm", "readme.md", "index.md", "readme.mdx", "index.mdx":
		p = strings.TrimSuffix(path.Dir(p), "/")
	default:
		for _, ext := range []string{".md", ".mdx", ".markdown", ".html", ".htm"} {
			if strings.HasSuffix(strings.ToLower(base), ext) {
				p = p[:len(p)-len(ext)]
				break
			}
		}
	}
	return strings.ToLower(u.Host) + p
}

// FileKey is how links find a file: its URL without the fragment (a query may choose another
// image), http and https alike.
func FileKey(u *url.URL) string {
	c := *u
	c.Scheme, c.Fragment, c.RawFragment, c.Host = "", "", "", strings.ToLower(u.Host)
	return c.String()
}

// segments splits a page key's path into its parts ("guide", "install"); none for the root.
func segments(key string) []string {
	_, p, _ := strings.Cut(key, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}
