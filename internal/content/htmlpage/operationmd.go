package htmlpage

import (
	"regexp"
	"strings"

	"github.com/binderyhq/bindery/internal/apiref"
	"github.com/binderyhq/bindery/internal/document"
)

// MarkdownWith is Markdown with each OpenAPI block (`{% openapi-operation %}`, `{% openapi %}`,
// `{% swagger %}`, `{% openapi-webhook %}`, `{% openapi-schemas %}`, outside code) replaced by
// what it points at in Markdown, or by the notice readers see instead.
func MarkdownWith(src string, links Links, ops Operations) string {
	md := Markdown(src, links)
	if ops == nil || !strings.Contains(md, "{%") {
		return md
	}
	lines := strings.SplitAfter(md, "\n")
	var b strings.Builder
	fence := ""
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if fence = fenceAfter(fence, line); fence == "" {
			if end, ref, ok := operationTag(lines, i); ok {
				b.WriteString(openAPIMarkdown(ref, ops))
				i = end
				continue
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

var (
	fenceLine    = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	operationTop = regexp.MustCompile(`^\{%\s*(openapi-operation|openapi-webhook|openapi-schemas|openapi|swagger)\s`)
)

// fenceAfter is the code fence open after line ("" for none), given the one open before it.
func fenceAfter(open, line string) string {
	m := fenceLine.FindStringSubmatch(line)
	switch {
	case m == nil:
		return open
	case open == "":
		return m[1]
	case m[1][0] == open[0] && len(m[1]) >= len(open) && strings.TrimSpace(line[len(m[0]):]) == "":
		return ""
	}
	return open
}

// operationTag reads the OpenAPI tag block starting at lines[i]: the index of its end line and
// what it points at; ok is false when lines[i] starts none the document model reads as one.
func operationTag(lines []string, i int) (end int, ref document.OpenAPIRef, ok bool) {
	m := operationTop.FindStringSubmatch(lines[i])
	if m == nil {
		return 0, ref, false
	}
	for end = i + 1; end < len(lines); end++ {
		if strings.TrimSpace(lines[end]) == "{% end"+m[1]+" %}" {
			break
		}
	}
	if end == len(lines) {
		return 0, ref, false
	}
	doc := document.FromMarkdown(strings.Join(lines[i:end+1], ""))
	if len(doc.Nodes) == 0 {
		return 0, ref, false
	}
	ref, ok = document.OpenAPIRefOf(doc.Nodes[0])
	return end, ref, ok
}

// openAPIMarkdown is what an OpenAPI block points at, as Markdown.
func openAPIMarkdown(ref document.OpenAPIRef, ops Operations) string {
	if ref.Schemas == nil {
		return operationMarkdown(ref, ops)
	}
	schemas, notice := ops.Schemas(ref)
	if schemas == nil {
		return "> " + mdCell(strings.Join(ref.Schemas, ", ")+": "+notice) + "\n"
	}
	var b strings.Builder
	for _, s := range schemas {
		b.WriteString("#### The " + mdCell(s.Name) + " object\n\n")
		mdContents(&b, s.Description, []apiref.Media{{Type: "application/json", Schema: s}})
	}
	return b.String()
}

// operationMarkdown is an operation as Markdown: a heading of its method and path, its summary
// and description, its parameters as a table, its bodies' schemas as nested lists with their
// examples, and the curl sample.
func operationMarkdown(ref document.OpenAPIRef, ops Operations) string {
	op, notice := ops.Operation(ref)
	if op == nil {
		return "> " + mdCell(strings.ToUpper(ref.Method)+" "+ref.Path+ref.Name+": "+notice) + "\n"
	}
	var b strings.Builder
	if op.Webhook != "" {
		b.WriteString("### Webhook `" + op.Method + " " + mdCode(op.Webhook) + "`\n\n")
	} else {
		b.WriteString("### `" + op.Method + " " + mdCode(op.Path) + "`\n\n")
	}
	if op.Deprecated {
		b.WriteString("*Deprecated.*\n\n")
	}
	for _, s := range []string{op.Summary, op.Description} {
		if s = strings.TrimSpace(s); s != "" {
			b.WriteString(s + "\n\n")
		}
	}
	if len(op.Parameters) > 0 {
		b.WriteString("#### Parameters\n\n| Name | In | Type | Required | Description |\n| --- | --- | --- | --- | --- |\n")
		for _, p := range op.Parameters {
			b.WriteString("| `" + mdCode(p.Name) + "` | " + p.In + " | " + mdCell(typeText(p.Schema)) + " | " +
				yesNo(p.Required) + " | " + mdCell(p.Description) + " |\n")
		}
		b.WriteString("\n")
	}
	if body := op.RequestBody; body != nil {
		b.WriteString("#### Request body\n\n")
		mdContents(&b, body.Description, body.Content)
	}
	if len(op.Responses) > 0 {
		b.WriteString("#### Responses\n\n")
		for _, r := range op.Responses {
			b.WriteString("##### " + mdCell(r.Status) + "\n\n")
			mdContents(&b, r.Description, r.Content)
		}
	}
	if op.Webhook == "" {
		b.WriteString("#### Example request\n\n```bash\n" + op.Curl() + "\n```\n")
	}
	return b.String()
}

func mdContents(b *strings.Builder, description string, content []apiref.Media) {
	if d := strings.TrimSpace(description); d != "" {
		b.WriteString(d + "\n\n")
	}
	for i, m := range content {
		if i > 0 && m.Schema == content[0].Schema {
			continue
		}
		b.WriteString("`" + mdCode(m.Type) + "`: " + mdCell(typeText(m.Schema)) + "\n\n")
		if n := mdProperties(b, m.Schema, 0); n > 0 {
			b.WriteString("\n")
		}
		if m.Example != "" {
			fence := strings.Repeat("`", max(3, longestBackticks(m.Example)+1))
			b.WriteString(fence + "json\n" + m.Example + "\n" + fence + "\n\n")
		}
	}
}

// mdProperties writes a schema's properties as a nested list; it returns how many it wrote.
func mdProperties(b *strings.Builder, s *apiref.Schema, depth int) int {
	for s != nil && s.Items != nil && len(s.Properties) == 0 {
		s = s.Items
	}
	if s == nil {
		return 0
	}
	props := s.Properties
	for _, v := range s.Variants {
		if v != nil && s.Combinator == "allOf" {
			props = append(props, v.Properties...)
		}
	}
	for _, p := range props {
		line := strings.Repeat("  ", depth) + "* `" + mdCode(p.Name) + "` (" + mdCell(typeText(p.Schema))
		if p.Required {
			line += ", required"
		}
		line += ")"
		if p.Schema != nil && p.Schema.Description != "" {
			line += ": " + mdCell(p.Schema.Description)
		}
		b.WriteString(line + "\n")
		if p.Schema != nil && p.Schema.Cut == "" {
			mdProperties(b, p.Schema, depth+1)
		}
	}
	return len(props)
}

// mdCell is text on one line of Markdown, pipes escaped for a table's cell.
func mdCell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}

// mdCode is text for a code span: on one line, without backticks.
func mdCode(s string) string { return strings.ReplaceAll(mdCell(s), "`", "'") }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func longestBackticks(s string) int {
	best, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}
