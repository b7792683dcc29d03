package search

import (
	"strings"
	"unicode/utf8"
)

// Excerpt bounds: how many characters an excerpt holds at most, and how many words before the
// first match it starts.
const (
	ExcerptLength = 200
	excerptLead   = 6
)

// Excerpt is the part of a section's text shown in a result: up to ExcerptLength characters,
// starting a few words before the first word the terms match (at the start when none does, as
// for a title match), cut at word boundaries, with "…" where text was cut, whitespace collapsed.
func Excerpt(text string, t Terms) string {
	words := wordSpans(text)
	first := 0
	for i, w := range words {
		if t.matchesAny(Fold(text[w.start:w.end])) {
			first = max(0, i-excerptLead)
			break
		}
	}
	start := 0
	if first > 0 {
		start = words[first].start
	}
	out := strings.Join(strings.Fields(text[start:]), " ")
	cut := false
	if utf8.RuneCountInString(out) > ExcerptLength {
		out, cut = cutAtSpace(out, ExcerptLength), true
	}
	if start > 0 {
		out = "…" + out
	}
	if cut {
		out += "…"
	}
	return out
}

// span is where one word of a text lies, in bytes.
type span struct{ start, end int }

// wordSpans finds the words of text as Tokens cuts them.
func wordSpans(text string) []span {
	var spans []span
	start := -1
	for i, r := range text {
		switch word := isWordRune(r); {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			spans = append(spans, span{start, i})
			start = -1
		}
	}
	if start >= 0 {
		spans = append(spans, span{start, len(text)})
	}
	return spans
}

// cutAtSpace cuts s to at most n characters, at its last space within them when there is one.
func cutAtSpace(s string, n int) string {
	end := len(s)
	for i := range s {
		if n == 0 {
			end = i
			break
		}
		n--
	}
	if sp := strings.LastIndexByte(s[:end], ' '); sp > 0 {
		end = sp
	}
	return s[:end]
}
