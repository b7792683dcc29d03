package document

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// Where inline content is written: text escapes and line breaks differ.
type inlineContext int

const (
	inBlock   inlineContext = iota // a paragraph or a link's text: a line break is "\" and a new line
	inHeading                      // one line, where "#" would close the heading
	inTable                        // one line, where "|" ends a cell; a line break is <br>
)

// delimiters are the Markdown delimiters of the marks other than code: "*" for italic, which
// (unlike "_") also works inside a word.
var delimiters = map[string]string{"bold": "**", "italic": "*", "strikethrough": "~~"}

// openDelimiter and closeDelimiter are the delimiters that open and close a mark: an HTML tag
// for the marks GitBook writes as tags (tagMarks).
func openDelimiter(mark string) string {
	if isColorKey(mark) {
		return colorOpenTag(mark)
	}
	if tag := markTagNames[mark]; tag != "" {
		return "<" + tag + ">"
	}
	return delimiters[mark]
}

func closeDelimiter(mark string) string {
	if isColorKey(mark) {
		return "</mark>"
	}
	if tag := markTagNames[mark]; tag != "" {
		return "</" + tag + ">"
	}
	return delimiters[mark]
}

// piece is one leaf or one inline of a run of inline content.
type piece struct {
	leaf   *Leaf
	inline *Node
	marks  []string // the leaf's delimited marks in markOrder (code aside)
}

func pieces(nodes []*Node) []piece {
	var out []piece
	for _, n := range nodes {
		if n.Object != ObjectText {
			out = append(out, piece{inline: n})
			continue
		}
		for i := range n.Leaves {
			l := &n.Leaves[i]
			var marks []string
			for _, m := range l.Marks {
				if m.Type == colorMark {
					marks = append(marks, markKey(m))
				}
			}
			for _, m := range markOrder {
				if m != "code" && hasMark(l, m) {
					marks = append(marks, m)
				}
			}
			out = append(out, piece{leaf: l, marks: marks})
		}
	}
	return out
}

func hasMark(l *Leaf, typ string) bool {
	return slices.ContainsFunc(l.Marks, func(m Mark) bool { return m.Type == typ })
}

// inlineMarkdown writes inline content: marks as delimiters opened and closed where the leaves'
// marks change (closed around an inline, which carries its own). A delimiter next to whitespace
// or to its own character delimits nothing (or too much), so such a character at the edge of a
// delimited run is written as a character reference; so is a letter or digit that would keep a
// delimiter from opening or closing (flanking).
func inlineMarkdown(nodes []*Node, ctx inlineContext) string {
	var b []byte
	var open []string
	ps := pieces(nodes)
	delimited := false // a delimiter was written last
	for i, p := range ps {
		if p.inline != nil {
			closeMarks(&b, &open, 0)
			b = append(b, inlineNodeMarkdown(p.inline, ctx)...)
			delimited = false
			continue
		}
		keep := keepOf(open, p.marks)
		delimited = delimited || keep < len(open) || keep < len(p.marks)
		run := delimiterRun{start: len(b), tags: slices.ContainsFunc(open[keep:], isTagMark)}
		closeMarks(&b, &open, keep)
		run.closed = len(b)
		for _, m := range p.marks {
			if !slices.Contains(open, m) {
				b = append(b, openDelimiter(m)...)
				open = append(open, m)
				run.tags = run.tags || isTagMark(m)
			}
		}
		next := i + 1
		closing := len(open) > 0 && (next == len(ps) || ps[next].inline != nil || keepOf(open, ps[next].marks) < len(open))
		opening := next < len(ps) && ps[next].leaf != nil && keepOf(open, ps[next].marks) < len(ps[next].marks)
		edges := edges{
			start: delimited, end: closing || opening,
			spaceStart: len(p.marks) > keep, spaceEnd: closing || next == len(ps), lineStart: len(b) == 0,
		}
		b = run.flank(b, leafMarkdown(p.leaf, ctx, edges))
		delimited = false
	}
	closeMarks(&b, &open, 0)
	return string(b)
}

// delimiterRun is what was written between two leaves: from start, the closing delimiters, then
// from closed the opening ones; tags says whether an HTML tag is among them.
type delimiterRun struct {
	start, closed int
	tags          bool
}

// flank appends text after the run written at the end of b. CommonMark reads a run of delimiters
// by the characters around it: opening ones after a letter or digit and before punctuation open
// nothing (`a**.**`), closing ones after punctuation and before a letter or digit close nothing
// (`**.**a`). That letter or digit is then written as a character reference, whose "&" and ";"
// are punctuation. (A tag's "<" and ">" are punctuation too: a run next to one flanks it.)
func (r delimiterRun) flank(b []byte, text string) []byte {
	if r.tags || r.start == 0 || len(b) == r.start || text == "" { // no run, or a tag in it
		return append(b, text...)
	}
	before, size := utf8.DecodeLastRune(b[:r.start])
	after, afterSize := utf8.DecodeRuneInString(text)
	switch {
	case r.closed == r.start && len(b) > r.closed && isWordRune(before) && util.IsPunctRune(after):
		opening := string(b[r.closed:])
		b = append(append(b[:r.start-size], runeRef(before)...), opening...)
	case r.closed > r.start && len(b) == r.closed && util.IsPunctRune(before) && isWordRune(after):
		text = runeRef(after) + text[afterSize:]
	}
	return append(b, text...)
}

// isWordRune says whether a character is neither white space nor punctuation, as goldmark reads
// the characters around delimiters.
func isWordRune(r rune) bool { return !util.IsSpaceRune(r) && !util.IsPunctRune(r) }

func runeRef(r rune) string { return "&#" + strconv.Itoa(int(r)) + ";" }

// keepOf is how many of the open marks, from the outside, stay open for a leaf of the marks: a
// mark opened inside one that closes closes too. A mark written as an HTML tag opens outside the
// delimiters: a delimiter next to a tag's "<" or ">" (punctuation) may neither open nor close
// (`**a<kbd>b</kbd>**c` is no bold), so the delimiters open close first and open again inside.
func keepOf(open, marks []string) int {
	n := 0
	for n < len(open) && slices.Contains(marks, open[n]) {
		n++
	}
	if slices.ContainsFunc(marks, func(m string) bool { return isTagMark(m) && !slices.Contains(open[:n], m) }) {
		if i := slices.IndexFunc(open[:n], func(m string) bool { return !isTagMark(m) }); i >= 0 {
			return i
		}
	}
	return n
}

// isTagMark says whether a mark is written as an HTML tag: a color or a mark of tagMarks.
func isTagMark(mark string) bool { return isColorKey(mark) || markTagNames[mark] != "" }

// closeMarks writes the closing delimiters of the open marks after the first keep.
func closeMarks(b *[]byte, open *[]string, keep int) {
	for i := len(*open) - 1; i >= keep; i-- {
		*b = append(*b, closeDelimiter((*open)[i])...)
	}
	*open = (*open)[:keep]
}

// edges says which edges of a leaf touch a delimiter (start, end), and which touch a delimiter of
// the leaf's own marks or the end of the text (spaceStart, spaceEnd), where whitespace would undo
// it or be dropped.
type edges struct{ start, end, spaceStart, spaceEnd, lineStart bool }

// delimiterChars are the characters of delimiters; whitespace is the other kind of character a
// delimiter must not touch.
const delimiterChars, whitespace = "*~", " \t"

// leafMarkdown writes a leaf's text: escaped, or as a code span.
func leafMarkdown(l *Leaf, ctx inlineContext, e edges) string {
	s := l.Text
	if hasMark(l, "code") && s != "" {
		return codeSpan(s)
	}
	var head, tail string
	if s != "" && (e.start && strings.IndexByte(delimiterChars, s[0]) >= 0 || e.spaceStart && strings.IndexByte(whitespace, s[0]) >= 0) {
		head, s = charRef(s[0]), s[1:]
	}
	if last := len(s) - 1; last >= 0 && (e.end && strings.IndexByte(delimiterChars, s[last]) >= 0 ||
		e.spaceEnd && strings.IndexByte(whitespace, s[last]) >= 0) {
		tail, s = charRef(s[last]), s[:last]
	}
	return head + escapeText(s, ctx, e.lineStart && head == "") + tail
}

func charRef(c byte) string { return fmt.Sprintf("&#%d;", c) }

// codeSpan writes text as a code span: a fence longer than any run of backticks in it, padded
// with a space where CommonMark would strip one or merge a backtick into the fence.
func codeSpan(text string) string {
	fence := strings.Repeat("`", longestRun(text, '`')+1)
	pad := text[0] == '`' || text[len(text)-1] == '`' ||
		text[0] == ' ' && text[len(text)-1] == ' ' && strings.Trim(text, " ") != ""
	if pad {
		text = " " + text + " "
	}
	return fence + text + fence
}

func inlineNodeMarkdown(n *Node, ctx inlineContext) string {
	switch n.Type {
	case "link":
		dest, _ := refDest(n.Data)
		return "[" + inlineMarkdown(n.Nodes, ctx) + "](" + escapeDest(dest) + ")"
	case "inline-image":
		dest, _ := refDest(n.Data)
		return "![" + escapeText(str(n.Data, "alt"), ctx, false) + "](" + escapeDest(dest) + ")"
	case "inline-math":
		return "$$" + str(n.Data, "formula") + "$$"
	case "emoji":
		return emojiChars(str(n.Data, "code"))
	case "mention":
		dest, _ := refDest(n.Data)
		return "[" + escapeText(dest, ctx, false) + "](" + escapeDest(dest) + ` "` + mentionTitle + `")`
	case "expression":
		return expressionOpen + escapeText(str(n.Data, "expression"), ctx, false) + expressionClose
	case "icon":
		style := ""
		if color := str(n.Data, "color"); color != "" {
			style = ` style="color:` + color + `;"`
		}
		return `<i class="fa-` + str(n.Data, "icon") + `"` + style + ">:" + str(n.Data, "icon") + ":</i>"
	}
	return ""
}

// entityLike is what CommonMark reads as a character reference, whose "&" a text escapes.
var entityLike = regexp.MustCompile(`^&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);`)

// escapeText escapes what Markdown would read as markup in text: the punctuation of inline
// markup anywhere, that of block markup at the start of a line, "{%" (a GitBook tag) and "$" (math).
func escapeText(s string, ctx inlineContext, lineStart bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			if r, size := utf8.DecodeRuneInString(s[i:]); unicode.Is(emojiStarts, r) { // text, not an emoji inline
				fmt.Fprintf(&b, "&#x%X;", r)
				i += size - 1
				lineStart = false
				continue
			}
		}
		switch {
		case lineStart && (c == ' ' || c == '\t'):
			b.WriteString(charRef(c)) // Markdown drops whitespace starting a line
			continue
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteString("&#92;") // goldmark reads an escaped backslash before "\" and a line ending as no line break
			continue
		case (c == ' ' || c == '\t') && i+1 < len(s) && s[i+1] == '\n':
			b.WriteString(charRef(c)) // Markdown drops whitespace before a line break
			continue
		case c == '\n':
			b.WriteString(map[inlineContext]string{inBlock: "\\\n", inHeading: "<br>", inTable: "<br>"}[ctx])
			lineStart = true
			continue
		case strings.IndexByte("\\`*_[]<~$|", c) >= 0,
			c == '{' && i+1 < len(s) && s[i+1] == '%',
			c == '&' && entityLike.MatchString(s[i:]),
			c == '#' && (lineStart || ctx == inHeading),
			lineStart && strings.IndexByte(">-+=", c) >= 0:
			b.WriteByte('\\')
		case lineStart && c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			b.WriteString(s[i:j])
			if j < len(s) && (s[j] == '.' || s[j] == ')') {
				b.WriteByte('\\')
			}
			i = j - 1
			lineStart = false
			continue
		}
		b.WriteByte(c)
		lineStart = false
	}
	return b.String()
}

// escapeDest writes a link destination: in angle brackets when it is empty or holds spaces or
// brackets, backslashes, parentheses and character references escaped.
func escapeDest(dest string) string {
	var b strings.Builder
	angle := dest == "" || strings.ContainsAny(dest, " \t\n<>")
	for i := 0; i < len(dest); i++ {
		c := dest[i]
		if c == '\\' || c == '(' || c == ')' || angle && (c == '<' || c == '>') ||
			c == '&' && entityLike.MatchString(dest[i:]) {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	if angle {
		return "<" + b.String() + ">"
	}
	return b.String()
}
