package document

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// emptyItem is a line that is an empty list item.
var emptyItem = regexp.MustCompile(`(?m)^(\s*([*-]|[0-9]+[.)]))+( \[[ x]\])?$`)

// addTestPages adds the test pages (testdata/*.md) to f's corpus.
func addTestPages(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.md")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
}

// FuzzMarkdown converts any Markdown to a document and back twice: no panic, every document
// valid, the second document the same as the first (document → Markdown → document is identical
// for the documents Markdown gives), and the Markdown stable after one pass.
func FuzzMarkdown(f *testing.F) {
	addTestPages(f)
	f.Add("* a\n  * b\n\n1. c\n")
	f.Add("**a** *b* ~~c~~ `d` [e](/pages/x#y) $$f$$")
	f.Add("{% swagger src=\"/files/a\" path=\"/b\" method=\"get\" %}\nc\n\nd\n{% endswagger %}\n")
	f.Add("{% openapi-schemas spec=\"a\" schemas=\"B,,C\" grouped=\"no\" %}\n{% endopenapi-schemas %}\n{% openapi-webhook spec=\"a\" name=\"b\" method=\"post\" %}\n[x](y)\n{% endopenapi-webhook %}\n")
	f.Add("{% tabs %}\n{% tab %}\n{% openapi-operation spec=\"a\" path=\"/\" method=\"get\" %}\n{% endopenapi-operation %}\n{% endtab %}\n{% endtabs %}\n")
	f.Add("{% if visitor.claims.a %}\n{% if b %}\nx <code class=\"expression\">visitor.claims.n</code>\n{% endif %}\n{% endif %}\n")
	f.Add("👨‍👩‍👧 ⭐️ &#x1F600; **a 🚀** <i class=\"fa-check\" style=\"color:$warning;\">:check:</i> [🔗](x)\n")
	f.Add("<mark style=\"color:red;\">**a** b</mark> <mark style=\"background-color:$tint;\">`c`</mark></mark>\n")
	f.Add("{% if x === \"%}\" %}\n{% endif %}\n{% endif %}\n[<code class=\"expression\">a</code>](b)")
	f.Fuzz(func(t *testing.T, md string) {
		doc := FromMarkdown(md)
		if err := Validate(doc); err != nil && !strings.Contains(err.Error(), ".data.expression") {
			t.Fatalf("Validate: %v", err) // an expression adaptive content refuses is read, and refused on write
		}
		md1 := Markdown(doc)
		if emptyItem.MatchString(md1) {
			t.Skip("an empty list item: goldmark ends the enclosing item where CommonMark does not")
		}
		doc1 := FromMarkdown(md1)
		md2 := Markdown(doc1)
		if md2 != md1 {
			t.Fatalf("Markdown not stable after one pass:\n%q\n%q", md1, md2)
		}
		j1, _ := json.Marshal(doc1)
		j2, _ := json.Marshal(FromMarkdown(md2))
		if !bytes.Equal(j1, j2) {
			t.Fatalf("document → Markdown → document differs for %q:\n%s\n%s", md1, j1, j2)
		}
	})
}

// FuzzDecode reads any JSON as a sent document: no panic, and a document Encode accepts is stored
// as Markdown that encodes again to itself (what a client wrote is what it reads).
func FuzzDecode(f *testing.F) {
	for _, md := range []string{"# A\n\n*b* `c` [d](/pages/e)\n", "* a\n  1. b\n", "{% hint style=\"info\" %}\nx\n{% endhint %}\n",
		"| a | b |\n| - | -: |\n| 1 | 2 |\n", "{% if visitor.claims.a %}\n<code class=\"expression\">visitor.claims.b</code>\n{% endif %}\n", "<details>\n\n<summary>s</summary>\n\nt\n\n</details>\n", "$$\nx^2\n$$\n"} {
		b, err := json.Marshal(FromMarkdown(md))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"object":"document","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"*a*","marks":[{"object":"mark","type":"code"}]}]}]}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		doc, err := Decode(raw)
		if err != nil {
			return
		}
		md, err := Encode(doc)
		if err != nil {
			return
		}
		again, err := Encode(FromMarkdown(md))
		if err != nil || again != md {
			t.Fatalf("stored Markdown %q encodes again to %q (%v)", md, again, err)
		}
	})
}

// FuzzTagAttrs: a tag line's attributes are read as tagLine's expression reads them.
func FuzzTagAttrs(f *testing.F) {
	for _, s := range []string{`{% hint style="info" %}`, "{% code title=\"a\"  lineNumbers=\"true\"%}\r\n",
		`{% embed url="x" url="y" %} `, `{% hint style="a%}" %}`, `{% hint style="a"%}`, `{% hint_x %}`, `{% tabs %} x`,
		`{% tab title="&amp;" x= %}`, "{% file\tsrc=\"\" %}\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		name := tagName([]byte(line))
		if len(name) == 0 || bytes.HasPrefix(name, []byte("end")) {
			return
		}
		attrs, ok := tagAttrs([]byte(line)[bytes.Index([]byte(line), name)+len(name):])
		m := tagLine.FindStringSubmatch(line)
		want := map[string]string{}
		if m != nil {
			for _, a := range regexp.MustCompile(`([a-zA-Z]+)="([^"]*)"`).FindAllStringSubmatch(m[3], -1) {
				want[a[1]] = unescapeAttr(a[2])
			}
		}
		got := map[string]string{}
		for _, a := range attrs {
			got[a.name] = a.value // the last of a name given twice, as lookup has it
		}
		if ok != (m != nil && m[2] == string(name)) || ok && !maps.Equal(got, want) {
			t.Fatalf("%q: %v %q, the expression %q", line, ok, attrs, m)
		}
	})
}

// goldmarkParsers is gitbookMarkdown with goldmark's own parsers where it has its own: its HTML
// block parser alone (no gitbookHTMLBlocks) and its paragraph transformer of link reference
// definitions (not linkReferences).
var goldmarkParsers = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList),
	goldmark.WithParserOptions(
		parser.WithBlockParsers(util.Prioritized(tagParser{}, 50), util.Prioritized(mathParser{}, 650)),
		parser.WithInlineParsers(util.Prioritized(inlineMathParser{}, 150)),
	),
).Parser()

// FuzzParserOptions: gitbookMarkdown's tree is goldmarkParsers': gitbookHTMLBlocks opens the
// blocks goldmark's parser would, and linkReferences reads the definitions it would.
func FuzzParserOptions(f *testing.F) {
	for _, s := range []string{"<details>\n\n<summary>a</summary>\n\nb\n\n</details>\n", " <figure><img src=\"a\"></figure>\n",
		"a\n<details >\nb\n", "   </details> x\n\n    <summary>\n", "* <details>\n\n  x\n", "> <summary>x</summary>\n>\n> y\n",
		"<detailsx>\n<details/>\n<Details>\n\t<details>\n<summary\r\n<script>\n</details\n", "{% hint %}\n<details>\n{% endhint %}\n",
		"[a]: /b\n[c]\n\n  [d]: </e> \"t\"\n[d] x\n", "> [f]:\n> /g\n\n[f]\n", "* x\n\n  [h]: /i 'j'\n\n[h][]\n", "\\[k]: /l\n[k]\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		src := []byte(md)
		got, want := dumpTree(gitbookMarkdown.Parse(text.NewReader(src)), src), dumpTree(goldmarkParsers.Parse(text.NewReader(src)), src)
		if got != want {
			t.Fatalf("%q:\n%s\ngoldmark's:\n%s", md, got, want)
		}
	})
}

// dumpTree writes what the conversion reads of a tree: every node's kind, lines and fields.
func dumpTree(root ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			b.WriteString(")")
			return ast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "\n(%s", n.Kind())
		if n.Type() == ast.TypeBlock {
			for i := range n.Lines().Len() {
				fmt.Fprintf(&b, " %v", n.Lines().At(i))
			}
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			fmt.Fprintf(&b, " type %d closure %v", n.HTMLBlockType, n.ClosureLine)
		case *ast.Text:
			fmt.Fprintf(&b, " %v soft %t hard %t raw %t", n.Segment, n.SoftLineBreak(), n.HardLineBreak(), n.IsRaw())
		case *ast.String:
			fmt.Fprintf(&b, " %q", n.Value)
		case *ast.RawHTML:
			fmt.Fprintf(&b, " %q", n.Segments.Value(src))
		case *ast.List:
			fmt.Fprintf(&b, " %c %d tight %t", n.Marker, n.Start, n.IsTight)
		case *ast.Heading:
			fmt.Fprintf(&b, " %d", n.Level)
		case *ast.FencedCodeBlock:
			fmt.Fprintf(&b, " %q", n.Language(src))
		case *ast.Emphasis:
			fmt.Fprintf(&b, " %d", n.Level)
		case *ast.Link:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		case *ast.Image:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		case *ast.AutoLink:
			fmt.Fprintf(&b, " %q", n.URL(src))
		case *east.Table:
			fmt.Fprintf(&b, " %v", n.Alignments)
		case *east.TaskCheckBox:
			fmt.Fprintf(&b, " %t", n.IsChecked)
		case *tagBlock:
			fmt.Fprintf(&b, " %q %v %q closed %t", n.name, n.attrs, n.line, n.closed)
		case *inlineMath:
			fmt.Fprintf(&b, " %q", n.formula)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
