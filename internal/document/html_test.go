package document

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// TestHTMLReaders checks the readers of GitBook's HTML blocks (figure, readDetails, summaryLine,
// closesDetails) against the regular expressions that say what they read, over strings made of
// their pieces.
func TestHTMLReaders(t *testing.T) {
	var (
		figureRE  = regexp.MustCompile(`^<figure><img src="([^"]*)" alt="([^"]*)"><figcaption>(?:<p>(.*)</p>)?</figcaption></figure>\s*$`)
		detailsRE = regexp.MustCompile(`^<details>\s*(?:<summary>(.*)</summary>)?\s*$`)
		closeRE   = regexp.MustCompile(`^</details>\s*$`)
		summaryRE = regexp.MustCompile(`^<summary>(.*)</summary>\s*$`)
	)
	pieces := []string{`<figure><img src="`, `" alt="`, `"><figcaption>`, `<p>`, `</p>`, `</figcaption></figure>`,
		`<details>`, `</details>`, `<summary>`, `</summary>`, `"`, `>`, "a", "é", " ", "\t", "\n", "\r", "\f", "\v", "<"}
	r := rand.New(rand.NewSource(1))
	word := func(n int) string { // up to n pieces
		var b strings.Builder
		for n = r.Intn(n + 1); n > 0; n-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		return b.String()
	}
	templates := []func() string{
		func() string { return word(9) },
		func() string {
			return `<figure><img src="` + word(2) + `" alt="` + word(2) + `"><figcaption>` + word(3) + `</figcaption></figure>` + word(2)
		},
		func() string { return `<details>` + word(2) + `<summary>` + word(2) + `</summary>` + word(2) },
		func() string { return `<summary>` + word(3) + `</summary>` + word(2) },
		func() string { return `</details>` + word(2) },
	}
	for i := 0; i < 200000; i++ {
		s := templates[r.Intn(len(templates))]()
		src, alt, caption, ok := figure(s)
		if m := figureRE.FindStringSubmatch(s); (m != nil) != ok || ok && (m[1] != src || m[2] != alt || m[3] != caption) {
			t.Fatalf("figure(%q) = %q %q %q %v, regexp %q", s, src, alt, caption, ok, m)
		}
		title, ok := summaryLine(s)
		if m := summaryRE.FindStringSubmatch(s); (m != nil) != ok || ok && m[1] != title {
			t.Fatalf("summaryLine(%q) = %q %v, regexp %q", s, title, ok, m)
		}
		got, ok := readDetails(s)
		m := detailsRE.FindStringSubmatch(s)
		if (m != nil) != ok || ok && (got == nil) != !strings.Contains(s, "<summary>") || got != nil && *got != m[1] {
			t.Fatalf("readDetails(%q) = %v %v, regexp %q", s, got, ok, m)
		}
		if closeRE.MatchString(s) != closesDetails(s) {
			t.Fatalf("detailsClose(%q) differs", s)
		}
	}
}
