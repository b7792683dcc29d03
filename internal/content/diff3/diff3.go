// Package diff3 merges two versions of a text derived from a common base, line by line, the way
// git merges a file (a three-way merge, after Khanna, Kunal and Pierce's "A Formal Investigation
// of Diff3").
//
// A line is everything up to and including a "\n"; the last line may lack it. Lines compare byte
// for byte, so "\r\n" endings, invalid UTF-8 and NUL bytes pass through unchanged. Each side is
// diffed against the base with go-diff's Myers line diff. Base lines that both diffs keep
// unchanged are stable; the stretches between them are chunks, each resolved on its own:
//
//   - only one side changed the chunk: its version is taken;
//   - both sides made the same change: it is taken once;
//   - the sides changed it differently: the chunk is a conflict.
//
// A conflict is written with git's default markers ("merge" style, no base section):
//
//	<<<<<<< Ours
//	ours lines
//	=======
//	theirs lines
//	>>>>>>> Theirs
//
// Adjacent edits conflict, as in git: when the two sides edit consecutive base lines with no
// unchanged base line between them (or insert lines at the same place, or one inserts next to a
// line the other changes), the edits share a chunk and that chunk is a conflict: with no
// unchanged line between them, the order and overlap of the two edits are a guess.
//
// Details of the conflict markers:
//   - Each marker is on its own line: a side whose last line lacks its "\n" gets one before the
//     next marker (so a conflict at the end of a text ends with a line break).
//   - Markers end with "\r\n" when the document does (its first line in ours, else in theirs,
//     else in the base), otherwise with "\n".
//   - An empty label gives a bare marker ("<<<<<<<"), as git writes it; line breaks in a label
//     become spaces, so a marker stays one line.
//   - Unlike git, lines that open or close both sides of a conflict are not moved out of it: the
//     conflict shows both versions of the whole chunk.
//
// Limits: each of the two diffs refines for at most a second and then settles for a coarser
// (still correct) diff, which can only make conflicts larger. Texts with more distinct lines
// than there are Unicode code points (over a million; far beyond a page body) are not diffed:
// unless a fast path applies (a side equal to the base, or both sides equal), the whole text is
// one conflict.
package diff3

import "strings"

// Labels name the two sides in conflict markers.
type Labels struct{ Ours, Theirs string }

// Result of a merge.
type Result struct {
	Text      string // merged text; conflicting hunks carry git-style markers
	Conflicts int    // number of conflicting hunks (0 = clean merge)
}

// Merge merges ours and theirs, both derived from base.
func Merge(base, ours, theirs string, labels Labels) Result {
	// These cases need no diff, and answering them here keeps them exact even when a diff
	// would time out.
	switch {
	case ours == theirs, theirs == base:
		return Result{Text: ours}
	case ours == base:
		return Result{Text: theirs}
	}
	return merge(base, ours, theirs, labels)
}

// merge is Merge without its fast paths.
func merge(base, ours, theirs string, labels Labels) Result {
	m := newMerger(base, ours, theirs, labels)
	m.walk()
	return Result{Text: m.out.String(), Conflicts: m.conflicts}
}

// merger holds one merge: the three texts, each side's alignment on the base, and the output.
type merger struct {
	base, ours, theirs text
	// inOurs[i] is the index of the ours line that base line i is kept as, or -1 if ours
	// dropped or changed it; inTheirs likewise.
	inOurs, inTheirs []int
	markers          markers
	out              strings.Builder
	conflicts        int
}

func newMerger(base, ours, theirs string, labels Labels) *merger {
	var m merger
	texts, diffable := tokenize(base, ours, theirs)
	m.base, m.ours, m.theirs = texts[0], texts[1], texts[2]
	if diffable {
		m.inOurs, m.inTheirs = align(m.base, m.ours), align(m.base, m.theirs)
	} else {
		m.inOurs, m.inTheirs = keptByNone(m.base), keptByNone(m.base)
	}
	m.markers = newMarkers(labels, eolOf(m.ours, m.theirs, m.base))
	m.out.Grow(max(len(ours), len(theirs)))
	return &m
}

// walk goes through the three texts in step: a stable line is copied, and the chunk before the
// next stable line is resolved.
func (m *merger) walk() {
	o, a, b := 0, 0, 0 // next line of base, ours, theirs
	for o < m.base.len() || a < m.ours.len() || b < m.theirs.len() {
		if o < m.base.len() && m.inOurs[o] == a && m.inTheirs[o] == b {
			m.out.WriteString(m.base.lines[o])
			o, a, b = o+1, a+1, b+1
			continue
		}
		next := m.nextKeptByBoth(o)
		aEnd, bEnd := m.ours.len(), m.theirs.len()
		if next < m.base.len() {
			aEnd, bEnd = m.inOurs[next], m.inTheirs[next]
		}
		m.resolve(m.base.slice(o, next), m.ours.slice(a, aEnd), m.theirs.slice(b, bEnd))
		o, a, b = next, aEnd, bEnd
	}
}

// nextKeptByBoth returns the first base line from o on that both sides keep, or the base's
// length if there is none.
func (m *merger) nextKeptByBoth(o int) int {
	for o < m.base.len() && (m.inOurs[o] < 0 || m.inTheirs[o] < 0) {
		o++
	}
	return o
}

// resolve writes the merge of one chunk.
func (m *merger) resolve(base, ours, theirs text) {
	switch {
	case ours.equal(base):
		m.out.WriteString(theirs.String())
	case theirs.equal(base), ours.equal(theirs):
		m.out.WriteString(ours.String())
	default:
		m.conflicts++
		m.markers.write(&m.out, ours.String(), theirs.String())
	}
}
