package edit

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/adaptive"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/orderkey"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// batch is the state of a batch being applied.
type batch struct {
	env      Env
	t        *tree.Tree
	changed  map[string]bool
	pageRefs map[string]string // ref → page id
	fileRefs map[string]string // ref → file id
	docs     map[string]body   // page id → Markdown body set by the batch, links not yet resolved
	bodies   map[string]string // hash → the bodies written, links resolved (writeBodies)
	pages    touches
	reusable reusables
	blobs    []Blob
	files    []*tree.File
}

func newBatch(base *tree.Tree, env Env) *batch {
	return &batch{env: env, t: base.Clone(), changed: map[string]bool{}, pageRefs: map[string]string{},
		fileRefs: map[string]string{}, docs: map[string]body{}, pages: touches{at: map[string]int{}},
		reusable: reusables{refs: map[string]string{}, docs: map[string]string{}, touches: touches{at: map[string]int{}}}}
}

func (b *batch) apply(c Change) error {
	if c.Type != "" && c.Op != OpInsertPage {
		return badf("type: only insert_page takes one")
	}
	switch c.Op {
	case OpInsertPage:
		return b.insertPage(c)
	case OpUpdatePage:
		return b.updatePage(c)
	case OpDeletePage:
		return b.deletePage(c)
	case OpRevertPage:
		return b.revertPage(c)
	case OpInsertFiles:
		return b.insertFiles(c)
	case OpInsertReusable:
		return b.insertReusable(c)
	case OpUpdateReusable:
		return b.updateReusable(c)
	case OpDeleteReusable:
		return b.deleteReusable(c)
	}
	return badf("operation: %q is not one of insert_page, update_page, delete_page, revert_page, insert_files, "+
		"insert_reusable_content, update_reusable_content, delete_reusable_content", c.Op)
}

func (b *batch) insertPage(c Change) error {
	if err := b.claimRef(c.Ref, "ref"); err != nil {
		return err
	}
	parent, err := b.parent(c.Into)
	if err != nil {
		return err
	}
	typ, err := pageType(c.Type, parent)
	if err != nil {
		return err
	}
	p := &tree.Page{ID: b.env.NewID(), Parent: parent, Type: typ, Title: "Untitled",
		CreatedAt: b.env.Now, UpdatedAt: b.env.Now}
	if err := b.setFields(p, c.Fields); err != nil {
		return err
	}
	if c.Fields.Slug == nil {
		p.Slug = tree.UniqueSlug(b.t, parent, Slugify(p.Title), p.ID)
	}
	if p.Order, err = b.orderAt(parent, p.ID, c.At); err != nil {
		return err
	}
	if c.Ref != "" {
		b.pageRefs[c.Ref] = p.ID
	}
	b.put(p)
	b.touch("created_page", p.ID, c.Ref)
	return nil
}

// pageType is the type of a page inserted under parent ("" for the top level): a document unless
// typ says group. A group is a top-level page, as GitBook's are (its SUMMARY.md gives them as
// "##" headings between the lists of pages).
func pageType(typ, parent string) (string, error) {
	switch typ {
	case "", tree.TypeDocument:
		return tree.TypeDocument, nil
	case tree.TypeGroup:
		if parent != "" {
			return "", errGroupNested
		}
		return tree.TypeGroup, nil
	}
	return "", badf("type: %q is not one of %s, %s", typ, tree.TypeDocument, tree.TypeGroup)
}

// errGroupNested refuses a group below the top level.
var errGroupNested = badf("into: a group is a top-level page, never under another page")

func (b *batch) updatePage(c Change) error {
	old, err := b.page(c.Page)
	if err != nil {
		return err
	}
	p := *old
	if c.IntoSet || c.At != nil {
		if err := b.move(&p, c); err != nil {
			return err
		}
	}
	if err := b.setFields(&p, c.Fields); err != nil {
		return err
	}
	p.UpdatedAt = b.env.Now
	b.put(&p)
	b.touch("updated_page", p.ID, "")
	return nil
}

// move places p under the change's Into (when set) at its At (or at the end of new siblings).
func (b *batch) move(p *tree.Page, c Change) error {
	parent := p.Parent
	if c.IntoSet {
		var err error
		if parent, err = b.parent(c.Into); err != nil {
			return err
		}
		if parent != "" && b.t.IsUnder(parent, p.ID) {
			return badf("into: a page cannot move under itself or one of its descendants")
		}
		if parent != "" && p.Type == tree.TypeGroup {
			return errGroupNested
		}
	}
	at := c.At
	if parent == p.Parent && at == nil {
		return nil // same parent, no position: the page stays where it is
	}
	order, err := b.orderAt(parent, p.ID, at)
	if err != nil {
		return err
	}
	if parent != p.Parent && c.Fields.Slug == nil {
		p.Slug = tree.UniqueSlug(b.t, parent, p.Slug, p.ID)
	}
	p.Parent, p.Order = parent, order
	return nil
}

func (b *batch) deletePage(c Change) error {
	if _, err := b.page(c.Page); err != nil {
		return err
	}
	for _, id := range b.t.DeletePage(c.Page) {
		b.changed[id] = true
		delete(b.docs, id)
		b.touch("deleted_page", id, "")
	}
	return nil
}

// revertPage puts a page back as it is in another revision: removed if it was not there, restored
// (under its old parent if it is still there, else at the top level) if it was deleted since.
func (b *batch) revertPage(c Change) error {
	version, err := b.env.Version(c.Version)
	if err != nil {
		return badf("revision: %v", err)
	}
	old, cur := version.Page(c.Page), b.t.Page(c.Page)
	switch {
	case old == nil && cur == nil:
		return badf("page: no page %q in the change request or in the revision", c.Page)
	case old == nil:
		return b.deletePage(c)
	}
	restored := *old
	if b.t.Page(restored.Parent) == nil {
		restored.Parent = ""
	}
	restored.Slug = tree.UniqueSlug(b.t, restored.Parent, restored.Slug, restored.ID)
	delete(b.docs, restored.ID)
	b.put(&restored)
	b.touch("updated_page", restored.ID, "")
	return nil
}

func (b *batch) insertFiles(c Change) error {
	if len(c.Files) == 0 || len(c.Files) > MaxFiles {
		return badf("files: holds 1 to %d files, got %d", MaxFiles, len(c.Files))
	}
	for i, u := range c.Files {
		if err := b.insertFile(u); err != nil {
			return badf("files[%d].%v", i, err)
		}
	}
	return nil
}

func (b *batch) insertFile(u Upload) error {
	switch n := utf8.RuneCountInString(u.Name); {
	case n == 0 || n > maxFileName:
		return badf("name: must be 1 to %d characters, got %d", maxFileName, n)
	case u.ContentType == "":
		return badf("contentType: is required with base64 bytes")
	case len(u.Data) > MaxFileSize:
		return badf("base64: the file is %d bytes, more than the %d allowed", len(u.Data), MaxFileSize)
	}
	if err := b.claimRef(u.Ref, "ref"); err != nil {
		return err
	}
	hash := tree.Hash(u.Data)
	f := &tree.File{ID: b.env.NewID(), Name: u.Name, ContentType: u.ContentType, Blob: hash,
		Size: int64(len(u.Data)), CreatedAt: b.env.Now}
	if u.Ref != "" {
		b.fileRefs[u.Ref] = f.ID
	}
	b.t.SetFile(f)
	b.changed[f.ID] = true
	b.blobs = append(b.blobs, Blob{Hash: hash, Data: u.Data})
	b.files = append(b.files, f)
	return nil
}

// claimRef reserves a batch-local ref: unique in the batch and not the path of a page.
func (b *batch) claimRef(ref, field string) error {
	if ref == "" {
		return nil
	}
	if _, taken := b.pageRefs[ref]; taken {
		return badf("%s: %q is used twice in the batch", field, ref)
	}
	if _, taken := b.fileRefs[ref]; taken {
		return badf("%s: %q is used twice in the batch", field, ref)
	}
	if _, taken := b.reusable.refs[ref]; taken {
		return badf("%s: %q is used twice in the batch", field, ref)
	}
	if b.t.ByPath(strings.TrimSuffix(ref, ".md")) != nil {
		return badf("%s: %q is already the path of a page", field, ref)
	}
	return nil
}

// page returns the page with the given id or batch ref.
func (b *batch) page(id string) (*tree.Page, error) {
	if ref, ok := b.pageRefs[id]; ok {
		id = ref
	}
	if p := b.t.Page(id); p != nil {
		return p, nil
	}
	return nil, badf("page: no page %q in the change request", id)
}

// parent resolves an into value ("" for the top level).
func (b *batch) parent(into string) (string, error) {
	if into == "" {
		return "", nil
	}
	p, err := b.page(into)
	if err != nil {
		return "", badf("into: no page %q in the change request", into)
	}
	return p.ID, nil
}

// orderAt returns the order key that puts page self at index at among the children of parent
// (at the end when at is nil), renumbering the siblings when their keys leave no room between.
func (b *batch) orderAt(parent, self string, at *int) (string, error) {
	var sibs []*tree.Page
	for _, s := range b.t.Children(parent) {
		if s.ID != self {
			sibs = append(sibs, s)
		}
	}
	i := len(sibs)
	if at != nil {
		if *at < 0 || *at > len(sibs) {
			return "", badf("at: %d is outside 0..%d (the number of pages there)", *at, len(sibs))
		}
		i = *at
	}
	lo, hi := "", ""
	if i > 0 {
		lo = sibs[i-1].Order
	}
	if i < len(sibs) {
		hi = sibs[i].Order
	}
	if key, ok := orderkey.Between(lo, hi); ok {
		return key, nil
	}
	keys := orderkey.Spread(len(sibs) + 1)
	for j, s := range sibs {
		renumbered := *s
		renumbered.Order = keys[j+boolInt(j >= i)]
		b.put(&renumbered)
	}
	return keys[i], nil
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

// setFields applies a change's fields to p. The Markdown's front matter wins over the fields, as
// in the reference client; its leading heading names the page only when the change gives no
// title (decision 290).
func (b *batch) setFields(p *tree.Page, f Fields) error {
	switch {
	case p.Type == tree.TypeGroup && (f.Markdown != nil || f.Body != nil):
		return badf("document: a group has none, only the pages under it")
	case p.Type == tree.TypeGroup && f.Description != nil:
		return badf("description: a group has none")
	case f.Markdown != nil && f.Body != nil:
		return badf("document: give the page as markdown or as a JSON document, not both")
	case f.Body != nil:
		b.docs[p.ID] = body{*f.Body, markdown.Links(*f.Body)}
	case f.Markdown != nil:
		doc, links := markdown.ParseWithLinks(*f.Markdown, f.Title)
		if doc.Title != "" {
			f.Title = &doc.Title
		}
		if doc.Description != "" {
			f.Description = &doc.Description
		}
		b.docs[p.ID] = body{doc.Body, links}
	}
	f, err := checkFields(f)
	if err != nil {
		return err
	}
	set(&p.Title, f.Title)
	set(&p.Emoji, f.Emoji)
	set(&p.Description, f.Description)
	set(&p.Hidden, f.Hidden)
	set(&p.NoIndex, f.NoIndex)
	set(&p.Condition, f.Condition)
	if f.Slug != nil {
		if taken := tree.UniqueSlug(b.t, p.Parent, *f.Slug, p.ID); taken != *f.Slug {
			return badf("slug: %q is already the slug of another page there", *f.Slug)
		}
		p.Slug = *f.Slug
	}
	return nil
}

// body is a page's Markdown body as a change set it, with its links (markdown.Links) found when it
// was parsed: resolving them parses it no more.
type body struct {
	md    string
	links []markdown.Link
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// checkFields checks the bounds of the reference client's RevisionPageUpdate.
// It returns the fields with the title trimmed.
func checkFields(f Fields) (Fields, error) {
	if f.Title != nil {
		title := strings.TrimSpace(*f.Title)
		if n := utf8.RuneCountInString(title); n == 0 || n > maxTitle {
			return f, badf("title: must be 1 to %d characters, got %d", maxTitle, n)
		}
		f.Title = &title
	}
	if f.Slug != nil {
		if err := checkSlug(*f.Slug); err != nil {
			return f, err
		}
	}
	if f.Emoji != nil && utf8.RuneCountInString(*f.Emoji) > maxEmoji {
		return f, badf("emoji: at most %d characters", maxEmoji)
	}
	if f.Condition != nil && *f.Condition != "" {
		if err := adaptive.CheckSyntax(*f.Condition); err != nil {
			return f, err // "condition: column N: …"
		}
	}
	return f, nil
}

func checkSlug(slug string) error {
	if n := utf8.RuneCountInString(slug); n == 0 || n > maxSlug {
		return badf("slug: must be 1 to %d characters, got %d", maxSlug, n)
	}
	for _, r := range slug {
		if !isSlugRune(r) && r != '-' && r != '_' && r != '.' {
			return badf("slug: %q may hold only letters, digits, '-', '_' and '.'", slug)
		}
	}
	return nil
}

func isSlugRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// put stores a page the batch wrote.
func (b *batch) put(p *tree.Page) {
	b.t.SetPage(p)
	b.changed[p.ID] = true
}

func (b *batch) touch(kind, id, ref string) { b.pages.touch(kind, id, ref) }

// touches lists what a batch touched, in the order it first touched each.
type touches struct {
	list []Affected
	at   map[string]int // id → index in list
}

// touch records an id the first time the batch touches it; what the batch created stays
// "created_…" and what it deleted becomes "deleted_…".
func (l *touches) touch(kind, id, ref string) {
	if i, ok := l.at[id]; ok {
		if strings.HasPrefix(kind, "deleted_") {
			l.list[i].Kind = kind
		}
		return
	}
	l.at[id] = len(l.list)
	l.list = append(l.list, Affected{Kind: kind, ID: id, Ref: ref})
}

// writeBodies resolves the links of the bodies the batch set, against the final tree so refs work
// whatever the order of the changes, and stores them by hash.
func (b *batch) writeBodies() error {
	bodies := map[string]string{}
	resolver := markdown.Resolver{Tree: pageIndex{b.t}, PageRefs: b.pageRefs, FileRefs: b.fileRefs,
		FileByID: func(id string) bool { return b.t.File(id) != nil }}
	for id, doc := range b.docs {
		p := b.t.Page(id)
		if p == nil {
			return fmt.Errorf("page %s of a body is gone", id) // deleted pages drop their docs
		}
		resolver.From = id
		resolved := resolver.ResolveLinks(doc.md, doc.links)
		updated := *p
		updated.Body = ""
		if resolved != "" {
			updated.Body = tree.Hash([]byte(resolved))
			bodies[updated.Body] = resolved
		}
		b.t.SetPage(&updated)
	}
	b.writeReusableBodies(resolver, bodies)
	b.bodies = bodies
	return nil
}

func (b *batch) outcome() *Outcome {
	o := &Outcome{Tree: b.t, Bodies: b.bodies, Blobs: b.blobs, Pages: b.pages.list, Files: b.files,
		Reusables: b.reusable.list}
	for k := range b.changed {
		o.Changed = append(o.Changed, k)
	}
	return o
}

// pageIndex answers the Markdown link resolver's questions about a tree.
type pageIndex struct{ t *tree.Tree }

func (x pageIndex) PageByID(id string) bool { return x.t.Page(id) != nil }

func (x pageIndex) PageBySlugPath(path string) (string, bool) {
	if p := x.t.ByPath(path); p != nil {
		return p.ID, true
	}
	return "", false
}

func (x pageIndex) PagePath(id string) (string, bool, bool) {
	if x.t.Page(id) == nil {
		return "", false, false
	}
	return x.t.Path(id), len(x.t.Children(id)) > 0, true
}

func (x pageIndex) RootPage() (string, bool) {
	if roots := x.t.Children(""); len(roots) > 0 {
		return roots[0].ID, true
	}
	return "", false
}
