package pdf

import "strings"

// color is an RGB text color.
type color struct{ r, g, b int }

var (
	textColor  = color{0x1f, 0x23, 0x28}
	mutedColor = color{0x59, 0x63, 0x6e}
	linkColor  = color{0x0b, 0x5c, 0xc4}
)

// style is how a run of text is drawn. Styles are compared with ==: adjacent pieces of one style
// are drawn as one cell.
type style struct {
	bold, italic, mono bool
	underline, strike  bool
	size               float64 // points
	color              color
	link               string // target of a link annotation; "" for none
}

// face is the font the style draws with.
func (s style) face() *face { return faces[faceIndex(s.mono, s.bold, s.italic)] }

// run is inline text of one style, already cleaned for its font, or a hard line break.
type run struct {
	text  string
	style style
	br    bool
}

// piece is a measured part of a line: a word, part of a word, or spaces.
type piece struct {
	text  string
	style style
	width float64
}

// line is one laid-out line of text.
type line struct {
	pieces []piece
	width  float64
}

// layout breaks runs into lines no wider than width: greedily at spaces, and inside a word only
// when the word alone is wider than a line. With keepSpaces (code), spaces at the start of a
// source line are kept; otherwise spaces at line starts and ends are dropped. A line broken
// inside a word holds at least one character, so a width narrower than one character still
// terminates. No runs give one empty line.
func layout(runs []run, width float64, keepSpaces bool) []line {
	b := lineBreaker{width: width, keepSpaces: keepSpaces, lineStart: true}
	for _, r := range runs {
		if r.br {
			b.hardBreak()
			continue
		}
		for _, seg := range splitSpaces(r.text) {
			p := piece{text: seg, style: r.style, width: r.style.face().width(seg, r.style.size)}
			if seg[0] == ' ' {
				b.space(p)
			} else {
				b.word = append(b.word, p)
				b.wordWidth += p.width
			}
		}
	}
	b.flushWord()
	if len(b.cur.pieces) > 0 || len(b.lines) == 0 {
		b.endLine()
	}
	return b.lines
}

// lineBreaker holds the state of layout: the lines so far, the line being filled, and the word
// and spaces read but not yet placed.
type lineBreaker struct {
	width      float64
	keepSpaces bool
	lines      []line
	cur        line
	lineStart  bool // the current line follows a hard break (or is the first)

	word        []piece // pieces of a word that may span styles ("**bold**text")
	wordWidth   float64
	spaces      []piece // spaces between the current line and word
	spacesWidth float64
}

// space records spaces before the next word, placing the word they end.
func (b *lineBreaker) space(p piece) {
	b.flushWord()
	if len(b.cur.pieces) == 0 && !(b.keepSpaces && b.lineStart) {
		return // no leading spaces on a wrapped line
	}
	b.spaces = append(b.spaces, p)
	b.spacesWidth += p.width
}

// hardBreak ends the current line, even an empty one.
func (b *lineBreaker) hardBreak() {
	b.flushWord()
	b.endLine()
	b.lineStart = true
}

// flushWord places the pending word: on the current line when it fits, else on a new line,
// split into as many lines as it needs when it is wider than a whole line.
func (b *lineBreaker) flushWord() {
	if len(b.word) == 0 {
		return
	}
	if len(b.cur.pieces) > 0 && b.cur.width+b.spacesWidth+b.wordWidth > b.width {
		b.endLine()
	}
	b.cur.pieces = append(b.cur.pieces, b.spaces...)
	b.cur.width += b.spacesWidth
	if b.cur.width+b.wordWidth > b.width {
		b.splitWord()
	} else {
		b.cur.pieces = append(b.cur.pieces, b.word...)
		b.cur.width += b.wordWidth
	}
	b.word, b.wordWidth = b.word[:0], 0
	b.spaces, b.spacesWidth = b.spaces[:0], 0
}

// splitWord places a word wider than the space left, character by character.
func (b *lineBreaker) splitWord() {
	for _, p := range b.word {
		f := p.style.face()
		start, w := 0, 0.0
		for i, r := range p.text {
			rw := f.runeWidth(r, p.style.size)
			if b.cur.width+w+rw > b.width && (i > start || len(b.cur.pieces) > 0) {
				b.cur.pieces = appendPiece(b.cur.pieces, piece{text: p.text[start:i], style: p.style, width: w})
				b.cur.width += w
				b.endLine()
				start, w = i, 0
			}
			w += rw
		}
		b.cur.pieces = appendPiece(b.cur.pieces, piece{text: p.text[start:], style: p.style, width: w})
		b.cur.width += w
	}
}

// appendPiece appends p unless it is empty.
func appendPiece(ps []piece, p piece) []piece {
	if p.text == "" {
		return ps
	}
	return append(ps, p)
}

// endLine closes the current line without its trailing spaces.
func (b *lineBreaker) endLine() {
	b.lines = append(b.lines, b.cur)
	b.cur = line{}
	b.spaces, b.spacesWidth = b.spaces[:0], 0
	b.lineStart = false
}

// splitSpaces splits s into alternating runs of spaces and of other characters.
func splitSpaces(s string) []string {
	var segs []string
	for s != "" {
		n := strings.IndexFunc(s, func(r rune) bool { return (r == ' ') != (s[0] == ' ') })
		if n < 0 {
			n = len(s)
		}
		segs = append(segs, s[:n])
		s = s[n:]
	}
	return segs
}

// truncate shortens s with an ellipsis so it fits width in style st.
func truncate(s string, st style, width float64) string {
	f := st.face()
	if f.width(s, st.size) <= width {
		return s
	}
	const ellipsis = "…"
	budget := width - f.width(ellipsis, st.size)
	w := 0.0
	for i, r := range s {
		w += f.runeWidth(r, st.size)
		if w > budget {
			return s[:i] + ellipsis
		}
	}
	return s
}
