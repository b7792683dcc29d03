package dashboard

import (
	"fmt"
	"html"
	"html/template"
	"strings"
)

// Charts are drawn on the server as SVG: the page needs no script.

// bar is one bar of a chart: its label and value.
type bar struct {
	Label string
	Value int
}

// columnChart draws bars side by side (views per day), each with its label and value as its
// title, the whole described by caption for readers of assistive technology.
func columnChart(caption string, bars []bar) template.HTML {
	const width, height, top = 720, 160, 10
	peak := peakOf(bars)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`,
		width, height+20, html.EscapeString(caption))
	step := float64(width) / float64(max(len(bars), 1))
	for i, c := range bars {
		h := float64(height-top) * float64(c.Value) / float64(peak)
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s: %d</title></rect>`,
			float64(i)*step+1, float64(height)-h, max(step-2, 1), h, html.EscapeString(c.Label), c.Value)
	}
	if len(bars) > 0 {
		fmt.Fprintf(&b, `<text x="0" y="%d">%s</text><text x="%d" y="%d" text-anchor="end">%s</text>`,
			height+16, html.EscapeString(bars[0].Label), width, height+16, html.EscapeString(bars[len(bars)-1].Label))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%d</text></svg>`, width, top+2, peak)
	return template.HTML(b.String())
}

// barList draws labelled horizontal bars (top pages, top searches), longest first.
func barList(caption string, bars []bar) template.HTML {
	const width, row, labelWidth = 720, 24, 360
	peak := peakOf(bars)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`,
		width, max(len(bars), 1)*row, html.EscapeString(caption))
	for i, c := range bars {
		y := i * row
		w := float64(width-labelWidth-60) * float64(c.Value) / float64(peak)
		fmt.Fprintf(&b, `<text x="0" y="%d">%s</text><rect x="%d" y="%d" width="%.1f" height="%d"><title>%s: %d</title></rect><text x="%.1f" y="%d">%d</text>`,
			y+16, html.EscapeString(shorten(c.Label, 48)), labelWidth, y+4, w, row-8, html.EscapeString(c.Label), c.Value,
			float64(labelWidth)+w+6, y+16, c.Value)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// peakOf is the largest value of bars, at least 1.
func peakOf(bars []bar) int {
	peak := 1
	for _, c := range bars {
		peak = max(peak, c.Value)
	}
	return peak
}

// shorten cuts a label to n runes, with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
