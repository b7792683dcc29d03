package document

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// A reusable-content block places a reusable content of the same space. In Markdown it is GitBook's
// include tag, `{% include "<path>" %}`: Git Sync writes the path of the content's file under
// .gitbook/includes/, and the Markdown Bindery stores names the content by id,
// `{% include "/reusable-contents/<id>" %}`, as it names pages "/pages/<id>" (decision 391).

// reusablePrefix starts the include path of a reusable content named by id.
const reusablePrefix = "/reusable-contents/"

// ReusableBlock returns a reusable-content block placing the reusable content id.
func ReusableBlock(id string) *Node {
	return Block("reusable-content", map[string]any{"ref": map[string]any{"kind": "reusable-content", "reusableContent": id}})
}

// ReusableID is the id of the reusable content a reusable-content block places, "" when it
// names none.
func ReusableID(n *Node) string {
	ref, _ := n.Data["ref"].(map[string]any)
	return str(ref, "reusableContent")
}

// IncludePath is the path of the include tag that places the reusable content id.
func IncludePath(id string) string { return reusablePrefix + url.PathEscape(id) }

// includeMarkdown writes a reusable-content block as an include tag.
func includeMarkdown(n *Node) string {
	return fmt.Sprintf(`{%% include "%s" %%}`, IncludePath(ReusableID(n)))
}

// IncludedID is the id an include tag's path names, ok false for a path that names none by id.
func IncludedID(path string) (string, bool) {
	escaped, ok := strings.CutPrefix(path, reusablePrefix)
	if !ok || escaped == "" || strings.Contains(escaped, "/") {
		return "", false
	}
	id, err := url.PathUnescape(escaped)
	return id, err == nil && id != ""
}

// MayPlace reports whether Markdown may place reusable content: false when it has no include tag,
// so a caller can skip reading it as a document.
func MayPlace(markdown string) bool { return strings.Contains(markdown, "include") }

// checkReusableRef checks the ref of a reusable-content block: a reusable content of the same
// space, by id.
func checkReusableRef(path string, n *Node) error {
	ref, _ := n.Data["ref"].(map[string]any)
	switch {
	case str(ref, "kind") != "reusable-content" || ReusableID(n) == "":
		return fmt.Errorf("%s: data.ref of a reusable-content must be a reusable-content reference with its reusableContent id", path)
	case ref["space"] != nil:
		return fmt.Errorf("%s: data.ref.space: reusable content of another space is not supported", path)
	}
	return nil
}

// Placed returns the ids of the reusable contents the blocks of doc place (top level and in
// expandables, where the model allows them), in order, each once.
func Placed(doc *Document) []string {
	var ids []string
	seen := map[string]bool{}
	walkPlaces(doc.Nodes, func(n *Node) {
		if id := ReusableID(n); id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	})
	return ids
}

// walkPlaces calls fn for each reusable-content block among nodes and the bodies of their
// expandables.
func walkPlaces(nodes []*Node, fn func(*Node)) {
	for _, n := range nodes {
		switch n.Type {
		case "reusable-content":
			fn(n)
		case "expandable":
			for _, f := range n.Fragments {
				walkPlaces(f.Nodes, fn)
			}
		}
	}
}

// Dereference returns doc with each reusable-content block replaced by the blocks of the document
// contents gives for its id (the reference's dereferenced=reusable-contents). A block whose
// content contents does not have, one met again inside its own content, and one in an expandable
// whose content holds blocks an expandable may not, are replaced by what missing returns for
// them, or stay when missing is nil. doc is not changed: it may be shared. Without placed
// content, doc itself is returned.
func Dereference(doc *Document, contents map[string]*Document, missing func(id string) []*Node) *Document {
	if len(Placed(doc)) == 0 {
		return doc
	}
	d := dereferencer{contents: contents, missing: missing, open: map[string]bool{}}
	out := *doc
	out.Nodes = d.nodes(doc.Nodes, topLevel)
	return &out
}

// MissingNotice is a warning hint saying that the reusable content a page places is missing, for
// Markdown readers.
func MissingNotice(string) []*Node {
	return []*Node{Block("hint", map[string]any{"style": "warning"},
		heap.paragraph(heap.textNodes("This reusable content is missing: it was deleted or is not available.")))}
}

type dereferencer struct {
	contents map[string]*Document
	missing  func(id string) []*Node
	open     map[string]bool // the contents being placed, to stop at a cycle
}

func (d dereferencer) nodes(nodes []*Node, allowed []string) []*Node {
	out := make([]*Node, 0, len(nodes))
	for _, n := range nodes {
		switch {
		case n.Type == "reusable-content":
			out = append(out, d.place(n, allowed)...)
		case n.Type == "expandable" && len(n.Fragments) > 0:
			c := *n
			c.Fragments = make([]*Node, len(n.Fragments))
			for i, f := range n.Fragments {
				fc := *f
				fc.Nodes = d.nodes(f.Nodes, expandKids)
				c.Fragments[i] = &fc
			}
			out = append(out, &c)
		default:
			out = append(out, n)
		}
	}
	return out
}

// place returns the blocks that stand for a reusable-content block.
func (d dereferencer) place(n *Node, allowed []string) []*Node {
	id := ReusableID(n)
	content := d.contents[id]
	switch {
	case content != nil && !d.open[id] && allAllowed(content.Nodes, allowed):
		d.open[id] = true
		defer delete(d.open, id)
		return d.nodes(content.Nodes, allowed)
	case d.missing != nil:
		return d.missing(id)
	}
	return []*Node{n}
}

// allAllowed reports whether every node's type is among allowed.
func allAllowed(nodes []*Node, allowed []string) bool {
	for _, n := range nodes {
		if !slices.Contains(allowed, n.Type) {
			return false
		}
	}
	return true
}
