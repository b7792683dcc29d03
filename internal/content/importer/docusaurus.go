package importer

import (
	"cmp"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/binderyhq/bindery/internal/content/edit"
)

// docusaurus lays out a Docusaurus site, or its docs folder alone: the Markdown and MDX files of
// the docs folder are pages, nested as its folders (categories) nest, in sidebar order.
type docusaurus struct {
	b         *siteBuilder
	config    string // docusaurus.config.*, "" when the upload is a docs folder alone
	docsDir   string // the docs folder in the upload ("" for the whole upload)
	routeBase string // the docs' URL prefix ("docs")
	cats      map[string]*category
}

// docusaurusDoc is a page of the docs folder.
type docusaurusDoc struct {
	*draft
	name     string // its file name as written, which orders it among unpositioned siblings
	position float64
	ordered  bool // it has a position
	isIndex  bool // index.md, README.md or the folder's name: the category's page
	id       string
}

// category is a folder of the docs folder.
type category struct {
	dir      string // in the docs folder; "" for the docs folder itself
	label    string
	position float64
	ordered  bool
	linkID   string // the doc its _category_ file's link names
	docs     []*docusaurusDoc
	subdirs  []*category
}

var (
	routeBasePath = regexp.MustCompile(`routeBasePath\s*:\s*['"]([^'"]*)['"]`)
	numberPrefix  = regexp.MustCompile(`^(\d+)\s*[-_.]+\s*([^-_.\s].*)$`)
)

// docusaurusSite lays out a Docusaurus upload; marker is the file that said it is one.
func docusaurusSite(ups []upload, marker string) Site {
	d := &docusaurus{b: newSiteBuilder(DialectDocusaurus, ups), routeBase: "docs", cats: map[string]*category{"": {}}}
	d.findDocs(ups, marker)
	convert := chain(convertMDX, convertColonAdmonitions)
	for _, u := range ups {
		rel, inDocs := under(u.path, d.docsDir)
		base := path.Base(u.path)
		switch {
		case u.path == d.config:
			var n notes
			n.convert(0, "the docs folder is %s/, their URLs start with /%s", cmp.Or(d.docsDir, "."), d.routeBase)
			d.b.note(u.path, ResultLayout, &n)
		case docusaurusSide.MatchString(base):
			d.b.skip(u, "a sidebars file is JavaScript, not read: the order comes from sidebar_position, _category_ files and file names")
		case inDocs && categoryFile.MatchString(base):
			d.readCategory(u, dirOf(rel))
		case inDocs && IsMarkdown(u.path):
			d.addDoc(readDraft(u, convert), rel)
		case IsMarkdown(u.path):
			d.b.skip(u, "outside the docs folder %s/", d.docsDir)
		default:
			d.b.file(u, d.staticAlias(u.path)...)
		}
	}
	d.b.site.Outline = true
	d.place(d.cats[""], nil)
	return d.b.finish()
}

// findDocs finds the docs folder: "docs" beside the configuration when it holds pages, else the
// configuration's folder; without a configuration, the folder all pages are in.
func (d *docusaurus) findDocs(ups []upload, marker string) {
	var pages []string
	for _, u := range ups {
		if IsMarkdown(u.path) {
			pages = append(pages, u.path)
		}
	}
	if !docusaurusConfig.MatchString(path.Base(marker)) {
		d.docsDir = commonDir(pages)
		return
	}
	d.config = marker
	root := dirOf(marker)
	d.docsDir = root
	if docs := path.Join(root, "docs"); slices.ContainsFunc(pages, func(p string) bool { _, ok := under(p, docs); return ok }) {
		d.docsDir = docs
	}
	for _, u := range ups {
		if u.path == marker {
			if m := routeBasePath.FindSubmatch(u.data); m != nil {
				d.routeBase = strings.Trim(string(m[1]), "/")
			}
		}
	}
}

// readCategory reads a folder's _category_.json (or .yml): its label, position and the doc its
// link names.
func (d *docusaurus) readCategory(u upload, dir string) {
	var n notes
	defer d.b.note(u.path, ResultLayout, &n)
	if dir == "" {
		n.warn(0, "a _category_ file at the top of the docs folder names no category; not read")
		return
	}
	var v struct {
		Label    string   `yaml:"label"`
		Position *float64 `yaml:"position"`
		Link     struct {
			Type string `yaml:"type"`
			ID   string `yaml:"id"`
		} `yaml:"link"`
	}
	if err := yaml.Unmarshal(u.data, &v); err != nil {
		n.warn(0, "not read: %s", firstLine(err.Error()))
		return
	}
	c := d.category(dir)
	c.label = strings.TrimSpace(v.Label)
	if v.Position != nil {
		c.position, c.ordered = *v.Position, true
	}
	if v.Link.Type == "doc" {
		c.linkID = v.Link.ID
	}
	n.convert(0, "the folder %s/ is titled %q, position %s", dir, c.label, positionText(v.Position))
}

func positionText(p *float64) string {
	if p == nil {
		return "none"
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
}

// addDoc adds a page of the docs folder at rel: its id, position, fallback title, slug and the
// URLs Docusaurus gives it (which links may name it by).
func (d *docusaurus) addDoc(dr *draft, rel string) {
	dir := dirOf(rel)
	name := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
	number, bare := splitNumber(name)
	doc := &docusaurusDoc{draft: dr, name: path.Base(rel), id: path.Join(dir, cmp.Or(dr.front.str("id"), bare))}
	if pos, ok := dr.front.number("sidebar_position"); ok {
		doc.position, doc.ordered = pos, true
	} else if number >= 0 {
		doc.position, doc.ordered = float64(number), true
	}
	lower := strings.ToLower(bare)
	_, dirName := splitNumber(path.Base(dir))
	doc.isIndex = dir != "" && (lower == "index" || lower == "readme" || strings.EqualFold(bare, dirName))
	dr.page.Title = cmp.Or(dr.front.str("sidebar_label"), titleOfName(bare))
	dr.page.DocID = doc.id
	slug := dr.front.str("slug")
	dr.page.Aliases = []*url.URL{fileURL(path.Join(d.routeBase, d.urlPath(dir, path.Base(doc.id), slug, doc.isIndex))),
		fileURL(path.Join(d.routeBase, doc.id))}
	if seg := path.Base(strings.Trim(slug, "/")); slug != "" && seg != "." && seg != "" {
		dr.page.Slug = edit.Slugify(seg)
		dr.notes.convert(0, "slug %q → the page's slug %q when its siblings leave it free", slug, dr.page.Slug)
	}
	c := d.category(dir)
	c.docs = append(c.docs, doc)
}

// urlPath is a doc's URL path under the docs' prefix: its slug (absolute, or relative to its
// folder), else its folder's for a category's index, else its folder and id; folders without
// their number prefixes.
func (d *docusaurus) urlPath(dir, baseID, slug string, index bool) string {
	var parts []string
	for _, seg := range strings.Split(dir, "/") {
		_, bare := splitNumber(seg)
		parts = append(parts, bare)
	}
	folder := path.Join(parts...)
	switch {
	case strings.HasPrefix(slug, "/"):
		return strings.Trim(slug, "/")
	case slug != "":
		return path.Join(folder, slug)
	case index:
		return folder
	}
	return path.Join(folder, baseID)
}

// staticAlias is where Docusaurus serves a file of the site's static folder ("/img/a.png").
func (d *docusaurus) staticAlias(p string) []*url.URL {
	if d.config == "" {
		return nil
	}
	if rel, ok := under(p, path.Join(dirOf(d.config), "static")); ok {
		return []*url.URL{fileURL(rel)}
	}
	return nil
}

// category is the category of the folder dir, made with those above it when new.
func (d *docusaurus) category(dir string) *category {
	if c, ok := d.cats[dir]; ok {
		return c
	}
	c := &category{dir: dir}
	d.cats[dir] = c
	parent := d.category(dirOf(dir))
	parent.subdirs = append(parent.subdirs, c)
	return c
}

// sidebarItem is a doc or a category in its folder's sidebar.
type sidebarItem struct {
	doc      *docusaurusDoc
	cat      *category
	name     string
	position float64
	ordered  bool
}

// place adds the pages of category c under parent in sidebar order: those with a position by
// position, then the others by file name; a category is its index doc (or an empty page) with
// its own pages under it.
func (d *docusaurus) place(c *category, parent *url.URL) {
	index := c.index()
	var items []sidebarItem
	for _, doc := range c.docs {
		if doc != index {
			items = append(items, sidebarItem{doc: doc, name: doc.name, position: doc.position, ordered: doc.ordered})
		}
	}
	for _, sub := range c.subdirs {
		it := sidebarItem{cat: sub, name: path.Base(sub.dir), position: sub.position, ordered: sub.ordered}
		if idx := sub.index(); !it.ordered && idx != nil {
			it.position, it.ordered = idx.position, idx.ordered
		} else if number, _ := splitNumber(it.name); !it.ordered && number >= 0 {
			it.position, it.ordered = float64(number), true
		}
		items = append(items, it)
	}
	slices.SortStableFunc(items, bySidebarOrder)
	for _, it := range items {
		if it.doc != nil {
			it.doc.page.Parent = parent
			d.b.page(it.doc.page, it.doc.path, &it.doc.notes)
			continue
		}
		d.place(it.cat, d.categoryPage(it.cat, parent))
	}
}

// bySidebarOrder orders items with a position first, by position, then by name.
func bySidebarOrder(a, b sidebarItem) int {
	switch {
	case a.ordered && !b.ordered:
		return -1
	case !a.ordered && b.ordered:
		return 1
	case a.ordered && a.position != b.position:
		return cmp.Compare(a.position, b.position)
	}
	return strings.Compare(a.name, b.name)
}

// index is the doc that is the category's page: the one its link names, else its index doc.
func (c *category) index() *docusaurusDoc {
	if c.dir == "" {
		return nil
	}
	for _, doc := range c.docs {
		if c.linkID != "" && doc.id == c.linkID {
			return doc
		}
	}
	for _, doc := range c.docs {
		if doc.isIndex {
			return doc
		}
	}
	return nil
}

// categoryPage adds the page of a category under parent and returns its location: its index doc
// titled with its label, or an empty page of that title.
func (d *docusaurus) categoryPage(c *category, parent *url.URL) *url.URL {
	if idx := c.index(); idx != nil {
		idx.page.NavTitle, idx.page.Parent = cmp.Or(c.label, idx.page.NavTitle), parent
		d.b.page(idx.page, idx.path, &idx.notes)
		return idx.page.Location
	}
	_, bare := splitNumber(path.Base(c.dir))
	title := cmp.Or(c.label, titleOfName(bare))
	loc := fileURL(path.Join(d.docsDir, c.dir, ".category"))
	d.b.site.Pages = append(d.b.site.Pages, Page{Location: loc, NavTitle: title, Parent: parent,
		Aliases: []*url.URL{fileURL(path.Join(d.routeBase, "category", edit.Slugify(title)))}})
	return loc
}

// splitNumber splits Docusaurus' number prefix off a file or folder name ("01-intro" → 1,
// "intro"); number is -1 when it has none.
func splitNumber(name string) (number int, bare string) {
	m := numberPrefix.FindStringSubmatch(name)
	if m == nil {
		return -1, name
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return -1, name
	}
	return n, m[2]
}

// dirOf is the folder of a path, "" at the top.
func dirOf(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

// commonDir is the deepest folder every path is in, "" when none.
func commonDir(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	common := dirOf(paths[0])
	for _, p := range paths[1:] {
		for common != "" {
			if _, ok := under(p, common); ok {
				break
			}
			common = dirOf(common)
		}
	}
	return common
}
