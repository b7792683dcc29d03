package search

import (
	"fmt"
	"strings"
	"testing"
)

func TestSectionID(t *testing.T) {
	id := sectionID(5, 1<<pageBits-1, MaxPageSections-1)
	if spaceKeyOf(id) != 5 || pageKey(id) != 5<<pageBits|(1<<pageBits-1) || id&(MaxPageSections-1) != MaxPageSections-1 {
		t.Fatalf("id %x: space %d, page %x", id, spaceKeyOf(id), pageKey(id))
	}
	if next := sectionID(6, 0, 0); next <= id {
		t.Errorf("the next space's first section %x is not after %x: a space's ids are not one range", next, id)
	}
}

func TestFoldOrdinals(t *testing.T) {
	var sections []Section
	for i := range MaxPageSections + 2 {
		sections = append(sections, Section{PageID: "p", Ordinal: i, Heading: fmt.Sprint("h", i), Body: fmt.Sprint("b", i)})
	}
	sections = append(sections, Section{PageID: "q", Ordinal: 0, Body: "other page"})
	got := foldOrdinals(sections)
	if len(got) != MaxPageSections+1 {
		t.Fatalf("%d sections, want %d", len(got), MaxPageSections+1)
	}
	last := got[MaxPageSections-1]
	want := fmt.Sprintf("b%d\nh%d\nb%d\nh%d\nb%d", MaxPageSections-1, MaxPageSections, MaxPageSections, MaxPageSections+1, MaxPageSections+1)
	if last.Ordinal != MaxPageSections-1 || last.Heading != fmt.Sprint("h", MaxPageSections-1) || last.Body != want {
		t.Errorf("last section %+v, want body %q", last, want)
	}
	if got[MaxPageSections].PageID != "q" {
		t.Errorf("the other page's section moved: %+v", got[MaxPageSections])
	}
}

// TestFoldOrdinalsTrims: the folded text is what joining and trimming at each section gave, blank
// sections and the spaces around each joined text dropped.
func TestFoldOrdinalsTrims(t *testing.T) {
	bodies := []string{" first  ", "", " \n", "  mid ", "\t", "last  "}
	sections := make([]Section, MaxPageSections-1, MaxPageSections+len(bodies))
	for i := range sections {
		sections[i] = Section{PageID: "p", Ordinal: i}
	}
	want := ""
	for i, b := range bodies {
		s := Section{PageID: "p", Ordinal: MaxPageSections - 1 + i, Body: b}
		if i%2 == 1 {
			s.Heading = " h "
		}
		sections = append(sections, s)
		if i == 0 {
			want = b
		} else {
			want = strings.TrimSpace(want + "\n" + s.Heading + "\n" + b)
		}
	}
	if got := foldOrdinals(sections)[MaxPageSections-1].Body; got != want {
		t.Fatalf("body %q, want %q", got, want)
	}
}
