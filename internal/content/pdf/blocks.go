package pdf

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// gfm parses CommonMark with GitHub's extensions (tables, strikethrough, autolinks, task
// lists). goldmark's parser is safe for concurrent use: its state lives in a per-parse context.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

// parse returns the document tree of src.
func parse(src []byte) ast.Node { return gfm.Parse(text.NewReader(src)) }

// Spacing, in points.
const (
	paragraphGap = bodySize * 0.6
	quoteIndent  = 14.0
	quoteBarGap  = 2.0 // from the quote's left edge to its bar
	markerGap    = 5.0 // from a list marker to its item's text
	codePadding  = 6.0
)

// headingSizes are the font sizes of Markdown headings of levels 1 to 6.
var headingSizes = [6]float64{17, 15, 13, 12, 11, bodySize}

// bullets are the markers of unordered lists, by nesting level.
var bullets = [...]string{"•", "◦", "▪"}

// blocks draws n's block children.
func (r *renderer) blocks(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.block(c)
	}
}

// block draws one block node; unknown blocks draw their children.
func (r *renderer) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading:
		r.heading(n)
	case *ast.Paragraph:
		r.text(r.inlines(n, r.base), lineHeight(r.base.size))
		r.gap(paragraphGap)
	case *ast.TextBlock: // a tight list item's text: no gap
		r.text(r.inlines(n, r.base), lineHeight(r.base.size))
	case *ast.List:
		r.list(n)
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
		// HTML is shown as its source: interpreting it is a browser's job, and dropping it
		// would lose content.
		r.code(sourceLines(n, r.src))
	case *ast.Blockquote:
		r.quote(n)
	case *ast.ThematicBreak:
		r.rule()
	case *east.Table:
		r.table(n)
	default:
		r.blocks(n)
	}
}

// heading draws a Markdown heading, on a new page when fewer than three lines fit below it.
func (r *renderer) heading(n *ast.Heading) {
	st := r.base
	st.bold = true
	st.size = headingSizes[min(max(n.Level, 1), len(headingSizes))-1]
	h := lineHeight(st.size)
	r.gap(h / 2)
	r.keep(3 * h)
	r.text(r.inlines(n, st), h)
	r.gap(h / 4)
}

// list draws a list, each item indented right of its bullet or number.
func (r *renderer) list(l *ast.List) {
	number := l.Start
	level := listLevel(l)
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		text := bullets[level%len(bullets)]
		if l.IsOrdered() {
			text = strconv.Itoa(number) + string(l.Marker)
			number++
		}
		r.indent(indentStep, func(bool) {
			r.marker = &marker{text: text, x: r.left - markerGap}
			r.blocks(item)
			if r.marker != nil { // an empty item: its marker alone
				r.line(lineHeight(r.base.size), func(float64) {})
			}
		})
	}
	if _, nested := l.Parent().(*ast.ListItem); !nested {
		r.gap(paragraphGap)
	}
}

// listLevel is how many lists enclose l.
func listLevel(l *ast.List) int {
	level := 0
	for p := l.Parent(); p != nil; p = p.Parent() {
		if _, ok := p.(*ast.List); ok {
			level++
		}
	}
	return level
}

// code draws preformatted lines in the monospace font on a shaded background, wrapping lines
// wider than the page.
func (r *renderer) code(lines []string) {
	st := style{mono: true, size: codeSize, color: textColor}
	h := lineHeight(codeSize)
	shade := func(y, h float64) {
		r.pdf.SetFillColor(0xf3, 0xf4, 0xf6)
		r.pdf.Rect(r.left, y, r.width(), h, "F")
	}
	r.keep(h + 2*codePadding)
	r.line(codePadding, func(y float64) { shade(y, codePadding) })
	for _, src := range lines {
		for _, ln := range layout(addText(nil, expandTabs(src), st), r.width()-2*codePadding, true) {
			r.line(h, func(y float64) {
				shade(y, h)
				r.drawLine(r.left+codePadding, y, ln, h)
			})
		}
	}
	r.line(codePadding, func(y float64) { shade(y, codePadding) })
	r.gap(paragraphGap)
}

// sourceLines are the lines of a code or HTML block, without line endings.
func sourceLines(n ast.Node, src []byte) []string {
	segs := n.Lines()
	lines := make([]string, 0, segs.Len()+1)
	for i := 0; i < segs.Len(); i++ {
		lines = append(lines, lineText(segs.At(i), src))
	}
	if h, ok := n.(*ast.HTMLBlock); ok && h.HasClosure() {
		lines = append(lines, lineText(h.ClosureLine, src))
	}
	return lines
}

// lineText is the text of a line segment without its line ending, with the indentation goldmark
// took from a tab (Padding) given back as spaces.
func lineText(seg text.Segment, src []byte) string {
	return strings.Repeat(" ", seg.Padding) + strings.TrimRight(string(seg.Value(src)), "\r\n")
}

// expandTabs replaces tabs with spaces to the next multiple of four columns.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, c := range s {
		if c == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(c)
		col++
	}
	return b.String()
}

// quote draws a block quote indented, muted, with a bar on its left.
func (r *renderer) quote(n *ast.Blockquote) {
	bar := r.left + quoteBarGap
	saved := r.base
	r.base.color = mutedColor
	r.indent(quoteIndent, func(moved bool) {
		if moved { // past maxIndent, quotes share the innermost bar
			r.quoteBars = append(r.quoteBars, bar)
			defer func() { r.quoteBars = r.quoteBars[:len(r.quoteBars)-1] }()
		}
		r.blocks(n)
	})
	r.base = saved
}

// rule draws a horizontal line across the text column.
func (r *renderer) rule() {
	h := lineHeight(bodySize) / 2
	r.line(h, func(y float64) {
		r.pdf.SetDrawColor(0xd0, 0xd7, 0xde)
		r.pdf.SetLineWidth(0.75)
		r.pdf.Line(r.left, y+h/2, bodyRight, y+h/2)
	})
}

// keep starts a new page unless height points fit below, so a block of that height is not split
// (when it fits on a page at all).
func (r *renderer) keep(height float64) {
	if y := r.pdf.GetY(); y+height > bodyBottom && y > margin && height <= bodyBottom-margin {
		r.pdf.AddPage()
	}
}
