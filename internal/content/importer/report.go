package importer

import (
	"fmt"
	"slices"
	"unicode/utf8"
)

// The dialects an upload is read in (Site.Dialect).
const (
	DialectMarkdown   = "markdown"   // plain Markdown laid out by path, as Git Sync lays out a space
	DialectDocusaurus = "docusaurus" // docusaurus.config.*, _category_.json or .mdx files
	DialectMkDocs     = "mkdocs"     // mkdocs.yml
	DialectGitBook    = "gitbook"    // SUMMARY.md or .gitbook.yaml
	DialectWebsite    = "website"    // a crawled website
)

// What an uploaded file became (FileReport.Result).
const (
	ResultPage    = "page"    // a page
	ResultFile    = "file"    // a file, imported when a page links to it
	ResultLayout  = "layout"  // read for the pages' order and titles (SUMMARY.md, mkdocs.yml, _category_.json)
	ResultSkipped = "skipped" // left out; a warning says why
)

// maxNotes is how many conversions, and how many warnings, a file's report lists; the rest are
// counted in one last line. maxNoteBytes bounds one (a title or a tag quoted in it may be long).
const (
	maxNotes     = 50
	maxNoteBytes = 240
)

// FileReport is what an import did with one uploaded file (hidden files and archive litter are not
// listed).
type FileReport struct {
	Path      string   // the file's path in the upload
	Result    string   // one of the Result constants
	Converted []string // what was turned into Bindery's blocks ("line 4: :::tip admonition → hint"); never nil
	Warnings  []string // what was kept as text or left out, and why; never nil
}

// notes gathers what reading one file did, at most maxNotes of each kind.
type notes struct {
	converted, warnings []note
	moreConverted       int
	moreWarnings        int
}

// note is one thing reading a file did, at a line of it (0: the file as a whole).
type note struct {
	line int
	text string
}

// convert notes a conversion at line n of the file (0: the file as a whole).
func (n *notes) convert(line int, format string, args ...any) {
	n.converted, n.moreConverted = addNote(n.converted, n.moreConverted, note{line, clip(fmt.Sprintf(format, args...), maxNoteBytes)})
}

// warn notes what was kept as text or left out at line n of the file (0: the file as a whole).
func (n *notes) warn(line int, format string, args ...any) {
	n.warnings, n.moreWarnings = addNote(n.warnings, n.moreWarnings, note{line, clip(fmt.Sprintf(format, args...), maxNoteBytes)})
}

// clip cuts s to size bytes, on a character boundary, marking the cut.
func clip(s string, size int) string {
	if len(s) <= size {
		return s
	}
	cut := size
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func addNote(list []note, more int, nt note) ([]note, int) {
	if len(list) == maxNotes {
		return list, more + 1
	}
	return append(list, nt), more
}

// report is the file's report with these notes, in line order.
func (n *notes) report(path, result string) FileReport {
	r := FileReport{Path: path, Result: result, Converted: noteTexts(n.converted), Warnings: noteTexts(n.warnings)}
	if n.moreConverted > 0 {
		r.Converted = append(r.Converted, fmt.Sprintf("and %d more conversions", n.moreConverted))
	}
	if n.moreWarnings > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("and %d more warnings", n.moreWarnings))
	}
	return r
}

// noteTexts writes notes in line order, each "line N: …" but for the file as a whole.
func noteTexts(list []note) []string {
	slices.SortStableFunc(list, func(a, b note) int { return a.line - b.line })
	out := make([]string, len(list))
	for i, nt := range list {
		out[i] = nt.text
		if nt.line > 0 {
			out[i] = fmt.Sprintf("line %d: %s", nt.line, nt.text)
		}
	}
	return out
}
