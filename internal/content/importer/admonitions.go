package importer

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Docusaurus admonitions: ":::type title" … ":::" (more colons for an outer one around an inner).

var (
	colonOpen  = regexp.MustCompile(`^([ \t]*)(:{3,})[ \t]*([A-Za-z][\w-]*)(.*)$`)
	colonClose = regexp.MustCompile(`^[ \t]*:{3,}[ \t]*$`)
)

// docusaurusStyles maps Docusaurus' admonition types to hint styles.
var docusaurusStyles = map[string]string{
	"note": "info", "info": "info", "secondary": "info",
	"tip": "success", "success": "success",
	"warning": "warning", "caution": "warning",
	"danger": "danger", "important": "danger",
}

// colonBlock is an admonition open while lines are read: the indentation of its tags, and
// whether its lines are kept as text (an unknown type, too deep).
type colonBlock struct {
	ind  string
	kept bool
}

// convertColonAdmonitions turns Docusaurus admonitions into hints, their title a bold first line.
// An unknown type, or one nested deeper than maxNesting, is kept as text with its closing line;
// one never closed is closed at the end of the file.
func convertColonAdmonitions(lines []line, notes *notes) []line {
	var out []line
	var open []colonBlock
	var f fence
	for i, l := range lines {
		if f.inCode(l.text) || !strings.HasPrefix(strings.TrimLeft(l.text, " \t"), ":::") { // as both expressions' lines start
			out = append(out, l)
			continue
		}
		if colonClose.MatchString(l.text) && len(open) > 0 {
			b := open[len(open)-1]
			open = open[:len(open)-1]
			if b.kept {
				out = append(out, l)
			} else {
				out = append(out, hintClose(b.ind, l.n))
			}
			continue
		}
		m := colonOpen.FindStringSubmatch(l.text)
		if m == nil {
			out = append(out, l)
			continue
		}
		style, known := docusaurusStyles[strings.ToLower(m[3])]
		b := colonBlock{ind: blockIndent(lines, i, m[1]), kept: true}
		switch {
		case !known:
			notes.warn(l.n, ":::%s is not an admonition type Docusaurus knows; kept as text", m[3])
		case len(open) >= maxNesting:
			notes.warn(l.n, ":::%s is nested more than %d deep; kept as text", m[3], maxNesting)
		default:
			b.kept = false
			notes.convert(l.n, ":::%s admonition → %s hint", m[3], style)
		}
		open = append(open, b)
		if b.kept {
			out = append(out, l)
		} else {
			out = append(out, hintOpen(b.ind, style, colonTitle(m[4]), l.n)...)
		}
	}
	last := len(lines)
	for k := len(open) - 1; k >= 0; k-- {
		if !open[k].kept {
			notes.warn(last, "an admonition is not closed (:::); it ends with the file")
			out = append(out, hintClose(open[k].ind, last))
		}
	}
	return out
}

// colonTitle is the title after an admonition's type: "Title" or "[Title]", attributes in braces
// dropped.
func colonTitle(rest string) string {
	rest = strings.TrimSpace(rest)
	if strings.HasSuffix(rest, "}") {
		if i := strings.LastIndex(rest, "{"); i >= 0 {
			rest = strings.TrimSpace(rest[:i])
		}
	}
	if strings.HasPrefix(rest, "[") && strings.HasSuffix(rest, "]") {
		rest = rest[1 : len(rest)-1]
	}
	return strings.TrimSpace(rest)
}

// MkDocs Material: admonitions `!!! type "Title"`, collapsibles `??? type "Title"` (`???+` open),
// content tabs `=== "Title"`, each holding the lines below indented by four spaces.

var (
	mkdocsBlock = regexp.MustCompile(`^([ \t]*)(!!!|\?\?\?\+?)[ \t]+([A-Za-z][\w-]*)((?:[ \t]+[A-Za-z][\w-]*)*)(?:[ \t]+("[^"]*"))?[ \t]*$`)
	mkdocsTab   = regexp.MustCompile(`^([ \t]*)===([!+]{0,2})[ \t]+"([^"]*)"[ \t]*$`)
)

// materialStyles maps Material's admonition types (and their aliases) to hint styles.
var materialStyles = map[string]string{
	"note": "info", "abstract": "info", "summary": "info", "tldr": "info", "info": "info", "todo": "info",
	"question": "info", "help": "info", "faq": "info", "example": "info", "quote": "info", "cite": "info",
	"tip": "success", "hint": "success", "important": "success", "success": "success", "check": "success", "done": "success",
	"warning": "warning", "caution": "warning", "attention": "warning",
	"failure": "danger", "fail": "danger", "missing": "danger", "danger": "danger", "error": "danger", "bug": "danger",
}

// convertMkDocs turns MkDocs Material's admonitions into hints, collapsibles into expandables
// and content tabs into tabs. Blocks nested deeper than maxNesting are kept as text.
func convertMkDocs(lines []line, notes *notes) []line {
	return mkdocsBlocks(lines, notes, 0)
}

func mkdocsBlocks(lines []line, notes *notes, depth int) []line {
	var out []line
	var f fence
	for i := 0; i < len(lines); {
		l := lines[i]
		if f.inCode(l.text) {
			out, i = append(out, l), i+1
			continue
		}
		block, tab := mkdocsBlock.FindStringSubmatch(l.text), mkdocsTab.FindStringSubmatch(l.text)
		switch {
		case block == nil && tab == nil:
			out, i = append(out, l), i+1
		case depth >= maxNesting:
			notes.warn(l.n, "%s is nested more than %d deep; kept as text", strings.TrimSpace(l.text), maxNesting)
			out, i = append(out, l), i+1
		case block != nil:
			body, next := indentedBody(lines, i+1, block[1])
			ind := blockIndent(lines, i, block[1])
			out = append(out, mkdocsAdmonition(block, ind, l.n, mkdocsBlocks(body, notes, depth+1), notes)...)
			i = next
		default:
			items, next := mkdocsTabs(lines, i, notes, depth)
			out = append(out, tabs(blockIndent(lines, i, tab[1]), l.n, items)...)
			i = next
		}
	}
	return out
}

// mkdocsAdmonition is a hint for `!!!`, an expandable for `???`.
func mkdocsAdmonition(m []string, ind string, n int, body []line, notes *notes) []line {
	kind, title := strings.ToLower(m[3]), strings.Trim(m[5], `"`)
	if m[2] == "!!!" {
		style, known := materialStyles[kind]
		if !known {
			style = "info"
			notes.warn(n, "!!! %s is not an admonition type Material knows; shown as an info hint", m[3])
		}
		notes.convert(n, "!!! %s admonition → %s hint", m[3], style)
		return hint(ind, style, title, n, body)
	}
	if m[5] == "" {
		title = capitalized(kind)
	}
	if m[2] == "???+" {
		notes.convert(n, "???+ %s collapsible → expandable (it starts closed)", m[3])
	} else {
		notes.convert(n, "??? %s collapsible → expandable", m[3])
	}
	return expandable(ind, title, n, body)
}

// mkdocsTabs reads the group of content tabs starting at line i: tabs following one another
// with only blank lines between them, until one that starts a new group (`===!`).
func mkdocsTabs(lines []line, i int, notes *notes, depth int) ([]tab, int) {
	ind := indentOf(lines[i].text)
	var items []tab
	for {
		m := mkdocsTab.FindStringSubmatch(lines[i].text)
		body, next := indentedBody(lines, i+1, ind)
		items = append(items, tab{title: m[3], n: lines[i].n, body: mkdocsBlocks(body, notes, depth+1)})
		notes.convert(lines[i].n, `=== "%s" content tab → tab`, m[3])
		j := next
		for j < len(lines) && isBlank(lines[j].text) {
			j++
		}
		if j == len(lines) {
			return items, next
		}
		more := mkdocsTab.FindStringSubmatch(lines[j].text)
		if more == nil || more[1] != ind || strings.Contains(more[2], "!") {
			return items, next
		}
		i = j
	}
}

// indentedBody is the block's content from line start: the lines indented by ind and four more
// spaces (or a tab), blank lines between them, with that indentation removed; and the index of
// the line after it.
func indentedBody(lines []line, start int, ind string) ([]line, int) {
	end := start
	for j := start; j < len(lines); j++ {
		t := lines[j].text
		if isBlank(t) {
			continue
		}
		if _, ok := cutIndent(t, ind); !ok {
			break
		}
		end = j + 1
	}
	body := make([]line, 0, end-start)
	for _, l := range lines[start:end] {
		l.text, _ = cutIndent(l.text, ind)
		body = append(body, l)
	}
	return body, end
}

// cutIndent is s without ind and one more level (four spaces or a tab); ok is false when it is
// less indented. A blank line is "".
func cutIndent(s, ind string) (string, bool) {
	if isBlank(s) {
		return "", true
	}
	rest, ok := strings.CutPrefix(s, ind)
	if !ok {
		return s, false
	}
	if r, ok := strings.CutPrefix(rest, "\t"); ok {
		return r, true
	}
	r, ok := strings.CutPrefix(rest, "    ")
	return r, ok
}

// capitalized is s with its first letter upper-case ("note" → "Note").
func capitalized(s string) string {
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}
