package markdown

import "unicode"

const (
	zeroWidthJoiner = '\u200d'
	keycap          = '\u20e3'
)

// pictographs are the code points that are emoji by themselves (Unicode's Extended_Pictographic,
// rounded to whole blocks where the blocks are mostly emoji).
var pictographs = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00a9, Hi: 0x00ae, Stride: 5}, // © ®
		{Lo: 0x203c, Hi: 0x2049, Stride: 13},
		{Lo: 0x2122, Hi: 0x2139, Stride: 23},
		{Lo: 0x2194, Hi: 0x21aa, Stride: 1},
		{Lo: 0x231a, Hi: 0x23ff, Stride: 1},
		{Lo: 0x24c2, Hi: 0x24c2, Stride: 1},
		{Lo: 0x25aa, Hi: 0x25fe, Stride: 1},
		{Lo: 0x2600, Hi: 0x27bf, Stride: 1},
		{Lo: 0x2934, Hi: 0x2935, Stride: 1},
		{Lo: 0x2b05, Hi: 0x2b55, Stride: 1},
		{Lo: 0x3030, Hi: 0x303d, Stride: 13},
		{Lo: 0x3297, Hi: 0x3299, Stride: 2},
	},
	R32: []unicode.Range32{
		{Lo: 0x1f000, Hi: 0x1faff, Stride: 1}, // also regional indicators and skin tones
	},
	LatinOffset: 1,
}

// isEmoji reports whether s is one emoji or a few: pictographs, with the code points that combine
// them (joiner, variation selectors, keycap and its digits, tags). An icon name is not.
func isEmoji(s string) bool {
	seen := false
	for _, r := range s {
		switch {
		case unicode.Is(pictographs, r) || r == keycap:
			seen = true
		case r == zeroWidthJoiner || r == '\ufe0e' || r == '\ufe0f' || (r >= 0xe0020 && r <= 0xe007f):
		case r == '#' || r == '*' || (r >= '0' && r <= '9'): // a keycap's base: "1️⃣"
		default:
			return false
		}
	}
	return seen
}
