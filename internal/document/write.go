package document

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Markdown writes a document as GitBook-flavoured Markdown, as GitBook's Git Sync writes it:
// blocks apart by a blank line, "*" bullets, `{% tag %}` blocks, `<details>` expandables and
// `<figure>` images. Validate says which documents it can write; it writes others as best it can.
func Markdown(doc *Document) string {
	if s := blocksMarkdown(doc.Nodes); s != "" {
		return s + "\n"
	}
	return ""
}

// blocksMarkdown writes blocks apart by a blank line.
func blocksMarkdown(blocks []*Node) string {
	var parts []string
	alt := false
	for i := range blocks {
		var s string
		s, alt = listAware(blocks, i, alt)
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

// listAware writes blocks[i], with the other markers when it is a list right after a list
// written with the same ones (prevAlt says whether the block before used the other markers).
func listAware(blocks []*Node, i int, prevAlt bool) (string, bool) {
	if i > 0 && adjacentLists(blocks[i-1], blocks[i]) && !prevAlt {
		return listMarkdownAlt(blocks[i]), true
	}
	return blockMarkdown(blocks[i]), false
}

// adjacentLists says whether b is a list right after a list Markdown would join it to: two lists
// of bullets, or two ordered lists. Such a list is written with the other marker ("-" or ")").
func adjacentLists(prev, b *Node) bool {
	kind := func(n *Node) string {
		switch n.Type {
		case "list-unordered", "list-tasks":
			return "bullets"
		case "list-ordered":
			return "numbers"
		}
		return ""
	}
	return kind(b) != "" && kind(prev) == kind(b)
}

// blockMarkdown writes one block, without a final line ending.
func blockMarkdown(b *Node) string {
	switch b.Type {
	case "paragraph":
		return inlineMarkdown(b.Nodes, inBlock)
	case "heading-1", "heading-2", "heading-3":
		marker := strings.Repeat("#", int(b.Type[len(b.Type)-1]-'0')+1)
		if s := inlineMarkdown(b.Nodes, inHeading); s != "" {
			return marker + " " + s
		}
		return marker
	case "divider":
		return "***"
	case "code":
		return codeMarkdown(b)
	case "math":
		return "$$\n" + str(b.Data, "formula") + "\n$$"
	case "blockquote":
		return prefixLines(blocksMarkdown(b.Nodes), "> ", ">")
	case "list-ordered", "list-unordered", "list-tasks":
		return listMarkdown(b)
	case "hint":
		return tag("hint", b.Nodes, attr{"style", str(b.Data, "style")})
	case "tabs", "stepper", "columns":
		return itemsMarkdown(b)
	case "images":
		return imagesMarkdown(b)
	case "expandable":
		return expandableMarkdown(b)
	case "table":
		return tableMarkdown(b)
	case "content-ref":
		dest, _ := refDest(b.Data)
		return fmt.Sprintf("{%% content-ref url=\"%s\" %%}\n[%s](%s)\n{%% endcontent-ref %%}", escapeAttr(dest),
			escapeText(dest, inBlock, false), escapeDest(dest))
	case "openapi-operation", "swagger", "openapi-webhook", "openapi-schemas":
		return openAPIMarkdown(b)
	case "if":
		if inner := blocksMarkdown(b.Nodes); inner != "" {
			return ifOpen(b) + "\n" + inner + "\n" + ifClose
		}
		return ifOpen(b) + "\n" + ifClose
	case "embed":
		return fmt.Sprintf(`{%% embed url="%s" %%}`, escapeAttr(str(b.Data, "url")))
	case "file":
		dest, _ := refDest(b.Data)
		return fmt.Sprintf(`{%% file src="%s" %%}`, escapeAttr(dest))
	case "reusable-content":
		return includeMarkdown(b)
	}
	return blocksMarkdown(b.Nodes)
}

// openAPIMarkdown writes an OpenAPI block as GitBook does: by the spec's slug with its name as the
// body, and swagger as `{% openapi %}` (GitBook's newer name for the block) by its document's
// URL or file with a link to it as the body.
func openAPIMarkdown(b *Node) string {
	ref, _ := OpenAPIRefOf(b)
	spec := attr{"spec", ref.Spec}
	body := "OpenAPI " + escapeText(ref.Spec, inBlock, false)
	var attrs []attr
	switch b.Type {
	case "swagger":
		spec, body = attr{"src", ref.Spec}, "["+escapeText(ref.Spec, inBlock, false)+"]("+escapeDest(ref.Spec)+")"
		attrs = []attr{{"path", ref.Path}, {"method", ref.Method}}
	case "openapi-operation":
		attrs = []attr{{"path", ref.Path}, {"method", ref.Method}}
	case "openapi-webhook":
		attrs = []attr{{"name", ref.Name}, {"method", ref.Method}}
	case "openapi-schemas":
		attrs = []attr{{"schemas", strings.Join(ref.Schemas, ",")}}
		if g, ok := b.Data["grouped"].(bool); ok {
			attrs = append(attrs, attr{"grouped", fmt.Sprint(g)})
		}
	}
	name := b.Type
	if name == "swagger" {
		name = "openapi"
	}
	return tagOpening(name, append([]attr{spec}, attrs...)) + "\n" + body + "\n{% end" + name + " %}"
}

type attr struct{ name, value string }

// tag writes a GitBook tag block around blocks.
func tag(name string, blocks []*Node, attrs ...attr) string {
	open := tagOpening(name, attrs) + "\n"
	if inner := blocksMarkdown(blocks); inner != "" {
		open += inner + "\n"
	}
	return open + "{% end" + name + " %}"
}

// tagOpening is a tag's opening line.
func tagOpening(name string, attrs []attr) string {
	open := "{% " + name
	for _, a := range attrs {
		open += fmt.Sprintf(` %s="%s"`, a.name, escapeAttr(a.value))
	}
	return open + " %}"
}

// htmlEscapes are the characters GitBook writes as character references in HTML text and
// attribute values.
var htmlEscapes = strings.NewReplacer("&", "&#x26;", "<", "&#x3C;", `"`, "&#x22;")

// escapeHTML escapes s for HTML text or a double-quoted attribute value, as GitBook does.
func escapeHTML(s string) string { return htmlEscapes.Replace(s) }

// escapeAttr writes a tag attribute's value: HTML-escaped, which the parser undoes, so that no
// quote ends it and no "%}" ends the tag.
func escapeAttr(s string) string {
	return strings.ReplaceAll(escapeHTML(s), "%}", "&#37;}")
}

// itemsMarkdown writes tabs, a stepper or columns: each item a tag, a blank line between them.
func itemsMarkdown(b *Node) string {
	itemTag := map[string]string{"tabs": "tab", "stepper": "step", "columns": "column"}[b.Type]
	var items []string
	for _, item := range b.Nodes {
		var attrs []attr
		if title, ok := item.Data["title"].(string); ok && b.Type == "tabs" {
			attrs = append(attrs, attr{"title", title})
		}
		items = append(items, tag(itemTag, item.Nodes, attrs...))
	}
	return "{% " + b.Type + " %}\n" + strings.Join(items, "\n\n") + "\n{% end" + b.Type + " %}"
}

func codeMarkdown(b *Node) string {
	var lines []string
	for _, l := range b.Nodes {
		lines = append(lines, plainText(l.Nodes))
	}
	code := strings.Join(lines, "\n")
	fence := strings.Repeat("`", max(3, longestRun(code, '`')+1))
	s := fence + str(b.Data, "syntax") + "\n"
	if len(lines) > 0 {
		s += code + "\n"
	}
	s += fence
	var attrs []string
	if title := str(b.Data, "title"); title != "" {
		attrs = append(attrs, fmt.Sprintf(`title="%s"`, escapeAttr(title)))
	}
	if str(b.Data, "overflow") == "wrap" {
		attrs = append(attrs, `overflow="wrap"`)
	}
	if on, _ := b.Data["lineNumbers"].(bool); on {
		attrs = append(attrs, `lineNumbers="true"`)
	}
	if len(attrs) == 0 {
		return s
	}
	return "{% code " + strings.Join(attrs, " ") + " %}\n" + s + "\n{% endcode %}"
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// plainText is the text of texts' leaves, without marks.
func plainText(nodes []*Node) string {
	var b strings.Builder
	for _, n := range nodes {
		for _, l := range n.Leaves {
			b.WriteString(l.Text)
		}
	}
	return b.String()
}

// prefixLines prefixes each line of s, blank ones with blank.
func prefixLines(s, prefix, blank string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = blank
		} else {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

func listMarkdown(b *Node) string { return listWithMarkers(b, "*", ".") }

// listMarkdownAlt writes a list with the markers GitBook does not use, which start another list.
func listMarkdownAlt(b *Node) string { return listWithMarkers(b, "-", ")") }

func listWithMarkers(b *Node, bullet, delim string) string {
	start := 1
	if f, ok := number(b.Data["start"]); ok {
		start = f
	}
	var items []string
	for i, item := range b.Nodes {
		marker := bullet
		switch b.Type {
		case "list-ordered":
			marker = fmt.Sprintf("%d%s", start+i, delim)
		case "list-tasks":
			marker = bullet + " [ ]"
			if on, _ := item.Data["checked"].(bool); on {
				marker = bullet + " [x]"
			}
		}
		items = append(items, listItemMarkdown(marker, item.Nodes))
	}
	return strings.Join(items, "\n")
}

// number reads a JSON number, which is a float64 once decoded and an int when built here.
func number(v any) (int, bool) {
	switch v := v.(type) {
	case int:
		return v, true
	case float64:
		return int(v), true
	}
	return 0, false
}

// listItemMarkdown writes an item: its blocks after the marker, indented by the marker's width; a
// paragraph followed by a list tight, as GitBook writes nested lists.
func listItemMarkdown(marker string, blocks []*Node) string {
	var s string
	alt := false
	for i, b := range blocks {
		var part string
		part, alt = listAware(blocks, i, alt)
		if part == "" {
			continue
		}
		if s != "" {
			sep := "\n\n"
			if blocks[i-1].Type == "paragraph" && isList(b) {
				sep = "\n"
			}
			s += sep
		}
		s += part
	}
	indent := strings.Repeat(" ", utf8.RuneCountInString(marker)+1)
	if strings.HasSuffix(marker, "]") {
		indent = "  "
	}
	if s == "" {
		return marker
	}
	return marker + " " + prefixLines(s, indent, "")[len(indent):]
}

// isList says whether b is a list that can start right below a paragraph line (an ordered list
// only when it starts at 1).
func isList(b *Node) bool {
	start, ok := number(b.Data["start"])
	return b.Type == "list-unordered" || b.Type == "list-tasks" || b.Type == "list-ordered" && (!ok || start == 1)
}

func imagesMarkdown(b *Node) string {
	var figures []string
	for _, img := range b.Nodes {
		dest, _ := refDest(img.Data)
		caption := ""
		for _, f := range img.Fragments {
			if f.Fragment == "caption" {
				for _, p := range f.Nodes {
					caption += plainText(p.Nodes)
				}
			}
		}
		if caption != "" {
			caption = "<p>" + escapeHTML(caption) + "</p>"
		}
		figures = append(figures, fmt.Sprintf(`<figure><img src="%s" alt="%s"><figcaption>%s</figcaption></figure>`,
			escapeHTML(dest), escapeHTML(str(img.Data, "alt")), caption))
	}
	return strings.Join(figures, "\n\n")
}

func expandableMarkdown(b *Node) string {
	var title string
	var body []*Node
	for _, f := range b.Fragments {
		switch f.Fragment {
		case "expandable-title":
			for _, p := range f.Nodes {
				title += plainText(p.Nodes)
			}
		case "expandable-body":
			body = f.Nodes
		}
	}
	s := "<details>\n\n<summary>" + escapeHTML(title) + "</summary>\n\n"
	if inner := blocksMarkdown(body); inner != "" {
		s += inner + "\n\n"
	}
	return s + "</details>"
}

// tableMarkdown writes a table as a GFM table, columns padded to their width as GitBook's writer
// pads them.
func tableMarkdown(b *Node) string {
	view, _ := b.Data["view"].(map[string]any)
	definition, _ := b.Data["definition"].(map[string]any)
	columns, _ := view["columns"].([]any)
	cells := map[string]string{}
	for _, f := range b.Fragments {
		var paras []string
		for _, p := range f.Nodes {
			paras = append(paras, inlineMarkdown(p.Nodes, inTable))
		}
		cells[f.Fragment] = strings.Join(paras, "<br>")
	}
	header := make([]string, len(columns))
	aligns := make([]string, len(columns))
	for i, col := range columns {
		def, _ := definition[fmt.Sprint(col)].(map[string]any)
		header[i] = escapeText(str(def, "title"), inTable, false)
		aligns[i] = str(def, "textAlignment")
	}
	rows := [][]string{header}
	for _, rec := range sortedRecords(b.Data) {
		values, _ := rec["values"].(map[string]any)
		row := make([]string, len(columns))
		for i, col := range columns {
			if frag, ok := values[fmt.Sprint(col)].(string); ok {
				row[i] = cells[frag]
			}
		}
		rows = append(rows, row)
	}
	return gfmTable(rows, aligns)
}

func sortedRecords(data map[string]any) []map[string]any {
	records, _ := data["records"].(map[string]any)
	var out []map[string]any
	for _, r := range records {
		if rec, ok := r.(map[string]any); ok {
			out = append(out, rec)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return str(out[i], "orderIndex") < str(out[j], "orderIndex") })
	return out
}

func gfmTable(rows [][]string, aligns []string) string {
	widths := make([]int, len(aligns))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], 3, utf8.RuneCountInString(cell))
		}
	}
	var lines []string
	for r, row := range rows {
		lines = append(lines, tableRow(row, widths))
		if r == 0 {
			lines = append(lines, delimiterRow(aligns, widths))
		}
	}
	return strings.Join(lines, "\n")
}

func tableRow(row []string, widths []int) string {
	cells := slices.Clone(row)
	for i, c := range cells {
		cells[i] = c + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
	}
	return "| " + strings.Join(cells, " | ") + " |"
}

func delimiterRow(aligns []string, widths []int) string {
	cells := make([]string, len(aligns))
	for i, a := range aligns {
		switch a {
		case "center":
			cells[i] = ":" + strings.Repeat("-", widths[i]-2) + ":"
		case "right":
			cells[i] = strings.Repeat("-", widths[i]-1) + ":"
		default:
			cells[i] = strings.Repeat("-", widths[i])
		}
	}
	return "| " + strings.Join(cells, " | ") + " |"
}
