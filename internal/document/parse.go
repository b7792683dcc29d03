package document

import (
	"bytes"
	"html"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// FromMarkdown converts a page body in GitBook-flavoured Markdown to a document. Every byte of it
// lands somewhere: what has no block of its own (HTML other than GitBook's, a tag Bindery does not
// support) is kept as the text of a paragraph. Invalid UTF-8 is read as U+FFFD, as JSON has it.
// The document's texts share the bytes of the copy read (decodeShared), which nothing writes to.
func FromMarkdown(markdown string) *Document {
	if !utf8.ValidString(markdown) {
		markdown = strings.ToValidUTF8(markdown, "\uFFFD")
	}
	src := []byte(markdown)
	if blocks, ok := newConverter(src).quick(src); ok {
		return New(blocks...)
	}
	return New(fromGoldmark(src)...)
}

// fromGoldmark converts src with goldmark's tree: the top-level blocks of its document.
func fromGoldmark(src []byte) []*Node {
	c := newConverter(src)
	return c.fit(c.blocks(gitbookMarkdown.Parse(text.NewReader(src))), topLevel)
}

func newConverter(src []byte) converter {
	return converter{src: src, closers: map[ast.Node]ast.Node{}, a: newArena(len(src))}
}

type converter struct {
	src     []byte
	closers map[ast.Node]ast.Node // the block that opens an expandable → the one that closes it
	depth   int                   // how many expandables hold the blocks converted
	a       *arena                // where the document's nodes are made
}

// maxExpandableDepth bounds expandables in expandables: the model allows none (their body cannot
// hold one), and reading each level again would make deep nesting cost its square; deeper
// `<details>` are HTML.
const maxExpandableDepth = 2

// blocks converts the blocks under n, an expandable being the HTML blocks from `<details>` to
// `</details>` with what they hold.
func (c converter) blocks(n ast.Node) []*Node { return c.matchedBlocks(n, true) }

// matchedBlocks is blocks; match says whether the children's `<details>` are still to be matched
// (not for an expandable's body, whose blocks were matched among the siblings they came from).
// They are matched at the first that opens an expandable, from it on: the blocks before it
// close none.
func (c converter) matchedBlocks(n ast.Node, match bool) []*Node {
	start := c.a.open()
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		title, ok := c.detailsOpen(k)
		if ok && match {
			c.matchDetails(k)
			match = false
		}
		if ok && c.depth < maxExpandableDepth {
			if end := c.closers[k]; end != nil {
				c.a.push(c.expandable(title, k, end))
				k = end
				continue
			}
		}
		for _, b := range c.block(k) {
			if !isEmptyParagraph(b) { // what a paragraph turned table or nothing left
				c.a.push(b)
			}
		}
	}
	return c.a.close(start)
}

func isEmptyParagraph(b *Node) bool {
	return b.Type == "paragraph" && len(b.Nodes) == 1 && b.Nodes[0].Object == ObjectText &&
		!slices.ContainsFunc(b.Nodes[0].Leaves, func(l Leaf) bool { return l.Text != "" })
}

// The HTML of an expandable: a block `<details>`, white space and `<summary>title</summary>` on
// one line or not, white space; then the blocks of its body; then a block `</details>` and white
// space.
var (
	detailsTag = []byte("<details>")
	detailsEnd = []byte("</details>")
)

// detailsOpen says whether n opens an expandable, and its title when the same block holds it.
func (c converter) detailsOpen(n ast.Node) (*string, bool) {
	if n.Kind() != ast.KindHTMLBlock || n.Lines().Len() == 0 || !bytes.HasPrefix(c.firstLine(n), detailsTag) {
		return nil, false
	}
	return readDetails(c.lines(n))
}

// readDetails reads the HTML of a block opening an expandable (detailsOpen).
func readDetails(s string) (title *string, ok bool) {
	rest, ok := strings.CutPrefix(s, string(detailsTag))
	if rest = strings.Trim(rest, htmlSpace); !ok || rest == "" {
		return nil, ok
	}
	if t, ok := enclosed(rest, "<summary>", "</summary>"); ok {
		return &t, true
	}
	return nil, false
}

// detailsClose says whether n closes an expandable.
func (c converter) detailsClose(n ast.Node) bool {
	return n.Kind() == ast.KindHTMLBlock && n.Lines().Len() > 0 && bytes.HasPrefix(c.firstLine(n), detailsEnd) &&
		closesDetails(c.lines(n))
}

func closesDetails(s string) bool { return strings.TrimRight(s, htmlSpace) == string(detailsEnd) }

// summaryLine is the title of a block `<summary>title</summary>`, ok false for another.
func summaryLine(s string) (title string, ok bool) {
	return enclosed(strings.TrimRight(s, htmlSpace), "<summary>", "</summary>")
}

// htmlSpace is the white space around the HTML GitBook writes (as \s in a regular expression).
const htmlSpace = " \t\n\f\r"

// enclosed is the text of s between open and end, ok when s is open, one line and end.
func enclosed(s, open, end string) (text string, ok bool) {
	if len(s) < len(open)+len(end) || !strings.HasPrefix(s, open) || !strings.HasSuffix(s, end) {
		return "", false
	}
	text = s[len(open) : len(s)-len(end)]
	return text, !strings.Contains(text, "\n")
}

// matchDetails pairs the blocks from first on that open an expandable with the siblings that close
// them, nested ones inside, in one pass (c.closers); an opening block without its closing one
// pairs with nothing and stays HTML.
func (c converter) matchDetails(first ast.Node) {
	var open []ast.Node
	for k := first; k != nil; k = k.NextSibling() {
		if _, ok := c.detailsOpen(k); ok {
			open = append(open, k)
		} else if len(open) > 0 && c.detailsClose(k) {
			c.closers[open[len(open)-1]] = k
			open = open[:len(open)-1]
		}
	}
}

func (c converter) expandable(title *string, open, end ast.Node) *Node {
	k := open.NextSibling()
	if title == nil && k != end && k.Kind() == ast.KindHTMLBlock {
		if t, ok := summaryLine(c.lines(k)); ok {
			title, k = &t, k.NextSibling()
		}
	}
	holder := ast.NewDocument()
	for k != end {
		next := k.NextSibling()
		holder.AppendChild(holder, k)
		k = next
	}
	t := ""
	if title != nil {
		t = html.UnescapeString(*title)
	}
	inner := c
	inner.depth++
	return c.expandableNode(t, inner.matchedBlocks(holder, false))
}

// expandableNode is an expandable of the title and the blocks of its body.
func (c converter) expandableNode(title string, blocks []*Node) *Node {
	body := c.fit(blocks, expandKids)
	if len(body) == 0 {
		body = c.a.one(c.a.paragraph(nil))
	}
	e := c.a.block("expandable", nil, nil)
	e.Fragments = []*Node{Fragment("expandable-title", c.a.paragraph(c.a.textNodes(title))), Fragment("expandable-body", body...)}
	return e
}

// block converts one block; what has no block of its own is a paragraph of its text.
func (c converter) block(n ast.Node) []*Node {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return c.a.one(c.paragraph(n))
	case *ast.Heading:
		return c.a.one(c.a.block(headingType(n.Level), nil, c.inlines(n)))
	case *ast.ThematicBreak:
		return c.a.one(c.a.block("divider", nil, nil))
	case *ast.FencedCodeBlock:
		return c.a.one(c.codeBlock(c.raw(n), string(n.Language(c.src))))
	case *ast.CodeBlock:
		return c.a.one(c.codeBlock(c.raw(n), ""))
	case *ast.Blockquote:
		return c.a.one(c.a.block("blockquote", nil, c.fit(c.blocks(n), blockRules["blockquote"].children)))
	case *ast.List:
		return c.a.one(c.list(n))
	case *ast.HTMLBlock:
		return c.a.one(c.htmlBlock(n))
	case *east.Table:
		return c.a.one(c.table(n))
	case *mathBlock:
		return c.a.one(c.a.block("math", map[string]any{"formula": strings.TrimSuffix(c.raw(n), "\n")}, nil))
	case *tagBlock:
		return c.tag(n)
	}
	return c.a.one(c.a.literal(c.lines(n)))
}

// headingType maps Markdown heading levels to the reference's three: GitBook writes a page's
// title as "#" and heading-1 to heading-3 as "##" to "####"; a body's "#" (its title is stored
// apart) is heading-1, and levels below "####" are heading-3.
func headingType(level int) string {
	return headingTypes[min(max(level-1, 1), 3)-1]
}

var headingTypes = [...]string{"heading-1", "heading-2", "heading-3"}

func (c converter) paragraph(n ast.Node) *Node { return c.paragraphOf(c.inlines(n)) }

// paragraphOf is a paragraph of the inline nodes, or the images block of its one image.
func (c converter) paragraphOf(nodes []*Node) *Node {
	if len(nodes) == 1 && nodes[0].Type == "inline-image" {
		img := nodes[0].Data
		return c.a.block("images", nil, c.a.one(c.image(img["ref"].(map[string]any), str(img, "alt"), "")))
	}
	return c.a.paragraph(nodes)
}

func (c converter) image(ref map[string]any, alt, caption string) *Node {
	data := map[string]any{"ref": ref}
	if alt != "" {
		data["alt"] = alt
	}
	img := c.a.block("image", data, nil)
	if caption != "" {
		img.Fragments = []*Node{Fragment("caption", c.a.paragraph(c.a.textNodes(caption)))}
	}
	return img
}

func (c converter) codeBlock(code, syntax string) *Node {
	var lines []string
	if code != "" {
		lines = strings.Split(strings.TrimSuffix(code, "\n"), "\n")
	}
	return c.codeLines(lines, syntax)
}

// codeLines is a code block of the lines.
func (c converter) codeLines(lines []string, syntax string) *Node {
	data := map[string]any{}
	if syntax != "" {
		data["syntax"] = syntax
	}
	start := c.a.open()
	for _, l := range lines {
		c.a.push(c.a.block("code-line", nil, c.a.one(c.a.text(NewLeaf(l)))))
	}
	return c.a.block("code", data, c.a.close(start))
}

func (c converter) list(n *ast.List) *Node {
	typ, data := "list-unordered", map[string]any(nil)
	if n.IsOrdered() {
		typ = "list-ordered"
		if n.Start != 1 {
			data = map[string]any{"start": n.Start}
		}
	} else if isTaskList(n) {
		typ = "list-tasks"
	}
	start := c.a.open()
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		item := c.a.block("list-item", nil, c.fit(c.blocks(k), listItemKids))
		if typ == "list-tasks" {
			item.Data = map[string]any{"checked": checked(k)}
		}
		c.a.push(item)
	}
	return c.a.block(typ, data, c.a.close(start))
}

// taskBox is the task check box of a list item, nil for none.
func taskBox(item ast.Node) *east.TaskCheckBox {
	if first := item.FirstChild(); first != nil {
		box, _ := first.FirstChild().(*east.TaskCheckBox)
		return box
	}
	return nil
}

// isTaskList says whether a list is a list of tasks: bulleted, some item with a check box, and
// every item starting with text (where a check box goes).
func isTaskList(list *ast.List) bool {
	task := false
	for k := list.FirstChild(); k != nil; k = k.NextSibling() {
		first := k.FirstChild()
		if first == nil || first.Kind() != ast.KindParagraph && first.Kind() != ast.KindTextBlock {
			return false
		}
		box := taskBox(k)
		if box != nil && box.NextSibling() == nil { // a check box and nothing else: no task
			return false
		}
		task = task || box != nil
	}
	return task && !list.IsOrdered()
}

func checked(item ast.Node) bool {
	box := taskBox(item)
	return box != nil && box.IsChecked
}

// figure is GitBook's image with a caption; its lines start with figureTag.
const figureTag = "<figure>"

// figure reads a figure as GitBook writes it: `<figure><img src="src" alt="alt"><figcaption>`,
// `<p>caption</p>` on one line or nothing, `</figcaption></figure>` and white space; ok false for
// other HTML.
func figure(s string) (src, alt, caption string, ok bool) {
	rest, ok := strings.CutPrefix(s, `<figure><img src="`)
	if !ok {
		return "", "", "", false
	}
	if src, rest, ok = strings.Cut(rest, `"`); !ok {
		return "", "", "", false
	}
	if rest, ok = strings.CutPrefix(rest, ` alt="`); !ok {
		return "", "", "", false
	}
	if alt, rest, ok = strings.Cut(rest, `"`); !ok {
		return "", "", "", false
	}
	if rest, ok = strings.CutPrefix(rest, `><figcaption>`); !ok {
		return "", "", "", false
	}
	if rest, ok = strings.CutSuffix(strings.TrimRight(rest, htmlSpace), `</figcaption></figure>`); !ok {
		return "", "", "", false
	}
	if rest != "" {
		caption, ok = enclosed(rest, "<p>", "</p>")
	}
	return src, alt, caption, ok
}

func (c converter) htmlBlock(n *ast.HTMLBlock) *Node { return c.htmlText(c.lines(n)) }

// htmlText converts an HTML block's text: a figure, or text.
func (c converter) htmlText(s string) *Node {
	if !strings.HasPrefix(s, figureTag) {
		return c.a.literal(s)
	}
	if src, alt, caption, ok := figure(s); ok {
		ref := refFromDest(html.UnescapeString(src))
		if kind := str(ref, "kind"); kind == "url" || kind == "file" {
			return c.a.block("images", nil, c.a.one(c.image(ref, html.UnescapeString(alt), html.UnescapeString(caption))))
		}
	}
	return c.a.literal(s)
}

// firstLine is the source text of a block's first line, which it has.
func (c converter) firstLine(n ast.Node) []byte {
	seg := n.Lines().At(0)
	return c.src[seg.Start:seg.Stop]
}

// lines is the source text of a block's lines (an HTML block's closing line included).
func (c converter) lines(n ast.Node) string {
	segs := n.Lines().Sliced(0, n.Lines().Len())
	if h, ok := n.(*ast.HTMLBlock); ok && h.HasClosure() {
		segs = append(segs[:len(segs):len(segs)], h.ClosureLine)
	}
	if s, ok := c.shared(segs); ok {
		return s
	}
	var b strings.Builder
	for _, seg := range segs {
		b.Write(seg.Value(c.src))
	}
	return b.String()
}

// raw is the text of a code or math block's lines, tabs expanded as goldmark's padding says
// (a segment's Value holds its padding).
func (c converter) raw(n ast.Node) string {
	segs := n.Lines().Sliced(0, n.Lines().Len())
	if s, ok := c.shared(segs); ok {
		return s
	}
	var b strings.Builder
	for _, seg := range segs {
		b.Write(seg.Value(c.src))
	}
	return b.String()
}

// shared is the text of segments that are one run of the source, unpadded: a string sharing its
// bytes (FromMarkdown). ok is false for other segments.
func (c converter) shared(segs []text.Segment) (s string, ok bool) {
	for i, seg := range segs {
		if seg.Padding != 0 || i > 0 && segs[i-1].Stop != seg.Start {
			return "", false
		}
	}
	if len(segs) == 0 {
		return "", true
	}
	return util.BytesToReadOnlyString(c.src[segs[0].Start:segs[len(segs)-1].Stop]), true
}

func (c converter) table(t *east.Table) *Node {
	tb := c.newTable(len(t.Alignments), t.ChildCount()-1)
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		header := r.Kind() == east.KindTableHeader
		if !header {
			tb.startRow(r.ChildCount())
		}
		col := 0
		for cell := r.FirstChild(); cell != nil; cell, col = cell.NextSibling(), col+1 {
			if header {
				tb.column(col, util.BytesToReadOnlyString(c.plain(cell)), alignment(t.Alignments[col]))
			} else {
				tb.cell(col, c.inlines(cell))
			}
		}
		if !header {
			tb.endRow()
		}
	}
	return tb.done()
}

// tableBuilder makes a table block: its columns, then its rows one by one, cell by cell.
type tableBuilder struct {
	c                   converter
	table               *Node
	columns             []any
	definition, records map[string]any
	values              map[string]any // of the row being built
	row                 int
}

// newTable starts a table of about the columns and rows given.
func (c converter) newTable(columns, rows int) *tableBuilder {
	return &tableBuilder{c: c, table: c.a.block("table", nil, nil), columns: make([]any, 0, columns),
		definition: make(map[string]any, columns), records: make(map[string]any, max(rows, 0))}
}

// column adds the column col: its header's text and how its cells align.
func (t *tableBuilder) column(col int, title, align string) {
	id := columnID(col)
	t.columns = append(t.columns, id.any)
	t.definition[id.s] = map[string]any{"id": id.any, "title": title, "type": "text", "textAlignment": align}
}

func (t *tableBuilder) startRow(cells int) { t.values = make(map[string]any, cells) }

// cell adds the cell of column col of the row: a fragment of its inlines, none when it is empty.
func (t *tableBuilder) cell(col int, inlines []*Node) {
	if len(inlines) == 0 {
		return
	}
	frag := cellID(t.row, col)
	t.values[columnID(col).s] = frag.any
	t.table.Fragments = append(t.table.Fragments, t.c.a.node(Node{Object: ObjectFragment, Fragment: frag.s, Nodes: t.c.a.one(t.c.a.paragraph(inlines))}))
}

func (t *tableBuilder) endRow() {
	t.records[rowID(t.row).s] = map[string]any{"orderIndex": orderIndex(t.row).any, "values": t.values}
	t.row++
}

func (t *tableBuilder) done() *Node {
	t.table.Data = map[string]any{"view": map[string]any{"type": "grid", "columns": t.columns, "hideHeader": false},
		"records": t.records, "definition": t.definition}
	return t.table
}

// id is a table's id of a column, a record or a cell, with the same as a value of data (an
// interface holding it, made once for the first ones).
type id struct {
	s   string
	any any
}

func newID(s string) id { return id{s, s} }

// The ids of the first columns and rows, and of their cells, made once.
const idRows, idColumns = 64, 16

var (
	columnIDs, rowIDs, orderIndexes = ids(idColumns, columnName), ids(idRows, rowName), ids(idRows, orderIndexName)
	cellIDs                         = ids(idRows*idColumns, func(i int) string { return cellName(i/idColumns, i%idColumns) })
)

func ids(n int, name func(int) string) []id {
	out := make([]id, n)
	for i := range out {
		out[i] = newID(name(i))
	}
	return out
}

// columnID is the id of a table's column col: "c" and its number.
func columnID(col int) id { return idOf(columnIDs, col, columnName) }

// rowID is the id of a table's record row: "r" and its number.
func rowID(row int) id { return idOf(rowIDs, row, rowName) }

// cellID is the fragment of a table's cell: its row's id and its column's.
func cellID(row, col int) id {
	if row < idRows && col < idColumns {
		return cellIDs[row*idColumns+col]
	}
	return newID(cellName(row, col))
}

// orderIndex is the orderIndex of a table's record row: "a" and the row in six digits or more.
func orderIndex(row int) id { return idOf(orderIndexes, row, orderIndexName) }

func idOf(made []id, i int, name func(int) string) id {
	if i < len(made) {
		return made[i]
	}
	return newID(name(i))
}

func columnName(col int) string    { return "c" + strconv.Itoa(col) }
func rowName(row int) string       { return "r" + strconv.Itoa(row) }
func cellName(row, col int) string { return rowName(row) + columnName(col) }

func orderIndexName(row int) string {
	digits := strconv.Itoa(row)
	b := make([]byte, 0, 16)
	b = append(b, 'a')
	for range 6 - len(digits) {
		b = append(b, '0')
	}
	return string(append(b, digits...))
}

func alignment(a east.Alignment) string {
	switch a {
	case east.AlignCenter:
		return "center"
	case east.AlignRight:
		return "right"
	}
	return "left"
}

// plain is the text of n's inlines without their formatting.
func (c converter) plain(n ast.Node) []byte { return plainOf(c.inlines(n)) }

// plainOf is the text of inline nodes without their formatting.
func plainOf(nodes []*Node) []byte {
	var b []byte
	for _, t := range nodes {
		for _, l := range t.Leaves {
			b = append(b, l.Text...)
		}
		if t.Type == "emoji" {
			b = append(b, EmojiChars(t.Data)...)
		}
		for _, k := range t.Nodes {
			for _, l := range k.Leaves {
				b = append(b, l.Text...)
			}
		}
	}
	return b
}

// tag converts a GitBook tag block.
func (c converter) tag(n *tagBlock) []*Node {
	if g, ok := tagGroups[n.name]; ok {
		return c.a.one(c.items(n, g))
	}
	return c.tagNodes(&n.tagHead, func() []*Node { return c.blocks(n) })
}

// tagNodes converts a tag other than a group's: body converts the blocks it holds.
func (c converter) tagNodes(h *tagHead, body func() []*Node) []*Node {
	switch h.name {
	case "hint":
		style := h.attrs.get("style")
		if !slices.Contains(hintStyles, style) {
			style = "info"
		}
		return c.a.one(c.a.block("hint", map[string]any{"style": style}, c.fit(body(), blockRules["hint"].children)))
	case "code":
		return c.titledCode(h, body())
	case "if":
		return c.a.one(c.a.block("if", map[string]any{"expression": h.attrs.get("expression")}, c.fit(body(), topLevel)))
	case "content-ref":
		return c.a.one(c.a.block("content-ref", map[string]any{"ref": refFromDest(h.attrs.get("url"))}, nil))
	case "openapi", "swagger", "openapi-operation", "openapi-webhook", "openapi-schemas":
		return c.openAPI(h, body())
	case "embed":
		if url := h.attrs.get("url"); url != "" {
			return c.a.one(c.a.block("embed", map[string]any{"url": url}, nil))
		}
	case "file":
		if ref := refFromDest(h.attrs.get("src")); str(ref, "kind") == "file" {
			return c.a.one(c.a.block("file", map[string]any{"ref": ref}, nil))
		}
	case "include":
		if id, ok := IncludedID(h.attrs.get("src")); ok {
			return c.a.one(ReusableBlock(id))
		}
	}
	if voidTags[h.name] { // a tag Markdown cannot hold: its text
		return c.a.one(c.a.literal(h.line))
	}
	return body() // a tab, step or column outside its group: its blocks
}

// openAPI converts an OpenAPI tag: `{% openapi-operation spec path method %}`,
// `{% openapi-webhook spec name method %}` and `{% openapi-schemas spec schemas grouped %}` name a
// spec by slug, `{% openapi src path method %}` (and `{% swagger %}` before it) by the URL or file
// of its document. GitBook writes a link to the spec as the body, which the block gives back: a
// body of one paragraph is dropped, the blocks of any other follow the block. A tag without its
// pointer is text.
func (c converter) openAPI(h *tagHead, blocks []*Node) []*Node {
	typ, data := h.name, map[string]any{"ref": map[string]any{"kind": "openapi", "spec": h.attrs.get("spec")}}
	switch h.name {
	case "openapi", "swagger":
		typ, data["ref"] = "swagger", refFromDest(h.attrs.get("src"))
		data["path"], data["method"] = h.attrs.get("path"), h.attrs.get("method")
	case "openapi-operation":
		data["path"], data["method"] = h.attrs.get("path"), h.attrs.get("method")
	case "openapi-webhook":
		data["name"], data["method"] = h.attrs.get("name"), h.attrs.get("method")
	case "openapi-schemas":
		data["schemas"] = splitNames(h.attrs.get("schemas"))
		if g, ok := h.attrs.lookup("grouped"); ok {
			data["grouped"] = g == "true"
		}
	}
	body := c.fit(blocks, topLevel)
	b := c.a.block(typ, data, nil)
	if checkOpenAPI("", b) != nil {
		text := []*Node{c.a.literal(h.line)}
		if h.closed {
			body = append(body, c.a.literal("{% end"+h.name+" %}"))
		}
		return append(text, body...)
	}
	if len(body) == 1 && body[0].Type == "paragraph" {
		body = nil
	}
	return append([]*Node{b}, body...)
}

// splitNames are the comma-separated names of an attribute.
func splitNames(s string) []any {
	names := []any{}
	for name := range strings.SplitSeq(s, ",") {
		names = append(names, name)
	}
	return names
}

// tagGroup is what a tag holding items (tabs, a stepper, columns) holds: the tag of its items, their
// type, and the blocks they may hold.
type tagGroup struct {
	itemTag, itemType string
	kids              []string
}

var tagGroups = map[string]tagGroup{
	"tabs":    {"tab", "tabs-item", tabKids},
	"stepper": {"step", "stepper-step", blockRules["stepper-step"].children},
	"columns": {"column", "column", columnKids},
}

// items converts a group of tabs, steps or columns. Blocks between the items join the item
// before them (or a first, untitled one).
func (c converter) items(n *tagBlock, g tagGroup) *Node {
	start := c.a.open()
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		if t, ok := k.(*tagBlock); ok && t.name == g.itemTag {
			c.a.push(c.item(n.name, g, &t.tagHead, c.blocks(t)))
			continue
		}
		if len(c.a.stack) == start {
			c.a.push(c.a.block(g.itemType, map[string]any{}, nil))
		}
		last := c.a.top()
		last.Nodes = append(last.Nodes, c.fit(c.block(k), g.kids)...)
	}
	return c.group(n.name, c.a.close(start))
}

// item is a tab, step or column of the group: h its tag, blocks what it holds.
func (c converter) item(group string, g tagGroup, h *tagHead, blocks []*Node) *Node {
	data := map[string]any{}
	if title, ok := h.attrs.lookup("title"); ok && group == "tabs" {
		data["title"] = title
	}
	return c.a.block(g.itemType, data, c.fit(blocks, g.kids))
}

// group is the block of a group of items.
func (c converter) group(group string, items []*Node) *Node {
	var data map[string]any
	if group == "columns" {
		data = map[string]any{}
	}
	return c.a.block(group, data, items)
}

// titledCode converts `{% code %}` around one code block; around anything else, the tag is
// dropped and its blocks kept.
func (c converter) titledCode(h *tagHead, blocks []*Node) []*Node {
	if len(blocks) != 1 || blocks[0].Type != "code" {
		return blocks
	}
	code := blocks[0]
	if title := h.attrs.get("title"); title != "" {
		code.Data["title"] = title
	}
	if h.attrs.get("lineNumbers") == "true" {
		code.Data["lineNumbers"] = true
	}
	if h.attrs.get("overflow") == "wrap" {
		code.Data["overflow"] = "wrap"
	}
	return blocks
}

// fit keeps the blocks a container may hold; one it may not is replaced by the blocks it holds,
// or, for a void one or one whose data the blocks would leave behind (a hint's style, tabs'
// titles), by a paragraph of its Markdown, so that nothing is dropped.
func (c converter) fit(blocks []*Node, allowed []string) []*Node {
	if len(blocks) == 0 {
		return nil
	}
	if !slices.ContainsFunc(blocks, func(b *Node) bool { return !slices.Contains(allowed, b.Type) }) {
		return slices.Clip(blocks) // most blocks: all kept
	}
	start := c.a.open()
	for _, b := range blocks {
		switch {
		case slices.Contains(allowed, b.Type):
			c.a.push(b)
		case b.Type == "if": // its tags as text around its blocks: shown to every reader, and seen to be
			c.a.push(c.a.literal(ifOpen(b)))
			c.a.push(c.fit(b.Nodes, allowed)...)
			c.a.push(c.a.literal(ifClose))
		case len(b.Nodes) > 0 && b.Type != "code" && !holdsData(b):
			c.a.push(c.fit(b.Nodes, allowed)...)
		default:
			c.a.push(c.a.literal(blockMarkdown(b)))
		}
	}
	return c.a.close(start)
}

// holdsData says whether a container or one of its items (a tab, a step, a column) has data of its
// own, which its blocks do not carry.
func holdsData(b *Node) bool {
	if len(b.Data) > 0 {
		return true
	}
	for _, item := range b.Nodes {
		if item.Object == ObjectBlock && len(item.Data) > 0 && !isBlockContent(item) {
			return true
		}
	}
	return false
}

// isBlockContent says whether a node held by a container is itself content (a block that fit
// keeps or lifts on its own) rather than an item of the container.
func isBlockContent(n *Node) bool { return slices.Contains(topLevel, n.Type) }

func unescapeAttr(s string) string { return html.UnescapeString(s) }
