package importer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/document"
)

// conversion is a test of one conversion: its input, the Markdown it gives, and words each
// conversion and warning of the report holds, in order.
type conversion struct {
	name, in, want      string
	converted, warnings []string
}

func runConversions(t *testing.T, convert func([]line, *notes) []line, tests []conversion) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n notes
			got := convertText(tt.in, &n, convert)
			if got != tt.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			r := n.report("a.md", ResultPage)
			wantNotes(t, "converted", r.Converted, tt.converted)
			wantNotes(t, "warnings", r.Warnings, tt.warnings)
		})
	}
}

func wantNotes(t *testing.T, kind string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s %q, want %d holding %q", kind, got, len(want), want)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("%s[%d] %q lacks %q", kind, i, got[i], want[i])
		}
	}
}

func TestColonAdmonitions(t *testing.T) {
	runConversions(t, convertColonAdmonitions, []conversion{
		{name: "TitledAndNot", in: ":::tip Pro tip\nUse **it**.\n:::\n\n:::note\nPlain.\n:::",
			want:      "{% hint style=\"success\" %}\n**Pro tip**\n\nUse **it**.\n{% endhint %}\n\n{% hint style=\"info\" %}\nPlain.\n{% endhint %}",
			converted: []string{"line 1: :::tip admonition → success hint", "line 5: :::note admonition → info hint"}},
		{name: "EveryType", in: ":::info\n:::\n:::warning\n:::\n:::caution\n:::\n:::danger\n:::\n:::important\n:::",
			want: strings.Join([]string{`{% hint style="info" %}`, "{% endhint %}", `{% hint style="warning" %}`, "{% endhint %}",
				`{% hint style="warning" %}`, "{% endhint %}", `{% hint style="danger" %}`, "{% endhint %}", `{% hint style="danger" %}`, "{% endhint %}"}, "\n"),
			converted: []string{"info", "warning", "caution", "danger", "important"}},
		{name: "BracketTitleAndAttributes", in: ":::danger[Take care]{#careful}\nRoot.\n:::",
			want: "{% hint style=\"danger\" %}\n**Take care**\n\nRoot.\n{% endhint %}", converted: []string{"danger"}},
		{name: "NestedWithMoreColons", in: "::::note Outer\nA\n:::tip\nB\n:::\n::::",
			want:      "{% hint style=\"info\" %}\n**Outer**\n\nA\n{% hint style=\"success\" %}\nB\n{% endhint %}\n{% endhint %}",
			converted: []string{"note", "tip"}},
		{name: "InAListItem", in: "* Step\n\n  :::warning\n  Careful.\n  :::",
			want: "* Step\n\n  {% hint style=\"warning\" %}\n  Careful.\n  {% endhint %}", converted: []string{"warning"}},
		{name: "IndentedOutsideAList", in: "  :::note\n  Text.\n  :::",
			want: "{% hint style=\"info\" %}\n  Text.\n{% endhint %}", converted: []string{"note"}},
		{name: "CodeIsLeftAlone", in: "```md\n:::note\n```\n:::\n~~~\n:::tip\n~~~",
			want: "```md\n:::note\n```\n:::\n~~~\n:::tip\n~~~"},
		{name: "UnknownTypeKeptWithItsEnd", in: ":::foo\nbar\n:::",
			want: ":::foo\nbar\n:::", warnings: []string{"line 1: :::foo is not an admonition type Docusaurus knows; kept as text"}},
		{name: "NotClosed", in: ":::danger\nunclosed",
			want: "{% hint style=\"danger\" %}\nunclosed\n{% endhint %}", converted: []string{"danger"},
			warnings: []string{"line 2: an admonition is not closed (:::); it ends with the file"}},
		{name: "StrayEnd", in: "text\n:::", want: "text\n:::"},
	})
}

func TestMkDocsBlocks(t *testing.T) {
	runConversions(t, convertMkDocs, []conversion{
		{name: "Admonition", in: "!!! note \"Phasellus posuere\"\n\n    Lorem **ipsum**.\n\n    More.\n\nAfter.",
			want:      "{% hint style=\"info\" %}\n**Phasellus posuere**\n\nLorem **ipsum**.\n\nMore.\n{% endhint %}\n\nAfter.",
			converted: []string{"line 1: !!! note admonition → info hint"}},
		{name: "NoTitleAndEmptyTitle", in: "!!! tip\n    A\n!!! danger \"\"\n    B",
			want:      "{% hint style=\"success\" %}\nA\n{% endhint %}\n{% hint style=\"danger\" %}\nB\n{% endhint %}",
			converted: []string{"tip", "danger"}},
		{name: "Collapsibles", in: "??? question \"Why?\"\n    Because.\n\n???+ note\n    Open.",
			want:      "<details>\n\n<summary>Why?</summary>\n\nBecause.\n\n</details>\n\n<details>\n\n<summary>Note</summary>\n\nOpen.\n\n</details>",
			converted: []string{"line 1: ??? question collapsible → expandable", "line 4: ???+ note collapsible → expandable (it starts closed)"}},
		{name: "Tabs", in: "=== \"C\"\n\n    ```c\n    int main() {}\n    ```\n\n=== \"C++ & more\"\n\n    Text.\n\n===! \"New group\"\n    Other.",
			want: "{% tabs %}\n{% tab title=\"C\" %}\n```c\nint main() {}\n```\n{% endtab %}\n\n{% tab title=\"C++ &#x26; more\" %}\nText.\n{% endtab %}\n{% endtabs %}\n\n" +
				"{% tabs %}\n{% tab title=\"New group\" %}\nOther.\n{% endtab %}\n{% endtabs %}",
			converted: []string{`=== "C"`, `=== "C++ & more"`, `=== "New group"`}},
		{name: "Nested", in: "!!! warning \"Outer\"\n    !!! info\n        Inner.\n    ??? tip \"More\"\n        Hidden.",
			want:      "{% hint style=\"warning\" %}\n**Outer**\n\n{% hint style=\"info\" %}\nInner.\n{% endhint %}\n<details>\n\n<summary>More</summary>\n\nHidden.\n\n</details>\n{% endhint %}",
			converted: []string{"line 1: !!! warning", "line 2: !!! info", "line 4: ??? tip"}},
		{name: "UnknownType", in: "!!! custom\n    Text.", want: "{% hint style=\"info\" %}\nText.\n{% endhint %}",
			converted: []string{"custom"}, warnings: []string{"line 1: !!! custom is not an admonition type Material knows; shown as an info hint"}},
		{name: "CodeIsLeftAlone", in: "```\n!!! note\n    x\n=== \"A\"\n```", want: "```\n!!! note\n    x\n=== \"A\"\n```"},
		{name: "InAListItem", in: "1. Step\n\n    !!! note\n        Text.", want: "1. Step\n\n    {% hint style=\"info\" %}\n    Text.\n    {% endhint %}",
			converted: []string{"note"}},
	})
}

func TestMDX(t *testing.T) {
	runConversions(t, convertMDX, []conversion{
		{name: "TabsWithLabelsAndImports", in: "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n<Tabs groupId=\"os\">\n  <TabItem value=\"linux\" label=\"Linux\" default>\n    Linux **text**.\n\n    ```sh\n    run\n    ```\n  </TabItem>\n  <TabItem value=\"mac\" label=\"macOS\">Mac text.</TabItem>\n</Tabs>",
			want: "\n{% tabs %}\n{% tab title=\"Linux\" %}\nLinux **text**.\n\n```sh\nrun\n```\n{% endtab %}\n\n{% tab title=\"macOS\" %}\nMac text.\n{% endtab %}\n{% endtabs %}",
			converted: []string{"line 1: the import of @theme/Tabs is dropped", "line 2: the import of @theme/TabItem is dropped",
				"line 4: <Tabs> → tabs", `line 5: <TabItem> → tab "Linux"`, `line 12: <TabItem> → tab "macOS"`}},
		{name: "TabValuesOverSeveralLines", in: "<Tabs\n  values={[\n    {label: 'npm', value: 'npm'},\n    {value: \"yarn\", label: \"Yarn\"},\n  ]}>\n<TabItem value=\"npm\">\n\nA\n\n</TabItem>\n<TabItem value=\"yarn\">B</TabItem>\n</Tabs>",
			want:      "{% tabs %}\n{% tab title=\"npm\" %}\nA\n{% endtab %}\n\n{% tab title=\"Yarn\" %}\nB\n{% endtab %}\n{% endtabs %}",
			converted: []string{"<Tabs> → tabs", `<TabItem> → tab "npm"`, `<TabItem> → tab "Yarn"`}},
		{name: "AdmonitionAndDetails", in: "<Admonition type=\"caution\" title=\"Careful\">\n  Text.\n</Admonition>\n\n<details>\n  <summary>Toggle <b>me</b></summary>\n  Body.\n</details>",
			want:      "{% hint style=\"warning\" %}\n**Careful**\n\nText.\n{% endhint %}\n\n<details>\n\n<summary>Toggle me</summary>\n\nBody.\n\n</details>",
			converted: []string{"line 1: <Admonition> → warning hint", "line 5: <details> → expandable"}},
		{name: "DetailsComponentWithSummaryProp", in: "<Details summary=\"More\">\nHidden.\n</Details>",
			want: "<details>\n\n<summary>More</summary>\n\nHidden.\n\n</details>", converted: []string{"<Details> → expandable"}},
		{name: "OtherComponentsAndStatementsKept", in: "import Card from '@site/src/Card';\nexport const year = 2024;\n\n<Card title=\"x\">Hi <Badge /></Card>\n\n`<NotAComponent>` in code",
			want: "import Card from '@site/src/Card';\nexport const year = 2024;\n\n<Card title=\"x\">Hi <Badge /></Card>\n\n`<NotAComponent>` in code",
			warnings: []string{"line 1: an MDX import statement is kept as text", "line 2: an MDX export statement is kept as text",
				"line 4: <Card> is a component", "line 4: <Badge> is a component"}},
		{name: "NotClosedKeptAsText", in: "<Tabs>\n<TabItem value=\"a\">\nA\n</TabItem>",
			want: "<Tabs>\n<TabItem value=\"a\">\nA\n</TabItem>", converted: []string{`<TabItem> → tab "a"`},
			warnings: []string{"line 1: <Tabs> is not closed; kept as text"}},
		{name: "StrayClose", in: "</Tabs>", want: "</Tabs>", warnings: []string{"line 1: </Tabs> closes no open <Tabs>; kept as text"}},
		{name: "CodeIsLeftAlone", in: "```jsx\n<Tabs>\nimport X from 'y';\n```", want: "```jsx\n<Tabs>\nimport X from 'y';\n```"},
		{name: "ProseStartingWithImport", in: "import the data first.", want: "import the data first."},
	})
}

// TestConversionsParse: what the conversions write is read by internal/document as the blocks
// they stand for.
func TestConversionsParse(t *testing.T) {
	tests := []struct {
		name    string
		convert func([]line, *notes) []line
		in      string
		want    []string
	}{
		{"Docusaurus", chain(convertMDX, convertColonAdmonitions),
			":::tip Title\nA\n:::\n\n<Tabs>\n<TabItem value=\"a\">\n:::note\nIn a tab.\n:::\n</TabItem>\n</Tabs>\n\n<details><summary>S</summary>\nB\n</details>",
			[]string{"hint", "tabs", "expandable"}},
		{"MkDocs", convertMkDocs, "!!! note\n    A\n\n=== \"A\"\n    !!! tip\n        In a tab.\n\n??? info \"S\"\n    B",
			[]string{"hint", "tabs", "expandable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := document.FromMarkdown(convertText(tt.in, &notes{}, tt.convert))
			var got []string
			for _, b := range doc.Nodes {
				got = append(got, b.Type)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("blocks %q, want %q", got, tt.want)
			}
			if inner := doc.Nodes[1].Nodes[0].Nodes[0].Type; inner != "hint" {
				t.Errorf("the tab holds a %s, want a hint", inner)
			}
		})
	}
}

// TestHostileNesting: blocks nested far deeper than maxNesting are kept as text past it, with a
// warning each (the report bounded), in time and space linear in the input: at most maxNesting
// blocks are written.
func TestHostileNesting(t *testing.T) {
	const depth = 5000
	var mkdocs strings.Builder
	for i := range 300 { // four more spaces a level: 300 levels are 180 kB
		fmt.Fprintf(&mkdocs, "%s!!! note\n", strings.Repeat("    ", i))
	}
	tests := []struct {
		name    string
		convert func([]line, *notes) []line
		in      string
		blocks  int // how many blocks are written
		opening string
	}{
		{"Colons", convertColonAdmonitions, strings.Repeat(":::note\n", depth) + strings.Repeat(":::\n", depth), maxNesting, "{% hint "},
		{"ColonsNeverClosed", convertColonAdmonitions, strings.Repeat(":::note\n", depth), maxNesting, "{% hint "},
		{"MkDocs", convertMkDocs, mkdocs.String(), maxNesting, "{% hint "},
		{"MDX", convertMDX, strings.Repeat("<details>\n", depth) + strings.Repeat("</details>\n", depth), maxNesting, "<summary>"},
		{"MDXNeverClosed", convertMDX, strings.Repeat("<Tabs>\n<TabItem value=\"x\">\n", depth), 0, "{% tabs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n notes
			out := convertText(tt.in, &n, tt.convert)
			if len(out) > boundOf(tt.in) {
				t.Fatalf("%d bytes out of %d", len(out), len(tt.in))
			}
			r := n.report("a.md", ResultPage)
			if len(r.Warnings) == 0 || len(r.Warnings) > maxNotes+1 || len(r.Converted) > maxNotes+1 {
				t.Fatalf("%d warnings, %d conversions: %q", len(r.Warnings), len(r.Converted), r.Warnings)
			}
			if got := strings.Count(out, tt.opening); got != tt.blocks {
				t.Fatalf("%d blocks written, want %d", got, tt.blocks)
			}
		})
	}
}

// boundOf is the most a conversion may write for in: each line becomes a few of bounded size.
func boundOf(in string) int { return 16*len(in) + 1024 }

func fuzzConversion(f *testing.F, convert func([]line, *notes) []line, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var n notes
		out := convertText(in, &n, convert)
		if len(out) > boundOf(in) {
			t.Fatalf("%d bytes out of %d", len(out), len(in))
		}
		r := n.report("a.md", ResultPage)
		if len(r.Converted) > maxNotes+1 || len(r.Warnings) > maxNotes+1 {
			t.Fatalf("report unbounded: %d, %d", len(r.Converted), len(r.Warnings))
		}
	})
}

func FuzzColonAdmonitions(f *testing.F) {
	fuzzConversion(f, convertColonAdmonitions, ":::tip Title\nA\n:::", "::::note\n:::danger[x]{#y}\n:::\n::::", "* a\n\n  :::note\n  b\n  :::", "```\n:::note\n```\n:::")
}

func FuzzMkDocs(f *testing.F) {
	fuzzConversion(f, convertMkDocs, "!!! note \"T\"\n    A\n", "??? tip\n    !!! info\n        B\n", "=== \"A\"\n    a\n=== \"B\"\n    b\n===! \"C\"\n    c", "1. x\n\n    ???+ note\n        y")
}

func FuzzMDX(f *testing.F) {
	fuzzConversion(f, convertMDX, "import Tabs from '@theme/Tabs';\n<Tabs>\n<TabItem value=\"a\" label=\"A\">x</TabItem>\n</Tabs>",
		"<Tabs values={[{label: 'A', value: 'a'}]}>\n<TabItem value=\"a\">\n\nA\n\n</TabItem></Tabs>",
		"<details><summary>S</summary>\nB\n</details>", "<Admonition type=\"tip\" title=\"T\">\nx\n</Admonition>", "<Card>\n<Tabs\n", "export const a = {\n};")
}
