package document

import "fmt"

// What readers of a document (the published sites' renderer) need of its nodes, in the shapes
// the Markdown encoding gives them.

// Str is data's string at key, "" when it has none.
func Str(data map[string]any, key string) string { return str(data, key) }

// Flag is data's boolean at key, false when it has none.
func Flag(data map[string]any, key string) bool {
	on, _ := data[key].(bool)
	return on
}

// Int is data's number at key (an int when built in Go, a float64 once decoded from JSON); ok is
// false when it has none.
func Int(data map[string]any, key string) (int, bool) { return number(data[key]) }

// RefKind is the kind of data's ref ("url", "page", "anchor", "file", "space"), "" when it has none.
func RefKind(data map[string]any) string { return refKind(data) }

// RefDest is data's ref written as a stored body writes a link: "/pages/<id>[#anchor]",
// "#anchor", "/files/<id>", "/spaces/<id>" or the URL; ok is false when it has none.
func RefDest(data map[string]any) (dest string, ok bool) { return refDest(data) }

// RefID is the id data's ref names for its kind (the page of a page or anchor reference, the
// file, the space), "" for a URL or none.
func RefID(data map[string]any) string {
	ref, _ := data["ref"].(map[string]any)
	switch kind := str(ref, "kind"); kind {
	case "page", "file", "space":
		return str(ref, kind)
	case "anchor":
		return str(ref, "page")
	}
	return ""
}

// FragmentOf is n's fragment of the name, nil when it has none.
func FragmentOf(n *Node, name string) *Node {
	for _, f := range n.Fragments {
		if f.Fragment == name {
			return f
		}
	}
	return nil
}

// TableColumn is a column of a table: its header and how its cells align.
type TableColumn struct {
	Title string
	Align string // "left", "center" or "right"
}

// Table reads a table block: its columns in order, whether its header is hidden, and its rows in
// order, each cell the blocks of its fragment (nil for an empty cell).
func Table(n *Node) (columns []TableColumn, hideHeader bool, rows [][][]*Node) {
	view, _ := n.Data["view"].(map[string]any)
	definition, _ := n.Data["definition"].(map[string]any)
	ids, _ := view["columns"].([]any)
	hideHeader, _ = view["hideHeader"].(bool)
	for _, id := range ids {
		def, _ := definition[fmt.Sprint(id)].(map[string]any)
		columns = append(columns, TableColumn{Title: str(def, "title"), Align: str(def, "textAlignment")})
	}
	for _, rec := range sortedRecords(n.Data) {
		values, _ := rec["values"].(map[string]any)
		row := make([][]*Node, len(ids))
		for i, id := range ids {
			if name, ok := values[fmt.Sprint(id)].(string); ok {
				if f := FragmentOf(n, name); f != nil {
					row[i] = f.Nodes
				}
			}
		}
		rows = append(rows, row)
	}
	return columns, hideHeader, rows
}

// OpenAPIRef is what an OpenAPI block points at in a spec: an operation (openapi-operation,
// swagger), a webhook (openapi-webhook) or schemas (openapi-schemas).
type OpenAPIRef struct {
	// Spec names the spec: its slug, or the URL or "/files/<id>" of its document (swagger,
	// GitBook's older block).
	Spec  string
	BySrc bool   // Spec is a swagger block's URL or file rather than a slug
	Path  string // of an operation
	Name  string // of a webhook
	// Method is as written, of an operation or a webhook; specs name methods in lower case.
	Method  string
	Schemas []string // the schemas of an openapi-schemas block, nil for another
}

// OpenAPIRefOf reads an OpenAPI block; ok is false for another node.
func OpenAPIRefOf(n *Node) (ref OpenAPIRef, ok bool) {
	switch n.Type {
	case "openapi-operation", "openapi-webhook", "openapi-schemas":
		ref.Spec = specSlug(n.Data)
	case "swagger":
		ref.Spec, _ = refDest(n.Data)
		ref.BySrc = true
	default:
		return ref, false
	}
	ref.Path, ref.Name, ref.Method = str(n.Data, "path"), str(n.Data, "name"), str(n.Data, "method")
	if n.Type == "openapi-schemas" {
		ref.Schemas = schemaNames(n.Data)
	}
	return ref, true
}

// OpenAPIRefs are the OpenAPI blocks of a document, in order. The model has them at the top
// level only.
func OpenAPIRefs(doc *Document) []OpenAPIRef {
	var refs []OpenAPIRef
	for _, n := range doc.Nodes {
		if ref, ok := OpenAPIRefOf(n); ok {
			refs = append(refs, ref)
		}
	}
	return refs
}

// schemaNames are data's schemas, [] when it has none.
func schemaNames(data map[string]any) []string {
	names := []string{}
	switch list := data["schemas"].(type) {
	case []string:
		names = append(names, list...)
	case []any:
		for _, v := range list {
			s, _ := v.(string)
			names = append(names, s)
		}
	}
	return names
}

// specSlug is the spec an openapi reference names, "" when data has none.
func specSlug(data map[string]any) string {
	ref, _ := data["ref"].(map[string]any)
	return str(ref, "spec")
}
