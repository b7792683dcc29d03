package markdown

import "testing"

var parseTests = []struct {
	name string
	md   string
	want Parsed
}{
	{"H1", "# Getting started\n\nInstall it.\n", Parsed{Title: "Getting started", Body: "Install it.\n"}},
	{"H1Only", "# Title", Parsed{Title: "Title"}},
	{"H1WithMarkup", "# Hello *world* \\& `x` \n\nBody", Parsed{Title: "Hello world & x", Body: "Body"}},
	{"SetextH1", "Getting\nstarted\n=====\n\nBody", Parsed{Title: "Getting started", Body: "Body"}},
	{"BlankLinesFirst", "\n\n# Title\n\n\n  \nBody", Parsed{Title: "Title", Body: "Body"}},
	{"NoTitle", "Just text.\n\n# Later heading\n", Parsed{Body: "Just text.\n\n# Later heading\n"}},
	{"H2IsNoTitle", "## Section\n\nText", Parsed{Body: "## Section\n\nText"}},
	{"EmptyH1IsNoTitle", "#\n\n# Real\n", Parsed{Body: "#\n\n# Real\n"}},
	{"IndentedBodyKept", "# T\n\n    code\n", Parsed{Title: "T", Body: "    code\n"}},
	{"FrontMatter", "---\ndescription: How to start\nicon: 🚀\n---\n\n# Start\n\nText\n",
		Parsed{Title: "Start", Description: "How to start", Emoji: "🚀", Body: "Text\n"}},
	{"FrontMatterTitleWins", "---\ntitle: From YAML\n---\n# From heading\n\nText",
		Parsed{Title: "From YAML", Body: "# From heading\n\nText"}},
	{"EmptyFrontMatterTitle", "---\ntitle: ''\n---\n# From heading\n", Parsed{Title: "From heading"}},
	{"IconName", "---\nicon: gear\n---\nText", Parsed{Icon: "gear", Body: "Text"}},
	{"GitBookFrontMatter", "---\ndescription: >-\n  A long description\n  on two lines.\nicon: book-open\nlayout:\n  title:\n    visible: true\n  tableOfContents:\n    visible: false\n---\n\n# Guide\n",
		Parsed{Title: "Guide", Description: "A long description on two lines.", Icon: "book-open"}},
	{"QuotedAndComments", "---\n# a comment\ntitle: \"Tabs\\tand \\\"quotes\\\"\"\ndescription: 'It''s fine' \nother: [1, 2] # unused\n---\nBody",
		Parsed{Title: "Tabs\tand \"quotes\"", Description: "It's fine", Body: "Body"}},
	{"CRLF", "---\r\ndescription: d\r\n---\r\n# T\r\n\r\nBody\r\n", Parsed{Title: "T", Description: "d", Body: "Body\r\n"}},
	{"FrontMatterAtEOF", "---\ndescription: d\n---", Parsed{Description: "d"}},
	{"EmptyFrontMatter", "---\n---\nText", Parsed{Body: "Text"}},
	// front matter this package does not read stays body text
	{"BadFrontMatterLine", "---\nnot yaml at all\n---\n# T\n", Parsed{Body: "---\nnot yaml at all\n---\n# T\n"}},
	{"UnclosedFrontMatter", "---\ndescription: d\n\n# T\n", Parsed{Body: "---\ndescription: d\n\n# T\n"}},
	{"BadQuotes", "---\ndescription: \"open\n---\nx", Parsed{Body: "---\ndescription: \"open\n---\nx"}},
	{"NestedWithoutKey", "---\n  a: b\n---\nx", Parsed{Body: "---\n  a: b\n---\nx"}},
	{"NotAtStart", "\n---\ndescription: d\n---\n", Parsed{Body: "\n---\ndescription: d\n---\n"}},
	{"ReferenceBeforeSetextHeading", "[r]: /x\nTitle\n===\n", Parsed{Body: "[r]: /x\nTitle\n===\n"}},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse(tt.md); got != tt.want {
				t.Errorf("Parse(%q)\n got %+v\nwant %+v", tt.md, got, tt.want)
			}
		})
	}
}

// TestParseWithTitle: a title sent with the document is kept; a leading H1 is content then,
// unless it only repeats the title; the front matter's title still wins.
func TestParseWithTitle(t *testing.T) {
	tests := []struct {
		name, md, title string
		want            Parsed
	}{
		{"HeadingStaysContent", "# Installation guide\n\nRun it.\n", "Install",
			Parsed{Title: "Install", Body: "# Installation guide\n\nRun it.\n"}},
		{"HeadingRepeatsTitle", "# Install\n\nRun it.\n", "Install", Parsed{Title: "Install", Body: "Run it.\n"}},
		{"RepeatsButForCase", "# getting Started\n\nText", " Getting started ", Parsed{Title: " Getting started ", Body: "Text"}},
		{"NoHeading", "Just text.", "Notes", Parsed{Title: "Notes", Body: "Just text."}},
		{"FrontMatterTitleWins", "---\ntitle: From YAML\ndescription: d\n---\n# Install\n", "Install",
			Parsed{Title: "From YAML", Description: "d", Body: "# Install\n"}},
		{"FrontMatterWithoutTitle", "---\ndescription: d\n---\n\n# Other\n\nText", "Mine",
			Parsed{Title: "Mine", Description: "d", Body: "# Other\n\nText"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseWithTitle(tt.md, tt.title); got != tt.want {
				t.Errorf("ParseWithTitle(%q, %q)\n got %+v\nwant %+v", tt.md, tt.title, got, tt.want)
			}
		})
	}
}

func TestRender(t *testing.T) {
	tests := []struct {
		name string
		p    Parsed
		want string
	}{
		{"TitleAndBody", Parsed{Title: "Getting started", Body: "Install it.\n"}, "# Getting started\n\nInstall it.\n"},
		{"TitleOnly", Parsed{Title: "T"}, "# T\n\n"},
		{"BodyOnly", Parsed{Body: "Text"}, "Text"},
		{"Description", Parsed{Title: "T", Description: "What: it is", Emoji: "🎉", Body: "B"},
			"---\ndescription: \"What: it is\"\nicon: 🎉\n---\n# T\n\nB"},
		{"IconName", Parsed{Title: "T", Icon: "gear"}, "---\nicon: gear\n---\n# T\n\n"},
		{"TitleWithMarkup", Parsed{Title: "a *b*", Body: "B"}, "---\ntitle: a *b*\n---\nB"},
		{"TitleOnTwoLines", Parsed{Title: "a\nb"}, "---\ntitle: \"a\\nb\"\n---\n"},
		{"BodyLikeFrontMatter", Parsed{Body: "---\ndescription: x\n---\n"}, "---\n---\n---\ndescription: x\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(tt.p)
			if got != tt.want {
				t.Errorf("Render(%+v)\n got %q\nwant %q", tt.p, got, tt.want)
			}
			if back := Parse(got); back != tt.p {
				t.Errorf("Parse(Render(%+v)) = %+v", tt.p, back)
			}
		})
	}
}

func TestParseRenderRoundTrip(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			p := Parse(tt.md)
			if back := Parse(Render(p)); back != p {
				t.Errorf("Parse(Render(%+v)) = %+v", p, back)
			}
		})
	}
}

func TestBlockScalars(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"LiteralClip", "d: |\n  a\n   b\n\n", "a\n b\n"},
		{"LiteralStrip", "d: |-\n  a\n  b\n", "a\nb"},
		{"LiteralKeep", "d: |+\n  a\n\n\n", "a\n\n\n"},
		{"FoldedClip", "d: >\n  a\n  b\n\n  c\n", "a b\nc\n"},
		{"FoldedStrip", "d: >-\n  a\n  b\n", "a b"},
		{"Empty", "d: >\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fields, _, ok := splitFrontMatter("---\n" + tt.yaml + "---\n")
			if !ok || fields["d"] != tt.want {
				t.Errorf("%q: got %q (ok %v), want %q", tt.yaml, fields["d"], ok, tt.want)
			}
		})
	}
}

func TestYAMLValue(t *testing.T) {
	for v, want := range map[string]string{
		"Plain words":  "Plain words",
		"naïve 🎉":      "naïve 🎉",
		"👩‍💻":          "👩‍💻",
		"":             `""`,
		" padded":      `" padded"`,
		"yes":          `"yes"`,
		"Null":         `"Null"`,
		"1.5":          `"1.5"`,
		"- item":       `"- item"`,
		"a: b":         `"a: b"`,
		"a #b":         `"a #b"`,
		"line\nbreak":  `"line\nbreak"`,
		`"quoted"`:     `"\"quoted\""`,
		"it's":         "it's",
		"tab\tinside":  `"tab\tinside"`,
		"ends with:":   `"ends with:"`,
		"[not a list]": `"[not a list]"`,
	} {
		got := yamlValue(v)
		if got != want {
			t.Errorf("yamlValue(%q) = %s, want %s", v, got, want)
		}
		if back, ok := scalar(got); !ok || back != v {
			t.Errorf("scalar(%s) = %q, %v; want %q", got, back, ok, v)
		}
	}
}

func TestIsEmoji(t *testing.T) {
	for s, want := range map[string]bool{
		"🎉": true, "🚀": true, "☕": true, "❤️": true, "👩‍💻": true, "👍🏽": true, "🇫🇷": true, "1️⃣": true,
		"©": true, "🎉🎉": true,
		"": false, "gear": false, "book-open": false, "1": false, "#": false, "é": false, "🎉x": false,
	} {
		if got := isEmoji(s); got != want {
			t.Errorf("isEmoji(%q) = %v, want %v", s, got, want)
		}
	}
}
