// Package pdf renders a change request's pages as one PDF document: each page starts on a new
// PDF page under its numbered title ("2.1"), its Markdown body (CommonMark with GitHub's tables,
// strikethrough, autolinks and task lists) drawn with headings, bold, italic and code spans,
// nested lists, code blocks, block quotes, links and tables. It is pure: data in, bytes out.
//
// What it draws, where Markdown allows more:
//   - Text is set in the Go fonts, embedded as UTF-8 TrueType subsets, so Latin (with Latin
//     Extended), Greek and Cyrillic render; characters the fonts lack (CJK, emoji) are drawn as
//     U+FFFD rather than failing the render. Control characters and invalid UTF-8 are cleaned.
//   - Only absolute http, https and mailto links become clickable; other link text is plain.
//   - Images are never fetched: they read "[image: alt]".
//   - HTML blocks are shown as their source, in the code font; inline tags are dropped but <br>.
//   - Tables of up to 8 columns are drawn as rows of equal-width columns; wider ones as one line
//     of "a | b | c" per row.
//   - Nesting indents up to half the text width, then stops indenting.
//
// fpdf (github.com/go-pdf/fpdf) writes the PDF; this package lays text out itself (layout) and
// hands fpdf one line at a time, because fpdf's own text flow is quadratic in the length of a
// paragraph and indexes its width tables without bounds checks.
package pdf

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/go-pdf/fpdf"
)

// Page is one page of a document.
type Page struct {
	Title    string
	Depth    int    // 0 for root pages; nested pages get a deeper outline number ("2.1")
	Markdown string // page body
}

// Document is what Render draws.
type Document struct {
	Title string // e.g. the space title + change request subject
	Pages []Page // in tree order
}

// Page geometry, in points on A4.
const (
	pageWidth   = 595.28
	pageHeight  = 841.89
	margin      = 56.0
	headerY     = 28.0
	footerY     = pageHeight - 36.0
	bodyBottom  = pageHeight - margin
	bodyRight   = pageWidth - margin
	bodyWidth   = bodyRight - margin
	maxIndent   = bodyWidth / 2 // deeper nesting stops indenting so text keeps room
	indentStep  = 18.0
	lineSpacing = 1.4 // line height as a multiple of the font size
)

// Font sizes, in points.
const (
	bodySize   = 10.5
	codeSize   = 9.0
	headerSize = 8.0
)

// Render writes a PDF of the document to w: the document title on the first page, then every
// page from a new PDF page, titled and numbered by its place in the tree, with PDF bookmarks
// mirroring the tree. An empty document renders one page saying so.
// It returns an error only when the PDF cannot be produced or written.
func Render(w io.Writer, doc Document) (err error) {
	// fpdf indexes its tables without bounds checks; the input is cleaned so that it never
	// should, but a malformed page must cost an export, not the server.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("pdf: render failed: %v", p)
		}
	}()
	r := newRenderer(doc.Title)
	r.document(doc)
	if err := r.pdf.Output(w); err != nil {
		return fmt.Errorf("pdf: %w", err)
	}
	return nil
}

// renderer draws one document. Blocks are laid out by this package (layout) and drawn line by
// line, so page breaks, indentation and block-quote bars are decided in one place (line).
type renderer struct {
	pdf        *fpdf.Fpdf
	title      string // the document title, cleaned
	src        []byte // Markdown of the page being drawn
	left       float64
	base       style     // style of body text in the current block
	quoteBars  []float64 // x of the bar of each enclosing block quote
	marker     *marker   // list marker to draw on the next line
	current    style     // style last set on pdf
	registered [len(faces)]bool
}

// marker is a list item's bullet or number, drawn right-aligned to end at x.
type marker struct {
	text string
	x    float64
}

func newRenderer(title string) *renderer {
	p := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: pageWidth, Ht: pageHeight}})
	p.SetMargins(margin, margin, margin)
	p.SetAutoPageBreak(false, margin) // line breaks pages, before a line rather than inside it
	p.SetCellMargin(0)
	p.SetCreator("Bindery", true)
	r := &renderer{pdf: p, left: margin, base: style{size: bodySize, color: textColor}}
	r.title = r.base.face().clean(strings.TrimSpace(title))
	p.SetTitle(r.title, true)
	p.SetHeaderFunc(r.header)
	p.SetFooterFunc(r.footer)
	return r
}

// document draws the title and every page.
func (r *renderer) document(doc Document) {
	r.pdf.AddPage()
	r.documentTitle()
	if len(doc.Pages) == 0 {
		r.text(addText(nil, "This document has no pages.", r.base), lineHeight(bodySize))
		return
	}
	for i, n := range outline(doc.Pages) {
		if i > 0 {
			r.pdf.AddPage()
		}
		r.page(doc.Pages[i], n)
	}
}

// documentTitle draws the document's title at the top of the first page.
func (r *renderer) documentTitle() {
	st := style{bold: true, size: 22, color: textColor}
	r.text(addText(nil, orUntitled(r.title), st), lineHeight(st.size))
	r.gap(lineHeight(bodySize))
}

// page draws one page: its numbered title, bookmarked at its outline level, then its body.
func (r *renderer) page(p Page, n number) {
	st := style{bold: true, size: max(20-2*float64(n.level()), 13), color: textColor}
	title := st.face().clean(orUntitled(p.Title))
	r.setStyle(st) // fpdf encodes a bookmark's title as UTF-16 only while a UTF-8 font is selected
	r.pdf.Bookmark(n.String()+" "+title, n.level(), -1)
	r.text(addText(nil, n.String()+"  "+title, st), lineHeight(st.size))
	r.rule()
	r.src = []byte(p.Markdown)
	r.blocks(parse(r.src))
}

// orUntitled is title without surrounding spaces, or "Untitled" when that leaves nothing.
func orUntitled(title string) string {
	if title = strings.TrimSpace(title); title == "" {
		return "Untitled"
	}
	return title
}

// header draws the document title, small and muted, at the top of every page but the first
// (which carries it in full).
func (r *renderer) header() {
	if r.pdf.PageNo() > 1 && r.title != "" {
		st := style{size: headerSize, color: mutedColor}
		r.marginLine(st, headerY, truncate(r.title, st, bodyWidth), "L")
	}
	r.pdf.SetXY(margin, margin)
}

// footer draws the page number.
func (r *renderer) footer() {
	r.marginLine(style{size: headerSize, color: mutedColor}, footerY, strconv.Itoa(r.pdf.PageNo()), "C")
}

// marginLine draws one line of text in the top or bottom margin. fpdf restores the body's font and
// color after a header and footer, so the style the renderer last set is still the current one.
func (r *renderer) marginLine(st style, y float64, text, align string) {
	defer func(body style) { r.current = body }(r.current)
	r.setStyle(st)
	r.pdf.SetXY(margin, y)
	r.pdf.CellFormat(bodyWidth, st.size, text, "", 0, align, false, 0, "")
}

// lineHeight is the height of a line of text of the given font size.
func lineHeight(size float64) float64 { return size * lineSpacing }

// width is the room for text right of the current indentation.
func (r *renderer) width() float64 { return bodyRight - r.left }

// indent runs draw with the left edge moved right by step, up to maxIndent, and reports to draw
// whether it moved.
func (r *renderer) indent(step float64, draw func(moved bool)) {
	saved := r.left
	r.left = min(r.left+step, margin+maxIndent)
	draw(r.left > saved)
	r.left = saved
}

// text lays runs out at the current indentation and draws them.
func (r *renderer) text(runs []run, h float64) {
	for _, ln := range layout(runs, r.width(), false) {
		r.line(h, func(y float64) { r.drawLine(r.left, y, ln, h) })
	}
}

// line makes room for a line of height h and draws it with draw at y, its top: it starts a new
// page when the line does not fit, and draws the enclosing block-quote bars and the pending list
// marker beside it. Every line of the body passes here, so page breaks, quote bars and markers
// are decided in one place.
func (r *renderer) line(h float64, draw func(y float64)) {
	if y := r.pdf.GetY(); y+h > bodyBottom && y > margin {
		r.pdf.AddPage()
	}
	y := r.pdf.GetY()
	r.drawQuoteBars(y, h)
	if m := r.marker; m != nil {
		r.marker = nil
		st := style{size: r.base.size, color: r.base.color}
		r.drawLine(m.x-st.face().width(m.text, st.size), y, line{pieces: []piece{{text: m.text, style: st}}}, h)
	}
	draw(y)
	r.pdf.SetY(y + h)
}

// gap adds vertical space of height h between blocks, none at the top of a page.
func (r *renderer) gap(h float64) {
	y := r.pdf.GetY()
	if y <= margin {
		return
	}
	h = min(h, bodyBottom-y)
	r.drawQuoteBars(y, h)
	r.pdf.SetY(y + h)
}

// drawQuoteBars draws the bar of each enclosing block quote from y down h points.
func (r *renderer) drawQuoteBars(y, h float64) {
	if len(r.quoteBars) == 0 || h <= 0 {
		return
	}
	r.pdf.SetFillColor(0xd0, 0xd7, 0xde)
	for _, x := range r.quoteBars {
		r.pdf.Rect(x, y, 2.5, h, "F")
	}
}

// drawLine draws ln with its left end at x and its top at y, one cell per stretch of one style.
func (r *renderer) drawLine(x, y float64, ln line, h float64) {
	r.pdf.SetXY(x, y)
	for i := 0; i < len(ln.pieces); {
		st := ln.pieces[i].style
		var text strings.Builder
		w := 0.0
		for ; i < len(ln.pieces) && ln.pieces[i].style == st; i++ {
			text.WriteString(ln.pieces[i].text)
			w += ln.pieces[i].width
		}
		r.setStyle(st)
		r.pdf.CellFormat(w, h, text.String(), "", 0, "L", false, 0, st.link)
	}
}

// setStyle selects st's font, decorations and color, registering the font on first use (fpdf
// parses each font it is given, so only the faces a document uses are loaded).
func (r *renderer) setStyle(st style) {
	if st == r.current {
		return
	}
	i := faceIndex(st.mono, st.bold, st.italic)
	f := faces[i]
	if !r.registered[i] {
		// A copy: fpdf writes into the font bytes it is given while subsetting them, and the Go
		// fonts are shared by every render (the race detector caught concurrent renders).
		r.pdf.AddUTF8FontFromBytes(f.family, f.style, bytes.Clone(f.ttf))
		r.registered[i] = true
	}
	decoration := ""
	if st.underline {
		decoration += "U"
	}
	if st.strike {
		decoration += "S"
	}
	r.pdf.SetFont(f.family, f.style+decoration, st.size)
	r.pdf.SetTextColor(st.color.r, st.color.g, st.color.b)
	r.current = st
}

// number is a page's position in the outline: [2 1] is "2.1", the first child of the second
// root page.
type number []int

func (n number) level() int { return len(n) - 1 }

func (n number) String() string {
	parts := make([]string, len(n))
	for i, v := range n {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ".")
}

// outline numbers pages by their depth. Depths need not be consecutive: a page is the child of
// the nearest page before it with a smaller depth (a root when there is none), so any sequence of
// depths gives a proper tree, as PDF bookmarks need.
func outline(pages []Page) []number {
	numbers := make([]number, len(pages))
	var (
		ancestors []int // depths of the previous page and its ancestors, increasing
		counters  []int // counters[level]: the number of the latest page at that level
	)
	for i, p := range pages {
		depth := max(p.Depth, 0)
		for len(ancestors) > 0 && ancestors[len(ancestors)-1] >= depth {
			ancestors = ancestors[:len(ancestors)-1]
		}
		level := len(ancestors)
		ancestors = append(ancestors, depth)
		if level == len(counters) {
			counters = append(counters, 1)
		} else {
			counters = counters[:level+1]
			counters[level]++
		}
		numbers[i] = slices.Clone(counters)
	}
	return numbers
}
