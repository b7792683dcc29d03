package importer

import (
	"cmp"
	"fmt"
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/binderyhq/bindery/internal/content/markdown"
)

// upload is an uploaded file whose path is checked and cleaned.
type upload struct {
	path string
	data []byte
}

// Markers of the dialects, by file name.
var (
	docusaurusConfig = regexp.MustCompile(`^docusaurus\.config\.(js|ts|mjs|cjs|mts|cts)$`)
	docusaurusSide   = regexp.MustCompile(`^sidebars\.(js|ts|mjs|cjs|json)$`)
	categoryFile     = regexp.MustCompile(`^_category_\.(json|ya?ml)$`)
	mkdocsConfig     = regexp.MustCompile(`^mkdocs\.ya?ml$`)
	gitbookConfig    = regexp.MustCompile(`^\.gitbook\.ya?ml$`)
)

// sidebarKey is a front matter line only Docusaurus writes.
var sidebarKey = regexp.MustCompile(`(?m)^sidebar_(position|label):`)

// detect says which dialect the uploads are written in, and the file that says so (the
// shallowest of its kind): a Docusaurus or MkDocs configuration, a .gitbook.yaml, a SUMMARY.md,
// then Docusaurus' _category_ files, .mdx pages or front matter with sidebar_position or
// sidebar_label (a docs folder alone); plain Markdown otherwise.
func detect(ups []upload) (dialect, marker string) {
	named := func(re *regexp.Regexp) func(upload) bool {
		return func(u upload) bool { return re.MatchString(path.Base(u.path)) }
	}
	checks := []struct {
		dialect string
		match   func(u upload) bool
	}{
		{DialectDocusaurus, named(docusaurusConfig)},
		{DialectMkDocs, named(mkdocsConfig)},
		{DialectGitBook, named(gitbookConfig)},
		{DialectGitBook, func(u upload) bool { return strings.EqualFold(path.Base(u.path), "SUMMARY.md") }},
		{DialectDocusaurus, func(u upload) bool { return categoryFile.MatchString(path.Base(u.path)) || isMDX(u.path) }},
		{DialectDocusaurus, hasSidebarKey},
	}
	for _, c := range checks {
		var found []string
		for _, u := range ups {
			if c.match(u) {
				found = append(found, u.path)
			}
		}
		if len(found) > 0 {
			return c.dialect, slices.MinFunc(found, byDepth)
		}
	}
	return DialectMarkdown, ""
}

// hasSidebarKey reports whether a page's front matter (in its first 4 kB) has a line only
// Docusaurus writes: sidebar_position or sidebar_label.
func hasSidebarKey(u upload) bool {
	if !IsMarkdown(u.path) {
		return false
	}
	block, _, ok := markdown.CutFrontMatter(string(u.data[:min(len(u.data), 4096)]))
	return ok && sidebarKey.MatchString(block)
}

// byDepth orders paths shallowest first, then by name.
func byDepth(a, b string) int {
	return cmp.Or(strings.Count(a, "/")-strings.Count(b, "/"), strings.Compare(a, b))
}

func isMDX(p string) bool { return strings.EqualFold(path.Ext(p), ".mdx") }

// Role is what an uploaded file (its cleaned path) is to the importer before the dialect is
// known: "page" for Markdown, "layout" for the files dialects read for order and titles
// (SUMMARY.md, mkdocs.yml, _category_.json, .gitbook.yaml, docusaurus.config.js, sidebars.js),
// "file" for others.
func Role(p string) string {
	base := path.Base(p)
	switch {
	case strings.EqualFold(base, "SUMMARY.md") || docusaurusConfig.MatchString(base) || docusaurusSide.MatchString(base) ||
		categoryFile.MatchString(base) || mkdocsConfig.MatchString(base) || gitbookConfig.MatchString(base):
		return ResultLayout
	case IsMarkdown(p):
		return ResultPage
	}
	return ResultFile
}

// under reports whether p is in the folder dir ("" for the whole upload), and its path there.
func under(p, dir string) (string, bool) {
	if dir == "" {
		return p, true
	}
	return strings.CutPrefix(p, dir+"/")
}

// fileURL is the location of an uploaded path, "file:///dir/name.md".
func fileURL(p string) *url.URL { return &url.URL{Scheme: "file", Path: "/" + p} }

// siteBuilder gathers a Site from uploads, with a report entry per file in upload order.
type siteBuilder struct {
	site   Site
	report map[string]int // index in site.Report by path
}

func newSiteBuilder(dialect string, ups []upload) *siteBuilder {
	b := &siteBuilder{site: Site{Dialect: dialect, Report: make([]FileReport, len(ups))}, report: map[string]int{}}
	for i, u := range ups {
		b.report[u.path] = i
		b.site.Report[i] = (&notes{}).report(u.path, ResultSkipped)
	}
	return b
}

// note sets the report of the file at p.
func (b *siteBuilder) note(p, result string, n *notes) {
	if i, ok := b.report[p]; ok {
		b.site.Report[i] = n.report(p, result)
	}
}

// file adds a file pages may link to, also named by the aliases.
func (b *siteBuilder) file(u upload, aliases ...*url.URL) {
	b.site.Files = append(b.site.Files, File{Location: fileURL(u.path), Name: path.Base(u.path),
		ContentType: contentType(u.path), Data: u.data, Aliases: aliases})
	b.note(u.path, ResultFile, &notes{})
}

// skip leaves a file out, saying why.
func (b *siteBuilder) skip(u upload, format string, args ...any) {
	var n notes
	n.warn(0, format, args...)
	b.note(u.path, ResultSkipped, &n)
}

// page adds a page read from the upload at p, with what reading it noted.
func (b *siteBuilder) page(pg Page, p string, n *notes) {
	b.site.Pages = append(b.site.Pages, pg)
	b.note(p, ResultPage, n)
}

// finish leaves out the pages that are another's location spelled differently (README.md and
// index.md of one folder, a.md and a.mdx), the first one kept, and returns the site.
func (b *siteBuilder) finish() Site {
	seen := map[string]string{}
	pages := b.site.Pages[:0]
	for _, pg := range b.site.Pages {
		key, p := PageKey(pg.Location), strings.TrimPrefix(pg.Location.Path, "/")
		if first, dup := seen[key]; dup {
			b.skip(upload{path: p}, "the same page as %s, which is imported", first)
			continue
		}
		seen[key] = p
		pages = append(pages, pg)
	}
	b.site.Pages = pages
	return b.site
}

// draft is a page file read: its page and what reading it noted.
type draft struct {
	path  string
	page  Page
	front frontMatter
	notes notes
}

// frontMatter is a page's front matter as YAML, for the dialects that write other keys than
// Bindery reads (Docusaurus' id, slug, sidebar_position).
type frontMatter map[string]any

// str is a key's value as text ("" when missing or not a scalar).
func (f frontMatter) str(key string) string {
	switch v := f[key].(type) {
	case string:
		return strings.TrimSpace(v)
	case int, float64, bool:
		return fmt.Sprint(v)
	}
	return ""
}

// number is a key's value as a number; ok is false when it is not one.
func (f frontMatter) number(key string) (float64, bool) {
	switch v := f[key].(type) {
	case int:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// readDraft reads an uploaded page: its front matter as YAML (Bindery keeps its description; the
// dialect reads the rest), then its body through convert. A front matter that is not YAML is left
// in the page, as Bindery reads it, with a warning.
func readDraft(u upload, convert func([]line, *notes) []line) *draft {
	d := &draft{path: u.path, page: Page{Location: fileURL(u.path)}}
	text := string(u.data)
	block, body, ok := markdown.CutFrontMatter(text)
	first := 1
	if ok {
		if err := yaml.Unmarshal([]byte(block), &d.front); err != nil {
			d.notes.warn(1, "the front matter is not YAML (%v); kept as it is", firstLine(err.Error()))
			d.front, body = nil, text
		} else {
			first += strings.Count(text[:len(text)-len(body)], "\n")
		}
	}
	lines := splitLines(body, first)
	if convert != nil {
		lines = convert(lines, &d.notes)
	}
	converted := joinLines(lines)
	if d.front != nil {
		converted = markdown.Render(markdown.Parsed{Description: d.front.str("description"), Body: converted})
	}
	d.page.Markdown = converted
	d.page.NavTitle = d.front.str("title")
	d.page.Title = titleFromPath(u.path)
	if d.front.str("draft") == "true" || d.front.str("unlisted") == "true" {
		d.page.Hidden = true
		d.notes.convert(0, "a draft or unlisted page: imported hidden")
	}
	return d
}

// nativeDraft reads an uploaded page already written as Bindery stores pages (a GitBook
// repository's).
func nativeDraft(u upload) *draft {
	return &draft{path: u.path, page: Page{Location: fileURL(u.path), Title: titleFromPath(u.path), Markdown: string(u.data)}}
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// chain runs conversions one after the other.
func chain(convs ...func([]line, *notes) []line) func([]line, *notes) []line {
	return func(lines []line, n *notes) []line {
		for _, c := range convs {
			lines = c(lines, n)
		}
		return lines
	}
}

// outline places pages in the order of a table of contents, and after them those it does not
// list, hidden, each under the nearest page above it by path.
type outline struct {
	b      *siteBuilder
	root   string            // the folder the pages are in, whose own page is no page's parent by path
	drafts map[string]*draft // the pages to place, by path
	placed map[string]bool
	source string // the table of contents' file, which the warnings name
	notes  notes  // what reading the table of contents noted
	serial int    // the sections made so far
	// folders are pages that hold a folder without being its file (a GitBook group holds the
	// folder of its slug), by the folder's page key: a page left out is placed under them by path.
	folders map[string]*url.URL
}

func newOutline(b *siteBuilder, root string, drafts []*draft, source string) *outline {
	o := &outline{b: b, root: root, drafts: map[string]*draft{}, placed: map[string]bool{}, source: source,
		folders: map[string]*url.URL{}}
	for _, d := range drafts {
		o.drafts[d.path] = d
	}
	b.site.Outline = true
	return o
}

// place puts the page at p under parent with the table of contents' title ("" to keep its own);
// its location, nil when the upload has no such page or it is already placed (with a warning).
func (o *outline) place(p, title string, parent *url.URL) *url.URL {
	d, ok := o.drafts[p]
	switch {
	case !ok:
		o.notes.warn(0, "%s names %s, which is not a page of the upload", path.Base(o.source), p)
		return nil
	case o.placed[p]:
		o.notes.warn(0, "%s lists %s twice; its first place is kept", path.Base(o.source), p)
		return nil
	}
	o.placed[p] = true
	d.page.NavTitle, d.page.Parent = cmp.Or(strings.TrimSpace(title), d.page.NavTitle), parent
	o.b.page(d.page, d.path, &d.notes)
	return d.page.Location
}

// section adds a page of its own for a section of the table of contents that has none: empty,
// titled as the section.
func (o *outline) section(dir, title string, parent *url.URL) *url.URL {
	o.notes.convert(0, "the section %q → an empty page of that title", title)
	return o.add(dir, Page{NavTitle: title, Parent: parent})
}

// group adds a group of the table of contents: a top-level page without a document, titled as
// the group, that holds the pages listed under it.
func (o *outline) group(dir, title string) *url.URL {
	o.notes.convert(0, "the group %q → a group of that title", title)
	return o.add(dir, Page{NavTitle: title, Group: true})
}

// add adds a page that no file of the upload is, at a location of its own in dir.
func (o *outline) add(dir string, pg Page) *url.URL {
	o.serial++
	pg.Location = fileURL(path.Join(dir, fmt.Sprintf(".section-%d", o.serial)))
	pg.NavTitle = cmp.Or(strings.TrimSpace(pg.NavTitle), "Untitled")
	o.b.site.Pages = append(o.b.site.Pages, pg)
	return pg.Location
}

// finish places the pages the table of contents does not list, hidden (why says why), and
// reports the table of contents' file.
func (o *outline) finish(why string) {
	o.rest(func(d *draft) {
		d.page.Hidden = true
		d.notes.warn(0, "not in %s: imported hidden, %s", path.Base(o.source), why)
	})
	o.b.note(o.source, ResultLayout, &o.notes)
}

// byFolder places the pages, there being no table of contents, as Git Sync lays out a space:
// siblings in path order, each under the nearest page above it by path; the root folder's own
// page is the first page, not their parent.
func (o *outline) byFolder() {
	o.rest(func(*draft) {})
	o.b.note(o.source, ResultLayout, &o.notes)
}

// rest places the pages not placed yet in path order, each under the nearest page above it by
// path but the root folder's own; mark sets what more they need.
func (o *outline) rest(mark func(*draft)) {
	var rest []string
	for p := range o.drafts {
		if !o.placed[p] {
			rest = append(rest, p)
		}
	}
	slices.SortFunc(rest, func(a, b string) int { return comparePaths(fileURL(a), fileURL(b)) })
	keys := maps.Clone(o.folders) // a page of the folder's own wins
	for _, pg := range o.b.site.Pages {
		keys[PageKey(pg.Location)] = pg.Location
	}
	rootKey := PageKey(fileURL(o.root))
	for _, p := range rest {
		d := o.drafts[p]
		key := PageKey(d.page.Location)
		if parent, ok := parentKey(key, func(k string) bool { return k != rootKey && keys[k] != nil }); ok {
			d.page.Parent = keys[parent]
		}
		mark(d)
		o.b.page(d.page, d.path, &d.notes)
		if _, taken := keys[key]; !taken {
			keys[key] = d.page.Location
		}
	}
}

// plainSite lays uploads out as Git Sync lays out a space: Markdown files are pages nested by
// their folders, other files are files pages may link to.
func plainSite(ups []upload) Site {
	b := newSiteBuilder(DialectMarkdown, ups)
	for _, u := range ups {
		if IsMarkdown(u.path) {
			b.page(Page{Location: fileURL(u.path), Title: titleFromPath(u.path), Markdown: string(u.data)}, u.path, &notes{})
			continue
		}
		b.file(u)
	}
	sortByPath(b.site.Pages)
	return b.finish()
}

// sortByPath orders pages as Git Sync lays them out: siblings by path, a folder's page before
// what it holds.
func sortByPath(pages []Page) {
	slices.SortStableFunc(pages, func(a, b Page) int { return comparePaths(a.Location, b.Location) })
}

func comparePaths(a, b *url.URL) int {
	return slices.Compare(segments(PageKey(a)), segments(PageKey(b)))
}
