package diff3

import (
	"fmt"
	"testing"
)

// FuzzMerge checks, for any three texts, that merging does not panic and keeps the properties of a
// three-way merge; and, on documents built from the texts with lines that cannot be confused,
// that edits to separate lines merge cleanly and edits to the same lines make one conflict.
func FuzzMerge(f *testing.F) {
	for _, seed := range [][3]string{
		{"", "", ""},
		{"a\nb\nc\n", "a\nB\nc\n", "a\nb\nC\n"},
		{"a\nb\nc\nd\n", "A\nb\nc\nd\n", "a\nb\nc\nD\n"},
		{"a\nb\nc\n", "a\nX\nc\n", "a\nY\nc\n"},
		{"a\nb\nc\n", "a\nc\n", "a\nB\nc\n"},
		{"a\nb", "a\nX", "a\nY"},
		{"a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n", "a\r\nb\r\nC\r\n"},
		{"\xff\xfe\n\x00\n", "\xff\n\x00\n", "\xff\xfe\n\x00\nz"},
		{"\n\n\n\n", "\n\nx\n\n\n", "\n\n\n\ny\n"},
		{"# Title\n\nIntro.\n\n## Install\n\nRun it.\n", "# Title\n\nIntro, longer.\n\n## Install\n\nRun it.\n",
			"# Title\n\nIntro.\n\n## Install\n\nRun it twice.\n\n## Use\n"},
		{"- a\n- b\n- c\n", "- a\n- c\n", "- a\n- b\n- b\n- c\n"},
		{"x", "", "y"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		checkIdentities(t, base, ours, theirs)
		checkSymmetry(t, base, ours, theirs)
		checkSeparateEdits(t, base, ours, theirs)
		checkSameLinesEdited(t, base, ours, theirs)
	})
}

// checkIdentities checks that a side equal to the base, or two equal sides, merge to the other
// side, both through Merge and through the algorithm without its fast paths.
func checkIdentities(t *testing.T, base, ours, theirs string) {
	t.Helper()
	for _, mergeFunc := range []func(base, ours, theirs string, labels Labels) Result{Merge, merge} {
		for _, c := range []struct {
			base, ours, theirs, want string
		}{
			{base, base, theirs, theirs},
			{base, ours, base, ours},
			{base, ours, ours, ours},
		} {
			if got := mergeFunc(c.base, c.ours, c.theirs, labels); got != (Result{Text: c.want}) {
				t.Fatalf("merge(%q, %q, %q) = %+v, want %q and no conflict", c.base, c.ours, c.theirs, got, c.want)
			}
		}
	}
}

// checkSymmetry checks that swapping the sides gives as many conflicts, and the same text when
// there are none.
func checkSymmetry(t *testing.T, base, ours, theirs string) {
	t.Helper()
	r := Merge(base, ours, theirs, labels)
	swapped := Merge(base, theirs, ours, Labels{Ours: labels.Theirs, Theirs: labels.Ours})
	if r.Conflicts != swapped.Conflicts || (r.Conflicts == 0 && r.Text != swapped.Text) {
		t.Fatalf("sides swapped: %+v, then %+v", r, swapped)
	}
}

// checkSeparateEdits builds a document from base, has ours replace its first half by the lines
// of ours and theirs its second half by the lines of theirs, with one line untouched between
// them, and checks that both edits apply.
func checkSeparateEdits(t *testing.T, base, ours, theirs string) {
	t.Helper()
	b, o, th := tagged("b", base), tagged("o", ours), tagged("t", theirs)
	if len(b) == 0 {
		return
	}
	kept := len(b) / 2 // the untouched line
	oursDoc := doc(concat(o, b[kept:])...)
	theirsDoc := doc(concat(b[:kept+1], th)...)
	want := doc(concat(o, b[kept:kept+1], th)...)
	if got := Merge(doc(b...), oursDoc, theirsDoc, labels); got != (Result{Text: want}) {
		t.Fatalf("separate edits: %+v, want %q and no conflict", got, want)
	}
}

// checkSameLinesEdited builds a document from base, has ours and theirs replace the same lines
// by their lines (at least one each), and checks that this is one conflict showing both.
func checkSameLinesEdited(t *testing.T, base, ours, theirs string) {
	t.Helper()
	b, o, th := tagged("b", base), tagged("o", ours+"\n"), tagged("t", theirs+"\n")
	from := len(b) / 3
	to := from + (len(b)-from)/2
	oursDoc := doc(concat(b[:from], o, b[to:])...)
	theirsDoc := doc(concat(b[:from], th, b[to:])...)
	want := doc(b[:from]...) + conflict(doc(o...), doc(th...)) + doc(b[to:]...)
	if got := Merge(doc(b...), oursDoc, theirsDoc, labels); got != (Result{Text: want, Conflicts: 1}) {
		t.Fatalf("same lines edited: %+v, want %q and 1 conflict", got, want)
	}
}

// tagged returns the lines of s, quoted and prefixed with the tag and the line's number, so that
// no two are equal, none equals a line of another tag, and none holds a line break.
func tagged(tag, s string) []string {
	lines := splitLines(s)
	for i, line := range lines {
		lines[i] = fmt.Sprintf("%s%d %q", tag, i, line)
	}
	return lines
}

func concat(parts ...[]string) []string {
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}
