package markdown

import (
	"bytes"
	"cmp"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Parsed is a Markdown document split into what Bindery stores separately.
type Parsed struct {
	Title       string // from front matter `title`, else the leading level-1 heading; "" when neither
	Description string // front matter `description`
	Emoji       string // front matter `icon` when it is an emoji ("🎉")
	Icon        string // front matter `icon` when it is not an emoji: an icon name ("gear")
	Body        string // the Markdown without the front matter and without the leading H1 used as title
}

// Parse splits a page's Markdown: a leading front matter block (in the YAML subset of the package
// doc; any other is left in the body), then the title. The leading H1 is
// the document's first block when it is a level-1 heading with some text; its plain text (markup
// dropped, escapes decoded) is the title. Blank lines left at the top of the body by what was
// removed are dropped too.
func Parse(markdown string) Parsed {
	p, _ := split(markdown, nil, false)
	return p
}

// ParseWithTitle is Parse for a document sent with a title of its own (a content change's
// `title`), which a leading H1 does not replace (decision 290): the H1 stays in the body as
// content, unless it reads as title (letter case aside) and would only repeat it. Title is the
// front matter's title when it has one (front matter is the document's metadata and wins, as Parse
// has it), else title.
func ParseWithTitle(markdown, title string) Parsed {
	p, _ := split(markdown, &title, false)
	return p
}

// ParseWithLinks is ParseWithTitle, or Parse when title is nil, that also returns the links of
// the Body as Links(Body) does (offsets in Body), found in the same parse of the Markdown.
func ParseWithLinks(markdown string, title *string) (Parsed, []Link) {
	return split(markdown, title, true)
}

// split is Parse, or ParseWithTitle when given names the title; with links, it returns the links of
// the body too.
func split(markdown string, given *string, links bool) (Parsed, []Link) {
	fields, body, removed := splitFrontMatter(markdown)
	p := Parsed{Title: fields["title"], Description: fields["description"]}
	if isEmoji(fields["icon"]) {
		p.Emoji = fields["icon"]
	} else {
		p.Icon = fields["icon"]
	}
	var parsed *parsedDoc
	if p.Title == "" || links { // the body is parsed once, for its title and its links
		parsed = parseDoc(body)
	}
	if p.Title == "" {
		if title, end, ok := parsed.leadingTitle(); ok && (given == nil || repeats(title, *given)) {
			p.Title, body, removed = title, body[end:], true
		}
		if given != nil {
			p.Title, removed = *given, true // Render puts the title above the body, as a heading
		}
	}
	if removed {
		body = trimBlankLines(body)
	}
	p.Body = body
	if !links {
		return p, nil
	}
	return p, parsed.linksFrom(len(parsed.src) - len(body))
}

// repeats reports whether a heading's text is the given title, but for letter case and the
// spaces around it.
func repeats(heading, title string) bool {
	return strings.EqualFold(heading, strings.TrimSpace(title))
}

// Render is the inverse used for `format=markdown` output: "# {title}\n\n{body}", after a front
// matter block when there is a description or an icon (Emoji before Icon). A title that would not
// read back from a heading (markup characters, line breaks, outer spaces) goes in the front matter
// instead. Parse(Render(p)) == p for every p that Parse returns.
func Render(p Parsed) string {
	var fields []field
	heading := ""
	if p.Title != "" {
		if h := "# " + p.Title; titleOf(h) == p.Title {
			heading = h + "\n\n"
		} else {
			fields = append(fields, field{"title", p.Title})
		}
	}
	if p.Description != "" {
		fields = append(fields, field{"description", p.Description})
	}
	if icon := cmp.Or(p.Emoji, p.Icon); icon != "" {
		fields = append(fields, field{"icon", icon})
	}
	out := heading + p.Body
	if len(fields) > 0 || (heading == "" && looksLikeFrontMatter(p.Body)) {
		// An empty block keeps a body that starts like front matter from being read as one.
		out = renderFrontMatter(fields) + out
	}
	return out
}

func looksLikeFrontMatter(body string) bool {
	_, _, ok := splitFrontMatter(body)
	return ok
}

// titleOf is the title Parse reads from the leading H1 of markdown, "" when none.
func titleOf(markdown string) string {
	title, _, _ := parseDoc(markdown).leadingTitle()
	return title
}

// leadingTitle returns the text of the document's leading H1 and the offset after its last line.
func (d *parsedDoc) leadingTitle() (title string, end int, ok bool) {
	h, isHeading := d.doc.FirstChild().(*ast.Heading)
	if !isHeading || h.Level != 1 || h.Lines().Len() == 0 {
		return "", 0, false
	}
	title = plainText(h, d.src)
	end, ok = headingEnd(h, d.src)
	if title == "" || !ok {
		return "", 0, false
	}
	return title, end, true
}

// headingEnd returns the offset after the last line of a heading (its underline for a setext
// heading). ok is false when text other than blank lines precedes the heading's content (link
// reference definitions that goldmark took out of a setext heading's paragraph).
func headingEnd(h *ast.Heading, src []byte) (end int, ok bool) {
	first, last := h.Lines().At(0), h.Lines().At(h.Lines().Len()-1)
	lineStart := bytes.LastIndexByte(src[:first.Start], '\n') + 1
	if len(bytes.Trim(src[:lineStart], " \t\r\n")) > 0 {
		return 0, false
	}
	end = lineEnd(src, last.Start)
	if !bytes.Contains(src[lineStart:first.Start], []byte("#")) { // setext: skip the underline
		end = lineEnd(src, end)
	}
	return end, true
}

// lineEnd returns the offset after the "\n" ending the line at offset i, or len(src).
func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(src)
}

// trimBlankLines drops the blank lines at the start of s.
func trimBlankLines(s string) string {
	for {
		line, rest, more := strings.Cut(s, "\n")
		if !more || strings.Trim(line, " \t\r") != "" {
			return s
		}
		s = rest
	}
}
