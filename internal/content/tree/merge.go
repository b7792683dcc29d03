package tree

import (
	"fmt"
	"slices"
)

// Merge is a three-way merge of two trees derived from a common base: Theirs' changes are brought
// into Ours. Entries are merged one by one (a page's fields three-way, its body line by line
// through Bodies), then the page tree is checked as a whole (no orphans, no cycles, unique slugs
// among siblings).
type Merge struct {
	Base, Ours, Theirs *Tree
	// Changed lists the keys that differ between Base and either side (Store.Diff of each; a key
	// may be listed twice).
	Changed []string
	// Bodies merges three versions of a page body given by hash ("" for none) and returns the
	// merged body's hash; conflict reports that both sides changed the same lines differently (the
	// merged body then carries both versions between conflict markers).
	Bodies func(base, ours, theirs string) (merged string, conflict bool, err error)
}

// Conflict is one place where both sides changed the same thing differently. One of Page, File
// and Reusable is set.
type Conflict struct {
	Page     string // page id
	File     string // file id
	Reusable string // reusable content id
	Title    string // the page's or reusable content's title or the file's name, for messages
	Reason   string
}

func (c Conflict) String() string {
	what := "page"
	switch {
	case c.File != "":
		what = "file"
	case c.Reusable != "":
		what = "reusable content"
	}
	return fmt.Sprintf("%s %q: %s", what, c.Title, c.Reason)
}

// Result of a merge.
type Result struct {
	Tree *Tree
	// Changed lists the keys whose entries differ from Ours.
	Changed []string
	// Conflicts are the places the merge settled by a rule rather than by the sides' agreement:
	// the change request's side kept for a field, both versions of a body's lines with markers,
	// a page deleted on one side but changed on the other kept, a page moved to the root because
	// its parent was gone or the moves made a cycle.
	Conflicts []Conflict
}

// Run merges. It never fails on content, only when Bodies does.
func (m Merge) Run() (Result, error) {
	r := Result{Tree: m.Ours.Clone()}
	for _, key := range slices.Compact(slices.Sorted(slices.Values(m.Changed))) {
		if err := m.mergeEntry(&r, key); err != nil {
			return Result{}, err
		}
	}
	m.repairStructure(&r)
	slices.Sort(r.Changed)
	r.Changed = slices.Compact(r.Changed)
	return r, nil
}

func (m Merge) mergeEntry(r *Result, key string) error {
	b, hasB := m.Base.Entry(key)
	o, hasO := m.Ours.Entry(key)
	t, hasT := m.Theirs.Entry(key)
	switch {
	case sameEntry(b, hasB, o, hasO): // only theirs changed it
		r.set(key, t, hasT)
	case sameEntry(b, hasB, t, hasT) || sameEntry(o, hasO, t, hasT): // only ours, or both alike
	case !hasO || !hasT: // deleted on one side, changed on the other: keep the changed one
		kept := o
		if !hasO {
			kept = t
			r.set(key, t, true)
		}
		r.conflict(kept, "deleted on one side and changed on the other; the changed version was kept")
	case o.Page != nil && t.Page != nil && hasB && b.Page != nil:
		return m.mergePage(r, b.Page, o.Page, t.Page)
	case o.Reusable != nil && t.Reusable != nil && hasB && b.Reusable != nil:
		return m.mergeReusable(r, b.Reusable, o.Reusable, t.Reusable)
	default: // a file changed on both sides, or an entry both sides added
		r.conflict(o, "changed on both sides; the version of "+oursName+" was kept")
	}
	return nil
}

// oursName names the side a merge keeps when it cannot combine both.
const oursName = "the side being merged into"

// mergePage merges a page both sides changed: each field three-way, the body line by line.
func (m Merge) mergePage(r *Result, b, o, t *Page) error {
	merged := *o
	var clashes []string
	pick := func(field string, base, ours, theirs any) any {
		switch {
		case ours == base:
			return theirs
		case theirs == base || theirs == ours:
			return ours
		}
		clashes = append(clashes, field)
		return ours
	}
	merged.Title = pick("title", b.Title, o.Title, t.Title).(string)
	merged.Slug = pick("slug", b.Slug, o.Slug, t.Slug).(string)
	merged.Emoji = pick("emoji", b.Emoji, o.Emoji, t.Emoji).(string)
	merged.Description = pick("description", b.Description, o.Description, t.Description).(string)
	merged.Type = pick("type", b.Type, o.Type, t.Type).(string)
	merged.Hidden = pick("hidden", b.Hidden, o.Hidden, t.Hidden).(bool)
	merged.NoIndex = pick("noIndex", b.NoIndex, o.NoIndex, t.NoIndex).(bool)
	merged.Condition = pick("condition", b.Condition, o.Condition, t.Condition).(string)
	if pick("position", place{b.Parent, b.Order}, place{o.Parent, o.Order}, place{t.Parent, t.Order}) == (place{t.Parent, t.Order}) {
		merged.Parent, merged.Order = t.Parent, t.Order
	}
	if t.UpdatedAt.After(merged.UpdatedAt) {
		merged.UpdatedAt = t.UpdatedAt
	}
	return m.settle(r, o.ID, Entry{Page: &merged}, &merged.Body, [3]string{b.Body, o.Body, t.Body}, clashes)
}

// settle merges the bodies (base, ours, theirs) of an entry both sides changed line by line into
// body, keeps the merged entry, and names its clashes, the body's among them, as conflicts.
func (m Merge) settle(r *Result, id string, merged Entry, body *string, bodies [3]string, clashes []string) error {
	text, clash, err := m.mergeBody(bodies[0], bodies[1], bodies[2])
	if err != nil {
		return err
	}
	*body = text
	if clash {
		clashes = append(clashes, "content")
	}
	r.set(id, merged, true)
	for _, field := range clashes {
		r.conflict(merged, "both sides changed the "+field)
	}
	return nil
}

type place struct{ parent, order string }

// mergeReusable merges a reusable content both sides changed, as a page: its title three-way,
// its body line by line.
func (m Merge) mergeReusable(r *Result, b, o, t *Reusable) error {
	merged := *o
	var clashes []string
	switch {
	case o.Title == b.Title:
		merged.Title = t.Title
	case t.Title != b.Title && t.Title != o.Title:
		clashes = append(clashes, "title")
	}
	if t.UpdatedAt.After(merged.UpdatedAt) {
		merged.UpdatedAt = t.UpdatedAt
	}
	return m.settle(r, o.ID, Entry{Reusable: &merged}, &merged.Body, [3]string{b.Body, o.Body, t.Body}, clashes)
}

func (m Merge) mergeBody(b, o, t string) (string, bool, error) {
	switch {
	case o == b:
		return t, false, nil
	case t == b || t == o:
		return o, false, nil
	}
	return m.Bodies(b, o, t)
}

// repairStructure settles what entry-by-entry merging can break in the tree: a page whose parent
// is gone or whose moves made a cycle goes to the root; a page whose slug a sibling took gets a
// suffix (not a conflict: both pages are kept and reachable).
func (m Merge) repairStructure(r *Result) {
	var suspects []string
	for _, key := range r.Changed {
		suspects = append(suspects, key)
		for _, orphan := range r.Tree.Children(key) { // children of a removed page
			suspects = append(suspects, orphan.ID)
		}
	}
	for _, key := range suspects {
		p := r.Tree.Page(key)
		if p == nil || p.Parent == "" {
			continue
		}
		if r.Tree.Page(p.Parent) == nil || r.Tree.IsUnder(p.Parent, p.ID) {
			moved := *p
			moved.Parent = ""
			r.set(key, Entry{Page: &moved}, true)
			r.conflict(Entry{Page: &moved}, "its parent page was deleted or moved under it; it was moved to the top level")
		}
	}
	r.renameSlugClashes()
}

// renameSlugClashes gives a changed page whose slug a sibling also has the smallest free "-N"
// suffix. Slugs are counted once per parent, so a merge of many pages stays linear.
func (r *Result) renameSlugClashes() {
	byParent := map[string][]*Page{}
	for _, key := range r.Changed {
		if p := r.Tree.Page(key); p != nil {
			byParent[p.Parent] = append(byParent[p.Parent], p)
		}
	}
	for parent, pages := range byParent {
		taken := map[string]int{}
		for _, c := range r.Tree.Children(parent) {
			taken[c.Slug]++
		}
		for _, p := range pages {
			if taken[p.Slug] < 2 {
				continue
			}
			renamed := *p
			renamed.Slug = freeSlug(p.Slug, func(s string) bool { return taken[s] > 0 })
			taken[p.Slug]--
			taken[renamed.Slug]++
			r.set(p.ID, Entry{Page: &renamed}, true)
		}
	}
}

// UniqueSlug returns slug, or slug with the smallest "-N" suffix, so that no child of parent other
// than the page self has it.
func UniqueSlug(t *Tree, parent, slug, self string) string {
	return freeSlug(slug, func(s string) bool { return t.slugTaken(parent, s, self) })
}

// freeSlug is slug, or slug-2, slug-3, … the first that is not taken.
func freeSlug(slug string, taken func(string) bool) string {
	candidate := slug
	for n := 2; taken(candidate); n++ {
		candidate = fmt.Sprintf("%s-%d", slug, n)
	}
	return candidate
}

func (r *Result) set(key string, e Entry, present bool) {
	r.Changed = append(r.Changed, key)
	switch {
	case !present:
		r.Tree.RemovePage(key) // children it keeps on the other side are settled by repairStructure
		r.Tree.DeleteFile(key)
		r.Tree.DeleteReusable(key)
	case e.Page != nil:
		r.Tree.SetPage(e.Page)
	case e.File != nil:
		r.Tree.SetFile(e.File)
	default:
		r.Tree.SetReusable(e.Reusable)
	}
}

func (r *Result) conflict(e Entry, reason string) {
	c := Conflict{Reason: reason}
	switch {
	case e.Page != nil:
		c.Page, c.Title = e.Page.ID, e.Page.Title
	case e.File != nil:
		c.File, c.Title = e.File.ID, e.File.Name
	case e.Reusable != nil:
		c.Reusable, c.Title = e.Reusable.ID, e.Reusable.Title
	}
	r.Conflicts = append(r.Conflicts, c)
}

// sameEntry reports whether two optional entries are equal.
func sameEntry(a Entry, hasA bool, b Entry, hasB bool) bool {
	if hasA != hasB {
		return false
	}
	if !hasA || (a.Page != nil && a.Page == b.Page) || (a.File != nil && a.File == b.File) ||
		(a.Reusable != nil && a.Reusable == b.Reusable) {
		return true
	}
	return encode(a) == encode(b)
}
