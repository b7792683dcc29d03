package markdown

import (
	"slices"
	"testing"
)

// linkWant is what a test expects of a Link, spans given as the text they cover.
type linkWant struct {
	kind         Kind
	dest         string
	outer, inner string
	text         string
	image        bool
}

func TestLinks(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []linkWant
	}{
		{"Inline", "See [the guide](./guide.md).",
			[]linkWant{{Inline, "./guide.md", "[the guide](./guide.md)", "the guide", "the guide", false}}},
		{"ImageWithTitle", `x ![alt *b*](./img.png "T") y`,
			[]linkWant{{Inline, "./img.png", `![alt *b*](./img.png "T")`, "alt *b*", "alt b", true}}},
		{"NestedBrackets", "[a [b] c](x) [[d]](y)", []linkWant{
			{Inline, "x", "[a [b] c](x)", "a [b] c", "a [b] c", false},
			{Inline, "y", "[[d]](y)", "[d]", "[d]", false}}},
		{"ImageInLink", "[![i](p)](q)", []linkWant{
			{Inline, "q", "[![i](p)](q)", "![i](p)", "i", false},
			{Inline, "p", "![i](p)", "i", "i", true}}},
		{"LinkInLinkIsText", "[a [b](c) d](e)",
			[]linkWant{{Inline, "c", "[b](c)", "b", "b", false}}},
		{"EscapedBracketIsText", `\[a](b) [c\]](d)`,
			[]linkWant{{Inline, "d", `[c\]](d)`, `c\]`, "c]", false}}},
		{"EmptyAndAngleDestinations", "[a]() [b](<c d>)", []linkWant{
			{Inline, "", "[a]()", "a", "a", false},
			{Inline, "c d", "[b](<c d>)", "b", "b", false}}},
		{"Unicode", "Café ☕ — [naïve 🎉](/pages/crème#brûlée)",
			[]linkWant{{Inline, "/pages/crème#brûlée", "[naïve 🎉](/pages/crème#brûlée)", "naïve 🎉", "naïve 🎉", false}}},
		{"AcrossLinesInAQuote", "> [a\n> b](\n> ./d.md\n> )", []linkWant{
			{Inline, "./d.md", "[a\n> b](\n> ./d.md\n> )", "a\n> b", "a b", false}}},
		{"NotInCode", "`[a](b)`\n\n```\n[c](d)\n```\n\n    [e](f)\n\n<div>[g](h)</div>\n", nil},
		{"Autolinks", "<https://e.com/x> and <a@b.co>", []linkWant{
			{Autolink, "https://e.com/x", "<https://e.com/x>", "https://e.com/x", "https://e.com/x", false},
			{Autolink, "a@b.co", "<a@b.co>", "a@b.co", "a@b.co", false}}},
		{"References", "[t][r], [r][], [r] and ![i][r]\n\n[r]: ./x.md \"T\"\n", []linkWant{
			{Reference, "./x.md", "[t][r]", "t", "t", false},
			{Reference, "./x.md", "[r][]", "r", "r", false},
			{Reference, "./x.md", "[r]", "r", "r", false},
			{Reference, "./x.md", "![i][r]", "i", "i", true},
			{Definition, "./x.md", "./x.md", "./x.md", "r", false}}},
		{"UnusedDefinitionAndUndefinedReference", "[nope]\n\n[r]: <a b>\n",
			[]linkWant{{Definition, "a b", "a b", "a b", "r", false}}},
		{"FailedInlineFallsBackToShortcut", "[a](x y z\n\n[a]: /u\n", []linkWant{
			{Reference, "/u", "[a]", "a", "a", false},
			{Definition, "/u", "/u", "/u", "a", false}}},
		{"InListWithTab", "- item\n\t[a](b)\n",
			[]linkWant{{Inline, "b", "[a](b)", "a", "a", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []linkWant
			for _, l := range Links(tt.md) {
				checkOffsets(t, tt.md, l)
				got = append(got, linkWant{l.Kind, l.Dest, tt.md[l.Outer.Start:l.Outer.End],
					tt.md[l.Inner.Start:l.Inner.End], l.Text, l.Image})
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Links(%q)\n got %+v\nwant %+v", tt.md, got, tt.want)
			}
		})
	}
}

// checkOffsets fails t unless l's offsets are where its syntax is in md.
func checkOffsets(t testing.TB, md string, l Link) {
	t.Helper()
	if l.Start < 0 || l.Start > l.End || l.End > len(md) || md[l.Start:l.End] != l.Dest {
		t.Fatalf("Links(%q): Dest %q at [%d:%d]", md, l.Dest, l.Start, l.End)
	}
	o, i := l.Outer, l.Inner
	if o.Start < 0 || o.Start > i.Start || i.Start > i.End || i.End > o.End || o.End > len(md) {
		t.Fatalf("Links(%q): spans %+v %+v of %+v", md, o, i, l)
	}
	var open, close string
	switch l.Kind {
	case Inline, Reference:
		open, close = "[", "]"
		if l.Image {
			open = "!["
		}
	case Autolink:
		open, close = "<", ">"
	}
	if md[o.Start:i.Start] != open || md[i.End:i.End+len(close)] != close {
		t.Fatalf("Links(%q): %q does not open with %q and close with %q", md, md[o.Start:o.End], open, close)
	}
	if l.Kind == Inline && (md[i.End:i.End+2] != "](" || md[o.End-1] != ')' || l.Start < i.End || l.End >= o.End) {
		t.Fatalf("Links(%q): inline link %q", md, md[o.Start:o.End])
	}
}
