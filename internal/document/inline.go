package document

import (
	"bytes"
	"html"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// markOrder is the order of a leaf's marks, and of their delimiters from the outside in: the
// HTML tags outermost, code innermost (a code span holds no other formatting).
var markOrder = []string{"keyboard", "superscript", "subscript", "bold", "italic", "strikethrough", "code"}

// markTags are the marks GitBook writes as HTML tags around the text, by tag name.
type markTags map[string]string

var tagMarks = markTags{"kbd": "keyboard", "sup": "superscript", "sub": "subscript"}

// markTag is raw inline HTML that may open or close a mark of tagMarks.
var markTag = regexp.MustCompile(`^<(/?)([a-z]+)>$`)

// apply reads raw inline HTML as a tag of a mark: an opening tag adds the mark to marks (unless
// it is on already), a closing tag removes one that an opening tag among the same siblings added
// (opened). Any other HTML, or a tag that opens or closes nothing, is not a mark's (false).
func (t markTags) apply(raw string, marks []string, opened map[string]bool) ([]string, bool) {
	m := markTag.FindStringSubmatch(raw)
	if m == nil || t[m[2]] == "" {
		return marks, false
	}
	mark, closing := t[m[2]], m[1] == "/"
	switch {
	case !closing && !slices.Contains(marks, mark):
		opened[mark] = true
		return append(slices.Clone(marks), mark), true
	case closing && opened[mark]:
		opened[mark] = false
		return slices.DeleteFunc(slices.Clone(marks), func(s string) bool { return s == mark }), true
	}
	return marks, false
}

// markTagNames are the HTML tag names of the marks of tagMarks, by mark ("" for another mark): read
// for every delimiter written.
var markTagNames = func() map[string]string {
	names := map[string]string{}
	for tag, mark := range tagMarks {
		names[mark] = tag
	}
	return names
}()

// inlines converts the inline content of block n: texts of leaves, and inlines.
func (c converter) inlines(n ast.Node) []*Node {
	b := c.builder()
	c.walkInlines(n, nil, false, &b)
	return b.done()
}

// inlineBuilder gathers leaves into texts: consecutive leaves into one text, consecutive leaves
// of the same marks into one leaf. Its nodes are a list on its arena's stack, from start. The last
// leaf stays open to the pieces of the same marks that follow: they are gathered in joined and
// made its text once, when something else comes.
type inlineBuilder struct {
	a       *arena
	start   int
	keys    []string // the marks of the last leaf, as keys
	joined  []byte   // the last leaf's text, while joining
	joining bool     // whether pieces are being added to the last leaf
}

// builder starts the inline nodes of a block or a link.
func (c converter) builder() inlineBuilder { return inlineBuilder{a: c.a, start: c.a.open()} }

func (b *inlineBuilder) leaf(s string, marks []string) {
	if s == "" {
		return
	}
	keys := sortMarks(marks)
	last := b.last()
	if last == nil || last.Object != ObjectText {
		b.a.push(b.a.text(b.a.leaf(s, keys)))
		b.keys = keys
		return
	}
	if slices.Equal(b.keys, keys) {
		if !b.joining {
			b.joined = append(b.joined[:0], last.Leaves[len(last.Leaves)-1].Text...)
			b.joining = true
		}
		b.joined = append(b.joined, s...)
		return
	}
	b.closeLeaf()
	b.a.addLeaf(last, b.a.leaf(s, keys))
	b.keys = keys
}

// closeLeaf makes the pieces gathered for the last leaf its text.
func (b *inlineBuilder) closeLeaf() {
	if b.joining {
		last := b.last()
		last.Leaves[len(last.Leaves)-1].Text = string(b.joined)
		b.joining = false
	}
}

func (b *inlineBuilder) inline(n *Node) {
	b.closeLeaf()
	b.a.push(n)
}

// done ends the builder: the nodes built.
func (b *inlineBuilder) done() []*Node {
	b.closeLeaf()
	return b.a.close(b.start)
}

// enter starts the nodes of an inline's own (a link's text), apart from b's: b builds them until
// leave, which returns them, b then being as it was.
func (b *inlineBuilder) enter() (outside inlineBuilder) {
	b.closeLeaf()
	outside = *b
	b.start, b.keys = b.a.open(), nil
	return outside
}

func (b *inlineBuilder) leave(outside inlineBuilder) []*Node {
	nodes := b.done()
	b.start, b.keys = outside.start, outside.keys
	return nodes
}

func (b *inlineBuilder) last() *Node {
	if len(b.a.stack) == b.start {
		return nil
	}
	return b.a.top()
}

// sortMarks orders mark keys: color marks first (GitBook writes them outermost), then markOrder.
func sortMarks(marks []string) []string {
	if len(marks) == 0 || len(marks) == 1 && (isColorKey(marks[0]) || slices.Contains(markOrder, marks[0])) {
		return marks // most texts: nothing to order
	}
	var out []string
	for _, m := range marks {
		if isColorKey(m) && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	for _, m := range markOrder {
		if slices.Contains(marks, m) {
			out = append(out, m)
		}
	}
	return out
}

var lineBreakTag = regexp.MustCompile(`^<br\s*/?>$`)

// walkInlines converts n's inline children under the marks; inLink says they are a link's text,
// which holds texts and images only.
func (c converter) walkInlines(n ast.Node, marks []string, inLink bool, b *inlineBuilder) {
	var opened map[string]bool // the marks a tag among n's children opened (made at the first raw HTML)
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		if inline, end := c.wrappedInline(k); inline != nil && !inLink {
			b.inline(inline)
			k = end
			continue
		}
		switch k := k.(type) {
		case *ast.Text:
			c.text(k, marks, !inLink, b)
		case *ast.String:
			b.leaf(string(k.Value), marks)
		case *ast.CodeSpan:
			b.leaf(c.codeSpan(k), append(slices.Clone(marks), "code"))
		case *ast.Emphasis:
			mark := "italic"
			if k.Level == 2 {
				mark = "bold"
			}
			c.walkInlines(k, append(slices.Clone(marks), mark), inLink, b)
		case *east.Strikethrough:
			c.walkInlines(k, append(slices.Clone(marks), "strikethrough"), inLink, b)
		case *ast.Link:
			if inLink {
				c.walkInlines(k, marks, inLink, b)
				continue
			}
			ref := refFromDest(decode(k.Destination))
			if string(k.Title) == mentionTitle && mentionKinds[str(ref, "kind")] {
				b.inline(c.a.inline("mention", map[string]any{"ref": ref}, nil)) // its text is GitBook's label, not content
				continue
			}
			outside := b.enter()
			c.walkInlines(k, marks, true, b)
			text := b.leave(outside)
			b.inline(c.a.inline("link", map[string]any{"ref": ref}, text))
		case *ast.AutoLink:
			c.autoLink(k, marks, inLink, b)
		case *ast.Image:
			b.inline(c.inlineImage(decode(k.Destination), c.plain(k)))
		case *inlineMath:
			if inLink {
				b.leaf("$$"+k.formula+"$$", marks)
				continue
			}
			b.inline(c.a.inline("inline-math", map[string]any{"formula": k.formula}, nil))
		case *ast.RawHTML:
			marks = b.rawHTML(string(k.Segments.Value(c.src)), marks, &opened)
		case *east.TaskCheckBox:
			if list, ok := k.Parent().Parent().Parent().(*ast.List); ok && !isTaskList(list) { // a check box only as text
				box := map[bool]string{true: "[x]", false: "[ ]"}[k.IsChecked]
				if k.NextSibling() != nil {
					box += " "
				}
				b.leaf(box, marks)
			}
		default:
			c.walkInlines(k, marks, inLink, b)
		}
	}
}

// rawHTML adds raw inline HTML among siblings under the marks, opened being the marks their tags
// opened (made at the first): a mark's tag changes the marks, which it returns; <br> is a line
// break; any other HTML is text.
func (b *inlineBuilder) rawHTML(raw string, marks []string, opened *map[string]bool) []string {
	if *opened == nil {
		*opened = map[string]bool{}
	}
	if m, ok := tagMarks.apply(raw, marks, *opened); ok {
		return m
	}
	if m, ok := applyColor(raw, marks, *opened); ok {
		return m
	}
	if lineBreakTag.MatchString(raw) {
		raw = "\n"
	}
	b.leaf(raw, marks)
	return marks
}

// inlineImage is an image inline: its source, decoded, and its text without formatting.
func (c converter) inlineImage(dest string, alt []byte) *Node {
	data := map[string]any{"ref": imageRef(dest)}
	if len(alt) > 0 {
		data["alt"] = string(alt)
	}
	return c.a.inline("inline-image", data, nil)
}

// imageRef is the reference of an image's source: a file or a URL.
func imageRef(dest string) map[string]any {
	ref := refFromDest(dest)
	if kind := str(ref, "kind"); kind != "file" {
		return map[string]any{"kind": "url", "url": dest}
	}
	return ref
}

func (c converter) autoLink(k *ast.AutoLink, marks []string, inLink bool, b *inlineBuilder) {
	label := string(k.Label(c.src))
	if inLink {
		b.leaf(label, marks)
		return
	}
	dest := string(k.URL(c.src))
	inner := c.builder()
	inner.leaf(label, marks)
	b.inline(c.a.inline("link", map[string]any{"ref": map[string]any{"kind": "url", "url": dest}}, inner.done()))
}

// text adds a text segment: escapes and character references decoded, a hard line break as "\n",
// a soft one as a space (Markdown's line wrapping is not content).
// Spaces before a line break are Markdown's, not text: they are trimmed before references are
// decoded, so that "&#32;" keeps a space of the text there.
// With emoji, an emoji written as its characters is an emoji inline (emoji.go).
func (c converter) text(t *ast.Text, marks []string, emoji bool, b *inlineBuilder) {
	v := t.Segment.Value(c.src)
	lineEnd := ""
	switch {
	case t.HardLineBreak():
		v, lineEnd = bytes.TrimRight(v, " \t"), "\n"
	case t.SoftLineBreak():
		v, lineEnd = bytes.TrimRight(v, " \t"), " "
	}
	if t.IsRaw() {
		b.leaf(util.BytesToReadOnlyString(v), marks)
		b.leaf(lineEnd, marks)
		return
	}
	b.text(v, lineEnd, marks, emoji)
}

// text adds text as Markdown writes it (escapes and character references, emoji written as
// characters being emoji inlines when emoji is set) and then lineEnd.
func (b *inlineBuilder) text(v []byte, lineEnd string, marks []string, emoji bool) {
	if emoji {
		v = splitEmoji(v, func(text []byte, seq string) {
			b.leaf(decodeShared(text), marks)
			b.inline(emojiInline(seq))
		})
	}
	b.leaf(decodeShared(v), marks)
	b.leaf(lineEnd, marks)
}

// splitEmoji calls found with the text before each emoji sequence of v and the sequence, and
// returns the text after the last.
func splitEmoji(v []byte, found func(text []byte, seq string)) []byte {
	start := 0
	for i := 0; i < len(v); i++ {
		if v[i] < utf8.RuneSelf {
			continue
		}
		if n := emojiLen(string(v[i:min(len(v), i+64)])); n > 0 {
			found(v[start:i], string(v[i:i+n]))
			start, i = i+n, i+n-1
		}
	}
	return v[start:]
}

// decode decodes backslash escapes and character references in one pass, as CommonMark does in
// text and link destinations (an escaped "&" starts no reference).
func decode(v []byte) string {
	if !needsDecoding(v) {
		return string(v)
	}
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '\\' && i+1 < len(v) && isASCIIPunct(v[i+1]):
			i++
			b.WriteByte(v[i])
		case v[i] == '&':
			if ref := entityLike.Find(v[i:]); ref != nil {
				b.WriteString(html.UnescapeString(string(ref)))
				i += len(ref) - 1
				continue
			}
			b.WriteByte('&')
		default:
			b.WriteByte(v[i])
		}
	}
	return b.String()
}

// decodeShared is decode of bytes nothing writes to (the source's, FromMarkdown): most text has
// nothing to decode and is a string sharing them.
func decodeShared(v []byte) string {
	if !needsDecoding(v) {
		return util.BytesToReadOnlyString(v)
	}
	return decode(v)
}

func needsDecoding(v []byte) bool {
	return bytes.IndexByte(v, '\\') >= 0 || bytes.IndexByte(v, '&') >= 0
}

func isASCIIPunct(c byte) bool {
	return c < 128 && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// codeSpan is a code span's text as CommonMark reads it: line endings as spaces.
func (c converter) codeSpan(k *ast.CodeSpan) string {
	var sb strings.Builder
	for t := k.FirstChild(); t != nil; t = t.NextSibling() {
		if s, ok := t.(*ast.Text); ok {
			sb.Write(s.Segment.Value(c.src))
		} else if s, ok := t.(*ast.String); ok {
			sb.Write(s.Value)
		}
	}
	return strings.ReplaceAll(sb.String(), "\n", " ")
}

// htmlInline is an inline GitBook writes as HTML around a text: an opening tag that open matches,
// the text (Markdown, escaped), and the closing tag.
type htmlInline struct {
	open  *regexp.Regexp
	close string
	node  func(open []string, text string) *Node // the inline of a match of open and its text
}

// expressionOpen and expressionClose are the HTML around an expression inline.
const expressionOpen, expressionClose = `<code class="expression">`, "</code>"

// htmlInlines are the inlines written as HTML: expressions (<code class="expression">) and icons
// (<i class="fa-name">:name:</i>, with a color as style="color:$warning;").
var htmlInlines = []htmlInline{
	{regexp.MustCompile(`^` + regexp.QuoteMeta(expressionOpen) + `$`), expressionClose, func(_ []string, text string) *Node {
		return Inline("expression", map[string]any{"expression": text})
	}},
	{regexp.MustCompile(`^<i class="fa-([a-z0-9-]+)"(?: style="color:([$a-z]+);")?>$`), "</i>", func(m []string, text string) *Node {
		if text != ":"+m[1]+":" || !iconName.MatchString(m[1]) || m[2] != "" && !slices.Contains(textColors, m[2]) {
			return nil // not an icon of the model: its HTML, as text
		}
		data := map[string]any{"icon": m[1]}
		if m[2] != "" {
			data["color"] = m[2]
		}
		return Inline("icon", data)
	}},
}

// wrappedInline reads an inline of htmlInlines starting at k; it returns the inline and the node
// that ends it, or nil when k starts none.
func (c converter) wrappedInline(k ast.Node) (*Node, ast.Node) {
	raw, ok := k.(*ast.RawHTML)
	if !ok {
		return nil, nil
	}
	h, m := wrappedOpen(string(raw.Segments.Value(c.src)))
	if h == nil {
		return nil, nil
	}
	if text, end := c.textUntil(k, h.close); end != nil {
		if n := h.node(m, text); n != nil {
			return n, end
		}
	}
	return nil, nil
}

// wrappedOpen is the inline of htmlInlines whose opening tag raw is, and the tag's match; nil
// when raw opens none.
func wrappedOpen(raw string) (*htmlInline, []string) {
	for i, h := range htmlInlines {
		if m := h.open.FindStringSubmatch(raw); m != nil {
			return &htmlInlines[i], m
		}
	}
	return nil, nil
}

// textUntil is the plain text of the siblings after k up to the raw HTML closing, and that
// closing node; nil when something other than text comes first.
func (c converter) textUntil(k ast.Node, closing string) (string, ast.Node) {
	var b strings.Builder
	for t := k.NextSibling(); t != nil; t = t.NextSibling() {
		switch t := t.(type) {
		case *ast.Text:
			inner := c.builder()
			c.text(t, nil, false, &inner)
			nodes := inner.done()
			if len(nodes) > 1 || len(nodes) == 1 && nodes[0].Object != ObjectText {
				return "", nil
			}
			b.WriteString(plainText(nodes))
		case *ast.String:
			b.Write(t.Value)
		case *ast.RawHTML:
			if string(t.Segments.Value(c.src)) == closing {
				return b.String(), t
			}
			return "", nil
		default:
			return "", nil
		}
	}
	return "", nil
}

// applyColor reads raw inline HTML as a color mark's tag, as markTags.apply reads the others: an
// opening <mark style="…"> adds its color mark (when no color is on), a </mark> removes the one a
// tag among the same siblings added.
func applyColor(raw string, marks []string, opened map[string]bool) ([]string, bool) {
	on := slices.IndexFunc(marks, isColorKey)
	if key := colorKeyOfTag(raw); key != "" && on < 0 {
		opened[colorMark] = true
		return append(slices.Clone(marks), key), true
	}
	if raw == "</mark>" && on >= 0 && opened[colorMark] {
		opened[colorMark] = false
		return slices.Delete(slices.Clone(marks), on, on+1), true
	}
	return marks, false
}

// mentionTitle is the title of a link that GitBook writes for a mention: [label](dest "mention").
const mentionTitle = "mention"

// mentionKinds are the references a mention may have in Markdown: Bindery's objects that a link
// destination names (a user has none).
var mentionKinds = map[string]bool{"page": true, "anchor": true, "file": true, "space": true}
