package htmlpage

import (
	"strconv"
	"strings"

	"github.com/binderyhq/bindery/internal/content/htmlpage/mathml"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/sizedlru"
)

func (w *writer) blocks(nodes []*document.Node) {
	for _, n := range nodes {
		w.block(n)
	}
}

func (w *writer) block(n *document.Node) {
	switch n.Type {
	case "paragraph":
		w.paragraph(n)
	case "heading-1", "heading-2", "heading-3":
		w.heading(n)
	case "list-ordered", "list-unordered", "list-tasks":
		w.list(n)
	case "blockquote":
		w.container("<blockquote>", n.Nodes, "</blockquote>\n")
	case "hint":
		w.hint(n)
	case "code":
		w.code(n)
	case "math":
		w.math(n)
	case "tabs":
		w.tabGroup(n)
	case "expandable":
		w.expandable(n)
	case "stepper":
		w.items(`<ol class="stepper">`, `<li class="step">`, n, "</li>", "</ol>\n")
	case "columns":
		w.items(`<div class="columns">`, `<div class="column">`, n, "</div>", "</div>\n")
	case "table":
		w.table(n)
	case "images":
		w.images(n)
	case "file":
		w.file(n)
	case "embed":
		w.embed(document.Str(n.Data, "url"))
	case "content-ref":
		w.contentRef(n)
	case "divider":
		w.b.WriteString("<hr>\n")
	case "openapi-operation", "swagger", "openapi-webhook":
		w.operation(n)
	case "openapi-schemas":
		w.openAPISchemas(n)
	case "reusable-content": // left by document.Dereference: the content is not there
		w.b.WriteString(`<p class="missing" role="note">` + missingReusable + "</p>\n")
	case "if": // decided before (document.Evaluate); left here, it shows nothing: failing closed
	default: // a block the document model does not support: what it holds
		w.blocks(n.Nodes)
	}
}

// missingReusable is what readers see where a page places a reusable content that is gone.
const missingReusable = "This reusable content is missing: it was deleted or is not available."

func (w *writer) container(open string, blocks []*document.Node, end string) {
	w.b.WriteString(open)
	w.blocks(blocks)
	w.b.WriteString(end)
}

// items writes a stepper's steps or columns: each item's blocks in the item's element.
func (w *writer) items(open, openItem string, n *document.Node, endItem, end string) {
	w.b.WriteString(open)
	for _, item := range n.Nodes {
		w.container(openItem, item.Nodes, endItem)
	}
	w.b.WriteString(end)
}

func (w *writer) paragraph(n *document.Node) {
	if isEmpty(n) {
		return
	}
	w.b.WriteString("<p>")
	w.inlines(n.Nodes, false)
	w.b.WriteString("</p>\n")
}

// isEmpty says whether a paragraph holds no text: what an empty line of the editor leaves.
func isEmpty(p *document.Node) bool {
	if len(p.Nodes) != 1 || p.Nodes[0].Object != document.ObjectText {
		return len(p.Nodes) == 0
	}
	for _, l := range p.Nodes[0].Leaves {
		if l.Text != "" { // most paragraphs: their text is not made
			return false
		}
	}
	return plainText(p.Nodes) == ""
}

// heading writes heading-1 to heading-3 as <h2> to <h4> (the page's title is its <h1>), anchored
// as the search index anchors the sections they start (markdown.Anchor of their text, numbered
// when taken).
func (w *writer) heading(n *document.Node) {
	level := int(n.Type[len(n.Type)-1]-'0') + 1
	text := plainText(n.Nodes)
	id := w.anchors.Unique(markdown.Anchor(text))
	w.headings = append(w.headings, Heading{Level: level, ID: id, Text: strings.Join(strings.Fields(text), " ")})
	tag := "h" + strconv.Itoa(level)
	w.b.WriteString("<" + tag + ` id="` + escape(id) + `">`)
	w.inlines(n.Nodes, false)
	w.b.WriteString("</" + tag + ">\n")
}

func (w *writer) list(n *document.Node) {
	tag := "ul"
	switch n.Type {
	case "list-ordered":
		tag = "ol"
		w.b.WriteString("<ol")
		if start, ok := document.Int(n.Data, "start"); ok && start != 1 {
			w.b.WriteString(` start="` + strconv.Itoa(start) + `"`)
		}
		w.b.WriteString(">\n")
	case "list-tasks":
		w.b.WriteString(`<ul class="tasks">` + "\n")
	default:
		w.b.WriteString("<ul>\n")
	}
	for _, item := range n.Nodes {
		w.b.WriteString("<li>")
		if n.Type == "list-tasks" {
			w.b.WriteString(`<input type="checkbox" disabled`)
			if document.Flag(item.Data, "checked") {
				w.b.WriteString(" checked")
			}
			w.b.WriteString("> ")
		}
		w.listItem(item.Nodes)
		w.b.WriteString("</li>\n")
	}
	w.b.WriteString("</" + tag + ">\n")
}

// listItem writes an item's blocks; the text of an item of one paragraph (a tight list's) goes
// without a <p>.
func (w *writer) listItem(blocks []*document.Node) {
	paragraphs := 0
	for _, b := range blocks {
		if b.Type == "paragraph" {
			paragraphs++
		}
	}
	for _, b := range blocks {
		if b.Type == "paragraph" && paragraphs == 1 {
			w.inlines(b.Nodes, false)
			continue
		}
		w.block(b)
	}
}

// hintLabels are the visible labels of hints by style; warnings and dangers are alerts, the
// others notes.
var hintLabels = map[string]struct{ label, role string }{
	"info": {"Info", "note"}, "success": {"Success", "note"}, "warning": {"Warning", "alert"}, "danger": {"Danger", "alert"},
}

func (w *writer) hint(n *document.Node) {
	style := document.Str(n.Data, "style")
	h, ok := hintLabels[style]
	if !ok {
		style, h = "info", hintLabels["info"]
	}
	w.b.WriteString(`<div class="hint" data-style="` + style + `" role="` + h.role + `"><p class="hint-label">` + h.label + "</p>\n")
	w.blocks(n.Nodes)
	w.b.WriteString("</div>\n")
}

func (w *writer) math(n *document.Node) {
	w.b.WriteString(`<div class="math">`)
	w.formula(document.Str(n.Data, "formula"), true)
	w.b.WriteString("</div>\n")
}

// formula writes TeX as MathML, or as its text in <code> when mathml cannot read it.
func (w *writer) formula(tex string, display bool) {
	key := formulaKey{tex: tex, display: display}
	html, ok := formulas.Get(key)
	if !ok {
		html = formulaHTML(tex, display)
		formulas.Add(key, html, len(tex)+len(html))
	}
	w.b.WriteString(html)
}

// formulaKey names a formula written: its TeX, and whether it is a block.
type formulaKey struct {
	tex     string
	display bool
}

// formulas keeps formulas written, as highlighted keeps code: a page's formulas are read far more
// often than they change, and reading TeX is most of what one costs.
var formulas = sizedlru.New[formulaKey, string](4 << 20)

// formulaHTML is TeX as MathML, or as its text in <code> when mathml cannot read it.
func formulaHTML(tex string, display bool) string {
	if ml, err := mathml.Render(tex, display); err == nil {
		return ml
	}
	return `<code class="tex">` + escape(tex) + "</code>"
}

// tabGroup writes tabs as the WAI-ARIA tabs pattern: a tablist of buttons, the first selected,
// and a tabpanel per tab, the others hidden; the site's script switches them by click and arrow
// keys. Ids hold a ":", which no heading's anchor has.
func (w *writer) tabGroup(n *document.Node) {
	w.tabs++
	group := "tabs:" + strconv.Itoa(w.tabs) + ":"
	w.b.WriteString(`<div class="tabs"><div role="tablist">`)
	for i, item := range n.Nodes {
		id := group + strconv.Itoa(i)
		title := document.Str(item.Data, "title")
		if title == "" {
			title = "Tab " + strconv.Itoa(i+1)
		}
		w.b.WriteString(`<button type="button" role="tab" id="` + id + `" aria-controls="` + id + `:panel"`)
		if i == 0 {
			w.b.WriteString(` aria-selected="true">`)
		} else {
			w.b.WriteString(` aria-selected="false" tabindex="-1">`)
		}
		w.b.WriteString(escape(title) + "</button>")
	}
	w.b.WriteString("</div>\n")
	for i, item := range n.Nodes {
		id := group + strconv.Itoa(i)
		w.b.WriteString(`<div role="tabpanel" id="` + id + `:panel" aria-labelledby="` + id + `" tabindex="0"`)
		if i > 0 {
			w.b.WriteString(" hidden")
		}
		w.container(">", item.Nodes, "</div>\n")
	}
	w.b.WriteString("</div>\n")
}

func (w *writer) expandable(n *document.Node) {
	w.b.WriteString(`<details class="expandable"><summary>`)
	if title := document.FragmentOf(n, "expandable-title"); title != nil {
		w.paragraphsInline(title.Nodes, " ")
	}
	w.b.WriteString("</summary>\n")
	if body := document.FragmentOf(n, "expandable-body"); body != nil {
		w.blocks(body.Nodes)
	}
	w.b.WriteString("</details>\n")
}

// paragraphsInline writes the inlines of paragraphs one after the other, apart by sep.
func (w *writer) paragraphsInline(paragraphs []*document.Node, sep string) {
	for i, p := range paragraphs {
		if i > 0 {
			w.b.WriteString(sep)
		}
		w.inlines(p.Nodes, false)
	}
}

func (w *writer) table(n *document.Node) {
	columns, hideHeader, rows := document.Table(n)
	w.b.WriteString(`<div class="table"><table>`)
	if !hideHeader {
		w.b.WriteString("<thead><tr>")
		for _, c := range columns {
			w.b.WriteString("<th" + alignClass(c.Align) + ">" + escape(c.Title) + "</th>")
		}
		w.b.WriteString("</tr></thead>")
	}
	w.b.WriteString("<tbody>\n")
	for _, row := range rows {
		w.b.WriteString("<tr>")
		for i, cell := range row {
			w.b.WriteString("<td" + alignClass(columns[i].Align) + ">")
			w.paragraphsInline(cell, "<br>")
			w.b.WriteString("</td>")
		}
		w.b.WriteString("</tr>\n")
	}
	w.b.WriteString("</tbody></table></div>\n")
}

func alignClass(align string) string {
	if align == "center" || align == "right" {
		return ` class="align-` + align + `"`
	}
	return ""
}

// images writes each image as a figure with its caption; one the reader cannot load is its alt
// text.
func (w *writer) images(n *document.Node) {
	if len(n.Nodes) > 1 {
		w.b.WriteString(`<div class="images">`)
	}
	for _, img := range n.Nodes {
		src, ok := w.imageURL(img.Data)
		alt := document.Str(img.Data, "alt")
		if !ok {
			if alt != "" {
				w.b.WriteString("<p>" + escape(alt) + "</p>\n")
			}
			continue
		}
		w.b.WriteString(`<figure class="image"><img src="` + escape(src) + `" alt="` + escape(alt) + `" loading="lazy">`)
		if caption := document.FragmentOf(img, "caption"); caption != nil && plainTextOfBlocks(caption.Nodes) != "" {
			w.b.WriteString("<figcaption>")
			w.paragraphsInline(caption.Nodes, " ")
			w.b.WriteString("</figcaption>")
		}
		w.b.WriteString("</figure>\n")
	}
	if len(n.Nodes) > 1 {
		w.b.WriteString("</div>\n")
	}
}

// file writes a file block as a link to the file, named by its name; nothing for a file the
// reader cannot reach.
func (w *writer) file(n *document.Node) {
	url, ok := w.refURL(n.Data)
	if !ok {
		return
	}
	name := w.links.FileName(document.RefID(n.Data))
	if name == "" {
		name = "Download the file"
	}
	w.b.WriteString(`<p class="file"><a href="` + escape(url) + `">` + escape(name) + "</a></p>\n")
}

// contentRef writes a reference to a page (by its title), a file (by its name) or a URL as a
// card; nothing for one the reader cannot reach.
func (w *writer) contentRef(n *document.Node) {
	url, ok := w.refURL(n.Data)
	if !ok {
		return
	}
	var title string
	switch id := document.RefID(n.Data); document.RefKind(n.Data) {
	case "page", "anchor":
		title = w.links.PageTitle(id)
	case "file":
		title = w.links.FileName(id)
	}
	if title == "" {
		title = url
	}
	w.b.WriteString(`<p class="content-ref"><a class="card" href="` + escape(url) + `"` + relOf(url) + ">" + escape(title) + "</a></p>\n")
}
