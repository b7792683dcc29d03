package markdown

import (
	"slices"
	"strings"
	"testing"
)

// fuzzSeeds are documents with every construct the package looks at.
var fuzzSeeds = []string{
	"# Title\n\nBody with [a link](./x.md) and ![img](/files/F1).\n",
	"---\ndescription: >-\n  folded\n  text\nicon: 🎉\nlayout:\n  width: wide\n---\n\nSetext\n===\n",
	"---\ntitle: 'It''s'\n---\n# H\n",
	"[a [b] c](../README.md#x \"t\") [r][] <https://e.com>\n\n[r]: <./y z.md>\n",
	"> [a\n> b](\n> ./d.md\n> )\n- item\n\t[e](f)\n",
	"`[no](x)`\n\n```\n[no](y)\n```\n[![i](./diagram.png)](./missing.md) [x](/pages/P-1)",
	"[a](./ap&#105;.md) [b](./caf%C3%A9.md) ☕ [c\\]](<>)",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		p := Parse(md)
		if back := Parse(Render(p)); back != p {
			t.Fatalf("Parse(%q) = %+v\nRender: %q\nParse again: %+v", md, p, Render(p), back)
		}
	})
}

// FuzzParseWithTitle: a page split with the title of its change renders to Markdown that reads
// back the same, whatever heading the body starts with.
func FuzzParseWithTitle(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "Title")
		f.Add(s, "H")
	}
	f.Fuzz(func(t *testing.T, md, title string) {
		if title != strings.TrimSpace(title) || title == "" {
			return // the batch trims a title and refuses an empty one
		}
		p := ParseWithTitle(md, title)
		if back := Parse(Render(p)); back != p {
			t.Fatalf("ParseWithTitle(%q, %q) = %+v\nRender: %q\nParse again: %+v", md, title, p, Render(p), back)
		}
	})
}

// FuzzParseWithLinks: one parse gives what Parse (or ParseWithTitle) and Links of its body give.
func FuzzParseWithLinks(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "")
		f.Add(s, "H")
		f.Add("# H\n\n"+s, "")
	}
	f.Fuzz(func(t *testing.T, md, title string) {
		var want Parsed
		var given *string
		if title == "" {
			want = Parse(md)
		} else {
			want, given = ParseWithTitle(md, title), &title
		}
		p, links := ParseWithLinks(md, given)
		if p != want || !slices.Equal(links, Links(p.Body)) {
			t.Fatalf("ParseWithLinks(%q, %q) = %+v, %+v\nwant %+v, %+v", md, title, p, links, want, Links(p.Body))
		}
	})
}

func FuzzLinks(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		for _, l := range Links(md) {
			checkOffsets(t, md, l)
		}
	})
}

// everythingTree resolves every slug path, so only links above the top of the tree do not resolve.
type everythingTree struct{}

func (everythingTree) PageByID(string) bool                   { return false }
func (everythingTree) PageBySlugPath(p string) (string, bool) { return "id-" + p, true }
func (everythingTree) PagePath(string) (string, bool, bool)   { return "a/b", false, true }
func (everythingTree) RootPage() (string, bool)               { return "root", true }

// nothingTree has no pages.
type nothingTree struct{}

func (nothingTree) PageByID(string) bool                 { return false }
func (nothingTree) PageBySlugPath(string) (string, bool) { return "", false }
func (nothingTree) PagePath(string) (string, bool, bool) { return "", false, false }
func (nothingTree) RootPage() (string, bool)             { return "", false }

func FuzzResolve(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	resolvesAll := Resolver{Tree: everythingTree{}, FileByID: func(string) bool { return true }, From: "x"}
	resolvesNone := Resolver{Tree: nothingTree{}, From: "x"}
	f.Fuzz(func(t *testing.T, md string) {
		_ = resolvesNone.Resolve(md)
		out := resolvesAll.Resolve(md)
		links := Links(md)
		for _, l := range links {
			if _, ok := resolvesAll.target(l.Dest); !ok && l.Kind != Autolink {
				return // a link that was replaced by its text: the rest may have moved
			}
		}
		if got, want := gapsBetweenDests(out, Links(out)), gapsBetweenDests(md, links); !slices.Equal(got, want) {
			t.Fatalf("Resolve(%q) = %q changed text outside destinations:\n got %q\nwant %q", md, out, got, want)
		}
	})
}

// gapsBetweenDests returns the text of md around its links' destinations.
func gapsBetweenDests(md string, links []Link) []string {
	var dests []Span
	for _, l := range links {
		dests = append(dests, Span{l.Start, l.End})
	}
	slices.SortFunc(dests, func(a, b Span) int { return a.Start - b.Start })
	dests = slices.Compact(dests) // references share their definition's
	var gaps []string
	at := 0
	for _, d := range dests {
		gaps = append(gaps, md[at:d.Start])
		at = d.End
	}
	return append(gaps, md[at:])
}
