package search

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("filler ", 60)
	tests := []struct {
		name, text string
		terms      Terms
		want       string
	}{
		{"ShortWhole", "Install the   CLI\nwith brew.", Terms{Words: []string{"cli"}}, "Install the CLI with brew."},
		{"NoMatchStartsAtTheStart", "Short text.", Terms{Words: []string{"zebra"}}, "Short text."},
		{"StartsBeforeTheMatch", long + "one two three four five six seven Kubernetes rocks.",
			Terms{Words: []string{"kubernetes"}}, "…two three four five six seven Kubernetes rocks."},
		{"PrefixMatches", long + "a b c d e f g Kubernetes.", Terms{Words: []string{"kube"}, Prefix: true},
			"…b c d e f g Kubernetes."},
		{"FoldedMatch", long + "1 2 3 4 5 6 Café.", Terms{Words: []string{"cafe"}}, "…1 2 3 4 5 6 Café."},
		{"CutAtAWord", "match " + long, Terms{Words: []string{"match"}},
			"match " + strings.TrimSpace(strings.Repeat("filler ", 27)) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Excerpt(tt.text, tt.terms)
			if got != tt.want {
				t.Errorf("Excerpt = %q\n      want %q", got, tt.want)
			}
			if n := utf8.RuneCountInString(got); n > ExcerptLength+2 {
				t.Errorf("excerpt of %d characters", n)
			}
		})
	}
}
