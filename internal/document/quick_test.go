package document

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// readBoth converts md with the quick reader and with goldmark's path: their documents as JSON,
// the quick one nil where the quick reader gives up.
func readBoth(md string) (quick, goldmark []byte) {
	src := []byte(strings.ToValidUTF8(md, "\uFFFD"))
	if blocks, ok := newConverter(src).quick(src); ok {
		quick, _ = json.Marshal(New(blocks...))
	}
	goldmark, _ = json.Marshal(New(fromGoldmark(src)...))
	return quick, goldmark
}

// quickPages are the test pages the quick reader reads whole, as written and as Markdown writes
// their documents: all of them.
var quickPages = []string{"adaptive", "blocks", "gitbook", "inlines", "nested", "openapi", "reusable", "text"}

// TestQuickReadsAsGoldmark: the quick reader reads the quick pages, and every test page it reads
// to the document goldmark's path gives.
func TestQuickReadsAsGoldmark(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.md")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		page := strings.TrimSuffix(filepath.Base(file), ".md")
		for name, md := range map[string]string{page: string(b), page + " as written": Markdown(FromMarkdown(string(b)))} {
			quick, goldmark := readBoth(md)
			switch {
			case quick == nil && slices.Contains(quickPages, page):
				t.Errorf("%s: the quick reader gave up", name)
			case quick != nil && !bytes.Equal(quick, goldmark):
				t.Errorf("%s: the quick reader's document differs:\n%s\ngoldmark's:\n%s", name, quick, goldmark)
			}
		}
	}
}

// TestQuickReadsRandomTexts: texts made at random of GitBook's lines and of Markdown's inline
// punctuation, which the quick reader reads often and must read as goldmark's path does.
func TestQuickReadsRandomTexts(t *testing.T) {
	lines := []string{"", "", "", "a", "b c", "* a", "* [ ] a", "* [x] b", "- a", "+ a", "  * b", "  b", "   c", "1. a", "2. b", "1) a",
		"   1. c", "> a", ">", "> * a", ">> b", "# a", "## b", "#### c", "####### d", "#a", "***", "---", "===", "___", "```", "```js", "~~~",
		"````", "  ```", "$$", "x^2", " $$", "| a | b |", "| - | :-: |", "| --- | --: |", "| `x` | *y* |", "|a|b|", "{% hint style=\"info\" %}",
		"{% endhint %}", "{% hint %}", "{% tabs %}", "{% tab title=\"A\" %}", "{% endtab %}", "{% endtabs %}", "{% code title=\"t\" %}", "{% endcode %}",
		"{% embed url=\"https://x.y\" %}", "{% if a %}", "{% endif %}", "<details>", "<summary>T &amp; u</summary>", "</details>",
		"<figure><img src=\"/files/f\" alt=\"a\"><figcaption><p>c</p></figcaption></figure>", "a\\", "a  ", "\tb", "[a]: /b", "{% stepper %}",
		"{% step %}", "{% endstep %}", "{% endstepper %}", "{% content-ref url=\"/pages/p\" %}", "{% endcontent-ref %}",
		"| a \\| b | c |", "| `\\|` | c |", "| <kbd>a</kbd> | a<br>b |",
		"<kbd>a</kbd> b", "<br>", "<i class=\"fa-check\">:check:</i>"}
	inline := []string{"a", "b", " ", " ", "*", "**", "***", "_", "~~", "~", "`", "``", "[", "]", "(", ")", "](/pages/p)", "](/files/f \"mention\")",
		"$$", "$", "\\", "\\*", "&amp;", "&#42;", "!", "<", ">", "|", ":", "x.", "1.", "é", "😀", "\n", "__", "![", "](<a b>)", "](<>)",
		"](<a\\>b>)", "<kbd>", "</kbd>", "<sup>", "</sup>", "<sub>", "</sub>", "<br>", "<b>", "<mark style=\"color:red;\">",
		"<mark style=\"background-color:yellow;\">", "<mark style=\"color:xyz;\">", "</mark>", "<code class=\"expression\">", "</code>",
		"<i class=\"fa-check\">", "<i class=\"fa-x\" style=\"color:$warning;\">", ":check:", ":x:", "</i>", "\\|",
		"<i class=\"fa-check\">:check:</i>", "<i class=\"fa-x\" style=\"color:$warning;\">:x:</i>", "<code class=\"expression\">a.b</code>"}
	rng := rand.New(rand.NewPCG(1, 2))
	read := 0
	for range 10000 {
		var b strings.Builder
		for range 1 + rng.IntN(10) {
			if rng.IntN(3) == 0 {
				for range 1 + rng.IntN(8) {
					b.WriteString(inline[rng.IntN(len(inline))])
				}
			} else {
				b.WriteString(lines[rng.IntN(len(lines))])
			}
			b.WriteString("\n")
		}
		for _, text := range []string{b.String(), Markdown(FromMarkdown(b.String()))} {
			quick, goldmark := readBoth(text)
			if quick != nil {
				read++
				if !bytes.Equal(quick, goldmark) {
					t.Fatalf("%q: the quick reader's document differs:\n%s\ngoldmark's:\n%s", text, quick, goldmark)
				}
			}
		}
	}
	t.Logf("the quick reader read %d of 20,000 texts", read)
}

// FuzzQuick: where the quick reader reads a text, any text or the Markdown written for its
// document, its document is goldmark's path's.
func FuzzQuick(f *testing.F) {
	addTestPages(f)
	for _, s := range []string{"* a\n  * b\n\n1. c\n", "**a** *b* ~~c~~ `d` [e](/pages/x#y) $$f$$", "a*b*c **x**y", "[a](b \"mention\") [/pages/p](/pages/p \"mention\")",
		"> a\n>\n> * b\n>   c\n", "<kbd>a</kbd> ***b*** ![c *d*](<e f>) x_y <i class=\"fa-check\">:check:</i> <code class=\"expression\">g</code>\n",
		"| a | b |\n| - | - |\n| c \\| d | <mark style=\"color:red;\">e</mark><br>f |\n", "* [ ] a\n* b\n\n- [x] c\n", "| a | b |\n| :- | -: |\n| `x` | *y* |\n", "{% hint %}\n* a\n{% endhint %}\n",
		"```\n{% endhint %}\n```\n", "$$\n{% endif %}\n$$\n", "# a\n## b #\n### c\n#### d\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		done := make(chan bool)
		go func() {
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				panic(fmt.Sprintf("hung on %q", md))
			}
		}()
		defer close(done)
		for _, text := range []string{md, Markdown(FromMarkdown(md))} {
			if quick, goldmark := readBoth(text); quick != nil && !bytes.Equal(quick, goldmark) {
				t.Fatalf("%q: the quick reader's document differs:\n%s\ngoldmark's:\n%s", text, quick, goldmark)
			}
		}
	})
}
