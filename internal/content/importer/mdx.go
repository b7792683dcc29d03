package importer

import (
	"cmp"
	"regexp"
	"strings"
)

// MDX as Docusaurus writes it: the components it ships that have a block of their own are
// converted — <Tabs>/<TabItem> to tabs, <Admonition> to a hint, <details>/<Details> with their
// <summary> to an expandable — and the imports of those components dropped. Other components and
// other import and export lines are kept as text, with a warning.

// mdxBlocks are the components converted, by the name their tags have.
var mdxBlocks = map[string]bool{"Tabs": true, "TabItem": true, "Admonition": true, "details": true, "Details": true}

// mdxModules are the modules of those components, whose imports are dropped.
var mdxModules = map[string]bool{"@theme/Tabs": true, "@theme/TabItem": true, "@theme/Admonition": true, "@theme/Details": true}

// Bounds of an opening tag written over several lines.
const (
	maxTagLines = 64
	maxTagBytes = 16 << 10
)

var (
	mdxOpen      = regexp.MustCompile(`^<([A-Za-z][\w.]*)(?:[\s/>]|$)`)
	mdxClose     = regexp.MustCompile(`^</([A-Za-z][\w.]*)\s*>`)
	mdxTrailing  = regexp.MustCompile(`^(.*\S)\s*(</(?:Tabs|TabItem|Admonition|details|Details)\s*>)\s*$`)
	mdxSummary   = regexp.MustCompile(`^<summary>(.*?)</summary>`)
	mdxAttr      = regexp.MustCompile(`(\w+)=(?:"([^"]*)"|'([^']*)'|\{\s*(?:"([^"]*)"|'([^']*)'|` + "`([^`]*)`" + `)\s*\})`)
	mdxTabValues = regexp.MustCompile(`\{\s*(label|value)\s*:\s*(?:'([^']*)'|"([^"]*)")\s*,\s*(label|value)\s*:\s*(?:'([^']*)'|"([^"]*)")\s*,?\s*\}`)
	mdxComponent = regexp.MustCompile(`<([A-Z][\w.]*)`)
	mdxCodeSpan  = regexp.MustCompile("`[^`]*`")
	mdxModule    = regexp.MustCompile(`from\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]`)
	mdxStatement = regexp.MustCompile(`^(?:import\s+(?:[\w$]+\s*(?:,|from\b)|\{|\*\s*as\b|['"])|export\s+(?:const|let|var|function|default|async|\{|\*))`)
	htmlTag      = regexp.MustCompile(`<[^>]*>`)
)

// convertMDX converts the components Docusaurus ships (see above) in a page's lines.
func convertMDX(lines []line, notes *notes) []line {
	c := &mdxConverter{notes: notes, kept: map[string]int{}}
	c.lines = c.normalize(lines)
	c.stack = []*mdxFrame{{}}
	var f fence
	for c.i = 0; c.i < len(c.lines); c.i++ {
		l := c.lines[c.i]
		if f.inCode(l.text) {
			c.top().add(l)
			continue
		}
		c.line(l)
	}
	return c.finish()
}

// mdxConverter converts the normalized lines of one page, in order.
type mdxConverter struct {
	notes *notes
	lines []line // one tag a line (normalize)
	i     int
	stack []*mdxFrame // the root first
	kept  map[string]int
}

// mdxFrame is a component open while lines are read, or the page itself (the root).
type mdxFrame struct {
	name    string
	attrs   map[string]string
	tag     string // the opening tag as written
	ind     string // its indentation
	n       int    // its line
	start   int    // the index of its opening tag among the normalized lines
	body    []line
	gap     bool              // a block was just added: a blank line goes before what follows
	items   []tab             // Tabs: its tabs
	labels  map[string]string // Tabs: the labels its values={[…]} gives by value
	summary *string           // details: its summary
}

func (c *mdxConverter) top() *mdxFrame { return c.stack[len(c.stack)-1] }

// add adds lines to the body, after a blank line when a block was just added.
func (fr *mdxFrame) add(lines ...line) {
	if fr.gap && len(lines) > 0 && !isBlank(lines[0].text) {
		fr.body = append(fr.body, line{n: lines[0].n})
	}
	fr.gap = false
	fr.body = append(fr.body, lines...)
}

// line reads one line outside code.
func (c *mdxConverter) line(l line) {
	t := strings.TrimLeft(l.text, " \t")
	if strings.HasPrefix(t, "<") && c.tagLine(t, l) {
		return
	}
	if len(c.stack) == 1 && l.text == t && mdxStatement.MatchString(t) {
		c.statement(l)
		return
	}
	if strings.Contains(t, "<") {
		for _, m := range mdxComponent.FindAllStringSubmatch(mdxCodeSpan.ReplaceAllString(t, ""), -1) {
			c.notes.warn(l.n, "<%s> is a component Bindery does not convert; kept as text", m[1])
		}
	}
	c.top().add(l)
}

// tagLine reads a line t starting with "<" (l's text, its indentation trimmed) that closes or
// opens a converted component, or is the summary of details; false when it is none of those.
func (c *mdxConverter) tagLine(t string, l line) bool {
	if m := mdxClose.FindStringSubmatch(t); m != nil && mdxBlocks[m[1]] {
		c.close(m[1], l)
		return true
	}
	if m := mdxOpen.FindStringSubmatch(t); m != nil && mdxBlocks[m[1]] {
		c.open(m[1], l)
		return true
	}
	if m := mdxSummary.FindStringSubmatch(t); m != nil {
		if fr := c.top(); isDetails(fr.name) && fr.summary == nil && len(trimBlank(fr.body)) == 0 {
			fr.summary = &m[1]
			return true
		}
	}
	return false
}

// statement reads an import or export statement at the top level: an import of a component
// converted is dropped; others are kept as text.
func (c *mdxConverter) statement(l line) {
	first := c.i
	if strings.HasPrefix(l.text, "import ") {
		for c.i < len(c.lines)-1 && c.i-first < maxTagLines && !mdxModule.MatchString(c.lines[c.i].text) &&
			!strings.HasSuffix(strings.TrimSpace(c.lines[c.i].text), ";") {
			c.i++
		}
	}
	stmt := c.lines[first : c.i+1]
	if m := mdxModule.FindStringSubmatch(joinLines(stmt)); m != nil && mdxModules[cmp.Or(m[1], m[2])] {
		c.notes.convert(l.n, "the import of %s is dropped: its components are converted", cmp.Or(m[1], m[2]))
		return
	}
	c.notes.warn(l.n, "an MDX %s statement is kept as text", strings.Fields(l.text)[0])
	c.top().add(stmt...)
}

// open opens a component, or keeps its tag as text when components are nested too deep.
func (c *mdxConverter) open(name string, l line) {
	tag := strings.TrimLeft(l.text, " \t")
	if len(c.stack) > maxNesting {
		c.notes.warn(l.n, "<%s> is nested more than %d deep; kept as text", name, maxNesting)
		c.kept[name]++
		c.top().add(l)
		return
	}
	fr := &mdxFrame{name: name, attrs: mdxAttrs(tag), tag: tag, ind: indentOf(l.text), n: l.n, start: c.i}
	if name == "Tabs" {
		fr.labels = tabLabels(tag)
	}
	if name == "Details" {
		if s, ok := fr.attrs["summary"]; ok {
			fr.summary = &s
		}
	}
	if name == "TabItem" && c.top().name != "Tabs" {
		c.notes.warn(l.n, "<TabItem> is not in a <Tabs>; its content is kept without a tab")
	}
	c.stack = append(c.stack, fr)
	if strings.HasSuffix(tag, "/>") {
		c.close(name, l)
	}
}

// close closes the innermost open component of that name, and those opened after it (which are
// not closed, with a warning); a closing tag of no open component is kept as text.
func (c *mdxConverter) close(name string, l line) {
	k := len(c.stack) - 1
	for k > 0 && c.stack[k].name != name {
		k--
	}
	if k == 0 {
		if c.kept[name] > 0 {
			c.kept[name]--
		} else {
			c.notes.warn(l.n, "</%s> closes no open <%s>; kept as text", name, name)
		}
		c.top().add(l)
		return
	}
	for len(c.stack) > k {
		fr := c.top()
		c.stack = c.stack[:len(c.stack)-1]
		if fr.name != name {
			c.notes.warn(fr.n, "<%s> is not closed before </%s>; closed there", fr.name, name)
		}
		c.done(fr)
	}
}

// done puts what a closed component becomes into the component around it.
func (c *mdxConverter) done(fr *mdxFrame) {
	parent := c.top()
	body := dedent(fr.body)
	var out []line
	switch fr.name {
	case "TabItem":
		title := cmp.Or(fr.attrs["label"], parent.labels[fr.attrs["value"]], fr.attrs["value"])
		if parent.name == "Tabs" {
			parent.items = append(parent.items, tab{title: cmp.Or(title, "Tab"), n: fr.n, body: body})
			c.notes.convert(fr.n, "<TabItem> → tab %q", title)
			return
		}
		out = body
	case "Tabs":
		out = append(trimBlank(body), tabs("", fr.n, fr.items)...)
		c.notes.convert(fr.n, "<Tabs> → tabs")
	case "Admonition":
		style, known := docusaurusStyles[strings.ToLower(fr.attrs["type"])]
		if !known {
			style = "info"
			c.notes.warn(fr.n, "<Admonition type=%q> is not a type Docusaurus knows; shown as an info hint", fr.attrs["type"])
		}
		out = hint("", style, fr.attrs["title"], fr.n, body)
		c.notes.convert(fr.n, "<Admonition> → %s hint", style)
	default: // details, Details
		summary := "Details"
		if fr.summary != nil {
			summary = cmp.Or(strings.TrimSpace(htmlTag.ReplaceAllString(*fr.summary, "")), summary)
		}
		out = expandable("", summary, fr.n, body)
		c.notes.convert(fr.n, "<%s> → expandable", fr.name)
	}
	ind := fr.ind
	if parent == c.stack[0] {
		ind = blockIndent(c.lines, fr.start, fr.ind)
	}
	parent.blank(fr.n)
	parent.add(prefixed(ind, out)...)
	parent.gap = true
}

// blank ends the body with a blank line, unless it is empty or ends with one.
func (fr *mdxFrame) blank(n int) {
	if len(fr.body) > 0 && !isBlank(fr.body[len(fr.body)-1].text) {
		fr.add(line{n: n})
	}
}

// finish ends the page: a component never closed is kept as text from its opening tag on.
func (c *mdxConverter) finish() []line {
	if len(c.stack) > 1 {
		fr := c.stack[1]
		c.notes.warn(fr.n, "<%s> is not closed; kept as text", fr.name)
		c.stack[0].add(c.lines[fr.start:]...)
	}
	return c.stack[0].body
}

// normalize puts each tag of a converted component on a line of its own: an opening tag written
// over several lines is joined into one, and text before or after a tag gets a line of its own.
func (c *mdxConverter) normalize(lines []line) []line {
	var out []line
	var f fence
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if f.inCode(l.text) {
			out = append(out, l)
			continue
		}
		ind, rest := indentOf(l.text), strings.TrimLeft(l.text, " \t")
		if m := openingTag(rest); m != nil && mdxBlocks[m[1]] && tagEnd(rest) < 0 {
			if joined, last, ok := joinTag(lines, i); ok {
				rest, i = joined, last
			} else {
				c.notes.warn(l.n, "the <%s> tag does not end (no >); kept as text", m[1])
			}
		}
		out = append(out, splitTags(ind, rest, l.n)...)
	}
	return out
}

// openingTag is mdxOpen's match at the start of s, nil when s does not start with "<".
func openingTag(s string) []string {
	if !strings.HasPrefix(s, "<") {
		return nil
	}
	return mdxOpen.FindStringSubmatch(s)
}

// joinTag joins the lines of an opening tag starting at line i; ok is false when it does not end
// within maxTagLines lines and maxTagBytes bytes.
func joinTag(lines []line, i int) (tag string, last int, ok bool) {
	tag = strings.TrimLeft(lines[i].text, " \t")
	for k := i + 1; k < len(lines) && k-i < maxTagLines && len(tag) < maxTagBytes; k++ {
		tag += " " + strings.TrimSpace(lines[k].text)
		if tagEnd(tag) >= 0 {
			return tag, k, true
		}
	}
	return "", i, false
}

// splitTags splits a line's text into lines: each tag of a converted component (and a summary)
// on a line of its own, the text between them on others.
func splitTags(ind, rest string, n int) []line {
	if !strings.Contains(rest, "<") { // no tag: most lines
		return []line{{text: ind + rest, n: n}}
	}
	var out []line
	for rest != "" {
		head := ""
		if m := mdxSummary.FindString(rest); m != "" {
			head = m
		} else if m := mdxClose.FindStringSubmatch(rest); m != nil && mdxBlocks[m[1]] {
			head = m[0]
		} else if m := mdxOpen.FindStringSubmatch(rest); m != nil && mdxBlocks[m[1]] {
			if end := tagEnd(rest); end >= 0 {
				head = rest[:end+1]
			}
		}
		if head == "" {
			break
		}
		out = append(out, line{text: ind + head, n: n})
		rest = strings.TrimLeft(rest[len(head):], " \t")
	}
	var tail []line
	for strings.HasSuffix(strings.TrimRight(rest, " \t\n\f\r"), ">") { // as mdxTrailing's lines end
		m := mdxTrailing.FindStringSubmatch(rest)
		if m == nil {
			break
		}
		tail = append([]line{{text: ind + m[2], n: n}}, tail...)
		rest = m[1]
	}
	if rest != "" || len(out) == 0 && len(tail) == 0 {
		out = append(out, line{text: ind + rest, n: n})
	}
	return append(out, tail...)
}

// tagEnd is the index of the ">" ending the tag s starts with (outside quotes and braces), -1 when
// it does not end in s.
func tagEnd(s string) int {
	var quote byte
	depth := 0
	for i := 1; i < len(s); i++ {
		switch ch := s[i]; {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'' || ch == '`':
			quote = ch
		case ch == '{':
			depth++
		case ch == '}':
			depth = max(depth-1, 0)
		case ch == '>' && depth == 0:
			return i
		}
	}
	return -1
}

// mdxAttrs reads the string attributes of an opening tag: a="x", a='x', a={"x"}, a={'x'}, a={`x`}.
func mdxAttrs(tag string) map[string]string {
	attrs := map[string]string{}
	for _, m := range mdxAttr.FindAllStringSubmatch(tag, -1) {
		attrs[m[1]] = m[2] + m[3] + m[4] + m[5] + m[6]
	}
	return attrs
}

// tabLabels reads a <Tabs values={[{label: 'A', value: 'a'}, …]}>: the labels by value.
func tabLabels(tag string) map[string]string {
	labels := map[string]string{}
	for _, m := range mdxTabValues.FindAllStringSubmatch(tag, -1) {
		kv := map[string]string{m[1]: m[2] + m[3], m[4]: m[5] + m[6]}
		labels[kv["value"]] = kv["label"]
	}
	return labels
}

func isDetails(name string) bool { return name == "details" || name == "Details" }
