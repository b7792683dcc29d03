package document

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/apispec"
)

var update = flag.Bool("update", false, "rewrite the golden documents of testdata")

// TestCorpus reads every GitBook-format file of testdata: each converts to a document that is
// valid (Validate and the reference's JSONDocument schema) and equal to its golden JSON, and
// converts back to the same bytes, as GitBook writes them; the document read back is the same.
func TestCorpus(t *testing.T) {
	spec := apispec.Load(t)
	files, _ := filepath.Glob("testdata/*.md")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			md := read(t, file)
			doc := FromMarkdown(md)
			if err := Validate(doc); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			got := marshal(t, doc)
			spec.ValidateSchema(t, "JSONDocument", got)
			golden := strings.TrimSuffix(file, ".md") + ".json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want := read(t, golden); string(got) != want {
				t.Errorf("document differs from %s (go test -update rewrites it):\n%s", golden, got)
			}
			back := Markdown(doc)
			if back != md {
				t.Errorf("Markdown of the document differs from the file:\n%s", back)
			}
			if again := marshal(t, FromMarkdown(back)); !bytes.Equal(again, got) {
				t.Errorf("document → Markdown → document differs:\n%s", again)
			}
		})
	}
}

// TestNormalized holds Markdown that GitBook would write otherwise: one pass writes it as GitBook
// does, and the next changes nothing.
func TestNormalized(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"dash bullets", "- a\n- b\n", "* a\n* b\n"},
		{"underscore emphasis", "_a_ __b__\n", "*a* **b**\n"},
		{"dash divider", "a\n\n---\n", "a\n\n***\n"},
		{"setext heading", "Title\n=====\n", "## Title\n"},
		{"body h1 and deep levels", "# A\n\n##### B\n", "## A\n\n#### B\n"},
		{"soft breaks", "one\ntwo\n", "one two\n"},
		{"hard break", "one  \ntwo\n", "one\\\ntwo\n"},
		{"spaces starting and ending text", "&#32;a&#9;\\\n&#32;b&#32;\n\n## &#32;c\n", "&#32;a&#9;\\\n&#32;b&#32;\n\n## &#32;c\n"},
		{"br", "one<br>two\n", "one\\\ntwo\n"},
		{"indented code", "    code\n", "```\ncode\n```\n"},
		{"image alone", "![alt](/files/x)\n", `<figure><img src="/files/x" alt="alt"><figcaption></figcaption></figure>` + "\n"},
		{"inline image", "see ![a](https://e.com/i.png)\n", "see ![a](https://e.com/i.png)\n"},
		{"autolink", "<https://e.com>\n", "[https://e.com](https://e.com)\n"},
		{"raw html kept as text", "<div>x</div>\n", "\\<div>x\\</div>\n"},
		{"unknown tag kept as text", "{% drawing src=\"x\" %}\n", "\\{% drawing src=\"x\" %}\n"},
		{"operation without its pointer kept as text", "{% swagger src=\"x\" %}\nx\n{% endswagger %}\n",
			"\\{% swagger src=\"x\" %}\n\nx\n\n\\{% endswagger %}\n"},
		{"swagger tag as openapi, its body from its src", "{% swagger src=\"https://e.com/a.json\" path=\"/a\" method=\"get\" %}\n[a.json](https://e.com/a.json)\n{% endswagger %}\n",
			"{% openapi src=\"https://e.com/a.json\" path=\"/a\" method=\"get\" %}\n[https://e.com/a.json](https://e.com/a.json)\n{% endopenapi %}\n"},
		{"operation body of GitBook's signed link", "{% openapi-operation spec=\"s\" path=\"/a\" method=\"get\" %}\n[OpenAPI s](https://e.com/raw/x.json?X-Amz-Signature=1)\n{% endopenapi-operation %}\n",
			"{% openapi-operation spec=\"s\" path=\"/a\" method=\"get\" %}\nOpenAPI s\n{% endopenapi-operation %}\n"},
		{"operation body of blocks kept after it", "{% openapi-operation spec=\"s\" path=\"/a\" method=\"get\" %}\nx\n\n* y\n{% endopenapi-operation %}\n",
			"{% openapi-operation spec=\"s\" path=\"/a\" method=\"get\" %}\nOpenAPI s\n{% endopenapi-operation %}\n\nx\n\n* y\n"},
		{"escapes", "a \\* b \\_ c\n", "a \\* b \\_ c\n"},
		{"math in a hint is text", "{% hint style=\"info\" %}\n$$\nx\n$$\n{% endhint %}\n",
			"{% hint style=\"info\" %}\n\\$\\$\\\nx\\\n\\$\\$\n{% endhint %}\n"},
		{"end tag in code", "{% tabs %}\n{% tab title=\"a\" %}\n```\n{% endtab %}\n```\n{% endtab %}\n{% endtabs %}\n",
			"{% tabs %}\n{% tab title=\"a\" %}\n```\n{% endtab %}\n```\n{% endtab %}\n{% endtabs %}\n"},
		{"bad hint style", "{% hint style=\"tip\" %}\nx\n{% endhint %}\n", "{% hint style=\"info\" %}\nx\n{% endhint %}\n"},
		{"ordered start", "3. a\n4. b\n", "3. a\n4. b\n"},
		{"loose list", "* a\n\n* b\n", "* a\n* b\n"},
		{"table alignment", "|a|b|\n|:-|-:|\n|1|2|\n", "| a   | b   |\n| --- | --: |\n| 1   | 2   |\n"},
		{"emoji in bold and links", "**Bold 🚀** [go 🔗](https://e.com)\n", "**Bold&#32;**🚀 [go &#x1F517;](https://e.com)\n"},
		{"icon without its name", "<i class=\"fa-check\">tick</i>\n", "\\<i class=\"fa-check\">tick\\</i>\n"},
		{"expression with markup", "<code class=\"expression\">*a*</code>\n", "\\<code class=\"expression\">*a*\\</code>\n"},
		{"color around marks", "<mark style=\"color:red;\">**RED**</mark> <mark style=\"color:$danger;\">a</mark><mark style=\"color:blue;\">b</mark>\n",
			"<mark style=\"color:red;\">**RED**</mark> <mark style=\"color:$danger;\">a</mark><mark style=\"color:blue;\">b</mark>\n"},
		{"bold around and inside a keyboard tag", "**0**<kbd>**0**</kbd>0\n", "**0**<kbd>**0**</kbd>0\n"},
		{"italic outside and inside a subscript tag", "*a*<sub>*b*</sub>c\n", "*a*<sub>*b*</sub>c\n"},
		{"bold punctuation after a letter", "a<kbd></kbd>**.**\n", "&#97;**.**\n"},
		{"a letter after bold punctuation", "**.**<kbd></kbd>a\n", "**.**&#97;\n"},
		{"unknown color", "<mark style=\"color:#f00;\">x</mark>\n", "\\<mark style=\"color:#f00;\">x\\</mark>\n"},
		{"mention as GitBook writes it", "[install.md](/pages/p1 \"mention\")\n", "[/pages/p1](/pages/p1 \"mention\")\n"},
		{"link titled otherwise", "[a](/pages/p1 \"Install\") [b](https://e.com \"mention\")\n", "[a](/pages/p1) [b](https://e.com)\n"},
		{"code title quote", "{% code title=\"a &quot;b&quot;\" %}\n```\nx\n```\n{% endcode %}\n",
			"{% code title=\"a &#x22;b&#x22;\" %}\n```\nx\n```\n{% endcode %}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Markdown(FromMarkdown(c.in))
			if got != c.want {
				t.Errorf("Markdown(FromMarkdown(%q)) = %q, want %q", c.in, got, c.want)
			}
			if again := Markdown(FromMarkdown(got)); again != got {
				t.Errorf("second pass changed %q to %q", got, again)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	para := func(nodes ...*Node) *Node { return Block("paragraph", nil, nodes...) }
	for _, c := range []struct {
		name string
		doc  *Document
		want string
	}{
		{"ok", New(para(Text(NewLeaf("a", "bold")))), ""},
		{"unsupported block", New(para(), Block("drawing", nil)), `nodes[1]: block type "drawing" is not supported`},
		{"unknown block", New(Block("sheet", nil)), `nodes[0]: unknown block type "sheet"`},
		{"unsupported inline", New(para(Text(NewLeaf("a")), Inline("annotation", nil))),
			`nodes[0].nodes[1]: inline type "annotation" is not supported`},
		{"emoji code", New(para(Inline("emoji", map[string]any{"code": "1F600"}))),
			`nodes[0].nodes[0]: data.code of an emoji must be one emoji's code points in lower-case hexadecimal joined by - ("1f44d")`},
		{"emoji of two", New(para(Inline("emoji", map[string]any{"code": "1f600-1f600"}))),
			`nodes[0].nodes[0]: data.code of an emoji must be one emoji's code points in lower-case hexadecimal joined by - ("1f44d")`},
		{"not an emoji", New(para(Inline("emoji", map[string]any{"code": "41"}))),
			`nodes[0].nodes[0]: data.code of an emoji must be one emoji's code points in lower-case hexadecimal joined by - ("1f44d")`},
		{"icon name", New(para(Inline("icon", map[string]any{"icon": `x" onclick="y`}))),
			`nodes[0].nodes[0]: data.icon of an icon must be an icon name (a-z, 0-9 and -, at most 50)`},
		{"icon color", New(para(Inline("icon", map[string]any{"icon": "gear", "color": "#f00"}))),
			`nodes[0].nodes[0]: data.color of an icon must be one of [default green blue red orange yellow purple pink violet cyan $primary $info $success $warning $danger $tint]`},
		{"button", New(para(Inline("button", map[string]any{"label": "Go", "kind": "primary", "ref": map[string]any{"kind": "url", "url": "https://e.com"}}))),
			`nodes[0].nodes[0]: inline type "button" is not supported`},
		{"color", New(para(Text(NewLeaf("a"), NewLeaf("b", "color red default", "bold")))), ""},
		{"color value", New(para(Text(NewLeaf("a"), NewLeaf("b", "color #f00 default")))),
			`nodes[0].nodes[0].leaves[1].marks[0]: data.text and data.background of a color mark must be one of [default green blue red orange yellow purple pink violet cyan $primary $info $success $warning $danger $tint]`},
		{"color default", New(para(Text(NewLeaf("b", "color default default")))),
			`nodes[0].nodes[0].leaves[0].marks[0]: a color mark must have a color other than default`},
		{"mention of a user", New(para(Inline("mention", map[string]any{"ref": map[string]any{"kind": "user", "user": "u"}}))),
			`nodes[0].nodes[0]: data.ref of a mention must be a page, anchor, file or space reference`},
		{"unknown mark", New(para(Text(NewLeaf("a"), NewLeaf("b", "glow")))),
			`nodes[0].nodes[0].leaves[1].marks[0]: unknown mark type "glow"`},
		{"misplaced block", New(Block("list-unordered", nil, Block("paragraph", nil))),
			`nodes[0].nodes[0]: block type "paragraph" is not allowed here`},
		{"text at top level", New(Text(NewLeaf("a"))), `nodes[0]: text is not allowed here`},
		{"nested", New(Block("tabs", nil, Block("tabs-item", nil, Block("integration", nil)))),
			`nodes[0].nodes[0].nodes[0]: block type "integration" is not supported`},
		{"operation not at the top level", New(Block("tabs", nil, Block("tabs-item", nil, Block("openapi-operation", nil)))),
			`nodes[0].nodes[0].nodes[0]: block type "openapi-operation" is not allowed here`},
		{"operation without a spec", New(Block("openapi-operation", map[string]any{"path": "/a", "method": "get",
			"ref": map[string]any{"kind": "openapi"}})), `nodes[0]: data.ref of an openapi-operation must be an openapi reference with a spec`},
		{"operation without a method", New(Block("openapi-operation", map[string]any{"path": "/a",
			"ref": map[string]any{"kind": "openapi", "spec": "s"}})), `nodes[0]: data.path and data.method of a openapi-operation are required`},
		{"webhook without a name", New(Block("openapi-webhook", map[string]any{"method": "post",
			"ref": map[string]any{"kind": "openapi", "spec": "s"}})), `nodes[0]: data.name and data.method of an openapi-webhook are required`},
		{"schemas with a comma", New(Block("openapi-schemas", map[string]any{"schemas": []any{"A,B"},
			"ref": map[string]any{"kind": "openapi", "spec": "s"}})), `nodes[0]: data.schemas of an openapi-schemas must name schemas, without commas`},
		{"schemas grouped as text", New(Block("openapi-schemas", map[string]any{"schemas": []any{"A"}, "grouped": "yes",
			"ref": map[string]any{"kind": "openapi", "spec": "s"}})), `nodes[0]: data.grouped of an openapi-schemas must be a boolean`},
		{"swagger by page", New(Block("swagger", map[string]any{"path": "/a", "method": "get",
			"ref": map[string]any{"kind": "page", "page": "p"}})), `nodes[0]: data.ref of a swagger must be a url or file reference`},
		{"in a fragment", New(expandableOf(Block("updates", nil))),
			`nodes[0].fragments[1].nodes[0]: block type "updates" is not supported`},
		{"hint style", New(Block("hint", map[string]any{"style": "tip"})), `nodes[0]: data.style of a hint must be one of [info success warning danger]`},
		{"link ref", New(para(Inline("link", map[string]any{"ref": map[string]any{"kind": "user", "user": "u"}}))),
			`nodes[0].nodes[0]: data.ref of a link must be a url, page, anchor, file or space reference`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Validate(c.doc)
			if got := errString(err); got != c.want {
				t.Errorf("Validate = %q, want %q", got, c.want)
			}
		})
	}
}

// TestSupportTableCoversTheSchema fails when the reference's schema has a block, inline or mark
// type the support table does not list (supported or refused), or the table one it has not.
func TestSupportTableCoversTheSchema(t *testing.T) {
	raw, err := apispec.Document()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties struct {
					Object struct{ Enum []string } `json:"object"`
					Type   struct{ Enum []string } `json:"type"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for name, s := range doc.Components.Schemas {
		if !strings.HasPrefix(name, "Document") || len(s.Properties.Object.Enum) != 1 {
			continue
		}
		object := s.Properties.Object.Enum[0]
		for _, typ := range s.Properties.Type.Enum {
			seen[object+" "+typ] = true
			if !listed(object, typ) {
				t.Errorf("%s: %s type %q is not in the support table", name, object, typ)
			}
		}
	}
	for typ := range blockRules {
		if !seen["block "+typ] {
			t.Errorf("block type %q is not in the reference's schema", typ)
		}
	}
	for typ := range inlineRules {
		if !seen["inline "+typ] {
			t.Errorf("inline type %q is not in the reference's schema", typ)
		}
	}
	for typ := range markRules {
		if !seen["mark "+typ] {
			t.Errorf("mark type %q is not in the reference's schema", typ)
		}
	}
}

func listed(object, typ string) bool {
	switch object {
	case ObjectBlock:
		_, ok := blockRules[typ]
		return ok
	case ObjectInline:
		_, ok := inlineRules[typ]
		return ok
	case objectMark:
		_, ok := markRules[typ]
		return ok
	}
	return true // fragments name their type freely
}

func expandableOf(body ...*Node) *Node {
	e := Block("expandable", nil)
	e.Fragments = []*Node{Fragment("expandable-title", Block("paragraph", nil)), Fragment("expandable-body", body...)}
	return e
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func marshal(t *testing.T, doc *Document) []byte {
	t.Helper()
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestTagName: the name read before the tag expressions run is the one they read, so a line
// whose name no tag has is never a tag.
func TestTagName(t *testing.T) {
	for line, want := range map[string]string{`{% hint style="info" %}`: "hint", "{%\tendhint %}": "endhint",
		"{% if visitor.claims.a %}": "if", `{%include "a.md" %}`: "include", "{% content-ref url=\"x\" %}": "content-ref",
		"{% Hint %}": "", "{%- raw %}": "", "text {% hint %}": "", "{": ""} {
		if got := string(tagName([]byte(line))); got != want {
			t.Errorf("tagName(%q) = %q, want %q", line, got, want)
		}
		if m := tagLine.FindStringSubmatch(line); m != nil && m[1]+m[2] != want {
			t.Errorf("tagLine reads %q in %q, tagName %q", m[1]+m[2], line, want)
		}
	}
}

// TestNestingOutsideTheSchema: a hint in a hint and tabs in an expandable, which the reference's
// schema does not allow, stay as the text of their Markdown with their style and titles, stable
// after one pass; a quote in a hint, which has no data of its own, gives its blocks.
func TestNestingOutsideTheSchema(t *testing.T) {
	for md, want := range map[string]string{
		"{% hint style=\"info\" %}\nA\n\n{% hint style=\"danger\" %}\nB\n{% endhint %}\n{% endhint %}\n":                                 `{% hint style="danger" %}`,
		"<details>\n<summary>T</summary>\n\n{% tabs %}\n{% tab title=\"Linux\" %}\nRun it.\n{% endtab %}\n{% endtabs %}\n\n</details>\n": `{% tab title="Linux" %}`,
		"{% hint style=\"info\" %}\n> quoted\n{% endhint %}\n":                                                                           "quoted",
	} {
		doc := FromMarkdown(md)
		if err := Validate(doc); err != nil {
			t.Fatalf("%q: %v", md, err)
		}
		if text := plainTextOfDocument(doc); !strings.Contains(text, want) {
			t.Errorf("%q reads as %q, without %q", md, text, want)
		}
		once := Markdown(doc)
		if twice := Markdown(FromMarkdown(once)); twice != once {
			t.Errorf("%q: %q, then %q", md, once, twice)
		}
	}
}

// plainTextOfDocument is the texts of doc's leaves, fragments included.
func plainTextOfDocument(doc *Document) string {
	var b strings.Builder
	walk(doc.Nodes, func(n *Node) {
		for _, l := range n.Leaves {
			b.WriteString(l.Text)
		}
	})
	return b.String()
}

// TestCodeTabsExpandOnce: an indented code block's tabs become the spaces goldmark's padding says,
// once, as its HTML renderer writes them (CommonMark's tab stops of 4 columns).
func TestCodeTabsExpandOnce(t *testing.T) {
	for md, want := range map[string]string{
		"- item\n\n  \t\tcode\n": "  code",
		"1. a\n\n\t\tx\n":        " x",
		"\t\tcode\n":             "\tcode",
	} {
		var code []string
		walk(FromMarkdown(md).Nodes, func(n *Node) {
			if n.Type == "code-line" {
				code = append(code, plainText(n.Nodes))
			}
		})
		if len(code) != 1 || code[0] != want {
			t.Errorf("%q: code lines %q, want [%q]", md, code, want)
		}
	}
}
