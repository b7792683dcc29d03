package htmlpage

import (
	"strconv"
	"strings"

	"github.com/binderyhq/bindery/internal/apiref"
	"github.com/binderyhq/bindery/internal/document"
)

// Operations gives what a page's OpenAPI blocks point at (internal/openapispecs.PageSpecs: the
// latest processed version of the organization's spec).
type Operations interface {
	// Operation returns the operation or webhook, or the notice readers see instead of it: the
	// spec or the operation missing, the spec not processed yet.
	Operation(ref document.OpenAPIRef) (*apiref.Operation, string)
	// Schemas returns the schemas of an openapi-schemas block, or the notice readers see.
	Schemas(ref document.OpenAPIRef) ([]*apiref.Schema, string)
}

// operation writes an API operation block: a section with the method and path, the summary and
// description, the parameters by location, the request body and each response (their schemas as
// nested lists, objects collapsible, cycles named rather than expanded), their examples and a
// curl sample; a visible notice when there is no operation to show.
func (w *writer) operation(n *document.Node) {
	ref, _ := document.OpenAPIRefOf(n)
	if w.inOperation { // a description holding an OpenAPI block: not expanded again
		return
	}
	var op *apiref.Operation
	notice := noOperations
	if w.ops != nil {
		op, notice = w.ops.Operation(ref)
	}
	if op == nil {
		w.notice(strings.ToUpper(ref.Method)+" "+ref.Path+ref.Name, notice)
		return
	}
	w.inOperation = true
	defer func() { w.inOperation = false }()
	w.operations++
	id := "op:" + strconv.Itoa(w.operations)
	w.b.WriteString(`<section class="api-operation" aria-labelledby="` + id + `"><p class="api-title" id="` + id + `">` +
		`<span class="api-method" data-method="` + escape(strings.ToLower(op.Method)) + `">` + escape(op.Method) + "</span> ")
	if op.Webhook != "" {
		w.b.WriteString(`<span class="api-webhook">Webhook</span> <code class="api-path">` + escape(op.Webhook) + "</code>")
	} else {
		w.b.WriteString(`<code class="api-path">` + escape(op.Path) + "</code>")
	}
	if op.Deprecated {
		w.b.WriteString(` <span class="api-deprecated">Deprecated</span>`)
	}
	w.b.WriteString("</p>\n")
	if op.Summary != "" {
		w.b.WriteString(`<p class="api-summary">` + escape(op.Summary) + "</p>\n")
	}
	w.markdownText(op.Description)
	w.parameters(op.Parameters)
	if body := op.RequestBody; body != nil {
		w.b.WriteString(`<h4 class="api-heading">Request body`)
		if body.Required {
			w.b.WriteString(` <span class="api-required">required</span>`)
		}
		w.b.WriteString("</h4>\n")
		w.markdownText(body.Description)
		w.contents(body.Content, true)
	}
	w.responses(op.Responses)
	if op.Webhook == "" {
		w.b.WriteString(`<h4 class="api-heading">Example request</h4>` + "\n")
		w.codeText("bash", "curl", op.Curl())
	}
	w.b.WriteString("</section>\n")
}

// noOperations is the notice of an OpenAPI block where the page is rendered without what they
// point at.
const noOperations = "OpenAPI blocks are shown on published sites."

// notice writes a visible notice of an OpenAPI block that shows nothing, about what: the
// reference's spec or operation missing, or not processed yet.
func (w *writer) notice(what, notice string) {
	w.b.WriteString(`<div class="hint api-notice" data-style="warning" role="note"><p class="hint-label">OpenAPI</p><p>` +
		escape(strings.TrimSpace(what)) + ": " + escape(notice) + "</p></div>\n")
}

// openAPISchemas writes an openapi-schemas block: each schema, titled "The <name> object", as an
// expandable, the first open.
func (w *writer) openAPISchemas(n *document.Node) {
	ref, _ := document.OpenAPIRefOf(n)
	if w.inOperation {
		return
	}
	var schemas []*apiref.Schema
	notice := noOperations
	if w.ops != nil {
		schemas, notice = w.ops.Schemas(ref)
	}
	if schemas == nil {
		w.notice(strings.Join(ref.Schemas, ", "), notice)
		return
	}
	w.inOperation = true
	defer func() { w.inOperation = false }()
	w.b.WriteString(`<section class="api-operation api-schemas" aria-label="Schemas">` + "\n")
	for i, s := range schemas {
		w.b.WriteString(`<details class="expandable api-response"`)
		if i == 0 {
			w.b.WriteString(" open")
		}
		w.b.WriteString("><summary>The " + escape(s.Name) + " object</summary>\n<div class=\"api-schema\">")
		w.schema(s)
		w.b.WriteString("</div>\n</details>\n")
	}
	w.b.WriteString("</section>\n")
}

// markdownText writes a description of the document, Markdown, as the page's blocks are written
// (escaped, links checked).
func (w *writer) markdownText(md string) {
	switch {
	case strings.TrimSpace(md) == "":
	case plainMarkdown(md):
		w.b.WriteString("<p>" + escape(md) + "</p>\n") // as Markdown writes it, without parsing it
	default:
		w.blocks(document.FromMarkdown(md).Nodes)
	}
}

// plainMarkdown says whether Markdown is one paragraph of plain text: one line, starting with
// none of the characters that start a block, holding none of those of inline syntax, entities
// and GitBook's math.
func plainMarkdown(md string) bool {
	return !strings.ContainsAny(md, "\n\\`*_[]<>!&~$") && !strings.ContainsAny(md[:1], " \t-+#>|{=0123456789") &&
		md == strings.TrimSpace(md)
}

// codeText writes text as a code block of the page.
func (w *writer) codeText(syntax, title, text string) {
	var lines []*document.Node
	for l := range strings.SplitSeq(text, "\n") {
		lines = append(lines, document.Block("code-line", nil, document.Text(document.NewLeaf(l))))
	}
	data := map[string]any{"syntax": syntax}
	if title != "" {
		data["title"] = title
	}
	w.code(document.Block("code", data, lines...))
}

// parameters writes the parameters as a table per location.
func (w *writer) parameters(params []apiref.Parameter) {
	for _, in := range []string{"path", "query", "header", "cookie"} {
		var these []apiref.Parameter
		for _, p := range params {
			if p.In == in {
				these = append(these, p)
			}
		}
		if len(these) == 0 {
			continue
		}
		w.b.WriteString(`<h4 class="api-heading">` + parameterHeadings[in] + "</h4>\n" +
			`<div class="table"><table class="api-parameters"><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead><tbody>` + "\n")
		for _, p := range these {
			w.b.WriteString("<tr><td><code>" + escape(p.Name) + "</code>")
			if p.Required {
				w.b.WriteString(` <span class="api-required">required</span>`)
			}
			w.b.WriteString("</td><td>" + escape(typeText(p.Schema)) + "</td><td>")
			w.markdownText(p.Description)
			w.schemaFacts(p.Schema)
			w.b.WriteString("</td></tr>\n")
		}
		w.b.WriteString("</tbody></table></div>\n")
	}
}

var parameterHeadings = map[string]string{"path": "Path parameters", "query": "Query parameters",
	"header": "Headers", "cookie": "Cookies"}

// responses writes each response as an expandable, the first open.
func (w *writer) responses(responses []apiref.Response) {
	if len(responses) == 0 {
		return
	}
	w.b.WriteString(`<h4 class="api-heading">Responses</h4>` + "\n")
	for i, r := range responses {
		w.b.WriteString(`<details class="expandable api-response"`)
		if i == 0 {
			w.b.WriteString(" open")
		}
		w.b.WriteString(`><summary><span class="api-status">` + escape(r.Status) + "</span> " +
			escape(firstLine(r.Description)) + "</summary>\n")
		if strings.TrimSpace(r.Description) != firstLine(r.Description) {
			w.markdownText(r.Description)
		}
		w.contents(r.Content, false)
		w.b.WriteString("</details>\n")
	}
}

// firstLine is a description's first line, for a summary.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// contents writes a body's media types: each schema and its example (the first media type's
// only, when the others share its schema).
func (w *writer) contents(content []apiref.Media, request bool) {
	for i, m := range content {
		if i > 0 && m.Schema == content[0].Schema {
			continue
		}
		w.b.WriteString(`<p class="api-media"><code>` + escape(m.Type) + "</code></p>\n")
		if m.Schema != nil {
			w.b.WriteString(`<div class="api-schema">`)
			w.schema(m.Schema)
			w.b.WriteString("</div>\n")
		}
		if m.Example != "" {
			title := "Example response"
			if request {
				title = "Example request body"
			}
			w.codeText("json", title, m.Example)
		}
	}
}

// schema writes a schema: its type and facts, then an object's properties (or an array's items'
// properties) as a list, collapsible past the first level, and its variants.
func (w *writer) schema(s *apiref.Schema) {
	w.b.WriteString(`<p class="api-type">` + escape(typeText(s)) + "</p>")
	w.markdownText(s.Description)
	w.schemaFacts(s)
	w.schemaParts(s)
}

// schemaParts writes what a schema holds: properties, items, variants.
func (w *writer) schemaParts(s *apiref.Schema) {
	holder := s
	for holder.Items != nil && len(holder.Properties) == 0 && len(holder.Variants) == 0 {
		holder = holder.Items
	}
	if len(holder.Properties) > 0 {
		w.b.WriteString(`<ul class="api-properties">`)
		for _, p := range holder.Properties {
			w.property(p)
		}
		w.b.WriteString("</ul>\n")
	}
	if len(holder.Variants) > 0 {
		w.b.WriteString(`<p class="api-variants">` + combinatorText[holder.Combinator] + "</p><ol class=\"api-variants\">")
		for _, v := range holder.Variants {
			w.b.WriteString("<li>")
			if v != nil {
				w.schema(v)
			}
			w.b.WriteString("</li>")
		}
		w.b.WriteString("</ol>\n")
	}
}

var combinatorText = map[string]string{"oneOf": "One of:", "anyOf": "Any of:", "allOf": "All of:"}

// property writes a property: name, type, required; its description; what it holds in an
// expandable.
func (w *writer) property(p apiref.Property) {
	s := p.Schema
	if s == nil {
		s = &apiref.Schema{}
	}
	head := `<code class="api-name">` + escape(p.Name) + `</code> <span class="api-type">` + escape(typeText(s)) + "</span>"
	if p.Required {
		head += ` <span class="api-required">required</span>`
	}
	w.b.WriteString("<li>")
	if holds(s) {
		w.b.WriteString(`<details class="api-property"><summary>` + head + "</summary>")
		w.markdownText(s.Description)
		w.schemaFacts(s)
		w.schemaParts(s)
		w.b.WriteString("</details>")
	} else {
		w.b.WriteString(head)
		w.markdownText(s.Description)
		w.schemaFacts(s)
	}
	w.b.WriteString("</li>\n")
}

// holds says whether a schema has properties or variants, its own or its items'.
func holds(s *apiref.Schema) bool {
	for ; s != nil; s = s.Items {
		if len(s.Properties) > 0 || len(s.Variants) > 0 {
			return true
		}
	}
	return false
}

// schemaFacts writes what a schema says of its values: enum, default, example, read-only, and
// why it is not expanded.
func (w *writer) schemaFacts(s *apiref.Schema) {
	if s == nil {
		return
	}
	var facts []string
	if len(s.Enum) > 0 {
		facts = append(facts, "Possible values: <code>"+escape(strings.Join(s.Enum, ", "))+"</code>")
	}
	if s.Default != "" {
		facts = append(facts, "Default: <code>"+escape(s.Default)+"</code>")
	}
	if s.Example != "" {
		facts = append(facts, "Example: <code>"+escape(s.Example)+"</code>")
	}
	if s.ReadOnly {
		facts = append(facts, "Read-only")
	}
	if s.WriteOnly {
		facts = append(facts, "Write-only")
	}
	if s.Deprecated {
		facts = append(facts, "Deprecated")
	}
	if cut := cutText(innermost(s)); cut != "" {
		facts = append(facts, escape(cut))
	}
	if len(facts) > 0 {
		w.b.WriteString(`<p class="api-facts">` + strings.Join(facts, " · ") + "</p>")
	}
}

// innermost is the items of the items… of an array schema, the schema itself for another.
func innermost(s *apiref.Schema) *apiref.Schema {
	for s.Items != nil {
		s = s.Items
	}
	return s
}

// cutText says why a schema is not expanded.
func cutText(s *apiref.Schema) string {
	switch s.Cut {
	case "cycle":
		return "Recursive: " + s.Name + " is described above."
	case "missing":
		return "Its definition " + s.Name + " is missing from the specification."
	case "depth", "size":
		return "Not expanded: the schema is too large to show."
	}
	return ""
}

// typeText is a schema's type as a reference shows it: "string · date-time", "array of Pet",
// the component's name for an object.
func typeText(s *apiref.Schema) string {
	if s == nil {
		return ""
	}
	switch {
	case s.Type == "array" || s.Items != nil && s.Type == "":
		return "array of " + typeText(s.Items)
	case s.Name != "" && (s.Type == "object" || s.Type == "" || s.Cut != ""):
		return s.Name
	case s.Type == "" && s.Combinator != "":
		return strings.TrimSuffix(strings.ToLower(combinatorText[s.Combinator]), ":")
	}
	t := s.Type
	if s.Format != "" {
		t += " · " + s.Format
	}
	if t == "" {
		return "any"
	}
	return t
}
