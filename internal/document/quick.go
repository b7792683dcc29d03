package document

import (
	"html"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/util"
)

// The quick reader converts the Markdown Bindery writes (Markdown) straight to a document, in one
// pass over its lines, without goldmark's tree: parsing it with goldmark and converting the tree
// took twice the time the issue allows for 10,000 blocks (decision 598). It reads a strict subset
// of GitBook-flavoured Markdown, each construct only in the forms where CommonMark's reading is
// plain (a list item's lines indented by its marker's width, emphasis whose delimiters pair up
// innermost first, a link whose destination is on its line, inline HTML only as the tags Markdown
// writes), and gives up on the whole text at anything else: FromMarkdown then reads it with
// goldmark. Where it reads a text, its document is the one goldmark's path gives
// (TestQuickReadsAsGoldmark, TestQuickReadsRandomTexts, FuzzQuick).

// notQuick is what the quick reader panics with when it gives up; quick recovers it.
type notQuick struct{}

// giveUp stops the quick reader: the text holds something it does not read.
func giveUp() { panic(notQuick{}) }

// quick reads src, FromMarkdown's copy, to the top-level blocks of its document; ok is false when
// the text holds something the quick reader does not read.
func (c converter) quick(src []byte) (blocks []*Node, ok bool) {
	if strings.ContainsAny(util.BytesToReadOnlyString(src), "\r\x00") {
		return nil, false
	}
	defer func() {
		if r := recover(); r != nil {
			if _, gaveUp := r.(notQuick); !gaveUp {
				panic(r)
			}
			blocks, ok = nil, false
		}
	}()
	lines := strings.Split(util.BytesToReadOnlyString(src), "\n")
	blocks, _ = quickReader{c: c, in: &inlineReader{c: c}, lineBuf: &[]string{}}.blocks(lines, 0, nil)
	return c.fit(blocks, topLevel), true
}

// quickReader reads the lines of one container, their container's prefixes removed.
type quickReader struct {
	c  converter
	in *inlineReader // reads the inline Markdown of every block
	// lineBuf holds the lines of the list items read, their indentation removed: each item's
	// lines are a part of it.
	lineBuf  *[]string
	expanded bool // inside an expandable's body, where the model has no other
	tags     int  // how many tag blocks hold the lines
}

// blocks reads the blocks of ls from i on, up to the end of ls or up to the first line starting a
// block that ends says ends them; next is that line's index, len(ls) when there is none.
func (q quickReader) blocks(ls []string, i int, ends func(string) bool) (blocks []*Node, next int) {
	start := q.c.a.open()
	for i < len(ls) {
		if ls[i] == "" {
			i++
			continue
		}
		if ends != nil && ends(ls[i]) {
			break
		}
		var made []*Node
		made, i = q.block(ls, i)
		for _, b := range made {
			if !isEmptyParagraph(b) {
				q.c.a.push(b)
			}
		}
	}
	return q.c.a.close(start), i
}

// The kinds of block a line starts.
type lineKind int

const (
	startsUnread lineKind = iota // something the quick reader does not read
	startsParagraph
	startsHeading
	startsTag
	startsFence
	startsMath
	startsHTML
	startsTable
	startsQuote
	startsDivider
	startsList
)

// kindOf is the kind of block a line, not blank, starts.
func kindOf(l string) lineKind {
	switch c := l[0]; {
	case c == '#':
		if isHeading(l) {
			return startsHeading
		}
	case c == '{':
		if strings.HasPrefix(l, "{%") {
			return startsTag
		}
		return startsParagraph
	case c == '`' || c == '~':
		if fenceRun(l) >= 3 {
			return startsFence
		}
		return startsParagraph
	case c == '$':
		if l == "$$" {
			return startsMath
		}
		if strings.TrimSpace(l) != "$$" {
			return startsParagraph
		}
	case c == '<':
		if isGitBookHTMLBlock(util.StringToReadOnlyBytes(l), 0) || !startsWithInlineTag(l) { // GitBook's first: no regular expression
			return startsHTML
		}
		return startsParagraph
	case c == '|':
		return startsTable
	case c == '>':
		return startsQuote
	case l == "***":
		return startsDivider
	case c == '*' || c == '-' || c == '+' || c >= '0' && c <= '9':
		if _, ok := readMarker(l); ok {
			return startsList
		}
		if c == '*' && !looksLikeMarker(l) && strings.Trim(l, "* ") != "" {
			return startsParagraph // emphasis
		}
		if c >= '0' && c <= '9' && !looksLikeMarker(l) {
			return startsParagraph
		}
	case c == ' ' || c == '\t' || c == '_' || c == '=':
	default:
		return startsParagraph
	}
	return startsUnread
}

// startsWithInlineTag says whether l starts with a tag Markdown writes inline (writtenTag) and
// then more than white space: no HTML block for CommonMark (these tags are no block's, and a
// line of type 7 is one tag alone), but text.
func startsWithInlineTag(l string) bool {
	raw, _, _ := writtenTag(l)
	return raw != "" && strings.Trim(l[len(raw):], " \t") != ""
}

// block reads the block starting at ls[i]: its nodes, and the index of the line after it.
func (q quickReader) block(ls []string, i int) ([]*Node, int) {
	a := q.c.a
	switch kindOf(ls[i]) {
	case startsParagraph:
		p, next := q.paragraph(ls, i, 0)
		return a.one(p), next
	case startsHeading:
		return a.one(q.heading(ls[i])), i + 1
	case startsTag:
		return q.tag(ls, i)
	case startsFence:
		return q.fence(ls, i)
	case startsMath:
		return q.math(ls, i)
	case startsHTML:
		return q.html(ls, i)
	case startsTable:
		return q.table(ls, i)
	case startsQuote:
		return q.quote(ls, i)
	case startsDivider:
		return a.one(a.block("divider", nil, nil)), i + 1
	case startsList:
		return q.list(ls, i)
	}
	giveUp()
	return nil, 0
}

// isHeading says whether l is an ATX heading: one to six "#", then a space or nothing.
func isHeading(l string) bool {
	level := strings.IndexFunc(l, func(r rune) bool { return r != '#' })
	if level < 0 {
		return len(l) <= 6
	}
	return level <= 6 && l[level] == ' '
}

func (q quickReader) heading(l string) *Node {
	level := strings.IndexByte(l, ' ')
	content := ""
	if level < 0 {
		level = len(l)
	} else {
		content = l[level+1:]
	}
	if content != "" && (isBlankByte(content[0]) || isBlankByte(content[len(content)-1]) || content[len(content)-1] == '#') {
		giveUp() // a closing sequence, or white space goldmark trims
	}
	return q.c.a.block(headingType(level), nil, q.inlines(content))
}

func isBlankByte(c byte) bool { return c == ' ' || c == '\t' }

// paragraph reads a paragraph from ls[i], its text from the byte skip of its first line on (after
// a task's box): its lines up to a blank one or one that starts another block.
func (q quickReader) paragraph(ls []string, i, skip int) (*Node, int) {
	next := i + 1
	for next < len(ls) && continuesParagraph(ls[next]) {
		next++
	}
	for _, l := range ls[i:next] {
		if isBlankByte(l[len(l)-1]) || next > i+1 && strings.IndexByte(l, '|') >= 0 {
			giveUp() // a line break of spaces, or a table after the paragraph's first line
		}
	}
	text := ls[i][skip:]
	if next > i+1 {
		text = strings.Join(append([]string{text}, ls[i+1:next]...), "\n")
	}
	if mayDefineLink(text) {
		giveUp()
	}
	return q.c.paragraphOf(q.inlines(text)), next
}

// continuesParagraph says whether l, after a paragraph's line, is another line of it rather than
// a blank line or the start of another block (or of what ends the container).
func continuesParagraph(l string) bool {
	if l == "" {
		return false
	}
	switch kindOf(l) {
	case startsParagraph:
		return true
	case startsHeading, startsFence, startsMath, startsQuote:
		return false
	case startsTag:
		if _, _, ok := readTag(util.StringToReadOnlyBytes(l)); ok || isEndTag(l) {
			return false
		}
	case startsHTML:
		if isGitBookHTMLBlock(util.StringToReadOnlyBytes(l), 0) {
			return false
		}
	case startsList:
		if m, _ := readMarker(l); m.bullet != 0 || m.start == 1 { // what may interrupt a paragraph
			return false
		}
	}
	giveUp()
	return false
}

// isEndTag says whether l is the end tag of some tag: it ends the tag block holding it, or
// another where the quick reader gives up.
func isEndTag(l string) bool {
	return strings.HasPrefix(string(tagName(util.StringToReadOnlyBytes(l))), "end")
}

// mayDefineLink says whether a paragraph's text may start with a link reference definition:
// a "[" whose first "]" not escaped is followed by ":".
func mayDefineLink(text string) bool {
	if text == "" || text[0] != '[' {
		return false
	}
	for i := 1; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case ']':
			return i+1 < len(text) && text[i+1] == ':'
		}
	}
	return false
}

// tag reads a tag block: a void tag's line, or a container's tag, blocks and end tag.
func (q quickReader) tag(ls []string, i int) ([]*Node, int) {
	head, container, ok := readTag(util.StringToReadOnlyBytes(ls[i]))
	if !ok || q.tags+1 >= maxTagDepth {
		giveUp()
	}
	if !container {
		return q.c.tagNodes(&head, func() []*Node { return nil }), i + 1
	}
	inner := q
	inner.tags++
	if g, ok := tagGroups[head.name]; ok {
		group, next := inner.group(ls, i, head.name, g)
		return q.c.a.one(group), next
	}
	body, end := inner.tagBody(ls, i, head.name)
	head.closed = true
	return q.c.tagNodes(&head, func() []*Node { return body }), end + 1
}

// tagBody reads the blocks of the tag block named name opened at ls[i], up to its end tag at end.
func (q quickReader) tagBody(ls []string, i int, name string) (blocks []*Node, end int) {
	blocks, end = q.blocks(ls, i+1, func(l string) bool {
		return strings.HasPrefix(l, "{%") && endsTag(util.StringToReadOnlyBytes(l), name)
	})
	if end == len(ls) {
		giveUp() // not closed
	}
	return blocks, end
}

// group reads a group of items (tabs, a stepper, columns) opened at ls[i]: nothing but its items'
// tag blocks up to its end tag; next is the index of the line after that.
func (q quickReader) group(ls []string, i int, name string, g tagGroup) (group *Node, next int) {
	start := q.c.a.open()
	j := i + 1
	for ; j < len(ls); j++ {
		l := ls[j]
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "{%") && endsTag(util.StringToReadOnlyBytes(l), name) {
			return q.c.group(name, q.c.a.close(start)), j + 1
		}
		head, container, ok := readTag(util.StringToReadOnlyBytes(l))
		if !ok || !container || head.name != g.itemTag || q.tags+1 >= maxTagDepth {
			giveUp() // blocks between the items
		}
		inner := q
		inner.tags++
		body, end := inner.tagBody(ls, j, head.name)
		q.c.a.push(q.c.item(name, g, &head, body))
		j = end
	}
	giveUp()
	return nil, 0
}

// fenceRun is the length of the run of backticks or tildes l starts with.
func fenceRun(l string) int {
	n := 0
	for n < len(l) && l[n] == l[0] {
		n++
	}
	return n
}

// fence reads a fenced code block: its fence and language, its lines, its fence again.
func (q quickReader) fence(ls []string, i int) ([]*Node, int) {
	l := ls[i]
	fence, lang := l[:fenceRun(l)], l[fenceRun(l):]
	for _, c := range []byte(lang) {
		if !isLanguageByte(c) {
			giveUp() // an info string to unescape or cut
		}
	}
	for j := i + 1; j < len(ls); j++ {
		switch line := ls[j]; {
		case line == fence:
			return q.c.a.one(q.c.codeLines(ls[i+1:j], lang)), j + 1
		case closesFence(line, fence):
			giveUp()
		}
	}
	giveUp() // not closed
	return nil, 0
}

func isLanguageByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_+#.-", c) >= 0
}

// closesFence says whether CommonMark would read l as closing a code block opened by fence.
func closesFence(l, fence string) bool {
	l = strings.TrimLeft(l, " ")
	run := fenceRun(l)
	return run >= len(fence) && l[0] == fence[0] && strings.Trim(l[run:], " \t") == ""
}

// math reads a math block: a "$$" line, the formula's lines and a "$$" line.
func (q quickReader) math(ls []string, i int) ([]*Node, int) {
	for j := i + 1; j < len(ls); j++ {
		if l := ls[j]; strings.TrimSpace(l) == "$$" {
			if l != "$$" {
				giveUp()
			}
			formula := strings.Join(ls[i+1:j], "\n")
			return q.c.a.one(q.c.a.block("math", map[string]any{"formula": formula}, nil)), j + 1
		}
	}
	giveUp()
	return nil, 0
}

// html reads the HTML blocks GitBook writes: a figure's line, or an expandable.
func (q quickReader) html(ls []string, i int) ([]*Node, int) {
	l := ls[i]
	switch {
	case strings.HasPrefix(l, figureTag):
		q.endsHTML(ls, i+1)
		return q.c.a.one(q.c.htmlText(l)), i + 1
	case l == string(detailsTag) && !q.expanded:
		return q.expandable(ls, i)
	}
	giveUp()
	return nil, 0
}

// endsHTML gives up unless the HTML block before ls[i] ends there: an HTML block runs up to a
// blank line, the end of its container, or the end tag of the tag holding it.
func (q quickReader) endsHTML(ls []string, i int) {
	if i < len(ls) && ls[i] != "" && !isEndTag(ls[i]) {
		giveUp()
	}
}

// expandable reads an expandable as Markdown writes it: `<details>`, `<summary>title</summary>`,
// its body's blocks and `</details>`, each HTML line apart by blank lines.
func (q quickReader) expandable(ls []string, i int) ([]*Node, int) {
	if i+3 >= len(ls) || ls[i+1] != "" || ls[i+3] != "" {
		giveUp()
	}
	title, ok := summaryLine(ls[i+2])
	if !ok {
		giveUp()
	}
	inner := q
	inner.expanded = true
	body, end := inner.blocks(ls, i+4, func(l string) bool { return l == string(detailsEnd) })
	if end == len(ls) {
		giveUp()
	}
	q.endsHTML(ls, end+1)
	return q.c.a.one(q.c.expandableNode(html.UnescapeString(title), body)), end + 1
}

// table reads a GFM table: its header row, its delimiter row and its rows, each a line between
// "|", up to a blank line or the end tag of the tag holding it.
func (q quickReader) table(ls []string, i int) ([]*Node, int) {
	if i+1 >= len(ls) {
		giveUp()
	}
	aligns := delimiterRowOf(ls[i+1])
	header := cellsOf(ls[i], len(aligns))
	end := i + 2
	for end < len(ls) && ls[end] != "" && !isEndTag(ls[end]) {
		end++
	}
	tb := q.c.newTable(len(aligns), end-i-2)
	for col, cell := range header {
		tb.column(col, util.BytesToReadOnlyString(plainOf(q.inlines(cell))), aligns[col])
	}
	for _, row := range ls[i+2 : end] {
		cells := cellsOf(row, len(aligns))
		tb.startRow(len(cells))
		for col, cell := range cells {
			tb.cell(col, q.inlines(cell))
		}
		tb.endRow()
	}
	return q.c.a.one(tb.done()), end
}

// cellsOf are the cells of a table's row of n columns, white space around them trimmed. As
// goldmark's table reads it, a "|" after a backslash is the cell's ("\\|" too); in a row with a code
// span goldmark unescapes it, where the quick reader gives up.
func cellsOf(row string, n int) []string {
	if len(row) < 2 || row[0] != '|' || row[len(row)-1] != '|' || strings.HasSuffix(row, `\|`) ||
		strings.IndexByte(row, '\t') >= 0 || strings.Contains(row, `\|`) && strings.IndexByte(row, '`') >= 0 {
		giveUp()
	}
	cells := splitCells(row[1 : len(row)-1])
	if len(cells) != n {
		giveUp()
	}
	for i, c := range cells {
		cells[i] = strings.Trim(c, " ")
	}
	return cells
}

// splitCells splits a row's text at each "|" not after a backslash.
func splitCells(s string) []string {
	if !strings.Contains(s, `\|`) {
		return strings.Split(s, "|")
	}
	var cells []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '|' && (i == 0 || s[i-1] != '\\') {
			cells, start = append(cells, s[start:i]), i+1
		}
	}
	return append(cells, s[start:])
}

// delimiterRowOf reads a table's delimiter row: its columns' alignments.
func delimiterRowOf(row string) []string {
	cells := cellsOf(row, strings.Count(row, "|")-1)
	aligns := make([]string, len(cells))
	for i, c := range cells {
		dashes := strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if dashes == "" || strings.Trim(dashes, "-") != "" {
			giveUp()
		}
		switch left, right := c[0] == ':', c[len(c)-1] == ':'; {
		case left && right:
			aligns[i] = "center"
		case right:
			aligns[i] = "right"
		default:
			aligns[i] = "left"
		}
	}
	return aligns
}

// quote reads a blockquote: lines "> …" or ">", up to a blank line or, after a ">", any other.
func (q quickReader) quote(ls []string, i int) ([]*Node, int) {
	var lines []string
	end := i
	for ; end < len(ls); end++ {
		l := ls[end]
		if strings.HasPrefix(l, "> ") && !strings.HasPrefix(l, "> \t") && strings.Trim(l[2:], " ") != "" {
			lines = append(lines, l[2:])
			continue
		}
		if l == ">" {
			lines = append(lines, "")
			continue
		}
		if l != "" && (l[0] == '>' || lines[len(lines)-1] != "" && !isEndTag(l)) {
			giveUp() // a line the quote's paragraph may take lazily
		}
		break
	}
	blocks, _ := q.blocks(lines, 0, nil)
	return q.c.a.one(q.c.a.block("blockquote", nil, q.c.fit(blocks, blockRules["blockquote"].children))), end
}

// marker is a list item's marker: a bullet, or a number and its delimiter.
type marker struct {
	bullet byte // '*', '-' or '+'; 0 for a number
	delim  byte // '.' or ')' after a number
	start  int  // the number
	width  int  // of the marker and the space after it: the indentation of the item's lines
}

// readMarker reads the marker of a line starting a list item with content: the marker, one
// space, and text that does not start with white space.
func readMarker(l string) (m marker, ok bool) {
	digits := 0
	for digits < len(l) && digits < 10 && l[digits] >= '0' && l[digits] <= '9' {
		digits++
	}
	switch {
	case digits == 0 && len(l) > 0 && strings.IndexByte("*-+", l[0]) >= 0:
		m.bullet, m.width = l[0], 2
	case digits > 0 && digits < 10 && digits < len(l) && (l[digits] == '.' || l[digits] == ')'):
		m.delim, m.width = l[digits], digits+2
		m.start, _ = strconv.Atoi(l[:digits])
	default:
		return m, false
	}
	return m, len(l) > m.width && l[m.width-1] == ' ' && !isBlankByte(l[m.width])
}

// looksLikeMarker says whether l starts with what CommonMark may read as a list item's marker:
// a bullet or a number and its delimiter, then white space or nothing.
func looksLikeMarker(l string) bool {
	end := 1
	if l[0] >= '0' && l[0] <= '9' {
		end = strings.IndexFunc(l, func(r rune) bool { return r < '0' || r > '9' })
		if end < 0 || l[end] != '.' && l[end] != ')' {
			return false
		}
		end++
	}
	return end >= len(l) || isBlankByte(l[end])
}

// sameList says whether an item of marker m continues the list of first.
func sameList(first, m marker) bool { return m.bullet == first.bullet && m.delim == first.delim }

// listItem is one item of a list being read: its lines, without its indentation, and its task's
// box (' ' or 'x'; 0 for none).
type listItem struct {
	lines []string
	box   byte
}

// list reads a list: items of the same marker, each its first line's text and the lines indented
// by its marker's width, up to a line at the list's own indentation that starts no item of it.
func (q quickReader) list(ls []string, i int) ([]*Node, int) {
	first, _ := readMarker(ls[i])
	var items []listItem
	next := i
	for {
		m, ok := readMarker(ls[next])
		if !ok || !sameList(first, m) {
			giveUp()
		}
		item, end, blanks := q.itemLines(ls, next, m)
		items = append(items, item)
		next = end
		if end == len(ls) {
			break
		}
		if m, ok := readMarker(ls[end]); ok && sameList(first, m) {
			continue
		}
		if blanks == 0 && !isEndTag(ls[end]) {
			giveUp() // a line the item's paragraph may take lazily
		}
		break
	}
	return q.c.a.one(q.listNode(first, items)), next
}

// itemLines reads the lines of the item starting at ls[i] with marker m: end is the index of the
// first line after it not indented by the marker's width, blanks how many blank lines come before
// that one.
func (q quickReader) itemLines(ls []string, i int, m marker) (item listItem, end, blanks int) {
	text := ls[i][m.width:]
	if m.bullet != 0 && len(text) > 4 && (strings.HasPrefix(text, "[ ] ") || strings.HasPrefix(text, "[x] ")) &&
		!isBlankByte(text[4]) {
		item.box = text[1]
	} else if len(text) > 2 && text[0] == '[' && text[2] == ']' && strings.IndexByte(" \txX", text[1]) >= 0 {
		giveUp() // a box in another form, or in an ordered list
	}
	buf := q.lineBuf
	first := len(*buf)
	*buf = append(*buf, text)
	defer func() { item.lines = (*buf)[first:len(*buf):len(*buf)] }()
	indent := strings.Repeat(" ", m.width)
	for end = i + 1; end < len(ls); end++ {
		l := ls[end]
		if l == "" {
			blanks++
			continue
		}
		if strings.Trim(l, " \t") == "" {
			giveUp() // goldmark keeps a blank line's white space in a code block
		}
		if !strings.HasPrefix(l, indent) {
			if isBlankByte(l[0]) {
				giveUp()
			}
			return item, end, blanks
		}
		if blanks > 1 || l[m.width] == '\t' {
			giveUp()
		}
		for ; blanks > 0; blanks-- {
			*buf = append(*buf, "")
		}
		*buf = append(*buf, l[m.width:])
	}
	return item, end, blanks
}

// listNode converts a list's items.
func (q quickReader) listNode(first marker, items []listItem) *Node {
	typ, data := "list-unordered", map[string]any(nil)
	if first.bullet == 0 {
		typ = "list-ordered"
		if first.start != 1 {
			data = map[string]any{"start": first.start}
		}
	}
	if slices.ContainsFunc(items, func(it listItem) bool { return it.box != 0 }) {
		for _, it := range items {
			if kindOf(it.lines[0]) != startsParagraph && it.box == 0 {
				giveUp() // goldmark reads the boxes as text
			}
		}
		typ = "list-tasks"
	}
	a := q.c.a
	start := a.open()
	for _, it := range items {
		item := a.block("list-item", nil, q.c.fit(q.itemBlocks(it), listItemKids))
		if typ == "list-tasks" {
			item.Data = map[string]any{"checked": it.box == 'x'}
		}
		a.push(item)
	}
	return a.block(typ, data, a.close(start))
}

// itemBlocks reads the blocks of a list item; a task's first paragraph starts after its box.
func (q quickReader) itemBlocks(it listItem) []*Node {
	if it.box == 0 {
		blocks, _ := q.blocks(it.lines, 0, nil)
		return blocks
	}
	a := q.c.a
	start := a.open()
	p, next := q.paragraph(it.lines, 0, 4)
	a.push(p)
	rest, _ := q.blocks(it.lines, next, nil)
	a.push(rest...)
	return a.close(start)
}
