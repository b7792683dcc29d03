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
func BlockRefs(markdown string) []Link { return tagRefs(markdown, blockRef) }

// includeRef matches GitBook's include tag, which places a reusable content (group 1 is its path).
var includeRef = regexp.MustCompile(`^\{%\s*include\s+"([^"]*)"\s*%\}\s*$`)

// Includes returns the paths of GitBook's include tags (`{% include "<path>" %}`, a reusable
// content placed), as BlockRefs returns its destinations: each on a line of its own, never inside
// a fenced code block, in source order.
func Includes(markdown string) []Link { return tagRefs(markdown, includeRef) }

// RewriteIncludes rewrites the paths Includes finds through target, keeping those it says
// nothing of (ok false). Every other byte stays.
func RewriteIncludes(markdown string, target func(path string) (string, bool)) string {
	return rewriteRefs(markdown, Includes(markdown), target)
}

// tagRefs returns the destinations re finds (its first group that matched) at the start of a
// line, leading spaces aside, outside fenced code blocks.
func tagRefs(markdown string, re *regexp.Regexp) []Link {
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
			if m := re.FindStringSubmatchIndex(trimmed); m != nil {
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
	return rewriteRefs(markdown, BlockRefs(markdown), target)
}

// rewriteRefs rewrites the destinations of refs through target, keeping those it says nothing of.
func rewriteRefs(markdown string, refs []Link, target func(dest string) (string, bool)) string {
	var edits []edit
	for _, l := range refs {
		if dest, ok := target(l.Dest); ok {
			edits = append(edits, destEdit(l, dest, ok)...)
		}
	}
	return applyEdits(markdown, edits)
}
