package format

import (
	"cmp"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
)

// Reusable contents are files of .gitbook/includes, as GitBook writes them: "<slug of the
// title>.md" (numbered when taken, as assets are), a front matter block with the title, then
// the body; a page places one with `{% include "<path of the file relative to the page's>" %}`
// where the stored Markdown names it by id (`{% include "/reusable-contents/<id>" %}`).

// placeReusables places the reusable contents under .gitbook/includes by title, in order of
// title then id.
func (l *layout) placeReusables(list []*tree.Reusable) {
	list = slices.Clone(list)
	slices.SortFunc(list, func(a, b *tree.Reusable) int {
		return cmp.Or(strings.Compare(a.Title, b.Title), strings.Compare(a.ID, b.ID))
	})
	for _, r := range list {
		l.Reusables[r.ID] = l.unique(path.Join(IncludesDir, edit.Slugify(r.Title)), ".md")
	}
}

// includeTarget is what the path of an include tag in the stored body of the file at from becomes:
// the path of the reusable content's file relative to from's folder, as GitBook writes it (not
// percent-encoded); ok is false for a path that names no reusable content of the space, which
// stays as it is.
func (l *layout) includeTarget(from, src string) (string, bool) {
	id, ok := document.IncludedID(src)
	if !ok {
		return "", false
	}
	to, ok := l.Reusables[id]
	if !ok {
		return "", false
	}
	return relative(path.Dir(from), to), true
}

// reusableMarkdown is the file of a reusable content: its title in the front matter, its body with
// links and include tags relative to the file.
func (l *layout) reusableMarkdown(r *tree.Reusable, body string) string {
	return markdown.ReusableFile(r.Title, l.repositoryBody(l.Reusables[r.ID], body))
}

// isInclude reports whether p (relative to the root folder) is a reusable content's file.
func isInclude(p string) bool {
	rest, ok := strings.CutPrefix(p, IncludesDir+"/")
	return ok && rest != "" && strings.EqualFold(path.Ext(p), ".md")
}

// readReusables reads the repository's reusable contents (m.data, paths relative to the root
// folder) and gives each the id of the base's content the last sync recorded at its path (or
// the base's export puts there), else of the one base content no path matched with its title,
// else a new id. A base content the last synced commit had and the repository lacks is gone;
// one the commit never had (none was written before Git Sync wrote reusable contents) stays.
func (m *match) readReusables(newID func() string) {
	at := map[string]string{}
	for id, p := range m.lb.Reusables {
		at[p] = id
	}
	for id, p := range m.base.Known {
		if rel, ok := underFolder(m.base.Root, p); ok && m.base.Tree.Reusable(id) != nil {
			at[rel] = id
		}
	}
	var paths []string
	for p := range m.data {
		if isInclude(p) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	titles := make(map[string]string, len(paths))
	taken := map[string]bool{}
	for _, p := range paths {
		title, _ := markdown.ParseReusableFile(string(m.data[p]))
		titles[p] = cmp.Or(title, strings.TrimSuffix(path.Base(p), path.Ext(p)))
		if id := at[p]; id != "" && !taken[id] {
			m.includes[p], taken[id] = id, true
		}
	}
	byTitle := map[string][]string{} // the base's contents no path took, by title
	for _, r := range m.base.Tree.Reusables() {
		if !taken[r.ID] {
			byTitle[r.Title] = append(byTitle[r.Title], r.ID)
		}
	}
	fresh := map[string][]string{}
	for _, p := range paths {
		if m.includes[p] == "" {
			fresh[titles[p]] = append(fresh[titles[p]], p)
		}
	}
	for title, ps := range fresh {
		if b := byTitle[title]; len(ps) == 1 && len(b) == 1 {
			m.includes[ps[0]], taken[b[0]] = b[0], true
		}
	}
	for _, p := range paths {
		if m.includes[p] == "" {
			m.includes[p] = newID()
		}
	}
	for _, p := range paths {
		m.reusables = append(m.reusables, m.reusable(p, titles[p]))
	}
	for _, r := range m.base.Tree.Reusables() { // never written to the repository: it stays
		if _, synced := m.base.Known[r.ID]; !taken[r.ID] && !synced {
			m.reusables = append(m.reusables, r)
		}
	}
}

// reusable is the reusable content the file at p becomes: the base's when title and body are the
// same, else one with the base's id and creation time.
func (m *match) reusable(p, title string) *tree.Reusable {
	id := m.includes[p]
	_, body := markdown.ParseReusableFile(string(m.data[p]))
	body = m.storedBody(p, body)
	r := &tree.Reusable{ID: id, Title: title, CreatedAt: m.now, UpdatedAt: m.now}
	if body != "" {
		r.Body = tree.Hash([]byte(body))
	}
	if b := m.base.Tree.Reusable(id); b != nil {
		if b.Title == r.Title && b.Body == r.Body {
			return b
		}
		r.CreatedAt = b.CreatedAt
	}
	if body != "" {
		m.bodies[r.Body] = body
	}
	return r
}

// storedBody is the Markdown of the file at p (relative to the root folder) as Bindery stores it:
// its links and blocks naming the repository's pages and files by path named by id, its include
// tags naming the reusable contents by id. What names nothing of the repository stays.
func (m *match) storedBody(p, body string) string {
	target := func(dest string) (string, bool) { return m.linkID(p, dest) }
	body = markdown.RewriteBlockRefs(markdown.ForReader(body, target), target)
	return m.includeIDs(p, body)
}

// linkID is the stored destination of a link in the file at from: "/pages/<id>" or
// "/files/<id>" for a relative path to a page's file or an asset the import read, dest itself
// otherwise.
func (m *match) linkID(from, dest string) (string, bool) {
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" || strings.HasPrefix(u.Path, "/") {
		return dest, true
	}
	to := path.Join(path.Dir(from), u.Path)
	anchor := ""
	if u.Fragment != "" {
		anchor = "#" + u.EscapedFragment()
	}
	if id, ok := m.srcPage[to]; ok {
		return "/pages/" + url.PathEscape(m.id(id)) + anchor, true
	}
	if id, ok := m.srcPage[path.Join(to, Readme)]; ok {
		return "/pages/" + url.PathEscape(m.id(id)) + anchor, true
	}
	if id, ok := m.srcFile[to]; ok {
		return "/files/" + url.PathEscape(m.id(id)), true
	}
	return dest, true
}

// includeIDs rewrites the include tags of the Markdown of the file at from (relative to the root
// folder) to name the reusable contents by id. A tag whose path is absolute, leaves the
// repository, is not under .gitbook/includes or names no file there stays as it is (readers see
// it as text), with a warning: nothing outside the repository's files is ever read.
func (m *match) includeIDs(from, md string) string {
	return markdown.RewriteIncludes(md, func(src string) (string, bool) {
		if _, ok := document.IncludedID(src); ok {
			return src, true
		}
		why := ""
		to := path.Join(path.Dir(from), src)
		switch {
		case strings.HasPrefix(src, "/") || strings.Contains(src, "://"):
			why = "is not relative to the page"
		case to == ".." || strings.HasPrefix(to, "../"):
			why = "leaves the repository"
		case !isInclude(to):
			why = "is not a Markdown file under " + IncludesDir
		case m.includes[to] == "":
			why = "names no file of the repository"
		}
		if why != "" {
			m.warn(fmt.Sprintf("%s: the include %q %s: it is left as text", path.Join(m.base.Root, from), clipNote(src), why))
			return "", false
		}
		return document.IncludePath(m.includes[to]), true
	})
}

// maxWarnings bounds the warnings one import gives.
const maxWarnings = 100

func (m *match) warn(w string) {
	if len(m.warnings) < maxWarnings {
		m.warnings = append(m.warnings, w)
	}
}

// clipNote is s cut to 200 bytes for a warning (a hostile path may be long).
func clipNote(s string) string {
	if len(s) > 200 {
		return strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}
