package format

import (
	"maps"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// summary writes SUMMARY.md: the pages as nested lists of links, each top-level group a "##"
// heading over a list of its pages. Hidden pages, and the pages under them, are not listed: the
// importer reads an unlisted page as hidden, as Git Sync does. A top-level page after a group
// is listed under that group, the format having no way to close one.
func summary(t *tree.Tree, l *layout) []byte {
	var b strings.Builder
	b.WriteString("# Table of contents\n\n")
	for _, p := range t.Children("") {
		if p.Hidden {
			continue
		}
		if p.Type == tree.TypeGroup {
			b.WriteString("\n## " + headingText(p.Title) + "\n\n")
			listPages(&b, t, l, p.ID, 0)
			continue
		}
		listPage(&b, t, l, p, 0)
	}
	return []byte(b.String())
}

// listPages lists the children of parent, depth levels in.
func listPages(b *strings.Builder, t *tree.Tree, l *layout, parent string, depth int) {
	for _, p := range t.Children(parent) {
		if !p.Hidden {
			listPage(b, t, l, p, depth)
		}
	}
}

// listPage lists one page and, nested, its children. A group below the top level has no file:
// its item holds its title alone.
func listPage(b *strings.Builder, t *tree.Tree, l *layout, p *tree.Page, depth int) {
	b.WriteString(strings.Repeat("  ", depth) + "* ")
	title := markdown.EscapeLinkText(p.Title)
	if at, ok := l.Pages[p.ID]; ok {
		b.WriteString("[" + title + "](" + escapeDest(relative(path.Dir(l.at(Summary)), at)) + ")\n")
	} else {
		b.WriteString(title + "\n")
	}
	listPages(b, t, l, p.ID, depth+1)
}

// headingText is a title as the text of a one-line heading.
func headingText(title string) string {
	return strings.Join(strings.Fields(markdown.EscapeLinkText(title)), " ")
}

// config writes .gitbook.yaml: the root folder, the README and SUMMARY.md, and the redirects to
// the pages that exist, in order of their old paths.
func config(l *layout, redirects map[string]string) []byte {
	type structure struct {
		Readme  string `yaml:"readme"`
		Summary string `yaml:"summary"`
	}
	var doc struct {
		Root      string     `yaml:"root"`
		Structure structure  `yaml:"structure"`
		Redirects *yaml.Node `yaml:"redirects,omitempty"`
	}
	doc.Root = "./" + strings.TrimPrefix(l.root+"/", "/")
	doc.Structure = structure{Readme: Readme, Summary: Summary}
	rootDir := l.at("")
	for _, from := range slices.Sorted(maps.Keys(redirects)) {
		to, ok := l.Pages[redirects[from]]
		if !ok {
			continue
		}
		if doc.Redirects == nil {
			doc.Redirects = &yaml.Node{Kind: yaml.MappingNode}
		}
		doc.Redirects.Content = append(doc.Redirects.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Value: from},
			&yaml.Node{Kind: yaml.ScalarNode, Value: strings.TrimPrefix(strings.TrimPrefix(to, rootDir), "/")})
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		panic(err) // a struct of strings always marshals
	}
	return out
}
