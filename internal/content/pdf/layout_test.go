package pdf

import (
	"slices"
	"strings"
	"testing"
)

var (
	plain = style{size: 10}
	bold  = style{size: 10, bold: true}
)

// texts is the text of each line.
func texts(lines []line) []string {
	out := make([]string, len(lines))
	for i, ln := range lines {
		for _, p := range ln.pieces {
			out[i] += p.text
		}
	}
	return out
}

// widthOf is the width of s in the plain style.
func widthOf(s string) float64 { return plain.face().width(s, plain.size) }

func TestLayout(t *testing.T) {
	tests := []struct {
		name       string
		runs       []run
		width      float64
		keepSpaces bool
		want       []string
	}{
		{"FitsOnOneLine", []run{{text: "one two", style: plain}}, 1000, false, []string{"one two"}},
		{"WrapsAtSpaces", []run{{text: "aaa bbb ccc", style: plain}}, widthOf("aaa bbb"), false, []string{"aaa bbb", "ccc"}},
		{"DropsSpacesAtLineEdges", []run{{text: "  aaa   bbb  ", style: plain}}, widthOf("aaa"), false, []string{"aaa", "bbb"}},
		{"SplitsWordWiderThanLine", []run{{text: "abcdefgh", style: plain}}, widthOf("abc"), false, []string{"abc", "def", "gh"}},
		{"OneCharacterPerLineWhenNarrower", []run{{text: "abc", style: plain}}, 0.1, false, []string{"a", "b", "c"}},
		{"KeepsStyledWordTogether", []run{{text: "xx ", style: plain}, {text: "bold", style: bold}, {text: "text", style: plain}}, widthOf("xx boldte"), false, []string{"xx", "boldtext"}},
		{"HardBreaks", []run{{text: "a", style: plain}, {br: true}, {br: true}, {text: "b", style: plain}}, 1000, false, []string{"a", "", "b"}},
		{"Empty", nil, 1000, false, []string{""}},
		{"CodeKeepsIndentation", []run{{text: "    x = 1", style: plain}}, 1000, true, []string{"    x = 1"}},
		{"CodeWrapDropsLeadingSpaces", []run{{text: "  ab cd", style: plain}}, widthOf("  ab c"), true, []string{"  ab", "cd"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := layout(tt.runs, tt.width, tt.keepSpaces)
			if got := texts(lines); !slices.Equal(got, tt.want) {
				t.Fatalf("lines %q, want %q", got, tt.want)
			}
			for _, ln := range lines {
				if len(ln.pieces) > 1 && ln.width > tt.width+1e-9 {
					t.Errorf("line %q is %.2f wide, over %.2f", texts([]line{ln}), ln.width, tt.width)
				}
			}
		})
	}
}

func TestLayoutKeepsEveryCharacter(t *testing.T) {
	text := strings.Repeat("Grüße, 世界! ", 50) + strings.Repeat("x", 500)
	runs := addText(nil, text, plain)
	lines := layout(runs, 120, false)
	got := strings.Join(texts(lines), " ")
	want := strings.Join(strings.Fields(runs[0].text), " ")
	if strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(want, " ", "") {
		t.Fatalf("layout lost or changed characters")
	}
	for _, ln := range lines {
		if ln.width > 120+1e-9 {
			t.Errorf("line %q is %.2f wide, over 120", texts([]line{ln}), ln.width)
		}
	}
}

func TestClean(t *testing.T) {
	f := plain.face()
	tests := []struct {
		name, in, want string
	}{
		{"Latin", "Café Łódź ß", "Café Łódź ß"},
		{"NoGlyph", "中😀", "\uFFFD\uFFFD"},
		{"InvalidUTF8", "a\xffb", "a\uFFFDb"},
		{"Controls", "a\x00b\tc\x1bd\u200de\ufeff", "ab cde"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := f.clean(tt.in); got != tt.want {
				t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestOutline(t *testing.T) {
	tests := []struct {
		name   string
		depths []int
		want   []string
	}{
		{"Flat", []int{0, 0, 0}, []string{"1", "2", "3"}},
		{"Nested", []int{0, 1, 2, 1, 0, 1}, []string{"1", "1.1", "1.1.1", "1.2", "2", "2.1"}},
		{"JumpIsOneLevel", []int{0, 3, 3}, []string{"1", "1.1", "1.2"}},
		{"FirstPageIsRoot", []int{2, 2}, []string{"1", "2"}},
		{"NegativeIsRoot", []int{0, -1}, []string{"1", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pages := make([]Page, len(tt.depths))
			for i, d := range tt.depths {
				pages[i].Depth = d
			}
			var got []string
			for _, n := range outline(pages) {
				got = append(got, n.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("numbers %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLinkTarget(t *testing.T) {
	tests := []struct {
		dest, want string
		ok         bool
	}{
		{"https://example.com/a?b=c#d", "https://example.com/a?b=c#d", true},
		{"HTTP://example.com", "HTTP://example.com", true},
		{"mailto:ada@example.com", "mailto:ada@example.com", true},
		{"https://example.com/ü", "https://example.com/%C3%BC", true},
		{"https:///no-host", "", false},
		{"../relative", "", false},
		{"#anchor", "", false},
		{"javascript:alert(1)", "", false},
		{"file:///etc/passwd", "", false},
		{"https://exa mple.com/\x00", "", false},
	}
	for _, tt := range tests {
		got, ok := linkTarget(tt.dest)
		if got != tt.want || ok != tt.ok {
			t.Errorf("linkTarget(%q) = %q, %v; want %q, %v", tt.dest, got, ok, tt.want, tt.ok)
		}
	}
}
