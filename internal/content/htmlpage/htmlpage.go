// Package htmlpage renders a page as the HTML of a published site. The page's stored
// GitBook-flavoured Markdown is read as a document (internal/document) and each block of the
// document is written as readers expect it: hints as notes with their label, tabs as an ARIA
// tablist, expandables as <details>, steppers as an ordered list, columns, tables, images with
// captions, files, content references and embeds as cards (a sandboxed player for the providers
// of an allow list, embed.go), code highlighted by chroma with its title and line numbers (code.go),
// math as MathML (mathml), footnotes as GitHub's Markdown has them (footnotes.go). Headings carry the anchors the search index gives their sections, and
// the links to pages and files (stored as "/pages/<id>" and "/files/<id>", see
// internal/content/markdown) are rewritten to the site's URLs; Markdown rewrites them the same way
// in the Markdown readers receive.
//
// A page cannot inject script: every text of the document is written escaped, every attribute is
// one this package writes with an escaped value, and a URL is written only when it is a site URL,
// relative, or http(s) (mailto for links); anything else (javascript:, data:…) leaves its text.
// The tabs' switching and the code's copy button are the site's script (publish). Data in, data
// out: nothing here reads a database.
package htmlpage

import (
	"html/template"
	"strings"

	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/document"
)

// Links maps the pages and files a page links to onto the site's URLs.
type Links interface {
	// Page returns the URL of a page by id, or "" when the reader cannot reach it (the link is
	// then replaced by its text).
	Page(id string) string
	// File returns the URL of a file of the revision by id, or "" when there is none.
	File(id string) string
	// PageTitle returns the title of a page the reader can reach, for content references.
	PageTitle(id string) string
	// FileName returns the name of a file of the revision, for file blocks.
	FileName(id string) string
}

// Heading is a heading of a page, for its outline.
type Heading struct {
	Level int    // 2 to 4: the page's title is its level 1, heading-1 to heading-3 are 2 to 4
	ID    string // the anchor, unique in the page
	Text  string
}

// Page is a rendered page.
type Page struct {
	Body     template.HTML // safe: see the package doc
	Headings []Heading     // in document order
}

// Document renders a page's document for a site whose URLs links gives. It does not change doc,
// which may be shared (the content store parses each body once). API operation blocks show a
// notice: DocumentWith shows their operations.
func Document(doc *document.Document, links Links) Page { return DocumentWith(doc, links, nil) }

// DocumentWith is Document with the API operations ops gives.
func DocumentWith(doc *document.Document, links Links, ops Operations) Page {
	blocks, notes := takeFootnotes(doc.Nodes)
	w := &writer{links: links, anchors: markdown.NewAnchors(), notes: notes, ops: ops}
	w.b.Grow(len(blocks) * bytesPerBlock)
	w.blocks(blocks)
	w.writeFootnotes()
	return Page{Body: template.HTML(w.b.String()), Headings: w.headings} //nolint:gosec // written escaped
}

// bytesPerBlock is about what a top-level block of a page writes, for room made at once.
const bytesPerBlock = 256

// Markdown returns a page's stored Markdown as its readers receive it: its links to pages and
// files rewritten to the URLs links gives, as Render rewrites them, and a link to a page or file
// the reader cannot reach replaced by its text (an image by its alt text). Every other byte stays.
func Markdown(src string, links Links) string {
	return markdown.ForReader(src, func(dest string) (string, bool) { return siteURL(links, dest) })
}

// siteURL returns the site URL of a stored destination: "/pages/<id>[#anchor]" and "/files/<id>"
// through links, anything else as it is; ok is false for a page or file the reader cannot reach.
func siteURL(links Links, dest string) (url string, ok bool) {
	switch {
	case strings.HasPrefix(dest, "/pages/"):
		id, anchor, hasAnchor := strings.Cut(strings.TrimPrefix(dest, "/pages/"), "#")
		if url = links.Page(id); url != "" && hasAnchor {
			url += "#" + anchor
		}
	case strings.HasPrefix(dest, "/files/"):
		url = links.File(strings.TrimPrefix(dest, "/files/"))
	default:
		return dest, true
	}
	return url, url != ""
}

// writer writes one page.
type writer struct {
	b        strings.Builder
	links    Links
	anchors  *markdown.Anchors            // the headings' anchors taken
	urls     map[document.Ref]*linkTarget // the links' destinations seen (target)
	headings []Heading
	tabs     int // the groups of tabs written, which number their ids
	notes    *footnotes

	ops         Operations
	operations  int  // the API operations written, which number their ids
	inOperation bool // writing an operation's descriptions
}
