package edit

import (
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// reusables is what a batch keeps of the reusable contents it touches.
type reusables struct {
	refs map[string]string // batch-local ref → reusable content id
	docs map[string]string // reusable content id → Markdown body set by the batch
	touches
}

// Kinds of Affected for reusable contents.
const (
	reusableCreated = "created_reusable_content"
	reusableUpdated = "updated_reusable_content"
	reusableDeleted = "deleted_reusable_content"
)

// insertReusable adds a reusable content: a title (required) and a body (Markdown or document).
func (b *batch) insertReusable(c Change) error {
	if err := b.claimRef(c.Ref, "ref"); err != nil {
		return err
	}
	if c.Fields.Title == nil {
		return badf("title: is required to insert a reusable content")
	}
	r := &tree.Reusable{ID: b.env.NewID(), CreatedAt: b.env.Now, UpdatedAt: b.env.Now}
	if err := b.setReusableFields(r, c); err != nil {
		return err
	}
	if c.Ref != "" {
		b.reusable.refs[c.Ref] = r.ID
	}
	b.putReusable(r)
	b.touchReusable(reusableCreated, r.ID, c.Ref)
	return nil
}

// updateReusable changes a reusable content's title or body.
func (b *batch) updateReusable(c Change) error {
	old, err := b.reusableOf(c.Reusable)
	if err != nil {
		return err
	}
	r := *old
	if err := b.setReusableFields(&r, c); err != nil {
		return err
	}
	r.UpdatedAt = b.env.Now
	b.putReusable(&r)
	b.touchReusable(reusableUpdated, r.ID, "")
	return nil
}

// deleteReusable removes a reusable content. Pages placing it keep their block, which readers
// see as a notice that the content is gone.
func (b *batch) deleteReusable(c Change) error {
	r, err := b.reusableOf(c.Reusable)
	if err != nil {
		return err
	}
	b.t.DeleteReusable(r.ID)
	b.changed[r.ID] = true
	delete(b.reusable.docs, r.ID)
	b.touchReusable(reusableDeleted, r.ID, "")
	return nil
}

// setReusableFields applies a change's title and body to r; the page fields a reusable content
// does not have are refused.
func (b *batch) setReusableFields(r *tree.Reusable, c Change) error {
	f := c.Fields
	switch {
	case f.Slug != nil, f.Emoji != nil, f.Description != nil, f.Hidden != nil, f.NoIndex != nil, f.Condition != nil,
		c.IntoSet, c.Into != "", c.At != nil, c.Page != "", len(c.Files) > 0, c.Version != "":
		return badf("%s: a reusable content has a title and a document only", pageOnlyField(c))
	case f.Markdown != nil && f.Body != nil:
		return badf("document: give the reusable content as markdown or as a JSON document, not both")
	case f.Body != nil:
		b.reusable.docs[r.ID] = *f.Body
	case f.Markdown != nil:
		b.reusable.docs[r.ID] = *f.Markdown
	}
	if f.Title != nil {
		title := strings.TrimSpace(*f.Title)
		if n := utf8.RuneCountInString(title); n == 0 || n > maxTitle {
			return badf("title: must be 1 to %d characters, got %d", maxTitle, n)
		}
		r.Title = title
	}
	return nil
}

// pageOnlyField names the first field of c that only a page change may have.
func pageOnlyField(c Change) string {
	f := c.Fields
	for _, field := range []struct {
		name string
		set  bool
	}{{"slug", f.Slug != nil}, {"emoji", f.Emoji != nil}, {"description", f.Description != nil},
		{"hidden", f.Hidden != nil}, {"noIndex", f.NoIndex != nil}, {"condition", f.Condition != nil},
		{"into", c.IntoSet || c.Into != ""}, {"at", c.At != nil}, {"page", c.Page != ""},
		{"files", len(c.Files) > 0}} {
		if field.set {
			return field.name
		}
	}
	return "revision"
}

// reusableOf returns the reusable content with the given id or batch ref.
func (b *batch) reusableOf(id string) (*tree.Reusable, error) {
	if id == "" {
		return nil, badf("reusableContent: is required")
	}
	if ref, ok := b.reusable.refs[id]; ok {
		id = ref
	}
	if r := b.t.Reusable(id); r != nil {
		return r, nil
	}
	return nil, badf("reusableContent: no reusable content %q in the change request", id)
}

func (b *batch) putReusable(r *tree.Reusable) {
	b.t.SetReusable(r)
	b.changed[r.ID] = true
}

func (b *batch) touchReusable(kind, id, ref string) { b.reusable.touch(kind, id, ref) }

// writeReusableBodies resolves the links of the reusable contents' bodies the batch set, as from
// a top-level page, and adds them to bodies by hash.
func (b *batch) writeReusableBodies(resolver markdown.Resolver, bodies map[string]string) {
	resolver.From = ""
	for id, body := range b.reusable.docs {
		r := *b.t.Reusable(id) // deleted ones dropped their docs
		r.Body = ""
		if resolved := resolver.Resolve(body); resolved != "" {
			r.Body = tree.Hash([]byte(resolved))
			bodies[r.Body] = resolved
		}
		b.t.SetReusable(&r)
	}
}
