package importer

import (
	"cmp"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// maxTitle is the longest page title authoring accepts (runes).
const maxTitle = 256

// Outcome is an applied import.
type Outcome struct {
	*edit.Outcome
	Pages, Files int // how many pages and files were imported
	// Sources is where each imported page and file came from: the id it got → its Location.
	Sources map[string]*url.URL
}

// Build adds the site to base as content batches (edit.Apply, at most edit.MaxChanges changes
// each) applied one after the other onto the same working tree, so every rule of authoring holds
// (titles, slugs derived from them and free among siblings, order keys): first the files some
// page links to and the pages (top-level ones after the pages already at the top level), then
// each page's Markdown with its links rewritten to the ids the pages and files got (and the slugs
// pages ask for, where no sibling has them). A page's title is its NavTitle, else its Markdown's
// (front matter, else leading heading), else the Page's Title. Files no page links to are left
// out, but for those the Site's Shown Markdown links to.
func Build(base *tree.Tree, s Site, env edit.Env) (*Outcome, error) {
	p := newPlan(s)
	a := &applier{t: base, env: env, changed: map[string]bool{}, bodies: map[string]string{}}
	fileIDs, err := a.insertFiles(p)
	if err != nil {
		return nil, err
	}
	pageIDs, err := a.insertPages(p)
	if err != nil {
		return nil, err
	}
	if err := a.writeBodies(p, pageIDs, fileIDs); err != nil {
		return nil, err
	}
	o := a.outcome(len(pageIDs), len(fileIDs))
	o.Sources = make(map[string]*url.URL, len(pageIDs)+len(fileIDs))
	for i, id := range pageIDs {
		o.Sources[id] = p.pages[i].Location
	}
	for k, id := range fileIDs {
		o.Sources[id] = p.files[p.used[k]].Location
	}
	return o, nil
}

// plan is a site laid out: which page is under which, and where each page's links lead.
type plan struct {
	outline bool
	pages   []Page
	docs    []markdown.Parsed // each page's Markdown parsed; its links are rewritten in Body
	titles  []string
	parent  []int // index of the parent page, -1 at the top level
	order   []int // parents before children, siblings in site order
	files   []File
	used    []int // files some page links to, in order of first use
	links   [][]linkEdit
}

// linkEdit is where one link destination goes: an imported page (with a fragment) or file, or
// an absolute URL (a page of the site that was not imported).
type linkEdit struct {
	markdown.Span
	page, file int // index, -1 for none
	fragment   string
	url        string
}

func newPlan(s Site) *plan {
	p := &plan{outline: s.Outline}
	at := targets{page: map[string]int{}, file: map[string]int{}, id: map[string]int{}}
	for _, pg := range s.Pages {
		if key := PageKey(pg.Location); !has(at.page, key) {
			at.page[key] = len(p.pages)
			p.pages = append(p.pages, pg)
		}
	}
	for _, f := range s.Files {
		if key := FileKey(f.Location); !has(at.file, key) {
			at.file[key] = len(p.files)
			p.files = append(p.files, f)
		}
	}
	p.nest(at.page)
	at.addAliases(p.pages, p.files)
	usedAt := map[int]int{}
	for _, pg := range p.pages {
		doc, links := parsePage(pg)
		p.docs = append(p.docs, doc)
		p.titles = append(p.titles, pageTitle(doc.Title, pg.Title))
		edits := linkEdits(pg.Location, doc.Body, links, at)
		for i, e := range edits {
			if e.file >= 0 {
				edits[i].file = p.use(e.file, usedAt) // from now on: the index among the used files
			}
		}
		p.links = append(p.links, edits)
	}
	for _, sh := range s.Shown {
		for _, e := range linkEdits(sh.Location, sh.Markdown, markdown.Links(sh.Markdown), at) {
			if e.file >= 0 {
				p.use(e.file, usedAt)
			}
		}
	}
	return p
}

// use marks file i (an index among the site's files) used, in order of first use (usedAt
// holds the index among the used of each used one), and returns its index among the used.
func (p *plan) use(i int, usedAt map[int]int) int {
	if _, ok := usedAt[i]; !ok {
		usedAt[i] = len(p.used)
		p.used = append(p.used, i)
	}
	return usedAt[i]
}

func has(m map[string]int, key string) bool { _, ok := m[key]; return ok }

// targets are what links may name: pages and files by key, pages by doc id as written.
type targets struct {
	page, file, id map[string]int
}

// addAliases adds the other names of the pages and files, where no other has them.
func (at targets) addAliases(pages []Page, files []File) {
	for i, pg := range pages {
		for _, a := range pg.Aliases {
			if key := PageKey(a); !has(at.page, key) {
				at.page[key] = i
			}
		}
		if pg.DocID != "" && !has(at.id, pg.DocID) {
			at.id[pg.DocID] = i
		}
	}
	for i, f := range files {
		for _, a := range f.Aliases {
			if key := FileKey(a); !has(at.file, key) {
				at.file[key] = i
			}
		}
	}
}

// parsePage splits a page's Markdown, with the title its table of contents gives it when it has
// one (a leading heading saying something else then stays in the body), and returns the links of
// its body, in one parse.
func parsePage(pg Page) (markdown.Parsed, []markdown.Link) {
	if pg.NavTitle != "" {
		return markdown.ParseWithLinks(pg.Markdown, &pg.NavTitle)
	}
	return markdown.ParseWithLinks(pg.Markdown, nil)
}

// nest finds each page's parent — in an outline the page its Parent names when it comes before
// it, else the nearest page above it by path — and the insertion order.
func (p *plan) nest(pageAt map[string]int) {
	children := map[int][]int{}
	for i, pg := range p.pages {
		parent := -1
		switch {
		case p.outline && pg.Parent != nil:
			if j, ok := pageAt[PageKey(pg.Parent)]; ok && j < i {
				parent = j
			}
		case !p.outline:
			if key, ok := parentKey(PageKey(pg.Location), func(k string) bool { return has(pageAt, k) }); ok {
				parent = pageAt[key]
			}
		}
		p.parent = append(p.parent, parent)
		children[parent] = append(children[parent], i)
	}
	var visit func(parent int)
	visit = func(parent int) {
		for _, c := range children[parent] {
			p.order = append(p.order, c)
			visit(c)
		}
	}
	visit(-1)
}

// parentKey is the key of the nearest page above the page key by path, among those has knows;
// ok is false when there is none (the root path is never a parent).
func parentKey(key string, has func(string) bool) (string, bool) {
	host, _, _ := strings.Cut(key, "/")
	segs := segments(key)
	for k := len(segs) - 1; k >= 1; k-- {
		if c := host + "/" + strings.Join(segs[:k], "/"); has(c) {
			return c, true
		}
	}
	return "", false
}

// pageTitle is the Markdown's title, else the fallback, else "Untitled", trimmed to what
// authoring accepts.
func pageTitle(own, fallback string) string {
	title := strings.Join(strings.Fields(cmp.Or(own, fallback)), " ")
	if utf8.RuneCountInString(title) > maxTitle {
		title = strings.TrimSpace(string([]rune(title)[:maxTitle-1])) + "…"
	}
	return cmp.Or(title, "Untitled")
}

// linkEdits lists the rewrites of the link destinations of md, a body of the page at from whose
// links are links (markdown.Links), by offset, and of the destinations of its GitBook blocks that are not links (a content-ref's url,
// a file's or a figure's src). Reference links are rewritten through their definition; autolinks
// are left alone (one can only hold a URL).
func linkEdits(from *url.URL, md string, links []markdown.Link, at targets) []linkEdit {
	var out []linkEdit
	done := map[int]bool{}
	for _, l := range slices.Concat(links, markdown.BlockRefs(md)) {
		if l.Kind == markdown.Reference || l.Kind == markdown.Autolink || done[l.Start] {
			continue
		}
		done[l.Start] = true
		if e, ok := target(from, l.Dest, at); ok {
			e.Span = markdown.Span{Start: l.Start, End: l.End}
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b linkEdit) int { return a.Start - b.Start })
	return out
}

// target is where a destination written in the page at from leads, ok false to keep it as
// written: an anchor, another scheme (mailto:), a relative path of an upload that names nothing
// imported (authoring's own link rules then apply to it). A relative path that names nothing
// by location may be a page's doc id.
func target(from *url.URL, dest string, at targets) (linkEdit, bool) {
	none := linkEdit{page: -1, file: -1}
	if strings.HasPrefix(dest, "<") && strings.HasSuffix(dest, ">") {
		dest = dest[1 : len(dest)-1]
	}
	u, err := url.Parse(dest)
	if dest == "" || strings.HasPrefix(dest, "#") || err != nil {
		return none, false
	}
	abs := from.ResolveReference(u)
	switch abs.Scheme {
	case "http", "https", "file":
	default:
		return none, false
	}
	if i, ok := at.file[FileKey(abs)]; ok {
		none.file = i
		return none, true
	}
	if i, ok := at.page[PageKey(abs)]; ok {
		none.page, none.fragment = i, abs.EscapedFragment()
		return none, true
	}
	if i, ok := at.id[u.Path]; ok && u.Scheme == "" && u.Host == "" {
		none.page, none.fragment = i, abs.EscapedFragment()
		return none, true
	}
	if abs.Scheme == "file" || u.IsAbs() || u.Host != "" { // kept as written, escapes and all
		return none, false
	}
	none.url = destEscaper.Replace(abs.String())
	return none, true
}

// destEscaper escapes what would end a Markdown link destination early.
var destEscaper = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E")

// applier applies batches one after the other and gathers what they changed.
type applier struct {
	t       *tree.Tree
	env     edit.Env
	changed map[string]bool
	bodies  map[string]string
	blobs   []edit.Blob
}

// apply applies changes in batches of edit.MaxChanges and returns each batch's outcome.
func (a *applier) apply(changes []edit.Change) ([]*edit.Outcome, error) {
	var out []*edit.Outcome
	for batch := range slices.Chunk(changes, edit.MaxChanges) {
		o, err := edit.Apply(a.t, batch, a.env)
		if err != nil {
			return nil, err
		}
		a.t = o.Tree
		for _, k := range o.Changed {
			a.changed[k] = true
		}
		for h, b := range o.Bodies {
			a.bodies[h] = b
		}
		a.blobs = append(a.blobs, o.Blobs...)
		out = append(out, o)
	}
	return out, nil
}

// insertFiles inserts the files pages link to and returns their ids, by index among the used.
func (a *applier) insertFiles(p *plan) ([]string, error) {
	var changes []edit.Change
	for batch := range slices.Chunk(p.used, edit.MaxFiles) {
		c := edit.Change{Op: edit.OpInsertFiles}
		for _, i := range batch {
			f := p.files[i]
			c.Files = append(c.Files, edit.Upload{Name: f.Name, ContentType: f.ContentType, Data: f.Data})
		}
		changes = append(changes, c)
	}
	outcomes, err := a.apply(changes)
	var ids []string
	for _, o := range outcomes {
		for _, f := range o.Files {
			ids = append(ids, f.ID)
		}
	}
	return ids, err
}

// insertPages inserts the pages, parents first, with their titles (a Group as a group), and
// returns their ids by page index. A parent inserted by an earlier batch is named by id, one of
// the same batch by ref.
func (a *applier) insertPages(p *plan) ([]string, error) {
	ids := make([]string, len(p.pages))
	for batch := range slices.Chunk(p.order, edit.MaxChanges) {
		changes := make([]edit.Change, len(batch))
		for k, i := range batch {
			into := ""
			if parent := p.parent[i]; parent >= 0 {
				into = cmp.Or(ids[parent], ref(parent))
			}
			fields := edit.Fields{Title: &p.titles[i]}
			if p.pages[i].Hidden {
				fields.Hidden = &p.pages[i].Hidden
			}
			changes[k] = edit.Change{Op: edit.OpInsertPage, Ref: ref(i), Into: into, Fields: fields}
			if p.pages[i].Group {
				changes[k].Type = tree.TypeGroup
			}
		}
		outcomes, err := a.apply(changes)
		if err != nil {
			return nil, err
		}
		for _, created := range outcomes[0].Pages {
			if i, err := strconv.Atoi(strings.TrimPrefix(created.Ref, "import:")); err == nil {
				ids[i] = created.ID
			}
		}
	}
	return ids, nil
}

// ref names page i in the batch that inserts it; no slug holds ":", so it is never a page path.
func ref(i int) string { return "import:" + strconv.Itoa(i) }

// writeBodies sets each page's Markdown, its links rewritten and its title the one it was
// inserted with, and the slug it asks for when free.
func (a *applier) writeBodies(p *plan, pageIDs, fileIDs []string) error {
	var changes []edit.Change
	slugs := a.freeSlugs(p, pageIDs)
	for _, i := range p.order {
		var fields edit.Fields
		if strings.TrimSpace(p.pages[i].Markdown) != "" {
			fields = contentFields(p.docs[i], p.titles[i], rewrite(p.docs[i].Body, p.links[i], pageIDs, fileIDs))
		}
		if slug, ok := slugs[i]; ok {
			fields.Slug = &slug
		}
		if fields != (edit.Fields{}) {
			changes = append(changes, edit.Change{Op: edit.OpUpdatePage, Page: pageIDs[i], Fields: fields})
		}
	}
	_, err := a.apply(changes)
	return err
}

// contentFields set a page's content to doc, with its title and its body (links rewritten).
func contentFields(doc markdown.Parsed, title, body string) edit.Fields {
	doc.Title, doc.Body = title, body
	md := markdown.Render(doc)
	fields := edit.Fields{Markdown: &md}
	if doc.Emoji != "" { // front matter's icon, which authoring's Markdown leaves aside
		fields.Emoji = &doc.Emoji
	}
	return fields
}

// Known is what a repository imported before holds: the ids its pages and files got, by path
// from the top of the upload.
type Known struct{ Pages, Files map[string]string }

// Reread is a page imported before from a Markdown file, whose file changed.
type Reread struct {
	ID, Path string // the page, its file's path
	Data     []byte // the file's new bytes
	// NavTitle is the title the table of contents gives it, "" for a page it does not list.
	NavTitle string
}

// Rereads are the changes that set the content of pages imported before to their files' new
// bytes, read as Build reads a GitBook repository's pages: the title the table of contents gives
// (else its own, else its file's name), links to the repository's pages and files resolved to
// their ids by known, the description and icon of the front matter (none clears them).
func Rereads(pages []Reread, known Known) []edit.Change {
	at := targets{page: map[string]int{}, file: map[string]int{}, id: map[string]int{}}
	pageIDs := addKnown(at.page, known.Pages, PageKey)
	fileIDs := addKnown(at.file, known.Files, FileKey)
	changes := make([]edit.Change, len(pages))
	for i, r := range pages {
		pg := nativeDraft(upload{path: r.Path, data: r.Data}).page
		pg.NavTitle = r.NavTitle
		doc, links := parsePage(pg)
		body := rewrite(doc.Body, linkEdits(pg.Location, doc.Body, links, at), pageIDs, fileIDs)
		fields := contentFields(doc, pageTitle(doc.Title, pg.Title), body)
		fields.Emoji, fields.Description = &doc.Emoji, &doc.Description
		changes[i] = edit.Change{Op: edit.OpUpdatePage, Page: r.ID, Fields: fields}
	}
	return changes
}

// addKnown indexes the ids of byPath in at by the keys of their paths, the first path in order
// taking a key two spell alike; it returns the ids by index.
func addKnown(at map[string]int, byPath map[string]string, key func(*url.URL) string) []string {
	ids := make([]string, 0, len(byPath))
	for _, p := range slices.Sorted(maps.Keys(byPath)) {
		if k := key(fileURL(p)); !has(at, k) {
			at[k] = len(ids)
			ids = append(ids, byPath[p])
		}
	}
	return ids
}

// freeSlugs are the slugs pages ask for (Page.Slug) that no sibling has once the pages are
// inserted, nor one asked for before, by page index: applied in order, none is refused.
func (a *applier) freeSlugs(p *plan, pageIDs []string) map[int]string {
	out := map[int]string{}
	taken := map[string]bool{} // parent id + "/" + slug, asked for and granted
	for _, i := range p.order {
		want, id := p.pages[i].Slug, pageIDs[i]
		if want == "" || want == a.t.Page(id).Slug {
			continue
		}
		parent := a.t.Page(id).Parent
		if taken[parent+"/"+want] || tree.UniqueSlug(a.t, parent, want, id) != want {
			continue
		}
		taken[parent+"/"+want] = true
		out[i] = want
	}
	return out
}

// rewrite replaces the destinations of md's links as edits say.
func rewrite(md string, edits []linkEdit, pageIDs, fileIDs []string) string {
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(md[last:e.Start])
		switch {
		case e.file >= 0:
			b.WriteString("/files/" + fileIDs[e.file])
		case e.page >= 0:
			b.WriteString("/pages/" + pageIDs[e.page])
			if e.fragment != "" {
				b.WriteString("#" + e.fragment)
			}
		default:
			b.WriteString(e.url)
		}
		last = e.End
	}
	b.WriteString(md[last:])
	return b.String()
}

func (a *applier) outcome(pages, files int) *Outcome {
	o := &edit.Outcome{Tree: a.t, Bodies: a.bodies, Blobs: a.blobs}
	for k := range a.changed {
		o.Changed = append(o.Changed, k)
	}
	return &Outcome{Outcome: o, Pages: pages, Files: files}
}
