// Package document is the reference's JSON document model of page content (JSONDocument: blocks,
// inlines, text leaves with marks) and its conversion to and from GitBook-flavoured Markdown, the
// encoding Bindery stores. Data in, data out.
//
// One generic Node stands for every node of the model rather than a Go type per schema type (the
// reference has some sixty): the schema's types differ only in their `type`, the keys of their
// `data` and which children they allow, so one struct with the support table (support.go) holding
// those rules keeps walking, validating and marshalling in one place each.
//
// `key` is the reference editor's identity of a node, optional in the schema. Markdown carries no
// keys: documents made from Markdown have none, and a document's keys do not survive a trip
// through Markdown.
package document

import "encoding/json"

// The values of `object`.
const (
	ObjectDocument = "document"
	ObjectBlock    = "block"
	ObjectInline   = "inline"
	ObjectText     = "text"
	ObjectFragment = "fragment"
	objectLeaf     = "leaf"
	objectMark     = "mark"
)

// Document is the reference's JSONDocument.
type Document struct {
	Object string         `json:"object"`
	Data   map[string]any `json:"data"`
	Nodes  []*Node        `json:"nodes"`
}

// Node is a block, an inline, a text or a fragment. Which fields it carries on the wire depends on
// its object and type (MarshalJSON): a text has leaves; a block or inline has data, isVoid and,
// unless void, nodes; the blocks whose content lives in fragments (image, expandable, table) have
// fragments; a fragment has its name and nodes.
type Node struct {
	Object    string         `json:"object"`
	Type      string         `json:"type,omitempty"`
	Key       string         `json:"key,omitempty"`
	Fragment  string         `json:"fragment,omitempty"`
	Data      map[string]any `json:"data,omitempty"`
	Nodes     []*Node        `json:"nodes,omitempty"`
	Fragments []*Node        `json:"fragments,omitempty"`
	Leaves    []Leaf         `json:"leaves,omitempty"`
	IsVoid    bool           `json:"isVoid,omitempty"`
}

// Leaf is a run of text with the same marks.
type Leaf struct {
	Object string `json:"object"`
	Text   string `json:"text"`
	Marks  []Mark `json:"marks"`
}

// Mark is a formatting of a leaf's text.
type Mark struct {
	Object string         `json:"object"`
	Type   string         `json:"type"`
	Data   map[string]any `json:"data,omitempty"`
}

// New returns a document of the blocks.
func New(blocks ...*Node) *Document {
	if blocks == nil {
		blocks = []*Node{}
	}
	return &Document{Object: ObjectDocument, Data: map[string]any{}, Nodes: blocks}
}

// Block returns a block of the type; void for the types the support table says are.
func Block(typ string, data map[string]any, nodes ...*Node) *Node {
	return heap.block(typ, data, nodes)
}

// Inline returns an inline of the type; void for the types the support table says are.
func Inline(typ string, data map[string]any, nodes ...*Node) *Node {
	return heap.inline(typ, data, nodes)
}

// Fragment returns a fragment named name holding the blocks.
func Fragment(name string, blocks ...*Node) *Node {
	return &Node{Object: ObjectFragment, Fragment: name, Type: name, Nodes: blocks}
}

// Text returns a text of the leaves.
func Text(leaves ...Leaf) *Node {
	return &Node{Object: ObjectText, Leaves: leaves}
}

// NewLeaf returns a leaf of text with marks of the types (a color mark as "color <text> <background>").
func NewLeaf(text string, marks ...string) Leaf {
	l := Leaf{Object: objectLeaf, Text: text, Marks: make([]Mark, 0, len(marks))}
	for _, m := range marks {
		l.Marks = append(l.Marks, markOfKey(m))
	}
	return l
}

// MarshalJSON writes the fields the reference's schema has for the node's object and type: every
// array it requires present even when empty, and data always an object.
func (n *Node) MarshalJSON() ([]byte, error) {
	type wire struct {
		Object    string          `json:"object"`
		Type      string          `json:"type,omitempty"`
		Key       string          `json:"key,omitempty"`
		Fragment  string          `json:"fragment,omitempty"`
		Data      *map[string]any `json:"data,omitempty"`
		Leaves    *[]Leaf         `json:"leaves,omitempty"`
		Nodes     *[]*Node        `json:"nodes,omitempty"`
		Fragments *[]*Node        `json:"fragments,omitempty"`
		IsVoid    *bool           `json:"isVoid,omitempty"`
	}
	w := wire{Object: n.Object, Type: n.Type, Key: n.Key, Fragment: n.Fragment}
	switch n.Object {
	case ObjectText:
		w.Leaves = nonNil(n.Leaves)
	case ObjectFragment:
		w.Nodes = nonNil(n.Nodes)
	default:
		data := n.Data
		if data == nil {
			data = map[string]any{}
		}
		w.Data, w.IsVoid = &data, &n.IsVoid
		if !n.IsVoid {
			w.Nodes = nonNil(n.Nodes)
		}
		if n.Fragments != nil {
			w.Fragments = &n.Fragments
		}
	}
	return json.Marshal(w)
}

func nonNil[T any](s []T) *[]T {
	if s == nil {
		s = []T{}
	}
	return &s
}
