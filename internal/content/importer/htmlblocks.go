package importer

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The blocks docs sites publish as HTML, rendered as GitBook-flavoured Markdown when a website is
// imported: admonitions (Docusaurus' theme-admonition, MkDocs' admonition) as hints, tabs
// (Docusaurus' tabs-container, Material's tabbed-set) as tabs, <details> (MkDocs' collapsibles
// too) as expandables. Anything else, or one of those not shaped as its site writes it, is
// rendered as html-to-markdown renders it.

// convertedKey is the context key of the notes of the page being converted.
type convertedKey struct{}

// renderDocsBlock renders an admonition, a group of tabs or a <details>.
func renderDocsBlock(ctx converter.Context, w converter.Writer, n *html.Node) converter.RenderStatus {
	if n.Type != html.ElementNode {
		return converter.RenderTryNext
	}
	var out []line
	var what string
	switch {
	case n.DataAtom == atom.Details:
		out, what = renderDetails(ctx, n), "<details> → expandable"
	case n.DataAtom != atom.Div:
		return converter.RenderTryNext
	case hasClass(n, "admonition") || hasClass(n, "theme-admonition"):
		out, what = renderAdmonition(ctx, n)
	case hasClass(n, "tabs-container") || hasClass(n, "tabbed-set"):
		out, what = renderTabs(ctx, n)
	}
	if out == nil {
		return converter.RenderTryNext
	}
	if page, ok := ctx.Value(convertedKey{}).(*notes); ok {
		page.convert(0, "%s", what)
	}
	w.WriteString("\n\n" + joinLines(out) + "\n\n")
	return converter.RenderSuccess
}

// renderAdmonition renders an admonition as a hint: its type from its classes, its title (when
// not the type's own name) a bold first line.
func renderAdmonition(ctx converter.Context, n *html.Node) ([]line, string) {
	kind := ""
	for _, c := range strings.Fields(attr(n, "class")) {
		c = strings.TrimPrefix(strings.TrimPrefix(c, "theme-admonition-"), "admonition-")
		if _, ok := materialStyles[c]; ok && kind == "" {
			kind = c
		}
		if _, ok := docusaurusStyles[c]; ok && kind == "" {
			kind = c
		}
	}
	style := cmp.Or(docusaurusStyles[kind], materialStyles[kind], "info")
	heading := find(n, func(k *html.Node) bool {
		return k != n && k.Type == html.ElementNode && (hasClass(k, "admonition-title") || hasClassPrefix(k, "admonitionHeading") || hasClass(k, "admonition-heading"))
	})
	content := n
	if c := find(n, func(k *html.Node) bool {
		return k.Type == html.ElementNode && (hasClassPrefix(k, "admonitionContent") || hasClass(k, "admonition-content"))
	}); c != nil {
		content = c
	}
	title := strings.Join(strings.Fields(textOf(heading)), " ")
	if strings.EqualFold(title, kind) {
		title = ""
	}
	body := renderChildren(ctx, content, heading)
	return hint("", style, title, 0, body), "an admonition (" + cmp.Or(kind, "untyped") + ") → " + style + " hint"
}

// renderTabs renders a group of tabs, its labels and panels paired in order; nil when they do not
// pair.
func renderTabs(ctx converter.Context, n *html.Node) ([]line, string) {
	var labels, panels []*html.Node
	if list := find(n, func(k *html.Node) bool { return attr(k, "role") == "tablist" }); list != nil {
		labels = children(list, func(k *html.Node) bool { return attr(k, "role") == "tab" })
		if holder := nextElement(list); holder != nil {
			panels = children(holder, func(k *html.Node) bool { return attr(k, "role") == "tabpanel" })
		}
	} else {
		labels = children(find(n, func(k *html.Node) bool { return hasClass(k, "tabbed-labels") }), isTag(atom.Label))
		panels = children(find(n, func(k *html.Node) bool { return hasClass(k, "tabbed-content") }),
			func(k *html.Node) bool { return hasClass(k, "tabbed-block") })
	}
	if len(labels) == 0 || len(labels) != len(panels) {
		return nil, ""
	}
	items := make([]tab, len(labels))
	for i := range labels {
		items[i] = tab{title: strings.Join(strings.Fields(textOf(labels[i])), " "), body: renderChildren(ctx, panels[i], nil)}
	}
	return tabs("", 0, items), "tabs → tabs"
}

// renderDetails renders a <details> as an expandable titled with its summary.
func renderDetails(ctx converter.Context, n *html.Node) []line {
	summary := find(n, isTag(atom.Summary))
	title := strings.Join(strings.Fields(textOf(summary)), " ")
	return expandable("", cmp.Or(title, "Details"), 0, renderChildren(ctx, n, summary))
}

// renderChildren renders the children of n but skip (a title rendered apart) as Markdown lines.
func renderChildren(ctx converter.Context, n, skip *html.Node) []line {
	var buf bytes.Buffer
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if k != skip {
			ctx.RenderNodes(ctx, &buf, k)
		}
	}
	return splitLines(strings.TrimSpace(buf.String()), 0)
}

// children are the element children of n that match (none for nil).
func children(n *html.Node, match func(*html.Node) bool) []*html.Node {
	if n == nil {
		return nil
	}
	var out []*html.Node
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if k.Type == html.ElementNode && match(k) {
			out = append(out, k)
		}
	}
	return out
}

// nextElement is the element after n among its siblings, nil when none.
func nextElement(n *html.Node) *html.Node {
	for k := n.NextSibling; k != nil; k = k.NextSibling {
		if k.Type == html.ElementNode {
			return k
		}
	}
	return nil
}

func hasClass(n *html.Node, class string) bool {
	return slices.Contains(strings.Fields(attr(n, "class")), class)
}

// hasClassPrefix reports whether one of n's classes starts with prefix (Docusaurus' CSS modules
// add a hash: admonitionHeading_Gvgb).
func hasClassPrefix(n *html.Node, prefix string) bool {
	return slices.ContainsFunc(strings.Fields(attr(n, "class")), func(c string) bool { return strings.HasPrefix(c, prefix+"_") })
}
