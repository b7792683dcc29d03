package markdown

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
)

// Section is a part of a page body that search finds on its own: the text under one heading of
// level 1 to SectionLevel (up to the next such heading), or the text before the first of them.
type Section struct {
	Heading string // the heading's plain text; "" for the text before the first heading
	Anchor  string // the heading's anchor in the page (Anchor of its text, made unique); "" before the first heading
	Text    string // the plain text of the section's blocks, one block a line
}

// SectionLevel is the deepest heading level that starts a section; deeper headings are text of
// the section they are in.
const SectionLevel = 3

// Sections splits a page body at its top-level headings of level 1 to SectionLevel. The text
// before the first heading is the first section, even when empty, so every body has one. Markup
// is dropped: links and images keep their text, code blocks their code, raw HTML blocks are left
// out. Headings that would share an anchor get "-1", "-2"… as GitHub numbers them.
func Sections(body string) []Section {
	src := []byte(body)
	doc, _ := parse(src)
	out := []Section{{}}
	var text []string
	anchors := NewAnchors()
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level <= SectionLevel {
			out[len(out)-1].Text = strings.Join(text, "\n")
			text = nil
			heading := plainText(h, src)
			out = append(out, Section{Heading: heading, Anchor: anchors.Unique(Anchor(heading))})
			continue
		}
		text = appendBlockText(text, n, src)
	}
	out[len(out)-1].Text = strings.Join(text, "\n")
	return out
}

// appendBlockText appends the plain text of block n and the blocks inside it, one line each.
func appendBlockText(lines []string, n ast.Node, src []byte) []string {
	switch n := n.(type) {
	case *ast.HTMLBlock, *ast.ThematicBreak:
		return lines
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return appendLines(lines, n, src)
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
		if t := plainText(n, src); t != "" {
			lines = append(lines, t)
		}
		return lines
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines = appendBlockText(lines, c, src)
	}
	return lines
}

// appendLines appends the raw lines of a code block, without their line ends.
func appendLines(lines []string, n ast.Node, src []byte) []string {
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		if line := strings.TrimRight(string(seg.Value(src)), "\r\n"); strings.TrimSpace(line) != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// Anchor is the anchor of a heading: its text lower-cased, letters, digits, '-' and '_' kept,
// spaces turned into '-', anything else dropped ("Getting Started!" → "getting-started"). A
// heading without letters or digits gets "section".
func Anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteByte('-')
		}
	}
	if strings.Trim(b.String(), "-_") == "" {
		return "section"
	}
	return b.String()
}

// Anchors hands out the anchors of a page's headings: Anchor of a heading's text, or the first
// of anchor-1, anchor-2… that no earlier heading of the page took, as GitHub numbers them. Each
// anchor's count resumes where it stopped (the numbers below it are taken for good), so a page
// of many equal headings takes linear time rather than quadratic.
type Anchors struct {
	taken map[string]bool
	next  map[string]int
}

// NewAnchors returns the anchors of a page with no heading yet.
func NewAnchors() *Anchors { return &Anchors{taken: map[string]bool{}, next: map[string]int{}} }

// Unique returns anchor, or the first of anchor-1, anchor-2… not taken, and records it taken.
func (s *Anchors) Unique(anchor string) string {
	unique := anchor
	n := max(s.next[anchor], 1)
	for ; s.taken[unique]; n++ {
		unique = anchor + "-" + strconv.Itoa(n)
	}
	if unique != anchor {
		s.next[anchor] = n
	}
	s.taken[unique] = true
	return unique
}
