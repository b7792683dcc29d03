package diff3

import (
	"fmt"
	"strings"
	"testing"
)

var labels = Labels{Ours: "ours", Theirs: "theirs"}

// doc is a text of the given lines, each ended with "\n".
func doc(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// conflict is a conflict hunk as Merge writes it with labels.
func conflict(ours, theirs string) string {
	return "<<<<<<< ours\n" + ours + "=======\n" + theirs + ">>>>>>> theirs\n"
}

func TestMerge(t *testing.T) {
	base := doc("a", "b", "c", "d", "e")
	tests := []struct {
		name               string
		base, ours, theirs string
		want               string
		conflicts          int
	}{
		{"OursUnchanged", base, base, doc("a", "B", "c", "d", "e"),
			doc("a", "B", "c", "d", "e"), 0},
		{"TheirsUnchanged", base, doc("a", "b", "C", "d", "e"), base,
			doc("a", "b", "C", "d", "e"), 0},
		{"SameEditOnBothSides", base, doc("a", "b", "X", "d", "e"), doc("a", "b", "X", "d", "e"),
			doc("a", "b", "X", "d", "e"), 0},
		{"SameEditAmongOthers", base, doc("A", "b", "X", "d", "e"), doc("a", "b", "X", "d", "E"),
			doc("A", "b", "X", "d", "E"), 0},
		{"NonOverlappingEdits", base, doc("A", "b", "c", "d", "e"), doc("a", "b", "c", "D", "e"),
			doc("A", "b", "c", "D", "e"), 0},
		{"InsertAtStartAndEnd", base, doc("0", "a", "b", "c", "d", "e"), doc("a", "b", "c", "d", "e", "f"),
			doc("0", "a", "b", "c", "d", "e", "f"), 0},
		{"InsertAtStartAndEditAtEnd", base, doc("0", "a", "b", "c", "d", "e"), doc("a", "b", "c", "d", "E"),
			doc("0", "a", "b", "c", "d", "E"), 0},
		{"DeletionsOnBothSides", base, doc("b", "c", "d", "e"), doc("a", "b", "c", "d"),
			doc("b", "c", "d"), 0},
		{"SameDeletion", base, doc("a", "c", "d", "e"), doc("a", "c", "d", "e"),
			doc("a", "c", "d", "e"), 0},
		{"DeleteAndEditElsewhere", base, doc("a", "c", "d", "e"), doc("a", "b", "c", "D", "e"),
			doc("a", "c", "D", "e"), 0},
		{"DeleteEverythingVersusUnchanged", base, "", base, "", 0},
		{"EditSameLine", base, doc("a", "b", "X", "d", "e"), doc("a", "b", "Y", "d", "e"),
			doc("a", "b") + conflict(doc("X"), doc("Y")) + doc("d", "e"), 1},
		{"EditSameLinesDifferentLengths", base, doc("a", "X", "e"), doc("a", "b", "Y1", "Y2", "Y3", "d", "e"),
			doc("a") + conflict(doc("X"), doc("b", "Y1", "Y2", "Y3", "d")) + doc("e"), 1},
		{"DeleteVersusModify", base, doc("a", "b", "d", "e"), doc("a", "b", "C", "d", "e"),
			doc("a", "b") + conflict("", doc("C")) + doc("d", "e"), 1},
		{"ModifyVersusDelete", base, doc("a", "b", "C", "d", "e"), doc("a", "b", "d", "e"),
			doc("a", "b") + conflict(doc("C"), "") + doc("d", "e"), 1},
		{"AdjacentEditsConflictAsInGit", base, doc("a", "B", "c", "d", "e"), doc("a", "b", "C", "d", "e"),
			doc("a") + conflict(doc("B", "c"), doc("b", "C")) + doc("d", "e"), 1},
		{"InsertNextToEditConflicts", base, doc("a", "b", "new", "c", "d", "e"), doc("a", "b", "C", "d", "e"),
			doc("a", "b") + conflict(doc("new", "c"), doc("C")) + doc("d", "e"), 1},
		{"InsertsAtSamePlace", base, doc("a", "b", "X", "c", "d", "e"), doc("a", "b", "Y", "c", "d", "e"),
			doc("a", "b") + conflict(doc("X"), doc("Y")) + doc("c", "d", "e"), 1},
		{"InsertsAtEnd", base, base + doc("X"), base + doc("Y"),
			base + conflict(doc("X"), doc("Y")), 1},
		{"TwoConflicts", base, doc("A1", "b", "c", "d", "E1"), doc("A2", "b", "c", "d", "E2"),
			conflict(doc("A1"), doc("A2")) + doc("b", "c", "d") + conflict(doc("E1"), doc("E2")), 2},
		{"ConflictAndCleanEdit", base, doc("A1", "b", "c", "D", "e"), doc("A2", "b", "c", "d", "e"),
			conflict(doc("A1"), doc("A2")) + doc("b", "c", "D", "e"), 1},
		{"EmptyBaseSameText", "", doc("x"), doc("x"), doc("x"), 0},
		{"EmptyBaseDifferentTexts", "", doc("x"), doc("y"), conflict(doc("x"), doc("y")), 1},
		{"AllEmpty", "", "", "", "", 0},
		{"NoTrailingNewlineConflict", "a\nb", "a\nX", "a\nY",
			"a\n" + conflict("X\n", "Y\n"), 1},
		{"NoTrailingNewlineOnOneSide", "a\nb\n", "a\nX", "a\nY\n",
			"a\n" + conflict("X\n", "Y\n"), 1},
		{"TrailingNewlineRemovedAndEditElsewhere", doc("a", "b", "c"), "a\nb\nc", doc("A", "b", "c"),
			"A\nb\nc", 0},
		{"CRLFMarkers", "a\r\nb\r\nc\r\n", "a\r\nX\r\nc\r\n", "a\r\nY\r\nc\r\n",
			"a\r\n<<<<<<< ours\r\nX\r\n=======\r\nY\r\n>>>>>>> theirs\r\nc\r\n", 1},
		{"CRLFEndingMissing", "a\r\nb", "a\r\nX", "a\r\nY",
			"a\r\n<<<<<<< ours\r\nX\r\n=======\r\nY\r\n>>>>>>> theirs\r\n", 1},
		{"CRLFIsPartOfTheLine", doc("a", "b", "c"), "a\r\nb\nc\n", doc("a", "b", "C"), "a\r\nb\nC\n", 0},
		{"InvalidUTF8PassesThrough", doc("a", "\xff\xfe", "c"), doc("A", "\xff\xfe", "c"), doc("a", "\xff\xfe", "\xc3"),
			doc("A", "\xff\xfe", "\xc3"), 0},
		{"NULBytes", doc("a", "\x00", "c"), doc("a", "\x00\x00", "c"), doc("a", "\x00", "c", "d"),
			doc("a", "\x00\x00", "c", "d"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Merge(tt.base, tt.ours, tt.theirs, labels)
			if got.Text != tt.want || got.Conflicts != tt.conflicts {
				t.Errorf("Merge = %d conflicts, text\n%q\nwant %d conflicts, text\n%q", got.Conflicts, got.Text, tt.conflicts, tt.want)
			}
		})
	}
}

func TestMergeLabels(t *testing.T) {
	base, ours, theirs := doc("a"), doc("X"), doc("Y")
	tests := []struct {
		name   string
		labels Labels
		want   string
	}{
		{"Named", Labels{Ours: "HEAD", Theirs: "change request #12"},
			"<<<<<<< HEAD\nX\n=======\nY\n>>>>>>> change request #12\n"},
		{"EmptyAreBareMarkers", Labels{},
			"<<<<<<<\nX\n=======\nY\n>>>>>>>\n"},
		{"LineBreaksBecomeSpaces", Labels{Ours: "a\nb", Theirs: "c\r\nd"},
			"<<<<<<< a b\nX\n=======\nY\n>>>>>>> c  d\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Merge(base, ours, theirs, tt.labels)
			if got.Text != tt.want || got.Conflicts != 1 {
				t.Errorf("Merge = %d conflicts, text %q; want 1, %q", got.Conflicts, got.Text, tt.want)
			}
		})
	}
}

// TestMergeTooManyDistinctLines checks the fallback for texts whose distinct lines outnumber
// the runes that stand for lines in the diff: the whole text is one conflict.
func TestMergeTooManyDistinctLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds texts of over a million lines")
	}
	var b strings.Builder
	for i := range maxTokens {
		fmt.Fprintf(&b, "%d\n", i)
	}
	base := b.String()
	ours, theirs := "ours\n"+base, "theirs\n"+base
	got := Merge(base, ours, theirs, labels)
	if want := conflict(ours, theirs); got.Conflicts != 1 || got.Text != want {
		t.Errorf("Merge = %d conflicts, text of %d bytes; want 1 conflict of the whole texts", got.Conflicts, len(got.Text))
	}
}

// BenchmarkMerge merges two 10,000-line documents, each with a few edits to different places.
func BenchmarkMerge(b *testing.B) {
	base := make([]string, 10_000)
	for i := range base {
		base[i] = fmt.Sprintf("Line %d of a long page, with some words to make it realistic.", i)
	}
	ours, theirs := editLines(base, 100, 4_000, 7_500), editLines(base, 2_000, 6_000, 9_990)
	baseText, oursText, theirsText := doc(base...), doc(ours...), doc(theirs...)
	b.SetBytes(int64(len(baseText) + len(oursText) + len(theirsText)))
	for b.Loop() {
		if r := Merge(baseText, oursText, theirsText, labels); r.Conflicts != 0 {
			b.Fatalf("%d conflicts", r.Conflicts)
		}
	}
}

// editLines returns a copy of lines with each line at the given indexes changed and a line
// inserted after it.
func editLines(lines []string, at ...int) []string {
	var edited []string
	next := 0
	for _, i := range at {
		edited = append(edited, lines[next:i]...)
		edited = append(edited, lines[i]+" (edited)", fmt.Sprintf("A new line after line %d.", i))
		next = i + 1
	}
	return append(edited, lines[next:]...)
}
