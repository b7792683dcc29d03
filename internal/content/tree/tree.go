// Package tree holds the content of one revision in memory, a page tree and its files, and stores
// it content-addressed (see store.go): a revision that changes one page of ten thousand writes that
// page's body and the few small tree nodes above its entry, not the whole tree.
package tree

import (
	"maps"
	"slices"
	"strings"
	"time"
)

// The types of a page.
const (
	TypeDocument = "document" // a page with a body
	TypeGroup    = "group"    // a page that only groups others: it has no body
)

// Page is one page of a revision. Its body is stored apart, by hash, so equal bodies are stored
// once and a tree entry stays small.
type Page struct {
	ID          string `json:"id"`
	Parent      string `json:"parent,omitempty"` // "" for a root page
	Order       string `json:"order"`            // orderkey among its siblings
	Type        string `json:"type"`             // TypeDocument or TypeGroup
	Title       string `json:"title"`
	Slug        string `json:"slug"`
	Emoji       string `json:"emoji,omitempty"`
	Description string `json:"description,omitempty"`
	Hidden      bool   `json:"hidden,omitempty"`
	NoIndex     bool   `json:"noIndex,omitempty"`
	// Condition is the adaptive-content condition that shows the page to a site's reader ("" for
	// none). Omitted when empty, so the entries of pages without one encode as before it existed.
	Condition string    `json:"condition,omitempty"`
	Body      string    `json:"body,omitempty"` // hash of the Markdown body; "" for no body
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// File is one file of a revision. Its bytes live in the blob store under Blob (their hash).
type File struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	ContentType string    `json:"contentType"`
	Blob        string    `json:"blob"`
	Size        int64     `json:"size"`
	CreatedAt   time.Time `json:"createdAt"`
}

// Reusable is one reusable content of a revision: a titled document that pages place with a
// reusable-content block. Its body is stored apart, by hash, like a page's.
type Reusable struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Body      string    `json:"body,omitempty"` // hash of the Markdown body; "" for no body
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Entry is one stored item of a tree: a page, a file or a reusable content (exactly one is set).
// They share one key space, their ids.
type Entry struct {
	Page     *Page     `json:"p,omitempty"`
	File     *File     `json:"f,omitempty"`
	Reusable *Reusable `json:"r,omitempty"`
}

// Key is the id of the entry's page, file or reusable content.
func (e Entry) Key() string {
	switch {
	case e.Page != nil:
		return e.Page.ID
	case e.File != nil:
		return e.File.ID
	}
	return e.Reusable.ID
}

// Tree is a revision's pages, files and reusable contents. A tree loaded from the store is shared by every request
// that reads the revision and must not change; Clone gives a copy to edit. Pages and files are
// replaced, never modified in place, so a clone shares them with its original.
type Tree struct {
	pages map[string]*Page
	files map[string]*File
	reuse map[string]*Reusable
	kids  map[string][]*Page // parent id ("" for the root) → children in order
	// owned marks the children lists this tree copied since it was cloned: it may change them in
	// place; the others it shares with its original and must copy first.
	owned map[string]bool
}

// New returns a tree of the given entries.
func New(entries []Entry) *Tree {
	t := &Tree{pages: map[string]*Page{}, files: map[string]*File{}, reuse: map[string]*Reusable{},
		kids: map[string][]*Page{}, owned: map[string]bool{}}
	for _, e := range entries {
		switch {
		case e.Page != nil:
			t.pages[e.Page.ID] = e.Page
			t.kids[e.Page.Parent] = append(t.kids[e.Page.Parent], e.Page)
		case e.File != nil:
			t.files[e.File.ID] = e.File
		case e.Reusable != nil:
			t.reuse[e.Reusable.ID] = e.Reusable
		}
	}
	for _, list := range t.kids {
		slices.SortFunc(list, comparePages)
	}
	return t
}

// comparePages orders siblings by order key, then id (two concurrent inserts may share a key).
func comparePages(a, b *Page) int {
	if c := strings.Compare(a.Order, b.Order); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// Clone returns a copy of t to edit.
func (t *Tree) Clone() *Tree {
	c := &Tree{
		pages: make(map[string]*Page, len(t.pages)),
		files: maps.Clone(t.files),
		reuse: maps.Clone(t.reuse),
		kids:  make(map[string][]*Page, len(t.kids)),
		owned: map[string]bool{},
	}
	for k, v := range t.pages {
		c.pages[k] = v
	}
	for k, v := range t.kids {
		c.kids[k] = v // shared until changed: see owned
	}
	return c
}

// Page returns the page with the given id, or nil.
func (t *Tree) Page(id string) *Page { return t.pages[id] }

// File returns the file with the given id, or nil.
func (t *Tree) File(id string) *File { return t.files[id] }

// Entry returns the entry stored under key, or ok false.
func (t *Tree) Entry(key string) (e Entry, ok bool) {
	if p := t.pages[key]; p != nil {
		return Entry{Page: p}, true
	}
	if f := t.files[key]; f != nil {
		return Entry{File: f}, true
	}
	if r := t.reuse[key]; r != nil {
		return Entry{Reusable: r}, true
	}
	return Entry{}, false
}

// PageCount is the number of pages.
func (t *Tree) PageCount() int { return len(t.pages) }

// Children returns the children of the page parent ("" for root pages) in order. The slice is
// the tree's own: do not modify it.
func (t *Tree) Children(parent string) []*Page { return t.kids[parent] }

// Files returns the files ordered by name, then id.
func (t *Tree) Files() []*File {
	files := make([]*File, 0, len(t.files))
	for _, f := range t.files {
		files = append(files, f)
	}
	slices.SortFunc(files, func(a, b *File) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return files
}

// SetPage puts p in the tree, replacing the page with its id (which may have had another parent).
func (t *Tree) SetPage(p *Page) {
	if old := t.pages[p.ID]; old != nil {
		t.unlink(old)
	}
	t.pages[p.ID] = p
	list := t.ownKids(p.Parent)
	i, _ := slices.BinarySearchFunc(list, p, comparePages)
	t.kids[p.Parent] = slices.Insert(list, i, p)
}

// ownKids returns the children list of parent for changing in place, copying it first if it is
// shared with the tree this one was cloned from.
func (t *Tree) ownKids(parent string) []*Page {
	if !t.owned[parent] {
		t.kids[parent] = slices.Clone(t.kids[parent])
		t.owned[parent] = true
	}
	return t.kids[parent]
}

// DeletePage removes the page and its descendants and returns their ids.
func (t *Tree) DeletePage(id string) []string {
	p := t.pages[id]
	if p == nil {
		return nil
	}
	gone := append([]string{id}, t.Descendants(id)...)
	t.unlink(p)
	for _, d := range gone {
		delete(t.pages, d)
		delete(t.kids, d)
	}
	return gone
}

// Without returns a copy of t without the given pages and their descendants, or t itself when
// ids is empty.
func (t *Tree) Without(ids []string) *Tree {
	if len(ids) == 0 {
		return t
	}
	c := t.Clone()
	for _, id := range ids {
		c.DeletePage(id)
	}
	return c
}

// RemovePage removes one page and leaves its children where they are, pointing at a parent that
// is gone, for a merge to settle.
func (t *Tree) RemovePage(id string) {
	if p := t.pages[id]; p != nil {
		t.unlink(p)
		delete(t.pages, id)
	}
}

func (t *Tree) unlink(p *Page) {
	t.kids[p.Parent] = slices.DeleteFunc(t.ownKids(p.Parent), func(q *Page) bool { return q.ID == p.ID })
	if len(t.kids[p.Parent]) == 0 {
		delete(t.kids, p.Parent)
	}
}

// Reusable returns the reusable content with the given id, or nil.
func (t *Tree) Reusable(id string) *Reusable { return t.reuse[id] }

// Reusables returns the reusable contents ordered by title, then id.
func (t *Tree) Reusables() []*Reusable {
	out := slices.Collect(maps.Values(t.reuse))
	slices.SortFunc(out, func(a, b *Reusable) int {
		if c := strings.Compare(a.Title, b.Title); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// SetReusable puts r in the tree, replacing the reusable content with its id.
func (t *Tree) SetReusable(r *Reusable) { t.reuse[r.ID] = r }

// DeleteReusable removes a reusable content.
func (t *Tree) DeleteReusable(id string) { delete(t.reuse, id) }

// SetFile puts f in the tree, replacing the file with its id.
func (t *Tree) SetFile(f *File) { t.files[f.ID] = f }

// DeleteFile removes a file.
func (t *Tree) DeleteFile(id string) { delete(t.files, id) }

// slugTaken reports whether a child of parent other than the page self has the slug.
func (t *Tree) slugTaken(parent, slug, self string) bool {
	for _, c := range t.kids[parent] {
		if c.Slug == slug && c.ID != self {
			return true
		}
	}
	return false
}

// Descendants returns the ids of the pages under id, depth first.
func (t *Tree) Descendants(id string) []string {
	var out []string
	for _, c := range t.kids[id] {
		out = append(out, c.ID)
		out = append(out, t.Descendants(c.ID)...)
	}
	return out
}

// IsUnder reports whether page id is ancestor or one of its descendants.
func (t *Tree) IsUnder(id, ancestor string) bool {
	for seen := 0; id != "" && seen <= len(t.pages); seen++ {
		if id == ancestor {
			return true
		}
		p := t.pages[id]
		if p == nil {
			return false
		}
		id = p.Parent
	}
	return false
}

// Path is the page's slug path from the root ("guides/getting-started"), "" for an unknown page.
func (t *Tree) Path(id string) string {
	var slugs []string
	for seen := 0; id != "" && seen <= len(t.pages); seen++ {
		p := t.pages[id]
		if p == nil {
			break
		}
		slugs = append(slugs, p.Slug)
		id = p.Parent
	}
	slices.Reverse(slugs)
	return strings.Join(slugs, "/")
}

// ByPath returns the page at a slug path, or nil.
func (t *Tree) ByPath(path string) *Page {
	parent := ""
	var found *Page
	for _, slug := range strings.Split(strings.Trim(path, "/"), "/") {
		found = nil
		for _, c := range t.kids[parent] {
			if c.Slug == slug {
				found = c
				break
			}
		}
		if found == nil {
			return nil
		}
		parent = found.ID
	}
	return found
}

// Next is the page after page id in tree order (Walk's), nil after the last or for a page Walk
// does not reach.
func (t *Tree) Next(id string) *Page {
	if kids := t.kids[id]; len(kids) > 0 && t.pages[id] != nil {
		return kids[0]
	}
	for p, seen := t.pages[id], 0; p != nil && seen <= len(t.pages); p, seen = t.pages[p.Parent], seen+1 {
		siblings := t.kids[p.Parent]
		if i := t.indexIn(siblings, p.ID); i >= 0 && i+1 < len(siblings) {
			return siblings[i+1]
		}
	}
	return nil
}

// Prev is the page before page id in tree order (Walk's), nil before the first or for an unknown
// page.
func (t *Tree) Prev(id string) *Page {
	p := t.pages[id]
	if p == nil {
		return nil
	}
	siblings := t.kids[p.Parent]
	i := t.indexIn(siblings, id)
	if i <= 0 {
		return t.pages[p.Parent]
	}
	q := siblings[i-1]
	for seen := 0; len(t.kids[q.ID]) > 0 && seen <= len(t.pages); seen++ {
		kids := t.kids[q.ID]
		q = kids[len(kids)-1]
	}
	return q
}

// indexIn is the index of page id among pages, -1 when it is not there.
func (t *Tree) indexIn(pages []*Page, id string) int {
	return slices.IndexFunc(pages, func(p *Page) bool { return p.ID == id })
}

// Walk calls fn for every page in tree order (a page, then its children), with the page's path.
func (t *Tree) Walk(fn func(p *Page, path string)) {
	var walk func(parent, prefix string)
	walk = func(parent, prefix string) {
		for _, c := range t.kids[parent] {
			path := prefix + c.Slug
			fn(c, path)
			walk(c.ID, path+"/")
		}
	}
	walk("", "")
}

// Entries returns every page, file and reusable content of the tree, in no particular order.
func (t *Tree) Entries() []Entry {
	out := make([]Entry, 0, len(t.pages)+len(t.files)+len(t.reuse))
	for _, p := range t.pages {
		out = append(out, Entry{Page: p})
	}
	for _, f := range t.files {
		out = append(out, Entry{File: f})
	}
	for _, r := range t.reuse {
		out = append(out, Entry{Reusable: r})
	}
	return out
}

// Rekey returns a copy of t whose pages and files have new ids from newID (parents follow), and
// the map from old ids to new. Reusable contents keep theirs: they are looked up in their space's
// trees only, so the copy's need no others, and the pages placing them stay as they are.
func (t *Tree) Rekey(newID func() string) (*Tree, map[string]string) {
	ids := make(map[string]string, len(t.pages)+len(t.files))
	for id := range t.pages {
		ids[id] = newID()
	}
	for id := range t.files {
		ids[id] = newID()
	}
	entries := make([]Entry, 0, len(ids))
	for _, p := range t.pages {
		c := *p
		c.ID, c.Parent = ids[p.ID], ids[p.Parent] // the root's "" maps to ""
		entries = append(entries, Entry{Page: &c})
	}
	for _, f := range t.files {
		c := *f
		c.ID = ids[f.ID]
		entries = append(entries, Entry{File: &c})
	}
	for _, r := range t.reuse {
		entries = append(entries, Entry{Reusable: r})
	}
	return New(entries), ids
}
