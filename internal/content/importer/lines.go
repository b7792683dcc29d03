package importer

import (
	"regexp"
	"strings"
)

// maxNesting is how deep the dialects' blocks (admonitions, tabs, components) are converted
// inside one another; deeper ones are kept as text with a warning.
const maxNesting = 16

// line is a line of a file being converted, with the number (1-based) of the uploaded file's line
// it comes from, which the report names.
type line struct {
	text string
	n    int
}

// splitLines splits a file's text into lines ("\r\n" read as "\n") numbered from first.
func splitLines(s string, first int) []line {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var out []line
	for i, t := range strings.Split(s, "\n") {
		out = append(out, line{text: t, n: first + i})
	}
	return out
}

// joinLines is the text of lines.
func joinLines(lines []line) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
	}
	return b.String()
}

// convertText runs a conversion over a whole text (the fuzz tests' way in).
func convertText(s string, n *notes, convert func([]line, *notes) []line) string {
	return joinLines(convert(splitLines(s, 1), n))
}

func isBlank(s string) bool { return strings.Trim(s, " \t") == "" }

// indentOf is the spaces and tabs a line starts with.
func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// fence follows fenced code blocks while lines are read in order: their lines are text to every
// conversion.
type fence struct {
	char byte
	size int // 0 outside a code block
}

// inCode reports whether the line belongs to a fenced code block, its fences included, and
// moves past it.
func (f *fence) inCode(s string) bool {
	t := strings.TrimLeft(s, " \t")
	if f.size > 0 {
		if run := leadingRun(t, f.char); run >= f.size && isBlank(t[run:]) {
			f.size = 0
		}
		return true
	}
	for _, c := range []byte{'`', '~'} {
		if run := leadingRun(t, c); run >= 3 && (c == '~' || !strings.Contains(t[run:], "`")) {
			f.char, f.size = c, run
			return true
		}
	}
	return false
}

func leadingRun(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// listItem is a list item's marker line: its indentation, marker and the spaces after it.
var listItem = regexp.MustCompile(`^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+)\S`)

// blockIndent is the indentation GitBook tags replacing a block whose marker line i is indented by
// ind must have: ind when the marker sits in a list item (the nearest less indented line before it
// is one whose content starts at or before ind), none otherwise, since a tag line is read only at
// the start of its container.
func blockIndent(lines []line, i int, ind string) string {
	if ind == "" {
		return ""
	}
	for k := i - 1; k >= 0; k-- {
		t := lines[k].text
		if isBlank(t) || len(indentOf(t)) >= len(ind) {
			continue
		}
		if m := listItem.FindStringSubmatch(t); m != nil && len(m[1])+len(m[2])+len(m[3]) <= len(ind) {
			return ind
		}
		return ""
	}
	return ""
}

// GitBook-flavoured Markdown the conversions write (the syntax internal/document reads).

// tagAttr escapes a GitBook tag attribute's value as GitBook writes it.
var tagAttr = strings.NewReplacer("&", "&#x26;", "<", "&#x3C;", `"`, "&#x22;", "%}", "&#37;}")

// htmlText escapes text for an HTML element (an expandable's summary).
var htmlText = strings.NewReplacer("&", "&#x26;", "<", "&#x3C;")

// prefixed is the lines with ind put before each non-blank one.
func prefixed(ind string, lines []line) []line {
	out := make([]line, len(lines))
	for i, l := range lines {
		if !isBlank(l.text) {
			l.text = ind + l.text
		}
		out[i] = l
	}
	return out
}

// at makes lines of texts, all numbered n.
func at(n int, texts ...string) []line {
	out := make([]line, len(texts))
	for i, t := range texts {
		out[i] = line{text: t, n: n}
	}
	return out
}

// hint is a GitBook hint of the given style around body, with a bold first line for a title.
func hint(ind, style, title string, n int, body []line) []line {
	out := append(hintOpen(ind, style, title, n), prefixed(ind, trimBlank(body))...)
	return append(out, hintClose(ind, n))
}

// hintOpen opens a hint: its tag, then the title as a bold line.
func hintOpen(ind, style, title string, n int) []line {
	out := at(n, ind+`{% hint style="`+style+`" %}`)
	if title = strings.TrimSpace(title); title != "" {
		out = append(out, at(n, ind+"**"+title+"**", "")...)
	}
	return out
}

func hintClose(ind string, n int) line { return line{text: ind + "{% endhint %}", n: n} }

// expandable is an expandable (`<details>`) titled title around body.
func expandable(ind, title string, n int, body []line) []line {
	out := at(n, ind+"<details>", "", ind+"<summary>"+htmlText.Replace(strings.TrimSpace(title))+"</summary>", "")
	if body = trimBlank(body); len(body) > 0 {
		out = append(append(out, prefixed(ind, body)...), line{n: n})
	}
	return append(out, at(n, ind+"</details>")...)
}

// tab is one tab of a group, titled title.
type tab struct {
	title string
	n     int
	body  []line
}

// tabs is a GitBook group of tabs.
func tabs(ind string, n int, items []tab) []line {
	out := at(n, ind+"{% tabs %}")
	for i, t := range items {
		if i > 0 {
			out = append(out, line{n: t.n})
		}
		out = append(out, at(t.n, ind+`{% tab title="`+tagAttr.Replace(strings.TrimSpace(t.title))+`" %}`)...)
		out = append(out, prefixed(ind, trimBlank(t.body))...)
		out = append(out, at(t.n, ind+"{% endtab %}")...)
	}
	return append(out, at(n, ind+"{% endtabs %}")...)
}

// trimBlank drops the blank lines at both ends.
func trimBlank(lines []line) []line {
	for len(lines) > 0 && isBlank(lines[0].text) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isBlank(lines[len(lines)-1].text) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// dedent removes the indentation the non-blank lines share (blank lines become empty).
func dedent(lines []line) []line {
	common := ""
	first := true
	for _, l := range lines {
		if isBlank(l.text) {
			continue
		}
		ind := indentOf(l.text)
		if first {
			common, first = ind, false
			continue
		}
		for !strings.HasPrefix(ind, common) {
			common = common[:len(common)-1]
		}
	}
	out := make([]line, len(lines))
	for i, l := range lines {
		if isBlank(l.text) {
			l.text = ""
		} else {
			l.text = l.text[len(common):]
		}
		out[i] = l
	}
	return out
}
