package markdown

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestSections(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []Section
	}{
		{"Empty", "", []Section{{}}},
		{"NoHeadings", "Hello *world*.\n\nSecond [link](/pages/abc) here.", []Section{
			{Text: "Hello world.\nSecond link here."},
		}},
		{"SplitAtHeadings", "Intro.\n\n## Install\n\nRun it.\n\n### On Linux\n\napt get\n\n#### Deep\n\nStill Linux.", []Section{
			{Text: "Intro."},
			{Heading: "Install", Anchor: "install", Text: "Run it."},
			{Heading: "On Linux", Anchor: "on-linux", Text: "apt get\nDeep\nStill Linux."},
		}},
		{"LeadingHeadingHasEmptyIntro", "# Title\ntext", []Section{
			{},
			{Heading: "Title", Anchor: "title", Text: "text"},
		}},
		{"CodeListsQuotesKept", "- one\n- two `x`\n\n> quoted\n\n```go\nfunc main() {}\n```\n\n<div>raw</div>\n\n---\n\n![alt text](/files/f1)", []Section{
			{Text: "one\ntwo x\nquoted\nfunc main() {}\nalt text"},
		}},
		{"DuplicateAnchors", "## A\n## A\n## A-1\n## A", []Section{
			{},
			{Heading: "A", Anchor: "a"},
			{Heading: "A", Anchor: "a-1"},
			{Heading: "A-1", Anchor: "a-1-1"},
			{Heading: "A", Anchor: "a-2"},
		}},
		{"PunctuationOnlyHeading", "## ???\nx", []Section{{}, {Heading: "???", Anchor: "section", Text: "x"}}},
		{"HeadingInsideListIsText", "- ## inner\n\n## Outer", []Section{
			{Text: "inner"},
			{Heading: "Outer", Anchor: "outer"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sections(tt.body); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Sections(%q)\n got %#v\nwant %#v", tt.body, got, tt.want)
			}
		})
	}
}

func TestAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"Getting Started!":    "getting-started",
		"  API: v2 (beta) ":   "api-v2-beta",
		"Café au lait":        "café-au-lait",
		"snake_case and-dash": "snake_case-and-dash",
		"---":                 "section",
		"":                    "section",
	} {
		if got := Anchor(heading); got != want {
			t.Errorf("Anchor(%q) = %q, want %q", heading, got, want)
		}
	}
}

// TestSectionsOfManyEqualHeadings: each heading's number resumes where the last stopped, a
// heading already named like a numbered one skipped, in linear time (20,000 equal headings took
// seconds when each count started from 1).
func TestSectionsOfManyEqualHeadings(t *testing.T) {
	body := "## Part 2\n\n" + strings.Repeat("## Part\n\n", 20000)
	sections := Sections(body)
	got := []string{sections[1].Anchor, sections[2].Anchor, sections[3].Anchor, sections[4].Anchor, sections[len(sections)-1].Anchor}
	if want := []string{"part-2", "part", "part-1", "part-3", "part-20000"}; !slices.Equal(got, want) {
		t.Fatalf("anchors %q, want %q", got, want)
	}
}
