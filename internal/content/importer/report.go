package importer

import "fmt"

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
// counted in one last line.
const maxNotes = 50

// FileReport is what an import did with one uploaded file (hidden files and archive litter are not
// listed).
type FileReport struct {
	Path      string   // the file's path in the upload
	Result    string   // one of the Result constants
	Converted []string // what was turned into Bindery's blocks ("line 4: :::tip admonition → hint")
	Warnings  []string // what was kept as text or left out, and why
}

// notes gathers what reading one file did, at most maxNotes of each kind.
type notes struct {
	converted, warnings []string
	moreConverted       int
	moreWarnings        int
}

// convert notes a conversion at line n of the file (0: the file as a whole).
func (n *notes) convert(line int, format string, args ...any) {
	n.converted, n.moreConverted = addNote(n.converted, n.moreConverted, line, format, args)
}

// warn notes what was kept as text or left out at line n of the file (0: the file as a whole).
func (n *notes) warn(line int, format string, args ...any) {
	n.warnings, n.moreWarnings = addNote(n.warnings, n.moreWarnings, line, format, args)
}

func addNote(list []string, more, line int, format string, args []any) ([]string, int) {
	if len(list) == maxNotes {
		return list, more + 1
	}
	s := fmt.Sprintf(format, args...)
	if line > 0 {
		s = fmt.Sprintf("line %d: %s", line, s)
	}
	return append(list, s), more
}

// report is the file's report with these notes.
func (n *notes) report(path, result string) FileReport {
	r := FileReport{Path: path, Result: result, Converted: n.converted, Warnings: n.warnings}
	if n.moreConverted > 0 {
		r.Converted = append(r.Converted, fmt.Sprintf("and %d more conversions", n.moreConverted))
	}
	if n.moreWarnings > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("and %d more warnings", n.moreWarnings))
	}
	return r
}
