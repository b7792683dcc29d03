package htmlpage

import (
	"bytes"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/sizedlru"
)

// maxHighlighted is the largest code block highlighted; a longer one is written plain, so a
// hostile page cannot make a lexer's regular expressions run for long.
const maxHighlighted = 64 << 10

// codeFormatter writes highlighted code with CSS classes (CodeCSS styles them), so pages need no
// inline styles and a strict Content-Security-Policy holds.
var codeFormatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))

// code writes a code block as a figure: its title as the caption, then its lines, each a
// span.line (the site's style numbers them when the block asks for line numbers), highlighted as
// its syntax says. The site's script adds a button that copies the code.
func (w *writer) code(n *document.Node) {
	lines := make([]string, len(n.Nodes))
	for i, line := range n.Nodes {
		lines[i] = plainText(line.Nodes)
	}
	lang := document.Str(n.Data, "syntax")
	w.b.WriteString(`<figure class="code"`)
	if document.Str(n.Data, "overflow") == "wrap" {
		w.b.WriteString(" data-wrap")
	}
	w.b.WriteString(">")
	if title := document.Str(n.Data, "title"); title != "" {
		w.b.WriteString("<figcaption>" + escape(title) + "</figcaption>")
	}
	w.b.WriteString(`<pre class="chroma"`)
	if document.Flag(n.Data, "lineNumbers") {
		w.b.WriteString(" data-line-numbers")
	}
	w.b.WriteString("><code")
	if lang != "" {
		w.b.WriteString(` class="language-` + escape(lang) + `"`)
	}
	w.b.WriteString(">")
	if !w.highlight(lang, lines) {
		for _, line := range lines {
			w.b.WriteString(`<span class="line">` + escape(line) + "\n</span>")
		}
	}
	w.b.WriteString("</code></pre></figure>\n")
}

// highlight writes the lines highlighted as lang; false when it did not (unknown language, too
// long, or the lexer failed), having written nothing.
func (w *writer) highlight(lang string, lines []string) bool {
	code := strings.Join(lines, "\n") + "\n"
	key := lang + "\x00" + code
	html, ok := highlighted.Get(key)
	if !ok {
		html, ok = highlightHTML(lang, code)
		if !ok {
			return false
		}
		highlighted.Add(key, html, len(key)+len(html))
	}
	w.b.WriteString(html)
	return true
}

// highlighted keeps code highlighted by language and text: lexing is most of what a page of code
// costs, and published pages are read far more often than their code changes.
var highlighted = sizedlru.New[string, string](16 << 20)

// highlightHTML is code's lines highlighted as lang with chroma; false for an unknown language,
// code too long, or a lexer that failed.
func highlightHTML(lang, code string) (string, bool) {
	lexer := lexers.Get(lang)
	if lang == "" || lexer == nil || len(code) > maxHighlighted {
		return "", false
	}
	tokens, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return "", false
	}
	var out bytes.Buffer
	for _, line := range chroma.SplitTokensIntoLines(tokens.Tokens()) {
		out.WriteString(`<span class="line">`)
		if codeFormatter.Format(&out, styles.Fallback, chroma.Literator(line...)) != nil {
			return "", false
		}
		out.WriteString("</span>")
	}
	return out.String(), true
}

// CodeCSS is the style sheet of highlighted code: GitHub's colours, and GitHub's dark ones on a
// page in the dark mode (data-mode="dark", or "system" when the reader prefers dark).
func CodeCSS() string {
	var b strings.Builder
	_ = codeFormatter.WriteCSS(&b, styles.Get("github"))
	var dark strings.Builder
	_ = codeFormatter.WriteCSS(&dark, styles.Get("github-dark"))
	var darkRules []string
	for _, line := range strings.Split(dark.String(), "\n") {
		if strings.HasPrefix(line, "/*") && strings.Contains(line, "*/ .") {
			_, rule, _ := strings.Cut(line, "*/ ") // "/* Keyword */ .chroma .k { … }"
			darkRules = append(darkRules, rule)
		}
	}
	for _, rule := range darkRules {
		b.WriteString("[data-mode=dark] " + rule + "\n")
	}
	b.WriteString("@media (prefers-color-scheme: dark) {\n")
	for _, rule := range darkRules {
		b.WriteString("[data-mode=system] " + rule + "\n")
	}
	b.WriteString("}\n")
	return b.String()
}
