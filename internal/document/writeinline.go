package document

import (
	"regexp"
	"slices"
	"strings"
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
// marks change (closed around an inline, which carries its own), whitespace at the edge of a
// delimited run as a character reference, for a delimiter next to whitespace delimits nothing.
func inlineMarkdown(nodes []*Node, ctx inlineContext) string {
	var b strings.Builder
	var open []string
	ps := pieces(nodes)
	for i, p := range ps {
		if p.inline != nil {
			closeMarks(&b, &open, 0)
			b.WriteString(inlineNodeMarkdown(p.inline, ctx))
			continue
		}
		keep := commonPrefix(open, p.marks)
		closeMarks(&b, &open, keep)
		opened := len(p.marks) > keep
		for _, m := range p.marks[keep:] {
			b.WriteString(delimiters[m])
			open = append(open, m)
		}
		closing := len(open) > 0 && (i+1 == len(ps) || ps[i+1].inline != nil || commonPrefix(open, ps[i+1].marks) < len(open))
		b.WriteString(leafMarkdown(p.leaf, ctx, opened && len(open) > 0, closing))
	}
	closeMarks(&b, &open, 0)
	return b.String()
}

func commonPrefix(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// closeMarks writes the closing delimiters of the open marks after the first keep.
func closeMarks(b *strings.Builder, open *[]string, keep int) {
	for i := len(*open) - 1; i >= keep; i-- {
		b.WriteString(delimiters[(*open)[i]])
	}
	*open = (*open)[:keep]
}

// leafMarkdown writes a leaf's text: escaped, or as a code span. atOpen and atClose say a
// delimiter was just opened before it or closes after it.
func leafMarkdown(l *Leaf, ctx inlineContext, atOpen, atClose bool) string {
	if hasMark(l, "code") && l.Text != "" {
		return codeSpan(l.Text)
	}
	s := escapeText(l.Text, ctx)
	if atOpen {
		s = edgeSpace(s, true)
	}
	if atClose {
		s = edgeSpace(s, false)
	}
	return s
}

// edgeSpace writes a space or tab at the start (or end) of s as a character reference.
func edgeSpace(s string, start bool) string {
	ref := map[byte]string{' ': "&#32;", '\t': "&#9;"}
	switch {
	case s == "":
		return s
	case start && ref[s[0]] != "":
		return ref[s[0]] + s[1:]
	case !start && ref[s[len(s)-1]] != "":
		return s[:len(s)-1] + ref[s[len(s)-1]]
	}
	return s
}

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
		return "![" + escapeText(str(n.Data, "alt"), ctx) + "](" + escapeDest(dest) + ")"
	case "inline-math":
		return "$$" + str(n.Data, "formula") + "$$"
	}
	return ""
}

// entityLike is what CommonMark reads as a character reference, whose "&" a text escapes.
var entityLike = regexp.MustCompile(`^&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);`)

// escapeText escapes what Markdown would read as markup in text: the punctuation of inline
// markup anywhere, that of block markup at the start of a line, "{%" (a GitBook tag) and "$" (math).
func escapeText(s string, ctx inlineContext) string {
	var b strings.Builder
	lineStart := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
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
