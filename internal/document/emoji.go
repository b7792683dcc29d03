package document

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Emoji inlines. GitBook's Markdown writes an emoji as its characters, so an emoji in a text is an
// emoji inline: a sequence starting with a code point of emojiStarts, with what joins or varies
// it (ZWJ and another emoji, variation selectors, skin tones, keycap, tags). Its data.code is the
// sequence's code points in lower-case hexadecimal joined by "-" ("1f44d", "1f468-200d-1f469").
// A text's own characters of emojiStarts are written as character references ("&#x1F44D;"),
// which read back as text, so both survive a trip through Markdown.

// emojiStarts are the code points that start an emoji: the blocks of pictographs and dingbats.
var emojiStarts = &unicode.RangeTable{
	R16: []unicode.Range16{{Lo: 0x231a, Hi: 0x23ff, Stride: 1}, {Lo: 0x2600, Hi: 0x27bf, Stride: 1}, {Lo: 0x2b05, Hi: 0x2b55, Stride: 1}},
	R32: []unicode.Range32{{Lo: 0x1f000, Hi: 0x1faff, Stride: 1}},
}

const zeroWidthJoiner = '\u200d'

// emojiLen is the length in bytes of the emoji sequence s starts with, 0 when it starts none.
func emojiLen(s string) int {
	r, size := utf8.DecodeRuneInString(s)
	if !unicode.Is(emojiStarts, r) {
		return 0
	}
	n := size
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		switch {
		case r == '\ufe0e' || r == '\ufe0f' || r == '\u20e3' || r >= 0xe0020 && r <= 0xe007f || r >= 0x1f3fb && r <= 0x1f3ff:
			n += size
		case r == zeroWidthJoiner:
			next, nextSize := utf8.DecodeRuneInString(s[n+size:])
			if !unicode.Is(emojiStarts, next) {
				return n
			}
			n += size + nextSize
		default:
			return n
		}
	}
	return n
}

// emojiCode is data.code of an emoji sequence.
func emojiCode(seq string) string {
	var parts []string
	for _, r := range seq {
		parts = append(parts, strconv.FormatInt(int64(r), 16))
	}
	return strings.Join(parts, "-")
}

// emojiChars is the sequence of data.code, "" when code is not one emoji sequence in the form
// emojiCode writes.
func emojiChars(code string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(code, "-") {
		r, err := strconv.ParseInt(part, 16, 32)
		if err != nil || !utf8.ValidRune(rune(r)) {
			return ""
		}
		b.WriteRune(rune(r))
	}
	seq := b.String()
	if emojiLen(seq) != len(seq) || emojiCode(seq) != code {
		return ""
	}
	return seq
}

// EmojiChars is the characters of an emoji inline's data.code, "" when it is not one Validate
// accepts.
func EmojiChars(data map[string]any) string { return emojiChars(str(data, "code")) }

func checkEmoji(path string, data map[string]any) error {
	if EmojiChars(data) == "" {
		return fmt.Errorf("%s: data.code of an emoji must be one emoji's code points in lower-case hexadecimal joined by - (\"1f44d\")", path)
	}
	return nil
}

// emojiInline is the emoji inline of a sequence.
func emojiInline(seq string) *Node { return Inline("emoji", map[string]any{"code": emojiCode(seq)}) }
