package pdf

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// maxTableColumns is the most columns drawn side by side; a wider table is drawn one row per
// paragraph, its cells separated by " | ", as its columns would be too narrow to read.
const maxTableColumns = 8

// cellPadding is the space around a table cell's text, in points.
const cellPadding = 4.0

// table draws a GFM table as rows of equal-width columns between horizontal rules, the header row
// bold on a shaded background. Cells wrap; a row is kept on one page when it fits on one.
func (r *renderer) table(t *east.Table) {
	cols := len(t.Alignments)
	rows := tableRows(t)
	if cols == 0 || cols > maxTableColumns {
		r.tableAsText(rows)
		return
	}
	colWidth := r.width() / float64(cols)
	for i, row := range rows {
		r.tableRow(row, t.Alignments, colWidth, i == 0)
	}
	r.line(0, func(y float64) { r.tableRule(y, r.width()) })
	r.gap(paragraphGap)
}

// tableRows returns the cells of each row, the header row first.
func tableRows(t *east.Table) [][]ast.Node {
	var rows [][]ast.Node
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []ast.Node
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, c)
		}
		rows = append(rows, cells)
	}
	return rows
}

// tableRow draws one row: a rule above it, then its cells' lines side by side.
func (r *renderer) tableRow(cells []ast.Node, align []east.Alignment, colWidth float64, header bool) {
	st := r.base
	st.bold = header
	h := lineHeight(st.size)
	laid := make([][]line, len(cells))
	height := 1
	for i, c := range cells {
		laid[i] = layout(r.inlines(c, st), colWidth-2*cellPadding, false)
		height = max(height, len(laid[i]))
	}
	width := colWidth * float64(len(align))
	shade := func(y, h float64) {
		if header {
			r.pdf.SetFillColor(0xf3, 0xf4, 0xf6)
			r.pdf.Rect(r.left, y, width, h, "F")
		}
	}
	r.keep(float64(height)*h + 2*cellPadding)
	r.line(cellPadding, func(y float64) {
		shade(y, cellPadding)
		r.tableRule(y, width)
	})
	for i := range height {
		r.line(h, func(y float64) {
			shade(y, h)
			for c, lines := range laid {
				if i < len(lines) && c < len(align) {
					x := r.left + float64(c)*colWidth + cellPadding + alignOffset(align[c], colWidth-2*cellPadding-lines[i].width)
					r.drawLine(x, y, lines[i], h)
				}
			}
		})
	}
	r.line(cellPadding, func(y float64) { shade(y, cellPadding) })
}

// alignOffset is how far right a cell's line starts, given the room it leaves in its column.
func alignOffset(a east.Alignment, room float64) float64 {
	switch a {
	case east.AlignRight:
		return room
	case east.AlignCenter:
		return room / 2
	default:
		return 0
	}
}

// tableRule draws a rule of the given width at y.
func (r *renderer) tableRule(y, width float64) {
	r.pdf.SetDrawColor(0xd0, 0xd7, 0xde)
	r.pdf.SetLineWidth(0.5)
	r.pdf.Line(r.left, y, r.left+width, y)
}

// tableAsText draws each row as one paragraph, cells separated by " | ", the header bold.
func (r *renderer) tableAsText(rows [][]ast.Node) {
	for i, row := range rows {
		st := r.base
		st.bold = i == 0
		var runs []run
		for j, c := range row {
			if j > 0 {
				runs = addText(runs, " | ", r.base)
			}
			runs = append(runs, r.inlines(c, st)...)
		}
		r.text(runs, lineHeight(st.size))
	}
	r.gap(paragraphGap)
}
