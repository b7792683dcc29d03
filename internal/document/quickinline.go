package document

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// The quick reader's inlines (quick.go): emphasis, code spans, links, images, inline math and the
// inline HTML Markdown writes, read into the converter's inline builder.

// inlines reads a block's inline Markdown, its lines joined by "\n".
func (q quickReader) inlines(s string) []*Node {
	r := q.in
	r.s, r.b, r.emoji, r.level = s, q.c.builder(), true, level{}
	r.read(0, blockText)
	return r.b.done()
}

// inlineReader reads inline Markdown into an inline builder.
type inlineReader struct {
	c      converter
	s      string
	b      inlineBuilder
	level            // of the inlines being read
	delims []openRun // the delimiters open, outermost first
	emoji  bool      // emoji written as characters are emoji inlines (not in a link's text)
}

// level is what inlines that are siblings in goldmark's tree (a block's, an emphasis', a link's)
// are read under, as walkInlines reads them: the marks, and those that tags among them opened
// (inlineBuilder.rawHTML).
type level struct {
	marks  []string
	opened map[string]bool
}

// openRun is an open run of delimiters, and the level of the inlines around it.
type openRun struct {
	delimiter
	outside level
}

// delimiter is a run of emphasis or strikethrough delimiters.
type delimiter struct {
	char byte
	n    int
}

// delimiterMarks are the marks of the delimiters the quick reader reads. Goldmark reads "***"
// closed by "***" as emphasis around strong emphasis, around the same inlines.
var delimiterMarks = map[delimiter][]string{
	{'*', 1}: {"italic"}, {'*', 2}: {"bold"}, {'*', 3}: {"italic", "bold"}, {'~', 2}: {"strikethrough"},
}

// Where inline Markdown is read: what ends it, and what it holds.
type inlineSpan int

const (
	blockText inlineSpan = iota // a block's, up to its end
	linkText                    // a link's, up to its "]": texts and images
	imageText                   // an image's, up to its "]": no link or image
)

// read reads s from i on, to its end or, in a link's or image's text, to the "]" that ends it
// (its index).
func (r *inlineReader) read(i int, span inlineSpan) int {
	s, base, text := r.s, len(r.delims), i // text: where the text not yet added starts
	for i < len(s) {
		switch s[i] {
		case '\\':
			switch {
			case i+1 < len(s) && s[i+1] == '\n' && span == blockText:
				r.text(text, i, "\n")
				i += 2
				text = i
			case i+1 < len(s) && isASCIIPunct(s[i+1]):
				i += 2
			default:
				i++
			}
		case '\n':
			if span != blockText {
				giveUp()
			}
			r.text(text, i, " ")
			i++
			text = i
		case '`':
			r.text(text, i, "")
			i = r.codeSpan(i)
			text = i
		case '*', '~':
			r.text(text, i, "")
			i = r.delimiter(i, base)
			text = i
		case '_':
			i = r.underscores(i)
		case '[':
			if span != blockText {
				giveUp()
			}
			r.text(text, i, "")
			i = r.link(i)
			text = i
		case ']':
			if span == blockText || len(r.delims) > base {
				giveUp()
			}
			r.text(text, i, "")
			return i
		case '$':
			if n := r.inlineMath(i, span == linkText, text); n > i {
				i, text = n, n
				continue
			}
			i++
		case '!':
			if i+1 < len(s) && s[i+1] == '[' {
				if span == imageText {
					giveUp()
				}
				r.text(text, i, "")
				i = r.image(i)
				text = i
				continue
			}
			i++
		case '<':
			if i+1 < len(s) && !isBlankByte(s[i+1]) && s[i+1] != '\n' {
				r.text(text, i, "")
				i = r.html(i, span != linkText)
				text = i
				continue
			}
			i++ // before white space: no tag or autolink, text
		default:
			i++
		}
	}
	if span != blockText || len(r.delims) > base {
		giveUp()
	}
	r.text(text, len(s), "")
	return len(s)
}

// text adds s[start:end] as text, then lineEnd: before a line break, without the white space
// that ends the line.
func (r *inlineReader) text(start, end int, lineEnd string) {
	v := r.s[start:end]
	if lineEnd != "" {
		v = strings.TrimRight(v, " \t")
	}
	r.b.text(util.StringToReadOnlyBytes(v), lineEnd, r.marks, r.emoji)
}

// codeSpan reads the code span at s[i]: its text as a leaf with the code mark; it returns the
// index after it.
func (r *inlineReader) codeSpan(i int) int {
	s := r.s
	n := fenceRun(s[i:])
	end := i + n
	for {
		k := strings.IndexByte(s[end:], '`')
		if k < 0 {
			giveUp() // no closing run: backticks as text
		}
		end += k
		if fenceRun(s[end:]) == n {
			break
		}
		end += fenceRun(s[end:])
	}
	code := s[i+n : end]
	if strings.IndexByte(code, '\n') >= 0 {
		giveUp()
	}
	if len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
		code = code[1 : len(code)-1]
	}
	r.b.leaf(code, append(slices.Clone(r.marks), "code"))
	return end + n
}

// delimiter reads the run of "*" or "~" at s[i], delimiters opened since base being its own
// text's: it closes the innermost one open when that is its kind, or opens one. Any other
// reading (a run left as text, one closing a delimiter not innermost) gives up.
func (r *inlineReader) delimiter(i, base int) int {
	d := delimiter{r.s[i], fenceRun(r.s[i:])}
	marks := delimiterMarks[d]
	if marks == nil {
		giveUp()
	}
	canOpen, canClose := r.flanking(i, d.n)
	top := len(r.delims) - 1
	switch {
	case canClose && top >= base && r.delims[top].delimiter == d:
		r.level, r.delims = r.delims[top].outside, r.delims[:top]
	case canClose && slices.ContainsFunc(r.delims[base:], func(o openRun) bool { return o.char == d.char }), !canOpen:
		giveUp()
	default:
		r.delims = append(r.delims, openRun{d, r.level})
		r.level = level{marks: append(slices.Clone(r.marks), marks...)}
	}
	return i + d.n
}

// flanking says whether the run of n delimiters at s[i] may open and close emphasis, by the
// characters around it, as goldmark's ScanDelimiter says.
func (r *inlineReader) flanking(i, n int) (canOpen, canClose bool) {
	s := r.s
	before, after := '\n', ' '
	if i > 0 {
		before, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	if i+n < len(s) {
		after, _ = utf8.DecodeRuneInString(s[i+n:])
	}
	left := !util.IsSpaceRune(after) && (!util.IsPunctRune(after) || util.IsSpaceRune(before) || util.IsPunctRune(before))
	right := !util.IsSpaceRune(before) && (!util.IsPunctRune(before) || util.IsSpaceRune(after) || util.IsPunctRune(after))
	if s[i] == '_' {
		return left && (!right || util.IsPunctRune(before)), right && (!left || util.IsPunctRune(after))
	}
	return left, right
}

// underscores reads the run of "_" at s[i] as text, as in a word, where it neither opens nor
// closes emphasis; it gives up at any other. It returns the index after the run.
func (r *inlineReader) underscores(i int) int {
	n := fenceRun(r.s[i:])
	if canOpen, canClose := r.flanking(i, n); canOpen || canClose {
		giveUp()
	}
	return i + n
}

// link reads the link at s[i]: `[text](destination)`, or `[label](destination "mention")` for a
// mention. It returns the index after it.
func (r *inlineReader) link(i int) int {
	outside, around := r.b.enter(), r.level
	r.emoji, r.opened = false, nil
	end := r.read(i+1, linkText)
	r.emoji, r.level = true, around
	text := r.b.leave(outside)
	raw, title, after := r.destination(end + 1)
	ref := refFromDest(decode(util.StringToReadOnlyBytes(raw)))
	if title == mentionTitle && mentionKinds[str(ref, "kind")] {
		r.b.inline(r.c.a.inline("mention", map[string]any{"ref": ref}, nil))
	} else {
		r.b.inline(r.c.a.inline("link", map[string]any{"ref": ref}, text))
	}
	return after
}

// image reads the image at s[i]: `![text](source)`, its text converted without marks or link
// and kept plain, as walkInlines does. It returns the index after it.
func (r *inlineReader) image(i int) int {
	outside, around, emoji := r.b.enter(), r.level, r.emoji
	r.level, r.emoji = level{}, true
	end := r.read(i+2, imageText)
	r.level, r.emoji = around, emoji
	alt := plainOf(r.b.leave(outside))
	raw, _, after := r.destination(end + 1)
	r.b.inline(r.c.inlineImage(decode(util.StringToReadOnlyBytes(raw)), alt))
	return after
}

// destination reads a link's destination from the "(" at s[i]: `(destination)` or
// `(<destination>)`, either with the title "mention" before the ")". It returns the
// destination as written, the title, and the index after the ")".
func (r *inlineReader) destination(i int) (raw, title string, after int) {
	s := r.s
	if i >= len(s) || s[i] != '(' {
		giveUp()
	}
	start, end := i+1, i+1
	if end < len(s) && s[end] == '<' {
		end = angleDestinationEnd(s, end)
		raw, end = s[start+1:end], end+1
	} else {
		for end < len(s) && s[end] != ')' && s[end] != ' ' {
			switch c := s[end]; {
			case c == '\\' && end+1 < len(s) && util.IsPunct(s[end+1]):
				end++
			case c == '(' || c == '<' || util.IsSpace(c) || c < ' ':
				giveUp()
			}
			end++
		}
		if raw = s[start:end]; raw == "" {
			giveUp()
		}
	}
	switch rest := s[end:]; {
	case strings.HasPrefix(rest, ")"):
		return raw, "", end + 1
	case strings.HasPrefix(rest, ` "`+mentionTitle+`")`):
		return raw, mentionTitle, end + len(mentionTitle) + 4
	}
	giveUp()
	return "", "", 0
}

// angleDestinationEnd is the index of the ">" ending the destination in angle brackets at s[i]:
// the first not escaped, as goldmark's parseLinkDestination reads it, on the same line.
func angleDestinationEnd(s string, i int) int {
	for i++; i < len(s) && s[i] != '\n'; i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]):
			i++
		case s[i] == '>':
			return i
		}
	}
	giveUp()
	return 0
}

// html reads the raw HTML at s[i], a tag Markdown writes (writtenTag), as walkInlines converts
// it: an expression or icon with its text and closing tag (when wrapped, not in a link's text),
// else as rawHTML does. It returns the index after what it read.
func (r *inlineReader) html(i int, wrapped bool) int {
	raw, h, m := writtenTag(r.s[i:])
	if raw == "" {
		giveUp()
	}
	after := i + len(raw)
	if h != nil && wrapped {
		text, next := r.textUntil(after, h.close)
		if n := h.node(m, text); n != nil {
			r.b.inline(n)
			return next
		}
	}
	r.marks = r.b.rawHTML(raw, r.marks, &r.opened)
	return after
}

// writtenTag is the tag Markdown writes that s starts with, "" for none: a mark's (tagMarks, a
// color's), a line break, or an opening or closing tag of htmlInlines (h is the inline it opens,
// m the tag's match). CommonMark and goldmark read each as one raw HTML inline: an opening or
// closing tag, on one line, that no autolink starts.
func writtenTag(s string) (raw string, h *htmlInline, m []string) {
	end := strings.IndexByte(s, '>')
	if end < 0 {
		return "", nil, nil
	}
	raw = s[:end+1]
	if h, m = wrappedOpen(raw); h != nil {
		return raw, h, m
	}
	if m := markTag.FindStringSubmatch(raw); m != nil && tagMarks[m[2]] != "" {
		return raw, nil, nil
	}
	if raw == "<br>" || raw == "</mark>" || colorTag.MatchString(raw) ||
		slices.ContainsFunc(htmlInlines, func(h htmlInline) bool { return h.close == raw }) {
		return raw, nil, nil
	}
	return "", nil, nil
}

// textUntil reads the text of an expression or icon from s[i] to its closing tag: the text,
// decoded, and the index after the tag. Goldmark's path reads the inline only when text alone
// comes before the closing tag (converter.textUntil); the quick reader reads it where nothing
// before the tag starts an inline or a line, and gives up elsewhere.
func (r *inlineReader) textUntil(i int, closing string) (string, int) {
	s := r.s
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\' && j+1 < len(s) && isASCIIPunct(s[j+1]):
			j++
		case c == '<' && strings.HasPrefix(s[j:], closing):
			return decode(util.StringToReadOnlyBytes(s[i:j])), j + len(closing)
		case strings.IndexByte("\n`*_~[]$<", c) >= 0:
			giveUp()
		}
	}
	giveUp()
	return "", 0
}

// inlineMath reads `$$formula$$` at s[i] as inlineMathParser does, on the rest of the line: an
// inline, or in a link's text its Markdown. It returns the index after it, i when there is none.
func (r *inlineReader) inlineMath(i int, inLink bool, text int) int {
	s := r.s
	line := s[i:]
	if nl := strings.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	if len(line) < 5 || line[1] != '$' {
		return i
	}
	end := indexFrom(util.StringToReadOnlyBytes(line), "$$", 3)
	if end < 0 {
		return i
	}
	r.text(text, i, "")
	if inLink {
		r.b.leaf(line[:end+2], r.marks)
	} else {
		r.b.inline(r.c.a.inline("inline-math", map[string]any{"formula": line[2:end]}, nil))
	}
	return i + end + 2
}
