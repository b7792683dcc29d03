// Package pagebodies writes page bodies of a given size in GitBook-flavoured Markdown, for the
// benchmarks of published pages (the renderer's, internal/content/htmlpage, and the HTTP one of
// bench/).
package pagebodies

import (
	"fmt"
	"strings"
)

// Blocks returns a body of units×100 top-level blocks, one code block of each hundred: a
// heading, a highlighted code block, a hint, a table, a list, tabs, an expandable, a formula, and
// 92 paragraphs with marks and links to pages p1 and p2, file f1 and the web.
func Blocks(units int) string {
	var b strings.Builder
	for u := range units {
		fmt.Fprintf(&b, "## Section %d\n\n", u)
		b.WriteString("{% code title=\"main.go\" lineNumbers=\"true\" %}\n```go\npackage main\n\nimport \"fmt\"\n\n" +
			"// main greets.\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println(\"hello\", i)\n\t}\n}\n```\n{% endcode %}\n\n")
		b.WriteString("{% hint style=\"info\" %}\nA **hint** with [a link](/pages/p1).\n{% endhint %}\n\n")
		b.WriteString("| Name | Value |\n| ---- | :---: |\n| a | **1** |\n| b | `2` |\n\n")
		b.WriteString("* One\n* Two with *emphasis*\n* Three\n\n")
		b.WriteString("{% tabs %}\n{% tab title=\"Linux\" %}\nRun it.\n{% endtab %}\n\n{% tab title=\"macOS\" %}\nRun it too.\n{% endtab %}\n{% endtabs %}\n\n")
		b.WriteString("<details>\n\n<summary>More</summary>\n\nHidden text.\n\n</details>\n\n")
		b.WriteString("$$\nf(x) = \\frac{1}{2} x^2 + \\sum_{i=1}^{n} a_i\n$$\n\n")
		for p := range 92 {
			fmt.Fprintf(&b, "Paragraph %d of a page, with **bold**, *italic* and `code`, [a page](/pages/p%d), "+
				"[a file](/files/f1) and [the web](https://example.com/%d).\n\n", p, 1+p%2, p)
		}
	}
	return b.String()
}
