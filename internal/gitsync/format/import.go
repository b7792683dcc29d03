package format

import (
	"errors"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Bounds of the files of a repository an import reads.
const (
	MaxFiles = 20000
	MaxBytes = 256 << 20
)

// Imported is a repository laid over a space's content: the tree it makes and how it differs
// from the base tree.
type Imported struct {
	Tree    *tree.Tree
	Changed []string          // keys of the entries that differ from the base tree
	Bodies  map[string]string // the page bodies it adds, by hash
	Blobs   []edit.Blob       // the bytes of the files it adds
	// Paths are the Markdown files the pages were read from (or are at: a page read again keeps
	// its file), the assets of the files and the files of the reusable contents, id → path from
	// the top of the repository.
	Paths map[string]string
	// Warnings say what of the repository was left as it is, and why (an include tag naming no
	// reusable content's file), one line each.
	Warnings []string
}

// Import reads a repository's files (paths from its top; those outside base.Root are left out)
// as the importer reads a GitBook repository, and lays them over base (its tree, the bodies of
// its pages): a page or file at the path the last sync knew it at (base.Known) or else base's
// export gives it, a group at its folder, keeps its id, so links, comments and history follow
// it; a page no path matched takes the id of a base page no path matched of the same type and
// slug, else title, when only one has it (a page moved in a repository not in Bindery's layout).
// One whose file is byte for byte base's export stays as it is. Pages and files the repository
// does not have are removed (and files no page or reusable content shows that the base did not
// have, as every import leaves them out). Reusable contents are the files of .gitbook/includes
// (readReusables), include tags that name them name them by id, and the files they show are
// imported as the pages' are. So the import of base's own export changes
// nothing, and a commit that changes one file changes one page.
func Import(base Space, files []importer.Upload, env edit.Env) (*Imported, error) {
	files = underRoot(files, base.Root)
	site, err := importer.FromFiles(files, MaxFiles, MaxBytes)
	if err != nil {
		return nil, err
	}
	if len(site.Pages) == 0 {
		return nil, errors.New("the repository holds no Markdown file (.md) to import")
	}
	site.Shown = includesShown(files)
	o, err := importer.Build(tree.New(nil), site, env)
	if err != nil {
		return nil, err
	}
	m := newMatch(base, o.Outcome, o.Sources, files, env)
	return m.result(), nil
}

// includesShown are the reusable contents' files as Markdown that shows files: an image only a
// reusable content shows is imported as a page's is.
func includesShown(files []importer.Upload) []importer.Shown {
	var out []importer.Shown
	for _, f := range files {
		if isInclude(f.Path) {
			_, body := markdown.ParseReusableFile(string(f.Data))
			out = append(out, importer.Shown{Location: &url.URL{Scheme: "file", Path: "/" + f.Path}, Markdown: body})
		}
	}
	return out
}

// underRoot is the files under the folder root, their paths relative to it.
func underRoot(files []importer.Upload, root string) []importer.Upload {
	var out []importer.Upload
	for _, f := range files {
		if rel, ok := underFolder(root, f.Path); ok {
			out = append(out, importer.Upload{Path: rel, Data: f.Data})
		}
	}
	return out
}

// match pairs the entries of a fresh import with the base's: a page or file with the one the
// base's export puts at the path it came from, a group with the one of its folder.
type match struct {
	base   Space
	fresh  *edit.Outcome
	lb     *layout
	data   map[string][]byte // the repository's bytes by path
	ids    map[string]string // fresh id → base id
	bodies map[string]string
	paths  map[string]string // fresh page or file id → the file it was read from, from the top of the repository
	// src is the file a fresh page was read from; srcPage and srcFile the fresh pages and files
	// by the file they were read from (paths relative to the root folder).
	src, srcPage, srcFile map[string]string
	includes              map[string]string // a reusable content's file (relative to the root folder) → its id
	reusables             []*tree.Reusable
	now                   time.Time
	warnings              []string
}

func newMatch(base Space, fresh *edit.Outcome, sources map[string]*url.URL, files []importer.Upload, env edit.Env) *match {
	m := &match{base: base, fresh: fresh, lb: newLayout(base.Tree, ""), data: make(map[string][]byte, len(files)),
		ids: map[string]string{}, bodies: map[string]string{}, paths: map[string]string{}, now: env.Now,
		src: map[string]string{}, srcPage: map[string]string{}, srcFile: map[string]string{}, includes: map[string]string{}}
	for _, f := range files {
		m.data[f.Path] = f.Data
	}
	at := map[string]string{}
	for id, p := range m.lb.Pages {
		at["page:"+p] = id
	}
	for id, p := range m.lb.groups {
		at["group:"+p] = id
	}
	for id, p := range m.lb.Files {
		at["file:"+p] = id
	}
	for id, p := range base.Known { // where the last sync found them, outside Bindery's layout too
		if rel, ok := underFolder(base.Root, p); ok && base.Tree.Page(id) != nil {
			at["page:"+rel] = id
		} else if ok && base.Tree.File(id) != nil {
			at["file:"+rel] = id
		}
	}
	for id, src := range sources {
		p := strings.TrimPrefix(src.Path, "/")
		switch q := fresh.Tree.Page(id); {
		case q != nil && q.Type == tree.TypeGroup: // no file: matched by its folder below
		case q != nil && src.Scheme == "file":
			m.pair(id, at["page:"+p])
			m.paths[id] = path.Join(base.Root, p)
			m.src[id], m.srcPage[p] = p, id
		case fresh.Tree.File(id) != nil:
			m.srcFile[p] = id
			if b := at["file:"+p]; b != "" && base.Tree.File(b) != nil {
				m.ids[id] = b
			}
			m.paths[id] = path.Join(base.Root, p)
		}
	}
	for id, p := range newLayout(fresh.Tree, "").groups { // a group has no file: by its folder
		m.pair(id, at["group:"+p])
	}
	m.pairRest()
	m.readReusables(env.NewID)
	return m
}

// underFolder is p relative to the folder root, false when it is not under it.
func underFolder(root, p string) (string, bool) {
	root = strings.Trim(path.Clean("/"+root), "/")
	if root == "" {
		return p, true
	}
	return strings.CutPrefix(p, root+"/")
}

// pairRest pairs the fresh pages no path paired with the base's pages no fresh page took, of the
// same type: by slug, then by title, where each side has one page with it.
func (m *match) pairRest() {
	for _, key := range []func(*tree.Page) string{
		func(p *tree.Page) string { return p.Type + "\x00" + p.Slug },
		func(p *tree.Page) string { return p.Type + "\x00" + p.Title },
	} {
		taken := map[string]bool{}
		for _, b := range m.ids {
			taken[b] = true
		}
		fresh, base := map[string][]string{}, map[string][]string{}
		m.fresh.Tree.Walk(func(q *tree.Page, _ string) {
			if _, ok := m.ids[q.ID]; !ok {
				fresh[key(q)] = append(fresh[key(q)], q.ID)
			}
		})
		m.base.Tree.Walk(func(b *tree.Page, _ string) {
			if !taken[b.ID] {
				base[key(b)] = append(base[key(b)], b.ID)
			}
		})
		for k, q := range fresh {
			if b := base[k]; len(q) == 1 && len(b) == 1 {
				m.ids[q[0]] = b[0]
			}
		}
	}
}

// pair pairs a fresh page with the base's page b ("" for none) of the same type.
func (m *match) pair(fresh, b string) {
	if bp := m.base.Tree.Page(b); bp != nil && bp.Type == m.fresh.Tree.Page(fresh).Type {
		m.ids[fresh] = b
	}
}

func (m *match) id(fresh string) string {
	if b, ok := m.ids[fresh]; ok {
		return b
	}
	return fresh
}

// result is the fresh tree with the base's ids, entries and order keys where they hold.
func (m *match) result() *Imported {
	var pages []*tree.Page
	out := &Imported{Bodies: m.bodies, Paths: make(map[string]string, len(m.paths))}
	m.fresh.Tree.Walk(func(q *tree.Page, _ string) {
		pages = append(pages, m.page(q))
		if p, ok := m.paths[q.ID]; ok {
			out.Paths[m.id(q.ID)] = p
		}
	})
	keepOrders(pages, m.base.Tree)
	entries := make([]tree.Entry, 0, len(pages))
	for _, p := range pages {
		entries = append(entries, tree.Entry{Page: p})
	}
	blobs := map[string]edit.Blob{}
	for _, b := range m.fresh.Blobs {
		blobs[b.Hash] = b
	}
	kept := map[string]bool{}
	for _, f := range m.fresh.Tree.Files() {
		file := m.file(f)
		kept[file.ID] = true
		if p, ok := m.paths[f.ID]; ok {
			out.Paths[file.ID] = p
		}
		entries = append(entries, tree.Entry{File: file})
		if b := m.base.Tree.File(file.ID); b == nil || b.Blob != file.Blob {
			out.Blobs = append(out.Blobs, blobs[file.Blob])
		}
	}
	for _, b := range m.base.Tree.Files() { // files no page shows stay while the repository has them
		if data, ok := m.data[m.lb.Files[b.ID]]; ok && !kept[b.ID] {
			file := m.keptFile(b, data)
			entries = append(entries, tree.Entry{File: file})
			out.Paths[file.ID] = path.Join(m.base.Root, m.lb.Files[b.ID])
			if file.Blob != b.Blob {
				out.Blobs = append(out.Blobs, edit.Blob{Hash: file.Blob, Data: data})
			}
		}
	}
	for _, r := range m.reusables {
		entries = append(entries, tree.Entry{Reusable: r})
	}
	for p, id := range m.includes {
		out.Paths[id] = path.Join(m.base.Root, p)
	}
	out.Tree = tree.New(entries)
	out.Warnings = m.warnings
	out.Changed = changedKeys(m.base.Tree, out.Tree)
	return out
}

// page is the page a fresh page q becomes: the base's, placed where q is, when its file did
// not change; else q with the base's id and creation time and its links renamed to the base's
// ids.
func (m *match) page(q *tree.Page) *tree.Page {
	id := m.id(q.ID)
	b := m.base.Tree.Page(id)
	if b != nil && m.unchanged(b, q) {
		c := *b
		c.Parent, c.Order, c.Hidden = m.id(q.Parent), q.Order, q.Hidden
		return &c
	}
	c := *q
	c.ID, c.Parent = id, m.id(q.Parent)
	if q.Body != "" {
		body := m.includeIDs(m.src[q.ID], markdown.RenameIDs(m.fresh.Bodies[q.Body], m.ids))
		c.Body = tree.Hash([]byte(body))
		m.bodies[c.Body] = body
	}
	if b != nil {
		c.CreatedAt, c.Condition, c.NoIndex = b.CreatedAt, b.Condition, b.NoIndex
	}
	return &c
}

// unchanged reports whether the base's page b is what the repository says of q: a group of the
// same title, or a page whose file holds the bytes b's export gives.
func (m *match) unchanged(b, q *tree.Page) bool {
	if b.Type == tree.TypeGroup {
		return b.Title == q.Title
	}
	at, ok := m.lb.Pages[b.ID]
	data, has := m.data[at]
	return ok && has && string(data) == m.lb.pageMarkdown(b, m.base.Bodies[b.Body])
}

// file is the file a fresh file f becomes: the base's when its bytes are the same, else f with
// the base's id.
func (m *match) file(f *tree.File) *tree.File {
	id := m.id(f.ID)
	b := m.base.Tree.File(id)
	if b != nil && b.Blob == f.Blob {
		return b
	}
	c := *f
	c.ID = id
	if b != nil {
		c.CreatedAt = b.CreatedAt
	}
	return &c
}

// keptFile is the base's file b that no page shows, with the bytes the repository has at its path.
func (m *match) keptFile(b *tree.File, data []byte) *tree.File {
	if hash := tree.Hash(data); hash != b.Blob {
		c := *b
		c.Blob, c.Size = hash, int64(len(data))
		return &c
	}
	return b
}

// keepOrders gives the pages of a parent the base's order keys when they are the base's
// children of that parent in the base's order, so an import that moves nothing changes no order.
func keepOrders(pages []*tree.Page, base *tree.Tree) {
	byParent := map[string][]*tree.Page{}
	for _, p := range pages { // in tree order: siblings in order
		byParent[p.Parent] = append(byParent[p.Parent], p)
	}
	for parent, kids := range byParent {
		was := base.Children(parent)
		same := slices.EqualFunc(kids, was, func(a, b *tree.Page) bool { return a.ID == b.ID })
		for i := range kids {
			if same {
				kids[i].Order = was[i].Order
			}
		}
	}
}

// changedKeys are the keys of the entries that differ between two trees.
func changedKeys(before, after *tree.Tree) []string {
	var keys []string
	for _, e := range after.Entries() {
		if was, ok := before.Entry(e.Key()); !ok || !sameEntry(was, e) {
			keys = append(keys, e.Key())
		}
	}
	for _, e := range before.Entries() {
		if _, ok := after.Entry(e.Key()); !ok {
			keys = append(keys, e.Key())
		}
	}
	slices.Sort(keys)
	return keys
}

func sameEntry(a, b tree.Entry) bool {
	switch {
	case a.Page != nil && b.Page != nil:
		return *a.Page == *b.Page
	case a.File != nil && b.File != nil:
		return *a.File == *b.File
	case a.Reusable != nil && b.Reusable != nil:
		return *a.Reusable == *b.Reusable
	}
	return false
}

// Reimport lays a commit over base when it changes only files base's export has — pages'
// Markdown files and files' assets — and not SUMMARY.md, .gitbook.yaml or a reusable content's
// file: changed are the files
// that differ from the commit base mirrors (paths from the top of the repository; a removed
// one has nil data). Each changed page is read again (importer.Reread: its title the one
// SUMMARY.md gives it, which is the base's, its links resolved by base's layout) and each
// changed file takes the new bytes; nothing else is read. ok is false when the commit changes
// anything else under the root folder that the importer reads (a page added, removed or renamed,
// the table of contents):
// Import, reading the whole repository, lays it then. Files outside the root folder are not
// the content's.
func Reimport(base Space, changed []importer.Upload, env edit.Env) (*Imported, bool, error) {
	l := newLayout(base.Tree, "")
	pageAt, fileAt := inverse(l.Pages), inverse(l.Files)
	t := base.Tree.Clone()
	out := &Imported{Bodies: map[string]string{}}
	var pages []importer.Reread
	for _, f := range changed {
		if f.Path == Config {
			return nil, false, nil
		}
	}
	for _, f := range underRoot(changed, base.Root) {
		id, page := pageAt[f.Path]
		fileID, file := fileAt[f.Path]
		switch {
		case isInclude(f.Path): // a reusable content: Import reads them all, and the pages placing it
			return nil, false, nil
		case !page && !file && importer.Skipped(f.Path): // a hidden file the importer does not read
		case f.Data == nil || f.Path == Summary || !page && !file:
			return nil, false, nil
		case page:
			pages = append(pages, importer.Reread{ID: id, Path: f.Path, Data: f.Data, NavTitle: listedTitle(base.Tree, id)})
		default:
			file := *t.File(fileID)
			file.Blob, file.Size = tree.Hash(f.Data), int64(len(f.Data))
			t.SetFile(&file)
			out.Blobs = append(out.Blobs, edit.Blob{Hash: file.Blob, Data: f.Data})
		}
	}
	changes := importer.Rereads(pages, importer.Known{Pages: pageAt, Files: fileAt})
	for batch := range slices.Chunk(changes, edit.MaxChanges) {
		o, err := edit.Apply(t, batch, env)
		if err != nil {
			return nil, false, err
		}
		t = o.Tree
		maps.Copy(out.Bodies, o.Bodies)
	}
	out.Tree, out.Changed, out.Paths = t, changedKeys(base.Tree, t), Paths(t, base.Root)
	return out, true, nil
}

// inverse is an id → path map as path → id.
func inverse(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for id, p := range m {
		out[p] = id
	}
	return out
}

// listedTitle is the title SUMMARY.md gives the page: its own, "" when it or a page above it is
// hidden (SUMMARY.md does not list it).
func listedTitle(t *tree.Tree, id string) string {
	for p := t.Page(id); p != nil; p = t.Page(p.Parent) {
		if p.Hidden {
			return ""
		}
	}
	return t.Page(id).Title
}
