package markdown

import (
	"bytes"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Kind is the syntax a Link is written in.
type Kind int

const (
	// Inline is "[text](dest)" or "![alt](dest)".
	Inline Kind = iota
	// Reference is "[text][label]", "[label][]" or "[label]" (and their images): its Dest, Start
	// and End are those of the Definition it uses, so several links may share them.
	Reference
	// Definition is a link reference definition "[label]: dest"; its Text is the label.
	Definition
	// Autolink is "<scheme:…>" or "<address@example.com>".
	Autolink
	// Tag is the destination of a GitBook block that is not a Markdown link (BlockRefs).
	Tag
)

// Span is a range of byte offsets, End excluded.
type Span struct{ Start, End int }

// Link is one link, image, autolink or link reference definition of a Markdown document.
type Link struct {
	Dest       string // destination as written (escapes not decoded)
	Start, End int    // byte offsets of Dest in the source
	Image      bool
	Text       string // link text (alt text for images) as plain text; the label of a Definition
	Kind       Kind
	// Outer is the whole link as written ("[text](dest \"title\")", "<https://…>"); Inner is the
	// link text's source between the brackets, or the address of an autolink. A Definition's
	// other syntax is not located: both are its Dest.
	Outer, Inner Span
}

// Links returns the links of markdown in source order (Definitions by their Dest): inline links
// and images, reference links and images, autolinks and link reference definitions, never inside
// code spans, code blocks or HTML. Raw HTML links (<a href>) are not Markdown links and not listed.
// A definition whose label was defined before is unused and not listed.
func Links(markdown string) []Link {
	return parseDoc(markdown).linksFrom(0)
}

// linksFrom returns the links of the parsed document that start at or after offset from, with
// their offsets made relative to it: the links of the document's text from there on, when what is
// before is whole blocks that hold no link reference definition (a leading title).
func (d *parsedDoc) linksFrom(from int) []Link {
	c := collector{src: d.src, spans: spansOf(d.pc)}
	_ = ast.Walk(d.doc, c.visit)
	links := append(c.links, definitions(d.pc, d.src)...)
	slices.SortStableFunc(links, func(a, b Link) int { return a.Outer.Start - b.Outer.Start })
	if from == 0 {
		return links
	}
	out := links[:0]
	for _, l := range links {
		if l.Outer.Start >= from {
			out = append(out, l.shifted(-from))
		}
	}
	return out
}

// shifted is the link with its offsets moved by delta.
func (l Link) shifted(delta int) Link {
	l.Start, l.End = l.Start+delta, l.End+delta
	l.Outer = Span{l.Outer.Start + delta, l.Outer.End + delta}
	l.Inner = Span{l.Inner.Start + delta, l.Inner.End + delta}
	return l
}

// collector gathers the links of a document in one walk, and its plain text on the way: a link's
// Text is the text gathered between entering and leaving it (so nested links cost no second walk).
type collector struct {
	src    []byte
	spans  map[ast.Node]labelSpan
	text   []byte
	starts []int // len(text) when each link being walked was entered
	links  []Link
}

func (c *collector) visit(n ast.Node, entering bool) (ast.WalkStatus, error) {
	switch {
	case entering:
		if isLink(n) {
			c.starts = append(c.starts, len(c.text))
		}
		c.text = appendText(c.text, n, c.src)
	case isLink(n):
		start := c.starts[len(c.starts)-1]
		c.starts = c.starts[:len(c.starts)-1]
		if l, ok := linkOf(n, c.src, c.spans); ok {
			l.Text = strings.TrimSpace(string(c.text[start:]))
			c.links = append(c.links, l)
		}
	}
	return ast.WalkContinue, nil
}

func isLink(n ast.Node) bool {
	switch n.(type) {
	case *ast.Link, *ast.Image, *ast.AutoLink:
		return true
	}
	return false
}

// linkOf returns the Link of node n, Text aside, when n is a link, image or autolink.
func linkOf(n ast.Node, src []byte, spans map[ast.Node]labelSpan) (Link, bool) {
	switch n := n.(type) {
	case *ast.Link:
		return bracketLink(n.Destination, false, src, spans[n])
	case *ast.Image:
		return bracketLink(n.Destination, true, src, spans[n])
	case *ast.AutoLink:
		return autolink(n, src)
	}
	return Link{}, false
}

// bracketLink makes the Link of a link or image from its destination and recorded span.
func bracketLink(dest []byte, image bool, src []byte, s labelSpan) (Link, bool) {
	if s.end == 0 {
		return Link{}, false // not seen by spanParser: cannot happen with commonMark
	}
	l := Link{Dest: string(dest), Image: image, Kind: Reference,
		Outer: Span{s.open, s.end}, Inner: Span{s.open + 1, s.close}}
	if image {
		l.Inner.Start++
	}
	off, inPlace := offsetIn(src, dest)
	if s.inline(src, dest, off, inPlace) {
		l.Kind = Inline
		if dest == nil { // "[text]()": an empty destination just before ")"
			off = s.end - 1
		}
	} else if !inPlace {
		return Link{}, false // a reference whose destination goldmark copied: cannot be located
	}
	l.Start, l.End = off, off+len(dest)
	return l, true
}

// autolink makes the Link of an autolink node: its address is the text between "<" and ">".
func autolink(n *ast.AutoLink, src []byte) (Link, bool) {
	label := n.Label(src)
	off, ok := offsetIn(src, label)
	if !ok {
		return Link{}, false
	}
	end := off + len(label)
	return Link{Dest: string(label), Start: off, End: end, Kind: Autolink,
		Outer: Span{off - 1, end + 1}, Inner: Span{off, end}}, true
}

// definitions returns the link reference definitions goldmark kept (the first of each label).
func definitions(pc parser.Context, src []byte) []Link {
	var defs []Link
	for _, ref := range pc.References() {
		off, ok := offsetIn(src, ref.Destination())
		if !ok {
			continue
		}
		dest := Span{off, off + len(ref.Destination())}
		defs = append(defs, Link{Dest: string(ref.Destination()), Start: dest.Start, End: dest.End,
			Text: string(ref.Label()), Kind: Definition, Outer: dest, Inner: dest})
	}
	return defs
}

// labelSpan is where a link or image is in the source: its "[" (or "!["), its closing "]" and the
// end of the whole link (after ")" or the reference's "]").
type labelSpan struct{ open, close, end int }

// inline reports whether the link spanned by s is an inline link "[text](dest)" with destination
// dest found at off (inPlace), rather than a reference link whose destination is elsewhere.
func (s labelSpan) inline(src, dest []byte, off int, inPlace bool) bool {
	if s.close+1 >= len(src) || src[s.close+1] != '(' {
		return false
	}
	return dest == nil || (inPlace && off > s.close+1 && off <= s.end)
}

// spanParser wraps goldmark's link parser and records each link's labelSpan. goldmark keeps the
// opened "[" and "![" on a stack: each "]" closes the last one opened (whether or not it makes a
// link) and the end of a block forgets them all. spanParser keeps the same stack of offsets.
type spanParser struct{ inner parser.InlineParser }

// spanState is what a spanParser knows during one parse (kept in its parser.Context).
type spanState struct {
	opened []int                  // offsets of the "[" or "![" still open
	spans  map[ast.Node]labelSpan // the links and images made
}

var spanStateKey = parser.NewContextKey()

func stateOf(pc parser.Context) *spanState {
	s, _ := pc.Get(spanStateKey).(*spanState)
	if s == nil {
		s = &spanState{spans: map[ast.Node]labelSpan{}}
		pc.Set(spanStateKey, s)
	}
	return s
}

// spansOf returns the spans recorded during a parse.
func spansOf(pc parser.Context) map[ast.Node]labelSpan { return stateOf(pc).spans }

// Trigger implements parser.InlineParser.
func (p *spanParser) Trigger() []byte { return p.inner.Trigger() }

// Parse implements parser.InlineParser.
func (p *spanParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	_, at := block.Position()
	closing := block.Peek() == ']'
	n := p.inner.Parse(parent, block, pc)
	st := stateOf(pc)
	switch {
	case !closing && n != nil:
		st.opened = append(st.opened, at.Start)
	case closing && len(st.opened) > 0:
		open := st.opened[len(st.opened)-1]
		st.opened = st.opened[:len(st.opened)-1]
		if n != nil {
			_, after := block.Position()
			st.spans[n] = labelSpan{open, at.Start, linkEnd(block.Source(), at.Start, after.Start)}
		}
	}
	return n
}

// linkEnd returns the end of a link whose label closes at close and after which goldmark's reader
// stands at after: past the last ")" or "]" in between (after may be the start of the next line),
// or just after the label for a shortcut reference "[label]".
func linkEnd(src []byte, close, after int) int {
	tail := src[close+1 : max(close+1, min(after, len(src)))]
	if i := bytes.LastIndexAny(tail, ")]"); i >= 0 {
		return close + 1 + i + 1
	}
	return close + 1
}

// CloseBlock implements parser.CloseBlocker: goldmark forgets the open brackets, so does st.
func (p *spanParser) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := p.inner.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
	stateOf(pc).opened = nil
}
