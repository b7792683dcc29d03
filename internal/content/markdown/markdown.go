// Package markdown holds the Markdown helpers of page authoring: splitting a page's Markdown into
// the fields Bindery stores apart (front matter, title, body; Parse and Render), finding the links
// of a document with their byte offsets (Links), and rewriting link destinations to page and file
// ids the way the reference API's updateChangeRequestContent does (Resolver), and from those ids to
// the URLs a published page's readers follow (ForReader).
//
// Markdown is parsed with goldmark as CommonMark, without GFM extensions: the links in a GFM table
// parse the same (its rows are paragraph lines to CommonMark), and GFM's bare URLs are external
// anyway. Data in, data out: nothing here reads a database.
//
// Front matter is read with a small parser of the YAML that page front matter uses rather than a
// YAML library (none is in go.mod, and three string fields are read): top-level "key: value"
// lines whose value is plain (a " #" comment dropped), 'single-quoted', "double-quoted" (with the
// escapes YAML shares with Go: \" \\ \n \t \uXXXX …) or a block scalar (| or >, with - or +
// chomping). Indented lines and "- " items below a key are that key's nested value (GitBook's
// layout:) and are skipped, as are blank lines and comments. Anything else makes the whole block
// ordinary body text: bad front matter is never an error.
package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// commonMark is goldmark's CommonMark parser with its link parser wrapped by spanParser, which
// records where each link and image starts and ends. A goldmark parser is safe for concurrent use:
// everything a parse learns lives in its parser.Context.
var commonMark = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithInlineParsers( // parser.DefaultInlineParsers with the link parser wrapped
		util.Prioritized(parser.NewCodeSpanParser(), 100),
		util.Prioritized(&spanParser{inner: parser.NewLinkParser()}, 200),
		util.Prioritized(parser.NewAutoLinkParser(), 300),
		util.Prioritized(parser.NewRawHTMLParser(), 400),
		util.Prioritized(parser.NewEmphasisParser(), 500),
	),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
)

// parse parses src and returns its document and the parse's context (link spans, references).
func parse(src []byte) (ast.Node, parser.Context) {
	pc := parser.NewContext()
	doc := commonMark.Parse(text.NewReader(src), parser.WithContext(pc))
	return doc, pc
}

// parsedDoc is Markdown parsed once, for what several readers of it need (its title, its links).
type parsedDoc struct {
	src []byte
	doc ast.Node
	pc  parser.Context
}

func parseDoc(markdown string) *parsedDoc {
	d := &parsedDoc{src: []byte(markdown)}
	d.doc, d.pc = parse(d.src)
	return d
}

// plainText is the text of n's inline content, without markup: escapes and character references
// decoded, code spans and raw HTML as written, line breaks as one space, outer spaces trimmed.
func plainText(n ast.Node, src []byte) string {
	var out []byte
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			out = appendText(out, c, src)
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(string(out))
}

// appendText appends the plain text that node n holds itself (not its children's) to out.
func appendText(out []byte, n ast.Node, src []byte) []byte {
	switch n := n.(type) {
	case *ast.Text:
		out = append(out, textValue(n, src)...)
		if n.SoftLineBreak() || n.HardLineBreak() {
			out = append(out, ' ')
		}
	case *ast.String:
		out = append(out, n.Value...)
	case *ast.AutoLink:
		out = append(out, n.Label(src)...)
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			out = append(out, seg.Value(src)...)
		}
	}
	return out
}

// textValue is a text node's value as goldmark's renderer reads it: code span text is raw, other
// text has its backslash escapes and character references decoded.
func textValue(t *ast.Text, src []byte) []byte {
	v := t.Segment.Value(src)
	if t.IsRaw() {
		return v
	}
	return decodeEscapes(v)
}

// decodeEscapes decodes backslash escapes and character references, as CommonMark does in text
// and link destinations.
func decodeEscapes(v []byte) []byte {
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
}

// offsetIn returns where b starts in src when b is a sub-slice of src (shares its array), which
// goldmark's link destinations are: it parses them in place and keeps the slice. ok is false
// otherwise (goldmark copied the bytes).
func offsetIn(src, b []byte) (off int, ok bool) {
	off = cap(src) - cap(b)
	if off < 0 || off >= cap(src) || off+len(b) > len(src) {
		return 0, false
	}
	return off, &src[:cap(src)][off] == &b[:1][0]
}

// TextOf is the text of n's descendants without any formatting (line breaks as one space), as a
// renderer shows a heading's or an image's text.
func TextOf(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
