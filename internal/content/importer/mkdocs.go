package importer

import (
	"net/url"
	"path"
	"strings"

	"go.yaml.in/yaml/v4"
)

// mkdocs lays out an MkDocs project: the Markdown files of its docs_dir are pages, in the order and
// with the titles of mkdocs.yml's nav, its sections empty pages holding theirs (or their index
// page, as Material's navigation.indexes has it); without a nav, nested by folder.
type mkdocs struct {
	*outline
	docsDir string
}

// mkdocsSite lays out an MkDocs upload whose mkdocs.yml is at config.
func mkdocsSite(ups []upload, config string) Site {
	b := newSiteBuilder(DialectMkDocs, ups)
	var cfg []byte
	for _, u := range ups {
		if u.path == config {
			cfg = u.data
		}
	}
	docsDir, nav, n := readMkDocsConfig(cfg, dirOf(config))
	var drafts []*draft
	for _, u := range ups {
		_, inDocs := under(u.path, docsDir)
		switch {
		case u.path == config:
		case inDocs && IsMarkdown(u.path):
			drafts = append(drafts, readDraft(u, convertMkDocs))
		case IsMarkdown(u.path):
			b.skip(u, "outside the docs_dir %s/", docsDir)
		default:
			b.file(u)
		}
	}
	m := &mkdocs{outline: newOutline(b, docsDir, drafts, config), docsDir: docsDir}
	m.notes = n
	if nav == nil {
		m.notes.convert(0, "no nav: the pages are nested by folder")
		m.byFolder()
		return b.finish()
	}
	m.items(nav, nil, 0)
	m.finish("as MkDocs builds the pages its nav leaves out")
	return b.finish()
}

// readMkDocsConfig reads docs_dir (relative to mkdocs.yml's folder root, "docs" by default) and
// nav from mkdocs.yml. YAML it cannot read leaves both to their defaults, with a warning; tags of
// Python objects (`!!python/name:…`) and `!ENV` are not a problem, since only those two keys
// are read.
func readMkDocsConfig(data []byte, root string) (docsDir string, nav *yaml.Node, n notes) {
	docsDir = path.Join(root, "docs")
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		n.warn(0, "not read as a YAML mapping; docs_dir is docs and the pages are nested by folder")
		return docsDir, nil, n
	}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		key, value := top.Content[i].Value, top.Content[i+1]
		switch {
		case key == "docs_dir" && value.Kind == yaml.ScalarNode:
			dir := path.Join(root, value.Value)
			if strings.HasPrefix(dir, "..") || path.IsAbs(value.Value) {
				n.warn(0, "docs_dir %q is outside the upload; docs is read instead", value.Value)
				continue
			}
			docsDir = strings.TrimPrefix(dir, ".")
		case key == "nav" && value.Kind == yaml.SequenceNode:
			nav = value
		}
	}
	n.convert(0, "docs_dir: %s/", docsDir)
	return docsDir, nav, n
}

// items places the entries of a nav sequence under parent.
func (m *mkdocs) items(seq *yaml.Node, parent *url.URL, depth int) {
	for _, item := range seq.Content {
		switch item.Kind {
		case yaml.ScalarNode:
			m.entry("", item.Value, parent)
		case yaml.MappingNode:
			for i := 0; i+1 < len(item.Content); i += 2 {
				title, value := item.Content[i].Value, item.Content[i+1]
				switch {
				case value.Kind == yaml.ScalarNode:
					m.entry(title, value.Value, parent)
				case value.Kind == yaml.SequenceNode && depth >= maxNesting:
					m.notes.warn(0, "the nav section %q is nested more than %d deep; its pages are placed as if it were not in the nav", title, maxNesting)
				case value.Kind == yaml.SequenceNode:
					m.sectionOf(title, value, parent, depth)
				}
			}
		}
	}
}

// entry places the page a nav entry names; a link elsewhere is noted and left out.
func (m *mkdocs) entry(title, target string, parent *url.URL) {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "/") || strings.HasPrefix(target, "mailto:") {
		m.notes.warn(0, "the nav entry %q links to %s, which is not a page of the upload; left out", title, target)
		return
	}
	m.place(path.Join(m.docsDir, target), title, parent)
}

// sectionOf places a nav section: its index page (a first entry without a title naming an
// index.md) is the section's page, else an empty page titled as the section.
func (m *mkdocs) sectionOf(title string, seq *yaml.Node, parent *url.URL, depth int) {
	rest := seq
	var page *url.URL
	if len(seq.Content) > 0 && seq.Content[0].Kind == yaml.ScalarNode && path.Base(seq.Content[0].Value) == "index.md" {
		if page = m.place(path.Join(m.docsDir, seq.Content[0].Value), title, parent); page != nil {
			rest = &yaml.Node{Kind: yaml.SequenceNode, Content: seq.Content[1:]}
		}
	}
	if page == nil {
		page = m.section(m.docsDir, title, parent)
	}
	m.items(rest, page, depth+1)
}
