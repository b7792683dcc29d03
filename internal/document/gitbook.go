package document

import (
	"bytes"
	"maps"
	"regexp"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// gitbookMarkdown parses GitBook-flavoured Markdown: CommonMark with GFM tables, strikethrough and
// task lists, GitBook's `{% tag %}` blocks (tagParser), `$$` math blocks (mathParser) and `$$…$$`
// inline math (inlineMathParser). `<details>` and `<figure>` are HTML blocks to goldmark, read
// afterwards (blocks, htmlBlock). No linkify: GitBook leaves bare URLs as text.
// Its parser is goldmark's default one but for linkReferences.
var gitbookMarkdown = goldmark.New(
	goldmark.WithParser(parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(linkReferences{}, 100)))),
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList),
	goldmark.WithParserOptions(
		parser.WithBlockParsers(util.Prioritized(tagParser{}, 50), util.Prioritized(mathParser{}, 650),
			util.Prioritized(gitbookHTMLBlocks{parser.NewHTMLBlockParser()}, 899)),
		parser.WithInlineParsers(util.Prioritized(inlineMathParser{}, 150)),
	),
).Parser()

// linkReferences is goldmark's paragraph transformer reading link reference definitions
// (parser.LinkReferenceParagraphTransformer, its default) for the paragraphs whose first
// character other than white space is "[", where it reads one: for the others it reads none and
// changes nothing, and those are most paragraphs. FuzzParserOptions holds the trees to goldmark's.
type linkReferences struct{}

func (linkReferences) Transform(n *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		for _, c := range reader.Source()[seg.Start:seg.Stop] { // its padding is spaces
			if !util.IsSpace(c) {
				if c == '[' {
					parser.LinkReferenceParagraphTransformer.Transform(n, reader, pc)
				}
				return
			}
		}
	}
	parser.LinkReferenceParagraphTransformer.Transform(n, reader, pc) // none but white space
}

// gitbookHTMLBlocks opens the HTML blocks GitBook writes, lines starting `<details`, `</details`,
// `<summary` or `<figure` and then a space or `>`, as goldmark's HTML block parser (which runs
// after it, 900) opens them: a block of type 6, read up to a blank line, which goldmark's parser
// continues. It tells them without goldmark's regular expressions, which tried every type in turn
// and were a tenth of the parse of GitBook's Markdown. Other lines are goldmark's.
// FuzzParserOptions holds the trees to goldmark's alone.
type gitbookHTMLBlocks struct{ parser.BlockParser }

func (p gitbookHTMLBlocks) Open(_ ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, segment := reader.PeekLine()
	if !isGitBookHTMLBlock(line, pc.BlockOffset()) {
		return nil, parser.NoChildren
	}
	n := ast.NewHTMLBlock(ast.HTMLBlockType6)
	reader.AdvanceToEOL()
	n.Lines().Append(segment)
	return n, parser.NoChildren
}

// gitbookBlockTags are the tags gitbookHTMLBlocks reads, each of goldmark's type-6 block tags.
var gitbookBlockTags = [...]string{"details", "/details", "summary", "figure"}

// isGitBookHTMLBlock says whether line, its first character other than a space at pos, starts
// with up to three spaces, "<", a tag of gitbookBlockTags and a space or ">": goldmark's type-6
// expression then matches the line, whatever follows (the expression for type 7 may too, giving
// type 6 for these tags), and those for types 1 to 5 cannot.
func isGitBookHTMLBlock(line []byte, pos int) bool {
	if pos < 0 || pos > 3 || pos >= len(line) || line[pos] != '<' || len(bytes.TrimLeft(line[:pos], " ")) > 0 {
		return false
	}
	rest := line[pos+1:]
	for _, tag := range gitbookBlockTags {
		if len(rest) > len(tag) && string(rest[:len(tag)]) == tag && (rest[len(tag)] == '>' || rest[len(tag)] == ' ') {
			return true
		}
	}
	return false
}

// tagLine is a line that is one GitBook tag: `{% name attr="value" … %}` or `{% endname %}`.
var (
	tagLine = regexp.MustCompile(`^\{%\s*(end)?([a-z][a-z-]*)((?:\s+[a-zA-Z]+="[^"]*")*)\s*%\}\s*$`)
	// includeLine is GitBook's include tag, `{% include "path" %}` (reusable.go).
	includeLine = regexp.MustCompile(`^\{%\s*include\s+"([^"]*)"\s*%\}\s*$`)
	// ifLine opens a conditional block: `{% if expression %}`.
	ifLine = regexp.MustCompile(`^\{%\s*if\s+(.*?)\s*%\}\s*$`)
	// tagStart is how every tag line starts, tagEnd how it ends.
	tagStart, tagEnd = []byte("{%"), []byte("%}")
)

// containerTags hold blocks up to their end tag; voidTags are one line.
var (
	containerTags = map[string]bool{"hint": true, "tabs": true, "tab": true, "code": true, "stepper": true,
		"step": true, "columns": true, "column": true, "content-ref": true, "openapi": true, "swagger": true,
		"openapi-operation": true, "openapi-webhook": true, "openapi-schemas": true, "if": true}
	voidTags = map[string]bool{"embed": true, "file": true, "include": true}
	// tagNames are the names of the tags Bindery reads, by themselves: a tag block's name is one
	// of them rather than a copy.
	tagNames = func() map[string]string {
		names := map[string]string{}
		for name := range maps.Keys(containerTags) {
			names[name] = name
		}
		for name := range maps.Keys(voidTags) {
			names[name] = name
		}
		return names
	}()
)

var kindTag = ast.NewNodeKind("GitBookTag")

// tagBlock is a GitBook tag block: its tag and, for a container, its blocks.
type tagBlock struct {
	ast.BaseBlock
	tagHead
	// open marks a tag block not yet closed: an end tag of its name ends it, not the block of the
	// same name around it (an if in an if).
	open bool
}

// tagHead is a tag block's tag: its name, its attributes and how it ends. Its strings share the
// bytes of the text parsed, FromMarkdown's copy, which nothing writes.
type tagHead struct {
	name   string
	attrs  attrList
	line   string // the opening line as written
	closed bool   // by its end tag, rather than by the end of its container
}

func (n *tagBlock) Kind() ast.NodeKind { return kindTag }

func (n *tagBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// attrList are a tag's attributes in the order written: a tag has a few, and a list of them
// costs less to make than a map.
type attrList []tagAttr

type tagAttr struct{ name, value string }

// lookup is the value of the attribute name, its last when written twice, ok false for none.
func (l attrList) lookup(name string) (value string, ok bool) {
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].name == name {
			return l[i].value, true
		}
	}
	return "", false
}

// get is the value of the attribute name, "" for none.
func (l attrList) get(name string) string {
	v, _ := l.lookup(name)
	return v
}

type tagParser struct{}

func (tagParser) Trigger() []byte { return []byte{'{'} }

// maxTagDepth bounds tag blocks in tag blocks: goldmark asks every open block about every line,
// and an end tag looks through the blocks open under it, so unbounded nesting would cost the cube
// of its depth (5,000 nested ifs took minutes); a tag line deeper is text.
const maxTagDepth = 32

// tagDepth is how many tag blocks hold n, counted up to maxTagDepth.
func tagDepth(n ast.Node) int {
	depth := 0
	for ; n != nil && depth < maxTagDepth; n = n.Parent() {
		if _, ok := n.(*tagBlock); ok {
			depth++
		}
	}
	return depth
}

func (tagParser) Open(parent ast.Node, reader text.Reader, _ parser.Context) (ast.Node, parser.State) {
	if tagDepth(parent) >= maxTagDepth {
		return nil, parser.NoChildren
	}
	line, _ := reader.PeekLine()
	head, container, ok := readTag(line)
	if !ok {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	if !container {
		return &tagBlock{tagHead: head}, parser.NoChildren
	}
	return &tagBlock{tagHead: head, open: true}, parser.HasChildren
}

// readTag reads a line that opens a tag Bindery reads: its tag, and whether it holds blocks up to
// its end tag. ok is false for another line (no tag, an end tag, a tag Bindery does not read).
func readTag(line []byte) (head tagHead, container, ok bool) {
	nameBytes := tagName(line)
	name, ok := tagNames[string(nameBytes)]
	if !ok {
		return head, false, false
	}
	trimmed := util.BytesToReadOnlyString(util.TrimRightSpace(line))
	if name == "include" {
		if m := includeLine.FindSubmatch(line); m != nil {
			return tagHead{name: "include", attrs: attrList{{"src", string(m[1])}}, line: trimmed}, false, true
		}
	}
	if name == "if" {
		if m := ifLine.FindSubmatch(line); m != nil {
			return tagHead{name: "if", attrs: attrList{{"expression", string(m[1])}}, line: trimmed}, true, true
		}
	}
	attrs, ok := tagAttrs(line[bytes.Index(line, nameBytes)+len(nameBytes):])
	if !ok {
		return head, false, false
	}
	return tagHead{name: name, attrs: attrs, line: trimmed}, !voidTags[name], true
}

// tagName is the name a line starting a tag gives as tagLine, includeLine and ifLine read it
// ("endhint" for an end tag), empty for a line that starts no tag: read before any of them runs.
func tagName(line []byte) []byte {
	rest, ok := bytes.CutPrefix(line, tagStart)
	if !ok {
		return nil
	}
	rest = trimTagSpace(rest)
	end := 0
	for end < len(rest) && (rest[end] >= 'a' && rest[end] <= 'z' || end > 0 && rest[end] == '-') {
		end++
	}
	return rest[:end]
}

// tagAttrs reads what follows a tag's name as tagLine does: attributes `name="value"`, each after
// spaces, then `%}` and nothing but spaces (ok false when the line is not that). A name given twice
// has its last value. Names and values share the bytes of rest, which nothing writes (the text
// parsed, FromMarkdown's copy).
func tagAttrs(rest []byte) (attrs attrList, ok bool) {
	for {
		trimmed := trimTagSpace(rest)
		spaced := len(trimmed) < len(rest)
		rest = trimmed
		if after, end := bytes.CutPrefix(rest, tagEnd); end {
			return attrs, len(trimTagSpace(after)) == 0
		}
		name := 0
		for name < len(rest) && (rest[name]|0x20 >= 'a' && rest[name]|0x20 <= 'z') {
			name++
		}
		value, isAttr := bytes.CutPrefix(rest[name:], []byte(`="`))
		closing := bytes.IndexByte(value, '"')
		if !spaced || name == 0 || !isAttr || closing < 0 {
			return nil, false
		}
		attrs = append(attrs, tagAttr{util.BytesToReadOnlyString(rest[:name]), unescapeAttr(util.BytesToReadOnlyString(value[:closing]))})
		rest = value[closing+1:]
	}
}

func (tagParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*tagBlock)
	if !n.open { // a void tag: one line (a container is open until it closes)
		return parser.Close
	}
	line, _ := reader.PeekLine()
	if bytes.HasPrefix(line, tagStart) && endsTag(line, n.name) && !inRaw(n, pc) && !inSameTag(n) {
		reader.AdvanceToEOL()
		n.closed = true
		return parser.Close
	}
	return parser.Continue | parser.HasChildren
}

// tagSpace is what tagLine's \s matches.
const tagSpace = " \t\n\f\r"

// trimTagSpace is b without the tagSpace it starts with (bytes.TrimLeft, without making a set of
// the characters at each call: tags are read for every line starting "{%").
func trimTagSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\f' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// endsTag says whether line, which starts a tag, is the end tag of name as tagLine reads it;
// the usual "{% endname %}" is read without the expression, which the lines of most tags' bodies
// never reach.
func endsTag(line []byte, name string) bool {
	rest, isEnd := bytes.CutPrefix(trimTagSpace(line[len(tagStart):]), []byte("end"))
	rest, isName := bytes.CutPrefix(rest, []byte(name))
	if !isEnd || !isName {
		return false
	}
	if string(bytes.Trim(rest, tagSpace)) == "%}" {
		return true
	}
	m := tagLine.FindSubmatch(line)
	return m != nil && len(m[1]) > 0 && string(m[2]) == name
}

func (tagParser) Close(n ast.Node, _ text.Reader, _ parser.Context) { n.(*tagBlock).open = false }
func (tagParser) CanInterruptParagraph() bool                       { return true }
func (tagParser) CanAcceptIndentedLine() bool                       { return false }

// inRaw says whether the innermost open block, under n, is a code or math block: its lines are
// text, an end tag among them ends no tag block. Open blocks are a chain, the innermost last.
func inRaw(n ast.Node, pc parser.Context) bool {
	open := pc.OpenedBlocks()
	switch last := open[len(open)-1].Node; last.(type) {
	case *ast.FencedCodeBlock, *mathBlock:
		return last != n
	}
	return false
}

// inSameTag says whether a tag block of n's name, not yet closed, is open under n.
func inSameTag(n *tagBlock) bool {
	for k := n.LastChild(); k != nil; k = k.LastChild() {
		if t, ok := k.(*tagBlock); ok && t.name == n.name && t.open {
			return true
		}
	}
	return false
}

var kindMath = ast.NewNodeKind("MathBlock")

// mathBlock is a `$$` line, the formula's lines, and a `$$` line.
type mathBlock struct{ ast.BaseBlock }

func (n *mathBlock) Kind() ast.NodeKind { return kindMath }

func (n *mathBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

func (n *mathBlock) IsRaw() bool { return true }

type mathParser struct{}

func (mathParser) Trigger() []byte { return []byte{'$'} }

func (mathParser) Open(_ ast.Node, reader text.Reader, _ parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	if string(util.TrimRightSpace(line)) != "$$" {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return &mathBlock{}, parser.NoChildren
}

func (mathParser) Continue(node ast.Node, reader text.Reader, _ parser.Context) parser.State {
	line, seg := reader.PeekLine()
	if line == nil {
		return parser.Close
	}
	reader.AdvanceToEOL()
	if string(util.TrimLeftSpace(util.TrimRightSpace(line))) == "$$" {
		return parser.Close
	}
	node.Lines().Append(seg)
	return parser.Continue | parser.NoChildren
}

func (mathParser) Close(ast.Node, text.Reader, parser.Context) {}
func (mathParser) CanInterruptParagraph() bool                 { return true }
func (mathParser) CanAcceptIndentedLine() bool                 { return false }

var kindInlineMath = ast.NewNodeKind("InlineMath")

// inlineMath is `$$formula$$` in a line of text.
type inlineMath struct {
	ast.BaseInline
	formula string
}

func (n *inlineMath) Kind() ast.NodeKind { return kindInlineMath }

func (n *inlineMath) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

type inlineMathParser struct{}

func (inlineMathParser) Trigger() []byte { return []byte{'$'} }

func (inlineMathParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if len(line) < 5 || line[1] != '$' {
		return nil
	}
	end := indexFrom(line, "$$", 3)
	if end < 0 {
		return nil
	}
	block.Advance(end + 2)
	return &inlineMath{formula: string(line[2:end])}
}

// indexFrom is the index of sep in b at or after from, -1 when none.
func indexFrom(b []byte, sep string, from int) int {
	for i := from; i+len(sep) <= len(b); i++ {
		if string(b[i:i+len(sep)]) == sep {
			return i
		}
	}
	return -1
}
