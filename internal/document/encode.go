package document

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
)

// Decode reads a document a client sent as JSON. A field the reference's model does not have is
// refused, not dropped, and so is a document Validate refuses; errors name the JSON path.
func Decode(raw []byte) (*Document, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var doc Document
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("is not a JSON document: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("is not a JSON document: data after the document")
	}
	if err := Validate(&doc); err != nil {
		return nil, err
	}
	return &doc, nil
}

// MarkdownOf is the Markdown that stores a document a client sent, given as a JSON value (as
// GraphQL's JSON scalar decodes it, or a json.RawMessage): Decode, then Encode.
func MarkdownOf(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("is not a JSON document: %v", err)
	}
	doc, err := Decode(raw)
	if err != nil {
		return "", err
	}
	return Encode(doc)
}

// Encode returns the Markdown that stores doc, or an error naming the first part of doc that the
// Markdown would not give back (a data field it has no syntax for, say), so that what a client
// writes is what it reads. The document is compared in the form FromMarkdown writes: without keys
// (package doc), texts joined, leaves of the same marks joined and marks in one order.
func Encode(doc *Document) (string, error) {
	if err := Validate(doc); err != nil {
		return "", err
	}
	md := Markdown(doc)
	want, err := comparable(&Document{Object: doc.Object, Data: doc.Data, Nodes: normalized(doc.Nodes)})
	if err != nil {
		return "", err
	}
	got, err := comparable(FromMarkdown(md))
	if err != nil {
		return "", err
	}
	if path, ok := firstDifference("", want, got); !ok {
		return "", fmt.Errorf("%s: cannot be stored as written (Bindery keeps pages as GitBook Markdown, which has no form for it)", path)
	}
	return md, nil
}

// comparable is the document as generic JSON values, as its wire form has it.
func comparable(doc *Document) (any, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var v any
	return v, json.Unmarshal(raw, &v)
}

// normalized copies nodes in the form FromMarkdown writes them: no keys, consecutive texts one
// text, consecutive leaves of the same marks one leaf, empty leaves and texts dropped, marks in
// markOrder.
func normalized(nodes []*Node) []*Node {
	var out []*Node
	for _, n := range nodes {
		if n.Object != ObjectText {
			c := *n
			c.Key = ""
			c.Nodes, c.Fragments = normalized(n.Nodes), normalized(n.Fragments)
			if n.Fragments != nil && c.Fragments == nil {
				c.Fragments = []*Node{}
			}
			out = append(out, &c)
			continue
		}
		var prev *Node
		if len(out) > 0 && out[len(out)-1].Object == ObjectText {
			prev = out[len(out)-1]
		}
		if merged := joinLeaves(prev, n.Leaves); prev == nil && len(merged.Leaves) > 0 {
			out = append(out, merged)
		}
	}
	return out
}

// joinLeaves adds copies of leaves to text (a new text when nil), joining runs of the same marks.
func joinLeaves(text *Node, leaves []Leaf) *Node {
	if text == nil {
		text = Text()
	}
	for _, l := range leaves {
		if l.Text == "" {
			continue
		}
		marks := markTypes(l.Marks)
		if last := len(text.Leaves) - 1; last >= 0 && slices.Equal(markTypes(text.Leaves[last].Marks), marks) {
			text.Leaves[last].Text += l.Text
			continue
		}
		text.Leaves = append(text.Leaves, NewLeaf(l.Text, marks...))
	}
	return text
}

// markTypes are the keys of marks (markKey) in the order sortMarks gives, each once.
func markTypes(marks []Mark) []string {
	var types []string
	for _, m := range marks {
		types = append(types, markKey(m))
	}
	return sortMarks(types)
}

// firstDifference returns the path of the first place where got is not want, depth first in the
// document's order.
func firstDifference(path string, want, got any) (string, bool) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return path, false
		}
		for _, k := range unionKeys(w, g) {
			if p, same := firstDifference(join(path, k), w[k], g[k]); !same {
				return p, false
			}
		}
		return "", true
	case []any:
		g, ok := got.([]any)
		if !ok {
			return path, false
		}
		for i := range max(len(w), len(g)) {
			if i >= len(w) || i >= len(g) {
				return fmt.Sprintf("%s[%d]", path, i), false
			}
			if p, same := firstDifference(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); !same {
				return p, false
			}
		}
		return "", true
	}
	return path, reflect.DeepEqual(want, got)
}

// unionKeys are the keys of a and b, sorted, with "nodes", "fragments" and "leaves" last so that
// a difference is named at the node's own fields before its children's.
func unionKeys(a, b map[string]any) []string {
	var keys []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	children := map[string]bool{"nodes": true, "fragments": true, "leaves": true}
	sort.Slice(keys, func(i, j int) bool {
		if children[keys[i]] != children[keys[j]] {
			return !children[keys[i]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
