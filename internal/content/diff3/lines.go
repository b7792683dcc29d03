package diff3

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffTimeout bounds the time of each line diff; past it go-diff returns a coarser diff.
const diffTimeout = time.Second

// Tokens are line numbers in a table of the distinct lines of all three texts, made runes so
// that go-diff's rune diff can compare lines as characters. The surrogate block is skipped, as
// those are not runes that survive go-diff's conversions to strings.
const (
	surrogateMin = 0xD800
	surrogateEnd = 0xE000 // just past the block
	maxTokens    = utf8.MaxRune + 1 - (surrogateEnd - surrogateMin)
)

// text is a text split into lines, each with a token: equal lines, equal tokens.
type text struct {
	lines  []string // each with its "\n"; the last may lack it
	tokens []rune
}

func (t text) len() int { return len(t.lines) }

func (t text) slice(from, to int) text {
	return text{lines: t.lines[from:to], tokens: t.tokens[from:to]}
}

func (t text) equal(u text) bool { return slices.Equal(t.tokens, u.tokens) }

func (t text) String() string { return strings.Join(t.lines, "") }

// tokenize splits the texts into lines and gives each line its token. diffable is false when
// there are more distinct lines than runes to stand for them; the tokens still tell lines apart.
func tokenize(texts ...string) (tokenized []text, diffable bool) {
	tokenized = make([]text, len(texts))
	most := 0 // lines in the longest text: the table holds at least as many
	for i, s := range texts {
		tokenized[i].lines = splitLines(s)
		most = max(most, tokenized[i].len())
	}
	ids := make(map[string]rune, most)
	for i := range tokenized {
		t := &tokenized[i]
		t.tokens = make([]rune, t.len())
		for j, line := range t.lines {
			id, seen := ids[line]
			if !seen {
				id = tokenOf(len(ids))
				ids[line] = id
			}
			t.tokens[j] = id
		}
	}
	return tokenized, len(ids) <= maxTokens
}

// tokenOf returns the token of the n-th distinct line.
func tokenOf(n int) rune {
	if n >= surrogateMin {
		n += surrogateEnd - surrogateMin
	}
	return rune(n)
}

// splitLines splits s after each "\n"; "" has no lines.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" { // s is empty or ends with "\n"
		lines = lines[:len(lines)-1]
	}
	return lines
}

// align diffs side against base and returns, for each base line, the index of the side line it
// is kept as, or -1 if the side deleted or changed it. Kept lines come in increasing order.
func align(base, side text) []int {
	differ := diffmatchpatch.New()
	differ.DiffTimeout = diffTimeout
	kept := keptByNone(base)
	o, s := 0, 0 // next line of base, side
	for _, d := range differ.DiffMainRunes(base.tokens, side.tokens, false) {
		n := utf8.RuneCountInString(d.Text) // one rune per line
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for k := range n {
				kept[o+k] = s + k
			}
			o, s = o+n, s+n
		case diffmatchpatch.DiffDelete:
			o += n
		case diffmatchpatch.DiffInsert:
			s += n
		}
	}
	return kept
}

// keptByNone returns the alignment of a side that kept no base line.
func keptByNone(base text) []int {
	kept := make([]int, base.len())
	for i := range kept {
		kept[i] = -1
	}
	return kept
}
