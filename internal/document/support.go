package document

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// rule is what the support table says of one node type.
type rule struct {
	supported bool
	void      bool     // the reference's isVoid: no nodes of its own
	fragments bool     // its content lives in fragments (image captions, expandables, table cells)
	children  []string // the node types it may hold (text as "text"), when supported and not void
}

// The groups of children the reference's schemas repeat, restricted to the supported types.
var (
	inlineContent = []string{ObjectText, "link", "inline-math", "inline-image", "expression", "icon", "emoji", "mention"}
	essentials    = []string{"paragraph", "heading-1", "heading-2", "heading-3", "list-ordered", "list-unordered", "list-tasks", "divider"}
	listItemKids  = with(essentials, "code", "hint", "blockquote", "math", "table")
	tabKids       = with(essentials, "content-ref", "code", "embed", "file", "images", "hint", "blockquote", "math")
	expandKids    = with(essentials, "file", "images", "code", "table", "hint", "blockquote", "reusable-content")
	columnKids    = with(essentials, "images", "code", "hint", "content-ref", "embed", "file", "math", "blockquote", "table", "expandable", "stepper")
	topLevel      = with(essentials, "blockquote", "hint", "images", "file", "embed", "code", "math", "expandable", "tabs", "table", "content-ref", "stepper", "columns", "swagger", "openapi-operation", "openapi-webhook",
		"openapi-schemas", "reusable-content", "if")
)

func with(base []string, more ...string) []string { return slices.Concat(base, more) }

// blockRules is every block type of the reference's schema (DocumentBlock): the supported ones with
// their rules, the others refused by Validate.
var blockRules = map[string]rule{
	"paragraph":      {supported: true, children: inlineContent},
	"heading-1":      {supported: true, children: inlineContent},
	"heading-2":      {supported: true, children: inlineContent},
	"heading-3":      {supported: true, children: inlineContent},
	"list-ordered":   {supported: true, children: []string{"list-item"}},
	"list-unordered": {supported: true, children: []string{"list-item"}},
	"list-tasks":     {supported: true, children: []string{"list-item"}},
	"list-item":      {supported: true, children: listItemKids},
	"divider":        {supported: true, void: true},
	"blockquote":     {supported: true, children: with(essentials, "blockquote")},
	"hint":           {supported: true, children: with(essentials, "embed", "table")},
	"images":         {supported: true, children: []string{"image"}},
	"image":          {supported: true, void: true, fragments: true},
	"file":           {supported: true, void: true},
	"embed":          {supported: true, void: true},
	"code":           {supported: true, children: []string{"code-line"}},
	"code-line":      {supported: true, children: []string{ObjectText}},
	"math":           {supported: true, void: true},
	"expandable":     {supported: true, void: true, fragments: true},
	"tabs":           {supported: true, children: []string{"tabs-item"}},
	"tabs-item":      {supported: true, children: tabKids},
	"table":          {supported: true, void: true, fragments: true},
	"content-ref":    {supported: true, void: true},
	"stepper":        {supported: true, children: []string{"stepper-step"}},
	"stepper-step":   {supported: true, children: with(tabKids, "expandable")},
	"columns":        {supported: true, children: []string{"column"}},
	"column":         {supported: true, children: columnKids},
	// An API operation, webhook or schemas of one of the organization's OpenAPI specs, by slug,
	// or an operation of a spec's URL or file (swagger, GitBook's older block; Bindery reads it
	// as the organization's spec of that slug or source URL).
	"swagger":           {supported: true, void: true},
	"openapi-operation": {supported: true, void: true},
	"openapi-webhook":   {supported: true, void: true},
	"openapi-schemas":   {supported: true, void: true},

	"reusable-content": {supported: true, void: true},
	"if":               {supported: true, children: topLevel},

	"prompt":      {void: false},
	"drawing":     {void: true},
	"integration": {void: true},
	"updates":     {},
	"update":      {},
}

// inlineRules is every inline type of the reference's schema (DocumentInline).
var inlineRules = map[string]rule{
	"link":         {supported: true, children: []string{ObjectText, "inline-image"}},
	"inline-math":  {supported: true, void: true},
	"inline-image": {supported: true, void: true},

	"emoji":      {supported: true, void: true},
	"icon":       {supported: true, void: true},
	"expression": {supported: true, void: true},
	"annotation": {},
	"mention":    {supported: true, void: true},
	"button":     {void: true},
}

// markRules is every mark type of the reference's schema (DocumentTextMark): true when supported.
var markRules = map[string]bool{
	"bold": true, "italic": true, "strikethrough": true, "code": true,
	"keyboard": true, "superscript": true, "subscript": true, "color": true,
}

// fragmentKids are the blocks each named fragment may hold; a table's cells are fragments named by
// their id, which hold paragraphs.
var fragmentKids = map[string][]string{
	"caption":          {"paragraph"},
	"expandable-title": {"paragraph"},
	"expandable-body":  expandKids,
}

// Validate returns an error naming the first node of doc that Bindery does not support, or that
// sits where the reference's schema does not allow it, with its JSON path in the document
// ("nodes[3].nodes[0]: block type \"drawing\" is not supported").
func Validate(doc *Document) error {
	if doc == nil || doc.Object != ObjectDocument {
		return fmt.Errorf(`object: want "document"`)
	}
	return validateNodes("nodes", doc.Nodes, topLevel)
}

func validateNodes(path string, nodes []*Node, allowed []string) error {
	for i, n := range nodes {
		p := fmt.Sprintf("%s[%d]", path, i)
		if n == nil {
			return fmt.Errorf("%s: null node", p)
		}
		if err := validateNode(p, n, allowed); err != nil {
			return err
		}
	}
	return nil
}

func validateNode(path string, n *Node, allowed []string) error {
	var r rule
	switch n.Object {
	case ObjectText:
		if !slices.Contains(allowed, ObjectText) {
			return fmt.Errorf("%s: text is not allowed here", path)
		}
		return validateLeaves(path, n.Leaves)
	case ObjectBlock:
		r = blockRules[n.Type]
	case ObjectInline:
		r = inlineRules[n.Type]
	default:
		return fmt.Errorf("%s: object %q is not a block, an inline or a text", path, n.Object)
	}
	if err := typeSupported(path, n, r, allowed); err != nil {
		return err
	}
	if err := checkData(path, n); err != nil {
		return err
	}
	if !r.void {
		if err := validateNodes(path+".nodes", n.Nodes, r.children); err != nil {
			return err
		}
	}
	return validateFragments(path, n)
}

// typeSupported says whether the node's type is known, supported and allowed where it is.
func typeSupported(path string, n *Node, r rule, allowed []string) error {
	known := blockRules
	if n.Object == ObjectInline {
		known = inlineRules
	}
	if _, ok := known[n.Type]; !ok {
		return fmt.Errorf("%s: unknown %s type %q", path, n.Object, n.Type)
	}
	if !r.supported {
		return fmt.Errorf("%s: %s type %q is not supported", path, n.Object, n.Type)
	}
	if !slices.Contains(allowed, n.Type) {
		return fmt.Errorf("%s: %s type %q is not allowed here", path, n.Object, n.Type)
	}
	if n.IsVoid != r.void {
		return fmt.Errorf("%s: isVoid of %s must be %t", path, n.Type, r.void)
	}
	return nil
}

func validateLeaves(path string, leaves []Leaf) error {
	for i, l := range leaves {
		for j, m := range l.Marks {
			supported, known := markRules[m.Type]
			p := fmt.Sprintf("%s.leaves[%d].marks[%d]", path, i, j)
			switch {
			case !known:
				return fmt.Errorf("%s: unknown mark type %q", p, m.Type)
			case !supported:
				return fmt.Errorf("%s: mark type %q is not supported", p, m.Type)
			case m.Type == colorMark:
				if err := checkColor(p, m); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func validateFragments(path string, n *Node) error {
	for i, f := range n.Fragments {
		p := fmt.Sprintf("%s.fragments[%d]", path, i)
		kids, ok := fragmentKids[f.Fragment]
		if n.Type == "table" {
			kids, ok = fragmentKids["caption"], f.Fragment != ""
		}
		if f.Object != ObjectFragment || !ok {
			return fmt.Errorf("%s: fragment %q is not one of a %s", p, f.Fragment, n.Type)
		}
		if err := validateNodes(p+".nodes", f.Nodes, kids); err != nil {
			return err
		}
	}
	return nil
}

// checkData checks the data the Markdown encoding needs of a node.
func checkData(path string, n *Node) error {
	switch n.Type {
	case "link", "content-ref":
		if _, ok := refDest(n.Data); !ok {
			return fmt.Errorf("%s: data.ref of a %s must be a url, page, anchor, file or space reference", path, n.Type)
		}
	case "image", "inline-image":
		if kind := refKind(n.Data); kind != "url" && kind != "file" {
			return fmt.Errorf("%s: data.ref of an %s must be a url or file reference", path, n.Type)
		}
	case "file":
		if refKind(n.Data) != "file" {
			return fmt.Errorf("%s: data.ref of a file must be a file reference", path)
		}
	case "hint":
		if !slices.Contains(hintStyles, str(n.Data, "style")) {
			return fmt.Errorf("%s: data.style of a hint must be one of %v", path, hintStyles)
		}
	case "embed":
		if str(n.Data, "url") == "" {
			return fmt.Errorf("%s: data.url of an embed is required", path)
		}
	case "swagger", "openapi-operation", "openapi-webhook", "openapi-schemas":
		return checkOpenAPI(path, n)
	case "reusable-content":
		return checkReusableRef(path, n)
	case "if", "expression":
		return checkExpression(path, n)
	case "icon":
		return checkIcon(path, n.Data)
	case "emoji":
		return checkEmoji(path, n.Data)
	case "mention":
		if !mentionKinds[refKind(n.Data)] {
			return fmt.Errorf("%s: data.ref of a mention must be a page, anchor, file or space reference", path)
		}
	case "math", "inline-math":
		if _, ok := n.Data["formula"].(string); !ok {
			return fmt.Errorf("%s: data.formula of a %s is required", path, n.Type)
		}
	}
	return nil
}

// checkOpenAPI checks what an OpenAPI block points at: its spec (a slug, or for swagger a URL or
// file), and a path and method (operations), a name and method (webhooks) or schema names.
func checkOpenAPI(path string, n *Node) error {
	if n.Type == "swagger" {
		if _, ok := refDest(n.Data); !ok || refKind(n.Data) != "url" && refKind(n.Data) != "file" {
			return fmt.Errorf("%s: data.ref of a swagger must be a url or file reference", path)
		}
	} else if refKind(n.Data) != "openapi" || specSlug(n.Data) == "" {
		return fmt.Errorf("%s: data.ref of an %s must be an openapi reference with a spec", path, n.Type)
	}
	switch n.Type {
	case "openapi-webhook":
		if str(n.Data, "name") == "" || str(n.Data, "method") == "" {
			return fmt.Errorf("%s: data.name and data.method of an openapi-webhook are required", path)
		}
	case "openapi-schemas":
		return checkSchemaNames(path, n.Data)
	default:
		if str(n.Data, "path") == "" || str(n.Data, "method") == "" {
			return fmt.Errorf("%s: data.path and data.method of a %s are required", path, n.Type)
		}
	}
	return nil
}

// checkSchemaNames checks an openapi-schemas block's schemas: one or more names, none empty or
// holding the comma its Markdown separates them with.
func checkSchemaNames(path string, data map[string]any) error {
	names := schemaNames(data)
	if len(names) == 0 || slices.ContainsFunc(names, func(s string) bool { return s == "" || strings.Contains(s, ",") }) {
		return fmt.Errorf("%s: data.schemas of an openapi-schemas must name schemas, without commas", path)
	}
	if g, ok := data["grouped"]; ok {
		if _, isBool := g.(bool); !isBool {
			return fmt.Errorf("%s: data.grouped of an openapi-schemas must be a boolean", path)
		}
	}
	return nil
}

var hintStyles = []string{"info", "success", "warning", "danger"}

// str is data's string at key, "" when it has none.
func str(data map[string]any, key string) string {
	s, _ := data[key].(string)
	return s
}

// iconName is what an icon may be called: GitBook's icon names ("gear", "circle-check").
var iconName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,49}$`)

// textColors are the reference's DocumentTextColor.
var textColors = []string{"default", "green", "blue", "red", "orange", "yellow", "purple", "pink", "violet", "cyan",
	"$primary", "$info", "$success", "$warning", "$danger", "$tint"}

func checkIcon(path string, data map[string]any) error {
	if !iconName.MatchString(str(data, "icon")) {
		return fmt.Errorf("%s: data.icon of an icon must be an icon name (a-z, 0-9 and -, at most 50)", path)
	}
	if color, ok := data["color"]; ok && !slices.Contains(textColors, fmt.Sprint(color)) {
		return fmt.Errorf("%s: data.color of an icon must be one of %v", path, textColors)
	}
	return nil
}
