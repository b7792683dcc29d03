package htmlpage

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/binderyhq/bindery/internal/document"
)

// Footnotes, which pages written for GitHub's Markdown use and the document model has no node
// for, render as they did with the CommonMark renderer: a top-level paragraph starting
// "[^label]: " defines a note, "[^label]" in text refers to it, and the notes referred to are
// listed at the end of the page, numbered in the order of their first reference.

var (
	footnoteDefinition = regexp.MustCompile(`^\[\^([^\]\s]+)\]:[ \t]*`)
	footnoteReference  = regexp.MustCompile(`\[\^([^\]\s]+)\]`)
)

// footnotes are a page's notes: their definitions by label, and the labels referred to in order.
type footnotes struct {
	defined  map[string]*document.Node // the paragraph of each note, its label taken off
	referred []string
}

// takeFootnotes returns the blocks without the notes' definitions (blocks itself when there is
// none, as on most pages), and the notes.
func takeFootnotes(blocks []*document.Node) ([]*document.Node, *footnotes) {
	notes := &footnotes{defined: map[string]*document.Node{}}
	rest, copied := blocks, false
	for i, b := range blocks {
		label, text := definition(b)
		switch {
		case label != "":
			if !copied {
				rest, copied = slices.Clone(blocks[:i]), true
			}
			notes.defined[label] = text
		case copied:
			rest = append(rest, b)
		}
	}
	return rest, notes
}

// definition returns the label of a paragraph that defines a note and the paragraph without it;
// "" for another block.
func definition(b *document.Node) (string, *document.Node) {
	if b.Type != "paragraph" || len(b.Nodes) == 0 || len(b.Nodes[0].Leaves) == 0 {
		return "", nil
	}
	first := b.Nodes[0].Leaves[0]
	if !strings.HasPrefix(first.Text, "[^") { // most paragraphs: no need to run the expression
		return "", nil
	}
	m := footnoteDefinition.FindStringSubmatchIndex(first.Text)
	if m == nil || hasMark(first, "code") {
		return "", nil
	}
	leaves := append([]document.Leaf{{Object: first.Object, Text: first.Text[m[1]:], Marks: first.Marks}}, b.Nodes[0].Leaves[1:]...)
	nodes := append([]*document.Node{document.Text(leaves...)}, b.Nodes[1:]...)
	return first.Text[m[2]:m[3]], document.Block("paragraph", nil, nodes...)
}

// withReferences writes text, its references to notes as links to them, and the rest with write.
func (w *writer) withReferences(s string, write func(string)) {
	if len(w.notes.defined) == 0 || !strings.Contains(s, "[^") {
		write(s)
		return
	}
	last := 0
	for _, m := range footnoteReference.FindAllStringSubmatchIndex(s, -1) {
		label := s[m[2]:m[3]]
		if w.notes.defined[label] == nil {
			continue
		}
		write(s[last:m[0]])
		n := strconv.Itoa(w.notes.number(label))
		w.b.WriteString(`<sup id="fnref:` + n + `"><a href="#fn:` + n + `" class="footnote-ref" role="doc-noteref">` + n + "</a></sup>")
		last = m[1]
	}
	write(s[last:])
}

// number is the note's number, given at its first reference.
func (f *footnotes) number(label string) int {
	for i, l := range f.referred {
		if l == label {
			return i + 1
		}
	}
	f.referred = append(f.referred, label)
	return len(f.referred)
}

// writeFootnotes lists the notes referred to, each with a link back to its first reference.
func (w *writer) writeFootnotes() {
	if len(w.notes.referred) == 0 {
		return
	}
	w.b.WriteString(`<div class="footnotes" role="doc-endnotes"><hr><ol>` + "\n")
	for i := 0; i < len(w.notes.referred); i++ { // a note may refer to a later one
		n := strconv.Itoa(i + 1)
		w.b.WriteString(`<li id="fn:` + n + `"><p>`)
		w.inlines(w.notes.defined[w.notes.referred[i]].Nodes, false)
		w.b.WriteString(` <a href="#fnref:` + n + `" class="footnote-backref" role="doc-backlink">↩︎</a></p></li>` + "\n")
	}
	w.b.WriteString("</ol></div>\n")
}
