package links

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []Target
	}{
		{"PagesFilesSpaces", "[a](/pages/P1) ![i](/files/F1) [s](/spaces/S1)",
			[]Target{{Page, "P1", ""}, {File, "F1", ""}, {Space, "S1", ""}}},
		{"PageAnchor", "[a](/pages/P1#setup) [b](/pages/P1)",
			[]Target{{Page, "P1", "setup"}, {Page, "P1", ""}}},
		{"DistinctInOrder", "[a](/files/F2) [b](/files/F1) [c](/files/F2)",
			[]Target{{File, "F2", ""}, {File, "F1", ""}}},
		{"URLs", "[w](https://example.com/x?y#z) [p](/o/org/s/space) [r](./missing.md) <https://e.com>",
			[]Target{{URL, "https://example.com/x?y#z", ""}, {URL, "/o/org/s/space", ""}, {URL, "./missing.md", ""},
				{URL, "https://e.com", ""}}},
		{"EmailAutolink", "<ada@example.com>", []Target{{URL, "mailto:ada@example.com", ""}}},
		{"SamePageAndEmptyLeftOut", "[top](#top) [none]()", nil},
		{"NotInCode", "`[a](/pages/P1)`\n\n```\n[b](/files/F1)\n```\n", nil},
		{"ReferencesCountDefinitionsDoNot", "[a][r] [b][r]\n\n[r]: /pages/P1\n[unused]: /files/F9\n",
			[]Target{{Page, "P1", ""}}},
		{"EscapedID", "[a](/pages/P%31)", []Target{{Page, "P1", ""}}},
		{"SubpathAndQuery", "[a](/spaces/S1/x) [b](/files/F1?download)", []Target{{Space, "S1", ""}, {File, "F1", ""}}},
		{"NotAnIDIsAURL", "[a](/pages/) [b](/pages/" + strings.Repeat("x", MaxRefLen+1) + ") [c](/files/%00)",
			[]Target{{URL, "/pages/", ""}, {URL, "/pages/" + strings.Repeat("x", MaxRefLen+1), ""}, {URL, "/files/%00", ""}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Extract(tc.body); !slices.Equal(got, tc.want) {
				t.Fatalf("Extract(%q)\n got %+v\nwant %+v", tc.body, got, tc.want)
			}
		})
	}
}

func TestTargetID(t *testing.T) {
	if a, b := (Target{Page, "P1", "x"}), (Target{Page, "P1", ""}); a.ID() != "P1#x" || b.ID() != "P1" {
		t.Fatalf("IDs %q %q", a.ID(), b.ID())
	}
}

func TestStatus(t *testing.T) {
	exists := map[Target]bool{{Page, "P1", ""}: true, {File, "F1", ""}: true, {Space, "S1", ""}: true}
	c := Checker{
		Exists: func(t Target) bool { return exists[Target{t.Kind, t.Ref, ""}] },
		App:    "https://docs.example.com",
	}
	tests := []struct {
		target Target
		want   Status
	}{
		{Target{Page, "P1", ""}, OK},
		{Target{Page, "P1", "anchor"}, OK}, // anchors are not checked
		{Target{Page, "P2", ""}, Broken},
		{Target{File, "F1", ""}, OK},
		{Target{File, "F2", ""}, Broken},
		{Target{Space, "S1", ""}, OK},
		{Target{Space, "S2", ""}, Broken},
		{Target{URL, "https://example.com/a", ""}, OK},
		{Target{URL, "mailto:ada@example.com", ""}, OK},
		{Target{URL, "//cdn.example.com/x.js", ""}, OK},
		{Target{URL, "https://docs.example.com/o/org/s/space", ""}, InApp},
		{Target{URL, "HTTPS://Docs.Example.com", ""}, InApp},
		{Target{URL, "http://docs.example.com/x", ""}, OK}, // another scheme is another origin
		{Target{URL, "//docs.example.com/x", ""}, InApp},
		{Target{URL, "https://docs.example.com.evil.net/", ""}, OK},
		{Target{URL, "/o/org/s/space", ""}, InApp},
		{Target{URL, "./missing.md", ""}, Broken},
		{Target{URL, "missing", ""}, Broken},
		{Target{URL, "https://bad host/%zz", ""}, OK},
	}
	for _, tc := range tests {
		if got := c.Status(tc.target); got != tc.want {
			t.Errorf("Status(%+v) = %s, want %s", tc.target, got, tc.want)
		}
	}
}

func TestCountAndIntroduced(t *testing.T) {
	p1, p2, f1, u := Target{Page, "P1", ""}, Target{Page, "P2", ""}, Target{File, "F1", ""}, Target{URL, "https://e.com", ""}
	now := []Checked{{p1, Broken}, {p2, Broken}, {f1, Broken}, {u, OK}}
	if s := Count(now); s != (Stats{Total: 4, Broken: 3}) {
		t.Fatalf("Count = %+v", s)
	}
	tests := []struct {
		name   string
		before []Checked
		want   int
	}{
		{"NoBase", nil, 3},
		{"BrokenBeforeIsNotIntroduced", []Checked{{p1, Broken}}, 2},
		{"WorkingBeforeIsIntroduced", []Checked{{p1, OK}, {p2, OK}}, 3},
		{"AllBrokenBefore", []Checked{{p1, Broken}, {p2, Broken}, {f1, Broken}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Introduced(now, tc.before); got != tc.want {
				t.Fatalf("Introduced = %d, want %d", got, tc.want)
			}
		})
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"[a](/pages/P1#x) ![i](/files/F1) [s](/spaces/S1) <ada@example.com> <https://e.com>",
		"[r][x]\n\n[x]: /pages/%E2%82%AC\n`[no](/files/F)`",
		"[a](/pages/%00) [b](/pages/%zz) [c](\xff) [d](#top) [e]()",
		"> [a\n> b](/files/F2?x#y)\n- [c](../x.md)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		seen := map[Target]bool{}
		for _, tg := range Extract(body) {
			if seen[tg] {
				t.Fatalf("target %+v listed twice", tg)
			}
			seen[tg] = true
			if clean(tg.Ref) != tg.Ref || clean(tg.Anchor) != tg.Anchor || !utf8.ValidString(tg.Ref) {
				t.Fatalf("target %+v is not storable text", tg)
			}
			switch tg.Kind {
			case Page, File, Space:
				if tg.Ref == "" || len(tg.Ref) > MaxRefLen || (tg.Anchor != "" && tg.Kind != Page) {
					t.Fatalf("bad id target %+v", tg)
				}
			case URL:
				if tg.Ref == "" || tg.Anchor != "" {
					t.Fatalf("bad URL target %+v", tg)
				}
			default:
				t.Fatalf("unknown kind in %+v", tg)
			}
		}
	})
}
