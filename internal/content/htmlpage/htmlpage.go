// Package htmlpage renders a page's stored Markdown as the HTML of a published site: CommonMark
// with GitHub's extensions (tables, task lists, strikethrough, autolinks), footnotes, heading
// anchors and highlighted code, with the links to pages and files (stored as "/pages/<id>" and
// "/files/<id>", see internal/content/markdown) rewritten to the site's URLs; Markdown rewrites them
// the same way in the Markdown readers receive.
//
// A page cannot inject script: goldmark drops raw HTML and dangerous link schemes, and what it
// writes then passes a sanitizer (bluemonday) that keeps only the elements and attributes Markdown
// produces. Data in, data out: nothing here reads a database.
package htmlpage

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/binderyhq/bindery/internal/content/markdown"
)

// Links maps the pages and files a page links to onto the site's URLs.
type Links interface {
	// Page returns the URL of a page by id, or "" when the reader cannot reach it (the link is
	// then replaced by its text).
	Page(id string) string
	// File returns the URL of a file of the revision by id, or "" when there is none.
	File(id string) string
}

// Heading is a heading of a page, for its outline.
type Heading struct {
	Level int    // 1 to 6
	ID    string // the anchor, unique in the page
	Text  string
}

// Page is a rendered page.
type Page struct {
	Body     template.HTML // sanitized
	Headings []Heading     // in document order
}

// linksKey carries the Links of one render through goldmark's parser context.
var linksKey = parser.NewContextKey()

// headingsKey collects the headings of one render.
var headingsKey = parser.NewContextKey()

var gfm = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.Footnote),
	goldmark.WithParserOptions(
		parser.WithAutoHeadingID(),
		parser.WithASTTransformers(util.Prioritized(siteLinks{}, 100)),
	),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(codeRenderer{}, 100))),
)

// Render renders markdown for a site whose URLs links gives.
func Render(src string, links Links) Page {
	pc := parser.NewContext(parser.WithIDs(&anchors{taken: map[string]bool{}}))
	pc.Set(linksKey, links)
	doc := gfm.Parser().Parse(text.NewReader([]byte(src)), parser.WithContext(pc))
	var out bytes.Buffer
	// Rendering into a buffer fails only when the buffer does, which it does not.
	_ = gfm.Renderer().Render(&out, []byte(src), doc)
	headings, _ := pc.Get(headingsKey).([]Heading)
	return Page{Body: template.HTML(sanitizer.SanitizeBytes(out.Bytes())), Headings: headings} //nolint:gosec // sanitized
}

// siteLinks rewrites the page and file links of a document and collects its headings.
type siteLinks struct{}

func (siteLinks) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	links, _ := pc.Get(linksKey).(Links)
	src := reader.Source()
	var headings []Heading
	var unreachable []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			id, _ := n.AttributeString("id")
			idText, _ := id.([]byte)
			headings = append(headings, Heading{Level: n.Level, ID: string(idText), Text: strings.TrimSpace(markdown.TextOf(n, src))})
		case *ast.Link:
			if n.Destination = rewrite(links, n.Destination); n.Destination == nil {
				unreachable = append(unreachable, n)
			}
		case *ast.Image:
			if n.Destination = rewrite(links, n.Destination); n.Destination == nil {
				unreachable = append(unreachable, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range unreachable {
		unwrap(n)
	}
	pc.Set(headingsKey, headings)
}

// rewrite returns the site URL of a stored destination (siteURL); nil means a page or file the
// reader cannot reach.
func rewrite(links Links, dest []byte) []byte {
	url, ok := siteURL(links, string(dest))
	if !ok {
		return nil
	}
	return []byte(url)
}

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

// unwrap replaces a link by its text, an image by its alt text.
func unwrap(n ast.Node) {
	parent := n.Parent()
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, n, c)
		c = next
	}
	parent.RemoveChild(parent, n)
}

// anchors gives headings the anchors the search index gives their sections (markdown.Anchor,
// numbered like GitHub's), so a search result's link lands on its heading.
type anchors struct{ taken map[string]bool }

func (a *anchors) Generate(heading []byte, _ ast.NodeKind) []byte {
	return []byte(markdown.UniqueAnchor(a.taken, markdown.Anchor(string(heading))))
}

func (a *anchors) Put(id []byte) { a.taken[string(id)] = true }
