package pdf

import (
	"io"
	"regexp"
	"strconv"
	"strings"

	pdfreader "github.com/ledongthuc/pdf"
)

// pageText returns the text of a rendered page, one string per line (text drawn at one height).
//
// It decodes the text through each font's ToUnicode map as poppler and pdf.js do. fpdf maps all
// of U+0000–U+FFFF with one range; ledongthuc/pdf's own decoder steps only the last byte through a
// range (the letter of the PDF spec), which garbles every character past Latin-1, so the test
// reads the content stream itself with that package's interpreter.
func pageText(p pdfreader.Page) []string {
	maps := map[string]toUnicode{}
	for _, name := range p.Fonts() {
		maps[name] = readToUnicode(p.Font(name).V.Key("ToUnicode"))
	}
	var (
		lines []string
		cur   strings.Builder
		font  toUnicode
		lastY = -1.0
	)
	pdfreader.Interpret(p.V.Key("Contents"), func(stk *pdfreader.Stack, op string) {
		switch op {
		case "Tf": // font size
			stk.Pop()
			font = maps[stk.Pop().Name()]
		case "Td": // x y
			y := stk.Pop().Float64()
			stk.Pop()
			if y != lastY && cur.Len() > 0 {
				lines = append(lines, cur.String())
				cur.Reset()
			}
			lastY = y
		case "Tj":
			cur.WriteString(font.decode(stk.Pop().RawString()))
		}
		for stk.Len() > 0 {
			stk.Pop()
		}
	})
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// toUnicode maps two-byte character codes to Unicode by ranges.
type toUnicode []cmapRange

// cmapRange maps code lo+i to rune dst+i, up to hi.
type cmapRange struct{ lo, hi, dst int }

// readToUnicode reads the bfrange and bfchar entries of a ToUnicode CMap.
func readToUnicode(cmap pdfreader.Value) toUnicode {
	src, err := io.ReadAll(cmap.Reader())
	if err != nil {
		return nil
	}
	var m toUnicode
	for _, section := range bfrangeSection.FindAllSubmatch(src, -1) {
		for _, e := range hexTriple.FindAllSubmatch(section[1], -1) {
			m = append(m, cmapRange{hexCode(e[1]), hexCode(e[2]), hexCode(e[3])})
		}
	}
	for _, section := range bfcharSection.FindAllSubmatch(src, -1) {
		for _, e := range hexPair.FindAllSubmatch(section[1], -1) {
			c := hexCode(e[1])
			m = append(m, cmapRange{c, c, hexCode(e[2])})
		}
	}
	return m
}

var (
	bfrangeSection = regexp.MustCompile(`(?s)beginbfrange(.*?)endbfrange`)
	bfcharSection  = regexp.MustCompile(`(?s)beginbfchar(.*?)endbfchar`)
	hexTriple      = regexp.MustCompile(`<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>`)
	hexPair        = regexp.MustCompile(`<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>`)
)

// hexCode reads hex digits as a number.
func hexCode(hex []byte) int {
	n, _ := strconv.ParseInt(string(hex), 16, 64)
	return int(n)
}

// decode turns a string of two-byte codes into text; unmapped codes read as "?".
func (m toUnicode) decode(raw string) string {
	var b strings.Builder
	for i := 0; i+1 < len(raw); i += 2 {
		c, r := int(raw[i])<<8|int(raw[i+1]), '?'
		for _, e := range m {
			if e.lo <= c && c <= e.hi {
				r = rune(e.dst + c - e.lo)
				break
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}
