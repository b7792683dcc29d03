package tree

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
)

// A tree is stored as a hash array mapped trie of content-addressed nodes. A leaf node lists up to
// maxLeaf entries in key order; a branch node has fanout children, chosen by the next five bits of
// the SHA-256 of an entry's key, and the count of entries below it. The shape depends only on the
// entries (a branch holds more than maxLeaf entries, a leaf at most maxLeaf), so equal trees have
// equal root hashes. Changing one entry of a ten-thousand-page tree rewrites its leaf (about ten
// entries) and two branches of 32 hashes: a few kilobytes, whatever the size of the tree.
const (
	fanout   = 32
	slotBits = 5
	maxLeaf  = 32
	// maxLevel is the deepest level whose slot the 256 bits of a key hash still give.
	maxLevel = 256/slotBits - 1
)

// node is a decoded tree node: a leaf (Entries) or a branch (Count and Kids; "" for an empty slot).
// An empty leaf encodes as "{}", the root of an empty tree.
type node struct {
	Entries []Entry  `json:"e,omitempty"`
	Count   int      `json:"n,omitempty"`
	Kids    []string `json:"c,omitempty"`
}

func (n *node) isBranch() bool { return n.Kids != nil }

// count is the number of entries in the subtree of n.
func (n *node) count() int {
	if n.isBranch() {
		return n.Count
	}
	return len(n.Entries)
}

// Object is a node to store: its hash and its bytes.
type Object struct {
	Hash string
	Data []byte
}

// Fetch returns the stored bytes of the objects with the given hashes; a missing object is absent
// from the map.
type Fetch func(ctx context.Context, hashes []string) (map[string][]byte, error)

// Store reads and writes trees through fetch, caching decoded nodes and whole trees by hash:
// both are immutable, so a cached value never goes stale.
type Store struct {
	fetch Fetch
	nodes *lru.Cache[string, *node]
	trees *lru.Cache[string, *Tree]
}

// Cache sizes: nodes of a few ten-thousand-page trees, and the trees most recently read.
const (
	nodeCacheSize = 16384
	treeCacheSize = 16
)

// NewStore returns a store reading objects through fetch.
func NewStore(fetch Fetch) *Store {
	nodes, _ := lru.New[string, *node](nodeCacheSize)
	trees, _ := lru.New[string, *Tree](treeCacheSize)
	return &Store{fetch: fetch, nodes: nodes, trees: trees}
}

// EmptyRoot is the hash of the empty tree, and EmptyRootData its stored bytes.
var (
	EmptyRootData = []byte(`{}`)
	EmptyRoot     = Hash(EmptyRootData)
)

// Hash is the content address of data: "sha256:<hex>".
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Load returns the tree whose root node has the given hash. The tree is shared: Clone it to edit.
func (s *Store) Load(ctx context.Context, root string) (*Tree, error) {
	if t, ok := s.trees.Get(root); ok {
		return t, nil
	}
	var entries []Entry
	// Breadth first, so each level of the trie is one fetch.
	for level := []string{root}; len(level) > 0; {
		nodes, err := s.getNodes(ctx, level)
		if err != nil {
			return nil, err
		}
		var next []string
		for _, h := range level {
			n := nodes[h]
			entries = append(entries, n.Entries...)
			next = append(next, nonEmpty(n.Kids)...)
		}
		level = next
	}
	t := New(entries)
	s.trees.Add(root, t)
	return t, nil
}

func nonEmpty(hashes []string) []string {
	return slices.DeleteFunc(slices.Clone(hashes), func(h string) bool { return h == "" })
}

// getNodes returns the decoded nodes of the given hashes, from the cache or in one fetch.
func (s *Store) getNodes(ctx context.Context, hashes []string) (map[string]*node, error) {
	out := make(map[string]*node, len(hashes))
	var missing []string
	for _, h := range hashes {
		if n, ok := s.nodes.Get(h); ok {
			out[h] = n
		} else if h == "" {
			out[h] = &node{}
		} else {
			missing = append(missing, h)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	data, err := s.fetch(ctx, missing)
	if err != nil {
		return nil, err
	}
	decoded, err := decodeNodes(missing, data)
	if err != nil {
		return nil, err
	}
	for i, h := range missing {
		s.nodes.Add(h, decoded[i])
		out[h] = decoded[i]
	}
	return out, nil
}

// decodeNodes decodes the fetched nodes, spread over the processors: decoding is most of the
// cost of reading a large tree that is not cached.
func decodeNodes(hashes []string, data map[string][]byte) ([]*node, error) {
	nodes := make([]*node, len(hashes))
	errs := make([]error, len(hashes))
	workers := min(runtime.GOMAXPROCS(0), 1+len(hashes)/64)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(hashes); i += workers {
				nodes[i], errs[i] = decodeNode(hashes[i], data)
			}
		}()
	}
	wg.Wait()
	return nodes, errors.Join(errs...)
}

func decodeNode(hash string, data map[string][]byte) (*node, error) {
	b, ok := data[hash]
	if !ok {
		return nil, fmt.Errorf("tree node %s is missing from the content store", hash)
	}
	n := new(node)
	if err := json.Unmarshal(b, n); err != nil {
		return nil, fmt.Errorf("tree node %s: %w", hash, err)
	}
	return n, nil
}

func (s *Store) getNode(ctx context.Context, hash string) (*node, error) {
	nodes, err := s.getNodes(ctx, []string{hash})
	if err != nil {
		return nil, err
	}
	return nodes[hash], nil
}

// change is one entry to write under key: the entry of the new tree, or nil to delete it.
type change struct {
	key   string
	path  [sha256.Size]byte
	entry *Entry
}

// slot is the child index of the change at a branch of the given level.
func (c change) slot(level int) int { return slotOf(c.path, level) }

func slotOf(path [sha256.Size]byte, level int) int {
	bit := level * slotBits
	window := uint(path[bit/8]) << 8
	if bit/8+1 < len(path) {
		window |= uint(path[bit/8+1])
	}
	return int(window>>(16-slotBits-bit%8)) & (fanout - 1)
}

// Save stores t, which differs from the tree at root only in the entries under the keys changed,
// and returns the new root hash and the nodes to store (some may exist already). t becomes the
// cached tree of the new root: do not change it afterwards.
func (s *Store) Save(ctx context.Context, root string, t *Tree, changed []string) (string, []Object, error) {
	w := &writer{store: s}
	changes := make([]change, 0, len(changed))
	for _, key := range slices.Compact(slices.Sorted(slices.Values(changed))) {
		c := change{key: key, path: sha256.Sum256([]byte(key))}
		if e, ok := t.Entry(key); ok {
			c.entry = &e
		}
		changes = append(changes, c)
	}
	newRoot, _, _, err := w.update(ctx, 0, root, changes)
	if err != nil {
		return "", nil, err
	}
	s.trees.Add(newRoot, t)
	return newRoot, w.objects, nil
}

// writer collects the nodes one Save makes.
type writer struct {
	store   *Store
	objects []Object
}

// put encodes and caches a new node and returns its hash.
func (w *writer) put(n *node) string {
	data, err := json.Marshal(n)
	if err != nil {
		panic(err) // nodes hold only strings, numbers and times: always encodable
	}
	h := Hash(data)
	w.store.nodes.Add(h, n)
	w.objects = append(w.objects, Object{Hash: h, Data: data})
	return h
}

// update applies changes (all of whose keys fall in the subtree) to the subtree at hash and
// returns the new subtree's hash and the entry counts before and after.
func (w *writer) update(ctx context.Context, level int, hash string, changes []change) (string, int, int, error) {
	n, err := w.store.getNode(ctx, hash)
	if err != nil {
		return "", 0, 0, err
	}
	if !n.isBranch() {
		entries := applyToLeaf(n.Entries, changes)
		h, _ := w.build(level, entries)
		return h, len(n.Entries), len(entries), nil
	}
	kids := slices.Clone(n.Kids)
	total := n.Count
	for slot, group := range groupBySlot(changes, level) {
		h, before, after, err := w.update(ctx, level+1, kids[slot], group)
		if err != nil {
			return "", 0, 0, err
		}
		kids[slot], total = h, total-before+after
		if after == 0 {
			kids[slot] = ""
		}
	}
	if total <= maxLeaf {
		entries, err := w.store.collect(ctx, kids)
		if err != nil {
			return "", 0, 0, err
		}
		return w.put(&node{Entries: entries}), n.Count, total, nil
	}
	return w.put(&node{Count: total, Kids: kids}), n.Count, total, nil
}

// build stores a subtree of the given entries (sorted by key) and returns its hash and size.
func (w *writer) build(level int, entries []Entry) (string, int) {
	if len(entries) <= maxLeaf || level >= maxLevel {
		return w.put(&node{Entries: entries}), len(entries)
	}
	groups := make([][]Entry, fanout)
	for _, e := range entries {
		slot := slotOf(sha256.Sum256([]byte(e.Key())), level)
		groups[slot] = append(groups[slot], e)
	}
	kids := make([]string, fanout)
	for i, g := range groups {
		if len(g) > 0 {
			kids[i], _ = w.build(level+1, g)
		}
	}
	return w.put(&node{Count: len(entries), Kids: kids}), len(entries)
}

// applyToLeaf returns the entries of a leaf after the changes, sorted by key.
func applyToLeaf(entries []Entry, changes []change) []Entry {
	byKey := make(map[string]Entry, len(entries)+len(changes))
	for _, e := range entries {
		byKey[e.Key()] = e
	}
	for _, c := range changes {
		if c.entry == nil {
			delete(byKey, c.key)
		} else {
			byKey[c.key] = *c.entry
		}
	}
	out := make([]Entry, 0, len(byKey))
	for _, key := range slices.Sorted(maps.Keys(byKey)) {
		out = append(out, byKey[key])
	}
	return out
}

func groupBySlot(changes []change, level int) map[int][]change {
	groups := map[int][]change{}
	for _, c := range changes {
		slot := c.slot(level)
		groups[slot] = append(groups[slot], c)
	}
	return groups
}

// collect returns every entry below the given subtrees, sorted by key.
func (s *Store) collect(ctx context.Context, hashes []string) ([]Entry, error) {
	var out []Entry
	for level := nonEmpty(hashes); len(level) > 0; {
		nodes, err := s.getNodes(ctx, level)
		if err != nil {
			return nil, err
		}
		var next []string
		for _, h := range level {
			out = append(out, nodes[h].Entries...)
			next = append(next, nonEmpty(nodes[h].Kids)...)
		}
		level = next
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Key(), b.Key()) })
	return out, nil
}

// Diff returns the keys whose entries differ between the trees at roots a and b (added, removed
// or changed). It reads only the nodes that differ, so its cost follows the size of the
// difference, not of the trees.
func (s *Store) Diff(ctx context.Context, a, b string) ([]string, error) {
	var out []string
	err := s.diff(ctx, a, b, &out)
	slices.Sort(out)
	return out, err
}

func (s *Store) diff(ctx context.Context, a, b string, out *[]string) error {
	if a == b {
		return nil
	}
	nodes, err := s.getNodes(ctx, []string{a, b})
	if err != nil {
		return err
	}
	na, nb := nodes[a], nodes[b]
	if na.isBranch() && nb.isBranch() {
		for i := range fanout {
			if err := s.diff(ctx, na.Kids[i], nb.Kids[i], out); err != nil {
				return err
			}
		}
		return nil
	}
	ea, err := s.collect(ctx, []string{a})
	if err != nil {
		return err
	}
	eb, err := s.collect(ctx, []string{b})
	if err != nil {
		return err
	}
	*out = append(*out, differentKeys(ea, eb)...)
	return nil
}

// differentKeys returns the keys whose entries differ between two entry lists.
func differentKeys(a, b []Entry) []string {
	encoded := make(map[string]string, len(a))
	for _, e := range a {
		encoded[e.Key()] = encode(e)
	}
	var out []string
	for _, e := range b {
		k := e.Key()
		if old, ok := encoded[k]; !ok || old != encode(e) {
			out = append(out, k)
		}
		delete(encoded, k)
	}
	for k := range encoded {
		out = append(out, k)
	}
	return out
}

func encode(e Entry) string {
	b, _ := json.Marshal(e)
	return string(b)
}
