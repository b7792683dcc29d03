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
func (w *writer) escaped(s string) { writeEscaped(&w.b, s) }

// entities are the character references escape writes, by byte; "" for a byte written as it is.
var entities = [256]string{'&': "&amp;", '\'': "&#39;", '<': "&lt;", '>': "&gt;", '"': "&#34;"}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if entities[s[i]] != "" {
			return true
		}
	}
	return false
}

// writeEscaped writes s to b escaped, the runs without a byte to escape as they are.
func writeEscaped(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		if e := entities[s[i]]; e != "" {
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
			for _, l := range n.Leaves {
				w.leaf(l, inLink)
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

// markTags are the elements of the marks, outermost first.
var markTags = [...]struct{ mark, open, end string }{
	{"keyboard", "<kbd>", "</kbd>"}, {"superscript", "<sup>", "</sup>"}, {"subscript", "<sub>", "</sub>"},
	{"bold", "<strong>", "</strong>"}, {"italic", "<em>", "</em>"}, {"strikethrough", "<del>", "</del>"}, {"code", "<code>", "</code>"},
}

func (w *writer) leaf(l document.Leaf, inLink bool) {
	var on [len(markTags)]bool // most texts have no mark: nothing to look for
	color := colorMarkOf(l)
	if color != nil {
		w.b.WriteString(`<mark class="color" data-text="` + escape(colorName(color, "text")) + `" data-background="` +
			escape(colorName(color, "background")) + `">`)
	}
	code := false
	for i := range markTags {
		t := &markTags[i]
		if on[i] = len(l.Marks) > 0 && hasMark(l, t.mark); on[i] {
			w.b.WriteString(t.open)
			code = code || t.mark == "code"
		}
	}
	switch {
	case code:
		w.escaped(l.Text)
	case inLink:
		w.text(l.Text)
	default:
		w.withReferences(l.Text, w.linkified)
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

// colorMarkOf is the color mark of a leaf, nil for none.
func colorMarkOf(l document.Leaf) *document.Mark {
	for i := range l.Marks {
		if l.Marks[i].Type == "color" {
			return &l.Marks[i]
		}
	}
	return nil
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

// text writes text, a line break ("\n": a hard break in Markdown) as <br>.
func (w *writer) text(s string) {
	for {
		line, rest, broken := strings.Cut(s, "\n")
		w.escaped(line)
		if !broken {
			return
		}
		w.b.WriteString("<br>\n")
		s = rest
	}
}

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
	url, ok := w.refURL(n.Data)
	if !ok || inLink {
		w.inlines(n.Nodes, inLink)
		return
	}
	w.b.WriteString(`<a href="`)
	w.escaped(url)
	w.b.WriteString(`"`)
	w.b.WriteString(relOf(url))
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
// cannot reach, a space, and a URL (or anchor) that is not safe to follow. It is worked out once
// per page and ref: a page links to the same pages again and again.
func (w *writer) refURL(data map[string]any) (string, bool) {
	ref := document.RefOf(data)
	if u, ok := w.urls[ref]; ok {
		return u.url, u.ok
	}
	dest, ok := ref.Dest()
	url := ""
	if ok = ok && ref.Kind != "space"; ok {
		url, ok = siteURL(w.links, dest)
		ok = ok && safeLink(url)
	}
	if !ok {
		url = ""
	}
	if w.urls == nil {
		w.urls = map[document.Ref]linkTarget{}
	}
	w.urls[ref] = linkTarget{url: url, ok: ok}
	return url, ok
}

// linkTarget is where a link of the page leads, and whether the reader may follow it.
type linkTarget struct {
	url string
	ok  bool
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
