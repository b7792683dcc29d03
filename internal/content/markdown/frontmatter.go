package markdown

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// splitFrontMatter splits a leading front matter block (a "---" line, YAML lines, a "---" line) off
// src and returns its fields and the rest. ok is false, and body is src, when src has no front
// matter or it is not the YAML subset of the package doc.
func splitFrontMatter(src string) (fields map[string]string, body string, ok bool) {
	lines, body, ok := cutFrontMatter(src)
	if !ok {
		return nil, src, false
	}
	if fields, ok = parseFields(lines); !ok {
		return nil, src, false
	}
	return fields, body, true
}

// CutFrontMatter splits a leading front matter block off src: the YAML text between its "---"
// lines and what follows them. ok is false, and body is src, when src does not start with one.
// Unlike Parse, it leaves the YAML to the caller (an importer reading other tools' front matter).
func CutFrontMatter(src string) (yaml, body string, ok bool) {
	lines, body, ok := cutFrontMatter(src)
	if !ok {
		return "", src, false
	}
	return strings.Join(lines, "\n"), body, true
}

// cutFrontMatter returns the lines of a leading front matter block and what follows it.
func cutFrontMatter(src string) (lines []string, body string, ok bool) {
	first, rest, more := strings.Cut(src, "\n")
	if !more || !isFence(first) {
		return nil, src, false
	}
	for {
		line, after, more := strings.Cut(rest, "\n")
		if isFence(line) {
			return lines, after, true
		}
		if !more {
			return nil, src, false
		}
		lines = append(lines, strings.TrimSuffix(line, "\r"))
		rest = after
	}
}

// isFence reports whether line is a front matter fence "---".
func isFence(line string) bool { return strings.TrimRight(line, " \t\r") == "---" }

// parseFields reads the YAML lines of a front matter block; ok is false for what it does not read.
func parseFields(lines []string) (fields map[string]string, ok bool) {
	fields = map[string]string{}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if isBlankOrComment(line) {
			continue
		}
		if isNested(line) {
			if len(fields) == 0 {
				return nil, false // a nested value needs a key above it
			}
			continue
		}
		key, value, ok := keyValue(line)
		if !ok {
			return nil, false
		}
		if isBlockHeader(value) {
			n := blockLines(lines[i+1:])
			value = blockScalar(value, lines[i+1:i+1+n])
			i += n
		} else if value, ok = scalar(value); !ok {
			return nil, false
		}
		fields[key] = value
	}
	return fields, true
}

func isBlankOrComment(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return t == "" || t[0] == '#'
}

// isNested reports whether line belongs to the value of the key above it.
func isNested(line string) bool {
	return line[0] == ' ' || line[0] == '\t' || line == "-" || strings.HasPrefix(line, "- ")
}

// keyChars are the characters of a front matter key.
const keyChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-."

// keyValue splits "key: value".
func keyValue(line string) (key, value string, ok bool) {
	key, value, ok = strings.Cut(line, ":")
	if !ok || key == "" || strings.Trim(key, keyChars) != "" {
		return "", "", false
	}
	if value != "" && value[0] != ' ' && value[0] != '\t' {
		return "", "", false // "a:b" is a plain scalar, not a key
	}
	return key, strings.Trim(value, " \t"), true
}

// scalar reads a one-line value: plain (a " #" comment dropped), single- or double-quoted.
func scalar(v string) (string, bool) {
	switch {
	case strings.HasPrefix(v, `"`):
		s, err := strconv.Unquote(v)
		return s, err == nil
	case strings.HasPrefix(v, "'"):
		if len(v) < 2 || !strings.HasSuffix(v, "'") {
			return "", false
		}
		inner := v[1 : len(v)-1]
		if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return "", false
		}
		return strings.ReplaceAll(inner, "''", "'"), true
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	if i := strings.Index(v, "\t#"); i >= 0 {
		v = v[:i]
	}
	return strings.Trim(v, " \t"), true
}

// isBlockHeader reports whether a value opens a block scalar: "|" or ">", then optional chomping
// ("-", "+") and indentation digit in either order.
func isBlockHeader(v string) bool {
	if v == "" || (v[0] != '|' && v[0] != '>') || len(v) > 3 {
		return false
	}
	return strings.Trim(v[1:], "+-123456789") == "" && strings.Count(v, "-")+strings.Count(v, "+") <= 1
}

// blockLines counts the lines of a block scalar: the indented or blank lines that follow.
func blockLines(lines []string) int {
	n := 0
	for n < len(lines) && (strings.Trim(lines[n], " \t") == "" || lines[n][0] == ' ') {
		n++
	}
	return n
}

// blockScalar reads a block scalar's lines: literal (|) keeps line breaks, folded (>) joins lines
// with spaces and keeps a break per blank line; "-" drops the final line break, "+" keeps the
// trailing blank lines too.
func blockScalar(header string, lines []string) string {
	parts := dedent(lines)
	trailing := 0
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts, trailing = parts[:len(parts)-1], trailing+1
	}
	content := strings.Join(parts, "\n")
	if header[0] == '>' {
		content = fold(parts)
	}
	switch {
	case content == "" || strings.Contains(header, "-"):
		return content
	case strings.Contains(header, "+"):
		return content + "\n" + strings.Repeat("\n", trailing)
	}
	return content + "\n"
}

// dedent removes the indentation of the first non-blank line from every line (blank lines
// become "").
func dedent(lines []string) []string {
	indent := -1
	parts := make([]string, len(lines))
	for i, line := range lines {
		if strings.Trim(line, " \t") == "" {
			continue
		}
		spaces := len(line) - len(strings.TrimLeft(line, " "))
		if indent < 0 {
			indent = spaces
		}
		parts[i] = line[min(indent, spaces):]
	}
	return parts
}

// fold joins lines with a space, a blank line making a line break instead.
func fold(parts []string) string {
	var b strings.Builder
	for i, part := range parts {
		if i > 0 && part == "" {
			b.WriteByte('\n')
		} else if i > 0 && parts[i-1] != "" {
			b.WriteByte(' ')
		}
		b.WriteString(part)
	}
	return b.String()
}

// field is one front matter key and value to render.
type field struct{ key, value string }

// renderFrontMatter writes a front matter block of fields, each value plain when it reads back
// the same and double-quoted otherwise.
func renderFrontMatter(fields []field) string {
	var b strings.Builder
	b.WriteString("---\n")
	for _, f := range fields {
		b.WriteString(f.key + ": " + yamlValue(f.value) + "\n")
	}
	b.WriteString("---\n")
	return b.String()
}

func yamlValue(v string) string {
	if isPlainSafe(v) {
		return v
	}
	return strconv.Quote(v)
}

// isPlainSafe reports whether v can be written as a plain YAML scalar that every YAML reader
// reads back as this string (not a number, boolean or null, no indicator, comment or break).
func isPlainSafe(v string) bool {
	if v == "" || v != strings.TrimSpace(v) || !utf8.ValidString(v) ||
		strings.ContainsAny(v[:1], "-?:,[]{}#&*!|>'\"%@`") ||
		strings.Contains(v, ": ") || strings.Contains(v, " #") || strings.HasSuffix(v, ":") {
		return false
	}
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~":
		return false
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return false
	}
	for _, r := range v {
		if !unicode.IsPrint(r) && r != zeroWidthJoiner {
			return false
		}
	}
	return true
}

// ReusableFile is a reusable content as GitBook writes it in a repository
// (.gitbook/includes/<name>.md): a front matter block with its title, then its body.
func ReusableFile(title, body string) string {
	return renderFrontMatter([]field{{"title", title}}) + "\n" + body
}

// ParseReusableFile reads a reusable content's file (ReusableFile): its front matter's title ("" for
// none) and the body after it, a blank line that follows the front matter left out.
func ParseReusableFile(src string) (title, body string) {
	fields, body, ok := splitFrontMatter(src)
	if !ok {
		return "", src
	}
	body = strings.TrimPrefix(strings.TrimPrefix(body, "\r"), "\n")
	return strings.TrimSpace(fields["title"]), body
}
