package document

import (
	"strings"
	"testing"
)

func TestReusableContentMarkdown(t *testing.T) {
	doc := FromMarkdown(`{% include "/reusable-contents/r1" %}` + "\n")
	if len(doc.Nodes) != 1 || doc.Nodes[0].Type != "reusable-content" || ReusableID(doc.Nodes[0]) != "r1" {
		t.Fatalf("nodes %+v", doc.Nodes)
	}
	t.Run("OKGitSyncPathKeptAsText", func(t *testing.T) {
		got := Markdown(FromMarkdown(`{% include "../.gitbook/includes/a.md" %}` + "\n"))
		if got != `\{% include "../.gitbook/includes/a.md" %}`+"\n" {
			t.Fatalf("Markdown %q", got)
		}
	})
	t.Run("OKWhereNotAllowedText", func(t *testing.T) {
		for _, md := range []string{
			"{% tabs %}\n{% tab title=\"a\" %}\n{% include \"/reusable-contents/r1\" %}\n{% endtab %}\n{% endtabs %}\n",
			"* {% include \"/reusable-contents/r1\" %}\n",
			"> {% include \"/reusable-contents/r1\" %}\n",
		} {
			doc := FromMarkdown(md)
			if err := Validate(doc); err != nil {
				t.Fatalf("%q: %v", md, err)
			}
			once := Markdown(doc)
			if again := Markdown(FromMarkdown(once)); again != once || len(Placed(doc)) != 0 {
				t.Errorf("%q: %q, then %q", md, once, again)
			}
		}
	})
	t.Run("OKEscapedID", func(t *testing.T) {
		if got := Markdown(New(ReusableBlock(`a"b c`))); got != `{% include "/reusable-contents/a%22b%20c" %}`+"\n" {
			t.Fatalf("Markdown %q", got)
		}
		if id := ReusableID(FromMarkdown(Markdown(New(ReusableBlock(`a"b c`)))).Nodes[0]); id != `a"b c` {
			t.Fatalf("id read back %q", id)
		}
	})
	t.Run("ErrRef", func(t *testing.T) {
		for ref, want := range map[string]string{
			`{"kind":"page","page":"p"}`:                                    "data.ref of a reusable-content must be",
			`{"kind":"reusable-content"}`:                                   "data.ref of a reusable-content must be",
			`{"kind":"reusable-content","reusableContent":"r","space":"s"}`: "data.ref.space",
		} {
			doc, err := Decode([]byte(`{"object":"document","nodes":[{"object":"block","type":"reusable-content","isVoid":true,"data":{"ref":` + ref + `}}]}`))
			if err == nil {
				_, err = Encode(doc)
			}
			if !strings.Contains(errString(err), "nodes[0]: "+want) {
				t.Errorf("%s: error %q, want %q", ref, errString(err), want)
			}
		}
	})
}

func TestDereference(t *testing.T) {
	para := func(s string) *Node { return heap.paragraph(heap.textNodes(s)) }
	contents := map[string]*Document{
		"a":    New(para("A1"), para("A2")),
		"b":    New(para("B"), ReusableBlock("a")),
		"loop": New(para("L"), ReusableBlock("loop")),
		"tabs": New(Block("tabs", nil, Block("tabs-item", map[string]any{"title": "t"}, para("T")))),
	}
	texts := func(doc *Document) string { return strings.TrimSpace(Markdown(doc)) }
	for _, c := range []struct {
		name string
		doc  *Document
		want string
	}{
		{"OKNested", New(para("x"), ReusableBlock("b")), "x\n\nB\n\nA1\n\nA2"},
		{"OKMissingKept", New(ReusableBlock("gone")), `{% include "/reusable-contents/gone" %}`},
		{"OKCycleKept", New(ReusableBlock("loop")), "L\n\n" + `{% include "/reusable-contents/loop" %}`},
		{"OKInExpandable", New(expandableOf(ReusableBlock("a"))), "<details>\n\n<summary></summary>\n\nA1\n\nA2\n\n</details>"},
		{"OKNotAllowedInExpandableKept", New(expandableOf(ReusableBlock("tabs"))),
			"<details>\n\n<summary></summary>\n\n" + `{% include "/reusable-contents/tabs" %}` + "\n\n</details>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Dereference(c.doc, contents, nil)
			if s := texts(got); s != c.want {
				t.Errorf("dereferenced %q, want %q", s, c.want)
			}
			if err := Validate(got); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
	t.Run("OKUnchanged", func(t *testing.T) {
		doc := New(ReusableBlock("a"))
		Dereference(doc, contents, nil)
		if doc.Nodes[0].Type != "reusable-content" {
			t.Fatal("the document given changed")
		}
		plain := New(para("p"))
		if Dereference(plain, contents, nil) != plain {
			t.Fatal("a document placing nothing was copied")
		}
	})
	t.Run("OKMissingNotice", func(t *testing.T) {
		got := texts(Dereference(New(ReusableBlock("gone")), contents, MissingNotice))
		if !strings.HasPrefix(got, `{% hint style="warning" %}`) || !strings.Contains(got, "missing") {
			t.Fatalf("notice %q", got)
		}
	})
}
