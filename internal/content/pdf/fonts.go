package pdf

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// face is one embedded TrueType font: the name fpdf knows it by, its bytes, and its advance
// widths, which the layout measures text with (fpdf's own width lookup panics on runes above
// U+FFFF, and calling it would make fpdf emit a font change for every measurement).
type face struct {
	family, style string // fpdf's family and style ("", "B", "I", "BI")
	ttf           []byte
	once          sync.Once
	advance       []uint16 // width of each rune of the Basic Multilingual Plane in 1/1000 em; noGlyph if absent
}

// noGlyph marks a rune the font has no glyph for.
const noGlyph = 0xFFFF

// faces holds the Go fonts (BSD licensed, shipped as Go byte slices, so there are no font files
// to commit or install), indexed by faceIndex.
var faces = [8]*face{
	{family: "go", style: "", ttf: goregular.TTF},
	{family: "go", style: "I", ttf: goitalic.TTF},
	{family: "go", style: "B", ttf: gobold.TTF},
	{family: "go", style: "BI", ttf: gobolditalic.TTF},
	{family: "gomono", style: "", ttf: gomono.TTF},
	{family: "gomono", style: "I", ttf: gomonoitalic.TTF},
	{family: "gomono", style: "B", ttf: gomonobold.TTF},
	{family: "gomono", style: "BI", ttf: gomonobolditalic.TTF},
}

// faceIndex is the position in faces of the font for these attributes.
func faceIndex(mono, bold, italic bool) int {
	i := 0
	if italic {
		i |= 1
	}
	if bold {
		i |= 2
	}
	if mono {
		i |= 4
	}
	return i
}

// widths returns the advance table, reading it from the font on first use.
func (f *face) widths() []uint16 {
	f.once.Do(func() { f.advance = readAdvances(f.ttf) })
	return f.advance
}

// readAdvances reads the advance width of every rune of the Basic Multilingual Plane, scaled to
// 1/1000 em as fpdf scales its glyph widths.
func readAdvances(ttf []byte) []uint16 {
	adv := make([]uint16, 0x10000)
	for i := range adv {
		adv[i] = noGlyph
	}
	f, err := sfnt.Parse(ttf)
	if err != nil {
		panic("pdf: embedded font does not parse: " + err.Error()) // the fonts are compiled in
	}
	var buf sfnt.Buffer
	upem := f.UnitsPerEm()
	for r := range rune(len(adv)) {
		gi, err := f.GlyphIndex(&buf, r)
		if err != nil || gi == 0 {
			continue
		}
		// At a size of one em per unit, the advance comes back in font units.
		w, err := f.GlyphAdvance(&buf, gi, fixed.I(int(upem)), font.HintingNone)
		if err != nil {
			continue
		}
		adv[r] = uint16((int(w)*1000/int(upem) + 32) >> 6)
	}
	return adv
}

// has reports whether the font has a glyph for r.
func (f *face) has(r rune) bool {
	return r >= 0 && r < 0x10000 && f.widths()[r] != noGlyph
}

// width is the width of s in points at size points. s must have passed clean.
func (f *face) width(s string, size float64) float64 {
	total := 0.0
	for _, r := range s {
		total += f.runeWidth(r, size)
	}
	return total
}

// runeWidth is the width of r in points at size points; 0 for a rune the font lacks.
func (f *face) runeWidth(r rune, size float64) float64 {
	if !f.has(r) {
		return 0
	}
	return float64(f.widths()[r]) * size / 1000
}

// clean makes s drawable in this font: invalid UTF-8 and characters the font has no glyph for
// become U+FFFD (so a reader sees that something is missing), tabs become a space, and control
// and invisible format characters (NUL, zero-width joiners, byte order marks) are dropped.
func (f *face) clean(s string) string {
	if f.drawable(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
		case f.has(r):
			b.WriteRune(r)
		default:
			b.WriteRune(utf8.RuneError)
		}
	}
	return b.String()
}

// drawable reports whether clean would return s unchanged: the common case, checked without
// allocating.
func (f *face) drawable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r == '\t' || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || !f.has(r) {
			return false
		}
	}
	return true
}
