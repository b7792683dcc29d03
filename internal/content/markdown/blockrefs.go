package markdown

import (
	"regexp"
	"strings"
)

// blockRef matches the lines of GitBook's blocks that name a page or file outside Markdown's link
// syntax: a content-ref's url, a file's src, a figure's image src (group 1 is the destination).
var blockRef = regexp.MustCompile(`^(?:\{%\s*content-ref\s+url="([^"]*)"|\{%\s*file\s+src="([^"]*)"|<figure><img src="([^"]*)")`)

// BlockRefs returns the destinations of GitBook's blocks that are not Markdown links — the url of
// "{% content-ref %}", the src of "{% file %}" and of a "<figure>"'s image — in source order,
// each on a line of its own and never inside a fenced code block. Their Kind is Tag; only Dest,
// Start and End are set.
func BlockRefs(markdown string) []Link {
	var out []Link
	fence := ""
	for at := 0; at < len(markdown); {
		line, _, _ := strings.Cut(markdown[at:], "\n")
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t\r") == "" {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		default:
			if m := blockRef.FindStringSubmatchIndex(trimmed); m != nil {
				offset := at + len(line) - len(trimmed)
				for g := 2; g < len(m); g += 2 {
					if m[g] >= 0 {
						out = append(out, Link{Kind: Tag, Dest: trimmed[m[g]:m[g+1]], Start: offset + m[g], End: offset + m[g+1]})
					}
				}
			}
		}
		at += len(line) + 1
	}
	return out
}

// RewriteBlockRefs rewrites the destinations BlockRefs finds through target, keeping those it
// says nothing of (ok false). Every other byte stays.
func RewriteBlockRefs(markdown string, target func(dest string) (string, bool)) string {
	var edits []edit
	for _, l := range BlockRefs(markdown) {
		if dest, ok := target(l.Dest); ok {
			edits = append(edits, destEdit(l, dest, ok)...)
		}
	}
	return applyEdits(markdown, edits)
}
