package htmlpage

import (
	"cmp"
	"regexp"
	"strings"

	"github.com/binderyhq/bindery/internal/document"
)

// escape escapes s for HTML text and double-quoted attribute values, as html.EscapeString; s
// itself when nothing in it needs escaping.
func escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	writeEscaped(&b, s)
	return b.String()
}

// escaped writes s escaped, without making the escaped string: the texts of a page are most of
// what it writes.
func (w *writer) escaped(s string) { writeReplaced(&w.b, s, &entities) }

// entities are the character references escape writes, by byte; "" for a byte written as it is.
var entities = [256]string{'&': "&amp;", '\'': "&#39;", '<': "&lt;", '>': "&gt;", '"': "&#34;"}

// textEntities are entities and a line break ("\n": a hard break in Markdown) as <br>: what text
// writes for each byte, in one pass over it.
var textEntities = func() [256]string {
	t := entities
	t['\n'] = "<br>\n"
	return t
}()

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if entities[s[i]] != "" {
			return true
		}
	}
	return false
}

// writeEscaped writes s to b escaped, the runs without a byte to escape as they are.
func writeEscaped(b *strings.Builder, s string) { writeReplaced(b, s, &entities) }

// writeReplaced writes s to b with each byte that has a replacement replaced, the runs between as
// they are.
func writeReplaced(b *strings.Builder, s string, replacements *[256]string) {
	last := 0
	for i := 0; i < len(s); i++ {
		if e := replacements[s[i]]; e != "" {
			b.WriteString(s[last:i])
			b.WriteString(e)
			last = i + 1
		}
	}
	b.WriteString(s[last:])
}

// inlines writes inline content: texts with their marks, links, inline math and images. inLink
// says it is a link's text, where bare URLs stay text.
func (w *writer) inlines(nodes []*document.Node, inLink bool) {
	for _, n := range nodes {
		switch {
		case n.Object == document.ObjectText:
			for i := range n.Leaves {
				w.leaf(&n.Leaves[i], inLink)
			}
		case n.Type == "link":
			w.link(n, inLink)
		case n.Type == "inline-math":
			w.formula(document.Str(n.Data, "formula"), false)
		case n.Type == "inline-image":
			w.inlineImage(n)
		case n.Type == "emoji":
			w.b.WriteString(escape(document.EmojiChars(n.Data)))
		case n.Type == "icon":
			w.icon(n)
		case n.Type == "mention":
			w.mention(n, inLink)
		default: // an inline the document model does not support: its text
			w.inlines(n.Nodes, inLink)
		}
	}
}

// markTags are the elements of the marks, outermost first; code, the innermost, is last (codeMark).
var markTags = [...]struct{ mark, open, end string }{
	{"keyboard", "<kbd>", "</kbd>"}, {"superscript", "<sup>", "</sup>"}, {"subscript", "<sub>", "</sub>"},
	{"bold", "<strong>", "</strong>"}, {"italic", "<em>", "</em>"}, {"strikethrough", "<del>", "</del>"}, {"code", "<code>", "</code>"},
}

// codeMark is the index of code in markTags.
const codeMark = len(markTags) - 1

// leaf writes a text with its marks: its color mark (the first, when it has more) outermost, then
// the others in the order of markTags.
func (w *writer) leaf(l *document.Leaf, inLink bool) {
	if len(l.Marks) == 0 { // most texts
		w.leafText(l.Text, inLink)
		return
	}
	var on [len(markTags)]bool
	var color *document.Mark
	for i := range l.Marks {
		m := &l.Marks[i]
		if m.Type == "color" && color == nil {
			color = m
		}
		for t := range markTags {
			if markTags[t].mark == m.Type {
				on[t] = true
			}
		}
	}
	if color != nil {
		w.b.WriteString(`<mark class="color" data-text="` + escape(colorName(color, "text")) + `" data-background="` +
			escape(colorName(color, "background")) + `">`)
	}
	for i := range markTags {
		if on[i] {
			w.b.WriteString(markTags[i].open)
		}
	}
	if on[codeMark] {
		w.escaped(l.Text)
	} else {
		w.leafText(l.Text, inLink)
	}
	for i := len(markTags) - 1; i >= 0; i-- {
		if on[i] {
			w.b.WriteString(markTags[i].end)
		}
	}
	if color != nil {
		w.b.WriteString("</mark>")
	}
}

// leafText writes the text of a leaf that is not code: in a link's text as it is, elsewhere with
// its references to notes and its bare URLs as links.
func (w *writer) leafText(s string, inLink bool) {
	if inLink {
		w.text(s)
		return
	}
	w.withReferences(s, w.linkified)
}

// colorName is a color of a color mark (data.text or data.background) as the site's style names
// it: the semantic ones without their "$".
func colorName(m *document.Mark, key string) string {
	return strings.TrimPrefix(document.Str(m.Data, key), "$")
}

func hasMark(l document.Leaf, mark string) bool {
	for _, m := range l.Marks {
		if m.Type == mark {
			return true
		}
	}
	return false
}

// text writes text escaped, a line break ("\n": a hard break in Markdown) as <br>.
func (w *writer) text(s string) { writeReplaced(&w.b, s, &textEntities) }

// bareURL is a URL written as text, as GitHub's Markdown links it: from http://, https:// or
// www. up to a space or "<", without the punctuation that ends a sentence.
var bareURL = regexp.MustCompile(`(?:https?://|www\.)[^\s<>"]*[^\s<>".,:;!?'*_~)]`)

// linkified writes text with its bare URLs as links.
func (w *writer) linkified(s string) {
	if !strings.Contains(s, "://") && !strings.Contains(s, "www.") {
		w.text(s)
		return
	}
	last := 0
	for _, m := range bareURL.FindAllStringIndex(s, -1) {
		url := s[m[0]:m[1]]
		href := url
		if strings.HasPrefix(url, "www.") {
			href = "http://" + url
		}
		if !safeLink(href) {
			continue
		}
		w.text(s[last:m[0]])
		w.b.WriteString(`<a href="` + escape(href) + `" rel="nofollow">` + escape(url) + "</a>")
		last = m[1]
	}
	w.text(s[last:])
}

// link writes a link to its site URL; a link the reader cannot follow (a page hidden from them, a
// space, a URL of another scheme) is its text. A link inside a link is its text.
func (w *writer) link(n *document.Node, inLink bool) {
	to := w.target(n.Data)
	if !to.ok || inLink {
		w.inlines(n.Nodes, inLink)
		return
	}
	w.b.WriteString(`<a href="`)
	w.b.WriteString(to.href)
	w.b.WriteString(`"`)
	w.b.WriteString(to.rel)
	w.b.WriteString(">")
	w.inlines(n.Nodes, true)
	w.b.WriteString("</a>")
}

// relOf is the rel attribute of a link: nofollow for another site's.
func relOf(url string) string {
	if isAbsolute(url) {
		return ` rel="nofollow"`
	}
	return ""
}

func (w *writer) inlineImage(n *document.Node) {
	alt := document.Str(n.Data, "alt")
	if src, ok := w.imageURL(n.Data); ok {
		w.b.WriteString(`<img src="` + escape(src) + `" alt="` + escape(alt) + `">`)
		return
	}
	w.text(alt)
}

// refURL is the URL data's ref links to on the site; ok is false for a page or file the reader
// cannot reach, a space, and a URL (or anchor) that is not safe to follow.
func (w *writer) refURL(data map[string]any) (string, bool) {
	to := w.target(data)
	return to.url, to.ok
}

// target is where data's ref leads (refURL), worked out once per page and ref: a page links to
// the same pages again and again.
func (w *writer) target(data map[string]any) *linkTarget {
	ref := document.RefOf(data)
	if to, ok := w.urls[ref]; ok {
		return to
	}
	to := &linkTarget{}
	if dest, ok := ref.Dest(); ok && ref.Kind != "space" {
		if url, ok := siteURL(w.links, dest); ok && safeLink(url) {
			*to = linkTarget{url: url, ok: true, href: escape(url), rel: relOf(url)}
		}
	}
	if w.urls == nil {
		w.urls = map[document.Ref]*linkTarget{}
	}
	w.urls[ref] = to
	return to
}

// linkTarget is where a link of the page leads, and whether the reader may follow it.
type linkTarget struct {
	url string
	ok  bool
	// href is url escaped for an attribute, rel the link's rel attribute (relOf).
	href, rel string
}

// imageURL is the URL an image loads from: a file's on the site, or an http(s) or relative URL.
func (w *writer) imageURL(data map[string]any) (string, bool) {
	url, ok := w.refURL(data)
	if !ok || !safeImage(url) {
		return "", false
	}
	return url, true
}

// plainText is the text of inline content: texts, links' texts, inline formulas as written and
// images' alt texts, as the search index reads a heading (internal/content/markdown).
func plainText(nodes []*document.Node) string {
	var b strings.Builder
	appendPlain(&b, nodes)
	return b.String()
}

func appendPlain(b *strings.Builder, nodes []*document.Node) {
	for _, n := range nodes {
		for _, l := range n.Leaves {
			b.WriteString(l.Text)
		}
		switch n.Type {
		case "inline-math":
			b.WriteString("$$" + document.Str(n.Data, "formula") + "$$")
		case "inline-image":
			b.WriteString(document.Str(n.Data, "alt"))
		case "emoji":
			b.WriteString(document.EmojiChars(n.Data))
		}
		appendPlain(b, n.Nodes)
	}
}

// plainTextOfBlocks is the text of paragraphs.
func plainTextOfBlocks(blocks []*document.Node) string {
	var b strings.Builder
	for _, p := range blocks {
		appendPlain(&b, p.Nodes)
	}
	return b.String()
}

// icon writes an icon inline as an element named by its icon, and its color when it has one, for
// the site's style; assistive technology reads its name.
func (w *writer) icon(n *document.Node) {
	name := document.Str(n.Data, "icon")
	w.b.WriteString(`<span class="icon icon-` + escape(name))
	if color := document.Str(n.Data, "color"); color != "" {
		w.b.WriteString(" color-" + escape(strings.TrimPrefix(color, "$")))
	}
	w.b.WriteString(`" role="img" aria-label="` + escape(name) + `"></span>`)
}

// mention writes a mention as a link to what it names, by its title (a page's) or name (a file's);
// one the reader cannot reach is nothing.
func (w *writer) mention(n *document.Node, inLink bool) {
	url, ok := w.refURL(n.Data)
	if !ok {
		return
	}
	title := url
	switch id := document.RefID(n.Data); document.RefKind(n.Data) {
	case "page", "anchor":
		title = cmp.Or(w.links.PageTitle(id), url)
	case "file":
		title = cmp.Or(w.links.FileName(id), url)
	}
	if inLink {
		w.text(title)
		return
	}
	w.b.WriteString(`<a class="mention" href="` + escape(url) + `"` + relOf(url) + ">" + escape(title) + "</a>")
}
