package importer

import (
	"bytes"
	"context"
	"net/url"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/binderyhq/bindery/internal/content/markdown"
)

// HTMLPage is a web page converted to Markdown.
type HTMLPage struct {
	Title    string     // the document's <title>, "" when none
	Markdown string     // the main content; link and image destinations absolute
	Links    []*url.URL // every <a href> of the whole page (navigation included), absolute, in order
	Images   []*url.URL // the images of the Markdown, absolute, in order, each once
	notes    notes      // the docs sites' blocks converted (htmlblocks.go)
}

// Report is the page's entry in an import's report, under its URL.
func (p *HTMLPage) Report(u *url.URL) FileReport { return p.notes.report(u.String(), ResultPage) }

// chrome is what a page holds around its content that is not content: menus, footers, forms.
var chrome = []string{"nav", "footer", "aside", "form", "button", "template", "svg", "dialog"}

// converter is shared: html-to-markdown converters are safe for concurrent use.
var htmlConverter = newConverter()

func newConverter() *converter.Converter {
	c := converter.NewConverter(converter.WithPlugins(base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(commonmark.WithListEndComment(false)),
		table.NewTablePlugin(), strikethrough.NewStrikethroughPlugin()))
	for _, tag := range chrome {
		c.Register.TagType(tag, converter.TagTypeRemove, converter.PriorityStandard)
	}
	c.Register.Renderer(renderDocsBlock, converter.PriorityEarly)
	return c
}

// ConvertHTML converts a web page found at pageURL to Markdown: headings, lists, code, tables,
// links and images of its main content (the <main> element, else the first <article>, else the
// element with role main, else <body>), without menus, footers and scripts; the admonitions,
// tabs and <details> of Docusaurus and MkDocs sites as hints, tabs and expandables
// (htmlblocks.go). Relative destinations are made absolute against the page's <base href> or
// its URL.
func ConvertHTML(pageURL *url.URL, src []byte) (*HTMLPage, error) {
	doc, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	base := baseURL(doc, pageURL)
	p := &HTMLPage{Title: strings.Join(strings.Fields(textOf(find(doc, isTag(atom.Title)))), " ")}
	md, err := htmlConverter.ConvertNode(mainContent(doc), converter.WithDomain(base.String()),
		converter.WithContext(context.WithValue(context.Background(), convertedKey{}, &p.notes)))
	if err != nil {
		return nil, err
	}
	p.Markdown = string(md)
	p.Links = anchors(doc, base)
	p.Images = images(p.Markdown)
	return p, nil
}

// baseURL is the URL relative links of the document resolve against.
func baseURL(doc *html.Node, pageURL *url.URL) *url.URL {
	if b := find(doc, isTag(atom.Base)); b != nil {
		if u, err := pageURL.Parse(attr(b, "href")); err == nil && attr(b, "href") != "" {
			return u
		}
	}
	return pageURL
}

// mainContent is the element holding the page's content.
func mainContent(doc *html.Node) *html.Node {
	for _, match := range []func(*html.Node) bool{isTag(atom.Main), isTag(atom.Article),
		func(n *html.Node) bool { return n.Type == html.ElementNode && attr(n, "role") == "main" }, isTag(atom.Body)} {
		if n := find(doc, match); n != nil {
			return n
		}
	}
	return doc
}

// anchors returns the absolute destinations of the document's <a href>, in order.
func anchors(doc *html.Node, base *url.URL) []*url.URL {
	var out []*url.URL
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode || n.DataAtom != atom.A {
			return
		}
		href := strings.TrimSpace(attr(n, "href"))
		if href == "" || strings.HasPrefix(href, "#") {
			return
		}
		if u, err := base.Parse(href); err == nil {
			out = append(out, u)
		}
	})
	return out
}

// images returns the absolute http(s) destinations of the images of converted Markdown, each once.
func images(md string) []*url.URL {
	var out []*url.URL
	seen := map[string]bool{}
	for _, l := range markdown.Links(md) {
		if !l.Image || seen[l.Dest] {
			continue
		}
		seen[l.Dest] = true
		if u, err := url.Parse(l.Dest); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
			out = append(out, u)
		}
	}
	return out
}

func isTag(a atom.Atom) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Type == html.ElementNode && n.DataAtom == a }
}

// find returns the first node in document order that matches, or nil.
func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if found := find(c, match); found != nil {
			return found
		}
	}
	return nil
}

// walk calls fn for n and every node under it, in document order.
func walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// textOf is the text under n ("" for nil).
func textOf(n *html.Node) string {
	var b strings.Builder
	if n != nil {
		walk(n, func(c *html.Node) {
			if c.Type == html.TextNode {
				b.WriteString(c.Data)
			}
		})
	}
	return b.String()
}
