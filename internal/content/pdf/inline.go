package pdf

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/binderyhq/bindery/internal/content/markdown"
)

// inlines returns the runs of n's inline children drawn in style st.
func (r *renderer) inlines(n ast.Node, st style) []run {
	var out []run
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = r.inline(c, st, out)
	}
	return out
}

// inline appends the runs of one inline node to out.
func (r *renderer) inline(n ast.Node, st style, out []run) []run {
	switch n := n.(type) {
	case *ast.Text:
		out = addText(out, string(n.Segment.Value(r.src)), st)
		if n.HardLineBreak() {
			return append(out, run{br: true})
		}
		if n.SoftLineBreak() {
			return addText(out, " ", st)
		}
		return out
	case *ast.String:
		return addText(out, string(n.Value), st)
	case *ast.CodeSpan:
		st.mono = true
		return addText(out, markdown.TextOf(n, r.src), st)
	case *ast.Emphasis:
		if n.Level >= 2 {
			st.bold = true
		} else {
			st.italic = true
		}
	case *east.Strikethrough:
		st.strike = true
	case *ast.Link:
		st = linkStyle(st, string(n.Destination))
	case *ast.AutoLink:
		return addText(out, string(n.Label(r.src)), linkStyle(st, string(n.URL(r.src))))
	case *ast.Image:
		return addText(out, imageText(markdown.TextOf(n, r.src)), imageStyle(st))
	case *ast.RawHTML:
		if isBreakTag(rawHTML(n, r.src)) {
			return append(out, run{br: true})
		}
		return out // other inline tags are dropped; the text between them is kept
	case *east.TaskCheckBox:
		if n.IsChecked {
			return addText(out, "[x] ", st)
		}
		return addText(out, "[ ] ", st)
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = r.inline(c, st, out)
	}
	return out
}

// addText appends text in style st, cleaned for st's font, merging it into the previous run when
// that has the same style. Line breaks inside inline text (code spans) read as spaces.
func addText(out []run, text string, st style) []run {
	text = st.face().clean(strings.ReplaceAll(text, "\n", " "))
	if text == "" {
		return out
	}
	if last := len(out) - 1; last >= 0 && !out[last].br && out[last].style == st {
		out[last].text += text
		return out
	}
	return append(out, run{text: text, style: st})
}

// linkStyle is st for the text of a link to dest. Only absolute http, https and mailto links
// become clickable (blue, underlined): a relative link has no target outside the site, and other
// schemes (javascript:, file:) are not something a document should launch.
func linkStyle(st style, dest string) style {
	target, ok := linkTarget(dest)
	if !ok {
		return st
	}
	st.link = target
	st.color = linkColor
	st.underline = true
	return st
}

// linkTarget returns dest as a PDF URI action target (ASCII, non-ASCII bytes percent-encoded),
// and whether it may be one.
func linkTarget(dest string) (string, bool) {
	u, err := url.Parse(dest)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return "", false
		}
	case "mailto":
	default:
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(dest); i++ {
		if c := dest[i]; c >= 0x80 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// imageStyle is st for an image's placeholder: italic, muted unless it is also a link.
func imageStyle(st style) style {
	st.italic = true
	if st.link == "" {
		st.color = mutedColor
	}
	return st
}

// imageText is the placeholder drawn for an image: images are never fetched.
func imageText(alt string) string {
	if alt = strings.TrimSpace(alt); alt == "" {
		return "[image]"
	}
	return "[image: " + alt + "]"
}

// rawHTML is the source of an inline HTML tag.
func rawHTML(n *ast.RawHTML, src []byte) []byte {
	var b bytes.Buffer
	for i := 0; i < n.Segments.Len(); i++ {
		s := n.Segments.At(i)
		b.Write(s.Value(src))
	}
	return b.Bytes()
}

// breakTag matches <br>, <br/> and <br /> in any case.
var breakTag = regexp.MustCompile(`(?i)^<br\s*/?>$`)

// isBreakTag reports whether tag is an HTML line break.
func isBreakTag(tag []byte) bool { return breakTag.Match(tag) }
