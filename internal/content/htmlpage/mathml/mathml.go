// Package mathml renders TeX formulas as MathML Core, which browsers lay out themselves: the
// formulas of published pages need no script and no web font. It reads the subset of LaTeX that
// documentation uses: letters, numbers and operators; sub- and superscripts and primes; \frac,
// \binom, \sqrt; Greek letters and the common symbols, relations and arrows; \sum, \int, \lim
// and their kin with limits; functions (\sin, \log…); \left … \middle … \right; \text,
// \mathrm, \mathbf, \mathbb, \mathcal and the other alphabets; accents (\hat, \vec, \overline…);
// spacing; and the matrix, cases and aligned environments. Anything else is an error naming it,
// so that a caller can show the formula's TeX instead.
//
// Every character of the formula is written as the escaped text of an element this package
// chooses, so no formula can put markup of its own in a page.
package mathml

import (
	"errors"
	"fmt"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds that keep a hostile formula cheap: its length in bytes and how deep groups nest.
const (
	maxLength = 16 << 10
	maxDepth  = 64
)

// Render returns the formula as a <math> element, a block one when display is true, with the
// TeX kept as its annotation; an error says what of the formula it could not read.
func Render(tex string, display bool) (string, error) {
	if len(tex) > maxLength {
		return "", fmt.Errorf("the formula is longer than %d bytes", maxLength)
	}
	if !utf8.ValidString(tex) {
		return "", errors.New("the formula is not UTF-8")
	}
	body, err := (&parser{display: display}).all(tex)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("<math")
	if display {
		b.WriteString(` display="block"`)
	}
	b.WriteString("><semantics>")
	b.WriteString(body)
	b.WriteString(`<annotation encoding="application/x-tex">`)
	b.WriteString(html.EscapeString(tex))
	b.WriteString("</annotation></semantics></math>")
	return b.String(), nil
}

// parser reads a formula, writing MathML as it goes.
type parser struct {
	src     string
	pos     int
	depth   int
	display bool
}

// all reads src, a formula or a part of one in its own parser (at the depth of p), to its end.
func (p *parser) all(src string) (string, error) {
	sub := &parser{src: src, depth: p.depth, display: p.display}
	ml, err := sub.rows("")
	if err == nil && sub.pos < len(src) {
		err = fmt.Errorf("unexpected %q", sub.src[sub.pos:min(sub.pos+8, len(src))])
	}
	return ml, err
}

// item is one element of a row: its markup and how scripts attach to it.
type item struct {
	ml     string
	limits bool // scripts go under and over it (\sum in a display formula, \lim)
	fn     bool // a function name, followed by a thin space
}

// errStop says a row ended at a token its caller must read ("}", "&", "\\", \end, \right, \middle).
var errStop = errors.New("stop")

// rows reads rows of cells separated by "&" and "\\" up to \end{env} ("" for the end of the
// formula): one cell is an <mrow>, more a <mtable> aligned as align says.
func (p *parser) rows(align string) (string, error) {
	var table [][]string
	row := []string{}
	for {
		cell, err := p.row()
		if err != nil && err != errStop {
			return "", err
		}
		row = append(row, cell)
		switch {
		case p.eat("&"):
			continue
		case p.eat(`\\`):
			table, row = append(table, row), []string{}
			continue
		}
		break
	}
	table = append(table, row)
	if len(table) == 1 && len(row) == 1 {
		return row[0], nil
	}
	return mtable(table, align), nil
}

func mtable(table [][]string, align string) string {
	var b strings.Builder
	b.WriteString("<mtable")
	if align != "" {
		b.WriteString(` columnalign="` + align + `"`)
	}
	b.WriteString(">")
	for _, row := range table {
		b.WriteString("<mtr>")
		for _, cell := range row {
			b.WriteString("<mtd>" + cell + "</mtd>")
		}
		b.WriteString("</mtr>")
	}
	b.WriteString("</mtable>")
	return b.String()
}

// row reads items up to the end of the formula or a token that ends a row, which it leaves
// unread (returning errStop), and writes them as an <mrow>.
func (p *parser) row() (string, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return "", fmt.Errorf("groups nest deeper than %d", maxDepth)
	}
	var items []item
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return mrow(items), nil
		}
		if p.atStop() {
			return mrow(items), errStop
		}
		it, err := p.scripted()
		if err != nil {
			return "", err
		}
		if it.ml != "" {
			items = append(items, it)
		}
	}
}

func mrow(items []item) string {
	var b strings.Builder
	b.WriteString("<mrow>")
	for i, it := range items {
		b.WriteString(it.ml)
		if it.fn && i < len(items)-1 {
			b.WriteString(`<mspace width="0.1667em"></mspace>`)
		}
	}
	b.WriteString("</mrow>")
	return b.String()
}

// atStop says whether the next token ends a row.
func (p *parser) atStop() bool {
	rest := p.src[p.pos:]
	for _, stop := range []string{"}", "&", `\\`, `\end`, `\right`, `\middle`} {
		if strings.HasPrefix(rest, stop) && (stop[0] != '\\' || stop == `\\` || !isLetterAt(rest, len(stop))) {
			return true
		}
	}
	return false
}

func isLetterAt(s string, i int) bool {
	return i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z')
}

// scripted reads an item with its subscript, superscript and primes.
func (p *parser) scripted() (item, error) {
	base, err := p.atom(false)
	if err != nil {
		return item{}, err
	}
	var sub, sup string
	primes := ""
	for {
		p.skipSpace()
		switch {
		case p.eat("'"):
			primes += "′"
			continue
		case p.eatCommand("limits"):
			base.limits = true
			continue
		case p.eatCommand("nolimits"):
			base.limits = false
			continue
		case sub == "" && p.eat("_"):
			if sub, err = p.argument(); err != nil {
				return item{}, err
			}
			continue
		case sup == "" && p.eat("^"):
			if sup, err = p.argument(); err != nil {
				return item{}, err
			}
			continue
		}
		break
	}
	if primes != "" {
		sup = "<mrow><mo>" + primes + "</mo>" + sup + "</mrow>"
	}
	return attach(base, sub, sup), nil
}

// attach writes base with its scripts.
func attach(base item, sub, sup string) item {
	tags := [2][3]string{{"msub", "msup", "msubsup"}, {"munder", "mover", "munderover"}}[boolIndex(base.limits)]
	var tag, scripts string
	switch {
	case sub != "" && sup != "":
		tag, scripts = tags[2], sub+sup
	case sub != "":
		tag, scripts = tags[0], sub
	case sup != "":
		tag, scripts = tags[1], sup
	default:
		return base
	}
	ml := base.ml
	if ml == "" {
		ml = "<mrow></mrow>"
	}
	return item{ml: "<" + tag + ">" + ml + scripts + "</" + tag + ">", fn: base.fn}
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// argument reads the argument of a command or a script: a group, or one token.
func (p *parser) argument() (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) || p.atStop() {
		return "", errors.New("an argument is missing")
	}
	it, err := p.atom(true)
	if err != nil {
		return "", err
	}
	if it.ml == "" {
		return "<mrow></mrow>", nil
	}
	return it.ml, nil
}

// atom reads one token or group; single says a number is one digit, as in a script.
func (p *parser) atom(single bool) (item, error) {
	r, size := utf8.DecodeRuneInString(p.src[p.pos:])
	switch {
	case r == '{':
		p.pos++
		return p.group()
	case r == '\\':
		return p.command()
	case r == '^' || r == '_':
		return item{}, nil // a script with no base
	case r >= '0' && r <= '9':
		return item{ml: "<mn>" + p.number(single) + "</mn>"}, nil
	case r == '%': // a comment, to the end of the line
		if end := strings.IndexByte(p.src[p.pos:], '\n'); end >= 0 {
			p.pos += end + 1
		} else {
			p.pos = len(p.src)
		}
		return item{}, nil
	case r == '#' || r == '$':
		return item{}, fmt.Errorf("%q is not allowed in a formula", r)
	case r == '~':
		p.pos++
		return item{ml: "<mtext>\u00a0</mtext>"}, nil
	}
	p.pos += size
	return char(r), nil
}

// char is one character of the formula: a letter an identifier, a digit a number, anything else
// an operator.
func char(r rune) item {
	s := html.EscapeString(string(r))
	switch {
	case unicode.IsLetter(r):
		return item{ml: "<mi>" + s + "</mi>"}
	case unicode.IsDigit(r):
		return item{ml: "<mn>" + s + "</mn>"}
	case r == '-':
		return item{ml: "<mo>−</mo>"}
	case r == '*':
		return item{ml: "<mo>∗</mo>"}
	case strings.ContainsRune("()[]|", r):
		return item{ml: `<mo stretchy="false">` + s + "</mo>"}
	}
	return item{ml: "<mo>" + s + "</mo>"}
}

// number reads digits, with a decimal point between digits; single reads one digit.
func (p *parser) number(single bool) string {
	start := p.pos
	p.pos++
	for !single && p.pos < len(p.src) {
		c := p.src[p.pos]
		if c >= '0' && c <= '9' || c == '.' && p.pos+1 < len(p.src) && p.src[p.pos+1] >= '0' && p.src[p.pos+1] <= '9' {
			p.pos++
			continue
		}
		break
	}
	return p.src[start:p.pos]
}

// group reads the rest of a group after its "{".
func (p *parser) group() (item, error) {
	inner, err := p.row()
	if err != nil && err != errStop {
		return item{}, err
	}
	if !p.eat("}") {
		return item{}, errors.New(`a "{" is not closed`)
	}
	return item{ml: inner}, nil
}

// command reads a command: its name, then what it takes.
func (p *parser) command() (item, error) {
	name := p.commandName()
	if it, ok := symbol(name); ok {
		it.limits = it.limits && p.display
		return it, nil
	}
	if it, ok := largeOperator(name, p.display); ok {
		return it, nil
	}
	if width, ok := spaces[name]; ok {
		return item{ml: `<mspace width="` + width + `"></mspace>`}, nil
	}
	if accent, ok := accents[name]; ok {
		return p.accent(accent.char, accent.under)
	}
	if _, ok := styles[name]; ok {
		return p.styledText(name)
	}
	switch name {
	case "frac", "dfrac", "tfrac", "cfrac", "binom", "dbinom", "tbinom":
		return p.fraction(name)
	case "sqrt":
		return p.root()
	case "left":
		return p.fenced()
	case "text", "textrm", "textit", "textbf", "textsf", "texttt", "mbox", "hbox":
		return p.text()
	case "begin":
		return p.environment()
	case "displaystyle", "textstyle", "scriptstyle":
		return item{}, nil
	case "pmod":
		arg, err := p.argument()
		return item{ml: `<mrow><mo stretchy="false">(</mo><mo>mod</mo>` + arg + `<mo stretchy="false">)</mo></mrow>`}, err
	}
	return item{}, fmt.Errorf(`unknown command \%s`, name)
}

// commandName reads the name after a backslash: letters, or one other character.
func (p *parser) commandName() string {
	p.pos++ // the backslash
	start := p.pos
	for isLetterAt(p.src, p.pos) {
		p.pos++
	}
	if p.pos == start && p.pos < len(p.src) {
		_, size := utf8.DecodeRuneInString(p.src[p.pos:])
		p.pos += size
	}
	return p.src[start:p.pos]
}

// symbol is a command that stands for one character.
func symbol(name string) (item, bool) {
	if c, ok := identifiers[name]; ok {
		return item{ml: "<mi>" + c + "</mi>"}, true
	}
	if c, ok := uprightIdentifiers[name]; ok {
		return item{ml: `<mi mathvariant="normal">` + c + "</mi>"}, true
	}
	if c, ok := operators[name]; ok {
		return item{ml: "<mo>" + html.EscapeString(c) + "</mo>"}, true
	}
	if limits, ok := functions[name]; ok {
		return item{ml: "<mi>" + name + "</mi>", limits: limits, fn: true}, true
	}
	return item{}, false
}

// largeOperator is \sum, \int and their kin; the ones with limits take them under and over in a
// display formula only.
func largeOperator(name string, display bool) (item, bool) {
	op, ok := largeOperators[name]
	if !ok {
		return item{}, false
	}
	return item{ml: "<mo>" + op.char + "</mo>", limits: op.limits && display}, true
}

// fraction reads \frac{num}{den} and its display and text forms, and \binom{n}{k}.
func (p *parser) fraction(name string) (item, error) {
	num, err := p.argument()
	if err != nil {
		return item{}, err
	}
	den, err := p.argument()
	if err != nil {
		return item{}, err
	}
	ml := "<mfrac>" + num + den + "</mfrac>"
	switch name {
	case "dfrac", "cfrac":
		ml = `<mstyle displaystyle="true">` + ml + "</mstyle>"
	case "tfrac":
		ml = `<mstyle displaystyle="false">` + ml + "</mstyle>"
	case "binom", "dbinom", "tbinom":
		ml = `<mrow><mo>(</mo><mfrac linethickness="0">` + num + den + `</mfrac><mo>)</mo></mrow>`
	}
	return item{ml: ml}, nil
}

// root reads \sqrt{x} or \sqrt[n]{x}.
func (p *parser) root() (item, error) {
	p.skipSpace()
	index := ""
	if p.eat("[") {
		end := strings.IndexByte(p.src[p.pos:], ']')
		if end < 0 {
			return item{}, errors.New(`a "[" is not closed`)
		}
		var err error
		if index, err = p.all(p.src[p.pos : p.pos+end]); err != nil {
			return item{}, err
		}
		p.pos += end + 1
	}
	radicand, err := p.argument()
	if err != nil {
		return item{}, err
	}
	if index != "" {
		return item{ml: "<mroot>" + radicand + index + "</mroot>"}, nil
	}
	return item{ml: "<msqrt>" + radicand + "</msqrt>"}, nil
}

// fenced reads \left( … \middle| … \right).
func (p *parser) fenced() (item, error) {
	var b strings.Builder
	b.WriteString("<mrow>")
	for {
		fence, err := p.delimiter()
		if err != nil {
			return item{}, err
		}
		b.WriteString(fence)
		inner, err := p.row()
		if err != errStop {
			return item{}, errors.New(`a \left has no \right`)
		}
		b.WriteString(inner)
		switch {
		case p.eatCommand("middle"):
			continue
		case p.eatCommand("right"):
			closing, err := p.delimiter()
			if err != nil {
				return item{}, err
			}
			b.WriteString(closing + "</mrow>")
			return item{ml: b.String()}, nil
		}
		return item{}, errors.New(`a \left has no \right`)
	}
}

// delimiter reads what follows \left, \middle or \right, as a stretching <mo>.
func (p *parser) delimiter() (string, error) {
	p.skipSpace()
	rest := p.src[p.pos:]
	for _, size := range []int{1, 2} {
		if size > len(rest) {
			break
		}
		if c, ok := delimiters[rest[:size]]; ok && (size == 2 || rest[0] != '\\') {
			p.pos += size
			return fence(c), nil
		}
	}
	if strings.HasPrefix(rest, `\`) {
		start := p.pos
		name := p.commandName()
		if c, ok := delimiters[`\`+name]; ok {
			return fence(c), nil
		}
		p.pos = start
	}
	return "", errors.New(`a \left, \middle or \right has no delimiter`)
}

func fence(c string) string {
	if c == "" {
		return ""
	}
	return `<mo fence="true" stretchy="true">` + html.EscapeString(c) + "</mo>"
}

// accent reads the argument of an accent and writes the accent over or under it.
func (p *parser) accent(char string, under bool) (item, error) {
	arg, err := p.argument()
	if err != nil {
		return item{}, err
	}
	if under {
		return item{ml: `<munder accentunder="true">` + arg + `<mo stretchy="true">` + html.EscapeString(char) + "</mo></munder>"}, nil
	}
	return item{ml: `<mover accent="true">` + arg + `<mo stretchy="true">` + html.EscapeString(char) + "</mo></mover>"}, nil
}

// styledText reads the argument of \mathbf, \mathbb, \mathrm… as letters of the style.
func (p *parser) styledText(style string) (item, error) {
	raw, err := p.rawArgument()
	if err != nil {
		return item{}, err
	}
	raw = strings.TrimSpace(raw)
	if strings.ContainsAny(raw, `\{}^_&`) { // markup inside: read it, unstyled
		p.depth++
		defer func() { p.depth-- }()
		inner, err := p.all(raw)
		return item{ml: inner}, err
	}
	var b strings.Builder
	for _, r := range raw {
		if !unicode.IsSpace(r) {
			b.WriteRune(styled(style, r))
		}
	}
	ml := "<mi>" + html.EscapeString(b.String()) + "</mi>"
	if style == "mathrm" || style == "operatorname" {
		ml = `<mi mathvariant="normal">` + html.EscapeString(b.String()) + "</mi>"
	}
	return item{ml: ml, fn: style == "operatorname"}, nil
}

// text reads \text{…}: words, not a formula.
func (p *parser) text() (item, error) {
	raw, err := p.rawArgument()
	if err != nil {
		return item{}, err
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' && i+1 < len(raw) && strings.IndexByte(`{}\$%&_# `, raw[i+1]) >= 0 {
			i++
		}
		b.WriteByte(raw[i])
	}
	return item{ml: "<mtext>" + html.EscapeString(strings.ReplaceAll(b.String(), " ", "\u00a0")) + "</mtext>"}, nil
}

// rawArgument reads a group's text as written, braces inside it balanced, or one character.
func (p *parser) rawArgument() (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return "", errors.New("an argument is missing")
	}
	if p.src[p.pos] != '{' {
		_, size := utf8.DecodeRuneInString(p.src[p.pos:])
		p.pos += size
		return p.src[p.pos-size : p.pos], nil
	}
	depth := 0
	for i := p.pos; i < len(p.src); i++ {
		switch p.src[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				raw := p.src[p.pos+1 : i]
				p.pos = i + 1
				return raw, nil
			}
		}
	}
	return "", errors.New(`a "{" is not closed`)
}

// environment reads \begin{name} … \end{name}.
func (p *parser) environment() (item, error) {
	name, err := p.rawArgument()
	if err != nil {
		return item{}, err
	}
	env, ok := matrices[name]
	if !ok {
		return item{}, fmt.Errorf("unknown environment %q", name)
	}
	if name == "array" { // its column specification
		if _, err := p.rawArgument(); err != nil {
			return item{}, err
		}
	}
	table, err := p.rows(env.align)
	if err != nil {
		return item{}, err
	}
	if !p.eatCommand("end") {
		return item{}, fmt.Errorf("environment %q is not closed", name)
	}
	if end, err := p.rawArgument(); err != nil || end != name {
		return item{}, fmt.Errorf("environment %q is closed by another", name)
	}
	if !strings.HasPrefix(table, "<mtable") {
		table = "<mtable><mtr><mtd>" + table + "</mtd></mtr></mtable>"
	}
	return item{ml: "<mrow>" + fence(env.open) + table + fence(env.close) + "</mrow>"}, nil
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

// eat reads s when it comes next.
func (p *parser) eat(s string) bool {
	if strings.HasPrefix(p.src[p.pos:], s) {
		p.pos += len(s)
		return true
	}
	return false
}

// eatCommand reads \name when it comes next, and not as the start of a longer name.
func (p *parser) eatCommand(name string) bool {
	if strings.HasPrefix(p.src[p.pos:], `\`+name) && !isLetterAt(p.src, p.pos+1+len(name)) {
		p.pos += 1 + len(name)
		return true
	}
	return false
}
