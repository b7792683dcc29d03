package htmlpage

import (
	"bytes"
	"html"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// maxHighlighted is the largest code block highlighted; a longer one is written plain, so a
// hostile page cannot make a lexer's regular expressions run for long.
const maxHighlighted = 64 << 10

// codeFormatter writes highlighted code with CSS classes (CodeCSS styles them), so pages need no
// inline styles and a strict Content-Security-Policy holds.
var codeFormatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))

// codeRenderer renders fenced and indented code blocks, highlighted by their info string's language.
type codeRenderer struct{}

func (codeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderCode)
	reg.Register(ast.KindCodeBlock, renderCode)
}

func renderCode(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	var code bytes.Buffer
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code.Write(seg.Value(src))
	}
	lang := ""
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(src))
	}
	_, _ = w.WriteString(`<pre class="chroma"><code`)
	if lang != "" {
		_, _ = w.WriteString(` class="language-` + html.EscapeString(lang) + `"`)
	}
	_, _ = w.WriteString(">")
	if !highlight(w, lang, code.String()) {
		_, _ = w.WriteString(html.EscapeString(code.String()))
	}
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

// highlight writes code highlighted as lang; false when it did not (unknown language, too long,
// or the lexer failed), having written nothing.
func highlight(w util.BufWriter, lang, code string) bool {
	lexer := lexers.Get(lang)
	if lang == "" || lexer == nil || len(code) > maxHighlighted {
		return false
	}
	tokens, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return false
	}
	var out bytes.Buffer
	if codeFormatter.Format(&out, styles.Fallback, tokens) != nil {
		return false
	}
	_, _ = w.Write(out.Bytes())
	return true
}

// CodeCSS is the style sheet of highlighted code: GitHub's colours, and GitHub's dark ones under
// an element with data-theme="dark".
func CodeCSS() string {
	var b strings.Builder
	_ = codeFormatter.WriteCSS(&b, styles.Get("github"))
	var dark strings.Builder
	_ = codeFormatter.WriteCSS(&dark, styles.Get("github-dark"))
	for _, line := range strings.Split(dark.String(), "\n") {
		if strings.HasPrefix(line, "/*") && strings.Contains(line, "*/ .") {
			// "/* Keyword */ .chroma .k { … }" → scoped under the dark theme.
			comment, rule, _ := strings.Cut(line, "*/ ")
			line = comment + `*/ [data-theme="dark"] ` + rule
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
