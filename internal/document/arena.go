package document

import "strings"

// arena hands out the nodes of one conversion from Markdown, and the lists of their children,
// from chunks: a document is some six nodes a block, and allocating each alone was most of
// FromMarkdown's time (BenchmarkConvert10kBlocks). A chunk is garbage once none of its nodes is
// reachable. The nil arena (heap) allocates each node alone.
type arena struct {
	chunk  int // how many nodes, leaves, marks or list entries a chunk holds
	nodes  []Node
	leaves []Leaf
	marks  []Mark
	lists  []*Node
	stack  []*Node // the lists being built, the innermost last (open, push, close)
}

// newArena returns an arena for a text of size bytes. Its chunks grow with the text, so that what
// a document leaves unused of its last chunks is small beside the document: at most a node, a
// leaf and a list entry for every 128 bytes of Markdown, where the document holds some 25 bytes
// of memory for each byte (10,000 blocks, BenchmarkConvert10kBlocks: chunks of 256).
func newArena(size int) *arena { return &arena{chunk: min(max(size/128, 2), 256)} }

// heap is the arena of the nodes made outside a conversion.
var heap *arena

func (a *arena) node(n Node) *Node {
	if a == nil {
		p := new(Node) // not &n, which would put every n on the heap
		*p = n
		return p
	}
	if len(a.nodes) == cap(a.nodes) {
		a.nodes = make([]Node, 0, a.chunk)
	}
	a.nodes = append(a.nodes, n)
	return &a.nodes[len(a.nodes)-1]
}

// list is a copy of nodes, nil for none. Its capacity is its length: appending to it copies it
// rather than writing over the list after it.
func (a *arena) list(nodes []*Node) []*Node {
	switch {
	case len(nodes) == 0:
		return nil
	case a == nil || len(nodes) > a.chunk/4:
		return append([]*Node(nil), nodes...)
	case cap(a.lists)-len(a.lists) < len(nodes):
		a.lists = make([]*Node, 0, a.chunk)
	}
	start := len(a.lists)
	a.lists = append(a.lists, nodes...)
	return a.lists[start:len(a.lists):len(a.lists)]
}

// one is a list of n.
func (a *arena) one(n *Node) []*Node { return a.list([]*Node{n}) }

// open starts a list on the stack: the nodes pushed until close(start) are its own.
func (a *arena) open() (start int) { return len(a.stack) }

func (a *arena) push(nodes ...*Node) { a.stack = append(a.stack, nodes...) }

// top is the last node pushed.
func (a *arena) top() *Node { return a.stack[len(a.stack)-1] }

// close ends the list started at start: the nodes pushed since, as a list.
func (a *arena) close(start int) []*Node {
	l := a.list(a.stack[start:])
	a.stack = a.stack[:start]
	return l
}

// block is Block of a list.
func (a *arena) block(typ string, data map[string]any, nodes []*Node) *Node {
	rules := blockRules[typ]
	n := Node{Object: ObjectBlock, Type: typ, Data: data, Nodes: nodes, IsVoid: rules.void}
	if rules.fragments {
		n.Fragments = []*Node{}
	}
	return a.node(n)
}

// inline is Inline of a list.
func (a *arena) inline(typ string, data map[string]any, nodes []*Node) *Node {
	return a.node(Node{Object: ObjectInline, Type: typ, Data: data, Nodes: nodes, IsVoid: inlineRules[typ].void})
}

// text is a text of one leaf.
func (a *arena) text(l Leaf) *Node {
	if a == nil {
		return Text(l)
	}
	if len(a.leaves) == cap(a.leaves) {
		a.leaves = make([]Leaf, 0, a.chunk)
	}
	a.leaves = append(a.leaves, l)
	end := len(a.leaves)
	return a.node(Node{Object: ObjectText, Leaves: a.leaves[end-1 : end : end]})
}

// leaf is NewLeaf, its marks from the arena's chunks.
func (a *arena) leaf(s string, marks []string) Leaf {
	if a == nil || len(marks) == 0 {
		return NewLeaf(s, marks...)
	}
	if cap(a.marks)-len(a.marks) < len(marks) {
		a.marks = make([]Mark, 0, a.chunk)
	}
	start := len(a.marks)
	for _, m := range marks {
		a.marks = append(a.marks, markOfKey(m))
	}
	return Leaf{Object: objectLeaf, Text: s, Marks: a.marks[start:len(a.marks):len(a.marks)]}
}

// addLeaf appends l to the leaves of the text n: in place when they are the last the arena
// handed out and its chunk has room, as they are while a text is built.
func (a *arena) addLeaf(n *Node, l Leaf) {
	k := len(n.Leaves)
	if a != nil && k > 0 && len(a.leaves) < cap(a.leaves) && &a.leaves[len(a.leaves)-1] == &n.Leaves[k-1] {
		a.leaves = append(a.leaves, l)
		n.Leaves = a.leaves[len(a.leaves)-k-1 : len(a.leaves) : len(a.leaves)]
		return
	}
	n.Leaves = append(n.Leaves, l)
}

// textNodes is s as plain text.
func (a *arena) textNodes(s string) []*Node {
	if s == "" {
		return nil
	}
	return a.one(a.text(NewLeaf(s)))
}

// paragraph is a paragraph of the inline nodes; an empty one holds an empty text, as the
// reference's editor has it.
func (a *arena) paragraph(nodes []*Node) *Node {
	if len(nodes) == 0 {
		nodes = a.one(a.text(NewLeaf("")))
	}
	return a.block("paragraph", nil, nodes)
}

// literal is a paragraph of s as text, in the form a paragraph's text takes: lines trimmed,
// blank ones dropped.
func (a *arena) literal(s string) *Node {
	var lines []string
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.Trim(l, " \t"); l != "" {
			lines = append(lines, l)
		}
	}
	return a.paragraph(a.textNodes(strings.Join(lines, "\n")))
}
